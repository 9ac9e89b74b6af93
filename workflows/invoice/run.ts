/**
 * The state of one invoice workflow run and its moves. Handlers and the main flow share it; every
 * move runs under `mutex`, so moves never persist concurrently, and each is re-checked when its turn
 * comes. A move's billing failure is held for an operator (../hold.ts) before its update fails.
 */
import { ActivityFailure, ApplicationFailure, condition, getExternalWorkflowHandle, log, patched, proxyActivities, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { billingErrorOf, isBillingFailure } from '../failures.js';
import { OperatorHold } from '../hold.js';
import { Mutex } from '../mutex.js';
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
  finalizeAnsweredSignal,
  finalizeInvoiceUpdate,
  finalizeRequestSignal,
  invoicePaymentUpdate,
  invoiceStateQuery,
  paymentAnsweredSignal,
  paymentRequestSignal,
  payInvoiceUpdate,
  retryInvoiceBillingUpdate,
  voidInvoiceUpdate,
  type FinalizeAnswer,
  type FinalizedInvoice,
  type FinalizeInvoiceCommand,
  type FinalizeRequest,
  type InvoiceOutcome,
  type InvoicePaymentCommand,
  type InvoicePaymentResult,
  type InvoiceStatus,
  type InvoiceWorkflowInput,
  type PayInvoiceCommand,
  type PaymentAnswer,
  type PaymentRequest,
} from './messages.js';
import {
  AUTO_CHARGE_PATCH,
  CHARGE_AFTER_FINALIZE_ANSWER_PATCH,
  INVOICE_BILLING_ERRORS_PATCH,
  INVOICE_FOLLOW_UPS_PATCH,
  INVOICE_PAYMENT_REQUESTS_PATCH,
  INVOICE_SEARCH_ATTRIBUTES_PATCH,
} from './patches.js';
import { followedUp } from '../follow-ups/index.js';
import type { WithFollowUps } from '../follow-ups/messages.js';

const {
  finalizeInvoiceRecord,
  payInvoiceRecord,
  voidInvoiceRecord,
  chargeInvoice,
  captureInvoicePayment,
  applyPaymentNotification,
  recordBillingError,
  clearBillingError,
  recordFinalizeDeferred,
} = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: ACTIVITY_RETRY,
});

/** Rendering is bounded: a document that cannot be rendered must not hold the invoice's lifecycle (a GET renders it on demand). */
const { renderInvoiceDocument } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', maximumAttempts: 10, nonRetryableErrorTypes: [INVALID_TRANSITION, NOT_FOUND, UNPROCESSABLE] },
});

type Move = 'finalize' | 'pay' | 'void' | 'collect';
const ALLOWED: Record<Move, InvoiceStatus> = { finalize: 'Draft', pay: 'Open', void: 'Open', collect: 'Open' };

export class InvoiceRun {
  state: InvoiceOutcome;
  /** The auto-charge the API's finalize left for after its answer (see CHARGE_AFTER_FINALIZE_ANSWER_PATCH). */
  chargeAfterFinalize: SubscriptionCommand | null = null;
  private readonly mutex = new Mutex();
  /** The move that failed with a billing error, held for an operator (only under INVOICE_BILLING_ERRORS_PATCH). */
  private readonly hold: OperatorHold;
  /** Runs the move that failed with the billing error again. */
  private retryFailed: (() => Promise<InvoiceOutcome>) | null = null;
  /** The payment requests taken (by id): each runs and is answered once, however often it arrives. */
  private readonly paymentRequests = new Set<string>();

  constructor(private readonly input: InvoiceWorkflowInput) {
    this.state = { status: input.status, invoiceNumber: null };
    this.hold = new OperatorHold({ entity: 'invoice', id: input.invoiceId, what: 'the invoice', activities: { recordBillingError, clearBillingError } });
  }

  /** The moves as updates, each validated against the state before anything is recorded; the state query; the operator's retry. */
  registerHandlers(): void {
    const guard = (move: Move) => (_command: SubscriptionCommand) => this.assertAllowed(move);
    setHandler(finalizeInvoiceUpdate, (command) => this.finalize(command), { validator: guard('finalize') });
    setHandler(invoicePaymentUpdate, (command) => this.payment(command), { validator: (command: InvoicePaymentCommand) => this.collectable(command) });
    setHandler(payInvoiceUpdate, (command) => this.pay(command), { validator: guard('pay') });
    setHandler(voidInvoiceUpdate, (command) => this.voidIt(command), { validator: guard('void') });
    setHandler(finalizeRequestSignal, (request) => this.answerFinalize(request));
    setHandler(paymentRequestSignal, (request) => this.answerPayment(request));
    setHandler(invoiceStateQuery, () => this.state);
    setHandler(retryInvoiceBillingUpdate, (command: SubscriptionCommand) => this.retry(command), { validator: this.hold.validate });
  }

