/**
 * Token-bucket rate limiting, in process memory bounded by maxBuckets: each API instance enforces
 * its own buckets. Two stages:
 * - before authentication, per client address (anonymousRateLimit): every request that ends up
 *   without a principal, i.e. on a public or signature-authenticated route, without credentials, or
 *   with credentials authentication refuses. So guessing credentials is limited too;
 * - after authentication, per caller (rateLimit): every request with a principal.
 * Every response carries RateLimit-Limit and RateLimit-Remaining of the bucket that counted it; a
 * refused request gets 429 rate_limited with Retry-After (seconds) and RateLimit-Reset.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { ApiError } from '../errors.js';
import type { AppEnv } from '../context.js';
import { routeAccess } from './auth.js';

interface Bucket {
  tokens: number;
  updatedMs: number;
}

export class TokenBuckets {
  /** In least-recently-used order: every take moves its bucket to the end. */
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly maxBuckets = 100_000,
  ) {}

  /** Number of callers currently tracked (never more than maxBuckets). */
  get size(): number {
    return this.buckets.size;
  }

  /** Takes one token; returns the tokens left, or the seconds to wait when the bucket is empty. */
  take(key: string, nowMs: number): { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number } {
    let bucket = this.buckets.get(key);
    if (bucket) {
      this.buckets.delete(key);
    } else {
      if (this.buckets.size >= this.maxBuckets) this.evict(nowMs);
      bucket = { tokens: this.burst, updatedMs: nowMs };
    }
    this.buckets.set(key, bucket);
    const elapsed = Math.max(0, nowMs - bucket.updatedMs) / 1000;
    bucket.tokens = Math.min(this.burst, bucket.tokens + elapsed * this.ratePerSecond);
    bucket.updatedMs = Math.max(bucket.updatedMs, nowMs);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, remaining: Math.floor(bucket.tokens) };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.ratePerSecond)) };
  }

  /**
   * Buckets that have refilled completely carry no information and go first. If that leaves less
   * than a tenth of the room free (many distinct callers, all active), the least recently used go
   * until it does: those callers get a fresh burst, which beats unbounded memory, and a sweep runs
   * at most once per tenth of maxBuckets new callers.
   */
  private evict(nowMs: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (Math.max(0, nowMs - bucket.updatedMs) / 1000) * this.ratePerSecond >= this.burst) this.buckets.delete(key);
    }
    let excess = this.buckets.size - Math.floor(this.maxBuckets * 0.9);
    for (const key of this.buckets.keys()) {
      if (excess-- <= 0) break;
      this.buckets.delete(key);
    }
  }
}

function clientAddress(c: Context<AppEnv>): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Takes a token of key's bucket: sets the RateLimit headers, or throws the 429. */
function charge(c: Context<AppEnv>, buckets: TokenBuckets, burst: number, key: string): void {
  const result = buckets.take(key, c.get('deps').clock().getTime());
  c.header('RateLimit-Limit', String(burst));
  if (!result.allowed) {
    throw new ApiError('rate_limited', 'too many requests', { retry_after_seconds: result.retryAfterSeconds }, {
      'Retry-After': String(result.retryAfterSeconds),
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': String(result.retryAfterSeconds),
    });
  }
  c.header('RateLimit-Remaining', String(result.remaining));
}

/**
 * Runs before authentication. Requests that cannot get a principal (public and signature routes, no
 * credentials) are counted up front, before any work; requests with credentials are counted once
 * authentication has refused them, and once the address's bucket is empty they get 429 instead of
 * 401. A caller whose credentials verify never touches this bucket, whatever others at its address do.
 */
export function anonymousRateLimitMiddleware(): MiddlewareHandler<AppEnv> {
  let buckets: TokenBuckets | undefined;
  return async (c, next) => {
    const { ratePerSecond, burst } = c.get('deps').settings.anonymousRateLimit;
    buckets ??= new TokenBuckets(ratePerSecond, burst);
    const key = clientAddress(c);
    const access = routeAccess(c.req.path);
    const presentsCredentials = c.req.header('authorization') !== undefined || c.req.header('x-api-key') !== undefined;
    if (access === 'public' || access === 'signature' || !presentsCredentials) {
      charge(c, buckets, burst, key);
      return next();
    }
    await next();
    // Authentication sets the principal once the credentials verify; without one it refused them (and nothing else ran).
    if (c.get('principal') === undefined) charge(c, buckets, burst, key);
  };
}

/** Runs after authentication: one bucket per authenticated caller. */
export function rateLimitMiddleware(): MiddlewareHandler<AppEnv> {
  let buckets: TokenBuckets | undefined;
  return async (c, next) => {
    const principal = c.get('principal');
    if (!principal) return next();
    const { ratePerSecond, burst } = c.get('deps').settings.rateLimit;
    buckets ??= new TokenBuckets(ratePerSecond, burst);
    charge(c, buckets, burst, `${principal.kind}:${principal.subject}`);
    return next();
  };
}
