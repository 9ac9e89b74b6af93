/**
 * Closed subscription periods (subscription_period_closes) and what their late usage needs: the
 * row a period close inserts (its primary key makes a second regular invoice for one subscription
 * period impossible), the periods with late events not billed yet, and what was billed for a period.
 *
 * `accounted_seq` counts in usage_events.seq. Every reader and writer here runs under the
 * subscription's row lock (FOR UPDATE), which ingestion's FOR KEY SHARE waits for: every event of
 * the subscription with a seq up to the sequence's last value is then committed and visible, and
 * every later one draws a greater seq.
 */
import { Prisma } from '../generated/prisma/client.js';
import type { DbClient } from './client.js';
import { fromDecimal } from './money.js';
import type { BilledSkuRow } from './invoices.js';
import { runStatement, statement } from './sql.js';

export interface PeriodCloseRow {
  subscriptionId: string;
  periodStart: Date;
  periodEnd: Date;
  invoiceId: string | null;
}

/** The usage event sequence's last value: every event drawn so far. */
const LAST_SEQ = Prisma.sql`COALESCE(pg_sequence_last_value('usage_events_seq_seq'::regclass), 0)`;

const PERIOD_CLOSE = statement(
  'SELECT subscription_id AS "subscriptionId", period_start AS "periodStart", period_end AS "periodEnd", invoice_id AS "invoiceId" FROM subscription_period_closes WHERE subscription_id = $1::uuid AND period_start = $2',
);

export async function findPeriodClose(tx: DbClient, subscriptionId: string, periodStart: Date): Promise<PeriodCloseRow | null> {
  const [row] = await runStatement<PeriodCloseRow>(tx, PERIOD_CLOSE, [subscriptionId, periodStart]);
  return row ?? null;
}

/**
 * Records a period as closed, its late usage counted from every event stored so far, and moves the
 * subscription's closed_through to its end (what ingestion reads, under the row lock, to flag late
 * events: a final close moves no period).
 */
