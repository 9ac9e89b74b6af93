/**
 * Entitlement activities (workflows/subscription): the period reset after a period roll. Idempotent:
 * a retry settles the same closed period and finds the reset event written.
 */
import type { ServiceDeps } from '../src/services/deps.js';
import { resetEntitlements, type EntitlementResetSummary } from '../src/services/entitlements/reset.js';
import { classified } from './failures.js';

export function createEntitlementActivities(deps: ServiceDeps) {
  return {
    /** After a period roll: settles the closed period's grants (rollover, leftovers) and writes entitlement.reset. */
    resetEntitlements: (input: { subscriptionId: string; period: { start: string; end: string } }): Promise<EntitlementResetSummary> =>
      classified(() => resetEntitlements(deps, { subscriptionId: input.subscriptionId, period: { start: new Date(input.period.start), end: new Date(input.period.end) } })),
  };
}
