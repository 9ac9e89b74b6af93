/**
 * API-side invoice lifecycle operations: each goes through the invoice's workflow (finalize, pay,
 * void, retry) and answers with the resulting invoice. Billing a subscription now and changing its
 * plan are subscription commands (src/services/subscriptions/subscriptions.ts).
 */
import type { ServiceDeps } from '../deps.js';
import type { FinalizedInvoice, FinalizeInvoiceCommand, PayInvoiceCommand, SubscriptionCommand } from '../../temporal/messages.js';
import { DomainError } from '../../errors.js';
import { moveInvoice, retryInvoiceMove, type InvoiceMove } from './invoice-workflows.js';
import { loadInvoiceView } from './invoices.js';
import type { InvoiceView } from '../../schemas/invoicing.js';

export async function moveInvoiceNow(
  deps: ServiceDeps,
  invoiceId: string,
  move: InvoiceMove,
  command: SubscriptionCommand | PayInvoiceCommand,
): Promise<InvoiceView> {
  await moveInvoice(deps, invoiceId, move, command);
  return loadInvoiceView(deps.db, invoiceId);
}

/**
 * Finalizes through the invoice's workflow (SPEC §4: answers id, status Open, invoice_number): the
 * answer is the invoice as it stood finalized; its auto-charge runs after the answer, and its outcome
 * shows on GET and in events (payment.succeeded/invoice.paid, payment.failed).
 */
export async function finalizeInvoiceNow(deps: ServiceDeps, invoiceId: string, command: SubscriptionCommand): Promise<InvoiceView> {
  const finalize: FinalizeInvoiceCommand = { ...command, chargeAfterAnswer: true };
  const finalized: FinalizedInvoice = await moveInvoice(deps, invoiceId, 'finalize', finalize);
  return finalized.view === undefined ? loadInvoiceView(deps.db, invoiceId) : (finalized.view as unknown as InvoiceView);
}

/** Retries the move that left the invoice in billing_error (after an operator fixed the data). */
export async function retryInvoiceBilling(deps: ServiceDeps, invoiceId: string, command: SubscriptionCommand): Promise<InvoiceView> {
  const invoice = await loadInvoiceView(deps.db, invoiceId);
  if (invoice.billing_error === null) throw new DomainError('conflict', 'no_billing_error', `invoice ${invoiceId} has no billing error to retry`, { entity: 'invoice' });
  await retryInvoiceMove(deps, invoiceId, command);
  return loadInvoiceView(deps.db, invoiceId);
}
