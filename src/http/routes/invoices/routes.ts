/**
 * Invoices (SPEC §2 Invoice, §3, §4): reading them, editing Drafts (manual lines, credits, tax) and
 * credit notes against finalized ones. The lifecycle moves (finalize, pay, void) live in
 * routes/invoice-lifecycle/. The rules are in src/services/invoicing/invoice-edits.ts and credit-notes.ts.
 */
import { createRoute } from '@hono/zod-openapi';
import { CreditNoteSchema, InvoiceExplanationSchema, InvoiceSchema, InvoiceSummarySchema } from '../../../schemas/invoicing.js';
import { jsonResponse, mutationRequest, pageResponse } from '../../helpers.js';
import { IdempotencyHeaderSchema, IdParamSchema, PaginationQuerySchema, UpdateMetadataSchema } from '../../schemas.js';
import { AddLineItemSchema, ApplyCreditSchema, IssueCreditNoteSchema, ListInvoicesQuerySchema, ListCreditNotesQuerySchema } from './schemas.js';

const LIST_SUMMARY =
  'Newest first, as a JSON array of invoice summaries: every field of an invoice but its line items (line_item_count instead; ' +
  'GET the invoice for its lines). Pagination in the X-Has-More, X-Next-Cursor and Link headers.';

const tags = ['Invoices'];
const DRAFT_ONLY = 'Only while the invoice is Draft; otherwise 409 `invalid_state_transition` and nothing changes.';

export const listRoute = createRoute({
  method: 'get',
  path: '/admin/v1/invoices',
  operationId: 'listInvoices',
  tags,
  summary: 'List invoices',
  description: `${LIST_SUMMARY} Filter by customer_id, status, subscription_id, currency, invoice_number (finds an invoice by its number) and created_gte / created_lt.`,
  request: { query: ListInvoicesQuerySchema },
  responses: { 200: pageResponse('One page of invoice summaries', InvoiceSummarySchema, 'InvoiceList') },
});

export const listOwnRoute = createRoute({
  method: 'get',
  path: '/v1/invoices',
  operationId: 'listOwnInvoices',
  tags,
  summary: 'List invoices (customer view)',
  description:
    `${LIST_SUMMARY} A customer token lists only the invoices addressed to its own customer (another customer_id is 404 ` +
    '`customer_not_found`); an admin credential lists every invoice. Same filters as the admin list.',
  request: { query: ListInvoicesQuerySchema },
  responses: { 200: pageResponse('One page of invoice summaries', InvoiceSummarySchema, 'InvoiceList') },
});

export const updateRoute = createRoute({
  method: 'patch',
  path: '/admin/v1/invoices/{id}',
  operationId: 'updateInvoice',
  tags,
  summary: "Update an invoice's metadata",
  description:
    'metadata only (your own key/value pairs, never read by billing), in any status: the keys sent are merged in, a key set to ' +
    'null is removed. Everything that is billed stays immutable once the invoice is finalized.',
  request: { params: IdParamSchema, ...mutationRequest(UpdateMetadataSchema) },
  responses: { 200: jsonResponse('The invoice', InvoiceSchema) },
});

export const listAllCreditNotesRoute = createRoute({
  method: 'get',
  path: '/admin/v1/credit-notes',
  operationId: 'listCreditNotes',
  tags,
  summary: 'List credit notes',
  description:
    'Every credit note, newest first, as a JSON array (pagination in the X-Has-More, X-Next-Cursor and Link headers); filter by ' +
    'customer_id, invoice_id, currency, reason and created_gte / created_lt.',
  request: { query: ListCreditNotesQuerySchema },
  responses: { 200: pageResponse('One page of credit notes', CreditNoteSchema, 'CreditNoteList') },
});

export const getRoute = createRoute({
  method: 'get',
  path: '/admin/v1/invoices/{id}',
  operationId: 'getInvoice',
  tags,
  summary: 'Get an invoice with its line items',
  description: 'The invoice with every line item (tax and credit lines included), its totals and, once finalized, its hosted link.',
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse('The invoice', InvoiceSchema) },
});

export const getOwnRoute = createRoute({
  method: 'get',
  path: '/v1/invoices/{id}',
  operationId: 'getOwnInvoice',
  tags,
  summary: 'Get an invoice (customer view)',
  description: 'A customer token sees only invoices addressed to its own customer; any other id is 404 `invoice_not_found`.',
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse('The invoice', InvoiceSchema) },
});

export const explainRoute = createRoute({
  method: 'get',
  path: '/v1/invoices/{id}/explain',
  operationId: 'explainInvoice',
  tags,
  summary: 'How every amount of an invoice was calculated',
  description:
    'For each line: the plan phases it was rated in (plan version, proration factor, contract), the meter with its filters, the window read, the events counted ' +
    'with the first and last one and the aggregate, each tier with its quantity and amount, discounts, overrides and contract terms in the order applied, ' +
    'what earlier invoices of the period already billed, the tax rule of a tax line, the steps from list price to the line amount, and where rounding ' +
    'happened; then the totals (the lines sum to total_nanos) and the settlement from the total to the amount due. Lines billed before the pricing trace ' +
    'was stored explain from their rated detail only. A customer token sees only invoices addressed to its own customer; any other id is 404 `invoice_not_found`.',
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse('The explanation', InvoiceExplanationSchema) },
});

