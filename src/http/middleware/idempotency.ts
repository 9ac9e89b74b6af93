/**
 * Idempotency-Key on mutating requests (SPEC §1 rule 4), backed by the idempotency_keys table.
 * - Scope: caller + method + path + key. The request fingerprint is the SHA-256 of the raw body.
 * - First request claims the key (row in state in_flight, a unique constraint decides the race),
 *   runs, and stores its response unless it is a 5xx (those are released so a retry can run).
 * - A replay within 24 h returns the stored status/body with `X-Idempotency-Replayed: true`.
 * - The same key with another body → 422 idempotency_key_reused; while the first request is still
 *   running → 409 idempotency_key_in_use with Retry-After (never two executions).
 * - An in_flight claim whose lock expired (its process died) may be taken over; expired keys are
 *   purged by purgeExpiredIdempotencyKeys.
 */
import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { Db } from '../../db/client.js';
import { newId } from '../../ids.js';
import { ApiError } from '../errors.js';
import type { AppEnv } from '../context.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'X-Idempotency-Replayed';
const MAX_KEY_LENGTH = 255;
const IN_FLIGHT_LOCK_MS = 60_000;
const STORED_HEADERS = ['content-type', 'location'];
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface StoredKey {
  request_hash: string;
  state: string;
  response_status: number | null;
  response_body: string | null;
  response_headers: Record<string, string> | null;
  expired: boolean;
  lock_expired: boolean;
}

async function claim(db: Db, scope: string, requestHash: string, now: Date, ttlMs: number): Promise<boolean> {
  const inserted = await db.$executeRaw`
    INSERT INTO idempotency_keys (id, scope, request_hash, state, created_at, locked_until, expires_at)
    VALUES (${newId()}::uuid, ${scope}, ${requestHash}, 'in_flight', ${now}, ${new Date(now.getTime() + IN_FLIGHT_LOCK_MS)},
            ${new Date(now.getTime() + ttlMs)})
    ON CONFLICT (scope) DO NOTHING`;
  return inserted === 1;
}

async function load(db: Db, scope: string, now: Date): Promise<StoredKey | undefined> {
  const rows = await db.$queryRaw<StoredKey[]>`
    SELECT request_hash, state, response_status, response_body, response_headers,
           expires_at <= ${now} AS expired, (state = 'in_flight' AND locked_until <= ${now}) AS lock_expired
    FROM idempotency_keys WHERE scope = ${scope}`;
  return rows[0];
}

/** Takes over a key whose stored response expired or whose in-flight owner died. */
async function takeOver(db: Db, scope: string, requestHash: string, now: Date, ttlMs: number): Promise<boolean> {
  const updated = await db.$executeRaw`
    UPDATE idempotency_keys
    SET request_hash = ${requestHash}, state = 'in_flight', response_status = NULL, response_body = NULL,
        response_headers = NULL, created_at = ${now}, locked_until = ${new Date(now.getTime() + IN_FLIGHT_LOCK_MS)},
        expires_at = ${new Date(now.getTime() + ttlMs)}
    WHERE scope = ${scope} AND (expires_at <= ${now} OR (state = 'in_flight' AND locked_until <= ${now}))`;
  return updated === 1;
}

export async function purgeExpiredIdempotencyKeys(db: Db, now: Date): Promise<number> {
  return db.$executeRaw`DELETE FROM idempotency_keys WHERE expires_at <= ${now} AND state = 'completed'`;
}

export function idempotencyMiddleware(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header(IDEMPOTENCY_HEADER);
    if (key === undefined || !MUTATING.has(c.req.method)) return next();
    if (key.trim().length === 0 || key.length > MAX_KEY_LENGTH) {
      throw new ApiError(400, 'invalid_idempotency_key', `Idempotency-Key must be 1-${MAX_KEY_LENGTH} characters`);
    }
    const { db, settings, clock } = c.get('deps');
    const principal = c.get('principal');
    const caller = principal ? `${principal.kind}:${principal.subject}` : 'anonymous';
    const scope = `${caller}|${c.req.method}|${c.req.path}|${key}`;
    const body = await c.req.text();
    const requestHash = createHash('sha256').update(body, 'utf8').digest('hex');
    const now = clock();

    let owned = await claim(db, scope, requestHash, now, settings.idempotencyTtlMs);
    if (!owned) {
      const stored = await load(db, scope, now);
      if (!stored || stored.expired || stored.lock_expired) {
        owned = stored ? await takeOver(db, scope, requestHash, now, settings.idempotencyTtlMs) : await claim(db, scope, requestHash, now, settings.idempotencyTtlMs);
      } else if (stored.request_hash !== requestHash) {
        throw new ApiError(422, 'idempotency_key_reused', 'this Idempotency-Key was already used with a different request body');
      } else if (stored.state === 'completed' && stored.response_status !== null) {
        const headers: Record<string, string> = { ...(stored.response_headers ?? {}), [REPLAYED_HEADER]: 'true' };
        return new Response(stored.response_body, { status: stored.response_status, headers });
      }
      if (!owned) {
        throw new ApiError(409, 'idempotency_key_in_use', 'a request with this Idempotency-Key is still being processed', undefined, {
          'Retry-After': '1',
        });
      }
    }

    try {
      await next();
    } catch (err) {
      await db.$executeRaw`DELETE FROM idempotency_keys WHERE scope = ${scope} AND state = 'in_flight'`;
      throw err;
    }
    const res = c.res;
    if (res.status >= 500) {
      await db.$executeRaw`DELETE FROM idempotency_keys WHERE scope = ${scope} AND state = 'in_flight'`;
      return;
    }
    const responseBody = await res.clone().text();
    const headers: Record<string, string> = {};
    for (const name of STORED_HEADERS) {
      const value = res.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    await db.$executeRaw`
      UPDATE idempotency_keys
      SET state = 'completed', response_status = ${res.status}, response_body = ${responseBody},
          response_headers = ${JSON.stringify(headers)}::jsonb, locked_until = NULL
      WHERE scope = ${scope}`;
  };
}
