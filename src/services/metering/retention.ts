/**
 * The raw usage event retention (docs/usage-and-metering.md, "Retention and events over time"), run
 * daily by the `usage-event-retention` Temporal Schedule: with USAGE_EVENT_RETENTION_DAYS set, the
 * raw events older than that many days before their customer's now (its test clock's time on one)
 * are deleted once nothing rates them again: their periods are closed and final (no late events can
 * arrive for them any more, none is unbilled, their Draft is finalized) and every rollup series of
 * their type has rolled them up. The database judges each event (usage_events_prune); this walks
 * the customers in id order, 5,000 events per statement, and reports its progress.
 *
 * Safe at any time, and again: ingestion and period closes run meanwhile (an in-flight close rates
 * an open period, whose events are never final; an ingesting statement locks what it reads), and a
 * run that stopped goes on from its last heartbeat. What stays: the rollups, invoices with their
 * pricing traces, period closes and what the retention dropped (usage_event_retention, which the
 * readers of old periods consult: src/db/metering/retention.ts).
 */
import { usageRetentionProblem } from '../../core/index.js';
import { ConfigError } from '../../config.js';
import { customersWithEvents, pruneCustomerEvents } from '../../db/metering/retention.js';
import type { UsageEventRetentionProgress, UsageEventRetentionSummary } from '../../temporal/messages.js';
import type { ServiceDeps } from '../deps.js';
import { runItem } from '../failures/run-items.js';
import { lateUsageMaxDays } from './events.js';

/** Events deleted per statement at most: each statement is a short transaction of its own. */
export const PRUNE_BATCH_ROWS = 5_000;
/** Customers read per page of the walk. */
const CUSTOMERS_PER_PAGE = 500;
const RUN = 'usage-event-retention';

export interface PruneOptions {
  /** Where a previous attempt of the same run stood (its last heartbeat): the walk goes on after it. */
  resume?: UsageEventRetentionProgress | null;
  /** Called after each statement and each customer (the activity's heartbeat). */
  onProgress?: (progress: UsageEventRetentionProgress) => void;
  /** Stops the walk between statements (the activity was cancelled). */
  signal?: AbortSignal;
  /** Events deleted per statement (PRUNE_BATCH_ROWS unless a test asks for fewer). */
  batchRows?: number;
}

/**
 * One retention run over every customer with stored events. Off (USAGE_EVENT_RETENTION_DAYS unset):
 * nothing deleted. A retention shorter than the late-usage window and its margin is refused (the
 * configuration refuses it at start already): a dropped event sent again would be stored again.
 * A customer whose prune fails deterministically is logged and listed; the others go on.
 */
export async function pruneUsageEvents(deps: Pick<ServiceDeps, 'pool' | 'logger' | 'settings'>, options: PruneOptions = {}): Promise<UsageEventRetentionSummary> {
  const retentionDays = deps.settings.usageEventRetentionDays ?? null;
  if (retentionDays === null) {
    deps.logger.info({ run: RUN }, 'usage event retention is off (USAGE_EVENT_RETENTION_DAYS unset): nothing deleted');
    return { retentionDays: null, customers: 0, deleted: 0, failed: [] };
  }
  const late = lateUsageMaxDays(deps);
  const problem = usageRetentionProblem(retentionDays, late);
  if (problem !== null) throw new ConfigError(`invalid configuration: USAGE_EVENT_RETENTION_DAYS ${problem}`);

  const batchRows = options.batchRows ?? PRUNE_BATCH_ROWS;
  const limits = { retentionDays, lateUsageMaxDays: late, limit: batchRows };
  const resumed = options.resume ?? null;
  const progress: UsageEventRetentionProgress = resumed
    ? { lastCustomerId: resumed.lastCustomerId, customers: resumed.customers, deleted: resumed.deleted, failed: [...resumed.failed] }
    : { lastCustomerId: null, customers: 0, deleted: 0, failed: [] };
  if (resumed) deps.logger.info({ run: RUN, ...progress }, 'usage event retention: resuming after the last heartbeat');
  const report = () => options.onProgress?.(progress);

  for (;;) {
    const page = await customersWithEvents(deps.pool, progress.lastCustomerId, CUSTOMERS_PER_PAGE);
    if (page.length === 0) break;
    for (const customerId of page) {
      options.signal?.throwIfAborted();
      await runItem(deps, progress.failed, { kind: 'customer', id: customerId, run: RUN }, async () => {
        for (;;) {
          const deleted = await pruneCustomerEvents(deps.pool, customerId, limits);
          progress.deleted += deleted;
          report();
          if (deleted < batchRows || options.signal?.aborted) return;
        }
      });
      options.signal?.throwIfAborted();
      progress.customers += 1;
      progress.lastCustomerId = customerId;
      report();
    }
    deps.logger.info({ run: RUN, retentionDays, customers: progress.customers, deleted: progress.deleted, lastCustomerId: progress.lastCustomerId }, 'usage event retention: progress');
  }
  const summary: UsageEventRetentionSummary = { retentionDays, customers: progress.customers, deleted: progress.deleted, failed: progress.failed };
  deps.logger.info({ run: RUN, ...summary, failed: summary.failed.length }, 'usage event retention: done');
  return summary;
}
