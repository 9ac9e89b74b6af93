/**
 * Subscription workflows start AFTER the subscription row commits (no RPC inside a database
 * transaction, docs/failures.md): the API starts it right after the commit and records
 * `workflow_started_at`; when that start fails or the process dies in between, the reconciler
 * (every worker, periodically, and every test-clock advance for its own clock) starts the
 * workflows of rows that have none. A start is idempotent: the workflow id is the subscription's,
 * an already running workflow counts as started, and a finished one is never started again.
 */
import { findTestClock } from '../../db/test-clocks.js';
import { markWorkflowStarted, subscriptionsWithoutWorkflow, type SubscriptionRow } from '../../db/subscriptions.js';
import type { ServiceDeps } from '../deps.js';
import type { SubscriptionWorkflowInput } from '../../temporal/messages.js';
import { startSubscriptionWorkflow as startWorkflow } from '../../temporal/workflows/subscription.js';

/** How often (subscription time) a progressive billing threshold is checked. */
export const PROGRESSIVE_CHECK_EVERY_MS = 86_400_000;

export type WorkflowStartDeps = Pick<ServiceDeps, 'db' | 'temporal' | 'logger'>;

/** The workflow input of a subscription row; `clockNow` is its test clock's time (when on one). */
export function subscriptionWorkflowInput(row: SubscriptionRow, clockNow: Date | null): SubscriptionWorkflowInput {
  return {
    subscriptionId: row.id,
    status: row.status,
    periodStart: row.periodStart.toISOString(),
    periodEnd: row.periodEnd.toISOString(),
    trialEnd: row.trialEnd?.toISOString() ?? null,
    testClock: row.testClockId && clockNow ? { id: row.testClockId, now: clockNow.toISOString() } : null,
    progressiveCheckEveryMs: row.progressiveThresholdNanos === null ? null : PROGRESSIVE_CHECK_EVERY_MS,
    pendingCloses: [],
  };
}

/** Starts the subscription's workflow (within the Temporal deadline) and records that it runs. */
export async function startSubscriptionWorkflow(deps: WorkflowStartDeps, row: SubscriptionRow, clockNow: Date | null): Promise<void> {
  await startWorkflow(deps.temporal, subscriptionWorkflowInput(row, clockNow), { customerId: row.customerId, planId: row.planId, status: row.status, testClockId: row.testClockId });
  await markWorkflowStarted(deps.db, row.id, new Date());
}

/**
 * Starts the workflows of subscriptions created before `createdBefore` that have none (oldest
 * first, at most `limit`); a test-clock advance passes its clock. Returns how many it started.
 */
export async function reconcileSubscriptionWorkflows(
  deps: WorkflowStartDeps,
  options: { createdBefore: Date; limit?: number; testClockId?: string },
): Promise<number> {
  const rows = await subscriptionsWithoutWorkflow(deps.db, options.createdBefore, options.limit ?? 100, options.testClockId);
  let started = 0;
  for (const row of rows) {
    const clock = row.testClockId ? await findTestClock(deps.db, row.testClockId) : null;
    await startSubscriptionWorkflow(deps, row, clock?.frozenTime ?? null);
    deps.logger.warn({ subscriptionId: row.id }, 'started the workflow of a subscription whose start after commit did not happen');
    started += 1;
  }
  return started;
}

/** Runs the reconciler every `everyMs` for rows older than `graceMs`, until stopped (worker processes). */
export function startWorkflowReconciler(deps: WorkflowStartDeps, options: { everyMs?: number; graceMs?: number } = {}): { stop(): void } {
  const everyMs = options.everyMs ?? 30_000;
  const graceMs = options.graceMs ?? 10_000;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    reconcileSubscriptionWorkflows(deps, { createdBefore: new Date(Date.now() - graceMs) })
      .catch((err: unknown) => deps.logger.warn({ err }, 'subscription workflow reconciler pass failed; the next pass retries'))
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
