/**
 * Malformed input at every route the app publishes in /openapi.json: whatever arrives, the answer is
 * never a 5xx, every error carries the envelope with the request id and a registered code, and the
 * service stays healthy.
 *
 * Real resources are created first (customer, product, two plans with SKUs, a subscription, its
 * Draft invoice, a meter, a test clock, a webhook endpoint, a payment method, a spend alert), and path parameters and reference fields mostly name them,
 * so requests get past the lookup into the service code. Bodies are built from each operation's own
 * request schema, for each media type it takes (the CloudEvents ones included), and then broken: one
 * field replaced by a hostile value, a required field dropped, an unknown field added, or the whole
 * body replaced by random JSON, non-JSON text, invalid UTF-8 or nothing. Runs are bounded and seeded,
 * so failures reproduce.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/http/error-codes.js';
import { expectJson, useHarness } from '../support/harness.js';
import { hostedLinkToken } from '../../src/services/documents/hosted-links.js';
import { eventId, notify } from '../support/payments.js';

interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: boolean | Schema;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  nullable?: boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
}

interface Operation {
  method: string;
  path: string;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  parameters?: { in: string; name: string; schema?: Schema }[];
}

interface OpenApiDoc {
  paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>>;
  components?: { schemas?: Record<string, Schema> };
}

/** Seeded and bounded by default; FUZZ_SEED / FUZZ_RUNS explore further locally. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 30);
const MUTATING = ['post', 'put', 'patch', 'delete'];
const METER_EVENT_TYPE = 'fuzz_calls';

/** The real resources requests name; `other_plan` lets a plan change get past "same plan". */
interface Seeds {
  customer: string;
  product: string;
  plan: string;
  other_plan: string;
  sku: string;
  subscription: string;
  invoice: string;
  meter: string;
  test_clock: string;
  contract: string;
  webhook: string;
  payment_method: string;
  spend_alert: string;
  processor_event: string;
  top_up: string;
  simulation: string;
  shadow_attachment: string;
  feature: string;
  metered_feature: string;
  /** A grant of the metered feature to the customer (the void route's). */
  entitlement_grant: string;
  /** A portal session the renew and revoke routes act on. */
  portal_session: string;
  /** The last part of another portal session's link (a /portal/{token} route's parameter): renewing or revoking the seeded session leaves it working. */
  portal_link: string;
  /** The signed part of a hosted link to the seeded invoice (a /hosted/invoices/{token} route's parameter). */
  hosted_link: string;
}

const h = useHarness();
let doc: OpenApiDoc;
let operations: Operation[];
let seeds: Seeds;

async function create<T = { id: string }>(path: string, body: unknown): Promise<T> {
  return expectJson<T>(await h.request('POST', path, { body }), 201);
}

