/**
 * The cross-domain reactions of the services (ServiceDeps.reactions), wired once for every
 * composition root: the announcing domain calls the hook, the reacting domain is imported only here.
 */
import { noteUsageRecorded } from './services/alerts/spend-alerts.js';
import type { DomainReactions } from './services/deps.js';
import { commitUsedReservations, noteUsageForEntitlements } from './services/entitlements/entitlements.js';
import { noteUsageForThresholds } from './services/subscriptions/progressive.js';

export const DOMAIN_REACTIONS: DomainReactions = {
  // Usage stored: spend alerts evaluate again, subscriptions with a progressive threshold check for a crossing, and used-up entitlements are announced.
  usageRecorded: (deps, customerIds) => {
    noteUsageRecorded(deps, customerIds);
    noteUsageForThresholds(deps, customerIds);
    noteUsageForEntitlements(deps, customerIds);
  },
  // Usage events named reservations: their holds end (the usage counts instead).
  reservationsUsed: async (deps, uses) => {
    await commitUsedReservations(deps, uses);
  },
};
