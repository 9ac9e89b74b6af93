/**
 * Payments and dunning (SPEC §1 Payments, Dunning; §2 Dunning schedule; §4 rules 3-4): payment
 * methods on file, an invoice's payments with their refunds, charges on demand, capture, refunds,
 * dunning schedules, and the processor's signed notifications. The rules live in
 * src/services/payments/; the descriptions below publish them.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { PaymentMethodSchema, RefundSchema, PaymentSchema, DunningScheduleSchema, NotificationReceiptSchema, ProcessorNotificationSchema } from '../../../schemas/payments.js';
import { jsonResponse, mutationRequest, pageResponse } from '../../helpers.js';
import { IdempotencyHeaderSchema, IdParamSchema, PaginationQuerySchema } from '../../schemas.js';
import { AttachSchema, PaymentIntentSchema, RefundRequestSchema, ListDunningQuerySchema, ListPaymentsQuerySchema } from './schemas.js';

const tags = ['Payments'];

export const attachRoute = createRoute({
  method: 'post',
  path: '/admin/v1/customers/{id}/payment-methods',
  operationId: 'attachPaymentMethod',
  tags,
  summary: 'Attach a payment method to a customer',
  description: `Attaches a processor payment method (e.g. \`pm_card_visa\`) to the customer's processor customer (created on first use) and keeps
its display details (brand, last four digits, expiry; never a card number). The first method, or one sent with set_default, becomes the
default: when an invoice addressed to this customer becomes Open, it is charged automatically. Attaching the same method twice answers the
attached one. A method the processor refuses is 422 \`payment_method_rejected\`; a Closed customer 409 \`invalid_state_transition\`; 503
\`payment_processor_unavailable\` when the processor cannot be reached.`,
  request: { params: IdParamSchema, ...mutationRequest(AttachSchema) },
  responses: { 201: jsonResponse('The attached payment method', PaymentMethodSchema) },
});

export const listMethodsRoute = createRoute({
  method: 'get',
  path: '/admin/v1/customers/{id}/payment-methods',
  operationId: 'listPaymentMethods',
  tags,
  summary: "List a customer's attached payment methods",
  description: 'Newest first, as a JSON array (pagination in the X-Has-More, X-Next-Cursor and Link headers).',
  request: { params: IdParamSchema, query: PaginationQuerySchema },
  responses: { 200: pageResponse('One page of payment methods', PaymentMethodSchema, 'PaymentMethodList') },
});

export const getMethodRoute = createRoute({
  method: 'get',
  path: '/admin/v1/payment-methods/{id}',
  operationId: 'getPaymentMethod',
  tags,
  summary: 'Get a payment method',
  description: 'The payment method: the processor\'s id, its type, brand, last four digits and expiry where the processor gives them, whether it is the default, and whether it is still attached.',
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse('The payment method', PaymentMethodSchema) },
});

export const detachRoute = createRoute({
  method: 'delete',
  path: '/admin/v1/payment-methods/{id}',
  operationId: 'detachPaymentMethod',
  tags,
  summary: 'Detach a payment method',
  description:
    'Detaches it at the processor and here (answered with status detached; detaching again changes nothing). When it was the default, the newest remaining method becomes the default; without one, invoices go back to manual payment. ' +
    '503 `payment_processor_unavailable` when the processor cannot be reached.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The detached payment method', PaymentMethodSchema) },
});

export const listPaymentsRoute = createRoute({
  method: 'get',
  path: '/admin/v1/invoices/{id}/payments',
  operationId: 'listInvoicePayments',
  tags,
  summary: "List an invoice's payments (every collection attempt) with their refunds",
  description: 'One payment per attempt (auto-charge, dunning retries, charges on demand, payments the processor reported), newest first, as a JSON array (pagination in headers).',
  request: { params: IdParamSchema, query: PaginationQuerySchema },
  responses: { 200: pageResponse('One page of payments', PaymentSchema, 'PaymentList') },
});

export const listAllPaymentsRoute = createRoute({
  method: 'get',
  path: '/admin/v1/payments',
  operationId: 'listPayments',
  tags,
  summary: 'List payments (every invoice) with their refunds',
  description:
    'Every collection attempt of every invoice, newest first, as a JSON array (pagination in the X-Has-More, X-Next-Cursor and Link ' +
    'headers); filter by customer_id, invoice_id, status and created_gte / created_lt.',
  request: { query: ListPaymentsQuerySchema },
  responses: { 200: pageResponse('One page of payments', PaymentSchema, 'PaymentList') },
});

export const createIntentRoute = createRoute({
  method: 'post',
  path: '/admin/v1/invoices/{id}/payment-intents',
  operationId: 'chargeInvoice',
  tags,
  summary: 'Charge an Open invoice now',
  description: `Creates and confirms a processor PaymentIntent for the amount due (raw units rounded once, HalfEven, to the currency's minor
unit), through the invoice workflow. A succeeded charge pays the invoice (payment.succeeded, invoice.paid) and resolves its dunning; a
declined one is recorded Failed (payment.failed) and starts dunning if none runs; with capture_method manual the payment waits for a
capture (RequiresCapture); a processing one stays Pending until the processor's notification decides. Only Open invoices (409
\`invalid_state_transition\`); nothing left to pay is 422 \`nothing_to_charge\`; without a payment method, 422 \`no_payment_method\`.`,
  request: { params: IdParamSchema, ...mutationRequest(PaymentIntentSchema, false) },
  responses: { 201: jsonResponse('The payment', PaymentSchema) },
});

export const captureRoute = createRoute({
  method: 'post',
  path: '/admin/v1/invoices/{id}/capture',
  operationId: 'captureInvoicePayment',
  tags,
  summary: "Capture an invoice's authorised payment",
  description:
    "Captures the invoice's payment in RequiresCapture (409 `no_payment_to_capture` when there is none; an invoice that is not Open " +
    "409 `invalid_state_transition`); the processor's answer is recorded like a charge's.",
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The payment', PaymentSchema) },
});

export const refundRoute = createRoute({
  method: 'post',
  path: '/admin/v1/invoices/{id}/refunds',
  operationId: 'refundInvoice',
  tags,
  summary: 'Refund a Paid invoice, in full or in part',
  description: `Gives money back on one of the invoice's succeeded payments through the processor and records it with a credit note against the
invoice (credit_note.issued). Never more than the payment collected minus what it gave back, nor more than the invoice has left to credit
(422 \`refund_exceeds_payment\`, details.refundable_nanos); the amount is whole minor units (422 \`refund_not_whole_minor_units\`). Only
Paid invoices (409 \`invalid_state_transition\`); no collected payment with money left is 422 \`nothing_to_refund\`, a payment_id that is not
one of them 404 \`payment_not_found\`; a refusal by the processor is 422 \`refund_rejected\`; 503 \`payment_processor_unavailable\` when it cannot be reached.`,
  request: { params: IdParamSchema, ...mutationRequest(RefundRequestSchema, false) },
  responses: { 201: jsonResponse('The refund', RefundSchema) },
});

export const listDunningRoute = createRoute({
  method: 'get',
  path: '/admin/v1/dunning-schedules',
  operationId: 'listDunningSchedules',
  tags: ['Dunning'],
  summary: 'List dunning schedules',
  description: 'Newest first as a JSON array (pagination in headers); filter by status, customer_id, subscription_id and created_gte / created_lt.',
  request: { query: ListDunningQuerySchema },
  responses: { 200: pageResponse('One page of dunning schedules', DunningScheduleSchema, 'DunningScheduleList') },
});

export const invoiceDunningRoute = createRoute({
  method: 'get',
  path: '/admin/v1/invoices/{id}/dunning',
  operationId: 'getInvoiceDunning',
  tags: ['Dunning'],
  summary: "An invoice's dunning schedule",
  description: '404 `dunning_schedule_not_found` when its payment never failed.',
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse('The dunning schedule', DunningScheduleSchema) },
});

export const retryDunningRoute = createRoute({
  method: 'post',
  path: '/admin/v1/invoices/{id}/dunning/retry',
  operationId: 'retryInvoiceDunning',
  tags: ['Dunning'],
  summary: 'Retry the dunning retry that left the schedule in billing_error',
  description:
    "A retry of the invoice's dunning schedule whose work failed in a way no automatic retry fixes (invalid stored data, a numeric " +
    'overflow, or a transient failure that outlasted its retry schedule) holds the schedule with billing_error set; no later retry ' +
    'is made meanwhile. Fix the data, then retry: billing_error is cleared (audited as dunning_schedule.billing_retried) and the ' +
    'answer comes once the retry ran again, with billing_error set anew when it failed again. 409 no_billing_error when there is ' +
    'nothing to retry; 404 dunning_schedule_not_found when the payment never failed.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The dunning schedule after the retry', DunningScheduleSchema) },
});

export const webhookRoute = createRoute({
  method: 'post',
  path: '/v1/webhooks/processor',
  operationId: 'receiveProcessorNotification',
  tags: ['Payments'],
  summary: 'Payment processor notifications (signed)',
  description: `Called by the payment processor, authenticated by its signature alone (no token or key): the Stripe-Signature header is
verified over the raw body against PROCESSOR_WEBHOOK_SECRET with a 300 s tolerance; a missing, malformed, stale, tampered or wrongly signed
notification is 400 \`invalid_signature\`; a validly signed body that is no notification (not a JSON object, id or type not a string, data or
data.object not an object) is 400 \`malformed_notification\`. Each event id is stored once: a replay is acknowledged (action duplicate) and has no second
effect. Handled: payment_intent.succeeded, payment_intent.payment_failed, payment_intent.canceled, invoice.paid, invoice.payment_succeeded,
invoice.payment_failed, charge.refunded (payment_intent.payment_failed and invoice.payment_failed start dunning; a success during dunning
resolves it; invoice.paid and invoice.payment_succeeded collect the invoice named by metadata.invoice_id or by a PaymentIntent of ours).
Other types, and objects the engine does not know, are acknowledged and ignored. The request only stores the notification; its workflow applies it.`,
  request: {
    headers: z.object({ 'stripe-signature': z.string().optional().openapi({ description: 't=<timestamp>,v1=<HMAC-SHA256 hex>' }) }),
    body: { required: true, content: { 'application/json': { schema: ProcessorNotificationSchema } } },
  },
  responses: { 200: jsonResponse('Acknowledged', NotificationReceiptSchema) },
});
