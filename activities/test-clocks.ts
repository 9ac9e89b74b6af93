/**
 * Test-clock advance activities. Since the advance workflow drives the clock's workflows itself
 * (patch test-clock-advance-driven-by-workflow), they only read and write the database or read the
 * workflows' next wakes by query: the plan of the drive, the dunning workflows found at a step, the
 * progress on the clock's row, the revenue and late usage once caught up, and the end of the advance.
 * `driveTestClock` is the lockstep drive of the advances recorded before (heartbeating its progress,
 * so a dead worker is noticed and the retry resumes): kept for those runs only.
 */
import { Context } from '@temporalio/activity';
import type { ServiceDeps } from '../src/services/deps.js';
import {
  driveTestClock,
  dunningWorkflowIdsOnClock,
  finishTestClockAdvance,
  nextWakesOf,
  planTestClockDrive,
  recognizeAfterDrive,
  recordTestClockProgress,
  type AdvanceOutcome,
  type DriveProgress,
} from '../src/services/subscriptions/test-clocks.js';
import type { WithFollowUps } from '../workflows/follow-ups/messages.js';
import type { LateUsageCorrectionsSummary } from '../workflows/late-usage-corrections/messages.js';
import type { TestClockAdvanceInput, TestClockAdvanceResult, TestClockDrivePlan, TestClockDriveProgress } from '../workflows/test-clock-advance/messages.js';
import { classified, workflowActor } from './failures.js';

export interface TestClockActivityDeps extends Pick<ServiceDeps, 'db' | 'temporal' | 'logger' | 'settings'> {
  /** Bills the late usage of the clock's ended subscriptions (the invoice activity of the same name). */
  billLateUsageCorrections: (input: { testClockId: string | null; at: string }) => Promise<WithFollowUps<LateUsageCorrectionsSummary>>;
}

/** Between steps (one step may wait on many workflows), the last progress is heartbeated this often. */
const HEARTBEAT_EVERY_MS = 10_000;

export function createTestClockActivities(deps: TestClockActivityDeps) {
  const driveDeps = deps;
  return {
    driveTestClock: (input: TestClockAdvanceInput): Promise<WithFollowUps<TestClockAdvanceResult>> =>
      classified(async () => {
        const context = Context.current();
        let last: DriveProgress | undefined;
        const beat = () => context.heartbeat(last && { simulated_time: last.simulatedTime.toISOString(), done: last.subscriptionsDone, total: last.subscriptionsTotal });
        const timer = setInterval(beat, HEARTBEAT_EVERY_MS);
        try {
          const driven = await driveTestClock(driveDeps, input, {
            onProgress: (progress) => {
              last = progress;
              beat();
            },
            signal: context.cancellationSignal,
          });
          // Ended subscriptions of the clock have no next period close: their late usage goes on
          // correction invoices at the clock's new time, as the daily run does for the others; their
          // invoice workflows are the advance workflow's to start or ask (follow-ups).
          const { followUps } = await deps.billLateUsageCorrections({ testClockId: input.clockId, at: input.to });
          return { ...driven, followUps };
        } finally {
          clearInterval(timer);
        }
      }),

    planTestClockDrive: (input: TestClockAdvanceInput): Promise<TestClockDrivePlan> => classified(() => planTestClockDrive(driveDeps, input)),

    dunningWorkflowsOnClock: (input: { clockId: string }): Promise<string[]> => classified(() => dunningWorkflowIdsOnClock(deps, input.clockId)),

    nextWakesOf: (input: { workflowIds: string[] }): Promise<Record<string, number | null>> => classified(() => nextWakesOf(deps, input.workflowIds)),

    recordTestClockProgress: (input: { clockId: string; startedAt: string; progress: TestClockDriveProgress }): Promise<void> =>
      classified(() => recordTestClockProgress(deps, input.clockId, input.startedAt, input.progress)),

    /** Once the advance workflow drove every workflow: the clock's revenue, then its late usage (follow-ups for the workflow, as driveTestClock's). */
    finishTestClockDrive: (input: TestClockAdvanceInput & Omit<TestClockAdvanceResult, 'error'>): Promise<WithFollowUps<TestClockAdvanceResult>> =>
      classified(async () => {
        const driven = { subscriptions: input.subscriptions, steps: input.steps };
        await recognizeAfterDrive(driveDeps, input, driven);
        const { followUps } = await deps.billLateUsageCorrections({ testClockId: input.clockId, at: input.to });
        return { ...driven, followUps };
      }),

    finishTestClockAdvance: (input: TestClockAdvanceInput & AdvanceOutcome): Promise<void> =>
      classified(async () => {
        await finishTestClockAdvance(deps, input, input, new Date(), workflowActor());
      }),
  };
}
