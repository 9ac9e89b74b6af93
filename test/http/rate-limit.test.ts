/**
 * The rate limiter in the real app, with a frozen clock so refills happen only when the test moves
 * time: headers on every response, 429 with Retry-After and the envelope, one bucket per caller.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../src/dev/secrets.js';
import { createHarness, type Harness } from '../support/harness.js';

const PRODUCTS = '/admin/v1/catalog/products';
const T0 = new Date();

let h: Harness;
let now = T0;
beforeAll(async () => {
  h = await createHarness({ rateLimit: { ratePerSecond: 1, burst: 5 } }, () => now);
});
afterAll(async () => {
  await h?.close();
});

const token = (sub: string) => issueToken(h.secrets.jwt_secret, { sub, scope: 'admin' }, 3600, T0);

describe('rate limit', () => {
  it('allows the burst with RateLimit headers, then answers 429 with Retry-After; each caller has its own bucket', async () => {
    const first = await token('rate-caller-1');
    for (const remaining of [4, 3, 2, 1, 0]) {
      const res = await h.request('GET', PRODUCTS, { as: { token: first } });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('5');
      expect(res.headers.get('ratelimit-remaining')).toBe(String(remaining));
    }

    const refused = await h.request('GET', PRODUCTS, { as: { token: first } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('ratelimit-limit')).toBe('5');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('ratelimit-reset')).toBe('1');
    const body = (await refused.json()) as { error: { code: string; request_id: string; details: unknown } };
    expect(body.error).toMatchObject({ code: 'rate_limited', details: { retry_after_seconds: 1 } });
    expect(body.error.request_id).toBe(refused.headers.get('x-request-id'));

    const other = await h.request('GET', PRODUCTS, { as: { token: await token('rate-caller-2') } });
    expect(other.status).toBe(200);
    expect(other.headers.get('ratelimit-remaining')).toBe('4');
    const byKey = await h.request('GET', PRODUCTS, { as: 'api_key' });
    expect(byKey.status).toBe(200);
    expect(byKey.headers.get('ratelimit-remaining')).toBe('4');

    now = new Date(T0.getTime() + 1_000);
    const refilled = await h.request('GET', PRODUCTS, { as: { token: first } });
    expect(refilled.status).toBe(200);
    expect(refilled.headers.get('ratelimit-remaining')).toBe('0');
    expect((await h.request('GET', PRODUCTS, { as: { token: first } })).status).toBe(429);
  });

  it('counts failed requests too, and writes do not bypass the limit', async () => {
    const caller = await token('rate-caller-3');
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await h.request('GET', `${PRODUCTS}/${randomUUID()}`, { as: { token: caller } })).status);
    for (let i = 0; i < 2; i++) statuses.push((await h.request('POST', PRODUCTS, { as: { token: caller }, body: { name: '' } })).status);
    expect(statuses).toEqual([404, 404, 404, 400, 400]);
    const refused = await h.request('POST', PRODUCTS, { as: { token: caller }, body: { name: 'rate-limited product' } });
    expect(refused.status).toBe(429);
    expect(await h.deps.db.product.count({ where: { name: 'rate-limited product' } })).toBe(0);
  });

  it('limits anonymous callers of public routes by client address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await h.request('GET', '/openapi.json', { as: 'none' })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
