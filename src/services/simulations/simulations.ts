/**
 * Price simulations (docs/simulations.md): what the last N closed periods of a set of subscriptions
 * would have been billed under a candidate price, against what they were billed.
 *
 * - Candidate: a plan version (every phase of every period is rated with its SKUs), or price
 *   changes to SKUs of one plan (phases on that plan are rated with their own version's SKUs, those
 *   SKUs repriced; phases on other plans with their own prices).
 * - Scope: customers, the subscriptions now on a plan, or all; of those, the subscriptions in the
 *   candidate plan's currency that have a closed period (subscription_period_closes). Periods whose
 *   raw events the retention dropped (USAGE_EVENT_RETENTION_DAYS) cannot be rated again: the last N
 *   periods are the last N still whole.
 * - Each (subscription, closed period) is re-rated by the period close's own rating
 *   (billing/billing.ts rateClosedPeriodWith: phases, proration basis, contract terms, the usage
 *   recorded for the period, late events included) and compared with what its invoices billed (fee
 *   and usage lines of non-Void invoices, late-usage adjustments included; before tax and credits).
 * - It runs as the simulation workflow in batches (simulateSubscriptionBatch); every write goes to
 *   the simulation's own tables: invoices, ledger, billing's audit entries and workflows are untouched.
 */