/** Everything through the API, as a client would: the subscription starts its workflow, bill makes the Draft. */
async function seed(): Promise<Seeds> {
  const tag = Date.now().toString(36);
  const test_clock = (await create('/admin/v1/test-clocks', { name: `fuzz ${tag}`, frozen_time: '2026-01-01T00:00:00Z' })).id;
  const customer = (await create('/admin/v1/customers', { display_name: `Fuzz ${tag}`, email: `fuzz-${tag}@example.com`, currency: 'USD', account_type: 'Organization' })).id;
  const product = (await create('/admin/v1/catalog/products', { name: `fuzz ${tag}` })).id;
  const plans: string[] = [];
  let sku = '';
  for (const name of ['fuzz A', 'fuzz B']) {
    const plan = (await create('/admin/v1/catalog/plans', { name: `${name} ${tag}`, billing_cadence: 'Monthly' })).id;
    await create('/admin/v1/catalog/skus', { plan_id: plan, name: 'Base fee', pricing_model: 'Flat', unit_amount_nanos: '49000000000000', currency: 'USD' });
    sku = (
      await create('/admin/v1/catalog/skus', {
        plan_id: plan,
        name: 'Calls',
        pricing_model: 'PerUnit',
        unit_amount_nanos: '10000000000',
        meter_event_type: METER_EVENT_TYPE,
        currency: 'USD',
      })
    ).id;
    plans.push(plan);
  }
  const meter = (await create('/admin/v1/meters', { name: `fuzz ${tag}`, event_type: METER_EVENT_TYPE, aggregation: 'Count' })).id;
  const webhook = (await create('/admin/v1/webhooks', { url: 'http://127.0.0.1:9/fuzz', events: ['*'] })).id;
  const subscription = (await create('/v1/subscriptions', { customer_id: customer, plan_id: plans[0], currency: 'USD' })).id;
  const invoice = await expectJson<{ id: string; status: string }>(await h.request('POST', `/admin/v1/subscriptions/${subscription}/bill`), 201);
  expect(invoice.status).toBe('Draft');
  const payment_method = (await create(`/admin/v1/customers/${customer}/payment-methods`, { processor_payment_method_id: 'pm_card_visa' })).id;
  const contract = (
    await create('/admin/v1/contracts', {
      customer_id: customer,
      name: `fuzz ${tag}`,
      start_date: '2030-01-01',
      end_date: '2031-01-01',
      terms: [{ phase: 1, start_date: '2030-01-01', end_date: '2031-01-01', committed_amount_nanos: '0', description: 'fuzz' }],
    })
  ).id;
  const spend_alert = (await create(`/admin/v1/customers/${customer}/alerts`, { alert_type: 'SoftLimit', threshold_nanos: '1000000000000000000' })).id;
  // A notification of a type the engine ignores: stored (processed) at once, with nothing to retry.
  const processor_event = eventId();
  expect(await expectJson(await notify(h, { id: processor_event, object: 'event', type: 'customer.created', data: { object: { id: `cus_fuzz_${tag}`, object: 'customer' } } }))).toMatchObject({ action: 'ignored' });
  // A top-up of the customer's USD wallet (stripe-mock refuses the charge: Failed).
  const top_up = (await create(`/admin/v1/customers/${customer}/wallets/USD/top-ups`, { amount_nanos: '10000000000000' })).id;
  const simulation = (
    await expectJson<{ id: string }>(
      await h.request('POST', '/admin/v1/simulations', { body: { candidate: { kind: 'plan_version', plan_id: plans[1], version: 1 }, scope: { kind: 'plan', plan_id: plans[0] }, range: { last_periods: 1 } } }),
      202,
    )
  ).id;
  const shadow_attachment = (await create('/admin/v1/shadow-billing/attachments', { candidate: { plan_id: plans[1], version: 1 }, scope: { kind: 'plan', plan_id: plans[0] } })).id;
  const feature = (await create('/admin/v1/catalog/features', { key: `fuzz_${tag}`, name: 'Fuzz', kind: 'Boolean' })).id;
  await create(`/admin/v1/catalog/plans/${plans[0]}/features`, { feature_id: feature });
  // Overrides for the removal routes to find (they are fuzzed last, with the other deletions).
  for (const owner of [`subscriptions/${subscription}`, `contracts/${contract}`]) await expectJson(await h.request('PUT', `/admin/v1/${owner}/features/${feature}`, { body: { enabled: true } }), 201);
  const metered_feature = (await create('/admin/v1/catalog/features', { key: `fuzz_m_${tag}`, name: 'Fuzz metered', kind: 'Metered', meter_event_type: 'api_calls' })).id;
  const entitlement_grant = (await create(`/admin/v1/customers/${customer}/entitlement-grants`, { feature_id: metered_feature, quantity: '10' })).id;
  const portal_session = (await create(`/admin/v1/customers/${customer}/portal-sessions`, {})).id;
  const portal_link = (await create<{ url: string }>(`/admin/v1/customers/${customer}/portal-sessions`, {})).url.split('/portal/')[1]!;
  const hosted_link = hostedLinkToken(h.secrets.hosted_link_secret, invoice.id, new Date('2100-01-01T00:00:00Z'));
  return { customer, product, plan: plans[0]!, other_plan: plans[1]!, sku, subscription, invoice: invoice.id, meter, test_clock, contract, webhook, payment_method, spend_alert, processor_event, top_up, simulation, shadow_attachment, feature, metered_feature, entitlement_grant, portal_session, portal_link, hosted_link };
}

beforeAll(async () => {
  doc = (await (await h.request('GET', '/openapi.json', { as: 'none' })).json()) as OpenApiDoc;
  operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ ...op, method: method.toUpperCase(), path })),
  );
  seeds = await seed();
});

