/**
 * Overrides of a feature's terms for one subscription or for every subscription of a contract
 * (docs/entitlements.md): a field set here replaces the plan version's (the subscription's over the
 * contract's); null keeps the one below. An override may also give a feature the plan lacks.
 */
import type { Db, DbClient } from '../../db/client.js';
import { findContract } from '../../db/contracts.js';
import { contractSubscriptionIds, deleteOverride, findFeature, findOverride, subscriptionPlanFeature, upsertOverride, type FeatureOverrideRecord, type OverrideOwner, type OverrideTerms } from '../../db/entitlements.js';
import { findSubscription } from '../../db/subscriptions.js';
import { conflict, DomainError, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { recordAudit, type RequestContext } from '../audit.js';
import { termNotApplicable } from '../catalog/features.js';
import { forgetAllEntitlementChecks } from './entitlements.js';

export type OverrideInput = Partial<{ [K in keyof OverrideTerms]: OverrideTerms[K] | undefined }>;

async function requireOwner(tx: DbClient, owner: OverrideOwner): Promise<string[]> {
  if (owner.subscription_id !== undefined) {
    if ((await findSubscription(tx, owner.subscription_id)) === null) throw notFound('subscription', owner.subscription_id);
    return [owner.subscription_id];
  }
  if ((await findContract(tx, owner.contract_id)) === null) throw notFound('contract', owner.contract_id);
  return contractSubscriptionIds(tx, owner.contract_id);
}

/** Sets (creates or replaces) the owner's override of the feature, saying whether it created one; audited as feature_override.set. */
export async function setFeatureOverride(
  deps: { db: Db; clock: () => Date },
  owner: OverrideOwner,
  featureId: string,
  input: OverrideInput,
  context: RequestContext,
): Promise<{ override: FeatureOverrideRecord; created: boolean }> {
  const set = await deps.db.$transaction(async (tx) => {
    const subscriptions = await requireOwner(tx, owner);
    const feature = await findFeature(tx, featureId);
    if (feature === null) throw notFound('feature', featureId);
    if (feature.archived_at !== null) throw conflict('feature_archived', `feature ${featureId} is archived`, { feature_id: featureId });
    if (feature.kind !== 'Metered') for (const field of ['included_quantity', 'limit'] as const) if (input[field] != null) throw termNotApplicable(feature, field);
    if (feature.kind !== 'Static' && input.value != null) throw termNotApplicable(feature, 'value');
    if (input.included_quantity != null) {
      // Billing prices an Overage feature's included quantity (its SKU's free allowance): an override cannot move it.
      for (const subscriptionId of subscriptions) {
        if ((await subscriptionPlanFeature(tx, subscriptionId, featureId))?.limit === 'Overage' && input.limit !== 'HardStop') {
          throw new DomainError('unprocessable', 'overage_included_fixed', `included_quantity: subscription ${subscriptionId} bills ${feature.key} beyond its overage SKU's free allowance; change the price, or set limit HardStop`, {
            subscription_id: subscriptionId,
          });
        }
      }
    }
    const before = await findOverride(tx, owner, featureId);
    const terms: OverrideTerms = { enabled: input.enabled ?? null, included_quantity: input.included_quantity ?? null, limit: input.limit ?? null, value: input.value ?? null };
    const after = await upsertOverride(tx, newId(), owner, featureId, terms, deps.clock());
    await recordAudit(tx, { action: 'feature_override.set', actor: context.actor, entityType: 'feature_override', entityId: after.id, before, after, requestId: context.requestId });
    return { override: after, created: before === null };
  });
  forgetAllEntitlementChecks();
  return set;
}

/** Removes the owner's override: the feature's terms are the plan's (or the contract's) again. */
export async function removeFeatureOverride(deps: { db: Db }, owner: OverrideOwner, featureId: string, context: RequestContext): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    await requireOwner(tx, owner);
    const before = await findOverride(tx, owner, featureId);
    if (before === null) throw new DomainError('not_found', 'feature_override_not_found', `no override of feature ${featureId} here`, { feature_id: featureId });
    await deleteOverride(tx, before.id);
    await recordAudit(tx, { action: 'feature_override.removed', actor: context.actor, entityType: 'feature_override', entityId: before.id, before, requestId: context.requestId });
  });
  forgetAllEntitlementChecks();
}
