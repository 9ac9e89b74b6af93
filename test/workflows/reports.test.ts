/**
 * Revenue reports on a test-clock scenario run by the real workflows: several customers on monthly
 * and annual plans, a trial, an upgrade, a downgrade, two cancellations (one coming back later), a
 * new customer, a partial payment by credit wallet, a partial credit note, a manual payment, a void
 * and a second currency. Every figure is checked against expectations computed here from the
 * scenario (MRR) or from the invoice documents the API shows (AR aging, deferred revenue), and the
 * reports tie out: AR aging = the ledger's receivable, the deferred schedule = the ledger's deferred
 * revenue, MRR start + movements = end.
 */
import { describe, expect, it } from 'vitest';
import { earnedBy, ONE_UNIT as UNIT } from '../../src/core/index.js';
import { recognizeDeferredRevenue } from '../../src/services/ledger/postings.js';
import { mrrTotalsReport } from '../../src/services/reports/reports.js';
import { insertLines, recomputeTotals } from '../../src/db/invoices.js';
import { newId } from '../../src/ids.js';
import { finalizeInvoice } from '../../src/services/invoicing/invoices.js';
import { applyTax, zeroTax } from '../../src/services/billing/tax.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { advanceClock } from '../support/clock-usage.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { expectJson, expectPage, terminatedAfterAll, useHarness } from '../support/harness.js';

const h = useHarness();
const cleanup = terminatedAfterAll(h);

const DAY_MS = 86_400_000;

interface Line {
  amount_nanos: string;
  is_tax: boolean;
  period_start: string | null;
  period_end: string | null;
}
interface Invoice {
  id: string;
  customer_id: string;
  currency: string;
  status: string;
  billing_reason: string;
  total_nanos: string;
  amount_due_nanos: string;
  due_at: string | null;
  finalized_at: string | null;
  voided_at: string | null;
  line_items: Line[];
}
interface AgingRow {
  customer_id: string;
  currency: string;
  current_nanos: string;
  days_1_30_nanos: string;
  days_31_60_nanos: string;
  days_61_90_nanos: string;
  over_90_nanos: string;
  total_nanos: string;
  open_invoices: number;
}
interface AgingReport {
  rows: AgingRow[];
  totals: (Omit<AgingRow, 'customer_id' | 'open_invoices'> & { ledger_accounts_receivable_nanos: string })[];
}
interface MrrReport {
  rows: { customer_id: string; currency: string; plan_id: string; mrr_nanos: string; subscriptions: number }[];
  totals: { currency: string; mrr_nanos: string }[];
}
interface MovementsReport {
  rows: { customer_id: string; currency: string; movement: string; start_mrr_nanos: string; end_mrr_nanos: string; change_nanos: string }[];
  totals: Record<string, string>[];
}
interface DeferredMonth {
  month: string;
  currency: string;
  opening_deferred_nanos: string;
  billed_nanos: string;
  recognized_nanos: string;
  reversed_nanos: string;
  closing_deferred_nanos: string;
  ledger_deferred_nanos: string;
  unposted_recognition_nanos: string;
}

const get = async <T>(path: string): Promise<T> => expectJson<T>(await h.request('GET', path));
const post = async <T>(path: string, body?: object, status = 200): Promise<T> => expectJson<T>(await h.request('POST', path, body ? { body } : {}), status);

/** Whole UTC calendar days from the due date to the as-of date. */
const daysPastDue = (asOf: string, dueAt: string): number => (Date.parse(asOf.slice(0, 10)) - Date.parse(dueAt.slice(0, 10))) / DAY_MS;

function bucketOf(days: number): keyof AgingRow {
  if (days <= 0) return 'current_nanos';
  if (days <= 30) return 'days_1_30_nanos';
  if (days <= 60) return 'days_31_60_nanos';
  if (days <= 90) return 'days_61_90_nanos';
  return 'over_90_nanos';
}

