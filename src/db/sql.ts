/**
 * Our own SQL on node-postgres beside Prisma, for the statements of hot paths (a period close, an
 * invoice's finalization): a statement through Prisma costs the caller a millisecond or more of CPU
 * (its client and query compiler), the same statement as a named prepared statement on the
 * connection a tenth of that. Inside an interactive transaction the statements run on the
 * transaction's own connection (lent by the driver adapter: pg-adapter.ts), so they see and are
 * part of its work; outside one, on the client's pool.
 *
 * Rows come back as Prisma's would: `modelColumns` maps each field of a model type to its column
 * and codec, checked by the compiler against the model (every field, its exact type).
 */
import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import { Prisma } from '../generated/prisma/client.js';
import { UUID_PATTERN } from '../ids.js';
import type { Db, DbClient } from './client.js';
import { CLAIM_CONNECTION_SQL, takeClaimedConnection, type LentConnection } from './pg-adapter.js';

/** The pools of the clients createDb made (a root client runs our statements on its pool). */
const pools = new WeakMap<object, pg.Pool>();
/** The connection each interactive transaction lent us, claimed on its first statement of ours. */
const lent = new WeakMap<object, LentConnection>();

export function registerPool(db: Db, pool: pg.Pool): void {
  pools.set(db, pool);
}

/** A statement prepared once per connection under a name derived from its text. */
export interface Statement {
  readonly name: string;
  readonly text: string;
}

export function statement(text: string): Statement {
  return { name: `s_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`, text };
}

/** Text as it comes: numeric and int8 as strings (exact), dates of `date` columns as 'YYYY-MM-DD', uuid[] parsed like text[]. */
const parserOf = pg.types.getTypeParser as (oid: number, format: 'text') => (value: string) => unknown;
const RAW_TYPES = {
  getTypeParser: (oid: number) => {
    if (oid === 1082) return (value: string) => value;
    return parserOf(oid === 2951 ? 1009 : oid, 'text');
  },
};

/** The queryable a client's statements of ours run on: its transaction's connection, or its pool. */
async function queryableOf(client: DbClient): Promise<pg.Pool | pg.PoolClient> {
  const pool = pools.get(client);
  if (pool) return pool;
  let connection = lent.get(client);
  if (!connection) {
    const token = randomUUID();
    await client.$queryRawUnsafe(CLAIM_CONNECTION_SQL, token);
    connection = takeClaimedConnection(token);
    if (!connection) throw new Error('this database client lends no connection: it was not made by createDb');
    lent.set(client, connection);
  }
  if (!connection.open) throw new Error('the transaction has ended: its connection is no longer ours to use');
  return connection.client;
}

/** Runs a statement on the client's transaction (or pool); rows as objects keyed by column name. */
export async function runStatement<R>(client: DbClient, sql: Statement, values: unknown[]): Promise<R[]> {
  const queryable = await queryableOf(client);
  const result = await queryable.query({ name: sql.name, text: sql.text, values, types: RAW_TYPES });
  return result.rows as R[];
}

/** Runs a statement that writes; the number of rows it wrote. */
export async function executeStatement(client: DbClient, sql: Statement, values: unknown[]): Promise<number> {
  const queryable = await queryableOf(client);
  return (await queryable.query({ name: sql.name, text: sql.text, values })).rowCount ?? 0;
}

/** A JSON column's parameter: the value's JSON text (bigints as decimal strings), null for none (SQL NULL). */
export const jsonParam = (value: unknown): string | null =>
  value === undefined || value === null ? null : JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));

/** How one column becomes a field of Prisma's type. */
export interface Codec<T> {
  column: string;
  decode(value: unknown): T;
}

const nullable =
  <T>(decode: (value: unknown) => T) =>
  (value: unknown): T | null =>
    value === null || value === undefined ? null : decode(value);

const asString = (value: unknown) => String(value);
const asNumber = (value: unknown) => Number(value);
const asDecimal = (value: unknown) => new Prisma.Decimal(String(value));
const asDate = (value: unknown) => (value instanceof Date ? value : new Date(`${String(value)}T00:00:00.000Z`));
const asJson = (value: unknown) => value as Prisma.JsonValue;

export const col = {
  text: (column: string): Codec<string> => ({ column, decode: asString }),
  textOrNull: (column: string): Codec<string | null> => ({ column, decode: nullable(asString) }),
  int: (column: string): Codec<number> => ({ column, decode: asNumber }),
  intOrNull: (column: string): Codec<number | null> => ({ column, decode: nullable(asNumber) }),
  decimal: (column: string): Codec<Prisma.Decimal> => ({ column, decode: asDecimal }),
  decimalOrNull: (column: string): Codec<Prisma.Decimal | null> => ({ column, decode: nullable(asDecimal) }),
  time: (column: string): Codec<Date> => ({ column, decode: asDate }),
  timeOrNull: (column: string): Codec<Date | null> => ({ column, decode: nullable(asDate) }),
  json: (column: string): Codec<Prisma.JsonValue> => ({ column, decode: asJson }),
  jsonOrNull: (column: string): Codec<Prisma.JsonValue | null> => ({ column, decode: nullable(asJson) }),
  boolean: (column: string): Codec<boolean> => ({ column, decode: (value) => value === true }),
  /** An enum column, read as its label (the column is cast to text). */
  label: <T extends string>(column: string): Codec<T> => ({ column: `${column}::text`, decode: (value) => String(value) as T }),
  labelOrNull: <T extends string>(column: string): Codec<T | null> => ({ column: `${column}::text`, decode: nullable((value) => String(value) as T) }),
  texts: (column: string): Codec<string[]> => ({ column, decode: (value) => value as string[] }),
};

/** Every field of a model type, each with its column and codec. */
export type ModelColumns<M> = { [K in keyof M]-?: Codec<M[K]> };

/** A model's table and columns: a `SELECT … FROM table` reader whose rows are the model type. */
export interface ModelTable<M> {
  table: string;
  columns: ModelColumns<M>;
  /** `SELECT <every column> FROM <table> <alias>`: a statement's head (the alias qualifies the columns). */
  select(alias: string): string;
  /** Every column named as its field, unqualified: what a `RETURNING` lists. */
  returning: string;
  decode(row: Record<string, unknown>): M;
}

export function modelTable<M>(table: string, columns: ModelColumns<M>): ModelTable<M> {
  const fields = Object.entries(columns) as [keyof M & string, Codec<unknown>][];
  return {
    table,
    columns,
    select: (alias) => `SELECT ${fields.map(([field, codec]) => `${alias}.${codec.column} AS "${field}"`).join(', ')} FROM ${table} ${alias}`,
    returning: fields.map(([field, codec]) => `${codec.column} AS "${field}"`).join(', '),
    decode: (row) => Object.fromEntries(fields.map(([field, codec]) => [field, codec.decode(row[field])])) as M,
  };
}

/** The model rows a statement made from `table.select(alias)` returns. */
export async function modelRows<M>(client: DbClient, table: ModelTable<M>, sql: Statement, values: unknown[]): Promise<M[]> {
  return (await runStatement<Record<string, unknown>>(client, sql, values)).map(table.decode);
}

/** The row whose uuid key is `id` (the statement's one parameter); none for a string that is no UUID, which no uuid column holds. */
export async function modelRowById<M>(client: DbClient, table: ModelTable<M>, sql: Statement, id: string): Promise<M | null> {
  if (!UUID_PATTERN.test(id)) return null;
  return (await modelRows(client, table, sql, [id]))[0] ?? null;
}
