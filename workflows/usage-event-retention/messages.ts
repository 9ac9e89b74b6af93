/**
 * Messages of the daily raw usage event retention run (./index.ts): its Schedule and its summary.
 */
import type { FailedRunItem } from '../shared/messages.js';

/** The Temporal Schedule of the daily retention run (src/services/metering/retention.ts). */
export const USAGE_EVENT_RETENTION_SCHEDULE_ID = 'usage-event-retention';

export interface UsageEventRetentionSummary {
  /** USAGE_EVENT_RETENTION_DAYS as the run applied it; null: the retention is off and nothing was deleted. */
  retentionDays: number | null;
  /** Customers with stored events whose events were judged. */
  customers: number;
  /** Raw events deleted. */
  deleted: number;
  /** Customers whose prune failed deterministically (logged; the next run tries again). */
  failed: FailedRunItem[];
}

/** Where a run stood at its last heartbeat: a retried attempt goes on after that customer. */
export interface UsageEventRetentionProgress {
  /** The last customer done (customers go in id order). */
  lastCustomerId: string | null;
  customers: number;
  deleted: number;
  failed: FailedRunItem[];
}
