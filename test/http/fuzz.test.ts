/**
 * Malformed input at every route the app publishes in /openapi.json: whatever arrives, the answer is
 * never a 5xx, every error carries the envelope with the request id, and the service stays healthy.
 *
 * Bodies are built from each operation's own request schema (so most of them get past the JSON
 * parser and reach validation or the service) and then broken: one field replaced by a hostile
 * value, a required field dropped, an unknown field added, or the whole body replaced by random JSON,
 * non-JSON text, invalid UTF-8 or nothing. Runs are bounded and seeded, so failures reproduce.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.js';

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

let h: Harness;
let doc: OpenApiDoc;
let operations: Operation[];

beforeAll(async () => {
  h = await createHarness();
  doc = (await (await h.request('GET', '/openapi.json', { as: 'none' })).json()) as OpenApiDoc;
  operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ ...op, method: method.toUpperCase(), path })),
  );
});
afterAll(async () => {
  await h?.close();
});

function resolve(schema: Schema | undefined): Schema {
  let current = schema ?? {};
  for (let hops = 0; current.$ref && hops < 10; hops++) {
    current = doc.components?.schemas?.[current.$ref.replace('#/components/schemas/', '')] ?? {};
  }
  return current;
}

function bodySchema(op: Operation): Schema | undefined {
  const content = op.requestBody?.content?.['application/json'];
  return content ? resolve(content.schema) : undefined;
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
  fc.constantFrom('9'.repeat(39), '-'.concat('9'.repeat(39)), '00', '-0', '1e3', ' 1', '0x10', '١٢٣'),
  fc.constantFrom(
    '2026-02-30T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
    '1969-12-31T23:59:59.999999999Z',
    '2026-01-01',
    '2026-01-01T00:00:00+99:99',
  ),
  fc.constantFrom('00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-7FFF-BFFF-FFFFFFFFFFFF', '{01900000-0000-7000-8000-000000000000}'),
  fc.string().map((s) => `${s}\u0000${s}`),
  fc.constantFrom('\ud800', 'a\udfffb', '\udbff\udbff', '\u202e\u0000\uffff', '\ufeff'),
  fc.integer({ min: 1_000, max: 200_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 64, max: 100_000 }).map((depth) => new RawJson(nested(depth, '"deep"'))),
  fc.dictionary(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
  fc.array(fc.string(), { minLength: 100, maxLength: 2_000 }),
);

/** A value the schema accepts, as far as a generator reasonably can tell. */
function plausible(raw: Schema | undefined, name = '', depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(raw);
  if (depth > 4) return fc.constant(null);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => plausible(s, name, depth + 1)));
  if (schema.allOf?.length) return plausible(schema.allOf[0], name, depth + 1);
  switch (schema.type) {
    case 'string':
      if (schema.format === 'uuid') return fc.uuid({ version: 7 });
      if (schema.format === 'date-time') return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
      if (schema.format === 'date') return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      if (name.endsWith('_nanos')) return fc.bigInt({ min: 0n, max: 10n ** 20n }).map(String);
      if (name === 'currency') return fc.constantFrom('USD', 'EUR', 'JPY');
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

const jsonAttempt = (kind: string) => (value: unknown): Attempt => ({ kind, body: toJson(value), contentType: 'application/json' });

/** Every way a request body can go wrong, built on the operation's schema. */
function attempts(op: Operation): fc.Arbitrary<Attempt> {
  const schema = bodySchema(op);
  const fields = Object.keys(schema?.properties ?? {});
  const base = plausible(schema).map((v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {}));
  const shapes: fc.Arbitrary<Attempt>[] = [
    base.map(jsonAttempt('plausible')),
    fc.tuple(base, fc.string({ minLength: 1, maxLength: 30 }), hostile).map(([body, key, value]) => jsonAttempt('unknown field')({ ...body, [key]: value })),
    fc.jsonValue().map(jsonAttempt('random JSON')),
    fc.string().map((text) => ({ kind: 'non-JSON text', body: text, contentType: 'application/json' })),
    fc.constantFrom<Attempt>(
      { kind: 'empty with JSON type', body: '', contentType: 'application/json' },
      { kind: 'no body', body: undefined, contentType: undefined },
      { kind: 'truncated', body: '{"a":', contentType: 'application/json' },
      { kind: 'JSON with a text type', body: '{}', contentType: 'text/plain' },
      { kind: 'JSON without a type', body: '{}', contentType: undefined },
      { kind: 'JSON with parameters', body: '{}', contentType: 'application/json; charset=utf-8; foo' },
      { kind: 'deeply nested', body: nested(100_000, '0'), contentType: 'application/json' },
      { kind: 'unicode escapes', body: '{"\\u0000":"\\ud800"}', contentType: 'application/json' },
    ),
    fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => ({ kind: 'raw bytes', body: Uint8Array.from([0x7b, 0xff, ...bytes]), contentType: 'application/json' })),
  ];
  if (fields.length > 0) {
    shapes.push(
      fc.tuple(base, fc.constantFrom(...fields), hostile).map(([body, key, value]) => jsonAttempt(`hostile ${key}`)({ ...body, [key]: value })),
      fc.tuple(base, fc.constantFrom(...fields)).map(([body, key]) => {
        const { [key]: _dropped, ...rest } = body;
        return jsonAttempt(`without ${key}`)(rest);
      }),
    );
  }
  return fc.oneof(...shapes);
}

