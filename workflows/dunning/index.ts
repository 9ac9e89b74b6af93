/**
 * One workflow per failed invoice (id `dunning:<invoice id>`, SPEC §3 Dunning schedule): retries at
 * the schedule's days after the failure (+3, +7, +14, +21 by default), each a charge this workflow
 * asks of the invoice's workflow (patch DUNNING_ASKS_INVOICE_CHARGE) plus its notice; the activity
 * after the answer settles the retry and the schedule's progress.
 * It ends when the schedule is Resolved (the invoice was collected, paid by hand or voided: the
 * payment services signal `dunningClosed`) or Exhausted (the last retry failed; the subscription
 * stays PastDue for an admin to pause or cancel). Timers follow the invoice's test clock when it
 * has one: the clock's advances drive this workflow like its subscriptions.
 *
 * A retry whose activity fails for good (deterministically, or past its retry schedule) no longer
 * fails the workflow (patch DUNNING_BILLING_ERRORS), which the daily check would start again only to
 * fail the same way: it is recorded as the schedule's billing_error (row, audit entry, log line) and
 * the workflow holds until an operator's `retryDunning` update, which clears it and runs it again,
 * or until the schedule is closed (patch DUNNING_CLOSE_ENDS_HOLD): the closing cleared the
 * billing_error, and the workflow ends Resolved.
 */
