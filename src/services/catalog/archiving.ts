/**
 * Archiving (never deleting) catalog entries: an archived product takes no new plans and its plans
 * no new subscriptions; an archived plan takes no new subscriptions, SKUs or plan changes into it;
 * an archived SKU leaves the plan's next version. Subscriptions already on an archived entry keep
 * billing on their plan version until they are moved or end. Archiving twice changes nothing.
 */
import {
  archivePlanRow,
  archiveProductRow,
  findPlan,
  findSku,
  lockPlan,
  lockProduct,
  retireSku,
} from '../../db/catalog.js';
import type { Db, DbClient } from '../../db/client.js';
import { firstMeters } from '../../db/metering/meters.js';
import { conflict, notFound } from '../../errors.js';
import type { PlanView, ProductView, SkuView } from '../../schemas/catalog.js';
import type { RequestContext } from '../audit.js';
import { recordAudit } from '../audit.js';
import { versionForChange } from './versions.js';

export const planArchived = (id: string) => conflict('plan_archived', `plan ${id} is archived: it takes no new subscriptions or SKUs`, { plan_id: id });
export const productArchived = (id: string) =>
  conflict('product_archived', `product ${id} is archived: it takes no new plans and its plans no new subscriptions`, { product_id: id });

/** Refuses pricing an event type whose billing meter (the first one created for it) is archived. */
export async function assertMeterNotArchived(tx: DbClient, eventType: string): Promise<void> {
  const meter = (await firstMeters(tx, [eventType])).get(eventType);
  if (meter?.archivedAt) {
    throw conflict('meter_archived', `meter_event_type: ${eventType} is billed with meter ${meter.id}, which is archived`, {
      field: 'meter_event_type',
      meter_id: meter.id,
    });
  }
}

interface ArchiveDeps {
  db: Db;
  clock: () => Date;
}

export async function archiveProduct(deps: ArchiveDeps, id: string, context: RequestContext): Promise<ProductView> {
  return deps.db.$transaction(async (tx) => {
    const before = await lockProduct(tx, id);
    if (before === null) throw notFound('product', id);
    if (before.archived_at !== null) return before;
    const after = await archiveProductRow(tx, id, deps.clock());
    await recordAudit(tx, { action: 'product.archived', actor: context.actor, entityType: 'product', entityId: id, before, after, requestId: context.requestId });
    return after;
  });
}

export async function archivePlan(deps: ArchiveDeps, id: string, context: RequestContext): Promise<PlanView> {
  return deps.db.$transaction(async (tx) => {
    if ((await lockPlan(tx, id, 'update')) === null) throw notFound('plan', id);
    const before = (await findPlan(tx, id))!;
    if (before.archived_at !== null) return before;
    const after = await archivePlanRow(tx, id, deps.clock());
    await recordAudit(tx, { action: 'plan.archived', actor: context.actor, entityType: 'plan', entityId: id, before, after, requestId: context.requestId });
    return after;
  });
}

/**
 * Removes the SKU from its plan from the current version on, or from a new version when a
 * subscription is on the current one (which keeps the SKU). A price change is an archive of the
 * old SKU and a new SKU: the first opens version N+1, the second joins it (nobody is on it yet).
 */
export async function archiveSku(deps: ArchiveDeps, id: string, context: RequestContext): Promise<SkuView> {
  return deps.db.$transaction(async (tx) => {
    const found = await findSku(tx, id);
    if (found === null) throw notFound('sku', id);
    const plan = await lockPlan(tx, found.plan_id, 'update');
    const before = (await findSku(tx, id))!;
    if (before.version_to !== null || plan === null) return before;
    const version = await versionForChange(tx, plan, context);
    const after = await retireSku(tx, id, version, deps.clock());
    await recordAudit(tx, { action: 'sku.archived', actor: context.actor, entityType: 'sku', entityId: id, before, after, requestId: context.requestId });
    return after;
  });
}