/** The aging each customer should show, from the invoices as the API showed them at `asOf`. */
function expectedAging(invoices: readonly Invoice[], asOf: string): Map<string, Record<string, bigint>> {
  const rows = new Map<string, Record<string, bigint>>();
  for (const invoice of invoices) {
    if (invoice.status !== 'Open' || BigInt(invoice.amount_due_nanos) === 0n) continue;
    const row = rows.get(invoice.customer_id) ?? { current_nanos: 0n, days_1_30_nanos: 0n, days_31_60_nanos: 0n, days_61_90_nanos: 0n, over_90_nanos: 0n, total_nanos: 0n };
    row[bucketOf(daysPastDue(asOf, invoice.due_at!))]! += BigInt(invoice.amount_due_nanos);
    row.total_nanos! += BigInt(invoice.amount_due_nanos);
    rows.set(invoice.customer_id, row);
  }
  return rows;
}

const monthStart = (month: string): number => Date.parse(`${month}-01T00:00:00.000Z`);
const nextMonth = (month: string): string => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
};

/**
 * What a customer's invoices hold as deferred revenue at an instant: lines of invoices finalized by
 * then (with a non-negative total, which the ledger posts) and not voided by then, whose service
 * period ends after the finalization, less what they earned ratably by then.
 */
function deferredAt(invoices: readonly Invoice[], atMs: number): bigint {
  let held = 0n;
  for (const invoice of invoices) {
    if (!invoice.finalized_at || BigInt(invoice.total_nanos) < 0n) continue;
    const finalizedMs = Date.parse(invoice.finalized_at);
    if (finalizedMs > atMs || (invoice.voided_at && Date.parse(invoice.voided_at) <= atMs)) continue;
    for (const line of invoice.line_items) {
      if (line.is_tax || !line.period_end || Date.parse(line.period_end) <= finalizedMs) continue;
      const amount = BigInt(line.amount_nanos);
      const start = line.period_start ? Date.parse(line.period_start) : finalizedMs;
      held += amount - earnedBy(amount, start, Date.parse(line.period_end), atMs);
    }
  }
  return held;
}

