/**
 * Switching a subscription's plan mid-period: the open plan phase ends at the change time and a
 * new one begins. Billing the period afterwards prorates both plans' recurring fees by whole days
 * (the change day belongs to the new plan) and, when the old plan's fee was already invoiced,
 * credits its unused part (core/invoicing.ts).
 */
import type { Db } from '../db/client.js';
import { newId } from '../ids.js';
import type { ChangePlanCommand } from '../../workflows/messages.js';
import { recordAudit } from './audit.js';
import { DomainError, invalidTransition, notFound } from './errors.js';

const CHANGEABLE = new Set(['Trialing', 'Active', 'PastDue']);

export async function changeSubscriptionPlan(
  db: Db,
  input: { subscriptionId: string; planId: string; at: Date; command: ChangePlanCommand },
): Promise<void> {
  await db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM subscriptions WHERE id = ${input.subscriptionId}::uuid FOR UPDATE`;
    const subscription = await tx.subscription.findUnique({ where: { id: input.subscriptionId } });
    if (!subscription) throw notFound('subscription', input.subscriptionId);
    if (!CHANGEABLE.has(subscription.status)) throw invalidTransition('subscription', subscription.status, 'change the plan of');
    if (subscription.planId === input.planId) {
      // A retried activity whose first attempt committed finds its own change (a phase of this plan
      // opened at this instant, closing another one): nothing to do.
      const [opened, closed] = await Promise.all([
        tx.subscriptionPhase.count({ where: { subscriptionId: subscription.id, planId: input.planId, startsAt: input.at, endsAt: null } }),
        tx.subscriptionPhase.count({ where: { subscriptionId: subscription.id, endsAt: input.at } }),
      ]);
      if (opened > 0 && closed > 0) return;
      throw new DomainError('unprocessable', 'same_plan', 'the subscription is already on this plan', { field: 'plan_id' });
    }
    const plan = await tx.plan.findUnique({ where: { id: input.planId }, include: { skus: { select: { currency: true } } } });
    if (!plan) throw notFound('plan', input.planId);
    if (plan.skus.length === 0) throw new DomainError('unprocessable', 'plan_has_no_skus', `plan ${plan.id} has no SKUs to bill`);
    if (!plan.skus.every((sku) => sku.currency === subscription.currency)) {
      throw new DomainError('unprocessable', 'currency_mismatch', `plan ${plan.id} is not priced in ${subscription.currency}`, { field: 'plan_id' });
    }
    await tx.subscriptionPhase.updateMany({ where: { subscriptionId: subscription.id, endsAt: null }, data: { endsAt: input.at } });
    await tx.subscriptionPhase.create({ data: { id: newId(), subscriptionId: subscription.id, planId: plan.id, startsAt: input.at } });
    await tx.subscription.update({ where: { id: subscription.id }, data: { planId: plan.id } });
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
