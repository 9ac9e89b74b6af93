/**
 * The lifecycle moves of an invoice (SPEC §3): finalize, pay and void, each an update on the
 * invoice's workflow whose validator refuses an invalid move before anything is recorded.
 */
import { createRoute } from '@hono/zod-openapi';
import { InvoiceSchema } from '../../../schemas/invoicing.js';
import { jsonResponse, mutationRequest } from '../../helpers.js';
import { IdempotencyHeaderSchema, IdParamSchema, ReasonSchema } from '../../schemas.js';
import { PaySchema } from './schemas.js';

export const finalize = createRoute({
  method: 'post',
  path: '/admin/v1/invoices/{id}/finalize',
  operationId: 'finalizeInvoice',
  tags: ['Invoices'],
  summary: 'Finalize a Draft: Open, numbered, immutable',
  description:
    'An update on the invoice workflow: applies the configured tax adapter, assigns the next gapless INV-###### number in the ' +
    'same transaction as the invoice.finalized outbox event, and freezes the invoice (enforced by the database). ' +
    'Finalizing anything but a Draft is 409 invalid_state_transition. A Draft with a negative total (a downgrade after the ' +
    "period's fee was invoiced) becomes a credit invoice: its credit is applied as credit notes to the period's earlier " +
    'invoices (newest first) and it is answered Paid; when they cannot absorb it, 422 negative_invoice_total. ' +
    'The answer is the invoice as it stands finalized (Open; Paid only when a credit or the wallet covered it all): when its payer ' +
    'has a default payment method, the auto-charge runs after the answer, and its outcome shows on GET /admin/v1/invoices/{id} ' +
    '(status Paid), GET /admin/v1/invoices/{id}/payments and in the events payment.succeeded and invoice.paid, or payment.failed ' +
    'with dunning started.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The Open invoice (Paid for a credit invoice)', InvoiceSchema) },
});
export const pay = createRoute({
  method: 'post',
  path: '/admin/v1/invoices/{id}/pay',
  operationId: 'payInvoice',
  tags: ['Invoices'],
  summary: 'Record a manual payment of an Open invoice',
  description:
    "Open → Paid; records actor_id/actor_name as who paid (both optional, the body too: by default the authenticated caller " +
    "as actor_id and no name; the audit entry always names the caller), writes invoice.paid " +
    "and advances the charged_through_date of every subscription the invoice bills to the end of the period billed. " +
    'An optional reference (a check number, a wire reference; at most 200 characters) is stored on the invoice, shown as ' +
    'paid_by.reference and in the invoice.paid audit entry. An optional amount_nanos is checked against the amount due: partial ' +
    "payments are not modelled, so any other amount is 422 payment_amount_mismatch (details.amount_due_nanos) and the invoice stays Open.",
  request: { params: IdParamSchema, ...mutationRequest(PaySchema, false) },
  responses: { 200: jsonResponse('The Paid invoice', InvoiceSchema) },
});
export const voidRoute = createRoute({
  method: 'post',
  path: '/admin/v1/invoices/{id}/void',
  operationId: 'voidInvoice',
  tags: ['Invoices'],
  summary: 'Void an Open invoice',
  description:
    'Open → Void; writes invoice.voided. A Paid invoice cannot be voided (409): issue a credit note instead. The wallet credit and the ' +
    "customer credit balance the invoice applied go back; what its credit notes put on the customer's balance is taken back, and when the " +
    'customer has spent it the void is refused (409 `customer_credit_spent`).',
  request: { params: IdParamSchema, ...mutationRequest(ReasonSchema, false) },
  responses: { 200: jsonResponse('The Void invoice', InvoiceSchema) },
});

export const retry = createRoute({
  method: 'post',
  path: '/admin/v1/invoices/{id}/retry',
  operationId: 'retryInvoice',
  tags: ['Invoices'],
  summary: 'Retry the move that left the invoice in billing_error',
  description:
    'A finalize, pay, void or collection whose work failed in a way no automatic retry fixes (invalid stored data, a numeric ' +
    'overflow, or a transient failure that outlasted its retry schedule) is shown as billing_error. Fix the data, then retry: ' +
    'billing_error is cleared (audited as invoice.billing_retried) and the move runs again through the invoice workflow. ' +
    'Answers the invoice after the move; 422 billing_failed (and billing_error set again) when it failed again; ' +
    '409 no_billing_error when there is nothing to retry.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The invoice after the retried move', InvoiceSchema) },
});
