/**
 * What happens to an Active contract over time, run by its workflow (`contract:<id>`) at each date
 * that matters, on the customer's clock (a test clock's time for sandbox customers):
 * - escalation steps (every interval_months from start_date): recorded as they come, with an audit
 *   entry and an event; rating already prices each day at the step in force;
 * - phase-end true-ups: once a ramp phase has ended and the invoice grace period after its end_date
 *   has passed, its commit is compared with the usage charges it absorbed (compute_true_up); a
 *   shortfall becomes a `true_up` line on the Draft that holds the linked subscription's charges of
 *   that time (see contractDraft), recorded once per phase. Usage is counted by event time inside
 *   the phase, so late usage for the phase that arrives within the grace period (which also still
 *   lands on its period's invoice before finalization) is counted; usage arriving later is neither;
 * - natural end: at end_date Active → Expired; the true-ups still owed (the last phase's, within
 *   its grace) are done after it by the same workflow. A Terminated contract's phases that ended
 *   before its last day are trued up the same way.
 * Contract dates start at 00:00 UTC. The same draw-down figures are shown on the contract
 * (remaining commit per phase).
 */
import { addDays, addMonthsClamped, computeTrueUp, escalationPeriodsAt, parseCivilParts, type Charge } from '../../core/index.js';
import {
  billedPeriods,
  civilOf,
  customerNow,
  dateOf,
  draftCoveringInstant,
  findContract,
  findLinkableSubscription,
  insertContractDraft,
  linksOf,
  lockContract,
  markTrueUp,
  planPhasesBetween,
  updateContract,
  type ContractRecord,
  type TermRecord,
} from '../../db/contracts.js';
import type { DbClient } from '../../db/client.js';
import { DomainError, notFound } from '../../errors.js';
import { engineActor, recordAudit, type Actor } from '../audit.js';
import { billSubscription } from '../billing/billing.js';
import { ensureInvoiceWorkflow } from '../invoicing/invoice-workflows.js';
import { insertLines, lockDraft, recomputeTotals } from '../../db/invoices.js';
import { enqueueEvent } from '../outbox.js';
import { periodBasis } from '../../db/subscriptions.js';
import type { ContractWorkflowInput } from '../../temporal/messages.js';
import { followUp } from '../follow-ups.js';
import type { ServiceDeps } from '../deps.js';
import { commitBalances, rateUnderContract, usageChargesByPhase, type CommitBalance } from '../billing/contract-pricing.js';

/** What contract operations need, from the API or the worker (the grace period: a phase's true-up waits that long after the phase end for late usage). */
export type ContractDeps = Pick<ServiceDeps, 'db' | 'temporal' | 'settings' | 'followUps'>;

export interface ContractLifecycleState {
  status: ContractRecord['status'];
  /** When the contract next has something due (ISO), or null once it is no longer Active. */
  nextWakeAt: string | null;
}

const civil = (d: Date): string => d.toISOString().slice(0, 10);
const minDate = (a: Date, b: Date): Date => (a < b ? a : b);

/** The escalation schedule of a contract as the core reads it. */
function schedule(contract: ContractRecord) {
  const escalation = contract.escalation;
  if (escalation === null) return null;
  return {
    escalation: escalation.kind === 'Percent' ? { kind: 'Percent' as const, basis_points: escalation.basis_points } : { kind: 'Fixed' as const, amount_nanos: BigInt(escalation.amount_nanos) },
    start_date: contract.start_date,
    interval_months: escalation.interval_months,
  };
}

/** Escalation steps in force on `at`'s day (a step on end_date prices no day of the contract). */
function stepsAt(contract: ContractRecord, at: Date): number {
  const s = schedule(contract);
  if (s === null) return 0;
  const lastDay = addDays(contract.end_date, -1);
  const day = civil(at) < lastDay ? civil(at) : lastDay;
  return day < contract.start_date ? 0 : escalationPeriodsAt(s, day);
}

/** The date of escalation step `step`: start_date + step × interval_months, on its day clamped as the core does. */
function stepDate(contract: ContractRecord, step: number): string | null {
  const s = schedule(contract);
  if (s === null) return null;
  const date = addMonthsClamped(contract.start_date, step * s.interval_months, parseCivilParts(contract.start_date).day);
  return date < contract.end_date ? date : null;
}

/**
 * The usage charges of every linked subscription in each ramp phase, up to `upTo`, by rating each
 * of their periods that overlaps the contract under its terms (the rating billing uses).
 */
