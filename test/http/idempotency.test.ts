/**
 * Idempotency-Key against the real app and PostgreSQL: replay, key reuse, scoping, a burst of
 * concurrent retries, what is (not) stored, expiry, purge and the takeover of a dead claim.
 * Products (POST /admin/v1/catalog/products) are the concrete mutation; a few probe routes added
 * to an app of our own stand in for handlers that fail or block on demand.
 */
import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import { issueToken } from '../../src/dev/secrets.js';
import { createApp, type RouteModule } from '../../src/http/app.js';
import type { AppEnv } from '../../src/http/context.js';
import { purgeExpiredIdempotencyKeys } from '../../src/services/idempotency.js';
import { ROUTES } from '../../src/http/routes/index.js';
import { createHarness, useHarness } from '../support/harness.js';

const PRODUCTS = '/admin/v1/catalog/products';
const DAY_MS = 24 * 3_600_000;

const h = useHarness();

const productBody = (name = `idem-${randomUUID()}`) => ({ name, description: 'idempotency test', tags: ['idem'] });
const countProducts = (name: string) => h.deps.db.product.count({ where: { name } });
const errorCode = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

type Caller = { authorization: string } | { 'x-api-key': string };

/** Sends a JSON request to any app built on the harness's secrets. */
function sender(app: Hono<AppEnv>, defaultCaller: () => Caller) {
  return (method: string, path: string, options: { body?: unknown; key?: string; caller?: Caller } = {}) =>
    app.request(path, {
      method,
      headers: {
        ...(options.caller ?? defaultCaller()),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.key !== undefined ? { 'idempotency-key': options.key } : {}),
      },
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
}

const admin = (): Caller => ({ authorization: `Bearer ${h.adminToken}` });
const apiKey = (): Caller => ({ 'x-api-key': h.secrets.api_key });

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('replay', () => {
  it('answers the same key and body with the stored response, marked replayed, and creates one row', async () => {
    const send = sender(h.app, admin);
    const body = productBody();
    const key = randomUUID();
    const first = await send('POST', PRODUCTS, { body, key });
    expect(first.status).toBe(201);
    expect(first.headers.get('x-idempotency-replayed')).toBeNull();
    const firstText = await first.text();

    const second = await send('POST', PRODUCTS, { body, key });
    expect(second.status).toBe(201);
    expect(second.headers.get('x-idempotency-replayed')).toBe('true');
    expect(second.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await second.text()).toBe(firstText);
    expect(second.headers.get('ratelimit-remaining')).not.toBeNull();
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(await countProducts(body.name)).toBe(1);
  });

  it('refuses the same key with another body (422) and keeps replaying the original', async () => {
    const send = sender(h.app, admin);
    const body = productBody();
    const key = randomUUID();
    const created = (await (await send('POST', PRODUCTS, { body, key })).json()) as { id: string };

    const reused = await send('POST', PRODUCTS, { body: { ...body, description: 'changed' }, key });
    expect(reused.status).toBe(422);
    expect(await errorCode(reused)).toBe('idempotency_key_reused');

    const replay = await send('POST', PRODUCTS, { body, key });
    expect(replay.headers.get('x-idempotency-replayed')).toBe('true');
    expect(((await replay.json()) as { id: string }).id).toBe(created.id);
    expect(await countProducts(body.name)).toBe(1);
  });

  it('fingerprints the JSON, not its text: other spacing or key order is the same body, other values are not', async () => {
    const name = `idem-${randomUUID()}`;
    const key = randomUUID();
    const post = (rawBody: string) =>
      h.app.request(PRODUCTS, { method: 'POST', body: rawBody, headers: { ...admin(), 'content-type': 'application/json', 'idempotency-key': key } });
    const first = await post(`{"name":"${name}","description":"d","tags":["a","b"]}`);
    expect(first.status).toBe(201);
    const firstText = await first.text();

    const respaced = await post(`{ "tags" : [ "a", "b" ],\n  "description" : "d",\t"name": "${name}" }`);
    expect(respaced.status).toBe(201);
    expect(respaced.headers.get('x-idempotency-replayed')).toBe('true');
    expect(await respaced.text()).toBe(firstText);
    expect(await countProducts(name)).toBe(1);

    const others = [
      `{"name":"${name}","description":"d","tags":["b","a"]}`,
      `{"name":"${name}","description":"d","tags":["a","b"],"x":null}`,
      `{"name":"${name}","description":"d","tags":["a","b"],"__proto__":{"x":1}}`,
    ];
    for (const other of others) {
      const res = await post(other);
      expect(res.status, other).toBe(422);
      expect(await errorCode(res)).toBe('idempotency_key_reused');
    }
  });

  it('ignores the key on reads', async () => {
    const send = sender(h.app, admin);
    const key = randomUUID();
    for (let i = 0; i < 2; i++) {
      const res = await send('GET', PRODUCTS, { key });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-idempotency-replayed')).toBeNull();
    }
  });
});

describe('scope', () => {
  it('keeps keys of different paths apart', async () => {
    const send = sender(h.app, admin);
    const key = randomUUID();
    const product = await send('POST', PRODUCTS, { body: productBody(), key });
    const plan = await send('POST', '/admin/v1/catalog/plans', { body: { name: `plan-${key}`, billing_cadence: 'Monthly' }, key });
    expect(product.status).toBe(201);
    expect(plan.status).toBe(201);
    expect(plan.headers.get('x-idempotency-replayed')).toBeNull();
  });

  it('keeps keys of different callers apart', async () => {
    const send = sender(h.app, admin);
    const otherAdmin = await issueToken(h.secrets.jwt_secret, { sub: 'another-admin', scope: 'admin' }, 600);
    const body = productBody();
    const key = randomUUID();
    const callers: Caller[] = [admin(), apiKey(), { authorization: `Bearer ${otherAdmin}` }];
    const ids = new Set<string>();
    for (const caller of callers) {
      const res = await send('POST', PRODUCTS, { body, key, caller });
      expect(res.status).toBe(201);
      expect(res.headers.get('x-idempotency-replayed')).toBeNull();
      ids.add(((await res.json()) as { id: string }).id);
    }
    expect(ids.size).toBe(3);
    expect(await countProducts(body.name)).toBe(3);
  });

  it('handles any path, however long or strange, without failing', async () => {
    const send = sender(h.app, admin);
    for (const path of [`${PRODUCTS}%00`, `${PRODUCTS}/${'x'.repeat(10_000)}`, '/admin/v1/%00%ED%A0%80%7C%25']) {
      const res = await send('POST', path, { body: productBody(), key: randomUUID() });
      expect(res.status, path.slice(0, 60)).toBe(404);
      expect(await errorCode(res)).toBe('not_found');
    }
  });
});

describe('concurrency', () => {
  it('runs 20 concurrent requests with one key exactly once', async () => {
    const send = sender(h.app, admin);
    const body = productBody();
    const key = randomUUID();
    const responses = await Promise.all(Array.from({ length: 20 }, () => send('POST', PRODUCTS, { body, key })));
    const ids = new Set<string>();
    for (const res of responses) {
      if (res.status === 201) {
        ids.add(((await res.json()) as { id: string }).id);
      } else {
        expect(res.status).toBe(409);
        expect(res.headers.get('retry-after')).toBe('1');
        expect(await errorCode(res)).toBe('idempotency_key_in_use');
      }
    }
    expect(ids.size).toBe(1);
    expect(await countProducts(body.name)).toBe(1);
    const settled = await send('POST', PRODUCTS, { body, key });
    expect(settled.headers.get('x-idempotency-replayed')).toBe('true');
    expect(((await settled.json()) as { id: string }).id).toBe([...ids][0]);
  });
});

describe('what is stored', () => {
  it('does not store a 400: a corrected body may reuse the key', async () => {
    const send = sender(h.app, admin);
    const key = randomUUID();
    const invalid = await send('POST', PRODUCTS, { body: { name: '' }, key });
    expect(invalid.status).toBe(400);
    const corrected = await send('POST', PRODUCTS, { body: productBody(), key });
    expect(corrected.status).toBe(201);
    expect(corrected.headers.get('x-idempotency-replayed')).toBeNull();
  });

  it('stores other outcomes of a request that ran, such as a 404', async () => {
    const send = sender(h.app, admin);
    const key = randomUUID();
    const body = { customer_id: randomUUID(), plan_id: randomUUID(), currency: 'USD' };
    const first = await send('POST', '/v1/subscriptions', { body, key });
    expect(first.status).toBe(404);
    const firstText = await first.text();
    const replay = await send('POST', '/v1/subscriptions', { body, key });
    expect(replay.status).toBe(404);
    expect(replay.headers.get('x-idempotency-replayed')).toBe('true');
    expect(await replay.text()).toBe(firstText);
  });

  it('does not store a 5xx, returned or thrown: the retry runs', async () => {
    let calls = 0;
    const flaky: RouteModule = (app) => {
      app.post('/admin/v1/probe/flaky', (c) => {
        calls += 1;
        if (calls === 1) return c.json({ failed: true }, 500);
        if (calls === 2) throw new Error('database exploded: secret connection string');
        return c.json({ call: calls }, 201);
      });
    };
    const send = sender(createApp(h.deps, [flaky]), admin);
    const key = randomUUID();
    expect((await send('POST', '/admin/v1/probe/flaky', { body: {}, key })).status).toBe(500);
    const thrown = await send('POST', '/admin/v1/probe/flaky', { body: {}, key });
    expect(thrown.status).toBe(500);
    expect(await errorCode(thrown)).toBe('internal_error');
    const third = await send('POST', '/admin/v1/probe/flaky', { body: {}, key });
    expect(third.status).toBe(201);
    expect(third.headers.get('x-idempotency-replayed')).toBeNull();
    const fourth = await send('POST', '/admin/v1/probe/flaky', { body: {}, key });
    expect(fourth.headers.get('x-idempotency-replayed')).toBe('true');
    expect(await fourth.json()).toEqual({ call: 3 });
    expect(calls).toBe(3);
  });

  it('replays a response without a body', async () => {
    let calls = 0;
    const empty: RouteModule = (app) => {
      app.post('/admin/v1/probe/empty', (c) => {
        calls += 1;
        return c.body(null, 204);
      });
    };
    const send = sender(createApp(h.deps, [empty]), admin);
    const key = randomUUID();
    expect((await send('POST', '/admin/v1/probe/empty', { key })).status).toBe(204);
    const replay = await send('POST', '/admin/v1/probe/empty', { key });
    expect(replay.status).toBe(204);
    expect(replay.headers.get('x-idempotency-replayed')).toBe('true');
    expect(calls).toBe(1);
  });
});

describe('lifetime', () => {
  it('replays until the TTL ends, then runs the request again', async () => {
    const t0 = new Date();
    let now = t0;
    const timed = await createHarness({}, () => now);
    try {
      const send = sender(timed.app, () => ({ 'x-api-key': timed.secrets.api_key }));
      const body = productBody();
      const key = randomUUID();
      const first = (await (await send('POST', PRODUCTS, { body, key })).json()) as { id: string };

      now = new Date(t0.getTime() + DAY_MS - 1_000);
      const replay = await send('POST', PRODUCTS, { body, key });
      expect(replay.headers.get('x-idempotency-replayed')).toBe('true');

      now = new Date(t0.getTime() + DAY_MS);
      const again = await send('POST', PRODUCTS, { body, key });
      expect(again.status).toBe(201);
      expect(again.headers.get('x-idempotency-replayed')).toBeNull();
      expect(((await again.json()) as { id: string }).id).not.toBe(first.id);
      expect(await timed.deps.db.product.count({ where: { name: body.name } })).toBe(2);
    } finally {
      await timed.close();
    }
  });

  it('purges expired completed rows and abandoned claims, and nothing else', async () => {
    const db = h.deps.db;
    const now = new Date('2030-01-01T00:00:00Z');
    const past = new Date(now.getTime() - 1_000);
    const future = new Date(now.getTime() + 1_000);
    const rows = {
      expiredCompleted: { state: 'completed', lockedUntil: null, expiresAt: past },
      expiredAbandoned: { state: 'in_flight', lockedUntil: past, expiresAt: past },
      expiredButRunning: { state: 'in_flight', lockedUntil: future, expiresAt: past },
      liveCompleted: { state: 'completed', lockedUntil: null, expiresAt: future },
    };
    const ids = Object.fromEntries(Object.keys(rows).map((name) => [name, randomUUID()])) as Record<keyof typeof rows, string>;
    for (const [name, row] of Object.entries(rows) as [keyof typeof rows, (typeof rows)[keyof typeof rows]][]) {
      await db.idempotencyKey.create({ data: { id: ids[name], scope: `purge-test-${ids[name]}`, requestHash: 'x', ...row } });
    }
    expect(await purgeExpiredIdempotencyKeys(db, now)).toBeGreaterThanOrEqual(2);
    const left = (await db.idempotencyKey.findMany({ where: { id: { in: Object.values(ids) } } })).map((r) => r.id).sort();
    expect(left).toEqual([ids.expiredButRunning, ids.liveCompleted].sort());
    await db.idempotencyKey.deleteMany({ where: { id: { in: left } } });
  });
});

describe('in-flight claims', () => {
  it('answers 409 while the first request runs, and lets a claim whose lock expired be taken over', async () => {
    const t0 = new Date();
    let now = t0;
    const timed = await createHarness({}, () => now);
    const entered = deferred();
    const unblock = deferred();
    let calls = 0;
    const blocking: RouteModule = (app) => {
      app.post('/admin/v1/probe/blocking', async (c) => {
        calls += 1;
        const call = calls;
        if (call === 1) {
          entered.resolve();
          await unblock.promise;
        }
        return c.json({ call }, 201);
      });
    };
    try {
      const send = sender(createApp(timed.deps, [blocking]), () => ({ 'x-api-key': timed.secrets.api_key }));
      const key = randomUUID();
      const original = send('POST', '/admin/v1/probe/blocking', { body: { n: 1 }, key });
      await entered.promise;

      const busy = await send('POST', '/admin/v1/probe/blocking', { body: { n: 1 }, key });
      expect(busy.status).toBe(409);
      expect(busy.headers.get('retry-after')).toBe('1');
      expect(await errorCode(busy)).toBe('idempotency_key_in_use');
      const otherBody = await send('POST', '/admin/v1/probe/blocking', { body: { n: 2 }, key });
      expect(otherBody.status).toBe(422);

      now = new Date(t0.getTime() + 61_000);
      const takeover = await send('POST', '/admin/v1/probe/blocking', { body: { n: 1 }, key });
      expect(takeover.status).toBe(201);
      expect(takeover.headers.get('x-idempotency-replayed')).toBeNull();
      expect(await takeover.json()).toEqual({ call: 2 });

      unblock.resolve();
      expect(await (await original).json()).toEqual({ call: 1 });

      // The late original must not overwrite the response of the claim that took over.
      const replay = await send('POST', '/admin/v1/probe/blocking', { body: { n: 1 }, key });
      expect(replay.headers.get('x-idempotency-replayed')).toBe('true');
      expect(await replay.json()).toEqual({ call: 2 });
      expect(calls).toBe(2);
    } finally {
      unblock.resolve();
      await timed.close();
    }
  });
});

describe('lock renewal', () => {
  it('renews the lock of a request that runs long, so a retry is refused instead of taking over', async () => {
    const t0 = new Date();
    let now = t0;
    const timed = await createHarness({}, () => now);
    const entered = deferred();
    const unblock = deferred();
    let calls = 0;
    const slow: RouteModule = (app) => {
      app.post('/admin/v1/probe/slow', async (c) => {
        calls += 1;
        entered.resolve();
        await unblock.promise;
        return c.json({ call: calls }, 201);
      });
    };
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const send = sender(createApp(timed.deps, [slow]), () => ({ 'x-api-key': timed.secrets.api_key }));
      const key = randomUUID();
      const original = send('POST', '/admin/v1/probe/slow', { body: {}, key });
      await entered.promise;

      now = new Date(t0.getTime() + 50_000);
      vi.advanceTimersByTime(20_000);
      const claim = { state: 'in_flight', createdAt: t0 };
      await vi.waitFor(async () => {
        const row = await timed.deps.db.idempotencyKey.findFirstOrThrow({ where: claim });
        expect(row.lockedUntil?.getTime()).toBe(now.getTime() + 60_000);
      });

      now = new Date(t0.getTime() + 61_000);
      const retry = await send('POST', '/admin/v1/probe/slow', { body: {}, key });
      expect(retry.status).toBe(409);
      expect(calls).toBe(1);

      unblock.resolve();
      expect((await original).status).toBe(201);
      expect(await timed.deps.db.idempotencyKey.count({ where: claim })).toBe(0);
    } finally {
      vi.useRealTimers();
      unblock.resolve();
      await timed.close();
    }
  });
});

describe('key format', () => {
  it.each([
    ['empty', '', 400],
    ['blank', '   ', 400],
    ['256 characters', 'k'.repeat(256), 400],
    ['255 characters', 'k'.repeat(255), 201],
    ['1 character', 'k', 201],
  ])('%s → %s', async (_name, key, status) => {
    const send = sender(h.app, admin);
    const res = await send('POST', PRODUCTS, { body: productBody(), key });
    expect(res.status).toBe(status);
    if (status === 400) expect(await errorCode(res)).toBe('invalid_idempotency_key');
  });
});
