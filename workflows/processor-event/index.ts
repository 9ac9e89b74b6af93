/**
 * One workflow per processor notification (id `processor-event:<event id>`): the webhook request
 * only stores the notification and starts this; applying it (through the invoice's workflow while
 * the invoice is Draft or Open, asked by this workflow: patch PROCESSOR_EVENT_ASKS_INVOICE_WORKFLOW)
 * is retried here until it is done.
 *
 * Applying it when that fails for good (deterministically, or past its retry schedule) no longer
 * fails the workflow (patch PROCESSOR_EVENT_BILLING_ERRORS), which left the notification unapplied
 * with nothing but the Temporal UI to show it: it is recorded as the event's billing_error (row,
 * audit entry, log line) and the workflow holds until an operator's `retryProcessorEvent` update,
 * which clears it and applies the notification again. A domain refusal still fails the run, and so
 * does a failure inside the invoice's workflow (answered as a refusal, `billing_failed`): the invoice
 * holds that one as its own billing_error, and the invoice's retry applies the notification.
 */
import { ActivityFailure, allHandlersFinished, condition, patched, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { isBillingFailure } from '../failures.js';
import { runFollowUps } from '../follow-ups/index.js';
import { OperatorHold } from '../hold.js';
import { ACTIVITY_RETRY } from '../shared/messages.js';
import { retryProcessorEventUpdate } from './messages.js';

const { requestProcessorEvent, processProcessorEvent, applyProcessorEvent, recordBillingError, clearBillingError } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: ACTIVITY_RETRY,
});

/**
 * Changes to the released workflow, each behind `patched(id)` (docs/versioning.md): a
 * notification whose application fails for good is held as the event's billing_error instead of
 * failing the run.
 */
export const PROCESSOR_EVENT_BILLING_ERRORS = 'processor-event-billing-errors';
/**
 * A notification about a Draft or Open invoice's payment is asked of the invoice's workflow by this
 * workflow (issue 29: activities never drive other workflows): `requestProcessorEvent` hands it back,
 * this workflow sends the request (a child start carrying it, ParentClosePolicy ABANDON, when the
 * invoice's workflow does not run; else the `paymentRequest` signal) and waits for the
 * `paymentAnswered` signal, and `processProcessorEvent` reads the outcome (or applies it, when the
 * invoice's workflow had ended). Runs without the marker had `processProcessorEvent` send the
 * `invoicePayment` update itself.
 */
export const PROCESSOR_EVENT_ASKS_INVOICE_WORKFLOW = 'processor-event-asks-invoice-workflow';
/**
 * What applying the notification causes in other workflows (a dunning schedule closed, the invoice's
 * subscriptions told, a wallet recharge started) is run by this workflow from the follow-ups
 * `applyProcessorEvent` hands back (issue 29). Runs without the marker had `processProcessorEvent`
 * send them through the gateway.
 */
export const PROCESSOR_EVENT_RUNS_FOLLOW_UPS = 'processor-event-runs-follow-ups';

/** Returns what applying the notification did (e.g. payment_succeeded, refund_recorded). */
export async function processorEventWorkflow(input: { eventId: string }): Promise<string> {
  const { eventId } = input;
  // The failed application held for an operator (only under PROCESSOR_EVENT_BILLING_ERRORS); released
  // with the billing_error held while it is being recorded.
  const hold = new OperatorHold({
    entity: 'processor_event',
    id: eventId,
    what: `processor event ${eventId}`,
    activities: { recordBillingError, clearBillingError },
    heldWhileRecording: true,
  });
  let outcome: string | null = null;
  hold.registerRetry(retryProcessorEventUpdate, () => outcome);

  const failures = {
    holds: (err: unknown): err is ActivityFailure => isBillingFailure(err) && patched(PROCESSOR_EVENT_BILLING_ERRORS),
    at: () => new Date().toISOString(),
    message: 'processor notification failed; holding for an operator retry',
    fields: { eventId },
  };
  while (outcome === null) {
    await hold.attempt(async () => {
      outcome = await applyNotification(eventId);
    }, failures);
    // Held until an operator retries; the loop then applies the notification again.
    await hold.released();
  }
  await condition(allHandlersFinished);
  return outcome;
}

/** Applies it: through the invoice's workflow, asked and awaited here (PROCESSOR_EVENT_ASKS_INVOICE_WORKFLOW), or by the activity. */
async function applyNotification(eventId: string): Promise<string> {
  if (!patched(PROCESSOR_EVENT_ASKS_INVOICE_WORKFLOW)) return processProcessorEvent(eventId);
  const { followUps } = await requestProcessorEvent(eventId);
  const asked = await runFollowUps(followUps ?? []);
  if (!patched(PROCESSOR_EVENT_RUNS_FOLLOW_UPS)) return asked === undefined ? processProcessorEvent(eventId) : processProcessorEvent(eventId, asked);
  const { outcome, followUps: after } = await (asked === undefined ? applyProcessorEvent(eventId) : applyProcessorEvent(eventId, asked));
  await runFollowUps(after ?? []);
  return outcome;
}
