/**
 * Each route's error responses list only the codes that route can answer with (not the whole
 * catalogue, which is on /docs/errors): the codes every request can meet on it (credentials, rate
 * limit, validation of its query, path and body, idempotency of a mutation, dependencies down), the
 * "not found" of the resources its path and body name, and the business codes its description
 * states, plus ROUTE_CODES for the rules a description does not spell out. The operation also
 * carries them as `x-error-codes`.
 */
import { z, type RouteConfig } from '@hono/zod-openapi';
import { ERROR_CODES, type ErrorCodeEntry } from './error-codes.js';
import { errorResponse } from './errors.js';
import { hiddenFromCustomers, routeAccess } from './middleware/auth.js';
import { BODY_METHODS } from './middleware/json-body.js';

type ErrorCode = keyof typeof ERROR_CODES;

const ENTRIES = ERROR_CODES as Record<string, ErrorCodeEntry>;

/** The resource a path segment names, by the collection before it. */
const PATH_RESOURCES: Record<string, ErrorCode> = {
  customers: 'customer_not_found',
  products: 'product_not_found',
  plans: 'plan_not_found',
  skus: 'sku_not_found',
  subscriptions: 'subscription_not_found',
  invoices: 'invoice_not_found',
  'credit-notes': 'credit_note_not_found',
  meters: 'meter_not_found',
  features: 'feature_not_found',
  'test-clocks': 'test_clock_not_found',
  contracts: 'contract_not_found',
  webhooks: 'webhook_endpoint_not_found',
  deliveries: 'webhook_delivery_not_found',
  alerts: 'spend_alert_not_found',
  'audit-log': 'audit_entry_not_found',
  'payment-methods': 'payment_method_not_found',
  wallets: 'wallet_not_found',
  'processor-events': 'processor_event_not_found',
  simulations: 'simulation_not_found',
  attachments: 'shadow_attachment_not_found',
  'portal-sessions': 'portal_session_not_found',
};

/** Resources a write creates on first use (a wallet: by a top-up, a grant or auto-recharge settings): only reads answer their not-found. */
const CREATED_BY_WRITES = new Set<ErrorCode>(['wallet_not_found']);

/**
 * A move run as an update of the subscription's or invoice's workflow whose activity fails in a way
 * no retry fixes (src/temporal/updates.ts): the resource holds a billing_error for a retry.
 */
const WORKFLOW_UPDATE: ErrorCode[] = ['billing_failed'];

/**
 * An operator's retry sent to a workflow that has ended meanwhile (terminated, or its resource closed)
 * while the row still shows the billing_error: the move is refused as the state no longer allows it.
 */
const OPERATOR_RETRY: ErrorCode[] = ['invalid_state_transition'];

/** Business rules of routes whose description does not name every code they answer with. */
const ROUTE_CODES: Record<string, ErrorCode[]> = {
  'POST /v1/portal-sessions': ['customer_not_found', 'invalid_state_transition'],
  'POST /v1/subscriptions': ['customer_not_active', 'plan_has_no_skus', 'currency_mismatch'],
  'POST /admin/v1/subscriptions/{id}/pause': WORKFLOW_UPDATE,
  'POST /admin/v1/subscriptions/{id}/resume': WORKFLOW_UPDATE,
  'POST /admin/v1/subscriptions/{id}/cancel': WORKFLOW_UPDATE,
  'POST /admin/v1/subscriptions/{id}/bill': WORKFLOW_UPDATE,
  'POST /admin/v1/subscriptions/{id}/change-plan': ['same_plan', 'plan_has_no_skus', 'currency_mismatch', 'invalid_state_transition', ...WORKFLOW_UPDATE],
  'POST /admin/v1/invoices/{id}/finalize': ['invalid_state_transition', 'negative_invoice_total', ...WORKFLOW_UPDATE],
  'POST /admin/v1/invoices/{id}/pay': ['invalid_state_transition', ...WORKFLOW_UPDATE],
  'POST /admin/v1/invoices/{id}/void': ['invalid_state_transition', 'customer_credit_spent', ...WORKFLOW_UPDATE],
  'POST /admin/v1/invoices/{id}/payment-intents': WORKFLOW_UPDATE,
  'POST /admin/v1/invoices/{id}/capture': WORKFLOW_UPDATE,
  'POST /hosted/invoices/{token}/pay': ['hosted_form_refused', 'nothing_to_charge', 'payment_processor_unavailable', ...WORKFLOW_UPDATE],
  'POST /admin/v1/contracts/{id}/subscriptions': ['coterm_not_alignable', ...WORKFLOW_UPDATE],
  'POST /v1/events': ['event_id_conflict', 'subscription_customer_mismatch', 'customer_not_found', 'subscription_not_found', 'quantity_limit_exceeded'],
  'POST /v1/events/batch': ['invalid_events', 'event_id_conflict', 'quantity_limit_exceeded'],
  'POST /admin/v1/customers/{id}/status': ['invalid_state_transition', 'customer_has_open_subscriptions', 'customer_has_open_invoices', 'customer_has_open_children', 'customer_is_bill_to'],
  'PATCH /admin/v1/customers/{id}': ['invalid_state_transition'],
  'POST /admin/v1/catalog/skus': ['plan_currency_mismatch'],
  'POST /v1/webhooks/processor': ['invalid_signature', 'malformed_notification'],
  'POST /admin/v1/subscriptions/{id}/retry': OPERATOR_RETRY,
  'POST /admin/v1/invoices/{id}/retry': OPERATOR_RETRY,
  'POST /admin/v1/invoices/{id}/dunning/retry': OPERATOR_RETRY,
  'POST /admin/v1/contracts/{id}/retry': OPERATOR_RETRY,
  'POST /admin/v1/processor-events/{id}/retry': OPERATOR_RETRY,
};