import { applyPriceChanges, CoreValidationError, distributeDeltas, priceChangeProblems, type PriceChange, type Tier } from '../../core/index.js';
import { allPlanSkuPrices, getPlanPricing, planVersionExists, type PlanPricing } from '../../db/catalog.js';
import { poolReader, type DbClient } from '../../db/client.js';
import { prunedBeforeOf } from '../../db/metering/retention.js';
import { contractOfRow } from '../../db/contracts.js';
import { overlapping, periodBasesOf, phasesOfSubscriptions } from '../../db/subscriptions.js';
import {
  billedPerPeriod,
  countSubscriptionsInScope,
  customerTotalsOf,
  finishSimulationRow,
  findSimulation,
  insertSimulation,
  lastClosedPeriods,
  listSimulationRows,
  markCancelling,
  recordBatch,
  resultRows,
  setSubscriptionsTotal,
  subscriptionsInScope,
  type CustomerTotal,
  type SimulationResultRecord,
  type SimulationRow,
  type SimulationScope,
  type SimulationStatus,
} from '../../db/simulations.js';
import { DomainError, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { BillingErrorState, SimulationBatchInput, SimulationBatchResult } from '../../temporal/messages.js';
import { signalCancelSimulation, simulationWorkflowId, startSimulationWorkflow, type SimulationBatching } from '../../temporal/workflows/simulation.js';
import { checkTemporalReachable } from '../../temporal/gateway.js';
import type { SimulationCandidateInput, SimulationScopeInput, SimulationView } from '../../schemas/simulations.js';
import { recordAudit, type Actor } from '../audit.js';
import { rateClosedPeriodWith, type PeriodReads, type PhasePricing } from '../billing/billing.js';
import { batchQuantityReader, cachedMeterLookups } from '../metering/usage.js';
import { problemsError } from '../catalog/catalog.js';
import type { ServiceDeps } from '../deps.js';
import { toPage, type Page } from '../pagination.js';
import type { PageQuery } from '../../db/pages.js';
import type { CsvStream } from '../reports/reports.js';

export interface SimulationRequest {
  candidate: SimulationCandidateInput;
  scope: SimulationScopeInput;
  range: { last_periods: number };
}

const toTiers = (tiers: readonly { up_to: number | null; unit_amount_nanos: string; flat_amount_nanos?: string | undefined }[]): Tier[] =>
  tiers.map((tier) => ({
    up_to: tier.up_to === null ? null : BigInt(tier.up_to),
    unit_amount_nanos: BigInt(tier.unit_amount_nanos),
    ...(tier.flat_amount_nanos === undefined ? {} : { flat_amount_nanos: BigInt(tier.flat_amount_nanos) }),
  }));

function priceChangesOf(candidate: Extract<SimulationCandidateInput, { kind: 'price_changes' }>): PriceChange[] {
  return candidate.price_changes.map((change) => ({
    sku_id: change.sku_id,
    ...(change.unit_amount_nanos === undefined ? {} : { unit_amount_nanos: BigInt(change.unit_amount_nanos) }),
    ...(change.tiers === undefined ? {} : { tiers: toTiers(change.tiers) }),
    ...(change.overage_unit_amount_nanos === undefined ? {} : { overage_unit_amount_nanos: BigInt(change.overage_unit_amount_nanos) }),
    ...(change.commit_amount_nanos === undefined ? {} : { commit_amount_nanos: BigInt(change.commit_amount_nanos) }),
  }));
}

/** A plan the request names under `field` (candidate.plan_id, scope.plan_id) that does not exist. */
const unknownPlan = (field: string, planId: string) => new DomainError('not_found', 'plan_not_found', `${field}: plan ${planId} does not exist`, { field, id: planId });

const noSkus = (planId: string) => new DomainError('unprocessable', 'plan_has_no_skus', `candidate.plan_id: plan ${planId} has no SKUs to rate`, { field: 'candidate.plan_id' });

/** The candidate's currency, after checking that it names what exists and prices validly. */
async function checkedCandidateCurrency(db: DbClient, candidate: SimulationCandidateInput): Promise<string> {
  const skus = await allPlanSkuPrices(db, candidate.plan_id);
  if (skus === null) throw unknownPlan('candidate.plan_id', candidate.plan_id);
  if (candidate.kind === 'plan_version') {
    if (!(await planVersionExists(db, candidate.plan_id, candidate.version))) {
      throw new DomainError('not_found', 'plan_version_not_found', `candidate.version: plan ${candidate.plan_id} has no version ${candidate.version}`, { field: 'candidate.version' });
    }
    const { prices } = await getPlanPricing(db, candidate.plan_id, candidate.version);
    if (prices.length === 0) throw noSkus(candidate.plan_id);
    return prices[0]!.currency;
  }
  const problems = priceChangeProblems(skus, priceChangesOf(candidate), 'candidate.price_changes');
  if (problems.length > 0) throw problemsError(problems);
  return skus[0]!.currency;
}

/** Starts a simulation: checked, stored (audited as simulation.created), then its workflow started. */
export async function createSimulation(deps: ServiceDeps, request: SimulationRequest, actor: Actor, requestId: string, batching: SimulationBatching = {}): Promise<SimulationView> {
  await checkedCandidateCurrency(deps.db, request.candidate);
  if (request.scope.kind === 'plan' && (await allPlanSkuPrices(deps.db, request.scope.plan_id)) === null) throw unknownPlan('scope.plan_id', request.scope.plan_id);
  await checkTemporalReachable(deps.temporal).catch((err: unknown) => {
    throw new DomainError('unavailable', 'service_unavailable', `Temporal could not be reached: ${(err as Error).message}`);
  });
  const row = await deps.db.$transaction(async (tx) => {
    const created = await insertSimulation(tx, {
      id: newId(),
      candidate: request.candidate,
      scope: request.scope,
      lastPeriods: request.range.last_periods,
      requestedBy: `${actor.type}:${actor.id}`,
    });
    await recordAudit(tx, { action: 'simulation.created', actor, entityType: 'simulation', entityId: created.id, before: null, after: { status: created.status, ...request }, requestId });
    return created;
  });
  try {
    await startSimulationWorkflow(deps.temporal, row.id, batching);
  } catch (err) {
    await finishSimulationRow(deps.db, row.id, 'failed', deps.clock(), { type: 'WorkflowNotStarted', message: (err as Error).message }).catch(() => null);
    throw new DomainError('unavailable', 'service_unavailable', `Temporal could not be reached: ${(err as Error).message}`);
  }
  return viewOf(deps.db, row);
}

async function existing(db: DbClient, id: string): Promise<SimulationRow> {
  const row = await findSimulation(db, id);
  if (!row) throw notFound('simulation', id);
  return row;
}

export async function getSimulation(deps: Pick<ServiceDeps, 'db'>, id: string): Promise<SimulationView> {
  return viewOf(deps.db, await existing(deps.db, id));
}

/**
 * Cancels a running simulation: it stops before its next batch (status cancelling, then cancelled);
 * the results so far are kept. A simulation that is not running is 409 simulation_not_running.
 */
export async function cancelSimulation(deps: ServiceDeps, id: string, actor: Actor, requestId: string): Promise<SimulationView> {
  const row = await deps.db.$transaction(async (tx) => {
    const before = await existing(tx, id);
    if (!(await markCancelling(tx, id))) {
      throw new DomainError('conflict', 'simulation_not_running', `simulation ${id} is ${before.status}: only a running simulation can be cancelled`, { status: before.status });
    }
    await recordAudit(tx, { action: 'simulation.cancel_requested', actor, entityType: 'simulation', entityId: id, before: { status: before.status }, after: { status: 'cancelling' }, requestId });
    return { ...before, status: 'cancelling' };
  });
  await signalCancelSimulation(deps.temporal, id);
  return viewOf(deps.db, row);
}

/** Simulations newest first, paginated like every list, optionally of one status. */
export async function listSimulations(deps: Pick<ServiceDeps, 'db'>, query: PageQuery & { status?: SimulationStatus | undefined }): Promise<Page<SimulationView>> {
  const rows = await listSimulationRows(deps.db, query);
  const totals = await customerTotalsOf(deps.db, rows.slice(0, query.limit).map((row) => row.id));
  return toPage(rows, query.limit, (row) => viewWith(row, totals.get(row.id) ?? []));
}

async function viewOf(db: DbClient, row: SimulationRow): Promise<SimulationView> {
  return viewWith(row, (await customerTotalsOf(db, [row.id])).get(row.id) ?? []);
}

function viewWith(row: SimulationRow, customerTotals: CustomerTotal[]): SimulationView {
  const totals = distributeDeltas(
    customerTotals.map((t) => ({ customer_id: t.customerId, currency: t.currency, actual_nanos: t.actualNanos, candidate_nanos: t.candidateNanos })),
  );
  const error = row.error as { type: string; message: string } | null;
  return {
    id: row.id,
    status: row.status as SimulationStatus,
    candidate: row.candidate as SimulationCandidateInput,
    scope: row.scope as SimulationScopeInput,
    range: { last_periods: row.lastPeriods },
    workflow_id: simulationWorkflowId(row.id),
    progress: { subscriptions_total: row.subscriptionsTotal, subscriptions_done: row.subscriptionsDone, periods_done: row.periodsDone },
    totals: totals.map((t) => ({
      ...t,
      actual_nanos: t.actual_nanos.toString(),
      candidate_nanos: t.candidate_nanos.toString(),
      delta_nanos: t.delta_nanos.toString(),
      buckets: t.buckets.map((b) => ({ ...b, delta_nanos: b.delta_nanos.toString() })),
    })),
    results_csv_url: `/admin/v1/simulations/${row.id}/results.csv`,
    error: error === null ? null : { type: error.type, message: error.message },
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

/** Results rows as CSV rows, chunk by chunk. */
async function* csvRowsOf(chunks: AsyncIterable<SimulationResultRecord[]>): AsyncGenerator<string[][]> {
  for await (const rows of chunks) {
    yield rows.map((r) => [
      r.customerId,
      r.subscriptionId,
      r.periodStart.toISOString(),
      r.periodEnd.toISOString(),
      r.currency,
      r.actualNanos.toString(),
      r.candidateNanos.toString(),
      (r.candidateNanos - r.actualNanos).toString(),
    ]);
  }
}

/**
 * The per-period results as CSV: one row per (subscription, period), money in raw units, read from
 * the database in chunks while they are sent (404 before the first byte when the simulation does not exist).
 */
export async function simulationResultsCsv(deps: Pick<ServiceDeps, 'db'>, id: string): Promise<CsvStream> {
  await existing(deps.db, id);
  return {
    header: ['customer_id', 'subscription_id', 'period_start', 'period_end', 'currency', 'actual_nanos', 'candidate_nanos', 'delta_nanos'],
    chunks: csvRowsOf(resultRows(deps.db, id)),
  };
}

// ── The workflow's steps ─────────────────────────────────────────────────────────────────────

interface Plan {
  candidate: SimulationCandidateInput;
  scope: SimulationScope;
  currency: string;
}

async function planOf(db: DbClient, id: string): Promise<Plan & { row: SimulationRow }> {
  const row = await existing(db, id);
  const candidate = row.candidate as SimulationCandidateInput;
  return { row, candidate, scope: row.scope as SimulationScope, currency: await checkedCandidateCurrency(db, candidate) };
}

/** Counts the subscriptions the simulation re-rates (its progress total). */
export async function countSimulationScope(db: DbClient, id: string): Promise<number> {
  const plan = await planOf(db, id);
  const total = await countSubscriptionsInScope(db, plan.scope, plan.currency);
  await setSubscriptionsTotal(db, id, total);
  return total;
}

/** The prices each phase is rated with under the candidate, each plan version read once. */
function candidatePricing(db: DbClient, candidate: SimulationCandidateInput): PhasePricing {
  const versions = new Map<string, Promise<PlanPricing>>();
  const version = (planId: string, v: number): Promise<PlanPricing> => {
    const key = `${planId}:${v}`;
    let pricing = versions.get(key);
    if (!pricing) versions.set(key, (pricing = getPlanPricing(db, planId, v)));
    return pricing;
  };
  if (candidate.kind === 'plan_version') return () => version(candidate.plan_id, candidate.version);
  const changes = priceChangesOf(candidate);
  return async (phase) => {
    const own = await version(phase.planId, phase.planVersion);
    return phase.planId === candidate.plan_id ? { ...own, prices: applyPriceChanges(own.prices, changes) } : own;
  };
}

/**
 * One batch: the next `limit` subscriptions of the scope, each of its last N closed periods
 * re-rated with the candidate, the results and the progress after the batch written together.
 * Reads billing's tables only; a retried batch writes the same rows and progress again.
 */
export async function simulateSubscriptionBatch(deps: Pick<ServiceDeps, 'db' | 'pool'>, input: SimulationBatchInput): Promise<SimulationBatchResult> {
  const { db, pool } = deps;
  const plan = await planOf(db, input.simulationId);
  const subscriptions = await subscriptionsInScope(db, plan.scope, plan.currency, input.after, input.limit);
  if (subscriptions.length === 0) return { subscriptions: 0, periods: 0, last: null };
  const ids = subscriptions.map((s) => s.id);
  const [periods, billed, phases, bases, contracts] = await Promise.all([
    lastClosedPeriods(db, ids, plan.row.lastPeriods),
    billedPerPeriod(db, ids),
    phasesOfSubscriptions(db, ids),
    periodBasesOf(db, ids),
    Promise.all(subscriptions.map((subscription) => contractOfRow(db, subscription))),
  ]);
  // What each period's rating reads, read for the whole batch at once: the prices of each plan version and the
  // meters the SKUs resolve to once; the meters' quantities of all the periods coalesced into a few statements.
  const phasesBySubscription = new Map<string, typeof phases>();
  for (const phase of phases) phasesBySubscription.set(phase.subscriptionId, [...(phasesBySubscription.get(phase.subscriptionId) ?? []), phase]);
  const reads: PeriodReads = {
    pricingOf: candidatePricing(db, plan.candidate),
    phases: async (subscriptionId, period) => overlapping(phasesBySubscription.get(subscriptionId) ?? [], period),
    basis: async (subscriptionId, start) => bases.get(`${subscriptionId}|${start.toISOString()}`) ?? null,
    quantities: batchQuantityReader(pool),
    meters: cachedMeterLookups(db),
  };
  // Every period of the batch is rated at once, so that their meter reads arrive together and are coalesced.
  const work = subscriptions.flatMap((subscription, i) => (periods.get(subscription.id) ?? []).map((period) => ({ subscription, contract: contracts[i]!, period })));
  const results = await Promise.all(
    work.map(async ({ subscription, contract, period }): Promise<SimulationResultRecord> => {
      const closed = { start: period.periodStart, end: period.periodEnd };
      let candidateNanos: bigint;
      try {
        candidateNanos = await rateClosedPeriodWith(db, subscription, closed, contract, reads);
      } catch (err) {
        if (err instanceof CoreValidationError) throw new DomainError('unprocessable', 'simulation_rating_failed', `subscription ${subscription.id}, period ${closed.start.toISOString()}: ${err.message}`);
        throw err;
      }
      return {
        subscriptionId: subscription.id,
        customerId: subscription.customerId,
        currency: subscription.currency,
        periodStart: closed.start,
        periodEnd: closed.end,
        actualNanos: billed.of(subscription.id, closed.start),
        candidateNanos,
      };
    }),
  );
  // A period the retention reached while it was rated was rated short: it is left out, as the ones it had reached before.
  const prunedBefore = await prunedBeforeOf(poolReader(pool), ids);
  const whole = results.filter((r) => {
    const before = prunedBefore.get(r.subscriptionId);
    return before === undefined || r.periodStart >= before;
  });
  const progress = { subscriptionsDone: input.subscriptionsDone + subscriptions.length, periodsDone: input.periodsDone + whole.length };
  await recordBatch(pool, input.simulationId, whole, progress);
  return { subscriptions: subscriptions.length, periods: whole.length, last: ids[ids.length - 1]! };
}

/** The simulation's end: completed, cancelled (a cancel was asked) or failed (with the failure). */
export async function finishSimulation(deps: Pick<ServiceDeps, 'db' | 'clock' | 'logger'>, input: { simulationId: string; status: 'completed' | 'cancelled' | 'failed'; error?: BillingErrorState }): Promise<void> {
  const error = input.error === undefined ? null : { type: input.error.type, message: input.error.message, step: input.error.step };
  await finishSimulationRow(deps.db, input.simulationId, input.status, deps.clock(), error);
  deps.logger.info({ simulationId: input.simulationId, status: input.status, ...(error === null ? {} : { error }) }, 'simulation finished');
}
