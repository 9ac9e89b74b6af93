/**
 * One workflow per customer with spend alerts (id `spend-alerts:<customer id>`): the single,
 * debounced evaluator of its alerts and their reset at each billing period start.
 *
 * - Ingestion, alert creation and admin resets signal `spendChanged` (started with the signal when
 *   not running). The first signal opens a short debounce window (SPEND_DEBOUNCE_MS, real time)
 *   that gathers every later one; then one activity evaluates the current-period spend at the
 *   customer's now. Signals never carry events: thousands of events cost one evaluation.
 * - At the next billing period start of the customer's subscriptions (on the customer's clock:
 *   real timers, or a test clock advanced through an update) an activity re-arms the alerts
 *   triggered in the period that ended, then the spend is evaluated again, and again shortly
 *   while a subscription has not rolled into its new period yet. Since patch
 *   SPEND_RESET_PASSED_PERIOD_START a period start the customer's time passed while the workflow
 *   was gathering changes (usage just before it, the clock advanced during the debounce) is reset
 *   before the evaluation at the new time, which would otherwise look past it for good; the period
 *   start ahead is carried across continue-as-new for the same reason.
 * - It ends once the customer has no enabled alerts; continues as new when the history grows.
 * - An evaluation whose activity fails for good (deterministically, at once) no longer fails the
 *   workflow (patch SPEND_EVALUATION_ERRORS): the failure is recorded on the customer's alerts as
 *   `evaluation_error` and the workflow waits for the next signal or period start, whose successful
 *   evaluation clears it.
 */
import { ActivityFailure, allHandlersFinished, ApplicationFailure, condition, continueAsNew, patched, proxyActivities, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { registerClockAdvance, WorkflowClock } from '../clock.js';
import { billingErrorOf } from '../failures.js';
import { INVALID_TRANSITION, nextWakeQuery, NOT_FOUND, UNPROCESSABLE } from '../shared/messages.js';
import { spendAlertAdvanceClockUpdate, spendChangedSignal, type SpendAlertWorkflowInput, type SpendEvaluation } from './messages.js';

const { evaluateSpendAlerts, resetSpendAlertsForPeriod, recordSpendEvaluationError } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', nonRetryableErrorTypes: [INVALID_TRANSITION, NOT_FOUND, UNPROCESSABLE] },
});

/**
 * Changes to the released workflow, each behind `patched(id)` (docs/versioning.md): an
 * evaluation failing for good is recorded as the alerts' evaluation_error instead of failing the run.
 */
export const SPEND_EVALUATION_ERRORS = 'spend-alerts-evaluation-errors';
/**
 * The period start ahead is reset whenever the customer's time has passed it before an evaluation,
 * not only when the wait for it ended undisturbed: without the marker a change signalled just before
 * it was evaluated at the new time, which answered the next period start, and the reset was skipped.
 */
export const SPEND_RESET_PASSED_PERIOD_START = 'spend-alerts-reset-passed-period-start';

/** How long the evaluator gathers changes before it evaluates (real time). */
export const SPEND_DEBOUNCE_MS = 1_000;
/** Without a period start ahead, how long (customer time) until it looks for one again. */
const IDLE_RECHECK_MS = 86_400_000;
/**
 * Evaluations in a row that wait for a subscription's period roll (each SPEND_DEBOUNCE_MS apart)
 * before it waits for the next signal instead.
 */
const MAX_ROLL_WAITS = 30;

export async function spendAlertWorkflow(input: SpendAlertWorkflowInput): Promise<void> {
  const run = new SpendAlertRun(input);
  run.registerHandlers();
  while (run.enabled || run.pending) {
    if (!run.pending) await run.waitForPeriodStart();
    if (run.pending) await sleep(SPEND_DEBOUNCE_MS);
    run.working = true;
    run.pending = false;
    // A signal woke the wait above, or came just before the period start and the clock passed it
    // during the debounce: the evaluation below at the new time answers the next period start only.
    if (run.passedPeriodStart() && patched(SPEND_RESET_PASSED_PERIOD_START)) await run.resetPeriodStart();
    if (!(await run.evaluate())) continue;
    if (run.enabled && workflowInfo().continueAsNewSuggested) await run.continueAsNew();
  }
  run.finished = true;
  await condition(allHandlersFinished);
}

