/**
 * Progressive billing on the crossing (SPEC: a threshold finalizes the current Draft). Ingestion
 * announces stored usage through the `usageRecorded` reaction, after the events committed; here the
 * customers of every request within THRESHOLD_SIGNAL_COALESCE_MS are gathered per process, their
 * subscriptions with a progressive threshold that may bill now looked up in one query, and each one's
 * workflow gets one `usageAccrued` signal with the customer's time. Customers without such a
 * subscription cost that one indexed query per window and nothing else. The workflow debounces the
 * signals of a burst into one check (workflows/subscription/run.ts), which bills and finalizes the
 * period's Draft only when the accrued charges reached the threshold. Failures are logged, never the
 * ingestion's problem: the next usage, or the daily check, checks again.
 */
import { thresholdSubscriptionsOf } from '../../db/subscriptions.js';
import { signalUsageAccrued } from '../../temporal/workflows/subscription.js';
import { Coalescer } from '../coalescer.js';
import type { ServiceDeps } from '../deps.js';

/**
 * How long ingestion gathers customers before it signals their subscriptions with a threshold (per
 * process): at most two signals a second per subscription and API process, whatever the event rate.
 */
export const THRESHOLD_SIGNAL_COALESCE_MS = 500;

const thresholdSignals = new Coalescer<ServiceDeps>(THRESHOLD_SIGNAL_COALESCE_MS, (deps, customers) => void signalThresholdSubscriptions(deps, customers));

/** Notes that usage of these customers was stored (the `usageRecorded` reaction). */
export function noteUsageForThresholds(deps: ServiceDeps, customerIds: Iterable<string>): void {
  thresholdSignals.note(deps.db, deps, customerIds);
}

async function signalThresholdSubscriptions(deps: ServiceDeps, customerIds: string[]): Promise<void> {
  try {
    const subscriptions = await thresholdSubscriptionsOf(deps.db, customerIds, deps.clock());
    await Promise.all(subscriptions.map((subscription) => signalUsageAccrued(deps.temporal, subscription.id, subscription.now)));
  } catch (err) {
    deps.logger.warn({ err, customers: customerIds.length }, 'could not signal subscriptions with a progressive threshold');
  }
}
