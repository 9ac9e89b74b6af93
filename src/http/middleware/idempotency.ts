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
 * - Claims, their lock renewal, take-overs of dead claims and the purge of expired rows are the
 *   idempotency service's (src/services/idempotency.ts).
 */
import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode, StatusCode } from 'hono/utils/http-status';
import {
  claimIdempotencyKey,
  keepClaimLocked,
  releaseIdempotencyKey,
  storeIdempotentResponse,
} from '../../services/idempotency.js';
import { ApiError } from '../errors.js';
import type { AppEnv } from '../context.js';
import { BODY_METHODS, isFormBody } from './json-body.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'X-Idempotency-Replayed';
const MAX_KEY_LENGTH = 255;
const STORED_HEADERS = ['content-type', 'location'];
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

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

/**
 * A request's fingerprint: the canonical JSON of bodies the JSON body middleware parsed and bounded,
 * else the raw text (a hosted page's HTML form, the one other body it lets through).
 */
const fingerprint = (method: string, contentType: string | undefined, body: string): string =>
  sha256Hex(BODY_METHODS.has(method) && body.length > 0 && !isFormBody(contentType) ? canonicalJson(JSON.parse(body)) : body);

/** The row key of one caller's use of one Idempotency-Key on one method + path. */
function idempotencyScope(caller: string, method: string, path: string, key: string): string {
  return sha256Hex(JSON.stringify([caller, method, path, key]));
}

/** Whether a response is kept for replay (see the module comment). */
const isStored = (status: number): boolean => status < 500 && status !== 400;

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
    const requestHash = fingerprint(c.req.method, c.req.header('content-type'), await c.req.text());

    const claim = await claimIdempotencyKey(db, { scope, requestHash, now: clock(), ttlMs: settings.idempotencyTtlMs });
    if (claim.kind === 'reused') {
      throw new ApiError('idempotency_key_reused', 'this Idempotency-Key was already used with a different request body');
    }
    if (claim.kind === 'completed') {
      const { status, body, headers: storedHeaders } = claim.response;
      // Through c.body, so headers other middleware already set (rate limit) stay on the replay.
      const headers = { ...(storedHeaders ?? {}), [REPLAYED_HEADER]: 'true' };
      return NULL_BODY_STATUSES.has(status)
        ? c.body(null, status as StatusCode, headers)
        : c.body(body ?? '', status as ContentfulStatusCode, headers);
    }
    if (claim.kind === 'in_use') {
      throw new ApiError('idempotency_key_in_use', 'a request with this Idempotency-Key is still being processed', undefined, {
        'Retry-After': '1',
      });
    }
    const { claimId } = claim;

    const stopRenewing = keepClaimLocked(db, claimId, clock, c.get('logger'));
    try {
      await next();
    } catch (err) {
      await releaseIdempotencyKey(db, claimId);
      throw err;
    } finally {
      stopRenewing();
    }
    const res = c.res;
    if (!isStored(res.status)) {
      await releaseIdempotencyKey(db, claimId);
      return;
    }
    const responseBody = await res.clone().text();
    const headers: Record<string, string> = {};
    for (const name of STORED_HEADERS) {
      const value = res.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    const stored = await storeIdempotentResponse(db, claimId, { status: res.status, body: responseBody, headers });
    if (!stored) c.get('logger').warn({ status: res.status }, 'idempotency claim was taken over while the request ran; response not stored');
  };
}
