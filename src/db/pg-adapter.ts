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
 */
import { PrismaPg } from '@prisma/adapter-pg';
import type pg from 'pg';

type Adapter = Awaited<ReturnType<PrismaPg['connect']>>;
type Transaction = Awaited<ReturnType<Adapter['startTransaction']>>;

/** The statements Prisma ends a transaction with (its query compiler's COMMIT and ROLLBACK). */
const TRANSACTION_ENDS = new Set(['COMMIT', 'ROLLBACK']);

/** A transaction whose failed COMMIT/ROLLBACK releases its connection (Prisma will not call commit()/rollback() after it). */
function releasingOnFailedEnd(transaction: Transaction): Transaction {
  const executeRaw = transaction.executeRaw.bind(transaction);
  // adapter-pg's transaction keeps its pooled connection as `client` (a protected field of 6.19).
  const connection = (transaction as unknown as { client: pg.PoolClient }).client;
  transaction.executeRaw = async (query) => {
    try {
      return await executeRaw(query);
    } catch (err) {
      if (TRANSACTION_ENDS.has(query.sql.trim().toUpperCase())) connection.release(err instanceof Error ? err : new Error(String(err)));
      throw err;
    }
  };
  return transaction;
}

class ReleasingPrismaPg extends PrismaPg {
  override async connect(): Promise<Adapter> {
    const adapter = await super.connect();
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => releasingOnFailedEnd(await startTransaction(isolationLevel));
    return adapter;
  }
}

/** The driver adapter of a PrismaClient over `pool` (which stays ours: the client never ends it). */
export function createPgAdapter(pool: pg.Pool): PrismaPg {
  return new ReleasingPrismaPg(pool);
}
