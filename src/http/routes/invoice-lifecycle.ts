import { createRoute, z } from '@hono/zod-openapi';
import { actorOf } from '../actor.js';
import type { App } from '../context.js';
import { commonErrorResponses } from '../errors.js';
import { IdempotencyHeaderSchema, IdParamSchema, UuidSchema } from '../schemas.js';
import { billNow, changePlan, moveInvoiceNow } from '../../services/invoice-lifecycle.js';
import { InvoiceSchema } from './invoices.js';
import { SubscriptionSchema } from './subscriptions.js';

const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });
const body = <T extends z.ZodType>(schema: T, required = true) => ({ required, content: { 'application/json': { schema } } });

const bill = createRoute({
  method: 'post',
  path: '/admin/v1/subscriptions/{id}/bill',
  tags: ['Billing'],
  summary: "Bill the subscription's current period now",
  description:
    "Rates the current period to now and puts what is not invoiced yet on the period's Draft, creating it (201) or refreshing it " +
    '(200): billing a period twice never creates a second invoice for it. Runs as an update on the subscription workflow. ' +
    'Trialing and Expired subscriptions have nothing to bill (409); a period fully invoiced already gives 422 nothing_to_bill.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: json(InvoiceSchema, 'The refreshed Draft'), 201: json(InvoiceSchema, 'The new Draft'), ...commonErrorResponses },
});

const ChangePlanResultSchema = z
  .object({ subscription: SubscriptionSchema, invoice: InvoiceSchema.nullable() })
  .openapi('PlanChange');

const changePlanRoute = createRoute({
  method: 'post',
  path: '/admin/v1/subscriptions/{id}/change-plan',
  tags: ['Billing'],
  summary: 'Switch the subscription to another plan, with proration',
  description:
    "Takes effect at the subscription's now (the change day belongs to the new plan). The period's Draft then carries the old " +
    "plan's recurring fees for the days used and the new plan's for the rest; when the old fee was already invoiced, a credit " +
    'line for its unused part. The new plan must be priced in the subscription currency.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema, body: body(z.strictObject({ plan_id: UuidSchema })) },
  responses: { 200: json(ChangePlanResultSchema, 'The subscription and its Draft'), ...commonErrorResponses },
});

const finalize = createRoute({
  method: 'post',
  path: '/admin/v1/invoices/{id}/finalize',
  tags: ['Invoices'],
  summary: 'Finalize a Draft: Open, numbered, immutable',
  description:
    'An update on the invoice workflow: applies the configured tax adapter, assigns the next gapless INV-###### number in the ' +
    'same transaction as the invoice.finalized outbox event, and freezes the invoice (enforced by the database). ' +
    'Finalizing anything but a Draft is 409 invalid_state_transition. A Draft with a negative total (a downgrade after the ' +
    "period's fee was invoiced) becomes a credit invoice: its credit is applied as credit notes to the period's earlier " +
    'invoices (newest first) and it is answered Paid; when they cannot absorb it, 422 negative_invoice_total.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: json(InvoiceSchema, 'The Open invoice (Paid for a credit invoice)'), ...commonErrorResponses },
});

const PaySchema = z.strictObject({ actor_id: z.string().min(1).max(200), actor_name: z.string().min(1).max(200) }).openapi('PayInvoice');
const pay = createRoute({
  method: 'post',
  path: '/admin/v1/invoices/{id}/pay',
  tags: ['Invoices'],
  summary: 'Record a manual payment of an Open invoice',
  description:
    "Open → Paid; records actor_id/actor_name as who paid (the audit entry names the authenticated caller), writes invoice.paid " +
    "and advances the charged_through_date of every subscription the invoice bills to the end of the period billed.",
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema, body: body(PaySchema) },
  responses: { 200: json(InvoiceSchema, 'The Paid invoice'), ...commonErrorResponses },
});

const VoidSchema = z.strictObject({ reason: z.string().max(500).optional() }).openapi('VoidInvoice');
const voidRoute = createRoute({
  method: 'post',
  path: '/admin/v1/invoices/{id}/void',
  tags: ['Invoices'],
  summary: 'Void an Open invoice',
  description: 'Open → Void; writes invoice.voided. A Paid invoice cannot be voided (409): issue a credit note instead.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema, body: body(VoidSchema, false) },
  responses: { 200: json(InvoiceSchema, 'The Void invoice'), ...commonErrorResponses },
});

export function registerInvoiceLifecycle(app: App): void {
  app.openapi(bill, async (c) => {
    const { invoice, created } = await billNow(c.get('deps'), c.req.valid('param').id, { actor: actorOf(c), requestId: c.get('requestId') });
    return created ? c.json(invoice, 201) : c.json(invoice, 200);
  });
  app.openapi(changePlanRoute, async (c) => {
    const result = await changePlan(c.get('deps'), c.req.valid('param').id, c.req.valid('json').plan_id, {
      actor: actorOf(c),
      requestId: c.get('requestId'),
    });
    return c.json(result, 200);
  });
  app.openapi(finalize, async (c) =>
    c.json(await moveInvoiceNow(c.get('deps'), c.req.valid('param').id, 'finalize', { actor: actorOf(c), requestId: c.get('requestId') }), 200),
  );
  app.openapi(pay, async (c) => {
    const { actor_id, actor_name } = c.req.valid('json');
    const command = { actor: actorOf(c), paidBy: { actorId: actor_id, actorName: actor_name }, requestId: c.get('requestId') };
    return c.json(await moveInvoiceNow(c.get('deps'), c.req.valid('param').id, 'pay', command), 200);
  });
  app.openapi(voidRoute, async (c) => {
    const { reason } = (c.req.valid('json') as z.infer<typeof VoidSchema> | undefined) ?? {};
    return c.json(
      await moveInvoiceNow(c.get('deps'), c.req.valid('param').id, 'void', { actor: actorOf(c), requestId: c.get('requestId'), ...(reason ? { reason } : {}) }),
      200,
    );
  });
}