const fillPath = (path: string, id: string) => path.replace(/\{[^}]+\}/g, id);

async function send(method: string, path: string, attempt: Attempt, idempotencyKey: string | null): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${h.adminToken}` };
  if (attempt.contentType) headers['content-type'] = attempt.contentType;
  if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
  return h.app.request(path, { method, headers, ...(attempt.body !== undefined ? { body: attempt.body } : {}) });
}

async function expectHandled(res: Response, context: string): Promise<void> {
  expect(res.status, context).toBeLessThan(500);
  if (res.status >= 400) {
    const body = (await res.json()) as { error?: { code?: unknown; message?: unknown; request_id?: unknown } };
    expect(body.error, context).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    // A replay returns the stored body, whose request_id is the original request's.
    if (res.headers.get('x-idempotency-replayed') !== 'true') expect(body.error?.request_id, context).toBe(res.headers.get('x-request-id'));
  } else {
    await res.arrayBuffer();
  }
}

describe('fuzzing every mutating route', () => {
  it('publishes mutating routes to fuzz', () => {
    expect(operations.filter((op) => MUTATING.includes(op.method.toLowerCase())).length).toBeGreaterThan(0);
  });

  it('answers malformed bodies with a 4xx envelope, never a 5xx', async () => {
    const mutating = operations.filter((op) => MUTATING.includes(op.method.toLowerCase()));
    const failures: string[] = [];
    for (const op of mutating) {
      const details = await fc.check(
        fc.asyncProperty(attempts(op), fc.uuid({ version: 7 }), fc.option(fc.stringMatching(/^[!-~]{1,40}$/), { freq: 4 }), async (attempt, id, key) => {
          const path = fillPath(op.path, id);
          await expectHandled(await send(op.method, path, attempt, key), `${op.method} ${path} (${attempt.kind})`);
        }),
        { seed: SEED, numRuns: RUNS_PER_ROUTE },
      );
      if (details.failed) failures.push(`${op.method} ${op.path}: ${fc.defaultReportMessage(details) ?? 'failed'}`);
    }
    // Every route is fuzzed before judging, so one report names all the routes that fail.
    expect(failures).toEqual([]);
  });
});

describe('every field of every mutating route with every wrong type', () => {
  const WRONG: unknown[] = [null, true, -1.5, '', '9'.repeat(39), 'x'.repeat(100_000), [], {}, [{}], { nested: { value: 1 } }];

  it('answers each with a 4xx envelope or success, never a 5xx', async () => {
    const failures: string[] = [];
    for (const op of operations.filter((o) => MUTATING.includes(o.method.toLowerCase()))) {
      const schema = bodySchema(op);
      const base = fc.sample(plausible(schema), { seed: SEED, numRuns: 1 })[0];
      const body = base !== null && typeof base === 'object' && !Array.isArray(base) ? (base as Record<string, unknown>) : {};
      for (const field of Object.keys(schema?.properties ?? {})) {
        for (const value of WRONG) {
          const path = fillPath(op.path, '01900000-0000-7000-8000-000000000000');
          const res = await send(op.method, path, jsonAttempt('wrong type')({ ...body, [field]: value }), null);
          const context = `${op.method} ${op.path} ${field}=${JSON.stringify(value).slice(0, 40)}`;
          if (res.status >= 500) failures.push(`${context}: ${res.status} ${await res.text()}`);
          else await expectHandled(res, context);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('fuzzing path and query parameters', () => {
  it('answers any path parameter and query string without a 5xx', async () => {
    const withParams = operations.filter((op) => op.path.includes('{') || (op.parameters ?? []).some((p) => p.in === 'query'));
    const segment = fc.oneof(
      fc.uuid(),
      fc.string({ maxLength: 40 }),
      fc.constantFrom('%00', '%ZZ', '..', '%2e%2e', '%2F', '\u0000', "'; DROP TABLE products; --", 'x'.repeat(5_000)),
    );
    const query = fc.dictionary(fc.constantFrom('limit', 'starting_after', 'status', 'customer_id', 'x'), fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('-1', '0', '1e9', 'NaN', '%00')), { maxKeys: 3 });
    const failures: string[] = [];
    for (const op of withParams) {
      const details = await fc.check(
        fc.asyncProperty(segment, query, async (value, params) => {
          const qs = new URLSearchParams(params).toString();
          const path = `${fillPath(op.path, encodeURIComponent(value))}${qs ? `?${qs}` : ''}`;
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
