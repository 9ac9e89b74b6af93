/**
 * Messages of the test-clock advance workflow (./index.ts): its input, its result, its id.
 */
import type { BillingErrorState } from '../shared/messages.js';

/** One advance of a test clock (src/services/subscriptions/test-clocks.ts): from its previous time to `to`. */
export interface TestClockAdvanceInput {
  clockId: string;
  /** The clock's time before this advance (equal to `to` when an advance re-drives the clock at its time). */
  from: string;
  to: string;
  /** Wall time of the request: names this advance in the clock's row, so a later one is never overwritten. */
  startedAt: string;
  /** Set on a run the drive continued as new into (its history grew long): where the drive stands. */
  resume?: LockstepResume;
  /**
   * Who drives the clock's workflows (TEST_CLOCK_DRIVE): `activity`, the `driveTestClock` activity by
   * updates (the default: faster on a single-store server, see docs/architecture.md); `workflow` (or
   * absent, in runs recorded while it was the only way) this workflow by signals from batch children.
   */
  drive?: TestClockDrive;
}

export type TestClockDrive = 'activity' | 'workflow';

/** Where a drive stands between two steps, carried into the run it continues as new into. */
export interface LockstepResume {
  plan: TestClockDrivePlan;
  running: string[];
  known: string[];
  /** The subscriptions' next wakes (ms, or null) from their last answers. */
  answered: [string, number | null][];
  /** The last step's time (ms). */
  reachedMs: number;
  steps: number;
  alone: boolean;
}

/** What one advance drove. */
export interface TestClockAdvanceResult {
  subscriptions: number;
  steps: number;
  /** Set when the drive failed for good: the clock ended internal_failure with it (nothing counted then). */
  error?: BillingErrorState;
}

/** One advance workflow per clock at a time: a concurrent start finds it running. */
export const testClockAdvanceWorkflowId = (clockId: string): string => `test-clock-advance:${clockId}`;

/**
 * What an advance drives, as the plan activity found it: the workflow ids of the clock's
 * subscriptions and of its other clock-driven workflows (contracts, spend alert evaluators).
 * Dunning workflows are looked up at every step (a step's collection starts them).
 */
export interface TestClockDrivePlan {
  subscriptions: string[];
  others: string[];
}

/** The progress of an advance, written to the clock's row after each step. */
export interface TestClockDriveProgress {
  simulatedTime: string;
  subscriptionsTotal: number;
  subscriptionsDone: number;
}

/** One batch of a step's pass (a child of the advance workflow): the workflows to drive to `at`. */
export interface TestClockDriveBatchInput {
  at: string;
  /** The time the whole advance reaches. */
  through: string;
  /** Names the step's pass; each request's key adds the workflow id and its run. */
  key: string;
  workflowIds: string[];
}

/** How a driven workflow answered: `running` false once it has ended, its next wake when its answer carries one. */
export interface ClockDriveOutcome {
  running: boolean;
  nextWakeAt?: string | null;
}
