/**
 * One workflow per failed invoice (id `dunning:<invoice id>`, SPEC §3 Dunning schedule): retries at
 * the schedule's days after the failure (+3, +7, +14, +21 by default), each a charge through the
 * invoice's workflow plus its notice; the activity records the outcome and the schedule's progress.
 * It ends when the schedule is Resolved (the invoice was collected, paid by hand or voided: the
 * payment services signal `dunningClosed`) or Exhausted (the last retry failed; the subscription
 * stays PastDue for an admin to pause or cancel). Timers follow the invoice's test clock when it
 * has one: the clock's advances drive this workflow like its subscriptions.
 */
import { allHandlersFinished, ApplicationFailure, condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { dunningAttemptDueMs } from '../src/core/dunning.js';
import { WorkflowClock } from './clock.js';
import {
  ACTIVITY_RETRY,
  advanceDunningClockUpdate,
  dunningClosedSignal,
  dunningStateQuery,
  INVALID_TRANSITION,
  nextWakeQuery,
  NOT_FOUND,
  UNPROCESSABLE,
  type DunningState,
  type DunningWorkflowInput,
} from './messages.js';
import { Mutex } from './mutex.js';

const { runDunningAttempt, concludeDunning } = proxyActivities<Activities>({
  // A retry waits for the invoice workflow's charge, which waits for the processor.
  startToCloseTimeout: '2 minutes',
  retry: ACTIVITY_RETRY,
});

/** How long after the last retry its outcome may stay pending at the processor before the schedule is Exhausted. */
const PENDING_OUTCOME_GRACE_MS = 7 * 86_400_000;

export async function dunningWorkflow(input: DunningWorkflowInput): Promise<DunningState> {
  const clock = new WorkflowClock(input.testClock?.now ?? null);
  const failedAtMs = Date.parse(input.failedAt);
  const days = input.scheduleDays;
  let state: DunningState = { status: 'Active', attemptCount: input.attemptCount };
  let finished = false;
  const mutex = new Mutex();
  const iso = (ms: number) => new Date(ms).toISOString();

  /** The next thing due: a retry, then (once all are made) the end of the wait for the last outcome. */
  const nextDueMs = (): number | null => {
    if (state.status !== 'Active') return null;
    if (state.attemptCount < days.length) return dunningAttemptDueMs(failedAtMs, days, state.attemptCount + 1);
    return dunningAttemptDueMs(failedAtMs, days, days.length) + PENDING_OUTCOME_GRACE_MS;
  };

  setHandler(dunningClosedSignal, (closed) => {
    if (state.status === 'Active') state = { status: closed.status, attemptCount: Math.max(state.attemptCount, closed.attemptCount) };
    clock.touch();
  });
  setHandler(dunningStateQuery, () => state);
  setHandler(nextWakeQuery, () => {
    const due = nextDueMs();
    return due === null ? null : iso(due);
  });
  setHandler(
    advanceDunningClockUpdate,
    async (to) => {
      clock.advanceTo(to);
      await condition(() => finished || (clock.caughtUp() && mutex.idle));
      return { caughtUp: true };
    },
    {
      validator: (_to: string) => {
        if (!clock.isTestClock) throw ApplicationFailure.nonRetryable('dunning schedule is not on a test clock', 'NotOnTestClock');
      },
    },
  );

  for (let due = nextDueMs(); due !== null; due = nextDueMs()) {
    const dueAt = due;
    if (!(await clock.until(dueAt))) continue;
    const at = iso(clock.nowMs());
    state = await mutex.run(() =>
      state.attemptCount < days.length ? runDunningAttempt({ invoiceId: input.invoiceId, attempt: state.attemptCount + 1, at }) : concludeDunning({ invoiceId: input.invoiceId, at }),
    );
  }
  finished = true;
  await condition(allHandlersFinished);
  return state;
}
