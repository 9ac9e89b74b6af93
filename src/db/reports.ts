/**
 * Revenue reports in SQL: accounts receivable aging from the ledger's receivable entries, MRR from
 * subscriptions' plan phases and their plans' flat fees, and the deferred revenue schedule from the
 * deferred lines of finalized invoices. Every query aggregates in PostgreSQL and returns one row per
 * group of text columns (a SqlReader: the API reads them straight off the pg pool, thousands of rows
 * per report); money leaves as decimal text (never a float) and is read into bigint.
 */
import { Prisma } from '../generated/prisma/client.js';
import type { SqlReader } from './client.js';

export interface ReportFilter {
  customerId: string | null;
  currency: string | null;
}

export interface AgingRow {
  customerId: string;
  customerName: string;
  currency: string;
  current: bigint;
  days1To30: bigint;
  days31To60: bigint;
  days61To90: bigint;
  over90: bigint;
  total: bigint;
  openInvoices: number;
  /** The instant the row is aged against (the customer's own time in customer-time mode). */
  asOf: Date;
}

/**
 * The instant receivables are read and aged at: one for every customer, or (`customerTime`) each
 * customer's own time, its test clock's frozen time when it has one, else `asOf` (now). In
 * customer-time mode the queries join `customer_clocks` (the customers on a test clock and its time,
 * a CTE: `clocks` to put first in a WITH list, `withClocks` as a whole WITH clause) by customer id;
 * `at` is the per-row instant and `earliest` the lowest of them (an index bound).
 */
function asOfSql(asOf: Date, customerTime: boolean) {
  if (!customerTime) {
    const at = Prisma.sql`${asOf}::timestamptz`;
    return { clocks: Prisma.empty, withClocks: Prisma.empty, join: () => Prisma.empty, at, earliest: at };
  }
  const clocks = Prisma.sql`customer_clocks AS (SELECT c.id AS customer_id, tc.frozen_time FROM customers c JOIN test_clocks tc ON tc.id = c.test_clock_id)`;
  return {
    clocks: Prisma.sql`${clocks},`,
    withClocks: Prisma.sql`WITH ${clocks}`,
    join: (alias: string) => Prisma.sql`LEFT JOIN customer_clocks k ON k.customer_id = ${Prisma.raw(alias)}.customer_id`,
    at: Prisma.sql`COALESCE(k.frozen_time, ${asOf}::timestamptz)`,
    earliest: Prisma.sql`(SELECT LEAST(${asOf}::timestamptz, min(frozen_time)) FROM customer_clocks)`,
  };
}

/** An entry's amount on the debit side (what it adds to a receivable), in SQL over the alias `e`. */
const DEBIT_NET = Prisma.raw(`CASE WHEN e.side = 'debit' THEN e.amount_nanos ELSE -e.amount_nanos END`);

/**
 * Open receivables as of an instant, per customer and currency, aged by the due date of the invoice
 * each receivable entry belongs to. What is open on an invoice is the net of its accounts_receivable
 * entries effective at or before `asOf` (finalization, wallet drawdown, payments, credit notes,
 * refunds, void reversals), so the totals are the ledger's receivable balance by construction. Days
 * past due are whole UTC calendar days from the due date to the as-of date (0 or less: current).
 *
 * The nets and due dates come from ledger_receivable_items (one per receivable account and invoice,
 * kept by triggers with every posting and finalization): an item whose entries are all at or before
 * `asOf` is open by its net (only the nonzero ones are read, through a partial index); an item with
 * entries on both sides of `asOf` is summed from its entries up to then (through the journals of its
 * invoice, one by one: few when `asOf` is recent); an item with none by then is not open. So the
 * report reads what is open now plus what moved after `asOf`, not the whole ledger.
 *
 * Only what is owed is aged: an item whose net is not positive is no open receivable (a credit the
 * customer has is its credit balance, a liability, never a negative receivable), so no amount is
 * negative, and `openInvoices` counts the invoices with something still owed.
 *
 * With `customerTime`, each customer's receivables are read and aged at its own time (see asOfSql),
 * still in this one statement.
 */
