/**
 * Revenue reports (SPEC §1 Reporting): AR aging, MRR, MRR movements and the deferred revenue
 * schedule. The aggregation runs in SQL (src/db/reports.ts); this module shapes the rows, adds the
 * per-currency totals (never summed across currencies) and the ledger figures they tie out to, and
 * classifies MRR movements. Each report also renders as a CSV table (one row per JSON row).
 */
import { poolReader, type Db } from '../../db/client.js';
import { findCustomer } from '../../db/customers.js';
import { customerNow } from '../../db/contracts.js';
import { arAging, deferredSchedule, ledgerBalancesAsOf, mrrAsOf, mrrChanges, mrrTotalsAt, type ReportFilter } from '../../db/reports.js';
import { notFound, validation } from '../../errors.js';
import type { ArAgingView, DeferredRevenueView, MrrMovement, MrrMovementsView, MrrView } from '../../schemas/reports.js';
import type { ServiceDeps } from '../deps.js';

/** What a report reads with: the client (customer lookups) and the pool its SQL runs on directly. */
export type ReportDeps = Pick<ServiceDeps, 'db' | 'pool'>;

export interface ReportQuery {
  customerId?: string | undefined;
  currency?: string | undefined;
}

/** A report as a table: a header and rows of cells (money as raw-unit integers, like the JSON). */
export interface CsvTable {
  header: string[];
  rows: (string | number)[][];
}

/** A CSV table read chunk by chunk while it is sent (src/http/csv.ts streamCsv). */
export interface CsvStream {
  header: string[];
  chunks: AsyncIterable<(string | number)[][]>;
}

async function filterOf(db: Db, query: ReportQuery): Promise<ReportFilter> {
  if (query.customerId !== undefined && !(await findCustomer(db, query.customerId))) throw notFound('customer', query.customerId);
  return { customerId: query.customerId ?? null, currency: query.currency ?? null };
}

const sum = <T>(items: readonly T[], of: (item: T) => bigint): bigint => items.reduce((s, item) => s + of(item), 0n);
const currenciesOf = (items: readonly { currency: string }[]): string[] => [...new Set(items.map((i) => i.currency))].sort();

// ── AR aging ─────────────────────────────────────────────────────────────────────────────────

/**
 * The aging report as of `asOf`; without one, each customer's invoices age against that customer's
 * own time, so sandbox invoices age in sandbox time: for one customer, its "now" (its test clock's
 * frozen time, else the wall clock); for every customer, the same per customer in the one statement
 * (each row's as_of), the report's as_of being the wall clock.
 */
export async function arAgingReport(deps: ReportDeps & Pick<ServiceDeps, 'clock'>, requestedAsOf: Date | undefined, query: ReportQuery): Promise<ArAgingView> {
  const filter = await filterOf(deps.db, query);
  const asOf = requestedAsOf ?? (filter.customerId === null ? deps.clock() : await customerNow(deps.db, filter.customerId, deps.clock()));
  const customerTime = requestedAsOf === undefined && filter.customerId === null;
  const read = poolReader(deps.pool);
  const [rows, ledger] = await Promise.all([arAging(read, asOf, filter, customerTime), ledgerBalancesAsOf(read, 'accounts_receivable', asOf, filter, customerTime)]);
  const currencies = [...new Set([...currenciesOf(rows), ...[...ledger.entries()].filter(([, v]) => v !== 0n).map(([c]) => c)])].sort();
  return {
    as_of: asOf.toISOString(),
    customer_id: filter.customerId,
    currency: filter.currency,
    rows: rows.map((r) => ({
      customer_id: r.customerId,
      customer_name: r.customerName,
      currency: r.currency,
      current_nanos: r.current.toString(),
      days_1_30_nanos: r.days1To30.toString(),
      days_31_60_nanos: r.days31To60.toString(),
      days_61_90_nanos: r.days61To90.toString(),
      over_90_nanos: r.over90.toString(),
      total_nanos: r.total.toString(),
      open_invoices: r.openInvoices,
      as_of: r.asOf.toISOString(),
    })),
    totals: currencies.map((currency) => {
      const of = rows.filter((r) => r.currency === currency);
      return {
        currency,
        current_nanos: sum(of, (r) => r.current).toString(),
        days_1_30_nanos: sum(of, (r) => r.days1To30).toString(),
        days_31_60_nanos: sum(of, (r) => r.days31To60).toString(),
        days_61_90_nanos: sum(of, (r) => r.days61To90).toString(),
        over_90_nanos: sum(of, (r) => r.over90).toString(),
        total_nanos: sum(of, (r) => r.total).toString(),
        ledger_accounts_receivable_nanos: (ledger.get(currency) ?? 0n).toString(),
      };
    }),
  };
}

