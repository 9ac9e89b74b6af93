/**
 * The error envelope { error: { code, message, details?, request_id } } for every class of failure,
 * with its status, and X-Request-Id equal to request_id. Probe routes on an app of our own stand in
 * for handlers that throw or block.
 */
import { randomUUID } from 'node:crypto';
import { Client, Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client.js';
import { freePort } from '../../src/dev/processes.js';
import { createApp, type RouteModule } from '../../src/http/app.js';
import { MAX_JSON_DEPTH } from '../../src/http/middleware/json-body.js';
import { makeCustomer, makePlan } from '../support/fixtures.js';
import { createHarness, expectJson, useHarness } from '../support/harness.js';

const PRODUCTS = '/admin/v1/catalog/products';

interface Envelope {
  error: { code: string; message: string; details?: { issues?: { path: string; message: string }[] } & Record<string, unknown>; request_id: string };
}

const h = useHarness();

/** Checks status, code and the request id; returns the envelope for further checks. */
async function expectError(res: Response, status: number, code: string | RegExp): Promise<Envelope['error']> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = JSON.parse(text) as Envelope;
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error.code).toMatch(code);
  expect(body.error.message).toEqual(expect.any(String));
  expect(body.error.request_id).toBeTruthy();
  expect(res.headers.get('x-request-id')).toBe(body.error.request_id);
  return body.error;
}

const issuePaths = (error: Envelope['error']) => (error.details?.issues ?? []).map((issue) => issue.path);

