/**
 * Subscription activities: the moves the subscription workflow decides, persisted by the
 * subscriptions service. A missing subscription or a move from an unexpected state can never
 * succeed on a retry, so both become non-retryable failures the workflow (and the API) recognise
 * by type.
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { ServiceDeps } from '../src/services/deps.js';
import { DomainError } from '../src/errors.js';
import { rollSubscriptionPeriod, transitionSubscription, type TransitionInput } from '../src/services/subscriptions/transitions.js';
import { INVALID_TRANSITION, NOT_FOUND, type SubscriptionSnapshot } from '../workflows/messages.js';

/** The failure of a refused move: its type names the kind, its message is the service's. */
async function refusals<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'not_found') throw ApplicationFailure.nonRetryable(err.message, NOT_FOUND);
    if (err instanceof DomainError && err.kind === 'invalid_transition') throw ApplicationFailure.nonRetryable(err.message, INVALID_TRANSITION);
    throw err;
  }
}

export function createSubscriptionActivities(db: ServiceDeps['db']) {
  return {
    transitionSubscription: (input: TransitionInput): Promise<SubscriptionSnapshot> => refusals(() => transitionSubscription(db, input)),

    /** Moves an Active/PastDue subscription into its next period, once per period end. */
    rollSubscriptionPeriod: (input: { subscriptionId: string; expectedPeriodEnd: string }): Promise<SubscriptionSnapshot> =>
      refusals(() => rollSubscriptionPeriod(db, input)),
  };
}