export const arAgingCsv = (view: ArAgingView): CsvTable => ({
  header: ['customer_id', 'customer_name', 'currency', 'current_nanos', 'days_1_30_nanos', 'days_31_60_nanos', 'days_61_90_nanos', 'over_90_nanos', 'total_nanos', 'open_invoices', 'as_of'],
  rows: view.rows.map((r) => [r.customer_id, r.customer_name, r.currency, r.current_nanos, r.days_1_30_nanos, r.days_31_60_nanos, r.days_61_90_nanos, r.over_90_nanos, r.total_nanos, r.open_invoices, r.as_of]),
});

// ── MRR ──────────────────────────────────────────────────────────────────────────────────────

export async function mrrReport(deps: ReportDeps, asOf: Date, query: ReportQuery): Promise<MrrView> {
  const filter = await filterOf(deps.db, query);
  const rows = await mrrAsOf(poolReader(deps.pool), asOf, filter);
  return {
    as_of: asOf.toISOString(),
    customer_id: filter.customerId,
    currency: filter.currency,
    rows: rows.map((r) => ({
      customer_id: r.customerId,
      customer_name: r.customerName,
      currency: r.currency,
      plan_id: r.planId,
      plan_name: r.planName,
      billing_cadence: r.cadence,
      subscriptions: r.subscriptions,
      mrr_nanos: r.mrr.toString(),
    })),
    totals: currenciesOf(rows).map((currency) => {
      const of = rows.filter((r) => r.currency === currency);
      return {
        currency,
        customers: new Set(of.map((r) => r.customerId)).size,
        subscriptions: of.reduce((n, r) => n + r.subscriptions, 0),
        mrr_nanos: sum(of, (r) => r.mrr).toString(),
      };
    }),
  };
}

/** Each currency's MRR total at each instant, in one statement: what the MRR report's totals say at each. */
export async function mrrTotalsReport(deps: ReportDeps, instants: Date[], query: ReportQuery = {}): Promise<Map<number, Map<string, bigint>>> {
  const filter = await filterOf(deps.db, query);
  const totals = new Map<number, Map<string, bigint>>(instants.map((at) => [at.getTime(), new Map()]));
  for (const row of await mrrTotalsAt(poolReader(deps.pool), instants, filter)) totals.get(row.asOf.getTime())?.set(row.currency, row.mrr);
  return totals;
}

export const mrrCsv = (view: MrrView): CsvTable => ({
  header: ['customer_id', 'customer_name', 'currency', 'plan_id', 'plan_name', 'billing_cadence', 'subscriptions', 'mrr_nanos'],
  rows: view.rows.map((r) => [r.customer_id, r.customer_name, r.currency, r.plan_id, r.plan_name, r.billing_cadence, r.subscriptions, r.mrr_nanos]),
});

/**
 * A customer's movement between two dates, from its MRR in one currency at each: from nothing is new
 * (or a reactivation when it had MRR before `from`), to nothing is churn, otherwise expansion or
 * contraction by the difference.
 */
export function classifyMovement(start: bigint, end: bigint, hadMrrBefore: boolean): MrrMovement {
  if (start === end) return 'unchanged';
  if (start <= 0n && end > 0n) return hadMrrBefore ? 'reactivation' : 'new';
  if (start > 0n && end <= 0n) return 'churn';
  return end > start ? 'expansion' : 'contraction';
}