/** The seeded resource each `{param}` of a path names, by the collection before it. */
const COLLECTIONS: Record<string, keyof Seeds> = {
  customers: 'customer',
  products: 'product',
  plans: 'plan',
  skus: 'sku',
  subscriptions: 'subscription',
  invoices: 'invoice',
  meters: 'meter',
  'test-clocks': 'test_clock',
  contracts: 'contract',
  webhooks: 'webhook',
  'payment-methods': 'payment_method',
  alerts: 'spend_alert',
  'processor-events': 'processor_event',
  'top-ups': 'top_up',
  simulations: 'simulation',
  attachments: 'shadow_attachment',
  features: 'feature',
  'portal-sessions': 'portal_session',
  'entitlement-grants': 'entitlement_grant',
};

/** Body fields that refer to a resource, and the seeds they may name. */
const REFERENCES: Record<string, (keyof Seeds)[]> = {
  customer_id: ['customer'],
  parent_id: ['customer'],
  bill_to_id: ['customer'],
  subject: ['customer'],
  product_id: ['product'],
  plan_id: ['plan', 'other_plan'],
  sku_id: ['sku'],
  subscription_id: ['subscription'],
  subscriptionid: ['subscription'],
  invoice_id: ['invoice'],
  test_clock_id: ['test_clock'],
  payment_method_id: ['payment_method'],
  feature_id: ['feature', 'metered_feature'],
};

/** Mostly a seeded resource (so the lookup succeeds), sometimes an id nothing has. */
const seededId = (names: (keyof Seeds)[]): fc.Arbitrary<string> =>
  fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...names.map((name) => seeds[name])) }, { weight: 1, arbitrary: fc.uuid({ version: 7 }) });

function pathFor(path: string): fc.Arbitrary<string> {
  // A hosted link's {token}: mostly the seeded invoice's signed one (so the link verifies), sometimes an unsigned id.
  // A portal link's {token}: mostly the seeded session's, the ids after it as any other path's.
  if (path.includes('{token}')) {
    const seeded = path.startsWith('/portal/') ? seeds.portal_link : seeds.hosted_link;
    return fc
      .tuple(fc.oneof({ weight: 4, arbitrary: fc.constant(seeded) }, { weight: 1, arbitrary: fc.uuid({ version: 7 }) }), pathWithIds(path.replace('{token}', TOKEN_SLOT)))
      .map(([token, p]) => p.replace(TOKEN_SLOT, token));
  }
  // A {currency} path parameter (a customer's wallet) takes a currency code; every other one an id.
  if (path.includes('{currency}')) {
    return fc.tuple(fc.constantFrom('USD', 'EUR'), pathWithIds(path.replace('{currency}', CURRENCY_SLOT))).map(([currency, p]) => p.replace(CURRENCY_SLOT, currency));
  }
  return pathWithIds(path);
}

const CURRENCY_SLOT = '__currency__';
const TOKEN_SLOT = '__token__';

function pathWithIds(path: string): fc.Arbitrary<string> {
  const [first, ...rest] = [...path.matchAll(/\/([a-z-]+)\/\{[^}]+\}/g)].map((match) => COLLECTIONS[match[1]!]);
  const firstId = first ? seededId([first]) : fc.uuid({ version: 7 });
  // A later parameter of a known collection (an alert of the customer) names its own seed; others repeat the first id.
  return fc.tuple(firstId, ...rest.map((resource) => (resource ? seededId([resource]) : fc.constant(null)))).map(([id, ...later]) => {
    const ids = [id, ...later.map((other) => other ?? id)];
    let i = 0;
    return path.replace(/\{[^}]+\}/g, () => ids[Math.min(i++, ids.length - 1)]!);
  });
}

function resolve(schema: Schema | undefined): Schema {
  let current = schema ?? {};
  for (let hops = 0; current.$ref && hops < 10; hops++) {
    current = doc.components?.schemas?.[current.$ref.replace('#/components/schemas/', '')] ?? {};
  }
  return current;
}

/** The media types an operation takes, each with its body schema. */
function bodySchemas(op: Operation): { mediaType: string; schema: Schema }[] {
  return Object.entries(op.requestBody?.content ?? {}).map(([mediaType, content]) => ({ mediaType, schema: resolve(content.schema) }));
}

/** The fields of a body schema: an object's, or for an array body (a CloudEvents batch), its items'. */
function fieldsOf(schema: Schema | undefined): string[] {
  const resolved = resolve(schema);
  return Object.keys((resolved.type === 'array' ? resolve(resolved.items) : resolved).properties ?? {});
}

