/**
 * Plan versions (docs/catalog.md, "Plan versions"). A plan has versions 1, 2, …; a version's SKUs are frozen
 * once a subscription (or a past plan phase of one) is on it. A SKU change to the current version
 * applies in place while nobody is on it, else it opens version N+1 (audited as
 * plan.version_created), which new subscriptions take. Subscriptions stay on their version until
 * moved on purpose: change-plan (to the plan's current version) or a plan migration
 * (src/services/subscriptions/plan-migrations.ts).
 */
import {
  listPlanVersions as listPlanVersionRows,
  openPlanVersion,
  planVersionInUse,
  type LockedPlan,
  type PlanVersionRecord,
} from '../../db/catalog.js';
import type { DbClient } from '../../db/client.js';
import { notFound } from '../../errors.js';
import type { RequestContext } from '../audit.js';
import { recordAudit } from '../audit.js';
import type { ServiceDeps } from '../deps.js';

/**
 * The version a SKU change to the locked plan applies to: the current one while no subscription is
 * on it, else a new one (opened here, audited as plan.version_created).
 */
export async function versionForChange(tx: DbClient, plan: LockedPlan, context: RequestContext): Promise<number> {
  if (!(await planVersionInUse(tx, plan.id, plan.version))) return plan.version;
  const opened = await openPlanVersion(tx, plan.id, plan.version + 1);
  await recordAudit(tx, {
    action: 'plan.version_created',
    actor: context.actor,
    entityType: 'plan',
    entityId: plan.id,
    before: { version: plan.version },
    after: { version: opened.version, created_at: opened.created_at },
    requestId: context.requestId,
  });
  return opened.version;
}

export async function listPlanVersions(deps: Pick<ServiceDeps, 'db'>, planId: string): Promise<PlanVersionRecord[]> {
  const versions = await listPlanVersionRows(deps.db, planId);
  if (versions.length === 0) throw notFound('plan', planId);
  return versions;
}
