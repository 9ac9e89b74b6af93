/**
 * Payment moves of an invoice go through its workflow, which serialises them with finalize, pay and
 * void: from the API, the `invoicePayment` update (with start when it is not running); from a
 * workflow's activity, a follow-up its workflow runs (a request the invoice workflow answers by a
 * signal), since activities never drive other workflows.
 */
import { invalidTransition } from '../../errors.js';
import type { FollowUp, InvoicePaymentCommand, InvoicePaymentResult, PaymentAnswer } from '../../temporal/messages.js';
import { invoicePaymentThroughWorkflow, paymentAnswerResult } from '../../temporal/workflows/invoice.js';
import type { ServiceDeps } from '../deps.js';
import { followUp } from '../follow-ups.js';
import { invoiceWorkflowExists, invoiceWorkflowFacts } from '../invoicing/invoice-workflows.js';

export async function runInvoicePayment(deps: Pick<ServiceDeps, 'db' | 'temporal'>, invoiceId: string, command: InvoicePaymentCommand): Promise<InvoicePaymentResult> {
  const facts = await invoiceWorkflowFacts(deps.db, invoiceId);
  // Paid and Void invoices have finished workflows: refused from the database state instead.
  if (facts.status === 'Paid' || facts.status === 'Void') throw invalidTransition('invoice', facts.status, 'collect');
  return invoicePaymentThroughWorkflow(deps.temporal, facts, command);
}

/**
 * The payment move asked of the invoice's workflow by the workflow whose activity collects the
 * follow-ups (`invoice_payment`: it sends the request and hands the answer to its next step). False
 * when the invoice is Paid or Void: its workflow has finished, nothing is asked.
 */
export async function askInvoicePayment(deps: Pick<ServiceDeps, 'db' | 'temporal'> & { followUps: FollowUp[] }, invoiceId: string, command: InvoicePaymentCommand): Promise<boolean> {
  const facts = await invoiceWorkflowFacts(deps.db, invoiceId);
  if (facts.status === 'Paid' || facts.status === 'Void') return false;
  // Found (running, or ended meanwhile): the request goes by signal first, without a refused start.
  const running = await invoiceWorkflowExists(deps, invoiceId);
  await followUp(deps, { kind: 'invoice_payment', invoice: facts, command, ...(running ? { running: true as const } : {}) });
  return true;
}

/**
 * What a payment asked of the invoice's workflow came to: its result, null when the invoice's
 * workflow had completed (nothing was asked), or the error the update would have failed with.
 */
export const askedPaymentResult = (answer: PaymentAnswer | null): InvoicePaymentResult | null => (answer === null ? null : paymentAnswerResult(answer));