export async function arAging(read: SqlReader, asOf: Date, filter: ReportFilter, customerTime = false): Promise<AgingRow[]> {
  const { clocks, join, at, earliest } = asOfSql(asOf, customerTime);
  const rows = await read<
    { customer_id: string; customer_name: string; currency: string; c0: string; c1: string; c2: string; c3: string; c4: string; total: string; invoices: string; as_of: string }
  >(
    Prisma.sql`WITH ${clocks} open_items AS (
       SELECT r.customer_id, r.currency, r.invoice_id, r.due_at, r.balance_nanos AS open_nanos, ${at} AS as_of
         FROM ledger_receivable_items r ${join('r')}
        WHERE r.last_effective_at <= ${at} AND r.balance_nanos <> 0
          AND (${filter.customerId}::uuid IS NULL OR r.customer_id = ${filter.customerId}::uuid) AND (${filter.currency}::text IS NULL OR r.currency = ${filter.currency}::text)
       UNION ALL
       SELECT r.customer_id, r.currency, r.invoice_id, r.due_at, t.open_nanos, ${at} AS as_of
         FROM ledger_receivable_items r ${join('r')}
        CROSS JOIN LATERAL (
          SELECT sum(${DEBIT_NET}) AS open_nanos
            FROM ledger_journals j JOIN ledger_entries e ON e.journal_id = j.id AND e.account_id = r.account_id AND e.effective_at <= ${at}
           WHERE j.invoice_id = r.invoice_id) t
        WHERE r.invoice_id IS NOT NULL AND r.first_effective_at <= ${at} AND r.last_effective_at > ${earliest} AND r.last_effective_at > ${at} AND t.open_nanos <> 0
          AND (${filter.customerId}::uuid IS NULL OR r.customer_id = ${filter.customerId}::uuid) AND (${filter.currency}::text IS NULL OR r.currency = ${filter.currency}::text)
       UNION ALL
       SELECT r.customer_id, r.currency, NULL::uuid, NULL::timestamptz, sum(${DEBIT_NET}), max(${at})
         FROM ledger_receivable_items r ${join('r')}
         JOIN ledger_entries e ON e.account_id = r.account_id AND e.effective_at <= ${at}
         JOIN ledger_journals j ON j.id = e.journal_id AND j.invoice_id IS NULL
        WHERE r.invoice_id IS NULL AND r.first_effective_at <= ${at} AND r.last_effective_at > ${earliest} AND r.last_effective_at > ${at}
          AND (${filter.customerId}::uuid IS NULL OR r.customer_id = ${filter.customerId}::uuid) AND (${filter.currency}::text IS NULL OR r.currency = ${filter.currency}::text)
        GROUP BY r.customer_id, r.currency
       HAVING sum(${DEBIT_NET}) <> 0
     ), aged AS (
       SELECT o.customer_id, o.currency, o.invoice_id, o.open_nanos, o.as_of,
              COALESCE((o.as_of AT TIME ZONE 'UTC')::date - (o.due_at AT TIME ZONE 'UTC')::date, 0) AS days_past_due
         FROM open_items o
        WHERE o.open_nanos > 0
     )
     SELECT g.customer_id::text AS customer_id, c.display_name AS customer_name, g.currency,
            g.c0::text AS c0, g.c1::text AS c1, g.c2::text AS c2, g.c3::text AS c3, g.c4::text AS c4, g.total::text AS total, g.invoices::text AS invoices,
            to_char(g.as_of AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS as_of
       FROM (
         SELECT customer_id, currency,
                COALESCE(sum(open_nanos) FILTER (WHERE days_past_due <= 0), 0) AS c0,
                COALESCE(sum(open_nanos) FILTER (WHERE days_past_due BETWEEN 1 AND 30), 0) AS c1,
                COALESCE(sum(open_nanos) FILTER (WHERE days_past_due BETWEEN 31 AND 60), 0) AS c2,
                COALESCE(sum(open_nanos) FILTER (WHERE days_past_due BETWEEN 61 AND 90), 0) AS c3,
                COALESCE(sum(open_nanos) FILTER (WHERE days_past_due > 90), 0) AS c4,
                sum(open_nanos) AS total,
                (count(*) FILTER (WHERE invoice_id IS NOT NULL))::int AS invoices,
                max(as_of) AS as_of
           FROM aged GROUP BY customer_id, currency
       ) g JOIN customers c ON c.id = g.customer_id
      ORDER BY g.currency, c.display_name, g.customer_id`,
  );
  return rows.map((r) => ({
    customerId: r.customer_id,
    customerName: r.customer_name,
    currency: r.currency.trim(),
    current: BigInt(r.c0),
    days1To30: BigInt(r.c1),
    days31To60: BigInt(r.c2),
    days61To90: BigInt(r.c3),
    over90: BigInt(r.c4),
    total: BigInt(r.total),
    openInvoices: Number(r.invoices),
    asOf: new Date(r.as_of),
  }));
}

