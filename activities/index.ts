/**
 * Activities: the I/O side of workflows. createActivities receives real dependencies from the
 * worker's composition root; workflows import only the *type* of what it returns.
 */
import { createInvoiceActivities, type InvoiceActivityDeps } from './invoices.js';
import { createSubscriptionActivities } from './subscriptions.js';

/** The database, logger, tax adapter, a Temporal client (activities drive invoice workflows) and settings. */
export type ActivityDeps = InvoiceActivityDeps;

export function createActivities(deps: ActivityDeps) {
  return {
    ...createSubscriptionActivities(deps.db),
    ...createInvoiceActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