  /** Draft → Open, then the auto-charge (within the update, or after the API's answer: see CHARGE_AFTER_FINALIZE_ANSWER_PATCH). */
  finalize(command: FinalizeInvoiceCommand): Promise<FinalizedInvoice> {
    return this.recorded(
      async () => {
        let view: FinalizedInvoice['view'];
        const finalizedState = await this.locked('finalize', async () => {
          const { view: asFinalized, ...finalized } = await this.followedUp(finalizeInvoiceRecord(this.input.invoiceId, command));
          view = asFinalized;
          if (finalized.status !== 'Open' || !patched(AUTO_CHARGE_PATCH)) return finalized;
          if (command.chargeAfterAnswer === true && patched(CHARGE_AFTER_FINALIZE_ANSWER_PATCH)) {
            this.chargeAfterFinalize = { actor: command.actor };
            return finalized;
          }
          return (await this.autoCharge(command)).invoice;
        });
        return view === undefined ? finalizedState : { ...finalizedState, view };
      },
      () => this.finalize(command),
      command.at,
    );
  }

  /**
   * A finalize another workflow asked for (FinalizeRequest: its period close), which cannot send the
   * update: the update's move, answered by a signal to the asker. A move made already answers the
   * invoice's status; a domain rule's refusal leaves the Draft for an operator (audited,
   * `invoice.finalize_deferred`); a billing failure is held here as the update's is.
   */
  async answerFinalize(request: FinalizeRequest): Promise<void> {
    const answer: FinalizeAnswer = { requestId: request.requestId, status: this.state.status, deferred: null, failed: null };
    try {
      answer.status = (await this.finalize(request.command)).status;
    } catch (err) {
      const failure = err instanceof ActivityFailure ? err.cause : err;
      const type = failure instanceof ApplicationFailure ? failure.type : null;
      answer.status = this.state.status;
      if (type === UNPROCESSABLE) {
        const code = (failure as ApplicationFailure).details?.[0] as { domain?: { code?: string } } | undefined;
        answer.deferred = code?.domain?.code ?? UNPROCESSABLE;
        try {
          await recordFinalizeDeferred({ invoiceId: this.input.invoiceId, actor: request.command.actor, code: answer.deferred, reason: (failure as ApplicationFailure).message });
        } catch (recordErr) {
          // The asker is answered all the same: the Draft stays a Draft either way.
          log.warn('finalize refusal not audited', { invoiceId: this.input.invoiceId, error: String(recordErr) });
        }
      } else if (type !== INVALID_TRANSITION) {
        answer.failed = failure instanceof Error ? failure.message : String(failure);
      }
    }
    try {
      await getExternalWorkflowHandle(request.replyTo).signal(finalizeAnsweredSignal, answer);
    } catch (err) {
      log.info('finalize answer not delivered: the asking workflow is not running', { invoiceId: this.input.invoiceId, replyTo: request.replyTo, error: String(err) });
    }
  }

  /**
   * A payment move another workflow asked for (PaymentRequest: a dunning retry's charge, a processor
   * notification), which cannot send the `invoicePayment` update: the update's move under the same
   * lock, answered by a signal to the asker with its result, or with the failure the update would
   * have failed with (a refusal: the invoice Paid or Void meanwhile; a billing failure, held here as
   * the update's is). A request id taken already is neither run nor answered again.
   */
  async answerPayment(request: PaymentRequest): Promise<void> {
    // The marker is recorded with a run's first request; only a replay of a history taking none reads false.
    if (this.paymentRequests.has(request.requestId) || !patched(INVOICE_PAYMENT_REQUESTS_PATCH)) return;
    this.paymentRequests.add(request.requestId);
    const answer: PaymentAnswer = { requestId: request.requestId, result: null, failure: null };
    try {
      // Validated as the update is: the invoice may have been paid or voided since the request was sent.
      this.collectable(request.command);
      answer.result = await this.payment(request.command);
    } catch (err) {
      const failure = err instanceof ActivityFailure ? err.cause : err;
      answer.failure =
        failure instanceof ApplicationFailure
          ? { type: failure.type ?? null, message: failure.message, details: failure.details?.[0] ?? null }
          : { type: null, message: failure instanceof Error ? failure.message : String(failure), details: null };
    }
    try {
      await getExternalWorkflowHandle(request.replyTo).signal(paymentAnsweredSignal, answer);
    } catch (err) {
      log.info('payment answer not delivered: the asking workflow is not running', { invoiceId: this.input.invoiceId, replyTo: request.replyTo, error: String(err) });
    }
  }

  /**
   * The auto-charge after the API's finalize answered, in the main flow: held as the invoice's
   * billing_error (for an operator's retry) when it is a billing failure; either way the invoice
   * stays Open for a charge on demand, a manual pay or a void.
   */
  async chargeAfterAnswer(command: SubscriptionCommand): Promise<void> {
    try {
      await this.chargeFinalized(command);
    } catch (err) {
      log.warn('auto-charge after finalization failed', { invoiceId: this.input.invoiceId, error: String(err) });
    }
  }

  /** Renders and stores the PDF of the invoice as it stands; a failure leaves it to the first request for it. */
  async renderDocument(): Promise<void> {
    try {
      await renderInvoiceDocument(this.input.invoiceId);
    } catch (err) {
      log.warn('invoice document not rendered; it will be rendered when first requested', { invoiceId: this.input.invoiceId, error: String(err) });
    }
  }

