/**
 * Switching a subscription's plan mid-period: the open plan phase ends at the change time and a
 * new one begins. Billing the period afterwards prorates both plans' recurring fees by whole days
 * (the change day belongs to the new plan) and, when the old plan's fee was already invoiced,
 * credits its unused part (core/invoicing.ts).
 */
import { findPlan } from '../../db/catalog.js';
import type { Db } from '../../db/client.js';
import { closeOpenPhase, findSubscription, hasPlanChangeAt, insertPhase, lockSubscription, updateSubscription } from '../../db/subscriptions.js';
import { newId } from '../../ids.js';
import type { ChangePlanCommand } from '../../../workflows/messages.js';
import { recordAudit } from '../audit.js';
import { DomainError, invalidTransition, notFound } from '../../errors.js';

const CHANGEABLE = new Set(['Trialing', 'Active', 'PastDue']);

export async function changeSubscriptionPlan(
  db: Db,
  input: { subscriptionId: string; planId: string; at: Date; command: ChangePlanCommand },
): Promise<void> {
  await db.$transaction(async (tx) => {
    await lockSubscription(tx, input.subscriptionId);
    const subscription = await findSubscription(tx, input.subscriptionId);
    if (!subscription) throw notFound('subscription', input.subscriptionId);
    if (!CHANGEABLE.has(subscription.status)) throw invalidTransition('subscription', subscription.status, 'change the plan of');
    if (subscription.planId === input.planId) {
      // A retried activity whose first attempt committed finds its own change (a phase of this plan
      // opened at this instant, closing another one): nothing to do.
      if (await hasPlanChangeAt(tx, subscription.id, input.planId, input.at)) return;
      throw new DomainError('unprocessable', 'same_plan', 'the subscription is already on this plan', { field: 'plan_id' });
    }
    const plan = await findPlan(tx, input.planId);
    if (!plan) throw notFound('plan', input.planId);
    if (plan.skus.length === 0) throw new DomainError('unprocessable', 'plan_has_no_skus', `plan ${plan.id} has no SKUs to bill`);
    if (!plan.skus.every((sku) => sku.currency === subscription.currency)) {
      throw new DomainError('unprocessable', 'currency_mismatch', `plan ${plan.id} is not priced in ${subscription.currency}`, { field: 'plan_id' });
    }
    await closeOpenPhase(tx, subscription.id, input.at);
    await insertPhase(tx, { id: newId(), subscriptionId: subscription.id, planId: plan.id, startsAt: input.at });
    await updateSubscription(tx, subscription.id, { planId: plan.id });
    await recordAudit(tx, {
      action: 'subscription.plan_changed',
      actor: input.command.actor,
      entityType: 'subscription',
      entityId: subscription.id,
      customerId: subscription.customerId,
      before: { plan_id: subscription.planId },
      after: { plan_id: plan.id, effective_at: input.at.toISOString() },
      ...(input.command.requestId ? { requestId: input.command.requestId } : {}),
    });
  });
}