/** The field names (top level) of a request body schema, to find the resources it names. */
function bodyFields(route: RouteConfig): string[] {
  const content = route.request?.body?.content as Record<string, { schema?: unknown }> | undefined;
  const fields = new Set<string>();
  for (const media of Object.values(content ?? {})) {
    if (media.schema instanceof z.ZodObject) for (const key of Object.keys(media.schema.shape as object)) fields.add(key);
  }
  return [...fields];
}

const MUTATING = new Set(['post', 'put', 'patch', 'delete']);

/** Every code the route can answer with, in catalogue order. */
export function routeErrorCodes(route: RouteConfig): ErrorCode[] {
  const codes = new Set<string>(['validation_failed', 'rate_limited', 'internal_error', 'service_unavailable']);
  const path = route.path.replace(/\{[^}]+\}/g, 'x');
  const access = routeAccess(path);
  // A route hidden from customers answers their credentials 404 (no such route) instead of 403.
  if (access === 'admin' || access === 'customer_or_admin') codes.add('unauthenticated').add(hiddenFromCustomers(path) ? 'not_found' : 'forbidden');
  // The body checks run on every request of these methods, whether the route takes a body or not.
  if (route.method !== 'get') codes.add('payload_too_large');
  if (BODY_METHODS.has(route.method.toUpperCase())) codes.add('malformed_json').add('unsupported_media_type');
  if (MUTATING.has(route.method) && access !== 'signature') codes.add('invalid_idempotency_key').add('idempotency_key_in_use').add('idempotency_key_reused');

  const segments = route.path.split('/');
  segments.forEach((segment, i) => {
    const resource = segments[i - 1] === undefined ? undefined : PATH_RESOURCES[segments[i - 1]!];
    if (segment.startsWith('{') && resource && !(MUTATING.has(route.method) && CREATED_BY_WRITES.has(resource))) codes.add(resource);
  });
  for (const field of bodyFields(route)) {
    const code = `${field.replace(/_id$/, '')}_not_found`;
    if (field.endsWith('_id') && code in ENTRIES) codes.add(code);
  }
  const text = `${route.summary ?? ''} ${route.description ?? ''}`;
  for (const code of Object.keys(ENTRIES)) if (ENTRIES[code]!.status >= 404 && new RegExp(`\\b${code}\\b`).test(text)) codes.add(code);
  for (const code of ROUTE_CODES[`${route.method.toUpperCase()} ${route.path}`] ?? []) codes.add(code);
  return Object.keys(ENTRIES).filter((code) => codes.has(code)) as ErrorCode[];
}

/** The route with its error responses cut down to its own codes (success responses untouched). */
export function withRouteErrorCodes<R extends RouteConfig>(route: R): R {
  const codes = routeErrorCodes(route);
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(route.responses)) if (Number(status) < 400) responses[status] = response;
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    const status = ENTRIES[code]!.status as number;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = errorResponse(status, list);
  }
  return { ...route, responses, 'x-error-codes': codes } as R;
}
