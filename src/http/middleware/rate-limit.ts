/**
 * Token-bucket rate limiter per caller (principal subject, else client address), in process memory
 * bounded by maxBuckets: each API instance enforces its own buckets. Every response carries
 * RateLimit-Limit and RateLimit-Remaining; a refused request gets 429 with Retry-After (seconds)
 * and RateLimit-Reset. Requests refused by authentication never reach it.
 */
import type { MiddlewareHandler } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { ApiError } from '../errors.js';
import type { AppEnv } from '../context.js';

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

function clientAddress(c: Parameters<MiddlewareHandler<AppEnv>>[0]): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export function rateLimitMiddleware(): MiddlewareHandler<AppEnv> {
  let buckets: TokenBuckets | undefined;
  return async (c, next) => {
    const { settings, clock } = c.get('deps');
    buckets ??= new TokenBuckets(settings.rateLimit.ratePerSecond, settings.rateLimit.burst);
    const principal = c.get('principal');
    const key = principal ? `${principal.kind}:${principal.subject}` : `ip:${clientAddress(c)}`;
    const result = buckets.take(key, clock().getTime());
    c.header('RateLimit-Limit', String(settings.rateLimit.burst));
    if (!result.allowed) {
      throw new ApiError(429, 'rate_limited', 'too many requests', { retry_after_seconds: result.retryAfterSeconds }, {
        'Retry-After': String(result.retryAfterSeconds),
        'RateLimit-Remaining': '0',
        'RateLimit-Reset': String(result.retryAfterSeconds),
      });
    }
    c.header('RateLimit-Remaining', String(result.remaining));
    return next();
  };
}
