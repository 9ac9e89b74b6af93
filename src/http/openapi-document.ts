/**
 * The OpenAPI 3.0 document as /openapi.json serves it: generated from the route definitions, with
 * the servers, the tags every operation is filed under, and the error-code registry.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './context.js';
import { ERROR_CODES, ISSUE_CODES } from './error-codes.js';

/** Every tag an operation is filed under, in the order the reference shows them. */
export const API_TAGS = [
  { name: 'Platform', description: 'Health, this document and the rendered API reference.' },
  { name: 'Customers', description: 'Customer accounts, their hierarchy and their status.' },
  { name: 'Catalog', description: 'Products, versioned plans and their SKUs (prices).' },
  { name: 'Rating', description: 'What a plan and contract terms would charge for given usage, with no side effects.' },
  { name: 'Subscriptions', description: 'Subscriptions and the moves an operator makes on them.' },
  { name: 'Billing', description: "Billing a subscription's period now, plan changes with proration, and retries of a failed billing step." },
  { name: 'Test clocks', description: 'Simulated time for sandbox customers.' },
  { name: 'Invoices', description: 'Invoices, their lines, credits and tax, credit notes, PDFs and hosted pages.' },
  { name: 'Metering', description: 'Usage events, meters and usage summaries.' },
  { name: 'Contracts', description: 'Contracts: ramp phases, commits, escalation, amendments and the subscriptions they price.' },
  { name: 'Webhooks', description: 'Webhook endpoints and the deliveries of events to them.' },
  { name: 'Payments', description: 'Payment methods, payments, refunds and the payment processor’s notifications.' },
  { name: 'Dunning', description: 'The retry schedules of failed payments.' },
  { name: 'Ledger', description: 'The double-entry ledger: accounts, journal entries and the trial balance.' },
  { name: 'Wallets', description: 'Prepaid credit wallets: top-ups, grants and auto-recharge.' },
  { name: 'Entitlements', description: 'What features a customer has, how much is left, and the check (with reservations) products call.' },
  { name: 'Spend alerts', description: 'Spend thresholds per customer and the entitlement they gate.' },
  { name: 'Reports', description: 'AR aging, MRR, MRR movements, deferred revenue and reconciliation.' },
  { name: 'Simulations', description: 'Price simulations: a candidate plan version or price changes re-rated over closed periods, apart from billing.' },
  { name: 'Shadow billing', description: 'A candidate plan version rated beside every period close of live subscriptions, and the variance; never shown to customers.' },
  { name: 'Audit', description: 'The append-only audit trail of every change.' },
  { name: 'Customer portal', description: "Links to a customer's self-service billing portal, and the portal's pages." },
];

type Json = { [key: string]: unknown };
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * OpenAPI 3.0 wants `nullable` beside a `type`. The generator writes a nullable reference as
 * `allOf: [{ $ref }, { nullable: true }]`; this gives it the referenced schema's type instead:
 * `{ allOf: [{ $ref }], type, nullable: true }`.
 */
function typeNullableReferences(node: unknown, schemas: Record<string, Json>): void {
  if (Array.isArray(node)) return node.forEach((item) => typeNullableReferences(item, schemas));
  if (!isObject(node)) return;
  const allOf = node.allOf;
  if (Array.isArray(allOf)) {
    const marker = allOf.findIndex((part) => isObject(part) && part.nullable === true && part.type === undefined && Object.keys(part).every((key) => key === 'nullable' || key === 'description'));
    const ref = allOf.find((part): part is Json => isObject(part) && typeof part.$ref === 'string');
    const type = ref ? schemas[String(ref.$ref).split('/').pop()!]?.type : undefined;
    if (marker >= 0 && type !== undefined) {
      const { description } = allOf[marker] as Json;
      node.allOf = allOf.filter((_, i) => i !== marker);
      Object.assign(node, { type, nullable: true }, description === undefined ? {} : { description });
    }
  }
  for (const value of Object.values(node)) typeNullableReferences(value, schemas);
}

export function openApiDocument(app: OpenAPIHono<AppEnv>, description: string): Json {
  const doc = app.getOpenAPIDocument({
    openapi: '3.0.3',
    info: { title: 'Billing Engine API', version: '1.0.0', description },
    servers: [{ url: '/', description: 'the server that serves this document' }],
    tags: API_TAGS,
    security: [{ bearerAuth: [] }, { apiKey: [] }],
  }) as unknown as Json;
  typeNullableReferences(doc, ((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>);
  return { ...doc, 'x-error-codes': ERROR_CODES, 'x-issue-codes': ISSUE_CODES };
}
