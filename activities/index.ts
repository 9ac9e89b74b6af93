/**
 * Activities: the I/O side of workflows. createActivities receives real dependencies from the
 * worker's composition root; workflows import only the *type* of what it returns.
 */
import type { Db } from '../src/db/client.js';
import type { Logger } from '../src/logger.js';

export interface ActivityDeps {
  db: Db;
  logger: Logger;
}

export function createActivities(deps: ActivityDeps) {
  void deps;
  return {};
}

export type Activities = ReturnType<typeof createActivities>;
