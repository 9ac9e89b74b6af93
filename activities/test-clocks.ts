/**
 * Test-clock advance activities: the lockstep drive of the clock's workflows (heartbeating its
 * progress, so a dead worker is noticed and the retry resumes: driving again what was driven
 * changes nothing) and the end of the advance.
 */
import { Context } from '@temporalio/activity';
import type { ServiceDeps } from '../src/services/deps.js';
import { driveTestClock, finishTestClockAdvance, type AdvanceOutcome, type DriveProgress } from '../src/services/subscriptions/test-clocks.js';
import type { WithFollowUps } from '../workflows/follow-ups/messages.js';
import type { LateUsageCorrectionsSummary } from '../workflows/late-usage-corrections/messages.js';
import type { TestClockAdvanceInput, TestClockAdvanceResult } from '../workflows/test-clock-advance/messages.js';
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

    finishTestClockAdvance: (input: TestClockAdvanceInput & AdvanceOutcome): Promise<void> =>
      classified(async () => {
        await finishTestClockAdvance(deps, input, input, new Date(), workflowActor());
      }),
  };
}
