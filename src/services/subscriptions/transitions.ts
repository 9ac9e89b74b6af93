/**
 * Persistence of subscription moves decided by the subscription workflow (its activities call
 * these). Idempotent: a retried call whose first attempt committed finds the row already moved and
 * returns it unchanged.
 */
import { anchorDayOf, periodEnd as nextPeriodEnd, type BillingCadence } from '../../core/index.js';
import type { Db, DbClient } from '../../db/client.js';
import {
  findSubscriptionWithCadence,
  lockSubscription,
  withCadence,
  rollPeriodFrom,
  updateSubscription,
  type SubscriptionChanges,
  type SubscriptionRow,
} from '../../db/subscriptions.js';
import { DomainError, notFound } from '../../errors.js';
import type { ActorRef, SubscriptionSnapshot, SubscriptionStatus } from '../../temporal/messages.js';
import { recordAudit } from '../audit.js';
import { enqueueEvent } from '../outbox.js';

export interface TransitionInput {
  subscriptionId: string;
  from: SubscriptionStatus;
  to: SubscriptionStatus;
  /** The subscription's own "now" (its test clock's time when it has one). */
  at: string;
  reason: string;
  actor: ActorRef;
  requestId?: string | undefined;
}

export const snapshotOf = (row: SubscriptionRow): SubscriptionSnapshot => ({
  status: row.status,
  periodStart: row.periodStart.toISOString(),
  periodEnd: row.periodEnd.toISOString(),
  trialEnd: row.trialEnd?.toISOString() ?? null,
});

/** The period following one that ended at `endMs`, keeping the subscription's anchor day. */
function followingPeriod(endMs: number, cadence: BillingCadence, anchor: Date): { periodStart: Date; periodEnd: Date } {
  return { periodStart: new Date(endMs), periodEnd: new Date(nextPeriodEnd(endMs, cadence, anchorDayOf(anchor.getTime()))) };
}

async function existing(db: DbClient, subscriptionId: string) {
  const row = await findSubscriptionWithCadence(db, subscriptionId);
  if (!row) throw notFound('subscription', subscriptionId);
  return row;
}

/**
 * Moves the subscription from `from` to `to` with its audit entry (and, for a cancellation, its
 * outbox event) in one transaction under the subscription's row lock. Already in `to`: unchanged.
 * Throws not_found for a missing subscription and invalid_transition when it is in neither state.
 */
export async function transitionSubscription(db: Db, input: TransitionInput): Promise<SubscriptionSnapshot> {
  const at = new Date(input.at);
  return db.$transaction(async (tx) => {
    if (!(await lockSubscription(tx, input.subscriptionId))) throw notFound('subscription', input.subscriptionId);
    const current = await existing(tx, input.subscriptionId);
    if (current.status === input.to) return snapshotOf(current);
    if (current.status !== input.from) {
      throw new DomainError('invalid_transition', 'invalid_state_transition', `subscription is ${current.status}, expected ${input.from}`, {
        entity: 'subscription',
        from: current.status,
      });
    }
    const changes: SubscriptionChanges = { status: input.to };
    if (input.from === 'Trialing' && input.to === 'Active') {
      if (at < current.periodEnd) {
        // A payment ended the trial early (SPEC §3): the trial ends now and the first paid period,
        // anchored on this day, starts now.
        const periodEnd = nextPeriodEnd(at.getTime(), current.plan.billingCadence, anchorDayOf(at.getTime()));
        Object.assign(changes, { trialEnd: at, periodStart: at, periodEnd: new Date(periodEnd), billingAnchor: at });
      } else {
        Object.assign(changes, followingPeriod(current.periodEnd.getTime(), current.plan.billingCadence, current.billingAnchor));
      }
    }
    if (input.to === 'Paused') changes.pausedAt = at;
    if (input.to === 'Active') changes.pausedAt = null;
    if (input.to === 'Cancelled') changes.cancelledAt = at;
    const updated = await updateSubscription(tx, current.id, changes);
    await recordAudit(tx, {
      action: `subscription.${input.to.toLowerCase()}`,
      actor: input.actor,
      entityType: 'subscription',
      entityId: current.id,
      customerId: current.customerId,
      before: { status: current.status },
      after: { status: updated.status, reason: input.reason, period_start: updated.periodStart, period_end: updated.periodEnd },
      ...(input.requestId ? { requestId: input.requestId } : {}),
    });
    if (input.to === 'PastDue') {
      // SPEC §6: payment failed, dunning begins.
      await enqueueEvent(tx, 'subscription.past_due', current.id, { subscription_id: current.id, customer_id: current.customerId }, at);
    }
    if (input.to === 'Cancelled') {
      await enqueueEvent(tx, 'subscription.cancelled', current.id, {
        subscription_id: current.id,
        customer_id: current.customerId,
        reason: input.reason,
        cancelled_at: at.toISOString(),
      }, at);
    }
    return snapshotOf(updated);
  });
}

/** Moves an Active/PastDue subscription into its next period, once per period end. */
export async function rollSubscriptionPeriod(db: Db, input: { subscriptionId: string; expectedPeriodEnd: string }): Promise<SubscriptionSnapshot> {
  return db.$transaction((tx) => rollSubscriptionPeriodIn(tx, input));
}

/**
 * rollSubscriptionPeriod within the caller's transaction (a period close's); `read` is the row the
 * caller read in it under the subscription's row lock, when it did.
 */
export async function rollSubscriptionPeriodIn(
  tx: DbClient,
  input: { subscriptionId: string; expectedPeriodEnd: string },
  read?: SubscriptionRow,
): Promise<SubscriptionSnapshot> {
  const current = read ? await withCadence(tx, read) : await existing(tx, input.subscriptionId);
  const expected = new Date(input.expectedPeriodEnd);
  if (current.periodEnd.getTime() !== expected.getTime()) return snapshotOf(current);
  const next = followingPeriod(expected.getTime(), current.plan.billingCadence, current.billingAnchor);
  // Conditional on the period end read: when another roll got there first, the row is as that one left it.
  if ((await rollPeriodFrom(tx, current.id, expected, next)) === 0) return snapshotOf(await existing(tx, input.subscriptionId));
  return snapshotOf({ ...current, ...next });
}