/**
 * One account kind's balance on its normal side per currency, as of an instant (the tie-out figure);
 * with `customerTime`, each customer's accounts as of its own time (see asOfSql).
 */
export async function ledgerBalancesAsOf(
  read: SqlReader,
  kind: 'accounts_receivable' | 'deferred_revenue',
  asOf: Date,
  filter: ReportFilter,
  customerTime = false,
): Promise<Map<string, bigint>> {
  const { withClocks, join, at } = asOfSql(asOf, customerTime);
  const rows = await read<{ currency: string; balance: string }>(Prisma.sql`
    ${withClocks}
    SELECT a.currency,
           (sum(CASE WHEN e.side = 'debit' THEN e.amount_nanos ELSE -e.amount_nanos END)
              * CASE WHEN ${kind}::text = 'accounts_receivable' THEN 1 ELSE -1 END)::text AS balance
      FROM ledger_accounts a ${join('a')} JOIN ledger_entries e ON e.account_id = a.id AND e.effective_at <= ${at}
     WHERE a.kind = ${kind}::"LedgerAccountKind"
       AND (${filter.customerId}::uuid IS NULL OR a.customer_id = ${filter.customerId}::uuid)
       AND (${filter.currency}::text IS NULL OR a.currency = ${filter.currency}::text)
     GROUP BY a.currency`);
  return new Map(rows.map((r) => [r.currency.trim(), BigInt(r.balance)]));
}

/**
 * The MRR intervals: one row per plan phase of a subscription, with the flat fees of the plan version
 * the phase is on (plan versions: a later price change never re-prices it) in the subscription's currency normalised to a month (Quarterly / 3, SemiAnnual / 6, Annual / 12,
 * rounded toward zero) and the instants it counts from (the phase start, or the trial end when
 * later) and until (the first of the phase end, the cancellation, the pause and, for an Expired
 * subscription, the end of its last period).
 */
const MRR_INTERVALS = Prisma.sql`
  SELECT s.id AS subscription_id, s.customer_id, s.currency, p.plan_id,
         div(f.fee_nanos, CASE pl.billing_cadence WHEN 'Monthly' THEN 1 WHEN 'Quarterly' THEN 3 WHEN 'SemiAnnual' THEN 6 ELSE 12 END) AS mrr_nanos,
         GREATEST(p.starts_at, s.trial_end) AS counts_from,
         LEAST(p.ends_at, s.cancelled_at, s.paused_at, CASE WHEN s.status = 'Expired' THEN s.period_end END) AS counts_until
    FROM subscription_phases p
    JOIN subscriptions s ON s.id = p.subscription_id
    JOIN plans pl ON pl.id = p.plan_id
    JOIN LATERAL (
      SELECT sum(k.unit_amount_nanos) AS fee_nanos FROM skus k
       WHERE k.plan_id = p.plan_id AND k.currency = s.currency AND k.pricing_model = 'Flat'
         AND k.version_from <= p.plan_version AND (k.version_to IS NULL OR k.version_to > p.plan_version)
    ) f ON f.fee_nanos IS NOT NULL`;

export interface MrrRow {
  customerId: string;
  customerName: string;
  currency: string;
  planId: string;
  planName: string;
  cadence: string;
  subscriptions: number;
  mrr: bigint;
}

