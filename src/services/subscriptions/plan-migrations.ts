/**
 * Plan migrations: moving a plan's subscriptions from their version to another one, on purpose,
 * after a preview. Each move is the change-plan update of the subscription's workflow (the same
 * proration as change-plan), so every move is in that workflow's history.
 */
import { findPlan, getPlanPricing, planVersionExists } from '../../db/catalog.js';
import { subscriptionsOnPlan, type SubscriptionOnPlan } from '../../db/subscriptions.js';
import { prorateOverlapCredit } from '../../core/index.js';
import { DomainError, notFound } from '../../errors.js';
import type { RequestContext } from '../audit.js';
import { recordAudit } from '../audit.js';
import type { ServiceDeps } from '../deps.js';
import { changePlan } from './subscriptions.js';

/** Subscriptions in these states can change plans (the workflow's PLAN_CHANGEABLE). */
const MOVABLE = ['Trialing', 'Active', 'PastDue'] as const;
export const MAX_MIGRATION_BATCH = 100;

export interface PlanMigrationInput {
  preview: boolean;
  /** Only subscriptions on this version; default every version but the target. */
  from_version?: number | undefined;
  /** Default the plan's current version. */
  to_version?: number | undefined;
  /** At most this many subscriptions are moved (or previewed) per request; default and maximum MAX_MIGRATION_BATCH. */
  limit?: number | undefined;
}

export interface MigrationItem {
  subscription_id: string;
  customer_id: string;
  status: string;
  from_version: number;
  to_version: number;
  /** When the move takes (took) effect: the subscription's now (its test clock's time when on one). */
  effective_at: string;
  proration: {
    /** Unused part of the old version's Flat fees for the rest of the period (credited or not charged). */
    credit_nanos: string;
    /** The new version's Flat fees for the rest of the period. */
    charge_nanos: string;
    /** charge − credit: what the move adds to the period's bill (negative: it lowers it). */
    net_nanos: string;
  };
  sku_changes: { added: string[]; removed: string[] };
  /** Apply only: moved, or failed with the error that refused it (the others still moved). */
  result?: 'moved' | 'failed';
  error?: { code: string; message: string };
  invoice_id?: string | null;
}

export interface PlanMigrationView {
  plan_id: string;
  preview: boolean;
  to_version: number;
  subscriptions: MigrationItem[];
  moved_count: number;
  failed_count: number;
  /** Movable subscriptions beyond this batch (send the request again to move them). */
  remaining_count: number;
}

const civil = (d: Date): string => d.toISOString().slice(0, 10);
const flatTotal = (skus: { pricing_model: string; unit_amount_nanos: bigint }[]) =>
  skus.filter((s) => s.pricing_model === 'Flat').reduce((sum, s) => sum + s.unit_amount_nanos, 0n);

/** What moving the subscription at `at` does to its period's Flat fees (nothing during a trial). */
function prorationOf(sub: SubscriptionOnPlan, at: Date, oldFlat: bigint, newFlat: bigint): MigrationItem['proration'] {
  if (sub.status === 'Trialing') return { credit_nanos: '0', charge_nanos: '0', net_nanos: '0' };
  const start = civil(sub.periodStart);
  const end = civil(sub.periodEnd);
  if (start >= end) return { credit_nanos: '0', charge_nanos: '0', net_nanos: '0' };
  const day = civil(at);
  const change = day < start ? start : day > end ? end : day;
  const credit = prorateOverlapCredit(oldFlat, start, end, change);
  const charge = prorateOverlapCredit(newFlat, start, end, change);
  return { credit_nanos: credit.toString(), charge_nanos: charge.toString(), net_nanos: (charge - credit).toString() };
}

/**
 * Moves a plan's subscriptions (Trialing, Active, PastDue) from their version to `to_version`, or,
 * with `preview`, tells which would move and the proration effect, changing nothing. Each move is
 * the change-plan update of the subscription's workflow; one refused move does not stop the others.
 */
