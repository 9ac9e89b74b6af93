/**
 * Activities: the I/O side of workflows. createActivities receives real dependencies from the
 * worker's composition root; workflows import only the *type* of what it returns.
 */
import type { Client } from '@temporalio/client';
import type { Db } from '../src/db/client.js';
import type { Logger } from '../src/logger.js';
import type { TaxAdapter } from '../src/services/tax.js';
import { createInvoiceActivities } from './invoices.js';
import { createSubscriptionActivities } from './subscriptions.js';

export interface ActivityDeps {
  db: Db;
  logger: Logger;
  tax: TaxAdapter;
  /** Activities that drive other workflows (an invoice's, from billing) use this client. */
  client: Client;
  taskQueue: string;
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...createSubscriptionActivities(deps.db),
    ...createInvoiceActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
