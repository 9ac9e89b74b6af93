/**
 * The raw usage event retention's activity (src/services/metering/retention.ts), run by the daily
 * `usageEventRetentionWorkflow`. It heartbeats its progress (customers done, events deleted, the last
 * customer): a retry after a lost worker goes on after that customer instead of walking again.
 */
import { Context } from '@temporalio/activity';
import type { ServiceDeps } from '../src/services/deps.js';
import { pruneUsageEvents } from '../src/services/metering/retention.js';
import type { UsageEventRetentionProgress, UsageEventRetentionSummary } from '../workflows/usage-event-retention/messages.js';
import { classified } from './failures.js';

export function createUsageRetentionActivities(deps: Pick<ServiceDeps, 'pool' | 'logger' | 'settings'>) {
  return {
    pruneUsageEvents: (): Promise<UsageEventRetentionSummary> =>
      classified(() => {
        const context = Context.current();
        const resume = (context.info.heartbeatDetails as UsageEventRetentionProgress | undefined) ?? null;
        return pruneUsageEvents(deps, { resume, onProgress: (progress) => context.heartbeat(progress), signal: context.cancellationSignal });
      }),
  };
}
