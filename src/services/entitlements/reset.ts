/**
 * The period reset of entitlements (docs/entitlements.md "Reset"), run by the subscription workflow
 * right after its period roll (patch `subscription-entitlement-reset`): for each Metered feature of
 * the subscription, the closed period's burn-down is settled (what each grant gave, absorbed, and
 * carries into the next period: a recurring grant's leftover up to its rollover cap, a one-off grant's
 * leftover) and `entitlement.reset` is written once for the new period. Balances themselves need no
 * reset: they are computed per current period. Idempotent: a retry writes nothing twice. The event is
 * dated at the boundary (the new period's start), in the subscription's time.
 */
import { addQuantity, carriedOver, formatQuantity, parseQuantity, ZERO_QUANTITY } from '../../core/index.js';
import { poolReader, type DbClient } from '../../db/client.js';
import { claimPeriodEvent, insertGrantPeriods, readEntitlementRows, subscriptionHasMeteredFeatures } from '../../db/entitlements.js';
import { readCursors } from '../../db/metering/aggregates.js';
import { cursorKey } from '../../db/metering/aggregators.js';
import { findSubscription } from '../../db/subscriptions.js';
import { enqueueEvent } from '../outbox.js';
import type { ServiceDeps } from '../deps.js';
import { featureMeters, mergeTerms, usageUntil } from './entitlements.js';
import { burnFeature, grantsByFeature } from './sources.js';

/** Whether the subscription gives Metered features (its period roll then resets them). */
export const hasMeteredFeatures = (db: DbClient, subscriptionId: string): Promise<boolean> => subscriptionHasMeteredFeatures(db, subscriptionId);

export interface EntitlementResetSummary {
  features: number;
  grants: number;
}

/** Settles the closed period [start, end) of the subscription's Metered features and announces the new period. */
export async function resetEntitlements(deps: ServiceDeps, input: { subscriptionId: string; period: { start: Date; end: Date } }): Promise<EntitlementResetSummary> {
  const subscription = await findSubscription(deps.db, input.subscriptionId);
  if (subscription === null) return { features: 0, grants: 0 };
  const customerId = subscription.customerId;
  const read = poolReader(deps.pool);
  const rows = (await readEntitlementRows(read, customerId, null)).filter((r) => r.kind === 'Metered' && r.subscription_id === input.subscriptionId);
  const terms = rows.map(mergeTerms).filter((g) => g.enabled);
  const meters = await featureMeters(rows);
  const hints = await readCursors(read, [...new Set([...meters.values()].map((m) => cursorKey(m.spec)))]);
  const { start, end } = input.period;
  const grants = await grantsByFeature(read, customerId, terms.map((g) => ({ featureId: g.row.feature_id, periodStart: start })), end);
  const settled = await Promise.all(
    terms.map(async (g) => {
      const meter = meters.get(g.row.feature_id);
      const usageAt = (at: Date) => (meter === undefined ? Promise.resolve(ZERO_QUANTITY) : usageUntil(read, customerId, [g], meter, start, at, hints));
      const featureGrants = grants.get(g.row.feature_id) ?? [];
      const usage = await usageAt(end);
      const burnt = await burnFeature(g.included, featureGrants, usage, end, usageAt);
      const byId = new Map(featureGrants.map((grant) => [grant.id, grant]));
      const periods = burnt.sources
        .filter((s) => s.source.kind === 'grant')
        .map((s) => {
          const grant = byId.get(s.source.id)!;
          const carried = s.expired ? ZERO_QUANTITY : carriedOver(s.remaining, grant.recurring, grant.rollover_cap === null ? null : parseQuantity(grant.rollover_cap));
          return { grantId: grant.id, periodStart: start, periodEnd: end, available: formatQuantity(s.source.quantity), consumed: formatQuantity(s.consumed), carried: formatQuantity(carried) };
        });
      const carried = periods.reduce((total, p) => addQuantity(total, parseQuantity(p.carried)), ZERO_QUANTITY);
      return { terms: g, periods, usage: formatQuantity(usage), carried: formatQuantity(carried) };
    }),
  );
  // The reset happens at the period boundary, in the subscription's time (its test clock's, on one), whenever the roll ran.
  const at = end;
  await deps.db.$transaction(async (tx) => {
    for (const { terms: g, periods, usage, carried } of settled) {
      await insertGrantPeriods(tx, periods);
      if (!(await claimPeriodEvent(tx, { customerId, featureId: g.row.feature_id, periodStart: end, kind: 'reset', at }))) continue;
      await enqueueEvent(
        tx,
        'entitlement.reset',
        customerId,
        {
          customer_id: customerId,
          subscription_id: input.subscriptionId,
          feature: g.row.key,
          feature_id: g.row.feature_id,
          included: formatQuantity(g.included),
          carried_over: carried,
          previous_period_start: start.toISOString(),
          previous_period_usage: usage,
          period_start: end.toISOString(),
        },
        at,
      );
    }
  });
  return { features: settled.length, grants: settled.reduce((n, s) => n + s.periods.length, 0) };
}
