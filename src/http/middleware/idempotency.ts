/**
 * Idempotency-Key on mutating requests (SPEC §1 rule 4), backed by the idempotency_keys table.
 * - Scope: caller + method + path + key, stored as a SHA-256 (paths are unbounded and may hold any
 *   character). The request fingerprint is the SHA-256 of the body's canonical JSON (keys sorted,
 *   no whitespace), so the same JSON sent with other spacing or key order is the same request.
 * - The first request claims the key (row in state in_flight, a unique constraint decides the race)
 *   and runs. Its response is stored unless it is a 5xx (a failure: released so a retry can run) or a
 *   400 (the request was refused as invalid before it ran: released so a corrected retry may reuse
 *   the key). Every other outcome, 4xx included, happened and is replayed as it was.
 * - A replay within the TTL (24 h) returns the stored status and body, byte for byte, with
 *   `X-Idempotency-Replayed: true` (its X-Request-Id is the replay's own).
 * - The same key with another body → 422 idempotency_key_reused; while the first request is still
 *   running → 409 idempotency_key_in_use with Retry-After (never two executions).
 * - While a request runs, its claim's lock is renewed every IN_FLIGHT_LOCK_MS / 3, so only a claim
 *   whose process died lets its lock expire; such a claim may be taken over. The claim id is a
 *   fencing token, so a late original owner can no longer overwrite or release the new claim.
 *   Expired rows are purged by purgeExpiredIdempotencyKeys.
 */
import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status';
import type { Db } from '../../db/client.js';
import { newId } from '../../ids.js';
import { ApiError } from '../errors.js';
import type { AppEnv } from '../context.js';
import { BODY_METHODS } from './json-body.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'X-Idempotency-Replayed';
const MAX_KEY_LENGTH = 255;
const IN_FLIGHT_LOCK_MS = 60_000;
const STORED_HEADERS = ['content-type', 'location'];
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

