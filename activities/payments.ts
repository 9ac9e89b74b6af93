/**
 * Payment and dunning activities. The invoice workflow's (invoice task queue) charge, capture and
 * apply notifications inside its mutex, and hand back the follow-ups (dunning started or closed,
 * subscriptions told) for that workflow to run. The dunning and processor-event workflows' (subscription
 * task queue) hand back the payment to ask of the invoice's workflow (a dunning retry's charge, a
 * notification about a Draft or Open invoice) and take its answer in the step after it.
 */
import type { ServiceDeps } from '../src/services/deps.js';
import { captureInvoicePayment, chargeInvoice, invoiceOutcome, paymentFailureOf } from '../src/services/payments/collection.js';
import { checkDueAttempts, concludeDunning, requestDunningCharge, runDunningAttempt } from '../src/services/payments/dunning.js';
import { applyNotification, processNotification, requestNotificationOfInvoice } from '../src/services/payments/notifications.js';
import type { DunningState } from '../workflows/dunning/messages.js';
import type { DunningCheckSummary } from '../workflows/dunning-check/messages.js';
import type { CaptureInvoicePaymentCommand, ChargeInvoiceCommand, InvoicePaymentResult, PaymentAnswer } from '../workflows/invoice/messages.js';
import { actingAs } from '../src/services/audit.js';
import { classified } from './failures.js';
import { collectingFollowUps } from '../src/services/follow-ups.js';
import type { WithFollowUps } from '../workflows/follow-ups/messages.js';

export type PaymentActivityDeps = ServiceDeps;

export function createPaymentActivities(deps: PaymentActivityDeps) {
  const payments = deps;
  /**
   * One line per payment attempt or capture, with its ids and its real outcome: `payment charged` /
   * `payment captured` (info) only for a payment that succeeded; a failed or canceled one is a warn
   * line with the processor's reason (failureCode, failureMessage); an authorisation waiting for its
   * capture or an answer still pending is info; a dunning retry counted as failed because no payment
   * method is on file is a warn line too.
   */
  const logged = (invoiceId: string, action: 'charge' | 'capture', fields: Record<string, unknown>) => async (result: InvoicePaymentResult) => {
    const line = { invoiceId, paymentId: result.paymentId, paymentStatus: result.paymentStatus, invoiceStatus: result.invoice.status, invoiceNumber: result.invoice.invoiceNumber, ...fields };
    switch (result.paymentStatus) {
      case 'Succeeded':
        deps.logger.info(line, action === 'charge' ? 'payment charged' : 'payment captured');
        break;
      case 'Failed':
      case 'Canceled': {
        const failure = await paymentFailureOf(deps.db, result.paymentId!);
        const what = result.paymentStatus === 'Failed' ? 'failed' : 'canceled';
        deps.logger.warn({ ...line, failureCode: failure.code, failureMessage: failure.message }, action === 'charge' ? `payment ${what}` : `payment capture ${what}`);
        break;
      }
      case 'RequiresCapture':
        deps.logger.info(line, 'payment authorised; waiting for its capture');
        break;
      case 'Pending':
        deps.logger.info(line, 'payment pending; the processor answers later');
        break;
      case null:
        if (fields.dunningAttempt !== null && fields.dunningAttempt !== undefined && result.invoice.status === 'Open') {
          deps.logger.warn({ ...line, failureCode: 'no_payment_method', failureMessage: 'no payment method on file' }, 'payment failed');
        } else {
          deps.logger.info(line, 'no payment attempted');
        }
        break;
    }
    return result;
  };
  return {
    /**
     * A charge another workflow asked for (a dunning retry, the auto-charge of a finalization) is that
     * workflow's, with what follows from it (dunning started, its notices): the audit trail names it.
     */
    chargeInvoice: (invoiceId: string, command: ChargeInvoiceCommand): Promise<WithFollowUps<InvoicePaymentResult>> =>
      classified(() =>
        collectingFollowUps(payments, (collecting) =>
          (command.actor.type === 'workflow' ? actingAs(command.actor, () => chargeInvoice(collecting, invoiceId, command)) : chargeInvoice(collecting, invoiceId, command)).then(
            logged(invoiceId, 'charge', { source: command.source, dunningAttempt: command.dunningAttempt ?? null }),
          ),
        ),
      ),

    captureInvoicePayment: (invoiceId: string, command: CaptureInvoicePaymentCommand): Promise<WithFollowUps<InvoicePaymentResult>> =>
      classified(() => collectingFollowUps(payments, (collecting) => captureInvoicePayment(collecting, invoiceId, command).then(logged(invoiceId, 'capture', {})))),

    /** A processor notification about one of the invoice's payments, applied inside its workflow. */
    applyPaymentNotification: (invoiceId: string, eventId: string): Promise<WithFollowUps<InvoicePaymentResult>> =>
      classified(() =>
        collectingFollowUps(payments, async (collecting) => {
          await applyNotification(collecting, eventId);
          return { invoice: await invoiceOutcome(deps.db, invoiceId), paymentId: null, paymentStatus: null };
        }),
      ),

    /** A notification about a Draft or Open invoice's payment, handed back to be asked of the invoice's workflow. */
    requestProcessorEvent: (eventId: string): Promise<WithFollowUps<{ asked: boolean }>> =>
      classified(() => collectingFollowUps(payments, (collecting) => requestNotificationOfInvoice(collecting, eventId))),

    /** Applies the notification (or reads what the invoice's workflow made of it: `asked`, its answer). Runs recorded before PROCESSOR_EVENT_RUNS_FOLLOW_UPS. */
    processProcessorEvent: (eventId: string, asked?: PaymentAnswer | null): Promise<string> => classified(() => processNotification(payments, eventId, asked)),

    /** processProcessorEvent whose follow-ups (dunning closed, subscriptions told, a recharge started) are the processor-event workflow's to run. */
    applyProcessorEvent: (eventId: string, asked?: PaymentAnswer | null): Promise<WithFollowUps<{ outcome: string }>> =>
      classified(() => collectingFollowUps(payments, async (collecting) => ({ outcome: await processNotification(collecting, eventId, asked) }))),

    /** A dunning retry's charge, handed back to be asked of the invoice's workflow. */
    requestDunningCharge: (input: { invoiceId: string; attempt: number; at: string }): Promise<WithFollowUps<{ asked: boolean }>> =>
      classified(() => collectingFollowUps(payments, (collecting) => requestDunningCharge(collecting, input))),

    /** Settles a dunning retry from its charge's answer (`charge`). */
    runDunningAttempt: (input: { invoiceId: string; attempt: number; at: string; charge?: PaymentAnswer | null; handBack?: boolean }): Promise<WithFollowUps<DunningState>> =>
      classified(() =>
        // `handBack` (DUNNING_RUNS_SETTLE_FOLLOW_UPS): what the closing causes (its subscriptions told) is the dunning
        // workflow's to run; runs recorded before it have this activity run them through the gateway.
        input.handBack === true ? collectingFollowUps(payments, (collecting) => runDunningAttempt(collecting, input)) : runDunningAttempt(payments, input),
      ),

    concludeDunning: (input: { invoiceId: string; at: string }): Promise<DunningState> => classified(() => concludeDunning(payments, input)),

    /** The workflows it re-drives (dunning schedules, stale notifications) are the daily check workflow's to start (follow-ups). */
    checkDueDunningAttempts: (): Promise<WithFollowUps<DunningCheckSummary>> => classified(() => collectingFollowUps(payments, (collecting) => checkDueAttempts(collecting, new Date()))),
  };
}
