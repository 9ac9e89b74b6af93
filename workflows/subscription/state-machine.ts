/**
 * The SPEC §3 subscription state machine, as rules the workflow's handlers and main loop consult:
 * which moves an update may make from which state, and what happens when the state's deadline (trial
 * end or period end) is reached. Pure: no workflow API beyond the failure it throws.
 *
 *   Trialing ─trial end─▶ Active ─period end─▶ Active (next period)
 *   Trialing ─an invoice of it paid─▶ Active  (signal paymentOutcome `paid`; the trial ends then)
 *   Active|PastDue ─pause─▶ Paused ─resume─▶ Active;  Paused ─period end─▶ Cancelled
 *   Trialing|Active|PastDue|Paused ─cancel─▶ Cancelled ─period end─▶ Expired
 *   Active ─payment failed─▶ PastDue ─arrears settled─▶ Active  (signal paymentOutcome)
 */
import { ApplicationFailure } from '@temporalio/workflow';
import { INVALID_TRANSITION } from '../shared/messages.js';
import type { SubscriptionSnapshot, SubscriptionStatus } from './messages.js';

export type Move = 'pause' | 'resume' | 'cancel';

export const ALLOWED: Record<Move, { from: readonly SubscriptionStatus[]; to: SubscriptionStatus }> = {
  pause: { from: ['Active', 'PastDue'], to: 'Paused' },
  resume: { from: ['Paused'], to: 'Active' },
  cancel: { from: ['Trialing', 'Active', 'PastDue', 'Paused'], to: 'Cancelled' },
};

/** States whose current period has charges: a trial bills nothing and an Expired subscription is over. */
export const BILLABLE: readonly SubscriptionStatus[] = ['Active', 'PastDue', 'Paused', 'Cancelled'];
export const PLAN_CHANGEABLE: readonly SubscriptionStatus[] = ['Trialing', 'Active', 'PastDue'];
/** States whose periods a coterm adoption realigns to the contract end (a paid period in course). */
export const COTERM_ALIGNABLE: readonly SubscriptionStatus[] = ['Active', 'PastDue'];

/**
 * What the main loop does when the state's deadline is reached: end the trial, cancel a subscription
 * still paused, bill the last period and expire, or bill the period and roll to the next one.
 */
export type DeadlineStep =
  | { kind: 'move'; to: SubscriptionStatus; reason: string }
  | { kind: 'close-and-expire' }
  | { kind: 'close-and-roll' };

export function deadlineStep(status: SubscriptionStatus): DeadlineStep {
  switch (status) {
    case 'Trialing':
      return { kind: 'move', to: 'Active', reason: 'trial_ended' };
    case 'Paused':
      return { kind: 'move', to: 'Cancelled', reason: 'paused_at_period_end' };
    case 'Cancelled':
      return { kind: 'close-and-expire' };
    default:
      return { kind: 'close-and-roll' };
  }
}

/** When the current state's deadline falls: the trial end while trialing, else the period end. */
export function stateDeadlineMs(state: SubscriptionSnapshot): number {
  return Date.parse(state.status === 'Trialing' && state.trialEnd ? state.trialEnd : state.periodEnd);
}

/** Throws the failure an update's validator (and its handler, under the lock) rejects a move with. */
export function assertAllowed(action: string, statuses: readonly SubscriptionStatus[], status: SubscriptionStatus): void {
  if (!statuses.includes(status)) throw invalidMove(action, status);
}

export function invalidMove(move: string, status: SubscriptionStatus): ApplicationFailure {
  return ApplicationFailure.nonRetryable(`cannot ${move} a subscription in state ${status}`, INVALID_TRANSITION, { move, status });
}