interface StoredKey {
  request_hash: string;
  state: string;
  response_status: number | null;
  response_body: string | null;
  response_headers: Record<string, string> | null;
  expired: boolean;
  lock_expired: boolean;
}

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * A parsed JSON value as text with object keys sorted and no whitespace. Built as text, never as
 * objects, so keys such as "__proto__" stay plain keys; the JSON body middleware has already bounded
 * the nesting depth.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, v]) => `${JSON.stringify(key)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A request's fingerprint: the canonical JSON of bodies the JSON body middleware parsed and bounded, else the raw text. */
const fingerprint = (method: string, body: string): string =>
  sha256Hex(BODY_METHODS.has(method) && body.length > 0 ? canonicalJson(JSON.parse(body)) : body);

/** The row key of one caller's use of one Idempotency-Key on one method + path. */
function idempotencyScope(caller: string, method: string, path: string, key: string): string {
  return sha256Hex(JSON.stringify([caller, method, path, key]));
}

/** Whether a response is kept for replay (see the module comment). */
const isStored = (status: number): boolean => status < 500 && status !== 400;

/** Inserts a fresh claim; returns its id, or undefined when the scope is already taken. */
async function claim(db: Db, scope: string, requestHash: string, now: Date, ttlMs: number): Promise<string | undefined> {
  const id = newId();
  const inserted = await db.$executeRaw`
    INSERT INTO idempotency_keys (id, scope, request_hash, state, created_at, locked_until, expires_at)
    VALUES (${id}::uuid, ${scope}, ${requestHash}, 'in_flight', ${now}, ${new Date(now.getTime() + IN_FLIGHT_LOCK_MS)},
            ${new Date(now.getTime() + ttlMs)})
    ON CONFLICT (scope) DO NOTHING`;
  return inserted === 1 ? id : undefined;
}

async function load(db: Db, scope: string, now: Date): Promise<StoredKey | undefined> {
  const rows = await db.$queryRaw<StoredKey[]>`
    SELECT request_hash, state, response_status, response_body, response_headers,
           expires_at <= ${now} AS expired, (state = 'in_flight' AND locked_until <= ${now}) AS lock_expired
    FROM idempotency_keys WHERE scope = ${scope}`;
  return rows[0];
}

/** Takes over a key whose stored response expired or whose in-flight owner died, under a new claim id. */
async function takeOver(db: Db, scope: string, requestHash: string, now: Date, ttlMs: number): Promise<string | undefined> {
  const id = newId();
  const updated = await db.$executeRaw`
    UPDATE idempotency_keys
    SET id = ${id}::uuid, request_hash = ${requestHash}, state = 'in_flight', response_status = NULL, response_body = NULL,
        response_headers = NULL, created_at = ${now}, locked_until = ${new Date(now.getTime() + IN_FLIGHT_LOCK_MS)},
        expires_at = ${new Date(now.getTime() + ttlMs)}
    WHERE scope = ${scope} AND (expires_at <= ${now} OR (state = 'in_flight' AND locked_until <= ${now}))`;
  return updated === 1 ? id : undefined;
}

/** Keeps a running request's claim locked; returns the function that stops renewing. */
function renewLock(db: Db, claimId: string, clock: () => Date, logger: { warn: (o: object, m: string) => void }): () => void {
  const timer = setInterval(() => {
    db.$executeRaw`
      UPDATE idempotency_keys SET locked_until = ${new Date(clock().getTime() + IN_FLIGHT_LOCK_MS)}
      WHERE id = ${claimId}::uuid AND state = 'in_flight'`.catch((err: unknown) => logger.warn({ err }, 'idempotency lock renewal failed'));
  }, IN_FLIGHT_LOCK_MS / 3);
  timer.unref();
  return () => clearInterval(timer);
}

async function release(db: Db, claimId: string): Promise<void> {
  await db.$executeRaw`DELETE FROM idempotency_keys WHERE id = ${claimId}::uuid AND state = 'in_flight'`;
}

/** Deletes expired rows: completed ones, and in-flight ones whose owner is gone. */
export async function purgeExpiredIdempotencyKeys(db: Db, now: Date): Promise<number> {
  return db.$executeRaw`
    DELETE FROM idempotency_keys
    WHERE expires_at <= ${now} AND (state = 'completed' OR locked_until <= ${now})`;
}

export function idempotencyMiddleware(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header(IDEMPOTENCY_HEADER);
    if (key === undefined || !MUTATING.has(c.req.method)) return next();
    if (key.trim().length === 0 || key.length > MAX_KEY_LENGTH) {
      throw new ApiError('invalid_idempotency_key', `Idempotency-Key must be 1-${MAX_KEY_LENGTH} characters`);
    }
    const { db, settings, clock } = c.get('deps');
    const principal = c.get('principal');
    const caller = principal ? `${principal.kind}:${principal.subject}` : 'anonymous';
    const scope = idempotencyScope(caller, c.req.method, c.req.path, key);
    const requestHash = fingerprint(c.req.method, await c.req.text());
    const now = clock();

    let claimId = await claim(db, scope, requestHash, now, settings.idempotencyTtlMs);
    if (!claimId) {
      const stored = await load(db, scope, now);
      if (!stored || stored.expired || stored.lock_expired) {
        claimId = stored
          ? await takeOver(db, scope, requestHash, now, settings.idempotencyTtlMs)
          : await claim(db, scope, requestHash, now, settings.idempotencyTtlMs);
      } else if (stored.request_hash !== requestHash) {
        throw new ApiError('idempotency_key_reused', 'this Idempotency-Key was already used with a different request body');
      } else if (stored.state === 'completed' && stored.response_status !== null) {
        // Through c.body, so headers other middleware already set (rate limit) stay on the replay.
        const headers = { ...(stored.response_headers ?? {}), [REPLAYED_HEADER]: 'true' };
        return NULL_BODY_STATUSES.has(stored.response_status)
          ? c.body(null, stored.response_status as StatusCode, headers)
          : c.body(stored.response_body ?? '', stored.response_status as ContentfulStatusCode, headers);
      }
      if (!claimId) {
        throw new ApiError('idempotency_key_in_use', 'a request with this Idempotency-Key is still being processed', undefined, {
          'Retry-After': '1',
        });
      }
    }

    const stopRenewing = renewLock(db, claimId, clock, c.get('logger'));
    try {
      await next();
    } catch (err) {
      await release(db, claimId);
      throw err;
    } finally {
      stopRenewing();
    }
    const res = c.res;
    if (!isStored(res.status)) {
      await release(db, claimId);
      return;
    }
    const responseBody = await res.clone().text();
    const headers: Record<string, string> = {};
    for (const name of STORED_HEADERS) {
      const value = res.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    const stored = await db.$executeRaw`
      UPDATE idempotency_keys
      SET state = 'completed', response_status = ${res.status}, response_body = ${responseBody},
          response_headers = ${JSON.stringify(headers)}::jsonb, locked_until = NULL
      WHERE id = ${claimId}::uuid AND state = 'in_flight'`;
    if (stored === 0) c.get('logger').warn({ status: res.status }, 'idempotency claim was taken over while the request ran; response not stored');
  };
}
