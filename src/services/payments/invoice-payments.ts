/**
 * Payment moves of an invoice go through its workflow (update `invoicePayment`, with start when it
 * is not running), which serialises them with finalize, pay and void.
 */
import { WithStartWorkflowOperation } from '@temporalio/client';
import { invoiceState } from '../../db/payments.js';
import { invalidTransition, notFound } from '../../errors.js';
import { INVOICE_WORKFLOW_REUSE_POLICY, invoiceTaskQueue } from '../../temporal/task-queues.js';
import { runUpdate } from '../../temporal/updates.js';
import { invoicePaymentUpdate, invoiceWorkflowId, type InvoicePaymentCommand, type InvoicePaymentResult } from '../../../workflows/messages.js';
import type { PaymentDeps } from './deps.js';

export async function runInvoicePayment(deps: PaymentDeps, invoiceId: string, command: InvoicePaymentCommand): Promise<InvoicePaymentResult> {
  const invoice = await invoiceState(deps.db, invoiceId);
  if (!invoice) throw notFound('invoice', invoiceId);
  // Paid and Void invoices have finished workflows: refused from the database state instead.
  if (invoice.status === 'Paid' || invoice.status === 'Void') throw invalidTransition('invoice', invoice.status, 'collect');
  const start = new WithStartWorkflowOperation('invoiceWorkflow', {
    workflowId: invoiceWorkflowId(invoiceId),
    taskQueue: invoiceTaskQueue(deps.taskQueue),
    args: [{ invoiceId, status: invoice.status }],
    workflowIdConflictPolicy: 'USE_EXISTING',
    // A completed invoice workflow (Paid, Void) is never started again by an update: it is refused (409).
    workflowIdReusePolicy: INVOICE_WORKFLOW_REUSE_POLICY,
  });
  return runUpdate('invoice', () => deps.client.workflow.executeUpdateWithStart(invoicePaymentUpdate, { args: [command], startWorkflowOperation: start }));
}
