/**
 * Price simulations (services/simulations): their rows, the subscriptions and closed periods a
 * simulation re-rates, what those periods' invoices billed, and the results. Billing's tables are
 * only read here.
 */
import { Prisma } from '../generated/prisma/client.js';
import type { Simulation, SubscriptionPeriodClose } from '../generated/prisma/client.js';
import type pg from 'pg';
import type { DbClient } from './client.js';
import { prunedBeforeSql } from './metering/retention.js';
import { fromDecimal } from './money.js';
import { NEWEST_FIRST, pageWhere, type PageQuery } from './pages.js';
import type { SubscriptionRow } from './subscriptions.js';

export type SimulationRow = Simulation;

export type SimulationStatus = 'running' | 'cancelling' | 'completed' | 'cancelled' | 'failed';

/** Which subscriptions a simulation re-rates (stored as given). */
export type SimulationScope = { kind: 'customers'; customer_ids: string[] } | { kind: 'plan'; plan_id: string } | { kind: 'all' };

export interface NewSimulation {
  id: string;
  /** As requested (JSON: money as strings). */
  candidate: object;
  scope: SimulationScope;
  lastPeriods: number;
  requestedBy: string;
}

export function insertSimulation(tx: DbClient, simulation: NewSimulation): Promise<SimulationRow> {
  return tx.simulation.create({
    data: { id: simulation.id, status: 'running', candidate: simulation.candidate as Prisma.InputJsonValue, scope: simulation.scope, lastPeriods: simulation.lastPeriods, requestedBy: simulation.requestedBy },
  });
}

export function findSimulation(tx: DbClient, id: string): Promise<SimulationRow | null> {
  return tx.simulation.findUnique({ where: { id } });
}

/** Moves a running simulation to cancelling; false when it is not running. */
export async function markCancelling(tx: DbClient, id: string): Promise<boolean> {
  const { count } = await tx.simulation.updateMany({ where: { id, status: 'running' }, data: { status: 'cancelling' } });
  return count === 1;
}

export async function setSubscriptionsTotal(tx: DbClient, id: string, total: number): Promise<void> {
  await tx.simulation.update({ where: { id }, data: { subscriptionsTotal: total } });
}

export async function finishSimulationRow(tx: DbClient, id: string, status: SimulationStatus, at: Date, error: Prisma.InputJsonValue | null): Promise<void> {
  await tx.simulation.update({ where: { id }, data: { status, finishedAt: at, error: error ?? Prisma.DbNull } });
}

/** The scope as SQL over subscriptions `s`: its subscriptions in the candidate's currency that have a closed period. */
function scopeSql(scope: SimulationScope, currency: string): Prisma.Sql {
  const which =
    scope.kind === 'customers'
      ? Prisma.sql`s.customer_id = ANY(${scope.customer_ids}::uuid[])`
      : scope.kind === 'plan'
        ? Prisma.sql`s.plan_id = ${scope.plan_id}::uuid`
        : Prisma.sql`TRUE`;
  return Prisma.sql`${which} AND s.currency = ${currency} AND EXISTS (SELECT 1 FROM subscription_period_closes c WHERE c.subscription_id = s.id)`;
}