/** MRR per customer, plan and currency as of an instant: the intervals in force then. */
export async function mrrAsOf(read: SqlReader, asOf: Date, filter: ReportFilter): Promise<MrrRow[]> {
  const rows = await read<
    { customer_id: string; customer_name: string; currency: string; plan_id: string; plan_name: string; cadence: string; subscriptions: string; mrr: string }
  >(
    Prisma.sql`WITH intervals AS (${MRR_INTERVALS})
     SELECT g.customer_id::text AS customer_id, c.display_name AS customer_name, g.currency, g.plan_id::text AS plan_id,
            pl.name AS plan_name, pl.billing_cadence::text AS cadence, g.subscriptions::text AS subscriptions, g.mrr::text AS mrr
       FROM (SELECT customer_id, currency, plan_id, count(DISTINCT subscription_id)::int AS subscriptions, sum(mrr_nanos) AS mrr
               FROM intervals
              WHERE counts_from <= ${asOf}::timestamptz AND (counts_until IS NULL OR counts_until > ${asOf}::timestamptz)
                AND (${filter.customerId}::uuid IS NULL OR customer_id = ${filter.customerId}::uuid) AND (${filter.currency}::text IS NULL OR currency = ${filter.currency}::text)
              GROUP BY customer_id, currency, plan_id) g
       JOIN customers c ON c.id = g.customer_id
       JOIN plans pl ON pl.id = g.plan_id
      ORDER BY g.currency, c.display_name, g.customer_id, pl.name, g.plan_id`,
  );
  return rows.map((r) => ({
    customerId: r.customer_id,
    customerName: r.customer_name,
    currency: r.currency.trim(),
    planId: r.plan_id,
    planName: r.plan_name,
    cadence: r.cadence,
    subscriptions: Number(r.subscriptions),
    mrr: BigInt(r.mrr),
  }));
}

/** Each currency's MRR total at each instant: `mrrAsOf`'s totals at many instants in one statement. */
export async function mrrTotalsAt(read: SqlReader, instants: Date[], filter: ReportFilter): Promise<{ asOf: Date; currency: string; mrr: bigint }[]> {
  if (instants.length === 0) return [];
  const rows = await read<{ as_of: Date; currency: string; mrr: string }>(
    Prisma.sql`WITH intervals AS (${MRR_INTERVALS}),
          instants AS (SELECT unnest(${instants.map((at) => at.toISOString())}::text[])::timestamptz AS as_of)
     SELECT n.as_of, i.currency, sum(i.mrr_nanos)::text AS mrr
       FROM instants n
       JOIN intervals i ON i.counts_from <= n.as_of AND (i.counts_until IS NULL OR i.counts_until > n.as_of)
      WHERE (${filter.customerId}::uuid IS NULL OR i.customer_id = ${filter.customerId}::uuid) AND (${filter.currency}::text IS NULL OR i.currency = ${filter.currency}::text)
      GROUP BY n.as_of, i.currency
      ORDER BY n.as_of, i.currency`,
  );
  return rows.map((r) => ({ asOf: new Date(r.as_of), currency: r.currency.trim(), mrr: BigInt(r.mrr) }));
}

export interface MrrChangeRow {
  customerId: string;
  customerName: string;
  currency: string;
  start: bigint;
  end: bigint;
  /** Whether the customer had MRR in this currency at some instant before `from` (a return is a reactivation). */
  hadMrrBefore: boolean;
}

