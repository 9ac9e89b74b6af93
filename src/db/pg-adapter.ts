/**
 * The Prisma driver adapter of the service's clients: @prisma/adapter-pg over our pg pool, with a
 * connection leak of adapter-pg 6.19 closed.
 *
 * Prisma ends an interactive transaction by sending COMMIT or ROLLBACK on the transaction's pooled
 * connection, and only once that statement succeeded calls the transaction's commit()/rollback(),
 * which release the connection to the pool. When the connection was lost under the transaction (a
 * PostgreSQL restart, pg_terminate_backend), the statement fails and nothing releases it: the pool
 * counts the dead connection as checked out for ever. After as many such transactions as the pool
 * holds connections, every query waits for a connection that never comes, long after the database
 * is back. Here a COMMIT or ROLLBACK that fails releases the connection with its error, so the pool
 * discards it (a healthy one whose COMMIT failed, on a serialization failure, is replaced too).
 *
 * It also lends a transaction's connection to our own SQL (src/db/sql.ts): a statement sent through
 * Prisma costs a millisecond or more of the caller's CPU (the client and its query compiler), the
 * same statement on node-postgres a tenth of that. A client claims its transaction's connection by
 * sending CLAIM_CONNECTION_SQL with a fresh token through the transaction; the adapter files the
 * connection under the token, and closes the loan when the transaction ends.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';

type Adapter = Awaited<ReturnType<PrismaPg['connect']>>;
type Transaction = Awaited<ReturnType<Adapter['startTransaction']>>;

/** The statements Prisma ends a transaction with (its query compiler's COMMIT and ROLLBACK). */
const TRANSACTION_ENDS = new Set(['COMMIT', 'ROLLBACK']);

/** The statement a client claims its interactive transaction's connection with (its one argument: the token). */
export const CLAIM_CONNECTION_SQL = 'SELECT $1::text AS claimed_connection';

/** A transaction's connection lent to our own SQL: usable while `open` (until the transaction's COMMIT or ROLLBACK). */
export interface LentConnection {
  readonly client: pg.PoolClient;
  open: boolean;
}

/** Claims made and not yet taken, by token (taken at once by the claimant: see takeClaimedConnection). */
const claims = new Map<string, LentConnection>();

/** The connection filed under `token` by the claim statement just sent, or undefined (the client is not one of ours). */
export function takeClaimedConnection(token: string): LentConnection | undefined {
  const lent = claims.get(token);
  claims.delete(token);
  return lent;
}

/**
 * A transaction whose failed COMMIT/ROLLBACK releases its connection (Prisma will not call
 * commit()/rollback() after it), and which lends its connection to a claim until it ends.
 */
function trackedTransaction(transaction: Transaction): Transaction {
  const executeRaw = transaction.executeRaw.bind(transaction);
  const queryRaw = transaction.queryRaw.bind(transaction);
  // adapter-pg's transaction keeps its pooled connection as `client` (a protected field of 6.19).
  const connection = (transaction as unknown as { client: pg.PoolClient }).client;
  const lent: LentConnection = { client: connection, open: true };
  transaction.executeRaw = async (query) => {
    const ends = TRANSACTION_ENDS.has(query.sql.trim().toUpperCase());
    if (ends) lent.open = false;
    try {
      return await executeRaw(query);
    } catch (err) {
      if (ends) connection.release(err instanceof Error ? err : new Error(String(err)));
      throw err;
    }
  };
  transaction.queryRaw = async (query) => {
    const result = await queryRaw(query);
    // Filed once the claim statement ran: a claim that failed leaves nothing behind.
    if (query.sql === CLAIM_CONNECTION_SQL && lent.open) claims.set(String(query.args[0]), lent);
    return result;
  };
  for (const end of ['commit', 'rollback'] as const) {
    const original = transaction[end].bind(transaction);
    transaction[end] = async () => {
      lent.open = false;
      return original();
    };
  }
  return transaction;
}

class ReleasingPrismaPg extends PrismaPg {
  override async connect(): Promise<Adapter> {
    const adapter = await super.connect();
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => trackedTransaction(await startTransaction(isolationLevel));
    return adapter;
  }
}

/** The driver adapter of a PrismaClient over `pool` (which stays ours: the client never ends it). */
export function createPgAdapter(pool: pg.Pool): PrismaPg {
  return new ReleasingPrismaPg(pool);
}
