/**
 * Grants (docs/entitlements.md "Grants"): extra quantity of a metered feature for one customer, on top
 * of what its subscriptions include. One-off (a lump that lasts until used or expired) or recurring
 * (the quantity again each period, with what was left rolling over up to `rollover_cap`); burnt down
 * after the included quantity by priority (lower first), then sooner expiry, then age. Created and
 * voided by operators, each audited; a voided grant stops counting at once (what it absorbed too).
 */
import { compareQuantity, parseQuantity } from '../../core/index.js';
import type { Db } from '../../db/client.js';
import { customerNow } from '../../db/contracts.js';
import { findCustomer } from '../../db/customers.js';
import { findFeature, insertGrant, listGrantRows, lockGrant, voidGrantRow, type GrantRecord } from '../../db/entitlements.js';
import type { PageQuery } from '../../db/pages.js';
import { conflict, DomainError, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { recordAudit, type RequestContext } from '../audit.js';
import { forgetEntitlementChecks } from './entitlements.js';

export interface GrantInput {
  feature_id: string;
  quantity: string;
  recurring?: boolean | undefined;
  priority?: number | undefined;
  rollover_cap?: string | null | undefined;
  effective_at?: string | undefined;
  expires_at?: string | null | undefined;
}

const unprocessable = (code: string, field: string, message: string) => new DomainError('unprocessable', code, `${field}: ${message}`, { field });

/** Grants the customer extra quantity of a metered feature; audited `entitlement_grant.created`. */
export async function createGrant(deps: { db: Db; clock: () => Date }, customerId: string, input: GrantInput, context: RequestContext): Promise<GrantRecord> {
  return afterCommitForgetChecks(customerId, deps.db.$transaction(async (tx) => {
    if ((await findCustomer(tx, customerId)) === null) throw notFound('customer', customerId);
    const feature = await findFeature(tx, input.feature_id);
    if (feature === null) throw notFound('feature', input.feature_id);
    if (feature.archived_at !== null) throw conflict('feature_archived', `feature ${feature.id} is archived`, { feature_id: feature.id });
    if (feature.kind !== 'Metered') throw unprocessable('grant_feature_not_metered', 'feature_id', `only Metered features take grants; ${feature.key} is ${feature.kind}`);
    if (parseQuantity(input.quantity).coefficient === 0n) throw unprocessable('grant_quantity_zero', 'quantity', 'a grant gives a quantity above zero');
    const recurring = input.recurring ?? false;
    const cap = input.rollover_cap ?? null;
    if (cap !== null && !recurring) throw unprocessable('rollover_cap_not_recurring', 'rollover_cap', 'only a recurring grant rolls over (a one-off grant keeps what is left of it)');
    if (cap !== null && compareQuantity(parseQuantity(cap), parseQuantity(input.quantity)) > 0) {
      throw unprocessable('rollover_cap_above_quantity', 'rollover_cap', 'at most the quantity: what rolls over is what is left of the period');
    }
    const now = await customerNow(tx, customerId, deps.clock());
    const effectiveAt = input.effective_at === undefined ? now : new Date(input.effective_at);
    const expiresAt = input.expires_at == null ? null : new Date(input.expires_at);
    if (expiresAt !== null && expiresAt <= effectiveAt) throw unprocessable('grant_expiry_before_start', 'expires_at', 'must be after effective_at');
    const grant = await insertGrant(tx, {
      id: newId(),
      customerId,
      featureId: feature.id,
      quantity: input.quantity,
      recurring,
      priority: input.priority ?? 0,
      rolloverCap: cap,
      effectiveAt,
      expiresAt,
      createdAt: now,
    });
    await recordAudit(tx, { action: 'entitlement_grant.created', actor: context.actor, entityType: 'entitlement_grant', entityId: grant.id, customerId, before: null, after: grant, requestId: context.requestId });
    return grant;
  }));
}

/** A grant change's result once committed, the customer's kept check answers forgotten then. */
async function afterCommitForgetChecks<T>(customerId: string, change: Promise<T>): Promise<T> {
  const result = await change;
  forgetEntitlementChecks([customerId]);
  return result;
}

/** The customer's grants, newest first (voided ones included), optionally of one feature. */
export async function listGrants(db: Db, customerId: string, featureId: string | undefined, query: PageQuery): Promise<GrantRecord[]> {
  if ((await findCustomer(db, customerId)) === null) throw notFound('customer', customerId);
  return listGrantRows(db, customerId, featureId, query);
}

/** Voids a grant: it stops counting from now on; audited `entitlement_grant.voided`. Voiding twice is 409 `grant_voided`. */
export async function voidGrant(deps: { db: Db; clock: () => Date }, customerId: string, grantId: string, context: RequestContext): Promise<GrantRecord> {
  return afterCommitForgetChecks(customerId, deps.db.$transaction(async (tx) => {
    const before = await lockGrant(tx, grantId);
    if (before === null || before.customer_id !== customerId) throw new DomainError('not_found', 'grant_not_found', `grant ${grantId} does not exist for this customer`, { id: grantId });
    if (before.voided_at !== null) throw conflict('grant_voided', `grant ${grantId} is voided already`, { id: grantId });
    const after = await voidGrantRow(tx, grantId, await customerNow(tx, customerId, deps.clock()));
    await recordAudit(tx, { action: 'entitlement_grant.voided', actor: context.actor, entityType: 'entitlement_grant', entityId: grantId, customerId, before, after, requestId: context.requestId });
    return after;
  }));
}