  /** Under the lock, and only while the invoice is Open. */
  private chargeFinalized(command: SubscriptionCommand): Promise<InvoiceOutcome> {
    return this.recorded(
      () =>
        this.mutex.run(async () => {
          if (this.state.status === 'Open') this.moved((await this.autoCharge(command)).invoice);
          return this.state;
        }),
      () => this.chargeFinalized(command),
      undefined,
    );
  }

  /** A charge, a capture or a processor notification, under the lock. */
  private payment(command: InvoicePaymentCommand): Promise<InvoicePaymentResult> {
    return this.recorded(
      () =>
        this.mutex.run(async () => {
          // Re-checked: the invoice may have been paid or voided while this waited its turn.
          this.collectable(command);
          const result = await this.collect(command);
          this.moved(result.invoice);
          return result;
        }),
      async () => (await this.payment(command)).invoice,
      undefined,
    );
  }

  private pay(command: PayInvoiceCommand): Promise<InvoiceOutcome> {
    return this.recorded(() => this.locked('pay', () => this.followedUp(payInvoiceRecord(this.input.invoiceId, command))), () => this.pay(command), command.at);
  }

  private voidIt(command: SubscriptionCommand): Promise<InvoiceOutcome> {
    return this.recorded(() => this.locked('void', () => this.followedUp(voidInvoiceRecord(this.input.invoiceId, command))), () => this.voidIt(command), command.at);
  }

  /** An operator's retry: clears the billing_error (once it is recorded) and runs the move that failed again. */
  private async retry(command: SubscriptionCommand): Promise<InvoiceOutcome> {
    if (this.hold.isRecording) await condition(() => !this.hold.isRecording);
    const again = this.retryFailed;
    this.hold.validate(command);
    if (again === null) throw ApplicationFailure.nonRetryable('the invoice has no billing error to retry', NO_BILLING_ERROR);
    await this.mutex.run(() => this.hold.clear(command));
    this.retryFailed = null;
    return again();
  }

  /** Runs a move; a billing failure of it is recorded (under the patch) before the update fails. */
  private async recorded<T>(move: () => Promise<T>, again: () => Promise<InvoiceOutcome>, at: string | undefined): Promise<T> {
    try {
      return await move();
    } catch (err) {
      if (!isBillingFailure(err) || !patched(INVOICE_BILLING_ERRORS_PATCH)) throw err;
      this.retryFailed = again;
      await this.hold.record(billingErrorOf(err, at ?? new Date().toISOString()), 'invoice move failed; waiting for an operator retry', { invoiceId: this.input.invoiceId });
      throw err;
    }
  }

  /** Runs a state move under the lock, re-checked there: another update may have moved the invoice while this one waited its turn. */
  private locked(move: Move, persist: () => Promise<InvoiceOutcome>): Promise<InvoiceOutcome> {
    return this.mutex.run(async () => {
      this.assertAllowed(move);
      this.moved(await persist());
      return this.state;
    });
  }

  private autoCharge(command: SubscriptionCommand): Promise<InvoicePaymentResult> {
    return this.followedUp(chargeInvoice(this.input.invoiceId, { kind: 'charge', actor: command.actor, requestKey: 'auto_charge', source: 'auto_charge' }));
  }

  private collect(command: InvoicePaymentCommand): Promise<InvoicePaymentResult> {
    switch (command.kind) {
      case 'charge':
        return this.followedUp(chargeInvoice(this.input.invoiceId, command));
      case 'capture':
        return this.followedUp(captureInvoicePayment(this.input.invoiceId, command));
      case 'notification':
        return this.followedUp(applyPaymentNotification(this.input.invoiceId, command.eventId));
    }
  }

  /** A move's activity result without its follow-ups, once they ran here (INVOICE_FOLLOW_UPS_PATCH), still under the lock. */
  private followedUp<T extends object>(step: Promise<WithFollowUps<T>>): Promise<T> {
    return followedUp(step, INVOICE_FOLLOW_UPS_PATCH);
  }

  /** A notification applies whatever the state (it may concern a Draft's earlier payment); charges need an Open invoice. */
  private collectable(command: InvoicePaymentCommand): void {
    if (command.kind !== 'notification') this.assertAllowed('collect');
  }

  private assertAllowed(move: Move): void {
    if (this.state.status !== ALLOWED[move]) {
      throw ApplicationFailure.nonRetryable(`cannot ${move} an invoice in state ${this.state.status}`, INVALID_TRANSITION, {
        move,
        status: this.state.status,
      });
    }
  }

  /** Takes the state a move persisted, and brings the search attributes along when its status changed. */
  private moved(next: InvoiceOutcome): void {
    const changed = next.status !== this.state.status;
    this.state = next;
    if (!changed || !(this.input.lean === true || patched(INVOICE_SEARCH_ATTRIBUTES_PATCH))) return;
    upsertSearchAttributes([
      { key: BILLING_STATUS_ATTRIBUTE, value: next.status },
      ...(next.invoiceNumber === null ? [] : [{ key: INVOICE_NUMBER_ATTRIBUTE, value: next.invoiceNumber }]),
    ]);
  }
}