describe('revenue reports on a test-clock scenario', () => {
  it('AR aging, MRR, MRR movements and the deferred schedule match the scenario and tie to the ledger', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const advance = (to: string) => advanceClock(h, clockId, to);
    const basic = await makePlan(h.deps.db, { flatNanos: 50n * UNIT });
    const pro = await makePlan(h.deps.db, { flatNanos: 120n * UNIT });
    const annual = await makePlan(h.deps.db, { cadence: 'Annual', flatNanos: 1200n * UNIT });
    const trial = await makePlan(h.deps.db, { flatNanos: 30n * UNIT, trialDays: 14 });
    const euro = await makePlan(h.deps.db, { currency: 'EUR', flatNanos: 40n * UNIT });

    const customer = () => makeCustomer(h.deps.db, { testClockId: clockId });
    const [a, b, c, d, e, f, g] = [await customer(), await customer(), await customer(), await customer(), await customer(), await customer(), await customer()];
    const eur = await makeCustomer(h.deps.db, { testClockId: clockId, currency: 'EUR' });
    const all = [a, b, c, d, e, f, g, eur];
    const subscribe = async (customerId: string, planId: string, currency = 'USD') => {
      const sub = await post<{ id: string }>('/v1/subscriptions', { customer_id: customerId, plan_id: planId, currency }, 201);
      cleanup.push(subscriptionWorkflowId(sub.id));
      return sub.id;
    };
    const subA = await subscribe(a, basic);
    const subB = await subscribe(b, pro);
    const subC = await subscribe(c, annual);
    const subD = await subscribe(d, basic);
    const subE = await subscribe(e, basic);
    await subscribe(f, trial);
    await subscribe(eur, euro, 'EUR');
    // C's credit wallet pays part of its annual invoice (a partial payment).
    await post(`/admin/v1/customers/${c}/wallets/USD/grants`, { amount_nanos: (200n * UNIT).toString() }, 201);

    const invoicesOf = async (customerId: string): Promise<Invoice[]> => {
      const page = await expectPage<{ id: string }>(await h.request('GET', `/admin/v1/invoices?customer_id=${customerId}&limit=200`));
      return Promise.all(page.data.map((i) => get<Invoice>(`/admin/v1/invoices/${i.id}`)));
    };
    const everyInvoice = async () => (await Promise.all(all.map(invoicesOf))).flat();
    const finalize = (invoiceId: string) => post<Invoice>(`/admin/v1/invoices/${invoiceId}/finalize`);

    await advance('2026-01-10T00:00:00.000Z');
    await advance('2026-01-20T00:00:00.000Z');
    await post(`/admin/v1/subscriptions/${subE}/cancel`, { reason: 'churned' });
    // The annual fee billed on demand mid-period: deferred over its service period.
    const annualInvoice = await post<Invoice>(`/admin/v1/subscriptions/${subC}/bill`, undefined, 201);
    await finalize(annualInvoice.id);

    await advance('2026-02-01T02:00:00.000Z');
    await advance('2026-02-03T00:00:00.000Z');
    const openA = (await invoicesOf(a)).filter((i) => i.status === 'Open');
    expect(openA.length).toBeGreaterThan(0);
    await post(`/admin/v1/invoices/${openA[0]!.id}/pay`, { actor_id: 'ar-clerk', actor_name: 'AR clerk' });

    await advance('2026-02-05T00:00:00.000Z');
    await post(`/admin/v1/subscriptions/${subD}/cancel`, { reason: 'churned' });
    const openD = (await invoicesOf(d)).find((i) => i.status === 'Open')!;
    await post(`/admin/v1/invoices/${openD.id}/credit-notes`, { amount_nanos: (10n * UNIT).toString(), reason: 'product_unsatisfactory' }, 201);

    await advance('2026-02-10T00:00:00.000Z');
    const downgrade = await post<{ invoice: Invoice | null }>(`/admin/v1/subscriptions/${subB}/change-plan`, { plan_id: basic });
    if (downgrade.invoice?.status === 'Draft') await finalize(downgrade.invoice.id);

    await advance('2026-02-14T12:00:00.000Z');
    const upgrade = await post<{ invoice: Invoice | null }>(`/admin/v1/subscriptions/${subA}/change-plan`, { plan_id: pro });
    if (upgrade.invoice?.status === 'Draft') await finalize(upgrade.invoice.id);

    await advance('2026-02-16T02:00:00.000Z');
    const openF = (await invoicesOf(f)).find((i) => i.status === 'Open');
    expect(openF, 'the trial customer has an Open invoice to void').toBeDefined();
    await post(`/admin/v1/invoices/${openF!.id}/void`, { reason: 'billing mistake' });
    const midFebruary = '2026-02-16T02:00:00.000Z';
    const invoicesMidFebruary = await everyInvoice();

    await advance('2026-02-20T00:00:00.000Z');
    await subscribe(g, basic);
    await advance('2026-03-01T02:00:00.000Z');
    await advance('2026-03-03T00:00:00.000Z');
    await subscribe(e, pro);
    const now = '2026-03-15T00:00:00.000Z';
    await advance(now);
    const invoicesNow = await everyInvoice();

    // ── AR aging: the documents' open amounts by due date, equal to the ledger's receivable ──
    for (const [asOf, invoices] of [[midFebruary, invoicesMidFebruary], [now, invoicesNow]] as const) {
      const report = await get<AgingReport>(`/admin/v1/reports/ar-aging?as_of=${asOf}`);
      const expected = expectedAging(invoices, asOf);
      const mine = report.rows.filter((r) => all.includes(r.customer_id));
      expect(new Set(mine.map((r) => r.customer_id))).toEqual(new Set(expected.keys()));
      for (const row of mine) {
        const want = expected.get(row.customer_id)!;
        for (const [bucket, amount] of Object.entries(want)) expect(BigInt(row[bucket as keyof AgingRow] as string), `${row.customer_id} ${bucket} at ${asOf}`).toBe(amount);
      }
      for (const total of report.totals) expect(total.total_nanos, `${total.currency} at ${asOf}`).toBe(total.ledger_accounts_receivable_nanos);
      // Per customer: the ledger API's receivable as of the same instant.
      for (const customerId of all) {
        const ledger = await get<{ accounts: { kind: string; currency: string; balance_nanos: string }[] }>(`/admin/v1/customers/${customerId}/ledger/accounts?as_of=${asOf}`);
        const ar = ledger.accounts.find((x) => x.kind === 'accounts_receivable')?.balance_nanos ?? '0';
        const one = await get<AgingReport>(`/admin/v1/reports/ar-aging?as_of=${asOf}&customer_id=${customerId}`);
        expect(one.totals.reduce((s, t) => s + BigInt(t.total_nanos), 0n)).toBe(BigInt(ar));
      }
    }
    // Some receivable is past due by mid-March (January's invoices, 30-day terms), and C's wallet paid part of its invoice.
    const march = expectedAging(invoicesNow, now);
    expect(march.get(d)!.days_1_30_nanos).toBeGreaterThan(0n);
    const annualNow = invoicesNow.find((i) => i.id === annualInvoice.id)!;
    expect(BigInt(annualNow.amount_due_nanos)).toBe(1000n * UNIT);
    expect(invoicesNow.find((i) => i.id === openF!.id)!.status).toBe('Void');

    // As of every instant the scenario's receivable moved, and just before it: the aging (from the
    // receivable items the postings keep) equals the receivable summed straight from the ledger's entries.
    const moves = await h.deps.db.$queryRaw<{ at: Date }[]>`
      SELECT DISTINCT e.effective_at AS at FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
       WHERE a.kind = 'accounts_receivable' AND a.customer_id = ANY(${all}::uuid[]) ORDER BY 1`;
    expect(moves.length).toBeGreaterThan(5);
    for (const instant of moves.flatMap(({ at }) => [new Date(at.getTime() - 1), at])) {
      const ledger = await h.deps.db.$queryRaw<{ customer_id: string; currency: string; balance: string }[]>`
        SELECT a.customer_id::text AS customer_id, a.currency, sum(CASE WHEN e.side = 'debit' THEN e.amount_nanos ELSE -e.amount_nanos END)::text AS balance
          FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
         WHERE a.kind = 'accounts_receivable' AND a.customer_id = ANY(${all}::uuid[]) AND e.effective_at <= ${instant}
         GROUP BY 1, 2 HAVING sum(CASE WHEN e.side = 'debit' THEN e.amount_nanos ELSE -e.amount_nanos END) <> 0`;
      const report = await get<AgingReport>(`/admin/v1/reports/ar-aging?as_of=${instant.toISOString()}`);
      const aged = report.rows.filter((r) => all.includes(r.customer_id)).map((r) => `${r.customer_id} ${r.currency.trim()} ${r.total_nanos}`);
      expect(aged.sort(), instant.toISOString()).toEqual(ledger.map((r) => `${r.customer_id} ${r.currency.trim()} ${r.balance}`).sort());
    }
    // The items hold exactly what the entries add up to (one statement: one snapshot, whatever else is posting).
    const drift = await h.deps.db.$queryRaw<{ n: number }[]>`
      WITH from_entries AS (
        SELECT e.account_id, j.invoice_id, sum(CASE WHEN e.side = 'debit' THEN e.amount_nanos ELSE -e.amount_nanos END) AS balance,
               min(e.effective_at) AS first_at, max(e.effective_at) AS last_at
          FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id AND a.kind = 'accounts_receivable' JOIN ledger_journals j ON j.id = e.journal_id
         GROUP BY 1, 2)
      SELECT count(*)::int AS n FROM from_entries x FULL JOIN ledger_receivable_items r ON r.account_id = x.account_id AND r.invoice_id IS NOT DISTINCT FROM x.invoice_id
       WHERE (x.balance, x.first_at, x.last_at) IS DISTINCT FROM (r.balance_nanos, r.first_effective_at, r.last_effective_at)`;
    expect(drift[0]!.n).toBe(0);
    const dueDates = await h.deps.db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM ledger_receivable_items r JOIN invoices i ON i.id = r.invoice_id WHERE r.due_at IS DISTINCT FROM i.due_at`;
    expect(dueDates[0]!.n).toBe(0);

    // ── MRR: flat fees per month (annual / 12), trials, cancelled and paused excluded ──
    const mrrOf = async (asOf: string, currency = 'USD') => {
      const report = await get<MrrReport>(`/admin/v1/reports/mrr?as_of=${asOf}&currency=${currency}`);
      return new Map(report.rows.filter((r) => all.includes(r.customer_id)).map((r) => [r.customer_id, BigInt(r.mrr_nanos)]));
    };
    expect(await mrrOf('2026-01-10T00:00:00.000Z')).toEqual(new Map([[a, 50n * UNIT], [b, 120n * UNIT], [c, 100n * UNIT], [d, 50n * UNIT], [e, 50n * UNIT]]));
    expect(await mrrOf('2026-02-01T00:00:00.000Z')).toEqual(new Map([[a, 50n * UNIT], [b, 120n * UNIT], [c, 100n * UNIT], [d, 50n * UNIT], [f, 30n * UNIT]]));
    expect(await mrrOf(now)).toEqual(new Map([[a, 120n * UNIT], [b, 50n * UNIT], [c, 100n * UNIT], [e, 120n * UNIT], [f, 30n * UNIT], [g, 50n * UNIT]]));
    expect(await mrrOf(now, 'EUR')).toEqual(new Map([[eur, 40n * UNIT]]));
    // The operator overview's history (totals at many instants in one statement) says what the report says at each.
    const instants = ['2026-01-10T00:00:00.000Z', '2026-02-01T00:00:00.000Z', now].map((at) => new Date(at));
    for (const customerId of [a, e, f]) {
      const history = await mrrTotalsReport(h.deps, instants, { customerId });
      for (const at of instants) {
        const report = await get<MrrReport>(`/admin/v1/reports/mrr?as_of=${at.toISOString()}&customer_id=${customerId}`);
        expect(history.get(at.getTime()), `${customerId} at ${at.toISOString()}`).toEqual(new Map(report.totals.map((t) => [t.currency, BigInt(t.mrr_nanos)])));
      }
    }
    const mrrCsv = await h.request('GET', `/admin/v1/reports/mrr?as_of=${now}&customer_id=${c}`, { headers: { Accept: 'text/csv' } });
    expect(mrrCsv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect((await mrrCsv.text()).split('\r\n')).toEqual([
      'customer_id,customer_name,currency,plan_id,plan_name,billing_cadence,subscriptions,mrr_nanos',
      expect.stringMatching(new RegExp(`^${c},.*,USD,${annual},.*,Annual,1,${100n * UNIT}$`)),
      '',
    ]);

    // ── MRR movements from February 1st to March 15th: start + movements = end ──
    const movements = await get<MovementsReport>(`/admin/v1/reports/mrr-movements?from=2026-02-01T00:00:00Z&to=${now}`);
    const moved = new Map(movements.rows.filter((r) => all.includes(r.customer_id)).map((r) => [r.customer_id, [r.movement, BigInt(r.change_nanos)]]));
    expect(moved).toEqual(
      new Map<string, [string, bigint]>([
        [a, ['expansion', 70n * UNIT]],
        [b, ['contraction', -70n * UNIT]],
        [c, ['unchanged', 0n]],
        [d, ['churn', -50n * UNIT]],
        [e, ['reactivation', 120n * UNIT]],
        [f, ['unchanged', 0n]],
        [g, ['new', 50n * UNIT]],
        [eur, ['unchanged', 0n]],
      ]),
    );
    for (const t of movements.totals) {
      const sum = ['start_mrr_nanos', 'new_nanos', 'expansion_nanos', 'contraction_nanos', 'churn_nanos', 'reactivation_nanos'].reduce((s, k) => s + BigInt(t[k]!), 0n);
      expect(sum, t.currency).toBe(BigInt(t.end_mrr_nanos!));
    }
    const mine = await get<MovementsReport>(`/admin/v1/reports/mrr-movements?from=2026-02-01T00:00:00Z&to=${now}&customer_id=${e}`);
    expect(mine.totals).toEqual([
      { currency: 'USD', start_mrr_nanos: '0', new_nanos: '0', expansion_nanos: '0', contraction_nanos: '0', churn_nanos: '0', reactivation_nanos: (120n * UNIT).toString(), end_mrr_nanos: (120n * UNIT).toString() },
    ]);

    // ── Deferred revenue: the documents' deferred lines month by month, tied to the ledger ──
    const months = ['2026-01', '2026-02', '2026-03', '2026-04'];
    let deferredSeen = 0n;
    for (const customerId of all) {
      const invoices = invoicesNow.filter((i) => i.customer_id === customerId);
      const schedule = async () =>
        (await get<{ months: DeferredMonth[] }>(`/admin/v1/reports/deferred-revenue?from=2026-01&to=2026-04&customer_id=${customerId}`)).months;
      const before = await schedule();
      // What the ledger has not recognized yet (an annual customer's months wait for its period close) is the only difference.
      for (const m of before) expect(BigInt(m.ledger_deferred_nanos) - BigInt(m.closing_deferred_nanos)).toBe(BigInt(m.unposted_recognition_nanos));
      await h.deps.db.$transaction((tx) => recognizeDeferredRevenue(tx, customerId, new Date(now)));
      const rows = await schedule();
      for (const month of months) {
        const row = rows.find((r) => r.month === month);
        const opening = deferredAt(invoices, monthStart(month));
        const closing = deferredAt(invoices, monthStart(nextMonth(month)));
        if (!row) {
          expect([opening, closing], `${customerId} ${month}`).toEqual([0n, 0n]);
          continue;
        }
        expect([BigInt(row.opening_deferred_nanos), BigInt(row.closing_deferred_nanos)], `${customerId} ${month}`).toEqual([opening, closing]);
        expect(BigInt(row.opening_deferred_nanos) + BigInt(row.billed_nanos) - BigInt(row.recognized_nanos) - BigInt(row.reversed_nanos)).toBe(closing);
        deferredSeen += closing;
        // Months that ended by now: the ledger (caught up to now) holds exactly the schedule's balance.
        if (monthStart(nextMonth(month)) <= Date.parse(now)) {
          expect(row.ledger_deferred_nanos, `${customerId} ${month} ledger`).toBe(row.closing_deferred_nanos);
          const ledger = await get<{ accounts: { kind: string; balance_nanos: string }[] }>(
            `/admin/v1/customers/${customerId}/ledger/accounts?as_of=${new Date(monthStart(nextMonth(month))).toISOString()}`,
          );
          expect(ledger.accounts.find((x) => x.kind === 'deferred_revenue')?.balance_nanos ?? '0').toBe(row.closing_deferred_nanos);
        }
      }
    }
    expect(deferredSeen).toBeGreaterThan(0n);
    // The annual invoice: 1,200 billed in January, recognized ratably over 2026 (31 of 365 days by February 1st).
    const annualSchedule = (await get<{ months: DeferredMonth[] }>(`/admin/v1/reports/deferred-revenue?from=2026-01&to=2026-01&customer_id=${c}`)).months;
    expect(annualSchedule[0]).toMatchObject({ billed_nanos: (1200n * UNIT).toString(), closing_deferred_nanos: (1200n * UNIT - (1200n * UNIT * 31n) / 365n).toString() });
  }, 600_000);
});

describe('report requests', () => {
  it('answers the deferred revenue schedule under rows as well as months (the same items)', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const invoiceId = newId();
    await h.deps.db.$transaction(async (tx) => {
      await tx.invoice.create({ data: { id: invoiceId, customerId, currency: 'USD', billingReason: 'manual', createdAt: new Date('2026-01-01T00:00:00Z') } });
      await insertLines(tx, invoiceId, [
        { kind: 'fee', description: 'Annual fee', amountNanos: 365n * UNIT, periodStart: new Date('2026-01-01T00:00:00Z'), periodEnd: new Date('2027-01-01T00:00:00Z') },
      ]);
      await recomputeTotals(tx, invoiceId);
    });
    // Finalized mid-January: billed in January, which also recognizes the part served before it.
    await finalizeInvoice(h.deps.db, invoiceId, { actor: { type: 'admin', id: 'test-admin' }, at: new Date('2026-01-15T00:00:00Z'), applyTax: (tx, invoice) => applyTax(tx, invoice, zeroTax) });
    const schedule = await expectJson<{ months: Record<string, unknown>[]; rows: Record<string, unknown>[] }>(
      await h.request('GET', `/admin/v1/reports/deferred-revenue?from=2026-01&to=2026-02&customer_id=${customerId}`),
    );
    expect(schedule.months.map((m) => [m.month, m.billed_nanos, m.recognized_nanos])).toEqual([
      ['2026-01', (365n * UNIT).toString(), (31n * UNIT).toString()],
      ['2026-02', '0', (28n * UNIT).toString()],
    ]);
    expect(schedule.rows).toEqual(schedule.months);
  });

  it('answers CSV for format=csv, refuses unknown parameters and bad ranges, 404s an unknown customer', async () => {
    const csv = await h.request('GET', '/admin/v1/reports/ar-aging?as_of=2026-01-01T00:00:00Z&format=csv');
    expect(csv.status).toBe(200);
    expect((await csv.text()).split('\r\n')[0]).toBe('customer_id,customer_name,currency,current_nanos,days_1_30_nanos,days_31_60_nanos,days_61_90_nanos,over_90_nanos,total_nanos,open_invoices,as_of');
    const json = await h.request('GET', '/admin/v1/reports/deferred-revenue?from=2026-01&to=2026-02&format=json', { headers: { Accept: 'text/csv' } });
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    const cases: [string, number, string][] = [
      ['/admin/v1/reports/mrr?as_of=2026-01-01T00:00:00Z&customer=x', 400, 'validation_failed'],
      ['/admin/v1/reports/mrr?as_of=yesterday', 400, 'validation_failed'],
      ['/admin/v1/reports/mrr-movements?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', 400, 'validation_failed'],
      ['/admin/v1/reports/mrr-movements?from=2026-02-01T00:00:00Z', 400, 'validation_failed'],
      ['/admin/v1/reports/deferred-revenue?from=2026-13&to=2027-01', 400, 'validation_failed'],
      ['/admin/v1/reports/deferred-revenue?from=2026-05&to=2026-01', 400, 'validation_failed'],
      ['/admin/v1/reports/deferred-revenue?from=2000-01&to=2026-01', 400, 'validation_failed'],
      ['/admin/v1/reports/ar-aging?format=xml', 400, 'validation_failed'],
      ['/admin/v1/reports/ar-aging?currency=usd', 400, 'validation_failed'],
      ['/admin/v1/reports/ar-aging?customer_id=01900000-0000-7000-8000-00000000beef', 404, 'customer_not_found'],
    ];
    for (const [path, status, code] of cases) {
      const res = await h.request('GET', path);
      expect(res.status, path).toBe(status);
      expect(((await res.json()) as { error: { code: string } }).error.code, path).toBe(code);
    }
  });
});