/** Sets a field of the body: of the object, or of the first item of an array body. */
function withField(body: unknown, key: string, value: unknown): unknown {
  if (Array.isArray(body)) return body.length === 0 ? [{ [key]: value }] : [withField(body[0], key, value), ...body.slice(1)];
  return { ...(body !== null && typeof body === 'object' ? body : {}), [key]: value };
}

function withoutField(body: unknown, key: string): unknown {
  if (Array.isArray(body)) return body.length === 0 ? body : [withoutField(body[0], key), ...body.slice(1)];
  if (body === null || typeof body !== 'object') return body;
  const { [key]: _dropped, ...rest } = body as Record<string, unknown>;
  return rest;
}

const nested = (depth: number, leaf: string) => `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`;

/** JSON text spliced in verbatim: nesting too deep for JSON.stringify to produce. */
class RawJson {
  constructor(readonly text: string) {}
}

function toJson(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => (v instanceof RawJson ? `\u0001raw${raws.push(v.text) - 1}\u0001` : v));
  return text.replace(/"\\u0001raw(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)]!);
}

/** Values chosen to break parsers, validators, databases and serializers. */
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(null, true, false, 0, -1, 1.5, -0, 1e308, Number.MAX_SAFE_INTEGER + 2, [], {}, ''),
  fc.constantFrom('9'.repeat(39), '-'.concat('9'.repeat(39)), '9'.repeat(200_000), '00', '-0', '1e3', ' 1', '0x10', '١٢٣'),
  fc.constantFrom(
    '2026-02-30T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
    '1969-12-31T23:59:59.999999999Z',
    '2026-01-01',
    '2026-01-01T00:00:00+99:99',
    '2026-01-01T00:00:00+23:59',
    '2026-02-30',
    '0000-01-01',
  ),
  fc.constantFrom('00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-7FFF-BFFF-FFFFFFFFFFFF', '{01900000-0000-7000-8000-000000000000}'),
  fc.string().map((s) => `${s}\u0000${s}`),
  fc.constantFrom('\ud800', 'a\udfffb', '\udbff\udbff', '\u202e\u0000\uffff', '\ufeff'),
  fc.integer({ min: 1_000, max: 200_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 64, max: 100_000 }).map((depth) => new RawJson(nested(depth, '"deep"'))),
  fc.dictionary(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
  fc.array(fc.string(), { minLength: 100, maxLength: 2_000 }),
);

const NOW_MS = Date.now();
const DAY_MS = 86_400_000;

/** A value the schema accepts, as far as a generator reasonably can tell, naming seeded resources. */
function plausible(raw: Schema | undefined, name = '', depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(raw);
  if (depth > 4) return fc.constant(null);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const references = REFERENCES[name];
  if (references && schema.type === 'string') return seededId(references);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => plausible(s, name, depth + 1)));
  if (schema.allOf?.length) return plausible(schema.allOf[0], name, depth + 1);
  switch (schema.type) {
    case 'string':
      if (schema.format === 'uuid') return fc.uuid({ version: 7 });
      if (schema.format === 'email') return fc.emailAddress();
      // Around now: far-future times only exercise "too far ahead", and test clocks then run to them.
      if (schema.format === 'date-time') return fc.integer({ min: NOW_MS - 400 * DAY_MS, max: NOW_MS + 60 * DAY_MS }).map((ms) => new Date(ms).toISOString());
      if (schema.format === 'date') return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      if (name.endsWith('_nanos')) return fc.bigInt({ min: 0n, max: 10n ** 20n }).map(String);
      if (name === 'included_quantity' || name === 'quantity' || name === 'rollover_cap') return fc.bigInt({ min: 0n, max: 10n ** 9n }).map(String);
      if (name === 'currency') return fc.constantFrom('USD', 'EUR', 'JPY');
      if (name === 'event_type' || name === 'type' || name === 'meter_event_type') return fc.constantFrom(METER_EVENT_TYPE, 'api_calls');
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) });
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000, max: schema.maximum ?? 1_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1_000, max: schema.maximum ?? 1_000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(plausible(schema.items, name, depth + 1), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 3, 3) });
    case 'object': {
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, plausible(s, key, depth + 1)]));
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