export async function countSubscriptionsInScope(tx: DbClient, scope: SimulationScope, currency: string): Promise<number> {
  const [row] = await tx.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM subscriptions s WHERE ${scopeSql(scope, currency)}`;
  return Number(row?.n ?? 0n);
}

/** The next `limit` subscriptions of the scope after `after` (by id). */
export async function subscriptionsInScope(tx: DbClient, scope: SimulationScope, currency: string, after: string | null, limit: number): Promise<SubscriptionRow[]> {
  const from = after === null ? Prisma.empty : Prisma.sql`AND s.id > ${after}::uuid`;
  const ids = await tx.$queryRaw<{ id: string }[]>`
    SELECT s.id::text AS id FROM subscriptions s WHERE ${scopeSql(scope, currency)} ${from} ORDER BY s.id LIMIT ${limit}`;
  if (ids.length === 0) return [];
  return tx.subscription.findMany({ where: { id: { in: ids.map((row) => row.id) } }, orderBy: { id: 'asc' } });
}

/** The last `count` closed periods of each subscription whose raw events are whole (none dropped by the retention), oldest first. */
export async function lastClosedPeriods(tx: DbClient, subscriptionIds: string[], count: number): Promise<Map<string, Pick<SubscriptionPeriodClose, 'periodStart' | 'periodEnd'>[]>> {
  // Only periods whose raw events the retention left whole can be rated again (src/db/metering/retention.ts).
  const rows = await tx.$queryRaw<{ subscription_id: string; period_start: Date; period_end: Date }[]>`
    SELECT subscription_id::text AS subscription_id, period_start, period_end FROM (
      SELECT c.*, row_number() OVER (PARTITION BY c.subscription_id ORDER BY c.period_start DESC) AS n
      FROM subscription_period_closes c LEFT JOIN (${prunedBeforeSql(subscriptionIds)}) p ON p.id = c.subscription_id
      WHERE c.subscription_id = ANY(${subscriptionIds}::uuid[]) AND (p.before IS NULL OR c.period_start >= p.before)) c
    WHERE n <= ${count}
    ORDER BY subscription_id, period_start`;
  const periods = new Map<string, Pick<SubscriptionPeriodClose, 'periodStart' | 'periodEnd'>[]>();
  for (const row of rows) {
    const list = periods.get(row.subscription_id) ?? [];
    list.push({ periodStart: row.period_start, periodEnd: row.period_end });
    periods.set(row.subscription_id, list);
  }
  return periods;
}

const periodKey = (subscriptionId: string, periodStart: Date): string => `${subscriptionId}|${periodStart.toISOString()}`;

/**
 * What the subscriptions' periods were billed, keyed by periodKey: their fee and usage lines
 * (late-usage adjustments included) on invoices that are not Void, before tax and credits.
 */
export async function billedPerPeriod(tx: DbClient, subscriptionIds: string[]): Promise<{ of(subscriptionId: string, periodStart: Date): bigint }> {
  const rows = await tx.$queryRaw<{ subscription_id: string; period_start: Date; amount: Prisma.Decimal }[]>`
    SELECT l.subscription_id::text AS subscription_id, l.period_start, sum(l.amount_nanos) AS amount
    FROM invoice_line_items l JOIN invoices i ON i.id = l.invoice_id
    WHERE l.subscription_id = ANY(${subscriptionIds}::uuid[]) AND l.period_start IS NOT NULL
      AND l.kind IN ('fee', 'usage') AND i.status <> 'Void'
    GROUP BY l.subscription_id, l.period_start`;
  const billed = new Map(rows.map((row) => [periodKey(row.subscription_id, row.period_start), fromDecimal(row.amount)]));
  return { of: (subscriptionId, periodStart) => billed.get(periodKey(subscriptionId, periodStart)) ?? 0n };
}

export interface SimulationResultRecord {
  subscriptionId: string;
  customerId: string;
  currency: string;
  periodStart: Date;
  periodEnd: Date;
  actualNanos: bigint;
  candidateNanos: bigint;
}

/**
 * A batch's results and the progress after it, in one statement (so together or not at all): the
 * rows as arrays in one multi-row INSERT, straight on the pg pool. A retried batch writes the same
 * rows (kept once) and the same progress.
 */
export async function recordBatch(pool: pg.Pool, id: string, results: SimulationResultRecord[], progress: { subscriptionsDone: number; periodsDone: number }): Promise<void> {
  await pool.query(
    `WITH results AS (
       INSERT INTO simulation_results (simulation_id, subscription_id, customer_id, currency, period_start, period_end, actual_nanos, candidate_nanos)
       SELECT $1::uuid, r.* FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::timestamptz[], $6::timestamptz[], $7::numeric[], $8::numeric[]) AS r
       ON CONFLICT DO NOTHING)
     UPDATE simulations SET subscriptions_done = $9, periods_done = $10 WHERE id = $1::uuid`,
    [
      id,
      results.map((r) => r.subscriptionId),
      results.map((r) => r.customerId),
      results.map((r) => r.currency),
      results.map((r) => r.periodStart.toISOString()),
      results.map((r) => r.periodEnd.toISOString()),
      results.map((r) => r.actualNanos.toString()),
      results.map((r) => r.candidateNanos.toString()),
      progress.subscriptionsDone,
      progress.periodsDone,
    ],
  );
}

export interface CustomerTotal {
  customerId: string;
  currency: string;
  actualNanos: bigint;
  candidateNanos: bigint;
}

/** Each customer's results summed per currency, per simulation (one query for a page of simulations). */
export async function customerTotalsOf(tx: DbClient, ids: string[]): Promise<Map<string, CustomerTotal[]>> {
  const rows = await tx.$queryRaw<{ simulation_id: string; customer_id: string; currency: string; actual: Prisma.Decimal; candidate: Prisma.Decimal }[]>`
    SELECT simulation_id::text AS simulation_id, customer_id::text AS customer_id, currency, sum(actual_nanos) AS actual, sum(candidate_nanos) AS candidate
    FROM simulation_results WHERE simulation_id = ANY(${ids}::uuid[])
    GROUP BY simulation_id, customer_id, currency`;
  const totals = new Map<string, CustomerTotal[]>(ids.map((id) => [id, []]));
  for (const r of rows) totals.get(r.simulation_id)!.push({ customerId: r.customer_id, currency: r.currency, actualNanos: fromDecimal(r.actual), candidateNanos: fromDecimal(r.candidate) });
  return totals;
}

/** One page of simulations, newest first, optionally of one status. */
export function listSimulationRows(tx: DbClient, page: PageQuery & { status?: SimulationStatus | undefined }): Promise<SimulationRow[]> {
  return tx.simulation.findMany({ where: { ...pageWhere(page), ...(page.status === undefined ? {} : { status: page.status }) }, orderBy: NEWEST_FIRST, take: page.limit + 1 });
}

export async function resultCounts(tx: DbClient, id: string): Promise<{ subscriptions: number; periods: number }> {
  const [row] = await tx.$queryRaw<{ subscriptions: bigint; periods: bigint }[]>`
    SELECT count(DISTINCT subscription_id) AS subscriptions, count(*) AS periods FROM simulation_results WHERE simulation_id = ${id}::uuid`;
  return { subscriptions: Number(row?.subscriptions ?? 0n), periods: Number(row?.periods ?? 0n) };
}

/**
 * Every result row, by customer, subscription and period, read `chunk` rows at a time (keyset on that
 * order), so a large simulation's results are never all in memory at once.
 */
export async function* resultRows(tx: DbClient, id: string, chunk = 1000): AsyncGenerator<SimulationResultRecord[]> {
  let after: { customerId: string; subscriptionId: string; periodStart: Date } | null = null;
  for (;;) {
    const from: Prisma.SimulationResultWhereInput = after === null
      ? {}
      : {
          OR: [
            { customerId: { gt: after.customerId } },
            { customerId: after.customerId, subscriptionId: { gt: after.subscriptionId } },
            { customerId: after.customerId, subscriptionId: after.subscriptionId, periodStart: { gt: after.periodStart } },
          ],
        };
    const rows = await tx.simulationResult.findMany({
      where: { simulationId: id, ...from },
      orderBy: [{ customerId: 'asc' }, { subscriptionId: 'asc' }, { periodStart: 'asc' }],
      take: chunk,
    });
    if (rows.length === 0) return;
    yield rows.map((r) => ({
      subscriptionId: r.subscriptionId,
      customerId: r.customerId,
      currency: r.currency,
      periodStart: r.periodStart,
      periodEnd: r.periodEnd,
      actualNanos: fromDecimal(r.actualNanos),
      candidateNanos: fromDecimal(r.candidateNanos),
    }));
    if (rows.length < chunk) return;
    const last = rows[rows.length - 1]!;
    after = { customerId: last.customerId, subscriptionId: last.subscriptionId, periodStart: last.periodStart };
  }
}
