/**
 * The failure taxonomy of background work (activities): a failure is either TRANSIENT (a dependency
 * could not be reached or asked to try again: retrying with backoff may succeed) or DETERMINISTIC
 * (the same input fails the same way on every attempt: validation, overflow, a missing row, a broken
 * invariant, a bug). Activities retry only transient failures, on a bounded schedule; a
 * deterministic one stops at once and surfaces as a `billing_error` an operator can retry after
 * fixing the data (docs/failures.md).
 */
import { isGrpcServiceError } from '../../temporal/gateway.js';
import { sqlStatesOf } from '../../db/errors.js';
import { DomainError } from '../../errors.js';
import { errorChain, isDependencyUnavailable } from '../availability.js';

export type FailureKind = 'transient' | 'deterministic';

/**
 * SQLSTATEs a retry can clear besides those of a lost connection (isDependencyUnavailable):
 * serialization failure, deadlock, lock not available, query canceled (a statement or lock
 * timeout), and the insufficient-resources class (too many connections, disk full, out of memory).
 */
const TRANSIENT_SQLSTATE = /^(40001|40P01|55P03|57014|53[0-9A-Z]{3})$/;
/** The same failures when only their message survived a wrapper. */
const TRANSIENT_MESSAGE = /could not serialize access|deadlock detected|write conflict or a deadlock|canceling statement due to (?:statement|lock) timeout|could not obtain lock/;
/** Prisma's codes for a transaction that lost a conflict or timed out, and for a pool timeout. */
const TRANSIENT_PRISMA = new Set(['P2028', 'P2034', 'P2024', 'P1008']);
/** The driver adapter's kind for a serialization failure (40001). */
const ADAPTER_TRANSIENT_KINDS = new Set(['TransactionWriteConflict']);
/** gRPC codes of a Temporal call worth retrying: CANCELLED, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, ABORTED, UNAVAILABLE. */
const TRANSIENT_GRPC = new Set([1, 4, 8, 10, 14]);

/**
 * Transient or deterministic: what a retry of the same work can be expected to do. A domain error
 * thrown as such decides by its kind; any other error is transient when it, or any error in its
 * chain (causes, a Prisma error's driver error, an AggregateError's errors), is a connection-level
 * failure of a dependency or a conflict a retry can clear.
 */
export function classifyFailure(err: unknown): FailureKind {
  if (err instanceof DomainError) return err.kind === 'unavailable' ? 'transient' : 'deterministic';
  if (isDependencyUnavailable(err)) return 'transient';
  for (const node of errorChain(err)) {
    if (node instanceof DomainError && node.kind === 'unavailable') return 'transient';
    if (isGrpcServiceError(node) && TRANSIENT_GRPC.has(node.code)) return 'transient';
    const { code, kind, message } = node;
    if (typeof code === 'string' && TRANSIENT_PRISMA.has(code)) return 'transient';
    if (typeof kind === 'string' && ADAPTER_TRANSIENT_KINDS.has(kind)) return 'transient';
    if (sqlStatesOf(node).some((state) => TRANSIENT_SQLSTATE.test(state))) return 'transient';
    if (typeof message === 'string' && TRANSIENT_MESSAGE.test(message)) return 'transient';
  }
  return 'deterministic';
}

/** Prisma's message for a failed query: "Invalid `<call>` invocation in <file:line>", a source excerpt, then the reason. */
const PRISMA_INVOCATION = /Invalid `([^`]+)` invocation/;
/** An absolute file path (POSIX or Windows), down to the file name it ends in. */
const ABSOLUTE_PATH = /(?:[A-Za-z]:)?(?:[\\/][\w.@+-]+)+[\\/]([\w.-]+)/g;

/**
 * A failure's message as the API and the audit trail show it: for a Prisma query, the call and
 * the reason (not the excerpt of our source it quotes), and never a path of the machine that ran it.
 */
export function operatorMessage(message: string): string {
  const invocation = PRISMA_INVOCATION.exec(message);
  const lines = message.split('\n').map((line) => line.trim()).filter((line) => line.length > 0);
  const text = invocation ? `${invocation[1]}: ${lines[lines.length - 1]}` : message;
  return text.replace(ABSOLUTE_PATH, '$1').slice(0, 2000);
}

/**
 * A Temporal client's ServiceError says only which call failed ("Failed to start Workflow"); the
 * server's reason is in its gRPC cause ("WorkflowId length exceeds limit.").
 */
function withServerReason(err: Error): string {
  const cause = (err as { cause?: unknown }).cause;
  return err.name === 'ServiceError' && isGrpcServiceError(cause) && cause.details ? `${err.message}: ${cause.details}` : err.message;
}

/** What an operator sees of a deterministic failure: the error's name, its code when it has one, and its message. */
export function describeFailure(err: unknown): { name: string; code: string | null; message: string } {
  if (!(err instanceof Error)) return { name: 'Error', code: null, message: operatorMessage(String(err)) };
  const code = (err as { code?: unknown }).code;
  return { name: err.name || err.constructor.name, code: typeof code === 'string' ? code : null, message: operatorMessage(withServerReason(err)) };
}