interface Attempt {
  kind: string;
  body: string | Uint8Array | undefined;
  contentType: string | undefined;
}

const FORM = 'application/x-www-form-urlencoded';

/** A form body (the hosted page's Pay form): an object's fields, each a string (anything else as its JSON); any other value as JSON text. */
function toForm(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return toJson(value);
  return new URLSearchParams(Object.entries(value).map(([key, v]): [string, string] => [key, typeof v === 'string' ? v : toJson(v)])).toString();
}

/** A body in its media type: URL-encoded for a form, else JSON. */
const jsonAttempt = (kind: string, contentType = 'application/json') => (value: unknown): Attempt => ({ kind, body: contentType === FORM ? toForm(value) : toJson(value), contentType });

/** Every way a request body of one media type can go wrong, built on its schema. */
function attemptsFor(mediaType: string, schema: Schema): fc.Arbitrary<Attempt> {
  const fields = fieldsOf(schema);
  const base = plausible(schema);
  const as = (kind: string) => jsonAttempt(`${kind} (${mediaType})`, mediaType);
  const shapes: fc.Arbitrary<Attempt>[] = [
    base.map(as('plausible')),
    fc.tuple(base, fc.string({ minLength: 1, maxLength: 30 }), hostile).map(([body, key, value]) => as('unknown field')(withField(body, key, value))),
    fc.jsonValue().map(as('random JSON')),
    fc.string().map((text) => ({ kind: 'non-JSON text', body: text, contentType: mediaType })),
    fc.constantFrom<Attempt>(
      { kind: 'empty with JSON type', body: '', contentType: mediaType },
      { kind: 'no body', body: undefined, contentType: undefined },
      { kind: 'truncated', body: '{"a":', contentType: mediaType },
      { kind: 'JSON with a text type', body: '{}', contentType: 'text/plain' },
      { kind: 'JSON without a type', body: '{}', contentType: undefined },
      { kind: 'JSON with parameters', body: '{}', contentType: `${mediaType}; charset=utf-8; foo` },
      { kind: 'deeply nested', body: nested(100_000, '0'), contentType: mediaType },
      { kind: 'unicode escapes', body: '{"\\u0000":"\\ud800"}', contentType: mediaType },
    ),
    fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => ({ kind: 'raw bytes', body: Uint8Array.from([0x7b, 0xff, ...bytes]), contentType: mediaType })),
  ];
  if (fields.length > 0) {
    shapes.push(
      // Twice: one broken field in an otherwise plausible body is what reaches deepest.
      fc.tuple(base, fc.constantFrom(...fields), hostile).map(([body, key, value]) => as(`hostile ${key}`)(withField(body, key, value))),
      fc.tuple(base, fc.constantFrom(...fields), hostile).map(([body, key, value]) => as(`hostile ${key}`)(withField(body, key, value))),
      fc.tuple(base, fc.constantFrom(...fields)).map(([body, key]) => as(`without ${key}`)(withoutField(body, key))),
    );
  }
  return fc.oneof(...shapes);
}

/** An operation's attempts over every media type it takes (none: a body it does not expect). */
function attempts(op: Operation): fc.Arbitrary<Attempt> {
  const schemas = bodySchemas(op);
  return schemas.length === 0 ? attemptsFor('application/json', {}) : fc.oneof(...schemas.map(({ mediaType, schema }) => attemptsFor(mediaType, schema)));
}