export async function contractCharges(db: DbClient, contract: ContractRecord, upTo: Date): Promise<Map<number, Charge[]>> {
  const byPhase = new Map<number, Charge[]>();
  const contractStart = dateOf(contract.start_date);
  const contractEnd = dateOf(contract.end_date);
  for (const link of await linksOf(db, contract.id)) {
    const subscription = await findLinkableSubscription(db, link.subscription_id);
    if (subscription === null) continue;
    const periods = await billedPeriods(db, subscription.id);
    if (!periods.some((p) => p.start.getTime() === subscription.period_start.getTime())) periods.push({ start: subscription.period_start, end: subscription.period_end });
    for (const period of periods) {
      if (period.start >= upTo || period.end <= contractStart || period.start >= contractEnd) continue;
      if (subscription.trial_end !== null && period.end <= subscription.trial_end) continue;
      for (const phase of await planPhasesBetween(db, subscription.id, period.start, period.end)) {
        const from = phase.starts_at > period.start ? phase.starts_at : period.start;
        const phaseEnd = phase.ends_at && phase.ends_at < period.end ? phase.ends_at : period.end;
        const service = { start: civil(from), end: civil(phaseEnd) };
        if (service.start >= service.end) continue;
        const periodDays = (await periodBasis(db, subscription.id, period.start)) ?? { start: civil(period.start), end: civil(period.end) };
        const whole = service.start === periodDays.start && service.end === periodDays.end;
        const { rated } = await rateUnderContract(db, { subscriptionId: subscription.id, customerId: subscription.customer_id }, {
          skus: phase.prices,
          period: periodDays,
          ...(whole ? {} : { service }),
          from,
          to: minDate(phaseEnd, upTo),
          contract,
        });
        if (rated === null) continue;
        for (const [phaseNumber, charges] of usageChargesByPhase(rated, phase.prices, subscription.id)) {
          byPhase.set(phaseNumber, [...(byPhase.get(phaseNumber) ?? []), ...charges]);
        }
      }
    }
  }
  return byPhase;
}

/** Each phase's commit drawn down by the usage charged up to `upTo`. */
export async function contractBalances(db: DbClient, contract: ContractRecord, upTo: Date): Promise<CommitBalance[]> {
  if (contract.status === 'Draft') return commitBalances(contract.terms, new Map());
  return commitBalances(contract.terms, await contractCharges(db, contract, upTo));
}

/**
 * The Draft a contract charge dated `at` goes on: the Draft holding a linked subscription's charges
 * of the period `at` falls in (or closes), else the subscription's current period billed to `at`
 * (which opens its Draft), else, without a billable subscription, a Draft of its own for the
 * contract's customer, left for an operator to finalize.
 */
async function contractDraft(deps: ContractDeps, contract: ContractRecord, at: Date, preferSubscriptionId: string | null): Promise<string> {
  const linked = (await linksOf(deps.db, contract.id)).map((link) => link.subscription_id);
  for (const subscriptionId of preferSubscriptionId === null ? linked : [preferSubscriptionId, ...linked]) {
    const covering = await draftCoveringInstant(deps.db, subscriptionId, at);
    if (covering !== null) return covering;
    const billed = await billSubscription(deps.db, { subscriptionId, upTo: at, reason: null });
    if (billed.invoiceId !== null) return billed.invoiceId;
  }
  // On a test clock the Draft is created at the clock's time, `at`.
  return deps.db.$transaction((tx) =>
    insertContractDraft(tx, { customerId: contract.customer_id, testClockId: contract.test_clock_id, createdAt: contract.test_clock_id === null ? null : at }),
  );
}

export interface ContractLine {
  kind: 'true_up' | 'contract_fee';
  description: string;
  amountNanos: bigint;
}

export interface DraftOptions {
  /** False when `work` adds no line: no Draft is looked for or opened. */
  needsDraft: boolean;
  /** A subscription whose Draft is preferred (one being linked, not yet among the contract's). */
  preferSubscriptionId?: string;
}

/**
 * Runs `work` in a transaction holding the contract (locked) and, when a line is to be added, the
 * Draft for a contract charge at `at` (locked, and locked first, as billing locks Drafts before
 * anything of theirs), then makes sure the Draft's workflow runs. A Draft finalized between being
 * chosen and being locked is passed over for the next one.
 */
