/**
 * Whether a failure means a dependency (PostgreSQL, Temporal) could not be reached rather than a bug,
 * for whoever must answer it: the API turns such failures into 503 service_unavailable.
 */
import { isGrpcServiceError } from '@temporalio/client';
import { prismaConnectionFailure } from '../db/errors.js';

/** The pg driver adapter's kinds for connection failures (raw queries report them under P2010). */
const ADAPTER_UNAVAILABLE = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
const SOCKET_UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
/** SQLSTATE class 08 (connection exception), 57P01-57P03 (shutting down, crashed, starting up), 53300 (too many connections). */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
/** node-postgres reports these connection failures without a code. */
const PG_CONNECTION_LOST = /^(Connection terminated unexpectedly|Connection terminated due to connection timeout|timeout exceeded when trying to connect)$/;
const GRPC_UNAVAILABLE = 14;

/**
 * Whether a failure means a dependency could not be reached (rather than a bug): Prisma and pg
 * connection errors, Temporal's gRPC UNAVAILABLE, socket errors, found on the error or its causes.
 */
export function isDependencyUnavailable(err: unknown): boolean {
  const pending: unknown[] = [err];
  for (let seen = 0; pending.length > 0 && seen < 10; seen++) {
    const node = pending.shift();
    if (node === null || typeof node !== 'object') continue;
    const prisma = prismaConnectionFailure(node);
    if (prisma?.unavailable) return true;
    if (prisma) pending.push(prisma.driverError);
    if (isGrpcServiceError(node) && node.code === GRPC_UNAVAILABLE) return true;
    const { code, kind, originalCode, message, cause } = node as Record<string, unknown>;
    if (typeof kind === 'string' && ADAPTER_UNAVAILABLE.has(kind)) return true;
    for (const value of [code, originalCode]) {
      if (typeof value === 'string' && (SOCKET_UNAVAILABLE.has(value) || UNAVAILABLE_SQLSTATE.test(value))) return true;
    }
    if (node instanceof Error && PG_CONNECTION_LOST.test(String(message))) return true;
    pending.push(cause);
  }
  return false;
}
