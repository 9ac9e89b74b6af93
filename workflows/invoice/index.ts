/**
 * One workflow per invoice (id `invoice:<uuid>`, on the invoice task queue): Draft → Open →
 * Paid | Void (SPEC §3). Finalize, pay and void are updates; their validators reject moves the
 * state machine does not allow before anything is recorded, and each accepted move is one activity
 * transaction (row, gapless number, outbox event, audit entry). Concurrent moves are serialised and
 * each is re-checked when its turn comes. The workflow ends when the invoice is Paid or Void.
 *
 * Collection (SPEC §4 rule 4): once finalized, an invoice whose payer has a default payment method is
 * charged. A period close's finalization charges in the same update (its step sees the outcome); the
 * API's (`chargeAfterAnswer`, patch CHARGE_AFTER_FINALIZE_ANSWER_PATCH) answers the invoice as it
 * stands finalized, Open (SPEC §4), and the workflow charges it right after. `invoicePayment`
 * charges an Open invoice again (a dunning retry, a charge on demand), captures an authorised
 * payment, or applies a processor notification; each is one activity under the same lock.
 *
 * Documents (issue 19): once the invoice is issued, an activity renders and stores its PDF, and
 * again when it ends Paid or Void (each state's document is stored once: a repeat changes nothing).
 */
import { ApplicationFailure, allHandlersFinished, condition, log, patched, proxyActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import {
  ACTIVITY_RETRY,
  BILLING_STATUS_ATTRIBUTE,
  INVALID_TRANSITION,
  INVOICE_NUMBER_ATTRIBUTE,
  NO_BILLING_ERROR,
  NOT_FOUND,
  UNPROCESSABLE,
  type SubscriptionCommand,
} from '../shared/messages.js';
import {
  finalizeInvoiceUpdate,
  invoicePaymentUpdate,
  invoiceStateQuery,
  payInvoiceUpdate,
  retryInvoiceBillingUpdate,
  voidInvoiceUpdate,
  type FinalizedInvoice,
  type FinalizeInvoiceCommand,
  type InvoiceOutcome,
  type InvoicePaymentCommand,
  type InvoicePaymentResult,
  type InvoiceStatus,
  type InvoiceWorkflowInput,
  type PayInvoiceCommand,
} from './messages.js';
import { billingErrorOf, isBillingFailure } from '../failures.js';
import { OperatorHold } from '../hold.js';
import { Mutex } from '../mutex.js';

const {
  finalizeInvoiceRecord,
  payInvoiceRecord,
  voidInvoiceRecord,
  chargeInvoice,
  captureInvoicePayment,
  applyPaymentNotification,
  recordBillingError,
  clearBillingError,
} = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: ACTIVITY_RETRY,
});

/** Rendering is bounded: a document that cannot be rendered must not hold the invoice's lifecycle (a GET renders it on demand). */
const { renderInvoiceDocument } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', maximumAttempts: 10, nonRetryableErrorTypes: [INVALID_TRANSITION, NOT_FOUND, UNPROCESSABLE] },
});

const ALLOWED: Record<'finalize' | 'pay' | 'void' | 'collect', InvoiceStatus> = { finalize: 'Draft', pay: 'Open', void: 'Open', collect: 'Open' };

/** Auto-charge after finalization: invoices finalized before it existed replay without it. */
export const AUTO_CHARGE_PATCH = 'invoice-auto-charge';
/** The PDF rendered after finalization and at the end: invoices finalized before it existed replay without it. */
export const DOCUMENT_PATCH = 'invoice-document';
/**
 * A move whose activity fails deterministically (or past its retry schedule) is recorded as the
 * invoice's billing_error (row, audit entry, log line) before the update fails, and an operator's
 * `retryInvoiceBilling` update runs it again. Runs without the marker only failed the update.
 */
export const INVOICE_BILLING_ERRORS_PATCH = 'invoice-billing-errors';
/**
 * The API's finalize (`chargeAfterAnswer`) answers once the invoice is Open, with its view as it stood
 * finalized, and the auto-charge runs after the update, in the workflow's main flow. Runs without the
 * marker charged within the update (and the API answered Paid when the charge collected the invoice).
 */