export const addLineRoute = createRoute({
  method: 'post',
  path: '/admin/v1/invoices/{id}/line-items',
  operationId: 'addInvoiceLineItem',
  tags,
  summary: 'Add a manual line item to a Draft',
  description: `${DRAFT_ONLY} A negative amount_nanos is an adjustment (for example a discount); it may not take the total below zero
(422 \`negative_invoice_total\`). With unit_amount_nanos, amount_nanos must be quantity × unit_amount_nanos (422 \`line_amount_mismatch\`).
Totals are recomputed exactly (totals that would not fit DECIMAL(38,0): 422 \`amount_out_of_range\`); tax lines are recomputed at
finalization (or by calculate-tax).`,
  request: { params: IdParamSchema, ...mutationRequest(AddLineItemSchema) },
  responses: { 201: jsonResponse('The invoice with the new line', InvoiceSchema) },
});

export const applyCreditRoute = createRoute({
  method: 'post',
  path: '/admin/v1/invoices/{id}/credits',
  operationId: 'applyInvoiceCredit',
  tags,
  summary: 'Apply a credit to a Draft',
  description: `${DRAFT_ONLY} Adds a credit line of −amount_nanos. Credits may not exceed subtotal + tax
(422 \`credit_exceeds_invoice\`, details.available_nanos), nor take the totals out of DECIMAL(38,0) (422 \`amount_out_of_range\`). After
finalization use a credit note instead.`,
  request: { params: IdParamSchema, ...mutationRequest(ApplyCreditSchema) },
  responses: { 201: jsonResponse('The invoice with the credit applied', InvoiceSchema) },
});

export const calculateTaxRoute = createRoute({
  method: 'post',
  path: '/admin/v1/invoices/{id}/calculate-tax',
  operationId: 'calculateInvoiceTax',
  tags,
  summary: 'Calculate the tax of a Draft',
  description: `${DRAFT_ONLY} Runs the configured tax adapter (TAX_ADAPTER): its tax lines (is_tax: true, one per taxable line,
each rounded once HalfEven to a raw unit) replace any earlier ones, so repeating it changes nothing. Credit lines are not taxed;
customers with a tax_id are exempt under the flat-rate adapter. Finalization recalculates tax on the final lines.`,
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The invoice with its tax lines', InvoiceSchema) },
});

export const issueCreditNoteRoute = createRoute({
  method: 'post',
  path: '/admin/v1/invoices/{id}/credit-notes',
  operationId: 'issueCreditNote',
  tags,
  summary: 'Issue a credit note against an invoice',
  description: `Full or partial, on an Open or Paid invoice (Draft or Void: 409 \`invalid_state_transition\`). The amount is allocated, never
stranded, into four parts that sum to it (the response shows each): refund_amount_nanos (refunded through the payment processor),
credit_amount_nanos (put on the customer's credit balance, applied automatically to its next invoices in the currency at finalization),
out_of_band_amount_nanos (given back outside the service, recorded only), and due_reduction_nanos: whatever is not allocated to those,
which reduces the amount the invoice still owes. Without any of the three fields the default is: reduce the amount due first, then put the
rest on the customer's credit balance. Bounds, each a 422 whose details name the field, the bound and max_nanos:
amount_nanos ≤ total_nanos − credited_nanos (\`credit_note_exceeds_remaining\`, details.remaining_nanos);
due_reduction ≤ amount_due_nanos (\`credit_note_exceeds_amount_due\`, details.amount_due_nanos);
refund_amount_nanos ≤ collected − refunded on the invoice's newest payment with money left (\`credit_note_exceeds_refundable\`,
details.refundable_nanos), whole minor units (\`refund_not_whole_minor_units\`); refund + credit + out of band ≤ what was settled
(paid, wallet, customer balance) and not given back by earlier notes (\`credit_note_exceeds_settled\`, details.settled_creditable_nanos);
refund + credit + out of band ≤ amount_nanos (\`credit_note_allocation_exceeds_amount\`). A refund the processor refuses is 422
\`refund_rejected\` (503 \`payment_processor_unavailable\` when it cannot be reached) and issues nothing. Numbered CN-###### from a gapless
counter; raises the invoice's credited_nanos (and due_reduced_nanos) and emits \`credit_note.issued\`. Credit notes are immutable.`,
  request: { params: IdParamSchema, ...mutationRequest(IssueCreditNoteSchema) },
  responses: { 201: jsonResponse('The credit note with its allocation', CreditNoteSchema) },
});

export const listCreditNotesRoute = createRoute({
  method: 'get',
  path: '/admin/v1/invoices/{id}/credit-notes',
  operationId: 'listInvoiceCreditNotes',
  tags,
  summary: "List an invoice's credit notes",
  description: 'Newest first, as a JSON array (pagination in the X-Has-More, X-Next-Cursor and Link headers).',
  request: { params: IdParamSchema, query: PaginationQuerySchema },
  responses: { 200: pageResponse('One page of credit notes', CreditNoteSchema, 'CreditNoteList') },
});

export const getCreditNoteRoute = createRoute({
  method: 'get',
  path: '/admin/v1/credit-notes/{id}',
  operationId: 'getCreditNote',
  tags,
  summary: 'Get a credit note',
  description: 'The credit note with its allocation: the parts refunded, put on the credit balance, given back out of band and reducing the amount due.',
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse('The credit note', CreditNoteSchema) },
});
