/**
 * One asynchronous test-clock advance (src/services/subscriptions/test-clocks.ts), id
 * `test-clock-advance:<clock id>`: it drives every workflow on the clock to the new time in
 * lockstep, writing progress to the clock; then the clock is set `ready` with its event. When the
 * drive fails for good the clock is set `internal_failure` (advance again).
 * Since patch ADVANCE_FAILURE_RECORDED the failure is shown as the advance's `error` (audited as the
 * workflow's, logged) and the run completes with it instead of failing: the clock holds the failure.
 * Since patch ADVANCE_DRIVEN_BY_WORKFLOW the workflow drives them itself (./lockstep.ts), by signals
 * sent from batch children (`testClockDriveBatchWorkflow`); runs recorded before it drove them from
 * the `driveTestClock` activity, by updates.
 */
import { ActivityFailure, ApplicationFailure, CancellationScope, ChildWorkflowFailure, isCancellation, patched, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { billingErrorOf } from '../failures.js';
import type { BillingErrorState } from '../shared/messages.js';
import { followedUp } from '../follow-ups/index.js';
import { driveBatch, LockstepDrive } from './lockstep.js';
import type { ClockDriveOutcome, TestClockAdvanceInput, TestClockAdvanceResult, TestClockDriveBatchInput } from './messages.js';

/** Changes to the released workflow, each behind `patched(id)` (docs/versioning.md). */
export const ADVANCE_FAILURE_RECORDED = 'test-clock-advance-failure-recorded';
/**
 * The late-usage correction invoices of the clock's ended subscriptions are driven by this workflow
 * (issue 29): the drive's activity hands back their invoice workflows to start or the finalizes to
 * ask (workflows/follow-ups), run here before the clock is set ready. Runs without the marker got a
 * result without follow-ups: the activity started them and sent the finalize update itself.
 */
export const ADVANCE_RUNS_LATE_USAGE_FOLLOW_UPS = 'test-clock-advance-runs-late-usage-follow-ups';
/**
 * The lockstep drive runs in this workflow (issue 29: activities never drive other workflows): an
 * activity plans it, batch children signal the workflows and wait for their answers, activities
 * write the progress and recognize the revenue. Runs without the marker run the `driveTestClock` activity.
 */
export const ADVANCE_DRIVEN_BY_WORKFLOW = 'test-clock-advance-driven-by-workflow';

/** The advance's `error` step for any failure of the drive, whichever of its activities or children failed. */
const DRIVE_STEP = 'driveTestClock';

const { driveTestClock } = proxyActivities<Activities>({
  // An advance of many subscriptions over years takes minutes; the heartbeat notices a dead worker.
  startToCloseTimeout: '6 hours',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
});

const { planTestClockDrive, finishTestClockDrive } = proxyActivities<Activities>({
  // Starting missing subscription workflows, recognizing a clock's revenue: minutes at most.
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
});

const { finishTestClockAdvance } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

export async function testClockAdvanceWorkflow(input: TestClockAdvanceInput): Promise<TestClockAdvanceResult> {
  let result: TestClockAdvanceResult;
  // An advance asked to drive by the activity never reaches the patch (its input decides, deterministically).
  const inWorkflow = input.drive !== 'activity' && patched(ADVANCE_DRIVEN_BY_WORKFLOW);
  // The activities are told the advance, not where a continued drive stood nor who drives.
  const { resume: _resume, drive: _drive, ...advance } = input;
  try {
    result = inWorkflow ? await driveInWorkflow(input) : await followedUp(driveTestClock(input), ADVANCE_RUNS_LATE_USAGE_FOLLOW_UPS);
  } catch (err) {
    if (!(err instanceof ActivityFailure || (inWorkflow && err instanceof ChildWorkflowFailure)) || isCancellation(err)) throw err;
    if (patched(ADVANCE_FAILURE_RECORDED)) {
      const error = inWorkflow ? driveErrorOf(err) : billingErrorOf(err as ActivityFailure, new Date().toISOString());
      await CancellationScope.nonCancellable(() => finishTestClockAdvance({ ...advance, status: 'internal_failure', error }));
      return { subscriptions: 0, steps: 0, error };
    }
    await CancellationScope.nonCancellable(() => finishTestClockAdvance({ ...advance, status: 'internal_failure' }));
    throw err;
  }
  await finishTestClockAdvance({ ...advance, status: 'ready' });
  return result;
}

/**
 * A batch of a step's pass, the advance's child: signals each workflow to the step's time and
 * answers once each answered (./lockstep.ts driveBatch), in the batch's order.
 */
export async function testClockDriveBatchWorkflow(input: TestClockDriveBatchInput): Promise<ClockDriveOutcome[]> {
  return driveBatch(input);
}

/**
 * The drive run here: planned by an activity (or resumed where the run continued as new from stood),
 * stepped in lockstep, then the revenue and late usage of the clock.
 */
async function driveInWorkflow(input: TestClockAdvanceInput): Promise<TestClockAdvanceResult> {
  const { resume, ...advance } = input;
  const drive = resume ? LockstepDrive.resumed(advance, resume) : new LockstepDrive(advance, await planTestClockDrive(advance));
  const steps = await drive.run();
  return followedUp(finishTestClockDrive({ ...advance, subscriptions: drive.total, steps }), ADVANCE_RUNS_LATE_USAGE_FOLLOW_UPS);
}

/** The failure of a drive run here, as the advance's error: the drive's step, the failure's type and message. */
function driveErrorOf(err: ActivityFailure | ChildWorkflowFailure): BillingErrorState {
  const failure = err instanceof ActivityFailure ? billingErrorOf(err, new Date().toISOString()) : childErrorOf(err);
  return { ...failure, step: DRIVE_STEP };
}

function childErrorOf(err: ChildWorkflowFailure): BillingErrorState {
  const cause = err.cause;
  const type = cause instanceof ApplicationFailure ? (cause.type ?? 'Error') : (cause?.name ?? 'Error');
  return { step: DRIVE_STEP, type, message: (cause?.message ?? err.message).slice(0, 2000), failedAt: new Date().toISOString() };
}
