/**
 * Idempotency keys (SPEC §1 rule 4): claiming a key for a request, keeping the claim alive while
 * the request runs, and storing or releasing it afterwards. The HTTP middleware decides what is
 * stored and renders the outcomes; the rows live in the idempotency key repository.
 *
 * - The first request claims the key (a row in state in_flight) and runs; a request that finds the
 *   key claimed gets the stored response (same request), a refusal (another request body) or, while
 *   the first one still runs, "in use". Never two executions.
 * - While a request runs, its claim's lock is renewed every IN_FLIGHT_LOCK_MS / 3, so only a claim
 *   whose process died lets its lock expire; such a claim, or a stored response past its TTL, may
 *   be taken over under a new claim id (the fencing token).
 */
import type { Db } from '../db/client.js';
import {
  completeClaim,
  deleteClaim,
  deleteExpiredKeys,
  extendClaimLock,
  findKey,
  insertClaim,
  takeOverClaim,
  type NewClaim,
} from '../db/idempotency.js';
import { newId } from '../ids.js';

const IN_FLIGHT_LOCK_MS = 60_000;

export interface StoredResponse {
  status: number;
  body: string | null;
  headers: Record<string, string> | null;
}

export type ClaimOutcome =
  | { kind: 'claimed'; claimId: string }
  /** The same request already completed: replay its response. */
  | { kind: 'completed'; response: StoredResponse }
  /** The key was used with another request body. */
  | { kind: 'reused' }
  /** The first request with this key is still running. */
  | { kind: 'in_use' };

const newClaim = (scope: string, requestHash: string, now: Date, ttlMs: number): NewClaim => ({
  id: newId(),
  scope,
  requestHash,
  now,
  lockedUntil: new Date(now.getTime() + IN_FLIGHT_LOCK_MS),
  expiresAt: new Date(now.getTime() + ttlMs),
});

/** Claims `scope` for a request with fingerprint `requestHash`, or says why it cannot run. */
export async function claimIdempotencyKey(db: Db, input: { scope: string; requestHash: string; now: Date; ttlMs: number }): Promise<ClaimOutcome> {
  const { scope, requestHash, now, ttlMs } = input;
  const first = newClaim(scope, requestHash, now, ttlMs);
  if (await insertClaim(db, first)) return { kind: 'claimed', claimId: first.id };
  const stored = await findKey(db, scope, now);
  if (!stored || stored.expired || stored.lock_expired) {
    const retry = newClaim(scope, requestHash, now, ttlMs);
    const claimed = stored ? await takeOverClaim(db, retry) : await insertClaim(db, retry);
    return claimed ? { kind: 'claimed', claimId: retry.id } : { kind: 'in_use' };
  }
  if (stored.request_hash !== requestHash) return { kind: 'reused' };
  if (stored.state === 'completed' && stored.response_status !== null) {
    return { kind: 'completed', response: { status: stored.response_status, body: stored.response_body, headers: stored.response_headers } };
  }
  return { kind: 'in_use' };
}

/** Keeps a running request's claim locked; returns the function that stops renewing. */
export function keepClaimLocked(db: Db, claimId: string, clock: () => Date, logger: { warn: (o: object, m: string) => void }): () => void {
  const timer = setInterval(() => {
    extendClaimLock(db, claimId, new Date(clock().getTime() + IN_FLIGHT_LOCK_MS)).catch((err: unknown) =>
      logger.warn({ err }, 'idempotency lock renewal failed'),
    );
  }, IN_FLIGHT_LOCK_MS / 3);
  timer.unref();
  return () => clearInterval(timer);
}

/** Frees the key of a request whose outcome is not kept, so a retry can run. */
export function releaseIdempotencyKey(db: Db, claimId: string): Promise<void> {
  return deleteClaim(db, claimId);
}

/** Stores the response for replays; false when the claim was taken over while the request ran. */
export function storeIdempotentResponse(db: Db, claimId: string, response: { status: number; body: string; headers: Record<string, string> }): Promise<boolean> {
  return completeClaim(db, claimId, response);
}

/** Deletes expired rows: completed ones, and in-flight ones whose owner is gone. */
export function purgeExpiredIdempotencyKeys(db: Db, now: Date): Promise<number> {
  return deleteExpiredKeys(db, now);
}