export async function migratePlan(deps: ServiceDeps, planId: string, input: PlanMigrationInput, context: RequestContext): Promise<PlanMigrationView> {
  const plan = await findPlan(deps.db, planId);
  if (plan === null) throw notFound('plan', planId);
  if (plan.archived_at !== null) {
    throw new DomainError('conflict', 'plan_archived', `plan ${planId} is archived: move its subscriptions with change-plan instead`, { plan_id: planId });
  }
  const target = input.to_version ?? plan.version;
  for (const [field, version] of [['to_version', target], ['from_version', input.from_version]] as const) {
    if (version !== undefined && !(await planVersionExists(deps.db, planId, version))) {
      throw new DomainError('not_found', 'plan_version_not_found', `${field}: plan ${planId} has no version ${version}`, { field, version });
    }
  }
  if (input.from_version === target) {
    throw new DomainError('unprocessable', 'same_plan', `from_version and to_version are both ${target}`, { field: 'from_version' });
  }
  const targetPricing = await getPlanPricing(deps.db, planId, target);
  if (targetPricing.prices.length === 0) throw new DomainError('unprocessable', 'plan_has_no_skus', `version ${target} of plan ${planId} has no SKUs to bill`);

  const candidates = await subscriptionsOnPlan(deps.db, planId, { statuses: MOVABLE, exceptVersion: target, fromVersion: input.from_version });
  const limit = Math.min(input.limit ?? MAX_MIGRATION_BATCH, MAX_MIGRATION_BATCH);
  const batch = candidates.slice(0, limit);
  const pricingOf = new Map<number, Awaited<ReturnType<typeof getPlanPricing>>>();
  const items: MigrationItem[] = [];
  const targetIds = new Set(targetPricing.prices.map((p) => p.sku_id));
  for (const sub of batch) {
    if (!pricingOf.has(sub.planVersion)) pricingOf.set(sub.planVersion, await getPlanPricing(deps.db, planId, sub.planVersion));
    const from = pricingOf.get(sub.planVersion)!;
    const fromIds = new Set(from.prices.map((p) => p.sku_id));
    const at = sub.testClock?.frozenTime ?? deps.clock();
    items.push({
      subscription_id: sub.id,
      customer_id: sub.customerId,
      status: sub.status,
      from_version: sub.planVersion,
      to_version: target,
      effective_at: at.toISOString(),
      proration: prorationOf(sub, at, flatTotal(from.prices), flatTotal(targetPricing.prices)),
      sku_changes: { added: [...targetIds].filter((id) => !fromIds.has(id)), removed: [...fromIds].filter((id) => !targetIds.has(id)) },
    });
  }
  const view: PlanMigrationView = {
    plan_id: planId,
    preview: input.preview,
    to_version: target,
    subscriptions: items,
    moved_count: 0,
    failed_count: 0,
    remaining_count: candidates.length - batch.length,
  };
  if (input.preview) return view;

  for (const item of items) {
    try {
      const moved = await changePlan(deps, item.subscription_id, planId, { ...context, reason: `plan_migration:v${target}` }, target);
      item.result = 'moved';
      item.invoice_id = moved.invoice?.id ?? null;
      view.moved_count += 1;
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      item.result = 'failed';
      item.error = { code: err.code, message: err.message };
      view.failed_count += 1;
    }
  }
  await deps.db.$transaction((tx) =>
    recordAudit(tx, {
      action: 'plan.migrated',
      actor: context.actor,
      entityType: 'plan',
      entityId: planId,
      before: { subscriptions: items.map((i) => ({ subscription_id: i.subscription_id, plan_version: i.from_version })) },
      after: { to_version: target, moved: items.filter((i) => i.result === 'moved').map((i) => i.subscription_id), failed_count: view.failed_count },
      requestId: context.requestId,
    }),
  );
  return view;
}
