/**
 * What PostgreSQL, node-postgres and Prisma errors say about the database connection, read at the
 * repository edge. Each function reads ONE error object; callers walk the causes
 * (src/services/availability.ts, `errorChain`).
 */
import { Prisma } from '../generated/prisma/client.js';

/**
 * Prisma's codes for a database it cannot reach (P1001), reached but timed out (P1002), whose
 * operations timed out (P1008), that closed the connection (P1017), or whose pool has no
 * connection to give in time (P2024).
 */
const PRISMA_CONNECTION_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/**
 * Prisma's errors of an engine without a usable connection. Also matched by name: an error of
 * another copy of the client (a second bundle, a test's own) fails `instanceof`.
 */
const PRISMA_CONNECTION_ERRORS = new Set(['PrismaClientInitializationError', 'PrismaClientRustPanicError']);
/** The pg driver adapter's kinds of connection failures (a DriverAdapterError's cause). */
const ADAPTER_CONNECTION_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
/**
 * SQLSTATE class 08 (connection exception), 57P01 admin shutdown, 57P02 crash shutdown, 57P03
 * cannot connect now (starting up, shutting down, in recovery), 53300 too many connections.
 */
const CONNECTION_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
/**
 * Messages of a lost or refused connection, also when a wrapper kept only the text (Prisma's
 * "Invalid `…` invocation: …", a generic Error carrying node-postgres' message): node-postgres'
 * own, the server's (which carry the SQLSTATEs above when their code survives), Prisma's.
 */
const CONNECTION_MESSAGES = new RegExp(
  [
    // node-postgres
    'Client has encountered a connection error and is not queryable',
    'Client was closed and is not queryable',
    'Connection terminated', // "…unexpectedly", "…due to connection timeout", or alone (the client ended under a query)
    'timeout exceeded when trying to connect',
    // PostgreSQL
    'the database system is (?:shutting down|starting up|in recovery mode|not yet accepting connections|not accepting connections)',
    'terminating connection (?:due to administrator command|because of crash of another server process|due to unexpected postmaster exit)',
    'server closed the connection unexpectedly',
    'sorry, too many clients already',
    'remaining connection slots are reserved',
    // Prisma
    "Can't reach database server",
    'was reached but timed out',
    'Server has closed the connection',
    'Timed out fetching a new connection from the connection pool',
    '[Ee]ngine (?:is )?not (?:yet )?connected',
    'Engine was not connected',
    'Response from the Engine was empty',
  ].join('|'),
);
/** Prisma's message of a raw query the driver failed: "Raw query failed. Code: `57P01`. Message: `…`". */
const RAW_QUERY_CODE = /Code: `([0-9A-Z]{5})`/;

/**
 * The SQLSTATEs an error carries: its `code` (node-postgres), `originalCode` (the driver adapter's
 * copy), and the code quoted in Prisma's message of a failed raw query.
 */
export function sqlStatesOf(err: object): string[] {
  const { code, originalCode, message } = err as Record<string, unknown>;
  const quoted = typeof message === 'string' ? RAW_QUERY_CODE.exec(message)?.[1] : undefined;
  return [code, originalCode, quoted].filter((value): value is string => typeof value === 'string' && /^[0-9A-Z]{5}$/.test(value));
}

/**
 * Whether this error (not its causes) says the database connection failed: it could not be made,
 * was lost under a query, was refused while the server starts, stops or recovers, or the pool had
 * none to give. A retry once the database is back can succeed.
 */
export function isDatabaseConnectionError(err: object): boolean {
  if (err instanceof Prisma.PrismaClientInitializationError || err instanceof Prisma.PrismaClientRustPanicError) return true;
  const { name, code, kind, message, originalMessage } = err as Record<string, unknown>;
  if (typeof name === 'string' && PRISMA_CONNECTION_ERRORS.has(name)) return true;
  if (typeof code === 'string' && PRISMA_CONNECTION_CODES.has(code)) return true;
  if (typeof kind === 'string' && ADAPTER_CONNECTION_KINDS.has(kind)) return true;
  if (sqlStatesOf(err).some((state) => CONNECTION_SQLSTATE.test(state))) return true;
  return [message, originalMessage].some((text) => typeof text === 'string' && CONNECTION_MESSAGES.test(text));
}