export async function insertPeriodClose(tx: DbClient, close: PeriodCloseRow, at: Date): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO subscription_period_closes (subscription_id, period_start, period_end, invoice_id, accounted_seq, closed_at)
    VALUES (${close.subscriptionId}::uuid, ${close.periodStart}, ${close.periodEnd}, ${close.invoiceId}::uuid, ${LAST_SEQ}, ${at})`;
  await tx.$executeRaw`
    UPDATE subscriptions SET closed_through = GREATEST(closed_through, ${close.periodEnd}::timestamptz)
    WHERE id = ${close.subscriptionId}::uuid AND (closed_through IS NULL OR closed_through < ${close.periodEnd}::timestamptz)`;
}

/**
 * The subscription's closed periods (starting before `before`; all when null) that late events arrived for since
 * they were last accounted: its own events and its customer's events without a subscription_id
 * whose timestamp falls in the period. Reads only late events (a partial index), never the
 * periods' usage.
 */
export async function periodsWithLateUsage(tx: DbClient, subscription: { id: string; customerId: string }, before: Date | null): Promise<PeriodCloseRow[]> {
  const rows = await tx.$queryRaw<{ period_start: Date; period_end: Date; invoice_id: string | null }[]>`
    SELECT c.period_start, c.period_end, c.invoice_id::text AS invoice_id
    FROM subscription_period_closes c
    WHERE c.subscription_id = ${subscription.id}::uuid ${before === null ? Prisma.empty : Prisma.sql`AND c.period_start < ${before}`}
      AND EXISTS (
        SELECT 1 FROM usage_events e
        WHERE e.late AND e.customer_id = ${subscription.customerId}::uuid AND e.seq > c.accounted_seq
          AND (e.subscription_id = c.subscription_id OR e.subscription_id IS NULL)
          AND e.occurred_at >= c.period_start AND e.occurred_at < c.period_end)
    ORDER BY c.period_start`;
  return rows.map((r) => ({ subscriptionId: subscription.id, periodStart: r.period_start, periodEnd: r.period_end, invoiceId: r.invoice_id }));
}

/** The periods' late usage is billed up to every event stored so far. */
export async function markPeriodsAccounted(tx: DbClient, subscriptionId: string, periodStarts: Date[]): Promise<void> {
  if (periodStarts.length === 0) return;
  await tx.$executeRaw`
    UPDATE subscription_period_closes SET accounted_seq = ${LAST_SEQ}
    WHERE subscription_id = ${subscriptionId}::uuid AND period_start = ANY(${periodStarts}::timestamptz[])`;
}

/** Whether a Draft still carries the subscription's charges for the period (its own invoice, finalized at the end of its grace). */
export async function periodDraftPending(tx: DbClient, subscriptionId: string, periodStart: Date): Promise<boolean> {
  const rows = await tx.$queryRaw<{ one: number }[]>`
    SELECT 1 AS one FROM invoice_line_items l JOIN invoices i ON i.id = l.invoice_id
    WHERE l.subscription_id = ${subscriptionId}::uuid AND l.period_start = ${periodStart}
      AND i.status = 'Draft' AND i.period_start = ${periodStart}
    LIMIT 1`;
  return rows.length > 0;
}

/**
 * Per SKU, the usage quantities and amounts every invoice ever carried for the subscription's period
 * (its own invoice, progressive invoices, adjustment lines on later invoices; Void ones too: an
 * operator who voided usage decided about it). What a late-usage adjustment is the difference to.
 */
export async function usageBilledForPeriod(
  tx: DbClient,
  subscriptionId: string,
  periodStart: Date,
  options: { minimums?: boolean } = {},
): Promise<BilledSkuRow[]> {
  // With minimums, a SKU's minimum true-up lines are summed under "<sku_id>:minimum" beside its usage.
  const kinds = options.minimums === true ? ['usage', 'minimum'] : ['usage'];
  const rows = await tx.$queryRaw<{ sku_id: string; dimensions: Record<string, string | null> | null; quantity: string[]; amount: Prisma.Decimal }[]>`
    SELECT CASE WHEN l.kind = 'minimum' THEN l.sku_id::text || ':minimum' ELSE l.sku_id::text END AS sku_id, l.dimensions,
           array_agg(l.quantity) AS quantity, sum(l.amount_nanos) AS amount
    FROM invoice_line_items l
    WHERE l.subscription_id = ${subscriptionId}::uuid AND l.period_start = ${periodStart}
      AND l.kind = ANY(${kinds}::text[]) AND l.sku_id IS NOT NULL
    GROUP BY 1, 2`;
  return rows.map((row) => ({ skuId: row.sku_id, dimensions: row.dimensions, quantities: row.quantity, amountNanos: fromDecimal(row.amount) }));
}

/** Ended subscriptions (Expired) with late usage not billed yet, for correction invoices. */
export async function endedSubscriptionsWithLateUsage(tx: DbClient, testClockId: string | null | undefined): Promise<string[]> {
  const clock = testClockId === undefined ? Prisma.empty : testClockId === null ? Prisma.sql`AND s.test_clock_id IS NULL` : Prisma.sql`AND s.test_clock_id = ${testClockId}::uuid`;
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT s.id::text AS id FROM subscriptions s
    WHERE s.status = 'Expired' ${clock}
      AND EXISTS (
        SELECT 1 FROM subscription_period_closes c JOIN usage_events e
          ON e.late AND e.customer_id = s.customer_id AND e.seq > c.accounted_seq
         AND (e.subscription_id = c.subscription_id OR e.subscription_id IS NULL)
         AND e.occurred_at >= c.period_start AND e.occurred_at < c.period_end
        WHERE c.subscription_id = s.id)
    ORDER BY s.id`;
  return rows.map((r) => r.id);
}
