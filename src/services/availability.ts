/**
 * Whether a failure means a dependency (PostgreSQL, Temporal) could not be reached rather than a bug,
 * for whoever must answer it: the API turns such failures into 503 service_unavailable, activities
 * retry them (src/services/failures/taxonomy.ts).
 */
import { isGrpcServiceError } from '../temporal/gateway.js';
import { isDatabaseConnectionError } from '../db/errors.js';

const SOCKET_UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
/** A socket error's message when its code was lost on the way: "connect ECONNREFUSED 127.0.0.1:5432", "read ECONNRESET", "write EPIPE". */
const SOCKET_MESSAGE = new RegExp(`\\b(?:connect|read|write|getaddrinfo) (?:${[...SOCKET_UNAVAILABLE].join('|')})\\b`);
const GRPC_UNAVAILABLE = 14;
/** How many errors of one chain are read at most (causes of causes, an AggregateError's errors). */
const CHAIN_LIMIT = 32;

/**
 * An error and the errors it carries, itself first, each once: its `cause`, an AggregateError's
 * `errors` (a connection refused on every address of a host), and a Prisma error's driver adapter
 * error (`meta.driverAdapterError`, whose `cause` holds the driver's code and message).
 */
export function* errorChain(err: unknown): Generator<Record<string, unknown>> {
  const pending: unknown[] = [err];
  const seen = new Set<object>();
  while (pending.length > 0 && seen.size < CHAIN_LIMIT) {
    const node = pending.shift();
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    const fields = node as Record<string, unknown>;
    yield fields;
    const meta = fields.meta;
    if (meta !== null && typeof meta === 'object') pending.push((meta as Record<string, unknown>).driverAdapterError);
    if (Array.isArray(fields.errors)) pending.push(...(fields.errors as unknown[]));
    pending.push(fields.cause);
  }
}

/**
 * Whether a failure means a dependency could not be reached (rather than a bug): a database
 * connection error of PostgreSQL, node-postgres or Prisma, Temporal's gRPC UNAVAILABLE, a socket
 * error, found on the error or anywhere in its chain.
 */
export function isDependencyUnavailable(err: unknown): boolean {
  for (const node of errorChain(err)) {
    if (isDatabaseConnectionError(node)) return true;
    if (isGrpcServiceError(node) && node.code === GRPC_UNAVAILABLE) return true;
    const { code, message } = node;
    if (typeof code === 'string' && SOCKET_UNAVAILABLE.has(code)) return true;
    if (typeof message === 'string' && SOCKET_MESSAGE.test(message)) return true;
  }
  return false;
}
