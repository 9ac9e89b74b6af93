/**
 * The cross-domain reactions of the services (ServiceDeps.reactions), wired once for every
 * composition root: the announcing domain calls the hook, the reacting domain is imported only here.
 */
import { noteUsageRecorded } from './services/alerts/spend-alerts.js';
import type { DomainReactions } from './services/deps.js';

export const DOMAIN_REACTIONS: DomainReactions = {
  usageRecorded: noteUsageRecorded,
};