/** Each customer's MRR per currency at `from` and at `to` (customers with MRR at either). */
export async function mrrChanges(read: SqlReader, from: Date, to: Date, filter: ReportFilter): Promise<MrrChangeRow[]> {
  const rows = await read<{ customer_id: string; customer_name: string; currency: string; start_mrr: string; end_mrr: string; had_before: string }>(
    Prisma.sql`WITH intervals AS (
       SELECT * FROM (${MRR_INTERVALS}) i
        WHERE (${filter.customerId}::uuid IS NULL OR i.customer_id = ${filter.customerId}::uuid) AND (${filter.currency}::text IS NULL OR i.currency = ${filter.currency}::text)
     ), at_start AS (
       SELECT customer_id, currency, sum(mrr_nanos) AS mrr FROM intervals
        WHERE counts_from <= ${from}::timestamptz AND (counts_until IS NULL OR counts_until > ${from}::timestamptz) GROUP BY customer_id, currency
     ), at_end AS (
       SELECT customer_id, currency, sum(mrr_nanos) AS mrr FROM intervals
        WHERE counts_from <= ${to}::timestamptz AND (counts_until IS NULL OR counts_until > ${to}::timestamptz) GROUP BY customer_id, currency
     ), both_ends AS (
       SELECT COALESCE(s.customer_id, e.customer_id) AS customer_id, COALESCE(s.currency, e.currency) AS currency,
              COALESCE(s.mrr, 0) AS start_mrr, COALESCE(e.mrr, 0) AS end_mrr
         FROM at_start s FULL JOIN at_end e ON e.customer_id = s.customer_id AND e.currency = s.currency
     )
     SELECT b.customer_id::text AS customer_id, c.display_name AS customer_name, b.currency, b.start_mrr::text AS start_mrr, b.end_mrr::text AS end_mrr,
            (EXISTS (SELECT 1 FROM intervals i
                     WHERE i.customer_id = b.customer_id AND i.currency = b.currency AND i.mrr_nanos > 0
                       AND i.counts_from < ${from}::timestamptz AND (i.counts_until IS NULL OR i.counts_until > i.counts_from)))::text AS had_before
       FROM both_ends b JOIN customers c ON c.id = b.customer_id
      ORDER BY b.currency, c.display_name, b.customer_id`,
  );
  return rows.map((r) => ({
    customerId: r.customer_id,
    customerName: r.customer_name,
    currency: r.currency.trim(),
    start: BigInt(r.start_mrr),
    end: BigInt(r.end_mrr),
    hadMrrBefore: r.had_before === 'true',
  }));
}

export interface DeferredMonthRow {
  month: string;
  currency: string;
  opening: bigint;
  billed: bigint;
  recognized: bigint;
  reversed: bigint;
  closing: bigint;
  ledgerBalance: bigint;
}

/**
 * The deferred revenue schedule per UTC month in [fromMonth, toMonth] and currency. The lines are
 * those the ledger deferred: non-tax lines of invoices with a finalization journal whose service
 * period ends after the finalization. At a month boundary B a line holds amount − earned(B) while
 * its invoice is finalized and not voided by B, earned(B) being the ledger's ratable formula
 * (amount × elapsed / length over the service period, rounded toward zero, in epoch milliseconds).
 * A month's flows: billed (lines finalized in it), recognized (what lines still held at its end
 * earned in it, plus the part served before a finalization in it), reversed (what a void in it took
 * out), and closing = opening + billed − recognized − reversed exactly. ledgerBalance is the
 * deferred_revenue balance of the ledger as of the month's end.
 */