export async function withContractDraft<T>(
  deps: ContractDeps,
  contractId: string,
  at: Date,
  options: DraftOptions,
  work: (tx: DbClient, contract: ContractRecord, addLine: (line: ContractLine) => Promise<void>) => Promise<T>,
): Promise<T> {
  if (!options.needsDraft) {
    return deps.db.$transaction(async (tx) => {
      const locked = await lockContract(tx, contractId);
      if (locked === null) throw notFound('contract', contractId);
      return work(tx, locked, async () => {
        throw new Error('a contract line needs a Draft: call withContractDraft with needsDraft');
      });
    });
  }
  for (let attempt = 0; ; attempt += 1) {
    const contract = await findContract(deps.db, contractId);
    if (contract === null) throw notFound('contract', contractId);
    const invoiceId = await contractDraft(deps, contract, at, options.preferSubscriptionId ?? null);
    let added = false;
    try {
      const result = await deps.db.$transaction(async (tx) => {
        await lockDraft(tx, invoiceId, 'add a contract line to');
        const locked = await lockContract(tx, contractId);
        if (locked === null) throw notFound('contract', contractId);
        return work(tx, locked, async (line) => {
          await insertLines(tx, invoiceId, [{ kind: line.kind, description: line.description, amountNanos: line.amountNanos }]);
          await recomputeTotals(tx, invoiceId);
          added = true;
        });
      });
      if (added) await ensureInvoiceWorkflow(deps, invoiceId);
      return result;
    } catch (err) {
      if (attempt < 3 && err instanceof DomainError && err.kind === 'invalid_transition' && err.details?.entity === 'invoice') continue;
      throw err;
    }
  }
}

const contractEvent = (contract: ContractRecord) => ({ contract_id: contract.id, customer_id: contract.customer_id, status: contract.status });

/** The phase-end true-up of one term, recorded once; the shortfall goes on a Draft. */
async function trueUpPhase(deps: ContractDeps, contract: ContractRecord, term: TermRecord, at: Date): Promise<void> {
  const phaseEnd = dateOf(term.end_date);
  const [balance] = commitBalances([term], await contractCharges(deps.db, contract, phaseEnd));
  const result = computeTrueUp(BigInt(term.committed_amount_nanos), balance!.eligible_usage_nanos);
  await withContractDraft(deps, contract.id, at, { needsDraft: result.true_up_nanos > 0n }, async (tx, locked, addLine) => {
    if (!owedTrueUps(locked).some((owed) => owed.phase === term.phase)) return;
    if (!(await markTrueUp(tx, contract.id, term.phase, at, result.true_up_nanos))) return;
    if (result.true_up_nanos > 0n) {
      await addLine({
        kind: 'true_up',
        description: `${contract.name} · true-up of phase ${term.phase} (${term.start_date} to ${term.end_date}): commitment not used`,
        amountNanos: result.true_up_nanos,
      });
    }
    const after = { phase: term.phase, committed_nanos: result.committed_nanos.toString(), actual_nanos: result.actual_nanos.toString(), true_up_nanos: result.true_up_nanos.toString() };
    const before = { phase: term.phase, trued_up: false };
    await recordAudit(tx, { action: 'contract.trued_up', actor: engineActor(), entityType: 'contract', entityId: contract.id, customerId: contract.customer_id, before, after: { ...after, trued_up: true } });
    await enqueueEvent(tx, 'contract.trued_up', contract.id, { ...contractEvent(locked), ...after }, at);
  });
}

const MOVE_EVENTS = { Active: 'contract.activated', Amended: 'contract.amended', Expired: 'contract.expired', Terminated: 'contract.terminated' } as const;

/** Moves a locked Active contract and records the move (audit before/after, outbox event). */
export async function moveContract(
  tx: DbClient,
  contract: ContractRecord,
  to: 'Active' | 'Amended' | 'Expired' | 'Terminated',
  at: Date,
  actor: Actor,
  extra: { terminated_on?: string; termination_reason?: string | null; requestId?: string } = {},
): Promise<ContractRecord> {
  const moved = await updateContract(tx, contract.id, {
    status: to,
    ...(extra.terminated_on !== undefined ? { terminated_on: extra.terminated_on } : {}),
    ...(extra.termination_reason !== undefined ? { termination_reason: extra.termination_reason } : {}),
  });
  await recordAudit(tx, {
    action: MOVE_EVENTS[to],
    actor,
    entityType: 'contract',
    entityId: contract.id,
    customerId: contract.customer_id,
    before: { status: contract.status },
    after: { status: moved.status, ...(extra.terminated_on ? { terminated_on: extra.terminated_on, reason: extra.termination_reason ?? null } : {}) },
    ...(extra.requestId ? { requestId: extra.requestId } : {}),
  });
  await enqueueEvent(tx, MOVE_EVENTS[to], contract.id, contractEvent(moved), at);
  return moved;
}