export async function mrrMovementsReport(deps: ReportDeps, range: { from: Date; to: Date }, query: ReportQuery): Promise<MrrMovementsView> {
  if (range.to.getTime() <= range.from.getTime()) throw validation('to', 'must be after from');
  const filter = await filterOf(deps.db, query);
  const changes = await mrrChanges(poolReader(deps.pool), range.from, range.to, filter);
  const rows = changes.map((r) => ({ ...r, movement: classifyMovement(r.start, r.end, r.hadMrrBefore) }));
  return {
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    customer_id: filter.customerId,
    currency: filter.currency,
    rows: rows
      .filter((r) => r.movement !== 'unchanged' || r.start !== 0n)
      .map((r) => ({
        customer_id: r.customerId,
        customer_name: r.customerName,
        currency: r.currency,
        movement: r.movement,
        start_mrr_nanos: r.start.toString(),
        end_mrr_nanos: r.end.toString(),
        change_nanos: (r.end - r.start).toString(),
      })),
    totals: currenciesOf(rows).map((currency) => {
      const of = rows.filter((r) => r.currency === currency);
      const moved = (movement: MrrMovement) => sum(of.filter((r) => r.movement === movement), (r) => r.end - r.start).toString();
      return {
        currency,
        start_mrr_nanos: sum(of, (r) => r.start).toString(),
        new_nanos: moved('new'),
        expansion_nanos: moved('expansion'),
        contraction_nanos: moved('contraction'),
        churn_nanos: moved('churn'),
        reactivation_nanos: moved('reactivation'),
        end_mrr_nanos: sum(of, (r) => r.end).toString(),
      };
    }),
  };
}

export const mrrMovementsCsv = (view: MrrMovementsView): CsvTable => ({
  header: ['customer_id', 'customer_name', 'currency', 'movement', 'start_mrr_nanos', 'end_mrr_nanos', 'change_nanos'],
  rows: view.rows.map((r) => [r.customer_id, r.customer_name, r.currency, r.movement, r.start_mrr_nanos, r.end_mrr_nanos, r.change_nanos]),
});

// ── Deferred revenue ─────────────────────────────────────────────────────────────────────────

/** The most months one schedule covers. */
export const MAX_SCHEDULE_MONTHS = 120;

const monthIndex = (month: string): number => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;

export async function deferredRevenueReport(deps: ReportDeps, range: { from: string; to: string }, query: ReportQuery): Promise<DeferredRevenueView> {
  const months = monthIndex(range.to) - monthIndex(range.from) + 1;
  if (months < 1) throw validation('to', 'must be the same month as from or later');
  if (months > MAX_SCHEDULE_MONTHS) throw validation('to', `the schedule covers at most ${MAX_SCHEDULE_MONTHS} months`);
  const filter = await filterOf(deps.db, query);
  const schedule = (await deferredSchedule(poolReader(deps.pool), range.from, range.to, filter)).map((r) => ({
    month: r.month,
    currency: r.currency,
    opening_deferred_nanos: r.opening.toString(),
    billed_nanos: r.billed.toString(),
    recognized_nanos: r.recognized.toString(),
    reversed_nanos: r.reversed.toString(),
    closing_deferred_nanos: r.closing.toString(),
    ledger_deferred_nanos: r.ledgerBalance.toString(),
    unposted_recognition_nanos: (r.ledgerBalance - r.closing).toString(),
  }));
  // `months` is the SPEC's name; `rows` (the same items) is the name every other report uses.
  return { from: range.from, to: range.to, customer_id: filter.customerId, currency: filter.currency, months: schedule, rows: schedule };
}

export const deferredRevenueCsv = (view: DeferredRevenueView): CsvTable => ({
  header: ['month', 'currency', 'opening_deferred_nanos', 'billed_nanos', 'recognized_nanos', 'reversed_nanos', 'closing_deferred_nanos', 'ledger_deferred_nanos', 'unposted_recognition_nanos'],
  rows: view.months.map((m) => [m.month, m.currency, m.opening_deferred_nanos, m.billed_nanos, m.recognized_nanos, m.reversed_nanos, m.closing_deferred_nanos, m.ledger_deferred_nanos, m.unposted_recognition_nanos]),
});