async function send(method: string, path: string, attempt: Attempt, idempotencyKey: string | null): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${h.adminToken}` };
  if (attempt.contentType) headers['content-type'] = attempt.contentType;
  if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
  const res = await h.app.request(path, { method, headers, ...(attempt.body !== undefined ? { body: attempt.body } : {}) });
  await h.checkErrorCode(method, path, res);
  return res;
}

interface ErrorBody {
  error?: { code?: unknown; message?: unknown; request_id?: unknown; details?: { issues?: { path: string }[] } };
}

/**
 * The error a response carries: the JSON envelope, or, from the /hosted pages (answered to browsers as
 * HTML), the page's code (X-Error-Code), title and request id (X-Request-Id).
 */
async function errorOf(res: Response): Promise<{ body: ErrorBody; text: string }> {
  const text = await res.text();
  if (!res.headers.get('content-type')?.startsWith('text/html')) return { body: (text.startsWith('{') ? JSON.parse(text) : {}) as ErrorBody, text };
  return { body: { error: { code: res.headers.get('x-error-code'), message: /<h1>([^<]+)<\/h1>/.exec(text)?.[1], request_id: res.headers.get('x-request-id') } }, text };
}

async function expectHandled(res: Response, context: string): Promise<void> {
  expect(res.status, context).toBeLessThan(500);
  if (res.status >= 400) {
    const { body } = await errorOf(res);
    expect(body.error, context).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    // Every code answered is one the registry (and so the OpenAPI document) lists, with this status.
    expect((ERROR_CODES as Record<string, { status: number }>)[String(body.error?.code)]?.status, `${context}: ${String(body.error?.code)}`).toBe(res.status);
    // A replay returns the stored body, whose request_id is the original request's.
    if (res.headers.get('x-idempotency-replayed') !== 'true') expect(body.error?.request_id, context).toBe(res.headers.get('x-request-id'));
  } else {
    await res.arrayBuffer();
  }
}

/** Statuses that mean the request stopped before the service's own rules: refused input or an unknown id. */
const STOPPED_EARLY = new Set([400, 404, 413, 415]);

/** The walks below send hundreds of requests per route, over every route: minutes on a loaded machine. */
const WALK_TIMEOUT_MS = 300_000;

describe('fuzzing every mutating route', () => {
  it('publishes mutating routes to fuzz, the event routes with their CloudEvents media types', () => {
    const mutating = operations.filter((op) => MUTATING.includes(op.method.toLowerCase()));
    expect(mutating.length).toBeGreaterThan(0);
    const mediaTypes = (path: string) => Object.keys(operations.find((op) => op.path === path && op.method === 'POST')?.requestBody?.content ?? {});
    expect(mediaTypes('/v1/events')).toContain('application/cloudevents+json');
    expect(mediaTypes('/v1/events/batch')).toContain('application/cloudevents-batch+json');
  });

  it('answers malformed bodies with a 4xx envelope, never a 5xx, and gets past validation and lookup on every route with an id', async () => {
    // Deletions last: one that removes a seeded resource must not turn the other routes' lookups into 404s.
    const mutating = operations
      .filter((op) => MUTATING.includes(op.method.toLowerCase()))
      .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    const failures: string[] = [];
    const reached = new Map<string, number>();
    for (const op of mutating) {
      const route = `${op.method} ${op.path}`;
      if (op.path.includes('{')) reached.set(route, 0);
      const details = await fc.check(
        fc.asyncProperty(attempts(op), pathFor(op.path), fc.option(fc.stringMatching(/^[!-~]{1,40}$/), { freq: 4 }), async (attempt, path, key) => {
          const res = await send(op.method, path, attempt, key);
          if (!STOPPED_EARLY.has(res.status) && reached.has(route)) reached.set(route, reached.get(route)! + 1);
          await expectHandled(res, `${op.method} ${path} (${attempt.kind})`);
        }),
        { seed: SEED, numRuns: RUNS_PER_ROUTE },
      );
      if (details.failed) failures.push(`${route}: ${fc.defaultReportMessage(details) ?? 'failed'}`);
    }
    // Every route is fuzzed before judging, so one report names all the routes that fail.
    expect(failures).toEqual([]);
    expect([...reached].filter(([, count]) => count === 0).map(([route]) => route)).toEqual([]);
  }, WALK_TIMEOUT_MS);
});

describe('every field of every mutating route with every wrong type', () => {
  const WRONG: unknown[] = [null, true, -1.5, '', '9'.repeat(39), 'x'.repeat(100_000), [], {}, [{}], { nested: { value: 1 } }];

  it('answers each with a 4xx envelope or success, never a 5xx', async () => {
    const failures: string[] = [];
    for (const op of operations.filter((o) => MUTATING.includes(o.method.toLowerCase()))) {
      const path = fc.sample(pathFor(op.path), { seed: SEED, numRuns: 1 })[0]!;
      for (const { mediaType, schema } of bodySchemas(op)) {
        const base = fc.sample(plausible(schema), { seed: SEED, numRuns: 1 })[0];
        for (const field of fieldsOf(schema)) {
          for (const value of WRONG) {
            const res = await send(op.method, path, jsonAttempt('wrong type', mediaType)(withField(base, field, value)), null);
            const context = `${op.method} ${op.path} (${mediaType}) ${field}=${JSON.stringify(value).slice(0, 40)}`;
            if (res.status >= 500) failures.push(`${context}: ${res.status} ${await res.text()}`);
            else await expectHandled(res, context);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  }, WALK_TIMEOUT_MS);
});

describe('query strings are strict', () => {
  it('refuses a query parameter a route does not declare, naming it, on every documented route', async () => {
    const wrong: string[] = [];
    // The reference page and the document itself are not API calls.
    for (const op of operations.filter((o) => !o.path.startsWith('/docs') && o.path !== '/openapi.json')) {
      const id = (collection: string) => seeds[COLLECTIONS[collection] ?? 'customer'];
      const path = op.path.replace(/([a-z-]+)\/\{[^}]+\}/g, (_m, collection: string) => `${collection}/${id(collection)}`);
      const declared = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      // A typo of a declared filter where there is one (`customer` for `customer_id`), else any name.
      const typo = declared.includes('customer_id') ? 'customer' : 'unknown_param';
      const res = await send(op.method, `${path}?${typo}=x`, { kind: 'params', body: op.method === 'GET' ? undefined : '{}', contentType: op.method === 'GET' ? undefined : 'application/json' }, null);
      const { body, text } = await errorOf(res);
      // An HTML page names the parameter in its text.
      const named = (body.error?.details?.issues?.some((issue) => issue.path === typo) ?? false) || (res.headers.get('content-type')?.startsWith('text/html') === true && text.includes(typo));
      if (res.status !== 400 || body.error?.code !== 'validation_failed' || !named) wrong.push(`${op.method} ${op.path} → ${res.status} ${text.slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('still accepts the declared parameters', async () => {
    const res = await h.request('GET', `/admin/v1/invoices?customer_id=${seeds.customer}&limit=100`);
    const invoices = await expectJson<{ id: string; customer_id: string }[]>(res, 200);
    expect(invoices.map((invoice) => invoice.id)).toContain(seeds.invoice);
    expect(new Set(invoices.map((invoice) => invoice.customer_id))).toEqual(new Set([seeds.customer]));
  });
});