import { ActivityFailure, allHandlersFinished, ApplicationFailure, condition, patched, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { dunningAttemptDueMs } from '../../src/core/dunning.js';
import { registerClockAdvance, WorkflowClock } from '../clock.js';
import { OperatorHold } from '../hold.js';
import { ACTIVITY_RETRY, INVALID_TRANSITION, nextWakeQuery, NOT_FOUND, UNPROCESSABLE } from '../shared/messages.js';
import {
  advanceDunningClockUpdate,
  dunningClosedSignal,
  dunningStateQuery,
  retryDunningUpdate,
  type DunningState,
  type DunningWorkflowInput,
} from './messages.js';
import { Mutex } from '../mutex.js';
import { runFollowUps } from '../follow-ups/index.js';

const { requestDunningCharge, runDunningAttempt, concludeDunning, recordBillingError, clearBillingError } = proxyActivities<Activities>({
  // Runs recorded before DUNNING_ASKS_INVOICE_CHARGE wait within `runDunningAttempt` for the invoice
  // workflow's charge, which waits for the processor; the steps of the others only read and write the schedule.
  startToCloseTimeout: '2 minutes',
  retry: ACTIVITY_RETRY,
});

/**
 * Changes to the released workflow, each behind `patched(id)` (docs/versioning.md): a
 * retry failing for good is held as the schedule's billing_error instead of failing the run.
 */
export const DUNNING_BILLING_ERRORS = 'dunning-billing-errors';
/**
 * A schedule closed (its invoice paid or voided) while a failed retry is held for an operator: the
 * hold ends with it (the closing cleared the billing_error) and the workflow completes, instead of
 * waiting for a retry of a schedule that has nothing left to retry.
 */
export const DUNNING_CLOSE_ENDS_HOLD = 'dunning-close-ends-hold';
/**
 * A retry's charge is asked of the invoice's workflow by this workflow (issue 29: activities never
 * drive other workflows): `requestDunningCharge` hands the charge back, this workflow sends the request
 * (a child start carrying it, ParentClosePolicy ABANDON, when the invoice's workflow does not run; else
 * the `paymentRequest` signal) and waits for the `paymentAnswered` signal, and `runDunningAttempt`
 * settles the retry from the answer. Runs without the marker had `runDunningAttempt` send the
 * `invoicePayment` update itself.
 */
export const DUNNING_ASKS_INVOICE_CHARGE = 'dunning-asks-invoice-charge';
/**
 * What settling a retry causes in other workflows (an invoice paid or voided meanwhile closes the
 * schedule: its subscriptions are told) is run by this workflow from the follow-ups
 * `runDunningAttempt` hands back when asked to (`handBack`, issue 29). Runs without the marker had it
 * send them through the gateway.
 */
export const DUNNING_RUNS_SETTLE_FOLLOW_UPS = 'dunning-runs-settle-follow-ups';

/** How long after the last retry its outcome may stay pending at the processor before the schedule is Exhausted. */
const PENDING_OUTCOME_GRACE_MS = 7 * 86_400_000;

export async function dunningWorkflow(input: DunningWorkflowInput): Promise<DunningState> {
  const run = new DunningRun(input);
  run.registerHandlers();
  for (let due = run.nextDueMs(); due !== null; due = run.nextDueMs()) {
    if (!(await run.clock.until(due))) continue;
    await run.attemptDue(new Date(run.clock.nowMs()).toISOString());
    // Held until an operator retries; the loop then finds the same retry due and runs it again.
    await run.hold.released();
  }
  run.finished = true;
  await condition(allHandlersFinished);
  return run.state;
}

/** The state of one dunning run: the schedule's progress, its clock and the failed retry held for an operator. */
class DunningRun {
  readonly clock: WorkflowClock;
  state: DunningState;
  finished = false;
  /** The failed retry held for an operator (only under DUNNING_BILLING_ERRORS); its steps: the retries attempted. */
  readonly hold: OperatorHold;
  private readonly mutex = new Mutex();
  private readonly failedAtMs: number;

  constructor(private readonly input: DunningWorkflowInput) {
    this.clock = new WorkflowClock(input.testClock?.now ?? null);
    this.failedAtMs = Date.parse(input.failedAt);
    this.state = { status: 'Active', attemptCount: input.attemptCount };
    this.hold = new OperatorHold({
      entity: 'dunning_schedule',
      id: input.invoiceId,
      what: `the dunning schedule of invoice ${input.invoiceId}`,
      activities: { recordBillingError, clearBillingError },
    });
  }

  /** The next thing due: a retry, then (once all are made) the end of the wait for the last outcome. */
  nextDueMs(): number | null {
    const days = this.input.scheduleDays;
    if (this.state.status !== 'Active') return null;
    if (this.state.attemptCount < days.length) return dunningAttemptDueMs(this.failedAtMs, days, this.state.attemptCount + 1);
    return dunningAttemptDueMs(this.failedAtMs, days, days.length) + PENDING_OUTCOME_GRACE_MS;
  }

  /** The retry due (or, once all are made, the schedule's conclusion), dated `at`; a failure is held for an operator. */
  attemptDue(at: string): Promise<void> {
    const { invoiceId } = this.input;
    return this.hold.attempt(
      async () => {
        this.state = await this.mutex.run(() =>
          this.state.attemptCount < this.input.scheduleDays.length ? this.retry({ invoiceId, attempt: this.state.attemptCount + 1, at }) : concludeDunning({ invoiceId, at }),
        );
      },
      {
        holds: (err: unknown): err is ActivityFailure => err instanceof ActivityFailure && patched(DUNNING_BILLING_ERRORS),
        at: () => at,
        message: 'dunning retry failed; holding for an operator retry',
        fields: { invoiceId },
      },
    );
  }

  /**
   * One retry: its charge asked of the invoice's workflow and awaited, then settled from the answer
   * (DUNNING_ASKS_INVOICE_CHARGE); runs recorded without the marker charged within `runDunningAttempt`.
   */
  private async retry(input: { invoiceId: string; attempt: number; at: string }): Promise<DunningState> {
    if (!patched(DUNNING_ASKS_INVOICE_CHARGE)) return runDunningAttempt(input);
    const { followUps } = await requestDunningCharge(input);
    const charge = await runFollowUps(followUps ?? []);
    const answered = charge === undefined ? input : { ...input, charge };
    if (!patched(DUNNING_RUNS_SETTLE_FOLLOW_UPS)) return runDunningAttempt(answered);
    const { followUps: closing, ...state } = await runDunningAttempt({ ...answered, handBack: true });
    // This schedule's own closing signal is the state answered here: only the others are sent.
    await runFollowUps((closing ?? []).filter((f) => !(f.kind === 'dunning_closed' && f.invoiceId === input.invoiceId)));
    return state;
  }

  /** The closing signal, the state and next-wake queries, the test-clock advance and the operator's retry. */
  registerHandlers(): void {
    setHandler(dunningClosedSignal, (closed) => {
      if (this.state.status === 'Active') this.state = { status: closed.status, attemptCount: Math.max(this.state.attemptCount, closed.attemptCount) };
      if (this.hold.error !== null && this.state.status !== 'Active' && patched(DUNNING_CLOSE_ENDS_HOLD)) this.hold.release();
      this.clock.touch();
    });
    setHandler(dunningStateQuery, () => this.state);
    setHandler(nextWakeQuery, () => {
      const due = this.nextDueMs();
      return due === null ? null : new Date(due).toISOString();
    });
    registerClockAdvance(advanceDunningClockUpdate, {
      validate: () => {
        if (!this.clock.isTestClock) throw ApplicationFailure.nonRetryable('dunning schedule is not on a test clock', 'NotOnTestClock');
      },
      catchUp: async (to) => {
        this.clock.advanceTo(to);
        // A schedule held for an operator has nothing more to do at any time: the clock goes on.
        await condition(() => this.finished || this.hold.recorded || (this.clock.caughtUp() && this.mutex.idle));
        return { caughtUp: true };
      },
    });
    this.hold.registerRetry(retryDunningUpdate, () => this.state);
  }
}
