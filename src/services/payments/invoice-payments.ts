/**
 * Payment moves of an invoice go through its workflow (update `invoicePayment`, with start when it
 * is not running), which serialises them with finalize, pay and void.
 */
import { invalidTransition } from '../../errors.js';
import { invoiceTaskQueue } from '../../temporal/task-queues.js';
import { runUpdate } from '../../temporal/updates.js';
import { invoicePaymentUpdate, type InvoicePaymentCommand, type InvoicePaymentResult } from '../../../workflows/messages.js';
import { invoiceStartOperation } from '../invoicing/invoice-workflows.js';
import type { PaymentDeps } from './deps.js';

export async function runInvoicePayment(deps: PaymentDeps, invoiceId: string, command: InvoicePaymentCommand): Promise<InvoicePaymentResult> {
  const { input, operation } = await invoiceStartOperation({ db: deps.db, client: deps.client, taskQueue: invoiceTaskQueue(deps.taskQueue) }, invoiceId);
  // Paid and Void invoices have finished workflows: refused from the database state instead.
  if (input.status === 'Paid' || input.status === 'Void') throw invalidTransition('invoice', input.status, 'collect');
  return runUpdate('invoice', () => deps.client.workflow.executeUpdateWithStart(invoicePaymentUpdate, { args: [command], startWorkflowOperation: operation }));
}