describe('fuzzing path and query parameters', () => {
  it('answers any path parameter and query string without a 5xx', async () => {
    const withParams = operations.filter((op) => op.path.includes('{') || (op.parameters ?? []).some((p) => p.in === 'query'));
    const segment = fc.oneof(
      fc.constantFrom(...Object.values(seeds)),
      fc.uuid(),
      fc.string({ maxLength: 40 }),
      fc.constantFrom('%00', '%ZZ', '..', '%2e%2e', '%2F', '\u0000', "'; DROP TABLE products; --", 'x'.repeat(5_000)),
    );
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom('-1', '0', '1e9', 'NaN', '%00', 'Draft', 'Active', seeds.customer, seeds.subscription, seeds.plan),
      fc.constantFrom('2026-01-01T00:00:00Z', '0000-01-01T00:00:00Z', '2026-02-30T00:00:00Z', '9999-12-31T23:59:59Z', '2026-01-01T00:00:00+23:59'),
    );
    const query = fc.dictionary(
      fc.constantFrom('limit', 'starting_after', 'status', 'customer_id', 'subscription_id', 'plan_id', 'parent_id', 'event_type', 'from', 'to', 'at', 'x'),
      value,
      { maxKeys: 3 },
    );
    const failures: string[] = [];
    for (const op of withParams) {
      const details = await fc.check(
        fc.asyncProperty(segment, query, async (id, params) => {
          const qs = new URLSearchParams(params).toString();
          const path = `${op.path.replace(/\{[^}]+\}/g, encodeURIComponent(id))}${qs ? `?${qs}` : ''}`;
          const body = op.method === 'GET' ? undefined : '{}';
          const res = await send(op.method, path, { kind: 'params', body, contentType: body ? 'application/json' : undefined }, null);
          await expectHandled(res, `${op.method} ${path}`);
        }),
        { seed: SEED, numRuns: RUNS_PER_ROUTE },
      );
      if (details.failed) failures.push(`${op.method} ${op.path}: ${fc.defaultReportMessage(details) ?? 'failed'}`);
    }
    expect(failures).toEqual([]);
  });

  it('stays healthy afterwards', async () => {
    const res = await h.request('GET', '/health', { as: 'none' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok' });
  });
});
