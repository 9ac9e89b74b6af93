/**
 * Features in the catalog (docs/entitlements.md): Boolean, Metered (a meter and an included
 * quantity per period, a hard stop or overage billed by the plan's SKU at the limit) and Static
 * (a value such as seats: 10). Attached to plan versions like SKUs (a change to a version in use
 * opens the next one), archived like other catalog entries, never deleted.
 */
import { freeAllowance, parseQuantity, compareQuantity, quantityOf } from '../../core/index.js';
import { findPlan, lockPlan } from '../../db/catalog.js';
import type { Db, DbClient } from '../../db/client.js';
import {
  archiveFeatureRow,
  attachPlanFeature,
  findFeature,
  findSkuForFeature,
  insertFeature,
  listFeatureRows,
  listPlanFeatureRows,
  lockFeature,
  type FeatureKind,
  type FeatureLimit,
  type FeatureRecord,
  type FeatureValue,
  type PlanFeatureRecord,
} from '../../db/entitlements.js';
import { findMeter } from '../../db/metering/meters.js';
import { conflict, DomainError, notFound, validation } from '../../errors.js';
import { newId } from '../../ids.js';
import { recordAudit, type RequestContext } from '../audit.js';
import { resolveSkuMeters } from '../metering/usage.js';
import type { PageQuery } from '../../db/pages.js';
import { planArchived } from './archiving.js';
import { versionForChange } from './versions.js';

export const featureArchived = (id: string) => conflict('feature_archived', `feature ${id} is archived: it is attached to no more plans`, { feature_id: id });

export interface CreateFeatureInput {
  key: string;
  name: string;
  kind: FeatureKind;
  meter_id?: string | null | undefined;
  meter_event_type?: string | null | undefined;
  unit?: string | undefined;
}

export async function createFeature(db: Db, input: CreateFeatureInput, context: RequestContext): Promise<FeatureRecord> {
  return db.$transaction(async (tx) => {
    let eventType = input.meter_event_type ?? null;
    let unit = input.unit ?? 'units';
    if (input.kind === 'Metered') {
      if (input.meter_id) {
        const meter = await findMeter(tx, input.meter_id);
        if (meter === null) throw notFound('meter', input.meter_id);
        if (meter.archivedAt !== null) throw conflict('meter_archived', `meter ${meter.id} is archived`, { field: 'meter_id', meter_id: meter.id });
        if (eventType !== null && eventType !== meter.eventType) {
          throw new DomainError('unprocessable', 'meter_event_type_mismatch', `meter_event_type: the meter counts ${meter.eventType}, not ${eventType}`);
        }
        eventType = meter.eventType;
        unit = input.unit ?? meter.unit;
      } else if (eventType === null) {
        throw validation('meter_event_type', 'a Metered feature needs meter_id or meter_event_type');
      }
    } else if (input.meter_id || eventType !== null) {
      throw validation(input.meter_id ? 'meter_id' : 'meter_event_type', `a ${input.kind} feature reads no meter`);
    }
    const feature = await insertFeature(tx, { id: newId(), key: input.key, name: input.name, kind: input.kind, meter_id: input.meter_id ?? null, meter_event_type: eventType, unit });
    await recordAudit(tx, { action: 'feature.created', actor: context.actor, entityType: 'feature', entityId: feature.id, after: feature, requestId: context.requestId });
    return feature;
  });
}

export async function getFeature(db: DbClient, id: string): Promise<FeatureRecord> {
  const feature = await findFeature(db, id);
  if (feature === null) throw notFound('feature', id);
  return feature;
}

export const listFeatures = (db: Db, page: PageQuery): Promise<FeatureRecord[]> => listFeatureRows(db, page);

/** Archives the feature: no plan takes it from then on; plan versions and overrides holding it stop granting it. */
export async function archiveFeature(deps: { db: Db; clock: () => Date }, id: string, context: RequestContext): Promise<FeatureRecord> {
  return deps.db.$transaction(async (tx) => {
    const before = await lockFeature(tx, id);
    if (before === null) throw notFound('feature', id);
    if (before.archived_at !== null) return before;
    const after = await archiveFeatureRow(tx, id, deps.clock());
    await recordAudit(tx, { action: 'feature.archived', actor: context.actor, entityType: 'feature', entityId: id, before, after, requestId: context.requestId });
    return after;
  });
}

export interface AttachFeatureInput {
  feature_id: string;
  enabled?: boolean | undefined;
  included_quantity?: string | undefined;
  limit?: FeatureLimit | undefined;
  overage_sku_id?: string | undefined;
  value?: FeatureValue | undefined;
}

const unprocessable = (code: string, message: string, details?: Record<string, unknown>) => new DomainError('unprocessable', code, message, details);

/** A term the feature's kind does not take (limit, included quantity and overage SKU are a Metered feature's; value a Static one's). */
export const termNotApplicable = (feature: Pick<FeatureRecord, 'id' | 'kind'>, field: string) =>
  unprocessable('feature_term_not_applicable', `${field}: does not apply to a ${feature.kind} feature`, { feature_id: feature.id, field });