export async function deferredSchedule(read: SqlReader, fromMonth: string, toMonth: string, filter: ReportFilter): Promise<DeferredMonthRow[]> {
  const rows = await read<{ month: string; currency: string; opening: string; billed: string; recognized: string; reversed: string; closing: string; ledger_balance: string }>(Prisma.sql`
    WITH months AS (
      SELECT m AS month_start, m + interval '1 month' AS month_end,
             (extract(epoch FROM m) * 1000)::bigint AS b0, (extract(epoch FROM m + interval '1 month') * 1000)::bigint AS b1
        FROM generate_series((${fromMonth} || '-01')::timestamp AT TIME ZONE 'UTC', (${toMonth} || '-01')::timestamp AT TIME ZONE 'UTC', interval '1 month') AS m
    ), lines AS (
      SELECT i.currency, l.amount_nanos AS amount, i.finalized_at,
             CASE WHEN i.status = 'Void' THEN i.voided_at END AS voided_at,
             floor(extract(epoch FROM COALESCE(l.period_start, i.finalized_at)) * 1000)::bigint AS s,
             floor(extract(epoch FROM l.period_end) * 1000)::bigint AS e
        FROM invoice_line_items l JOIN invoices i ON i.id = l.invoice_id
       WHERE i.finalized_at IS NOT NULL AND NOT l.is_tax AND l.period_end IS NOT NULL AND l.period_end > i.finalized_at AND l.amount_nanos <> 0
         AND (${filter.customerId}::uuid IS NULL OR i.customer_id = ${filter.customerId}::uuid)
         AND (${filter.currency}::text IS NULL OR i.currency = ${filter.currency}::text)
         AND EXISTS (SELECT 1 FROM ledger_journals j WHERE j.business_key = 'invoice_finalized:' || i.id::text)
    ), flows AS (
      SELECT m.month_start, l.currency, l.amount,
             l.finalized_at <= m.month_start AND (l.voided_at IS NULL OR l.voided_at > m.month_start) AS live0,
             l.finalized_at <= m.month_end AND (l.voided_at IS NULL OR l.voided_at > m.month_end) AS live1,
             l.finalized_at > m.month_start AND l.finalized_at <= m.month_end AS billed_in,
             l.voided_at > m.month_start AND l.voided_at <= m.month_end AS voided_in,
             l.finalized_at <= m.month_start AS before_month,
             CASE WHEN l.e <= l.s OR m.b0 >= l.e THEN l.amount WHEN m.b0 <= l.s THEN 0 ELSE div(l.amount * (m.b0 - l.s), l.e - l.s) END AS earned0,
             CASE WHEN l.e <= l.s OR m.b1 >= l.e THEN l.amount WHEN m.b1 <= l.s THEN 0 ELSE div(l.amount * (m.b1 - l.s), l.e - l.s) END AS earned1
        FROM months m JOIN lines l ON l.finalized_at <= m.month_end AND (l.voided_at IS NULL OR l.voided_at > m.month_start)
    ), schedule AS (
      SELECT month_start, currency,
             sum(CASE WHEN live0 THEN amount - earned0 ELSE 0 END) AS opening,
             sum(CASE WHEN billed_in THEN amount ELSE 0 END) AS billed,
             sum(CASE WHEN live1 THEN earned1 - CASE WHEN before_month THEN earned0 ELSE 0 END ELSE 0 END) AS recognized,
             sum(CASE WHEN voided_in THEN amount - CASE WHEN before_month THEN earned0 ELSE 0 END ELSE 0 END) AS reversed,
             sum(CASE WHEN live1 THEN amount - earned1 ELSE 0 END) AS closing
        FROM flows GROUP BY month_start, currency
    ), ledger AS (
      SELECT m.month_start, a.currency, sum(CASE WHEN e.side = 'credit' THEN e.amount_nanos ELSE -e.amount_nanos END) AS balance
        FROM months m
        JOIN ledger_accounts a ON a.kind = 'deferred_revenue'
         AND (${filter.customerId}::uuid IS NULL OR a.customer_id = ${filter.customerId}::uuid)
         AND (${filter.currency}::text IS NULL OR a.currency = ${filter.currency}::text)
        JOIN ledger_entries e ON e.account_id = a.id AND e.effective_at <= m.month_end
       GROUP BY m.month_start, a.currency
    )
    SELECT to_char(COALESCE(s.month_start, g.month_start) AT TIME ZONE 'UTC', 'YYYY-MM') AS month, COALESCE(s.currency, g.currency) AS currency,
           COALESCE(s.opening, 0)::text AS opening, COALESCE(s.billed, 0)::text AS billed, COALESCE(s.recognized, 0)::text AS recognized,
           COALESCE(s.reversed, 0)::text AS reversed, COALESCE(s.closing, 0)::text AS closing, COALESCE(g.balance, 0)::text AS ledger_balance
      FROM schedule s FULL JOIN ledger g ON g.month_start = s.month_start AND g.currency = s.currency
     ORDER BY 2, 1`);
  return rows.map((r) => ({
    month: r.month,
    currency: r.currency.trim(),
    opening: BigInt(r.opening),
    billed: BigInt(r.billed),
    recognized: BigInt(r.recognized),
    reversed: BigInt(r.reversed),
    closing: BigInt(r.closing),
    ledgerBalance: BigInt(r.ledger_balance),
  }));
}
