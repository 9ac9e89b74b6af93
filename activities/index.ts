/**
 * Activities: the I/O side of workflows. createActivities receives real dependencies from the
 * worker's composition root; workflows import only the *type* of what it returns.
 */
import type { Db } from '../src/db/client.js';
import type { Logger } from '../src/logger.js';
import { createSubscriptionActivities } from './subscriptions.js';

export interface ActivityDeps {
  db: Db;
  logger: Logger;
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...createSubscriptionActivities(deps.db),
  };
}

export type Activities = ReturnType<typeof createActivities>;
