/**
 * Payment moves of an invoice go through its workflow (update `invoicePayment`, with start when it
 * is not running), which serialises them with finalize, pay and void.
 */
import { invalidTransition } from '../../errors.js';
import type { InvoicePaymentCommand, InvoicePaymentResult } from '../../temporal/messages.js';
import { invoicePaymentThroughWorkflow } from '../../temporal/workflows/invoice.js';
import type { ServiceDeps } from '../deps.js';
import { invoiceWorkflowFacts } from '../invoicing/invoice-workflows.js';

export async function runInvoicePayment(deps: Pick<ServiceDeps, 'db' | 'temporal'>, invoiceId: string, command: InvoicePaymentCommand): Promise<InvoicePaymentResult> {
  const facts = await invoiceWorkflowFacts(deps.db, invoiceId);
  // Paid and Void invoices have finished workflows: refused from the database state instead.
  if (facts.status === 'Paid' || facts.status === 'Void') throw invalidTransition('invoice', facts.status, 'collect');
  return invoicePaymentThroughWorkflow(deps.temporal, facts, command);
}
