/**
 * One asynchronous test-clock advance (src/services/subscriptions/test-clocks.ts), id
 * `test-clock-advance:<clock id>`: its activity drives every workflow on the clock to the new time
 * in lockstep, heartbeating and writing progress to the clock; then the clock is set `ready` with
 * its event. When the drive fails for good the clock is set `internal_failure` (advance again).
 * Since patch ADVANCE_FAILURE_RECORDED the failure is shown as the advance's `error` (audited as the
 * workflow's, logged) and the run completes with it instead of failing: the clock holds the failure.
 */
import { ActivityFailure, CancellationScope, isCancellation, patched, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { billingErrorOf } from '../failures.js';
import { followedUp } from '../follow-ups/index.js';
import type { TestClockAdvanceInput, TestClockAdvanceResult } from './messages.js';

/** Changes to the released workflow, each behind `patched(id)` (docs/versioning.md). */
export const ADVANCE_FAILURE_RECORDED = 'test-clock-advance-failure-recorded';
/**
 * The late-usage correction invoices of the clock's ended subscriptions are driven by this workflow
 * (issue 29): the drive's activity hands back their invoice workflows to start or the finalizes to
 * ask (workflows/follow-ups), run here before the clock is set ready. Runs without the marker got a
 * result without follow-ups: the activity started them and sent the finalize update itself.
 */
export const ADVANCE_RUNS_LATE_USAGE_FOLLOW_UPS = 'test-clock-advance-runs-late-usage-follow-ups';

const { driveTestClock } = proxyActivities<Activities>({
  // An advance of many subscriptions over years takes minutes; the heartbeat notices a dead worker.
  startToCloseTimeout: '6 hours',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
});

const { finishTestClockAdvance } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

export async function testClockAdvanceWorkflow(input: TestClockAdvanceInput): Promise<TestClockAdvanceResult> {
  let result: TestClockAdvanceResult;
  try {
    result = await followedUp(driveTestClock(input), ADVANCE_RUNS_LATE_USAGE_FOLLOW_UPS);
  } catch (err) {
    if (!(err instanceof ActivityFailure) || isCancellation(err)) throw err;
    if (patched(ADVANCE_FAILURE_RECORDED)) {
      const error = billingErrorOf(err, new Date().toISOString());
      await CancellationScope.nonCancellable(() => finishTestClockAdvance({ ...input, status: 'internal_failure', error }));
      return { subscriptions: 0, steps: 0, error };
    }
    await CancellationScope.nonCancellable(() => finishTestClockAdvance({ ...input, status: 'internal_failure' }));
    throw err;
  }
  await finishTestClockAdvance({ ...input, status: 'ready' });
  return result;
}
