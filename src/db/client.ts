import pg from 'pg';
import { PrismaClient, type Prisma } from '../generated/prisma/client.js';
import { createPgAdapter } from './pg-adapter.js';
import { registerPool, statement } from './sql.js';

export type Db = PrismaClient;

/**
 * What repository functions take: the client itself or an interactive transaction's client, so a
 * service can call them on their own or inside its unit of work (`db.$transaction`).
 */
export type DbClient = Prisma.TransactionClient;

/** One PrismaClient per process, created in the composition root and passed down. */
/** Defaults for every interactive transaction of a client (a call can still set its own). */
export const TRANSACTION_DEFAULTS = { maxWait: 10_000, timeout: 30_000 } as const;

export function createDb(databaseUrl: string, poolSize = 10): { db: Db; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  // An idle pooled connection that the server drops (a restart, pg_terminate_backend) is emitted
  // here: without a listener the process would die of it. The pool discards the connection itself.
  pool.on('error', () => {});
  // A checked-out connection has no pool listener: one the server drops between two statements of
  // an interactive transaction (Prisma holds it idle in the transaction while the caller works)
  // would emit an unheard 'error' and kill the process. Every connection keeps a listener for its
  // whole life instead; the next statement on it fails with a connection error (transient), and
  // the pool destroys it on release because it is no longer queryable.
  pool.on('connect', (client) => client.on('error', () => {}));
  // Interactive transactions queue on row locks (an invoice's credit notes, a wallet's drawdowns):
  // Prisma's defaults (2 s to get a connection, 5 s in all) fail such a queue under load, where
  // waiting a little longer is what the caller wants.
  // The adapter releases a transaction's connection also when the server dropped it (pg-adapter.ts).
  const db = new PrismaClient({ adapter: createPgAdapter(pool), transactionOptions: TRANSACTION_DEFAULTS });
  registerPool(db, pool);
  return { db, pool };
}

/** Resolves when the database answers a trivial query. */
export async function pingDb(pool: pg.Pool): Promise<void> {
  await pool.query('SELECT 1');
}

/**
 * Runs `work` on one connection checked out of the pool. While it is checked out, the connection's
 * 'error' event (the server dropped it mid-operation) has a listener, so it can never kill the
 * process: the pending query fails instead (a connection error the API answers with 503), and the
 * broken connection is destroyed rather than returned to the pool.
 */
export async function withPooledClient<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const onError = (err: Error) => {
    lost ??= err;
  };
  client.on('error', onError);
  try {
    return await work(client);
  } catch (err) {
    if (lost) throw lost; // the connection's own error says why ("terminating connection…", 57P01), not "not queryable"
    lost = isConnectionLoss(err) ? (err as Error) : undefined;
    throw err;
  } finally {
    client.off('error', onError);
    client.release(lost);
  }
}

/** node-postgres' messages for a connection that went away under a query. */
function isConnectionLoss(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  return (typeof code === 'string' && /^(08|57P0)/.test(code)) || /^Connection terminated/.test(String(message));
}

/**
 * Runs one read statement. Reads select only text (and text[]) columns, so both ways give the same rows:
 * through Prisma (activities hold only the client) or straight on the pg pool, which spares the
 * API's hot read paths (usage summaries, reports) Prisma's per-query and per-row overhead.
 */
export type SqlReader = <T>(sql: Prisma.Sql) => Promise<T[]>;

export const prismaReader =
  (db: DbClient): SqlReader =>
  <T>(sql: Prisma.Sql) =>
    db.$queryRaw<T[]>(sql);

export const poolReader =
  (pool: pg.Pool): SqlReader =>
  async <T>(sql: Prisma.Sql) =>
    (await pool.query(sql.text, sql.values)).rows as T[];

/** Statements preparedReader keeps prepared on one connection at most; further texts run unprepared there. */
export const PREPARED_READS_PER_CONNECTION = 200;
const preparedReads = new WeakMap<pg.PoolClient, Set<string>>();

/**
 * poolReader for hot reads repeated with other values (the usage summary's, the entitlement
 * check's): each text is prepared once per connection (named by sql.ts `statement`, a hash of the
 * text), so a repeat skips sending, parsing and analysing it — for the summary's long statements a third of their cost
 * (docs/benchmarks.md, "Prepared reads"). PostgreSQL still plans each execution for its values until
 * its estimates say a generic plan is as good (plan_cache_mode auto): forced, the generic plans made
 * some summaries 25 times slower, depending on the statistics of the moment. At most
 * PREPARED_READS_PER_CONNECTION texts stay prepared per connection, so varied texts (other plans'
 * meter sets) cannot grow a server process without bound.
 */
export const preparedReader =
  (pool: pg.Pool): SqlReader =>
  <T>(sql: Prisma.Sql) =>
    withPooledClient(pool, async (client) => {
      let prepared = preparedReads.get(client);
      if (!prepared) preparedReads.set(client, (prepared = new Set()));
      const { name } = statement(sql.text);
      const named = prepared.has(name) || prepared.size < PREPARED_READS_PER_CONNECTION;
      // Counted before it runs: a text whose execution fails may still be prepared.
      if (named) prepared.add(name);
      return (await client.query(named ? { name, text: sql.text, values: sql.values } : { text: sql.text, values: sql.values })).rows as T[];
    });
