/**
 * Subscription workflows start AFTER the subscription row commits (no RPC inside a database
 * transaction, README "Failures"): the API starts it right after the commit and records
 * `workflow_started_at`; when that start fails or the process dies in between, the reconciler
 * (every worker, periodically, and every test-clock advance for its own clock) starts the
 * workflows of rows that have none. A start is idempotent: the workflow id is the subscription's,
 * an already running workflow counts as started, and a finished one is never started again.
 */
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { findTestClock } from '../../db/test-clocks.js';
import { markWorkflowStarted, subscriptionsWithoutWorkflow, type SubscriptionRow } from '../../db/subscriptions.js';
import type { Db } from '../../db/client.js';
import type { Logger } from '../../logger.js';
import { withTemporalDeadline, type TemporalHandle } from '../../temporal/client.js';
import { subscriptionWorkflowId, type SubscriptionWorkflowInput } from '../../../workflows/messages.js';
import { workflowSearchAttributes } from '../../temporal/search-attributes.js';

/** How often (subscription time) a progressive billing threshold is checked. */
export const PROGRESSIVE_CHECK_EVERY_MS = 86_400_000;

export interface WorkflowStartDeps {
  db: Db;
  temporal: TemporalHandle;
  logger: Logger;
  settings: { temporalTaskQueue: string };
}

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
  try {
    await withTemporalDeadline(deps.temporal, () =>
      deps.temporal.client.workflow.start('subscriptionWorkflow', {
        workflowId: subscriptionWorkflowId(row.id),
        taskQueue: deps.settings.temporalTaskQueue,
        args: [subscriptionWorkflowInput(row, clockNow)],
        memo: { customer_id: row.customerId, plan_id: row.planId },
        typedSearchAttributes: workflowSearchAttributes({ customerId: row.customerId, subscriptionId: row.id, status: row.status, testClockId: row.testClockId }),
        // Never a second run of a subscription whose workflow ran already (an Expired one has ended).
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      }),
    );
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
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
