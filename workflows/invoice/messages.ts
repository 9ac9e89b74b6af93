/**
 * Messages of the invoice workflow (./index.ts): its input and state, the moves (finalize, pay, void),
 * the payment commands (charge, capture, processor notification), the operator's retry, its id.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import { workflowSearchAttributes, type SubscriptionCommand } from '../shared/messages.js';

export type InvoiceStatus = 'Draft' | 'Open' | 'Paid' | 'Void';

export interface InvoiceWorkflowInput {
  invoiceId: string;
  status: InvoiceStatus;
  /**
   * Started for an invoice the period close finalized itself (activities/invoices.ts
   * finalizePeriodInvoice): the workflow renders no document (the API renders it when first
   * requested) and upserts its search attributes without a patch marker. Absent in every run
   * started otherwise, and in runs recorded before it existed, which keep their commands.
   */
  lean?: true;
  /**
   * A finalize another workflow asks for (its period close): run as this run's first move, answered
   * by `finalizeAnsweredSignal` (see FinalizeRequest). Absent otherwise, and in runs recorded before it existed.
   */
  finalize?: FinalizeRequest;
  /**
   * A payment another workflow asks for (a dunning retry's charge, a processor notification): run as
   * this run's first move, answered by `paymentAnsweredSignal` (see PaymentRequest). Absent otherwise,
   * and in runs recorded before it existed.
   */
  payment?: PaymentRequest;
}

/**
 * What an invoice's workflow starts with, from its row: the input's id and status, and the search
 * attributes and memo of its invoice (the gateway's starts and a workflow's child starts).
 */
export interface InvoiceWorkflowFacts {
  invoiceId: string;
  status: InvoiceStatus;
  customerId: string;
  subscriptionId: string | null;
  invoiceNumber: string | null;
  testClockId: string | null;
  currency: string;
}

/** The search attributes and memo an invoice's workflow starts with (the gateway's starts and a workflow's child starts). */
export function invoiceWorkflowAbout(facts: InvoiceWorkflowFacts) {
  return {
    typedSearchAttributes: workflowSearchAttributes({
      customerId: facts.customerId,
      subscriptionId: facts.subscriptionId,
      invoiceNumber: facts.invoiceNumber,
      status: facts.status,
      testClockId: facts.testClockId,
    }),
    memo: { customer_id: facts.customerId, subscription_id: facts.subscriptionId, currency: facts.currency },
  };
}

/**
 * A finalize asked for by another workflow, which cannot send updates: carried by the invoice
 * workflow's start (`InvoiceWorkflowInput.finalize`) or, when it runs already, by
 * `finalizeRequestSignal`. The invoice workflow finalizes as for the update (and charges within it),
 * then signals `finalizeAnsweredSignal` to `replyTo` with the same `requestId`.
 */
export interface FinalizeRequest {
  requestId: string;
  /** The asking workflow's id. */
  replyTo: string;
  command: FinalizeInvoiceCommand;
}

/**
 * The answer to a FinalizeRequest: the invoice's status after it. `deferred`: the domain error code
 * a refused finalize left the Draft with (audited as `invoice.finalize_deferred`); `failed`: why the
 * finalize failed otherwise (a billing failure the invoice holds as its billing_error for an operator).
 */
export interface FinalizeAnswer {
  requestId: string;
  status: InvoiceStatus;
  deferred: string | null;
  failed: string | null;
}

export interface InvoiceOutcome {
  status: InvoiceStatus;
  invoiceNumber: string | null;
}

export interface PayInvoiceCommand extends SubscriptionCommand {
  /** Who paid, as the caller reports it (SPEC: actor_id, actor_name); the audit actor is the caller. */
  paidBy: { actorId: string; actorName: string | null };
  /** The payment's reference (a check number, a wire reference), stored on the invoice; absent in earlier commands. */
  reference?: string;
  /** The amount paid as the caller states it (raw units, decimal string): must be the amount due; absent in earlier commands. */
  amountNanos?: string;
}

/** Finalize an invoice (Draft → Open). */
export interface FinalizeInvoiceCommand extends SubscriptionCommand {
  /**
   * The API's finalize: answer with the invoice as it stands finalized (`view`) and run the
   * auto-charge after the answer, instead of within the update (a period close's finalization).
   */
  chargeAfterAnswer?: boolean;
}

