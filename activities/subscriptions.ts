/**
 * Persistence of subscription moves decided by the subscription workflow. Idempotent: a retried
 * activity whose first attempt committed finds the row already moved and returns it unchanged.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { periodEnd as nextPeriodEnd, anchorDayOf, type BillingCadence } from '../src/core/index.js';
import type { Db } from '../src/db/client.js';
import type { Subscription } from '../src/generated/prisma/client.js';
import { recordAudit } from '../src/services/audit.js';
import { enqueueEvent } from '../src/services/outbox.js';
import { INVALID_TRANSITION, NOT_FOUND, type ActorRef, type SubscriptionSnapshot, type SubscriptionStatus } from '../workflows/messages.js';

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

export const snapshotOf = (row: Subscription): SubscriptionSnapshot => ({
  status: row.status,
  periodStart: row.periodStart.toISOString(),
  periodEnd: row.periodEnd.toISOString(),
  trialEnd: row.trialEnd?.toISOString() ?? null,
});

/** The period following one that ended at `endMs`, keeping the subscription's anchor day. */
function followingPeriod(endMs: number, cadence: BillingCadence, anchor: Date): { periodStart: Date; periodEnd: Date } {
  return { periodStart: new Date(endMs), periodEnd: new Date(nextPeriodEnd(endMs, cadence, anchorDayOf(anchor.getTime()))) };
}

export function createSubscriptionActivities(db: Db) {
  async function load(subscriptionId: string) {
    const row = await db.subscription.findUnique({ where: { id: subscriptionId }, include: { plan: { select: { billingCadence: true } } } });
    if (!row) throw ApplicationFailure.nonRetryable(`subscription ${subscriptionId} does not exist`, NOT_FOUND);
    return row;
  }

  return {
    async transitionSubscription(input: TransitionInput): Promise<SubscriptionSnapshot> {
      const at = new Date(input.at);
      return db.$transaction(async (tx) => {
        const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM subscriptions WHERE id = ${input.subscriptionId}::uuid FOR UPDATE`;
        if (rows.length === 0) throw ApplicationFailure.nonRetryable(`subscription ${input.subscriptionId} does not exist`, NOT_FOUND);
        const current = await tx.subscription.findUniqueOrThrow({ where: { id: input.subscriptionId }, include: { plan: true } });
        if (current.status === input.to) return snapshotOf(current);
        if (current.status !== input.from) {
          throw ApplicationFailure.nonRetryable(`subscription is ${current.status}, expected ${input.from}`, INVALID_TRANSITION);
        }
        const data: Partial<Subscription> = { status: input.to };
        if (input.from === 'Trialing' && input.to === 'Active') {
          Object.assign(data, followingPeriod(current.periodEnd.getTime(), current.plan.billingCadence, current.billingAnchor));
        }
        if (input.to === 'Paused') data.pausedAt = at;
        if (input.to === 'Active') data.pausedAt = null;
        if (input.to === 'Cancelled') data.cancelledAt = at;
        const updated = await tx.subscription.update({ where: { id: current.id }, data });
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
    },

    /** Moves an Active/PastDue subscription into its next period, once per period end. */
    async rollSubscriptionPeriod(input: { subscriptionId: string; expectedPeriodEnd: string }): Promise<SubscriptionSnapshot> {
      const current = await load(input.subscriptionId);
      const expected = new Date(input.expectedPeriodEnd);
      if (current.periodEnd.getTime() !== expected.getTime()) return snapshotOf(current);
      // Conditional on the period end: a retry after a committed attempt changes nothing.
      await db.subscription.updateMany({
        where: { id: current.id, periodEnd: expected },
        data: followingPeriod(expected.getTime(), current.plan.billingCadence, current.billingAnchor),
      });
      return snapshotOf(await load(input.subscriptionId));
    },
  };
}