/**
 * The ramp phases still owed a true-up: not trued up yet, and (for a Terminated contract) ended
 * before its last day; the phase in force on that day was settled by the early-exit fee, later ones
 * are not owed. An Amended contract owes none: its successor carries its terms.
 */
function owedTrueUps(contract: ContractRecord): TermRecord[] {
  if (contract.status === 'Active' || contract.status === 'Expired') return contract.terms.filter((term) => term.trued_up_at === null);
  if (contract.status === 'Terminated' && contract.terminated_on !== null) {
    const lastDay = contract.terminated_on;
    return contract.terms.filter((term) => term.trued_up_at === null && term.end_date <= lastDay);
  }
  return [];
}

/** When a phase's true-up is due: its end plus the grace period in which late usage still lands on its period's invoice. */
const trueUpDue = (deps: ContractDeps, term: TermRecord): Date => new Date(dateOf(term.end_date).getTime() + deps.settings.invoiceGraceMs);

/**
 * Does everything due on the contract by `at`; returns its status and when it is next due. A
 * contract that left Active (Expired, Terminated) still has its owed true-ups done, so its
 * workflow runs on until the last of them.
 */
export async function runContractLifecycle(deps: ContractDeps, contractId: string, at: Date): Promise<ContractLifecycleState> {
  let contract = await findContract(deps.db, contractId);
  if (contract === null) throw notFound('contract', contractId);

  if (contract.status === 'Active') {
    const steps = stepsAt(contract, at);
    if (steps > contract.escalation_steps) {
      contract = await deps.db.$transaction(async (tx) => {
        const locked = (await lockContract(tx, contractId))!;
        if (locked.status !== 'Active' || locked.escalation_steps >= steps) return locked;
        const updated = await updateContract(tx, contractId, { escalation_steps: steps });
        const change = { escalation_steps: steps, escalation: locked.escalation };
        await recordAudit(tx, { action: 'contract.escalated', actor: engineActor(), entityType: 'contract', entityId: contractId, customerId: locked.customer_id, before: { escalation_steps: locked.escalation_steps }, after: change });
        await enqueueEvent(tx, 'contract.escalated', contractId, { ...contractEvent(updated), escalation_steps: steps }, at);
        return updated;
      });
    }
  }

  for (const term of owedTrueUps(contract)) {
    if (trueUpDue(deps, term) <= at) await trueUpPhase(deps, contract, term, at);
  }

  if (contract.status === 'Active' && dateOf(contract.end_date) <= at) {
    await deps.db.$transaction(async (tx) => {
      const locked = (await lockContract(tx, contractId))!;
      return locked.status === 'Active' ? moveContract(tx, locked, 'Expired', at, engineActor()) : locked;
    });
  }

  const current = (await findContract(deps.db, contractId))!;
  const due: Date[] = owedTrueUps(current).map((term) => trueUpDue(deps, term));
  if (current.status === 'Active') {
    due.push(dateOf(current.end_date));
    const nextStep = stepDate(current, current.escalation_steps + 1);
    if (nextStep !== null) due.push(dateOf(nextStep));
  }
  const next = due.filter((d) => d > at).reduce<Date | null>((a, b) => (a === null || b < a ? b : a), null);
  return { status: current.status, nextWakeAt: next === null ? null : next.toISOString() };
}

/**
 * Starts the workflow of a contract (`contract:<id>`) unless it runs already, on the customer's test
 * clock when it has one (a follow-up: the reconcile workflow's child, or at once through the gateway
 * for the API). `realNow` is the wall-clock time.
 */
export async function startContractWorkflow(deps: ContractDeps, contract: ContractRecord, realNow: Date): Promise<void> {
  const now = await customerNow(deps.db, contract.customer_id, realNow);
  const input: ContractWorkflowInput = {
    contractId: contract.id,
    testClock: contract.test_clock_id === null ? null : { id: contract.test_clock_id, now: now.toISOString() },
  };
  await followUp(deps, { kind: 'start_contract', input, customerId: contract.customer_id, testClockId: contract.test_clock_id });
}

/** The customer's "now" for a contract (its test clock's time when it has one). */
export const contractNow = (db: DbClient, contract: { customer_id: string }, realNow: Date): Promise<Date> => customerNow(db, contract.customer_id, realNow);
