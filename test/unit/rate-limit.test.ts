/**
 * TokenBuckets with an injected clock: burst, refill, the cap at burst, Retry-After and the bound on
 * memory. The middleware's headers and 429 envelope are covered in test/http/rate-limit.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TokenBuckets } from '../../src/http/middleware/rate-limit.js';

const T0 = 1_000_000;

function drain(buckets: TokenBuckets, key: string, nowMs: number): number {
  let taken = 0;
  while (buckets.take(key, nowMs).allowed) taken += 1;
  return taken;
}

describe('TokenBuckets', () => {
  it('allows a burst, counting remaining tokens down, then refuses', () => {
    const buckets = new TokenBuckets(1, 5);
    const remaining = [1, 2, 3, 4, 5].map(() => buckets.take('a', T0));
    expect(remaining).toEqual([4, 3, 2, 1, 0].map((r) => ({ allowed: true, remaining: r })));
    expect(buckets.take('a', T0)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('refills at the configured rate', () => {
    const buckets = new TokenBuckets(2, 4);
    expect(drain(buckets, 'a', T0)).toBe(4);
    expect(buckets.take('a', T0 + 499).allowed).toBe(false);
    expect(buckets.take('a', T0 + 500)).toEqual({ allowed: true, remaining: 0 });
    expect(buckets.take('a', T0 + 500).allowed).toBe(false);
    expect(drain(buckets, 'a', T0 + 1500)).toBe(2);
  });

  it('never holds more than the burst, however long it rests', () => {
    const buckets = new TokenBuckets(10, 3);
    expect(drain(buckets, 'a', T0)).toBe(3);
    expect(drain(buckets, 'a', T0 + 3_600_000)).toBe(3);
  });

  it('computes Retry-After as the whole seconds until one token is back', () => {
    const slow = new TokenBuckets(0.1, 1);
    expect(slow.take('a', T0).allowed).toBe(true);
    expect(slow.take('a', T0)).toEqual({ allowed: false, retryAfterSeconds: 10 });
    expect(slow.take('a', T0 + 2_500)).toEqual({ allowed: false, retryAfterSeconds: 8 });
    expect(slow.take('a', T0 + 10_000).allowed).toBe(true);

    const fast = new TokenBuckets(100, 1);
    fast.take('a', T0);
    expect(fast.take('a', T0)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('a clock that steps back neither refills nor breaks the bucket', () => {
    const buckets = new TokenBuckets(1, 2);
    expect(drain(buckets, 'a', T0)).toBe(2);
    expect(buckets.take('a', T0 - 60_000).allowed).toBe(false);
    expect(buckets.take('a', T0 + 1_000).allowed).toBe(true);
  });

  it('keeps one bucket per key', () => {
    const buckets = new TokenBuckets(1, 2);
    expect(drain(buckets, 'a', T0)).toBe(2);
    expect(buckets.take('b', T0)).toEqual({ allowed: true, remaining: 1 });
  });

  it('evicts full buckets first, keeping the state of callers still limited', () => {
    const buckets = new TokenBuckets(1, 2, 3);
    buckets.take('idle-1', T0);
    buckets.take('idle-2', T0);
    expect(drain(buckets, 'limited', T0 + 9_000)).toBe(2);
    expect(buckets.size).toBe(3);
    // At T0 + 9 s the idle buckets have refilled; the limited one has not.
    expect(buckets.take('newcomer', T0 + 9_000).allowed).toBe(true);
    expect(buckets.size).toBe(2);
    expect(buckets.take('limited', T0 + 9_000).allowed).toBe(false);
  });

  it('stays within maxBuckets even when no bucket is full, dropping the least recently used', () => {
    const buckets = new TokenBuckets(1, 2, 10);
    for (let i = 0; i < 10; i++) drain(buckets, `k${i}`, T0);
    buckets.take('k0', T0); // k0 is now the most recently used
    buckets.take('k10', T0);
    expect(buckets.size).toBeLessThanOrEqual(10);
    expect(buckets.take('k0', T0).allowed).toBe(false);
    expect(buckets.take('k1', T0)).toEqual({ allowed: true, remaining: 1 });
  });

  it('never exceeds ratePerSecond × elapsed + burst (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.1, max: 50, noNaN: true }),
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.integer({ min: 0, max: 3_000 }), { minLength: 1, maxLength: 200 }),
        (rate, burst, gaps) => {
          const buckets = new TokenBuckets(rate, burst);
          let now = T0;
          let allowed = 0;
          for (const gap of gaps) {
            now += gap;
            if (buckets.take('k', now).allowed) allowed += 1;
          }
          expect(allowed).toBeLessThanOrEqual(Math.floor(burst + (rate * (now - T0)) / 1000) + 1e-9);
        },
      ),
      { seed: 20261122, numRuns: 200 },
    );
  });
});
