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
import { WorkflowClock } from '../clock.js';
import { billingErrorOf } from '../failures.js';
import { INVALID_TRANSITION, nextWakeQuery, NOT_FOUND, UNPROCESSABLE } from '../shared/messages.js';
import { spendAlertAdvanceClockUpdate, spendChangedSignal, type SpendAlertWorkflowInput, type SpendEvaluation } from './messages.js';

const { evaluateSpendAlerts, resetSpendAlertsForPeriod, recordSpendEvaluationError } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', nonRetryableErrorTypes: [INVALID_TRANSITION, NOT_FOUND, UNPROCESSABLE] },
});

/**
 * Changes to the released workflow, each behind `patched(id)` (README, "Workflow versioning"): an
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
  const { customerId } = input;
  const clock = new WorkflowClock(input.testClock?.now ?? null);
  let pending = input.pending;
  let working = false;
  let continuing = false;
  let finished = false;
  let nextPeriodStart: string | null = input.nextPeriodStart ?? null;
  /** The period start whose reset ran last: each is reset once. */
  let resetFor: string | null = null;
  const nowIso = () => new Date(clock.nowMs()).toISOString();

  setHandler(spendChangedSignal, () => {
    pending = true;
    clock.touch();
  });
  setHandler(nextWakeQuery, () => nextPeriodStart);
  setHandler(
    spendAlertAdvanceClockUpdate,
    async (to) => {
      clock.advanceTo(to);
      await condition(() => finished || continuing || (clock.caughtUp() && !working && !pending));
      return { caughtUp: !continuing };
    },
    {
      validator: (_to: string) => {
        if (!clock.isTestClock) throw ApplicationFailure.nonRetryable('the customer is not on a test clock', 'NotOnTestClock');
      },
    },
  );

  let enabled = true;
  let rollWaits = 0;
  while (enabled || pending) {
    if (!pending) {
      const deadline = nextPeriodStart !== null ? Date.parse(nextPeriodStart) : clock.nowMs() + IDLE_RECHECK_MS;
      const reached = await clock.until(deadline);
      if (reached && nextPeriodStart !== null) {
        working = true;
        await resetSpendAlertsForPeriod({ customerId, periodStart: nextPeriodStart });
        resetFor = nextPeriodStart;
        working = false;
      }
    }
    if (pending) await sleep(SPEND_DEBOUNCE_MS);
    working = true;
    pending = false;
    // A signal woke the wait above, or came just before the period start and the clock passed it
    // during the debounce: the evaluation below at the new time answers the next period start only.
    if (nextPeriodStart !== null && nextPeriodStart !== resetFor && clock.nowMs() >= Date.parse(nextPeriodStart) && patched(SPEND_RESET_PASSED_PERIOD_START)) {
      await resetSpendAlertsForPeriod({ customerId, periodStart: nextPeriodStart });
      resetFor = nextPeriodStart;
    }
    let evaluation: SpendEvaluation;
    try {
      evaluation = await evaluateSpendAlerts({ customerId, at: nowIso() });
    } catch (err) {
      if (!(err instanceof ActivityFailure) || !patched(SPEND_EVALUATION_ERRORS)) throw err;
      // Shown on the alerts; the next signal (new usage, an alert change or reset) or period start evaluates again.
      await recordSpendEvaluationError({ customerId, error: billingErrorOf(err, nowIso()) });
      working = false;
      rollWaits = 0;
      continue;
    }
    working = false;
    enabled = evaluation.enabledAlerts > 0;
    nextPeriodStart = evaluation.nextPeriodStart;
    // At a period start the subscription may roll just after this evaluation: look again shortly,
    // so the new period's fees are evaluated without waiting for its first usage.
    rollWaits = evaluation.awaitingRoll ? rollWaits + 1 : 0;
    if (enabled && evaluation.awaitingRoll && rollWaits <= MAX_ROLL_WAITS) pending = true;
    if (enabled && workflowInfo().continueAsNewSuggested) {
      continuing = true;
      await condition(allHandlersFinished);
      await continueAsNew<typeof spendAlertWorkflow>({
        customerId,
        testClock: input.testClock ? { id: input.testClock.id, now: nowIso() } : null,
        pending: true,
        nextPeriodStart,
      });
    }
  }
  finished = true;
  await condition(allHandlersFinished);
}
