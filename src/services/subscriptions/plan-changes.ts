/**
 * Switching a subscription's plan mid-period: the open plan phase ends at the change time and a
 * new one begins. Billing the period afterwards prorates both plans' recurring fees by whole days
 * (the change day belongs to the new plan) and, when the old plan's fee was already invoiced,
 * credits its unused part (core/invoicing.ts). The same plan at another version is a change too:
 * it is how a subscription moves to the plan's current version (change-plan, plan migrations).
 */
import { findPlan, getPlanPricing, lockPlan, planVersionExists } from '../../db/catalog.js';
import { planArchived, productArchived } from '../catalog/archiving.js';
import type { Db } from '../../db/client.js';
import { closeOpenPhase, findSubscription, hasPlanChangeAt, insertPhase, lockSubscription, updateSubscription } from '../../db/subscriptions.js';
import { newId } from '../../ids.js';
import type { ChangePlanCommand } from '../../temporal/messages.js';
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
    // Shared: no SKU change slips into the version taken here before this phase is committed.
    const target = await lockPlan(tx, input.planId, 'share');
    if (!target) throw notFound('plan', input.planId);
    const version = input.command.planVersion ?? target.version;
    if (subscription.planId === input.planId && subscription.planVersion === version) {
      // A retried activity whose first attempt committed finds its own change (a phase of this plan
      // version opened at this instant, closing another one): nothing to do.
      if (await hasPlanChangeAt(tx, subscription.id, input.planId, version, input.at)) return;
      throw new DomainError('unprocessable', 'same_plan', `the subscription is already on version ${version} of this plan`, { field: 'plan_id' });
    }
    if (target.archived) throw planArchived(target.id);
    if (target.product_archived) throw productArchived((await findPlan(tx, target.id))?.product_id ?? target.id);
    if (!(await planVersionExists(tx, input.planId, version))) {
      throw new DomainError('not_found', 'plan_version_not_found', `plan ${input.planId} has no version ${version}`, { field: 'plan_version', version });
    }
    const pricing = await getPlanPricing(tx, input.planId, version);
    if (pricing.prices.length === 0) throw new DomainError('unprocessable', 'plan_has_no_skus', `plan ${input.planId} has no SKUs to bill`);
    if (!pricing.prices.every((sku) => sku.currency === subscription.currency)) {
      throw new DomainError('unprocessable', 'currency_mismatch', `plan ${input.planId} is not priced in ${subscription.currency}`, { field: 'plan_id' });
    }
    await closeOpenPhase(tx, subscription.id, input.at);
    await insertPhase(tx, { id: newId(), subscriptionId: subscription.id, planId: input.planId, planVersion: version, startsAt: input.at });
    await updateSubscription(tx, subscription.id, { planId: input.planId, planVersion: version });
    await recordAudit(tx, {
      action: 'subscription.plan_changed',
      actor: input.command.actor,
      entityType: 'subscription',
      entityId: subscription.id,
      customerId: subscription.customerId,
      before: { plan_id: subscription.planId, plan_version: subscription.planVersion },
      after: { plan_id: input.planId, plan_version: version, effective_at: input.at.toISOString() },
      ...(input.command.requestId ? { requestId: input.command.requestId } : {}),
    });
  });
}