/** The state of one run: the pending change, the period start ahead and the last one reset. */
class SpendAlertRun {
  readonly clock: WorkflowClock;
  /** A change was signalled and is not evaluated yet. */
  pending: boolean;
  working = false;
  continuing = false;
  finished = false;
  /** Whether the customer has enabled alerts (the run ends once none are left). */
  enabled = true;
  private nextPeriodStart: string | null;
  /** The period start whose reset ran last: each is reset once. */
  private resetFor: string | null = null;
  /** Evaluations in a row that waited for a subscription's period roll. */
  private rollWaits = 0;

  constructor(private readonly input: SpendAlertWorkflowInput) {
    this.clock = new WorkflowClock(input.testClock?.now ?? null);
    this.pending = input.pending;
    this.nextPeriodStart = input.nextPeriodStart ?? null;
  }

  nowIso(): string {
    return new Date(this.clock.nowMs()).toISOString();
  }

  registerHandlers(): void {
    setHandler(spendChangedSignal, () => {
      this.pending = true;
      this.clock.touch();
    });
    setHandler(nextWakeQuery, () => this.nextPeriodStart);
    registerClockAdvance(spendAlertAdvanceClockUpdate, {
      validate: () => {
        if (!this.clock.isTestClock) throw ApplicationFailure.nonRetryable('the customer is not on a test clock', 'NotOnTestClock');
      },
      catchUp: async (to) => {
        this.clock.advanceTo(to);
        await condition(() => this.finished || this.continuing || (this.clock.caughtUp() && !this.working && !this.pending));
        return { caughtUp: !this.continuing };
      },
    });
  }

  /** Waits for a signal or the period start ahead (or a while, without one); a period start reached undisturbed is reset. */
  async waitForPeriodStart(): Promise<void> {
    const deadline = this.nextPeriodStart !== null ? Date.parse(this.nextPeriodStart) : this.clock.nowMs() + IDLE_RECHECK_MS;
    const reached = await this.clock.until(deadline);
    if (reached && this.nextPeriodStart !== null) {
      this.working = true;
      await resetSpendAlertsForPeriod({ customerId: this.input.customerId, periodStart: this.nextPeriodStart });
      this.resetFor = this.nextPeriodStart;
      this.working = false;
    }
  }

  /** The customer's time passed the period start ahead, which is not reset yet. */
  passedPeriodStart(): boolean {
    return this.nextPeriodStart !== null && this.nextPeriodStart !== this.resetFor && this.clock.nowMs() >= Date.parse(this.nextPeriodStart);
  }

  async resetPeriodStart(): Promise<void> {
    const periodStart = this.nextPeriodStart!;
    await resetSpendAlertsForPeriod({ customerId: this.input.customerId, periodStart });
    this.resetFor = periodStart;
  }

  /**
   * Evaluates the alerts at the customer's time; false when it failed for good and the failure was
   * recorded on the alerts (the next signal or period start evaluates again).
   */
  async evaluate(): Promise<boolean> {
    let evaluation: SpendEvaluation;
    try {
      evaluation = await evaluateSpendAlerts({ customerId: this.input.customerId, at: this.nowIso() });
    } catch (err) {
      if (!(err instanceof ActivityFailure) || !patched(SPEND_EVALUATION_ERRORS)) throw err;
      await recordSpendEvaluationError({ customerId: this.input.customerId, error: billingErrorOf(err, this.nowIso()) });
      this.working = false;
      this.rollWaits = 0;
      return false;
    }
    this.working = false;
    this.enabled = evaluation.enabledAlerts > 0;
    this.nextPeriodStart = evaluation.nextPeriodStart;
    // At a period start the subscription may roll just after this evaluation: look again shortly,
    // so the new period's fees are evaluated without waiting for its first usage.
    this.rollWaits = evaluation.awaitingRoll ? this.rollWaits + 1 : 0;
    if (this.enabled && evaluation.awaitingRoll && this.rollWaits <= MAX_ROLL_WAITS) this.pending = true;
    return true;
  }

  /** Continues as new with a change pending (evaluated first by the next run) and the period start ahead. */
  async continueAsNew(): Promise<void> {
    this.continuing = true;
    await condition(allHandlersFinished);
    await continueAsNew<typeof spendAlertWorkflow>({
      customerId: this.input.customerId,
      testClock: this.input.testClock ? { id: this.input.testClock.id, now: this.nowIso() } : null,
      pending: true,
      nextPeriodStart: this.nextPeriodStart,
    });
  }
}
