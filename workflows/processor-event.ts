/**
 * One workflow per processor notification (id `processor-event:<event id>`): the webhook request
 * only stores the notification and starts this; applying it (through the invoice's workflow while
 * the invoice is Draft or Open) is retried here until it is done.
 *
 * Applying it when that fails for good (deterministically, or past its retry schedule) no longer
 * fails the workflow (patch PROCESSOR_EVENT_BILLING_ERRORS), which left the notification unapplied
 * with nothing but the Temporal UI to show it: it is recorded as the event's billing_error (row,
 * audit entry, log line) and the workflow holds until an operator's `retryProcessorEvent` update,
 * which clears it and applies the notification again. A domain refusal still fails the run, and so
 * does a failure inside the invoice's workflow (answered as a refusal, `billing_failed`): the invoice
 * holds that one as its own billing_error, and the invoice's retry applies the notification.
 */
import { allHandlersFinished, ApplicationFailure, condition, log, patched, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { billingErrorOf, isBillingFailure } from './failures.js';
import { ACTIVITY_RETRY, NO_BILLING_ERROR, retryProcessorEventUpdate, type BillingErrorState, type SubscriptionCommand } from './messages.js';

const { processProcessorEvent, recordBillingError, clearBillingError } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: ACTIVITY_RETRY,
});

/**
 * Changes to the released workflow, each behind `patched(id)` (README, "Workflow versioning"): a
 * notification whose application fails for good is held as the event's billing_error instead of
 * failing the run.
 */
export const PROCESSOR_EVENT_BILLING_ERRORS = 'processor-event-billing-errors';

/** Returns what applying the notification did (e.g. payment_succeeded, refund_recorded). */
export async function processorEventWorkflow(input: { eventId: string }): Promise<string> {
  const { eventId } = input;
  /** The failed application held for an operator (only under PROCESSOR_EVENT_BILLING_ERRORS). */
  let billingError: BillingErrorState | null = null;
  /** The billing_error is being written to the row: a retry arriving meanwhile clears it only once it is there. */
  let recording = false;
  /** Applications attempted (done, or failed and recorded): an operator's retry answers once the next one ran. */
  let steps = 0;
  let outcome: string | null = null;

  setHandler(
    retryProcessorEventUpdate,
    async (command) => {
      await condition(() => !recording);
      const seen = steps;
      await clearBillingError({ entity: 'processor_event', id: eventId, command });
      billingError = null;
      await condition(() => steps > seen);
      return outcome;
    },
    {
      validator: (_command: SubscriptionCommand) => {
        if (billingError === null) throw ApplicationFailure.nonRetryable(`processor event ${eventId} has no billing error to retry`, NO_BILLING_ERROR);
      },
    },
  );

  /** Records the failure and waits for an operator's retry; a failure that is not a billing failure fails the run. */
  const holdForOperator = async (failure: unknown) => {
    if (!isBillingFailure(failure) || !patched(PROCESSOR_EVENT_BILLING_ERRORS)) throw failure;
    const error = billingErrorOf(failure, new Date().toISOString());
    log.warn('processor notification failed; holding for an operator retry', { eventId, ...error });
    // Held from now on: the row shows the error as soon as the activity wrote it, and a retry sent on
    // seeing it must be accepted.
    billingError = error;
    recording = true;
    try {
      await recordBillingError({ entity: 'processor_event', id: eventId, error });
    } finally {
      steps += 1;
      recording = false;
    }
    await condition(() => billingError === null);
  };

  for (;;) {
    try {
      outcome = await processProcessorEvent(eventId);
    } catch (err) {
      // Held until an operator retries; the loop then applies the notification again.
      await holdForOperator(err);
      continue;
    }
    steps += 1;
    await condition(allHandlersFinished);
    return outcome;
  }
}