export interface FinalizedInvoice extends InvoiceOutcome {
  /** The invoice's API view (JSON) as it stood finalized; given when the command had chargeAfterAnswer. */
  view?: Record<string, unknown>;
}

export const finalizeInvoiceUpdate = defineUpdate<FinalizedInvoice, [FinalizeInvoiceCommand]>('finalizeInvoice');
export const payInvoiceUpdate = defineUpdate<InvoiceOutcome, [PayInvoiceCommand]>('payInvoice');
export const voidInvoiceUpdate = defineUpdate<InvoiceOutcome, [SubscriptionCommand]>('voidInvoice');
export const finalizeRequestSignal = defineSignal<[FinalizeRequest]>('finalizeRequest');
/** Sent by the invoice workflow to the workflow that asked (handled by workflows/follow-ups). */
export const finalizeAnsweredSignal = defineSignal<[FinalizeAnswer]>('finalizeAnswered');
export const invoiceStateQuery = defineQuery<InvoiceOutcome>('invoiceState');

/** An operator's retry of the move that failed with a billing_error: clears it and runs the move again. */
export const retryInvoiceBillingUpdate = defineUpdate<InvoiceOutcome, [SubscriptionCommand]>('retryInvoiceBilling');

export const invoiceWorkflowId = (invoiceId: string): string => `invoice:${invoiceId}`;
export type PaymentStatus = 'Pending' | 'RequiresCapture' | 'Succeeded' | 'Failed' | 'Canceled';

/** Charge an Open invoice through the processor (auto-charge, dunning retry or on demand). */
export interface ChargeInvoiceCommand extends SubscriptionCommand {
  kind: 'charge';
  /** What asks for the charge, once per invoice: a retried request finds its first payment. */
  requestKey: string;
  source: 'auto_charge' | 'dunning' | 'on_demand' | 'hosted_page';
  dunningAttempt?: number;
  /** A payment method of the payer (its id); the payer's default when absent. */
  paymentMethodId?: string;
  captureMethod?: 'automatic' | 'manual';
}

export interface CaptureInvoicePaymentCommand extends SubscriptionCommand {
  kind: 'capture';
}

/** Apply a stored processor notification about one of the invoice's payments. */
export interface PaymentNotificationCommand {
  kind: 'notification';
  eventId: string;
}

export type InvoicePaymentCommand = ChargeInvoiceCommand | CaptureInvoicePaymentCommand | PaymentNotificationCommand;

export interface InvoicePaymentResult {
  invoice: InvoiceOutcome;
  paymentId: string | null;
  paymentStatus: PaymentStatus | null;
}

export const invoicePaymentUpdate = defineUpdate<InvoicePaymentResult, [InvoicePaymentCommand]>('invoicePayment');

/**
 * A payment move another workflow asks for (a dunning retry's charge, a processor notification),
 * which cannot send the `invoicePayment` update: carried by the invoice workflow's start
 * (`InvoiceWorkflowInput.payment`) or, when it runs already, by `paymentRequestSignal`. The invoice
 * workflow runs it as for the update, once per `requestId`, then signals `paymentAnsweredSignal` to
 * `replyTo` with the same `requestId`.
 */
export interface PaymentRequest {
  requestId: string;
  /** The asking workflow's id. */
  replyTo: string;
  command: InvoicePaymentCommand;
}

/** Why a requested payment move did not run to its end: the failure the update would have failed with. */
export interface PaymentFailure {
  /** The ApplicationFailure's type (e.g. InvalidTransition, Unprocessable, DeterministicFailure), null when there was none. */
  type: string | null;
  message: string;
  /** The failure's first detail (a domain error's kind, code and details), as the update carried it. */
  details: unknown;
}

/** The answer to a PaymentRequest: the move's result, or why it refused or failed (`result` null then). */
export interface PaymentAnswer {
  requestId: string;
  result: InvoicePaymentResult | null;
  failure: PaymentFailure | null;
}

export const paymentRequestSignal = defineSignal<[PaymentRequest]>('paymentRequest');
/** Sent by the invoice workflow to the workflow that asked (handled by workflows/follow-ups). */
export const paymentAnsweredSignal = defineSignal<[PaymentAnswer]>('paymentAnswered');
