/**
 * The test-clock advance workflow (`test-clock-advance:<clock id>`, on the test-clock task queue),
 * and the workflows an advance drives through the clock's time: each answers the `advanceTestClock`
 * update (and the `clockAdvance` signal the advance workflow drives them by) and the `nextWakeAt`
 * query (subscriptions, contracts, spend alert evaluators, dunning). The drive by update
 * (clockDrivenWorkflow's driveTo) is the `driveTestClock` activity's, which only runs of the advance
 * recorded before it drove the workflows itself still schedule.
 */
import { WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { nextWakeQuery } from '../../../workflows/shared/messages.js';
import { contractWorkflowId } from '../../../workflows/contract/messages.js';
import { dunningWorkflowId } from '../../../workflows/dunning/messages.js';
import { spendAlertWorkflowId } from '../../../workflows/spend-alerts/messages.js';
import { advanceClockUpdate, subscriptionWorkflowId } from '../../../workflows/subscription/messages.js';
import { type TestClockAdvanceInput, testClockAdvanceWorkflowId } from '../../../workflows/test-clock-advance/messages.js';
import { withTemporalDeadline } from '../client.js';
import { unlessWorkflowGone, workflowRunState, type TemporalGateway } from '../gateway.js';
import { testClockTaskQueue } from '../task-queues.js';

/** Whether the clock's advance workflow is running (within the API's Temporal deadline). */
export async function advanceWorkflowRunning(gateway: TemporalGateway, clockId: string): Promise<boolean> {
  return (await withTemporalDeadline(gateway, () => workflowRunState(gateway, testClockAdvanceWorkflowId(clockId)))) === 'running';
}

/**
 * Starts the clock's advance workflow (within the API's Temporal deadline). The clock row decides
 * (it is ready, or its advance was found stale): a run still open is the previous advance
 * completing after it set the clock ready, or a stale one; this advance replaces it.
 */
export async function startAdvanceWorkflow(gateway: TemporalGateway, input: TestClockAdvanceInput): Promise<void> {
  await withTemporalDeadline(gateway, () =>
    gateway.client.workflow.start('testClockAdvanceWorkflow', {
      workflowId: testClockAdvanceWorkflowId(input.clockId),
      taskQueue: testClockTaskQueue(gateway.taskQueue),
      args: [input],
      memo: { test_clock_id: input.clockId },
      workflowIdConflictPolicy: 'TERMINATE_EXISTING',
    }),
  );
}

/** A workflow an advance drives: a subscription's, a contract's, a customer's spend alert evaluator, an invoice's dunning. */
export type ClockDrivenRef = { kind: 'subscription' | 'contract' | 'spend-alerts' | 'dunning'; id: string };

export interface ClockDrivenWorkflow {
  /** Tells workflows apart (its workflow id). */
  readonly key: string;
  /** When it next has something to do (ms), null when nothing (or it has ended). */
  nextWake(): Promise<number | null>;
  /**
   * Advances it to `at` and waits until it caught up: `running` false once it has ended, with the
   * next wake when its answer carries one. `updateId` (one per advance, step and pass) makes a call
   * sent again after a timeout wait for the same update instead of adding another.
   */
  driveTo(at: string, through: string, updateId: string): Promise<{ running: boolean; nextWakeAt?: string | null }>;
}

const WORKFLOW_ID = {
  subscription: subscriptionWorkflowId,
  contract: contractWorkflowId,
  'spend-alerts': spendAlertWorkflowId,
  dunning: dunningWorkflowId,
} as const;

/**
 * Update calls that may time out in a row, per workflow and step, before the advance fails: a busy
 * worker (hundreds of subscriptions stepping at once) answers an update later than the server's
 * RPC deadline, while the update itself goes on; sending it again waits for it anew.
 */
const UPDATE_TIMEOUTS_TOLERATED = 20;

/** The workflow id of a workflow an advance drives. */
export const clockDrivenWorkflowId = (ref: ClockDrivenRef): string => WORKFLOW_ID[ref.kind](ref.id);

/**
 * When a clock-driven workflow next has something to do (ms), null when nothing or it does not run:
 * its `nextWakeAt` query, a read (the advance workflow's drive asks it through an activity).
 */
export function nextWakeOf(gateway: TemporalGateway, workflowId: string): Promise<number | null> {
  return unlessWorkflowGone(async () => {
    const wake = await gateway.client.workflow.getHandle(workflowId).query(nextWakeQuery);
    return wake === null ? null : Date.parse(wake);
  }, null);
}

export function clockDrivenWorkflow(gateway: TemporalGateway, ref: ClockDrivenRef): ClockDrivenWorkflow {
  const handle = gateway.client.workflow.getHandle(clockDrivenWorkflowId(ref));
  return {
    key: handle.workflowId,
    nextWake: () => nextWakeOf(gateway, handle.workflowId),
    async driveTo(at, through, updateId) {
      let timeouts = 0;
      // A run that continued as new answers caughtUp=false: the next run takes the same time, each run its own update.
      for (let run = 1; ; ) {
        try {
          const answer = await unlessWorkflowGone(() => handle.executeUpdate(advanceClockUpdate, { args: [at, through], updateId: `${updateId}:${run}` }), null);
          if (answer === null) return { running: false };
          if (answer.caughtUp) return { running: true, ...(answer.nextWakeAt === undefined ? {} : { nextWakeAt: answer.nextWakeAt }) };
          run += 1;
        } catch (err) {
          // The advance to `at` is idempotent: a repeat of a timed-out update waits for the same state.
          if (!(err instanceof WorkflowUpdateRPCTimeoutOrCancelledError) || (timeouts += 1) > UPDATE_TIMEOUTS_TOLERATED) throw err;
        }
      }
    },
  };
}
