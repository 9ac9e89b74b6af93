/**
 * Subscription activities: the moves the subscription workflow decides, persisted by the
 * subscriptions service. A missing subscription or a move from an unexpected state can never
 * succeed on a retry, so both become non-retryable failures the workflow (and the API) recognise
 * by type.
 */
import type { ServiceDeps } from '../src/services/deps.js';
import { rollSubscriptionPeriod, transitionSubscription, type TransitionInput } from '../src/services/subscriptions/transitions.js';
import type { SubscriptionSnapshot } from '../workflows/subscription/messages.js';
import { classified } from './failures.js';

export function createSubscriptionActivities(db: ServiceDeps['db']) {
  return {
    transitionSubscription: (input: TransitionInput): Promise<SubscriptionSnapshot> => classified(() => transitionSubscription(db, input)),

    /** Moves an Active/PastDue subscription into its next period, once per period end. */
    rollSubscriptionPeriod: (input: { subscriptionId: string; expectedPeriodEnd: string }): Promise<SubscriptionSnapshot> =>
      classified(() => rollSubscriptionPeriod(db, input)),
  };
}
