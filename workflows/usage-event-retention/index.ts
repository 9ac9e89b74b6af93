/**
 * The raw usage event retention run, started by the Temporal Schedule `usage-event-retention`
 * (daily): deletes the raw events older than USAGE_EVENT_RETENTION_DAYS (each customer's time, its
 * test clock's for sandbox customers) whose periods are closed, final and rolled up
 * (src/services/metering/retention.ts). Its activity heartbeats its progress: a retry after a lost
 * worker goes on where it stood. Nothing to do when the retention is off.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import type { UsageEventRetentionSummary } from './messages.js';

const { pruneUsageEvents } = proxyActivities<Activities>({
  // A first run over a large table takes a while; the heartbeat notices a dead worker long before.
  startToCloseTimeout: '12 hours',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '5 minutes', maximumAttempts: 10 },
});

export async function usageEventRetentionWorkflow(): Promise<UsageEventRetentionSummary> {
  return pruneUsageEvents();
}