describe('request ids', () => {
  it('echoes a well-formed X-Request-Id and replaces a malformed one', async () => {
    const echoed = await h.request('GET', '/nope', { headers: { 'x-request-id': 'client-trace.42' } });
    expect((await expectError(echoed, 404, 'not_found')).request_id).toBe('client-trace.42');
    const replaced = await h.request('GET', '/nope', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect((await expectError(replaced, 404, 'not_found')).request_id).not.toBe('bad id with spaces');
  });
});

describe('validation', () => {
  it('names the field of a wrong type', async () => {
    const error = await expectError(await h.request('POST', PRODUCTS, { body: { name: 123 } }), 400, 'validation_failed');
    expect(issuePaths(error)).toContain('name');
    expect(error.message).toContain('name');
  });

  it('names a missing required field, also when the body is empty', async () => {
    for (const rawBody of ['{}', '']) {
      const error = await expectError(await h.request('POST', PRODUCTS, { rawBody, headers: { 'content-type': 'application/json' } }), 400, 'validation_failed');
      expect(issuePaths(error)).toContain('name');
    }
  });

  it('names each unknown field', async () => {
    const body = { name: 'Widget', description: '', tags: [], colour: 'red', size: 3 };
    const error = await expectError(await h.request('POST', PRODUCTS, { body }), 400, 'validation_failed');
    expect(issuePaths(error).sort()).toEqual(['colour', 'size']);
    expect(error.message).toContain('colour');
  });

  it('names a malformed path parameter', async () => {
    const error = await expectError(await h.request('GET', `${PRODUCTS}/not-a-uuid`), 400, 'validation_failed');
    expect(issuePaths(error)).toContain('id');
  });

  it('names a string PostgreSQL cannot store instead of failing in the database', async () => {
    for (const name of ['nul\u0000byte', 'lone \ud800 surrogate']) {
      const error = await expectError(await h.request('POST', PRODUCTS, { body: { name } }), 400, 'validation_failed');
      expect(issuePaths(error)).toEqual(['name']);
    }
    const inTags = await expectError(await h.request('POST', PRODUCTS, { body: { name: 'ok', tags: ['fine', 'x\u0000'] } }), 400, 'validation_failed');
    expect(issuePaths(inTags)).toEqual(['tags.1']);
    const inKey = await expectError(await h.request('POST', PRODUCTS, { body: { name: 'ok', ['k\u0000']: 1 } }), 400, 'validation_failed');
    expect(inKey.message).toContain('field name');
  });

  it(`refuses bodies nested deeper than ${MAX_JSON_DEPTH} levels`, async () => {
    const deep = `{"name":"x","tags":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const error = await expectError(await h.request('POST', PRODUCTS, { rawBody: deep }), 400, 'validation_failed');
    expect(error.message).toContain('deeper');
    const fine = `{"name":"x","tags":${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH - 1)}}`;
    await expectError(await h.request('POST', PRODUCTS, { rawBody: fine }), 400, 'validation_failed');
  });

  it('refuses excessive depth before parsing: an unterminated 1 MB [[[… is a depth error, not a parse', async () => {
    const error = await expectError(await h.request('POST', PRODUCTS, { rawBody: '['.repeat(1_000_000) }), 400, 'validation_failed');
    expect(error.message).toContain('deeper');
  });

  it('does not count brackets inside strings (escaped quotes included) as nesting', async () => {
    const name = '\\"['.repeat(MAX_JSON_DEPTH + 5);
    const res = await h.request('POST', PRODUCTS, { rawBody: `{"name":"${name}"}` });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { name: string }).name).toBe('"['.repeat(MAX_JSON_DEPTH + 5));
  });

  it('refuses bytes that are not UTF-8 instead of storing U+FFFD, and non-UTF-8 charsets', async () => {
    const invalid = new Uint8Array([...Buffer.from('{"name":"caf'), 0xe9, ...Buffer.from('"}')]);
    const error = await expectError(await h.request('POST', PRODUCTS, { rawBody: invalid }), 400, 'malformed_json');
    expect(error.message).toContain('UTF-8');
    await expectError(
      await h.request('POST', PRODUCTS, { rawBody: '{"name":"x"}', headers: { 'content-type': 'application/json; charset=iso-8859-1' } }),
      415,
      'unsupported_media_type',
    );
    const utf8 = await h.request('POST', PRODUCTS, { rawBody: '{"name":"café ✓"}', headers: { 'content-type': 'application/json; charset=UTF-8' } });
    expect(utf8.status).toBe(201);
    expect(((await utf8.json()) as { name: string }).name).toBe('café ✓');
  });
});

describe('money fields', () => {
  let planId: string;
  beforeAll(async () => {
    const res = await h.request('POST', '/admin/v1/catalog/plans', { body: { name: `money-${randomUUID()}`, billing_cadence: 'Monthly' } });
    expect(res.status).toBe(201);
    planId = ((await res.json()) as { id: string }).id;
  });
  const sku = (unit_amount_nanos: unknown) => ({ plan_id: planId, name: 'Fee', pricing_model: 'Flat', currency: 'USD', unit_amount_nanos });

  it.each([
    ['a JSON number', 1500000000000],
    ['a decimal fraction', '1.5'],
    ['letters', 'abc'],
    ['an empty string', ''],
    ['39 digits', '1'.repeat(39)],
    ['leading zeros', '007'],
    ['an exponent', '1e12'],
  ])('refuses %s with 400 naming unit_amount_nanos', async (_name, amount) => {
    const error = await expectError(await h.request('POST', '/admin/v1/catalog/skus', { body: sku(amount) }), 400, 'validation_failed');
    expect(issuePaths(error)).toContain('unit_amount_nanos');
  });

  it('refuses an oversize digit string by its length, without converting it', async () => {
    const big = await createHarness({ bodyLimitBytes: 3 * 1024 * 1024 });
    try {
      const res = await big.request('POST', '/admin/v1/catalog/skus', { body: sku('9'.repeat(2_000_000)) });
      const error = await expectError(res, 400, 'validation_failed');
      // The length check's own message, and no other issue: it stopped the field before the digit
      // pattern and the BigInt() range check, whose cost grows with the length.
      expect(error.details?.issues).toEqual([{ path: 'unit_amount_nanos', message: 'is out of range (a sign and at most 38 digits)' }]);
    } finally {
      await big.close();
    }
  });

  it('accepts a decimal-integer string and returns it as a string', async () => {
    const res = await h.request('POST', '/admin/v1/catalog/skus', { body: sku('1500000000000') });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ unit_amount_nanos: '1500000000000' });
  });
});

describe('dates and date-times', () => {
  it.each([
    ['year 0000', '0000-01-01T00:00:00Z'],
    ['a five-digit year', '10000-01-01T00:00:00Z'],
    ['an instant before 1970', '1969-12-31T23:59:59Z'],
    ['an instant after 9999', '9999-12-31T23:00:00-05:00'],
    ['an impossible date', '2026-02-30T00:00:00Z'],
    ['a leap day of a common year', '2025-02-29T00:00:00Z'],
    ['hour 24', '2026-01-01T24:00:00Z'],
    ['no offset', '2026-01-01T00:00:00'],
    ['an offset beyond what PostgreSQL accepts', '2026-01-01T00:00:00+16:00'],
  ])('refuses %s in a body field, naming it', async (_name, frozen_time) => {
    const error = await expectError(await h.request('POST', '/admin/v1/test-clocks', { body: { name: 'bounds', frozen_time } }), 400, 'validation_failed');
    expect(issuePaths(error)).toEqual(['frozen_time']);
  });

  it('accepts instants at the edges of the range, with any offset up to ±15:59', async () => {
    for (const frozen_time of ['1970-01-01T00:00:00Z', '9999-12-31T23:59:59.999999999Z', '2024-02-29T12:00:00+05:30', '2026-01-01T00:00:00-15:59']) {
      const res = await h.request('POST', '/admin/v1/test-clocks', { body: { name: 'bounds', frozen_time } });
      expect(res.status, frozen_time).toBe(201);
    }
  });

  it('refuses an absurd date-time in a query parameter and in a usage event, naming the field', async () => {
    const query = await expectError(await h.request('GET', `/v1/subscriptions/${randomUUID()}/usage?at=0000-01-01T00:00:00Z`), 400, 'validation_failed');
    expect(issuePaths(query)).toEqual(['at']);
    const event = { id: `evt-${randomUUID()}`, event_type: 'api_calls', customer_id: randomUUID(), timestamp: '2026-02-30T00:00:00Z' };
    expect(issuePaths(await expectError(await h.request('POST', '/v1/events', { body: event }), 400, 'validation_failed'))).toEqual(['timestamp']);
  });

  it('refuses a date that is not in the calendar, naming it, and accepts a leap day', async () => {
    const preview = (as_of: string) => h.request('POST', '/admin/v1/rating/preview', { body: { plan_id: randomUUID(), quantities: {}, as_of } });
    for (const as_of of ['2026-02-30', '2025-02-29', '2026-13-01', '0000-01-01']) {
      expect(issuePaths(await expectError(await preview(as_of), 400, 'validation_failed')), as_of).toEqual(['as_of']);
    }
    await expectError(await preview('2024-02-29'), 404, 'plan_not_found');
  });
});

describe('parsing', () => {
  it('answers malformed JSON with 400 malformed_json', async () => {
    for (const rawBody of ['{"name":', '{name: "x"}', "{'name':'x'}", 'null null', '\u0000']) {
      await expectError(await h.request('POST', PRODUCTS, { rawBody }), 400, 'malformed_json');
    }
  });

  it('answers a body that is not JSON with 415', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx', 'application/json; foo']) {
      const res = await h.request('POST', PRODUCTS, { rawBody: '{"name":"x"}', headers: { 'content-type': contentType } });
      await expectError(res, 415, 'unsupported_media_type');
    }
    const untyped = await h.app.request(PRODUCTS, { method: 'POST', body: '{"name":"x"}', headers: { authorization: `Bearer ${h.adminToken}` } });
    await expectError(untyped, 415, 'unsupported_media_type');
  });

  it('treats an empty body as no body on routes whose body is optional', async () => {
    const res = await h.request('POST', `/admin/v1/subscriptions/${randomUUID()}/resume`, { rawBody: '', headers: { 'content-type': 'application/json' } });
    await expectError(res, 404, 'subscription_not_found');
  });

  it('answers a body over the limit with 413, whether or not it declares its length', async () => {
    const small = await createHarness({ bodyLimitBytes: 1024 });
    try {
      const body = JSON.stringify({ name: 'x'.repeat(2048) });
      const declared: Record<string, string>[] = [{}, { 'content-length': String(Buffer.byteLength(body)) }];
      for (const headers of declared) {
        const res = await small.request('POST', PRODUCTS, { rawBody: body, headers });
        const error = await expectError(res, 413, 'payload_too_large');
        expect(error.message).toContain('1024');
      }
      expect((await small.request('POST', PRODUCTS, { body: { name: 'fits' } })).status).toBe(201);
    } finally {
      await small.close();
    }
  });
});

describe('routing and resources', () => {
  it('answers an unknown route with 404 not_found, public or authenticated', async () => {
    await expectError(await h.request('GET', '/nope', { as: 'none' }), 404, 'not_found');
    await expectError(await h.request('GET', '/admin/v1/nope'), 404, 'not_found');
    await expectError(await h.request('DELETE', '/health', { as: 'none' }), 404, 'not_found');
  });

  it('answers an unknown resource with 404 <entity>_not_found', async () => {
    const id = randomUUID();
    const product = await expectError(await h.request('GET', `${PRODUCTS}/${id}`), 404, 'product_not_found');
    expect(product.message).toContain(id);
    await expectError(await h.request('GET', `/v1/subscriptions/${id}`), 404, 'subscription_not_found');
    await expectError(await h.request('GET', `/admin/v1/customers/${id}`), 404, /^[a-z_]+_not_found$/);
  });
});

describe('authentication and scope', () => {
  it('answers missing credentials with 401 and WWW-Authenticate', async () => {
    const res = await h.request('GET', PRODUCTS, { as: 'none' });
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    await expectError(res, 401, 'unauthenticated');
  });

  it('answers a customer token on an admin route with 403', async () => {
    await expectError(await h.request('GET', PRODUCTS, { as: { customer: randomUUID() } }), 403, 'forbidden');
  });
});

describe('idempotency conflicts', () => {
  it('answers a key reused with another body with 422', async () => {
    const key = randomUUID();
    expect((await h.request('POST', PRODUCTS, { body: { name: 'first' }, headers: { 'idempotency-key': key } })).status).toBe(201);
    await expectError(await h.request('POST', PRODUCTS, { body: { name: 'second' }, headers: { 'idempotency-key': key } }), 422, 'idempotency_key_reused');
  });

  it('answers a key still in flight with 409', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered!: () => void;
    const running = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const slow: RouteModule = (app) => {
      app.post('/admin/v1/probe/slow', async (c) => {
        entered();
        await released;
        return c.json({}, 201);
      });
    };
    const app = createApp(h.deps, [slow]);
    const headers = { authorization: `Bearer ${h.adminToken}`, 'idempotency-key': randomUUID() };
    const first = app.request('/admin/v1/probe/slow', { method: 'POST', headers });
    await running;
    const res = await app.request('/admin/v1/probe/slow', { method: 'POST', headers });
    expect(res.headers.get('retry-after')).toBe('1');
    await expectError(res, 409, 'idempotency_key_in_use');
    release();
    expect((await first).status).toBe(201);
  });

  it('answers a malformed key with 400', async () => {
    await expectError(await h.request('POST', PRODUCTS, { body: { name: 'x' }, headers: { 'idempotency-key': 'k'.repeat(256) } }), 400, 'invalid_idempotency_key');
  });
});

describe('rate limit', () => {
  it('answers with 429, Retry-After and the envelope', async () => {
    const now = new Date();
    const limited = await createHarness({ rateLimit: { ratePerSecond: 0.5, burst: 1 } }, () => now);
    try {
      expect((await limited.request('GET', PRODUCTS)).status).toBe(200);
      const res = await limited.request('GET', PRODUCTS);
      expect(res.headers.get('retry-after')).toBe('2');
      const error = await expectError(res, 429, 'rate_limited');
      expect(error.details).toEqual({ retry_after_seconds: 2 });
    } finally {
      await limited.close();
    }
  });
});

describe('unavailable dependencies', () => {
  it('answers 503 service_unavailable when PostgreSQL cannot be reached, through Prisma and through pg', async () => {
    const broken = await createHarness();
    const dead = createDb(`postgresql://postgres@127.0.0.1:${await freePort()}/none`, 1);
    broken.deps.db = dead.db;
    broken.deps.pool = dead.pool;
    try {
      await expectError(await broken.request('GET', PRODUCTS), 503, 'service_unavailable');
      // The idempotency claim is a raw query, which Prisma reports differently (P2010).
      const keyed = await broken.request('POST', PRODUCTS, { body: { name: 'x' }, headers: { 'idempotency-key': randomUUID() } });
      await expectError(keyed, 503, 'service_unavailable');
      const event = { id: `evt-${randomUUID()}`, event_type: 'api_calls', customer_id: randomUUID(), timestamp: new Date().toISOString() };
      await expectError(await broken.request('POST', '/v1/events', { body: event }), 503, 'service_unavailable');
    } finally {
      await dead.db.$disconnect();
      await dead.pool.end();
      await broken.close();
    }
  });

  it('answers 503 service_unavailable when Temporal cannot be reached', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const planId = await makePlan(h.deps.db);
    const subscription = await expectJson<{ id: string }>(
      await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }),
      201,
    );
    const broken = await createHarness();
    const healthy = broken.deps.temporal;
    // One attempt instead of the SDK's retries, so the refused connection surfaces at once.
    const connection = Connection.lazy({
      address: `127.0.0.1:${await freePort()}`,
      interceptors: [makeGrpcRetryInterceptor(defaultGrpcRetryOptions({ maxAttempts: 1 }))],
    });
    broken.deps.temporal = { connection, client: new Client({ connection, namespace: 'default' }), taskQueue: healthy.taskQueue };
    try {
      await expectError(await broken.request('POST', `/admin/v1/subscriptions/${subscription.id}/resume`), 503, 'service_unavailable');
    } finally {
      broken.deps.temporal = healthy;
      await connection.close();
      await broken.close();
    }
  });
});

describe('internal errors', () => {
  const SECRET = 'postgres://billing:hunter2@db.internal/billing';
  const failing: RouteModule = (app) => {
    app.get('/admin/v1/probe/throws', () => {
      throw new Error(`connection refused: ${SECRET}`);
    });
    app.get('/admin/v1/probe/rejects', async () => Promise.reject(new TypeError(`cannot read ${SECRET}`)));
    app.get('/probe/throws-a-string', () => {
      // A thrown non-Error is the point: Hono's own error handling only catches Errors.
      throw SECRET;
    });
  };

  it('answers 500 internal_error without revealing the exception', async () => {
    const app = createApp(h.deps, [failing]);
    for (const path of ['/admin/v1/probe/throws', '/admin/v1/probe/rejects', '/probe/throws-a-string']) {
      const res = await app.request(path, { headers: { authorization: `Bearer ${h.adminToken}` } });
      const text = await res.clone().text();
      expect(text).not.toContain('hunter2');
      expect(text).not.toContain('connection refused');
      const error = await expectError(res, 500, 'internal_error');
      expect(error.message).toBe('internal error');
    }
  });
});
