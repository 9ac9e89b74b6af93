/**
 * Invoice documents (issue 19): the PDF of an invoice or credit note for its customer and admins,
 * and the hosted invoice page a payer opens from hosted_invoice_url without credentials, pays from
 * (issue 30) and whose link an admin renews.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { IdParamSchema } from '../../schemas.js';
import { HostedLinkSchema, HostedPageQuerySchema, HostedPayFormSchema, TokenParamSchema } from './schemas.js';

const tags = ['Invoices'];

const pdfResponse = (description: string) => ({
  description,
  headers: {
    'X-Document-SHA256': { description: 'SHA-256 (hex) of the PDF; the same for every download of a stored edition', schema: { type: 'string' as const } },
    ETag: { description: 'the SHA-256, quoted', schema: { type: 'string' as const } },
    'X-Document-Edition': { description: 'the stored edition served (open, paid, void, +cn<n> after credit notes; issued for a credit note); absent for a Draft', schema: { type: 'string' as const } },
  },
  content: { 'application/pdf': { schema: z.string().openapi({ format: 'binary' }) } },
});

export const invoicePdfRoute = createRoute({
  method: 'get',
  path: '/v1/invoices/{id}/pdf',
  operationId: 'getInvoicePdf',
  tags,
  summary: 'Download the invoice as a PDF',
  description: `The invoice as the payer receives it: seller and payer blocks, number and dates, one row per line (tier breakdown,
discounts and overrides, tax lines flagged), subtotal, tax, credits, credit notes, total, amount due and payment status, every
amount rounded once from the raw amount exactly as the JSON display strings. A Draft is marked DRAFT and has no number. A
finalized invoice's PDF is stored once per state (Open, Paid, Void, and after each credit note) with its SHA-256 and served
byte-identical from then on; the invoice workflow renders it after finalization, and a request that comes first renders it.
A customer token sees only its own invoices (404 otherwise).`,
  request: { params: IdParamSchema },
  responses: { 200: pdfResponse('The PDF') },
});

export const creditNotePdfRoute = createRoute({
  method: 'get',
  path: '/v1/credit-notes/{id}/pdf',
  operationId: 'getCreditNotePdf',
  tags,
  summary: 'Download a credit note as a PDF',
  description: 'The credit note with the invoice it credits; rendered once, stored with its SHA-256 and served identically from then on. A customer token sees only its own (404 otherwise).',
  request: { params: IdParamSchema },
  responses: { 200: pdfResponse('The PDF') },
});

export const hostedPageRoute = createRoute({
  method: 'get',
  path: '/hosted/invoices/{token}',
  operationId: 'getHostedInvoicePage',
  tags,
  summary: 'The hosted invoice page (public, from hosted_invoice_url)',
  description: `No credentials: the link is the credential. While the invoice is Open with something to pay, the page has a Pay form
(POST /hosted/invoices/{token}/pay): "Pay with <card on file>" when the payer has a default payment method, and "Pay" on the
processor's checkout page. A link that was altered or not issued by this service is 404 \`hosted_link_not_found\`; an expired one
410 \`hosted_link_expired\`. Every error of the /hosted routes is answered as an HTML page (text/html) with that status, saying what
to do, its code in the X-Error-Code header.`,
  security: [],
  request: { params: TokenParamSchema, query: HostedPageQuerySchema },
  responses: { 200: { description: 'The invoice as an HTML page', content: { 'text/html': { schema: z.string() } } } },
});

export const hostedExplanationRoute = createRoute({
  method: 'get',
  path: '/hosted/invoices/{token}/explain',
  operationId: 'getHostedInvoiceExplanation',
  tags,
  summary: 'How a hosted invoice was calculated (public, linked from the hosted invoice page)',
  description:
    'A readable version of GET /v1/invoices/{id}/explain, linked as "How was this calculated?" from the hosted invoice page: per line the plan phases, ' +
    'the meter with its filters, the window and the events counted, each tier, the adjustments and the steps to the amount; then the totals and the ' +
    'rounding. 404 `hosted_link_not_found` or 410 `hosted_link_expired` like the page.',
  security: [],
  request: { params: TokenParamSchema },
  responses: { 200: { description: 'The explanation as an HTML page', content: { 'text/html': { schema: z.string() } } } },
});

export const hostedPdfRoute = createRoute({
  method: 'get',
  path: '/hosted/invoices/{token}/pdf',
  operationId: 'getHostedInvoicePdf',
  tags,
  summary: 'The PDF of a hosted invoice (public, from hosted_invoice_url)',
  description: 'The same bytes as GET /v1/invoices/{id}/pdf; 404 `hosted_link_not_found` or 410 `hosted_link_expired` like the page.',
  security: [],
  request: { params: TokenParamSchema },
  responses: { 200: pdfResponse('The PDF') },
});

export const hostedPayRoute = createRoute({
  method: 'post',
  path: '/hosted/invoices/{token}/pay',
  operationId: 'payHostedInvoice',
  tags,
  summary: "Pay from the hosted invoice page (the page's form)",
  description: `The Pay form of the hosted page (application/x-www-form-urlencoded), without credentials. Accepted only from the page:
its \`form_token\` (signed for this link, issued at most an hour before) and, when the browser sends them, an \`Origin\` of this
service or \`Sec-Fetch-Site: same-origin\`; anything else is 403 \`hosted_form_refused\`. \`card_on_file\` charges the payer's default
payment method through the invoice's workflow like POST /admin/v1/invoices/{id}/payment-intents (payment source \`hosted_page\`;
422 \`no_payment_method\` without one) and answers 303 back to the page, which shows the outcome; \`checkout\` opens a checkout session
at the processor for the amount due and answers 303 to its page (422 \`checkout_rejected\` when the processor refuses), from which the
payer comes back to the page; the processor's payment_intent.succeeded collects the invoice. An invoice that is no longer Open
answers 303 to the page. 404 \`hosted_link_not_found\` and 410 \`hosted_link_expired\` like the page; errors are HTML pages.`,
  security: [],
  request: {
    params: TokenParamSchema,
    body: { required: true, content: { 'application/x-www-form-urlencoded': { schema: HostedPayFormSchema } } },
  },
  responses: {
    303: {
      description: "To the hosted page (after a charge of the card on file) or to the processor's checkout page",
      headers: { Location: { description: 'where the browser goes next', schema: { type: 'string' as const } } },
    },
  },
});

export const renewHostedLinkRoute = createRoute({
  method: 'post',
  path: '/admin/v1/invoices/{id}/hosted-link',
  operationId: 'renewHostedInvoiceLink',
  tags,
  summary: 'Issue a new hosted invoice link',
  description: `For a payer whose link expired (410 \`hosted_link_expired\`) before paying: a new link to the same page, expiring
HOSTED_LINK_TTL_DAYS after now on the invoice's clock (its test clock's time for sandbox invoices). Links issued earlier stay valid
until their own expiry. Only finalized invoices have a page: a Draft is 409 \`invalid_state_transition\`. Audited as
\`invoice.hosted_link_renewed\`.`,
  request: { params: IdParamSchema },
  responses: { 201: { description: 'The new link', content: { 'application/json': { schema: HostedLinkSchema } } } },
});
