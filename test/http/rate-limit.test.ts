/**
 * The rate limiter in the real app, with a frozen clock so refills happen only when the test moves
 * time: headers on every response, 429 with Retry-After and the envelope, one bucket per caller, and
 * one per client address for requests without valid credentials.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { issueToken } from '../../src/dev/secrets.js';
import { useHarness } from '../support/harness.js';

const PRODUCTS = '/admin/v1/catalog/products';
const T0 = new Date();

let now = T0;
const h = useHarness({ rateLimit: { ratePerSecond: 1, burst: 5 }, anonymousRateLimit: { ratePerSecond: 1, burst: 3 } }, () => now);

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

  /** Moves the clock far enough for every bucket to be full again. */
  const refillAll = () => {
    now = new Date(now.getTime() + 60_000);
  };

  it('limits anonymous callers of public routes by client address', async () => {
    refillAll();
    const responses = [];
    for (let i = 0; i < 4; i++) responses.push(await h.request('GET', '/openapi.json', { as: 'none' }));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(responses.map((r) => r.headers.get('ratelimit-limit'))).toEqual(['3', '3', '3', '3']);
    expect(responses.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['2', '1', '0', '0']);
  });

  it('limits requests with refused credentials by client address, never a caller whose credentials verify', async () => {
    refillAll();
    const forged = await issueToken('another-secret-of-at-least-32-characters', { sub: 'guesser', scope: 'admin' }, 3600, T0);
    const attempts = [];
    for (let i = 0; i < 3; i++) attempts.push(await h.request('GET', PRODUCTS, { as: { token: forged } }));
    expect(attempts.map((r) => r.status)).toEqual([401, 401, 401]);
    expect(attempts.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['2', '1', '0']);

    // The address's bucket is empty: any further guess, by token, key or nothing at all, is refused.
    const refused = [
      await h.request('GET', PRODUCTS, { as: { token: forged } }),
      await h.request('GET', PRODUCTS, { headers: { 'x-api-key': `bsk_test_${'Z'.repeat(32)}` }, as: 'none' }),
      await h.request('GET', PRODUCTS, { as: 'none' }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.headers.get('ratelimit-limit')).toBe('3');
      expect(res.headers.get('ratelimit-remaining')).toBe('0');
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    }

    // From the same address, valid credentials still pass, counted in their own caller's bucket.
    const valid = await h.request('GET', PRODUCTS, { as: { token: await token('rate-caller-4') } });
    expect(valid.status).toBe(200);
    expect(valid.headers.get('ratelimit-limit')).toBe('5');
    expect(valid.headers.get('ratelimit-remaining')).toBe('4');
    expect((await h.request('GET', PRODUCTS, { as: 'api_key' })).status).toBe(200);
    // Verified credentials without the scope are refused for the scope, not counted as a guess.
    expect((await h.request('GET', PRODUCTS, { as: { customer: randomUUID() } })).status).toBe(403);

    now = new Date(now.getTime() + 1_000);
    expect((await h.request('GET', PRODUCTS, { as: { token: forged } })).status).toBe(401);
  });
});