export const CHARGE_AFTER_FINALIZE_ANSWER_PATCH = 'invoice-charge-after-finalize-answer';
/**
 * The `BillingStatus` and `InvoiceNumber` search attributes (workflows/shared/messages.ts) follow the
 * invoice: upserted when a move changes its status. Runs without the marker kept those they started with.
 */
export const INVOICE_SEARCH_ATTRIBUTES_PATCH = 'invoice-search-attributes';

export async function invoiceWorkflow(input: InvoiceWorkflowInput): Promise<InvoiceOutcome> {
  let state: InvoiceOutcome = { status: input.status, invoiceNumber: null };
  const mutex = new Mutex();
  /** Takes the state a move persisted, and brings the search attributes along when its status changed. */
  const moved = (next: InvoiceOutcome) => {
    const changed = next.status !== state.status;
    state = next;
    if (!changed || !(input.lean === true || patched(INVOICE_SEARCH_ATTRIBUTES_PATCH))) return;
    upsertSearchAttributes([
      { key: BILLING_STATUS_ATTRIBUTE, value: next.status },
      ...(next.invoiceNumber === null ? [] : [{ key: INVOICE_NUMBER_ATTRIBUTE, value: next.invoiceNumber }]),
    ]);
  };

  const assertAllowed = (move: keyof typeof ALLOWED) => {
    if (state.status !== ALLOWED[move]) {
      throw ApplicationFailure.nonRetryable(`cannot ${move} an invoice in state ${state.status}`, INVALID_TRANSITION, {
        move,
        status: state.status,
      });
    }
  };
  const guard = (move: keyof typeof ALLOWED) => (_command: SubscriptionCommand) => assertAllowed(move);
  const collect = (command: InvoicePaymentCommand): Promise<InvoicePaymentResult> => {
    switch (command.kind) {
      case 'charge':
        return chargeInvoice(input.invoiceId, command);
      case 'capture':
        return captureInvoicePayment(input.invoiceId, command);
      case 'notification':
        return applyPaymentNotification(input.invoiceId, command.eventId);
    }
  };
  // A notification applies whatever the state (it may concern a Draft's earlier payment); charges need an Open invoice.
  const collectable = (command: InvoicePaymentCommand) => {
    if (command.kind !== 'notification') assertAllowed('collect');
  };
  const run = (move: keyof typeof ALLOWED, persist: () => Promise<InvoiceOutcome>) =>
    mutex.run(async () => {
      // Re-checked: another update may have moved the invoice while this one waited its turn.
      assertAllowed(move);
      moved(await persist());
      return state;
    });

  /** The move that failed with a billing error, held for an operator (only under INVOICE_BILLING_ERRORS_PATCH). */
  const hold = new OperatorHold({ entity: 'invoice', id: input.invoiceId, what: 'the invoice', activities: { recordBillingError, clearBillingError } });
  /** Runs the move that failed with the billing error again. */
  let retryFailed: (() => Promise<InvoiceOutcome>) | null = null;
  /** Runs a move; a billing failure of it is recorded (under the patch) before the update fails. */
  const recorded = async <T>(move: () => Promise<T>, again: () => Promise<InvoiceOutcome>, at: string | undefined): Promise<T> => {
    try {
      return await move();
    } catch (err) {
      if (!isBillingFailure(err) || !patched(INVOICE_BILLING_ERRORS_PATCH)) throw err;
      retryFailed = again;
      await hold.record(billingErrorOf(err, at ?? new Date().toISOString()), 'invoice move failed; waiting for an operator retry', { invoiceId: input.invoiceId });
      throw err;
    }
  };

  /** The auto-charge the API's finalize left for after its answer (see CHARGE_AFTER_FINALIZE_ANSWER_PATCH). */
  let chargeAfterFinalize: SubscriptionCommand | null = null;
  const autoCharge = (command: SubscriptionCommand) =>
    chargeInvoice(input.invoiceId, { kind: 'charge', actor: command.actor, requestKey: 'auto_charge', source: 'auto_charge' });
  const finalize = (command: FinalizeInvoiceCommand): Promise<FinalizedInvoice> =>
    recorded(
      async () => {
        let view: FinalizedInvoice['view'];
        const finalizedState = await run('finalize', async () => {
          const { view: asFinalized, ...finalized } = await finalizeInvoiceRecord(input.invoiceId, command);
          view = asFinalized;
          if (finalized.status !== 'Open' || !patched(AUTO_CHARGE_PATCH)) return finalized;
          if (command.chargeAfterAnswer === true && patched(CHARGE_AFTER_FINALIZE_ANSWER_PATCH)) {
            chargeAfterFinalize = { actor: command.actor };
            return finalized;
          }
          return (await autoCharge(command)).invoice;
        });
        return view === undefined ? finalizedState : { ...finalizedState, view };
      },
      () => finalize(command),
      command.at,
    );
  /** The auto-charge after the API's finalize answered: under the lock, and only while the invoice is Open. */
  const chargeFinalized = (command: SubscriptionCommand): Promise<InvoiceOutcome> =>
    recorded(
      () =>
        mutex.run(async () => {
          if (state.status === 'Open') moved((await autoCharge(command)).invoice);
          return state;
        }),
      () => chargeFinalized(command),
      undefined,
    );
  const payment = (command: InvoicePaymentCommand): Promise<InvoicePaymentResult> =>
    recorded(
      () =>
        mutex.run(async () => {
          // Re-checked: the invoice may have been paid or voided while this waited its turn.
          collectable(command);
          const result = await collect(command);
          moved(result.invoice);
          return result;
        }),
      async () => (await payment(command)).invoice,
      undefined,
    );
  const pay = (command: PayInvoiceCommand): Promise<InvoiceOutcome> =>
    recorded(() => run('pay', () => payInvoiceRecord(input.invoiceId, command)), () => pay(command), command.at);
  const voidIt = (command: SubscriptionCommand): Promise<InvoiceOutcome> =>
    recorded(() => run('void', () => voidInvoiceRecord(input.invoiceId, command)), () => voidIt(command), command.at);

  setHandler(finalizeInvoiceUpdate, finalize, { validator: guard('finalize') });
  setHandler(invoicePaymentUpdate, payment, { validator: collectable });
  setHandler(payInvoiceUpdate, pay, { validator: guard('pay') });
  setHandler(voidInvoiceUpdate, voidIt, { validator: guard('void') });
  setHandler(invoiceStateQuery, () => state);
  setHandler(
    retryInvoiceBillingUpdate,
    async (command: SubscriptionCommand) => {
      // A retry accepted while the billing_error is being recorded clears it once it is on the row.
      if (hold.isRecording) await condition(() => !hold.isRecording);
      const again = retryFailed;
      hold.validate(command);
      if (again === null) throw ApplicationFailure.nonRetryable('the invoice has no billing error to retry', NO_BILLING_ERROR);
      await mutex.run(() => hold.clear(command));
      retryFailed = null;
      return again();
    },
    { validator: hold.validate },
  );

  const renderDocument = async () => {
    try {
      await renderInvoiceDocument(input.invoiceId);
    } catch (err) {
      log.warn('invoice document not rendered; it will be rendered when first requested', { invoiceId: input.invoiceId, error: String(err) });
    }
  };

  await condition(() => state.status !== 'Draft');
  if (chargeAfterFinalize !== null) {
    try {
      await chargeFinalized(chargeAfterFinalize);
    } catch (err) {
      // Held as the invoice's billing_error (for an operator's retry) when it is a billing failure;
      // either way the invoice stays Open for a charge on demand, a manual pay or a void.
      log.warn('auto-charge after finalization failed', { invoiceId: input.invoiceId, error: String(err) });
    }
  }
  // Off the finalize update's path: the document is rendered once the invoice is issued.
  // A lean run (see InvoiceWorkflowInput) leaves documents to the API.
  const documents = input.lean !== true && patched(DOCUMENT_PATCH);
  if (documents) await renderDocument();
  await condition(() => state.status === 'Paid' || state.status === 'Void');
  await condition(allHandlersFinished);
  // The final edition, PAID or VOID (already stored when finalizing charged the invoice at once: a no-op then).
  if (documents) await renderDocument();
  return state;
}
