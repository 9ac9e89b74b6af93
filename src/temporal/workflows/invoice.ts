/**
 * The invoice workflow (`invoice:<id>`, on the invoice task queue): every finalize, pay, void and
 * payment of an invoice is an update on it, with start (update-with-start), so an invoice whose
 * workflow has not started yet gets one. A completed run (the invoice Paid or Void) is never
 * followed by another: an update racing the completion is refused by the reuse policy (409).
 */
import { WithStartWorkflowOperation } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import type { SubscriptionCommand } from '../../../workflows/shared/messages.js';
import {
  finalizeInvoiceUpdate,
  invoiceWorkflowAbout,
  type InvoiceOutcome,
  type InvoicePaymentCommand,
  type InvoicePaymentResult,
  invoicePaymentUpdate,
  invoiceWorkflowId,
  type InvoiceWorkflowFacts,
  type InvoiceWorkflowInput,
  type PayInvoiceCommand,
  type PaymentAnswer,
  payInvoiceUpdate,
  retryInvoiceBillingUpdate,
  voidInvoiceUpdate,
} from '../../../workflows/invoice/messages.js';
import { unlessWorkflowGone, type TemporalGateway } from '../gateway.js';
import { INVOICE_WORKFLOW_REUSE_POLICY, invoiceTaskQueue } from '../task-queues.js';
import { failureError, runUpdate } from '../updates.js';

export type { InvoiceWorkflowFacts };

function startOptions(gateway: TemporalGateway, facts: InvoiceWorkflowFacts, input: InvoiceWorkflowInput) {
  return {
    workflowId: invoiceWorkflowId(facts.invoiceId),
    taskQueue: invoiceTaskQueue(gateway.taskQueue),
    args: [input] as [InvoiceWorkflowInput],
    ...invoiceWorkflowAbout(facts),
    workflowIdConflictPolicy: 'USE_EXISTING' as const,
    // A completed invoice workflow (Paid, Void) is never started again by an update: it is refused (409).
    workflowIdReusePolicy: INVOICE_WORKFLOW_REUSE_POLICY,
  };
}

const startOperation = (gateway: TemporalGateway, facts: InvoiceWorkflowFacts) =>
  new WithStartWorkflowOperation('invoiceWorkflow', startOptions(gateway, facts, { invoiceId: facts.invoiceId, status: facts.status }));

/**
 * Starts the invoice's workflow when it is not running yet; `lean` for an invoice the period close
 * finalized itself (see InvoiceWorkflowInput).
 */
export async function startInvoiceWorkflow(gateway: TemporalGateway, facts: InvoiceWorkflowFacts, options: { lean?: boolean } = {}): Promise<void> {
  const input: InvoiceWorkflowInput = { invoiceId: facts.invoiceId, status: facts.status, ...(options.lean ? { lean: true } : {}) };
  await gateway.client.workflow.start('invoiceWorkflow', startOptions(gateway, facts, input));
}

/** Whether the invoice has a workflow (running or ended). */
export function invoiceWorkflowExists(gateway: TemporalGateway, invoiceId: string): Promise<boolean> {
  return unlessWorkflowGone(async () => {
    await gateway.client.workflow.getHandle(invoiceWorkflowId(invoiceId)).describe();
    return true;
  }, false);
}

const MOVES = { finalize: finalizeInvoiceUpdate, pay: payInvoiceUpdate, void: voidInvoiceUpdate } as const;
export type InvoiceMove = keyof typeof MOVES;

/** Finalize, pay or void through the invoice's workflow (update-with-start). */
export function moveInvoiceWorkflow(gateway: TemporalGateway, facts: InvoiceWorkflowFacts, move: InvoiceMove, command: SubscriptionCommand | PayInvoiceCommand): Promise<InvoiceOutcome> {
  const update = MOVES[move] as UpdateDefinition<InvoiceOutcome, [SubscriptionCommand]>;
  return runUpdate('invoice', () => gateway.client.workflow.executeUpdateWithStart(update, { args: [command], startWorkflowOperation: startOperation(gateway, facts) }));
}

/** A payment move (charge, capture, record) through the invoice's workflow (update-with-start). */
export function invoicePaymentThroughWorkflow(gateway: TemporalGateway, facts: InvoiceWorkflowFacts, command: InvoicePaymentCommand): Promise<InvoicePaymentResult> {
  return runUpdate('invoice', () => gateway.client.workflow.executeUpdateWithStart(invoicePaymentUpdate, { args: [command], startWorkflowOperation: startOperation(gateway, facts) }));
}

/**
 * The result a payment request was answered with (another workflow asked it of the invoice's
 * workflow: PaymentAnswer), or the error the update would have failed with: a refusal or a billing
 * failure, as the same domain error.
 */
export function paymentAnswerResult(answer: PaymentAnswer): InvoicePaymentResult {
  if (answer.failure === null && answer.result !== null) return answer.result;
  const failure = answer.failure ?? { type: null, message: 'the invoice workflow answered without a result', details: null };
  throw failureError('invoice', failure) ?? new Error(failure.message);
}

/** An operator's retry of the move that left the invoice in billing_error: the move runs again. */
export function retryInvoiceStep(gateway: TemporalGateway, invoiceId: string, command: SubscriptionCommand): Promise<InvoiceOutcome> {
  return runUpdate('invoice', () => gateway.client.workflow.getHandle(invoiceWorkflowId(invoiceId)).executeUpdate(retryInvoiceBillingUpdate, { args: [command] }));
}
