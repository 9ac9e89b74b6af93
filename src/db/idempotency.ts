/**
 * Idempotency key repository: the rows of `idempotency_keys`. A row is one caller's use of one key
 * on one method + path (its `scope`). Its id is the claim's fencing token: every write after the
 * claim names it, so an owner whose claim was taken over can no longer change the row.
 */
import type { DbClient } from './client.js';

export interface StoredKey {
  request_hash: string;
  state: string;
  response_status: number | null;
  response_body: string | null;
  response_headers: Record<string, string> | null;
  /** The stored response is past its expiry. */
  expired: boolean;
  /** In flight, and its owner stopped renewing the lock. */
  lock_expired: boolean;
}

export interface NewClaim {
  id: string;
  scope: string;
  requestHash: string;
  now: Date;
  lockedUntil: Date;
  expiresAt: Date;
}

/** Inserts an in-flight claim; false when the scope is already taken (the unique constraint decides a race). */
export async function insertClaim(db: DbClient, claim: NewClaim): Promise<boolean> {
  const inserted = await db.$executeRaw`
    INSERT INTO idempotency_keys (id, scope, request_hash, state, created_at, locked_until, expires_at)
    VALUES (${claim.id}::uuid, ${claim.scope}, ${claim.requestHash}, 'in_flight', ${claim.now}, ${claim.lockedUntil},
            ${claim.expiresAt})
    ON CONFLICT (scope) DO NOTHING`;
  return inserted === 1;
}

export async function findKey(db: DbClient, scope: string, now: Date): Promise<StoredKey | undefined> {
  const rows = await db.$queryRaw<StoredKey[]>`
    SELECT request_hash, state, response_status, response_body, response_headers,
           expires_at <= ${now} AS expired, (state = 'in_flight' AND locked_until <= ${now}) AS lock_expired
    FROM idempotency_keys WHERE scope = ${scope}`;
  return rows[0];
}

/** Re-claims a scope whose stored response expired or whose in-flight owner died; false when neither holds. */
export async function takeOverClaim(db: DbClient, claim: NewClaim): Promise<boolean> {
  const updated = await db.$executeRaw`
    UPDATE idempotency_keys
    SET id = ${claim.id}::uuid, request_hash = ${claim.requestHash}, state = 'in_flight', response_status = NULL, response_body = NULL,
        response_headers = NULL, created_at = ${claim.now}, locked_until = ${claim.lockedUntil},
        expires_at = ${claim.expiresAt}
    WHERE scope = ${claim.scope} AND (expires_at <= ${claim.now} OR (state = 'in_flight' AND locked_until <= ${claim.now}))`;
  return updated === 1;
}

/** Extends an in-flight claim's lock. */
export async function extendClaimLock(db: DbClient, claimId: string, lockedUntil: Date): Promise<void> {
  await db.$executeRaw`
      UPDATE idempotency_keys SET locked_until = ${lockedUntil}
      WHERE id = ${claimId}::uuid AND state = 'in_flight'`;
}

/** Deletes an in-flight claim (its request failed or was refused as invalid). */
export async function deleteClaim(db: DbClient, claimId: string): Promise<void> {
  await db.$executeRaw`DELETE FROM idempotency_keys WHERE id = ${claimId}::uuid AND state = 'in_flight'`;
}

/** Stores the response of an in-flight claim; false when the claim was taken over meanwhile. */
export async function completeClaim(
  db: DbClient,
  claimId: string,
  response: { status: number; body: string; headers: Record<string, string> },
): Promise<boolean> {
  const stored = await db.$executeRaw`
    UPDATE idempotency_keys
    SET state = 'completed', response_status = ${response.status}, response_body = ${response.body},
        response_headers = ${JSON.stringify(response.headers)}::jsonb, locked_until = NULL
    WHERE id = ${claimId}::uuid AND state = 'in_flight'`;
  return stored !== 0;
}

/** Deletes expired rows: completed ones, and in-flight ones whose owner is gone. */
export function deleteExpiredKeys(db: DbClient, now: Date): Promise<number> {
  return db.$executeRaw`
    DELETE FROM idempotency_keys
    WHERE expires_at <= ${now} AND (state = 'completed' OR locked_until <= ${now})`;
}