/**
 * The overage SKU of a Metered feature on `version` of the plan: on that version, pricing the
 * feature's meter, and billing nothing up to its free allowance, which is the feature's included
 * quantity (so the close bills exactly the usage beyond it).
 */
async function overageTerms(tx: DbClient, planId: string, version: number, feature: FeatureRecord, skuId: string, included: string | undefined): Promise<string> {
  const sku = await findSkuForFeature(tx, skuId);
  if (sku === null) throw notFound('sku', skuId);
  const onVersion = sku.plan_id === planId && sku.version_from <= version && (sku.version_to === null || sku.version_to > version);
  if (!onVersion) throw unprocessable('overage_sku_not_on_plan', `overage_sku_id: SKU ${skuId} is not on version ${version} of plan ${planId}`, { sku_id: skuId, version });
  const allowance = freeAllowance(sku.price);
  if (allowance === null) {
    throw unprocessable('overage_sku_model', `overage_sku_id: a ${sku.price.pricing_model} SKU does not bill usage beyond an allowance (use PerUnit, Package or Graduated)`, { sku_id: skuId });
  }
  const probe = { sku_id: feature.id, name: feature.key, pricing_model: 'PerUnit' as const, unit_amount_nanos: 0n, currency: sku.price.currency, meter_event_type: feature.meter_event_type!, ...(feature.meter_id === null ? {} : { meter_id: feature.meter_id }) };
  const resolved = await resolveSkuMeters(tx, [sku.price, probe]);
  const [skuMeter, featureMeter] = resolved.skus.map((s) => s.meter?.meter_id);
  if (skuMeter !== featureMeter) {
    throw unprocessable('overage_sku_meter_mismatch', `overage_sku_id: SKU ${skuId} prices meter ${skuMeter ?? 'none'}, the feature reads ${featureMeter}`, { sku_id: skuId });
  }
  if (included !== undefined && compareQuantity(parseQuantity(included), quantityOf(allowance)) !== 0) {
    throw unprocessable(
      'included_quantity_mismatch',
      `included_quantity: the overage SKU bills usage beyond ${allowance}, so an Overage feature priced by it includes ${allowance} (leave it out or send "${allowance}")`,
      { sku_id: skuId, free_allowance: allowance.toString() },
    );
  }
  return allowance.toString();
}

/**
 * Attaches the feature (or replaces its terms) on the plan's current version, or on a new version
 * when a subscription is on the current one (plan.version_created), as a SKU change does.
 */
export async function attachFeatureToPlan(db: Db, planId: string, input: AttachFeatureInput, context: RequestContext): Promise<PlanFeatureRecord> {
  return db.$transaction(async (tx) => {
    const plan = await lockPlan(tx, planId, 'update');
    if (plan === null) throw notFound('plan', planId);
    if (plan.archived) throw planArchived(planId);
    const feature = await findFeature(tx, input.feature_id);
    if (feature === null) throw notFound('feature', input.feature_id);
    if (feature.archived_at !== null) throw featureArchived(feature.id);
    if (feature.kind !== 'Metered') {
      for (const field of ['included_quantity', 'limit', 'overage_sku_id'] as const) if (input[field] !== undefined) throw termNotApplicable(feature, field);
    }
    if (feature.kind !== 'Static' && input.value !== undefined) throw termNotApplicable(feature, 'value');
    if (feature.kind === 'Static' && input.value === undefined) throw validation('value', 'a Static feature needs its value');
    const limit = feature.kind === 'Metered' ? (input.limit ?? 'HardStop') : null;
    if (limit === 'Overage' && input.overage_sku_id === undefined) throw validation('overage_sku_id', 'an Overage feature names the SKU that bills its overage');
    if (limit !== 'Overage' && input.overage_sku_id !== undefined) throw validation('overage_sku_id', 'only an Overage feature names an overage SKU');
    const version = await versionForChange(tx, plan, context);
    const included =
      feature.kind !== 'Metered' ? null : limit === 'Overage' ? await overageTerms(tx, planId, version, feature, input.overage_sku_id!, input.included_quantity) : (input.included_quantity ?? '0');
    const attached = await attachPlanFeature(tx, newId(), planId, feature, version, {
      enabled: input.enabled ?? true,
      included_quantity: included,
      limit,
      overage_sku_id: input.overage_sku_id ?? null,
      value: input.value ?? null,
    });
    await recordAudit(tx, { action: 'plan.feature_attached', actor: context.actor, entityType: 'plan', entityId: planId, after: attached, requestId: context.requestId });
    return attached;
  });
}

export async function listPlanFeatures(db: Db, planId: string): Promise<PlanFeatureRecord[]> {
  if ((await findPlan(db, planId)) === null) throw notFound('plan', planId);
  return listPlanFeatureRows(db, planId);
}
