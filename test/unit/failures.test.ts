/**
 * The failure taxonomy (docs/failures.md): which errors a retry can clear (transient) and which it
 * never can (deterministic), and how an activity turns each into a Temporal failure.
 */
import { ActivityFailure, ApplicationFailure } from '@temporalio/common';
import { ServiceError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { classified } from '../../activities/failures.js';
import { CoreValidationError } from '../../src/core/index.js';
import { DomainError } from '../../src/errors.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { isDependencyUnavailable } from '../../src/services/availability.js';
import { classifyFailure, describeFailure, operatorMessage } from '../../src/services/failures/taxonomy.js';
import { billingErrorOf, isBillingFailure, RETRIES_EXHAUSTED } from '../../workflows/failures.js';
import { ACTIVITY_RETRY, DETERMINISTIC_FAILURE, NOT_FOUND, UNPROCESSABLE } from '../../workflows/shared/messages.js';

const sqlError = (code: string, message = `sqlstate ${code}`) => Object.assign(new Error(message), { code });
const prismaError = (code: string, meta?: Record<string, unknown>, message = `prisma ${code}`) =>
  new Prisma.PrismaClientKnownRequestError(message, { code, clientVersion: 'test', ...(meta ? { meta } : {}) });
const grpcError = (code: number) => Object.assign(new Error(`grpc ${code}`), { code, details: 'x', metadata: {} });

const CLIENT_VERSION = '6.19.3';
/** An error the PostgreSQL server sent (node-postgres' DatabaseError): a SQLSTATE and a severity. */
const serverError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'FATAL' });
/** A Node socket error as node-postgres passes it on. */
const socketError = (code: string, syscall: string, message = `${syscall} ${code}`) => Object.assign(new Error(message), { code, errno: -1, syscall });
/** The pg driver adapter's error as Prisma carries it: its `cause` holds the kind, and the driver's code and message. */
const driverAdapterError = (cause: Record<string, unknown>) => Object.assign(new Error(String(cause.originalMessage ?? cause.kind)), { name: 'DriverAdapterError', cause });
/** Prisma's failed raw query (P2010), its driver error in `meta`. */
const rawQueryFailed = (cause: Record<string, unknown>) =>
  prismaError('P2010', { driverAdapterError: driverAdapterError(cause) });
/** Prisma's message for a query that failed: the call, our source excerpt, then the reason. */
const invocation = (reason: string) => `\nInvalid \`tx.invoice.update()\` invocation in\n/srv/app/src/db/invoices.ts:10:3\n\n→ 10 await tx.invoice.update(\n${reason}`;

/**
 * Every form a connection-level failure of PostgreSQL reaches an activity in: node-postgres'
 * messages, the server's SQLSTATEs, socket errors, Prisma's codes and classes, the driver adapter's
 * errors, each also wrapped (a message kept by a wrapper, a cause chain).
 */
const CONNECTION_FAILURES: [string, unknown][] = [
  // node-postgres, as its plain Errors (no code)
  ['a query on a client whose connection failed', new Error('Client has encountered a connection error and is not queryable')],
  ['the same with the client version Prisma stamps on it (seen when PostgreSQL restarted under a transaction)', Object.assign(new Error('Client has encountered a connection error and is not queryable'), { clientVersion: CLIENT_VERSION })],
  ['a connection lost under a query', new Error('Connection terminated unexpectedly')],
  ['a client ended under a query', new Error('Connection terminated')],
  ['a connect that timed out', new Error('Connection terminated due to connection timeout')],
  ['a pool that could not connect in time', new Error('timeout exceeded when trying to connect')],
  ['a query on a closed client', new Error('Client was closed and is not queryable')],
  // sockets
  ['a refused connection', socketError('ECONNREFUSED', 'connect', 'connect ECONNREFUSED 127.0.0.1:5432')],
  ['a reset connection', socketError('ECONNRESET', 'read')],
  ['a broken pipe', socketError('EPIPE', 'write')],
  ['a socket timeout', socketError('ETIMEDOUT', 'connect', 'connect ETIMEDOUT 10.0.0.5:5432')],
  ['a refused connection known only by its message', new Error('connect ECONNREFUSED 127.0.0.1:5432')],
  ['a reset connection known only by its message', new Error('read ECONNRESET')],
  ['a broken pipe known only by its message', new Error('write EPIPE')],
  ['a refusal on every address of the host (AggregateError with a code)', Object.assign(new AggregateError([socketError('ECONNREFUSED', 'connect')], ''), { code: 'ECONNREFUSED' })],
  ['a refusal on every address of the host (AggregateError without one)', new AggregateError([socketError('ECONNREFUSED', 'connect'), socketError('ECONNREFUSED', 'connect')], 'connect failed')],
  // the server
  ['the server shutting down', serverError('57P03', 'the database system is shutting down')],
  ['the server starting up', serverError('57P03', 'the database system is starting up')],
  ['the server in recovery', serverError('57P03', 'the database system is in recovery mode')],
  ['the server shutting down, its message only', new Error('the database system is shutting down')],
  ['the server starting up, its message only', new Error('the database system is starting up')],
  ['the server in recovery, its message only', new Error('the database system is in recovery mode')],
  ['an admin shutdown (pg_ctl stop, pg_terminate_backend)', serverError('57P01', 'terminating connection due to administrator command')],
  ['an admin shutdown, its message only', new Error('terminating connection due to administrator command')],
  ['a crash shutdown', serverError('57P02', 'terminating connection because of crash of another server process')],
  ['cannot connect now', serverError('57P03', 'the database system is not yet accepting connections')],
  ['too many connections', serverError('53300', 'sorry, too many clients already')],
  ['too many connections, its message only', new Error('remaining connection slots are reserved for roles with the SUPERUSER attribute')],
  ...['08000', '08003', '08006', '08001', '08004', '08007', '08P01'].map((code): [string, unknown] => [`connection exception ${code}`, serverError(code, `connection exception ${code}`)]),
  // Prisma
  ...['P1001', 'P1002', 'P1008', 'P1017', 'P2024'].map((code): [string, unknown] => [`Prisma ${code}`, prismaError(code)]),
  ['Prisma P1001 as seen (its driver adapter error in meta)', prismaError('P1001', { driverAdapterError: driverAdapterError({ kind: 'DatabaseNotReachable' }) })],
  ['Prisma unable to initialise', new Prisma.PrismaClientInitializationError("Can't reach database server at `127.0.0.1:5432`", CLIENT_VERSION, 'P1001')],
  ['Prisma unable to initialise, without a code', new Prisma.PrismaClientInitializationError('could not connect', CLIENT_VERSION)],
  ['a Prisma engine panic', new Prisma.PrismaClientRustPanicError('PANIC: connection pool closed', CLIENT_VERSION)],
  ['a Prisma engine not connected', new Prisma.PrismaClientUnknownRequestError('Engine is not yet connected.', { clientVersion: CLIENT_VERSION })],
  ['a Prisma error of another client copy, by its name', Object.assign(new Error('engine gone'), { name: 'PrismaClientInitializationError' })],
  ["Prisma's message of an unreachable server", new Error("Can't reach database server at 127.0.0.1:5432")],
  ["Prisma's message of a closed connection", new Error('Server has closed the connection.')],
  ["Prisma's message of a pool timeout", new Error('Timed out fetching a new connection from the connection pool.')],
  ['a Prisma query whose reason is a lost connection (message only)', new Prisma.PrismaClientUnknownRequestError(invocation('Client has encountered a connection error and is not queryable'), { clientVersion: CLIENT_VERSION })],
  ['a Prisma query whose reason is a refused connection (message only)', new Prisma.PrismaClientUnknownRequestError(invocation('connect ECONNREFUSED 127.0.0.1:5432'), { clientVersion: CLIENT_VERSION })],
  // the driver adapter
  ...['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections'].map((kind): [string, unknown] => [`a DriverAdapterError ${kind}`, driverAdapterError({ kind })]),
  ['a raw query killed by an admin shutdown (P2010, 57P01 in its driver error)', rawQueryFailed({ kind: 'postgres', code: '57P01', originalCode: '57P01', originalMessage: 'terminating connection due to administrator command', severity: 'FATAL' })],
  ['a raw query on an unreachable server (P2010, DatabaseNotReachable)', rawQueryFailed({ kind: 'DatabaseNotReachable' })],
  ['a raw query failure known only by its message', prismaError('P2010', undefined, 'Raw query failed. Code: `57P01`. Message: `terminating connection due to administrator command`')],
  ['a raw query failure whose quoted code is a connection exception', new Error('Raw query failed. Code: `08006`. Message: `connection failure`')],
  // cause chains
  ['an error caused by a lost connection', new Error('closing the period failed', { cause: new Error('Connection terminated unexpectedly') })],
  ['an error caused by an admin shutdown, two levels down', new Error('billing failed', { cause: new Error('rating failed', { cause: serverError('57P01', 'terminating connection due to administrator command') }) })],
  ['an error caused by a Prisma P1017', new Error('finalize failed', { cause: prismaError('P1017') })],
  ['an error caused by a DriverAdapterError', new Error('query failed', { cause: driverAdapterError({ kind: 'ConnectionClosed' }) })],
  ['an error caused by a refused connection on every address', new Error('connect failed', { cause: new AggregateError([socketError('ECONNREFUSED', 'connect')], '') })],
];

/** Conflicts a retry clears that are not a lost connection. */
const CONFLICTS: [string, unknown][] = [
  ['a serialization failure', serverError('40001', 'could not serialize access due to concurrent update')],
  ['a deadlock', serverError('40P01', 'deadlock detected')],
  ['a serialization failure, its message only', new Error('could not serialize access due to read/write dependencies among transactions')],
  ['a deadlock, its message only', new Error('deadlock detected')],
  ['a Prisma write conflict or deadlock (P2034)', prismaError('P2034')],
  ["Prisma's message of a write conflict", new Error('Transaction failed due to a write conflict or a deadlock. Please retry your transaction')],
  ['a DriverAdapterError TransactionWriteConflict', driverAdapterError({ kind: 'TransactionWriteConflict', originalCode: '40001' })],
  ['a raw query that lost a serialization conflict (P2010, 40001)', rawQueryFailed({ kind: 'TransactionWriteConflict', originalCode: '40001', originalMessage: 'could not serialize access due to concurrent update' })],
  ['a raw query that deadlocked (P2010, 40P01)', rawQueryFailed({ kind: 'postgres', code: '40P01', originalCode: '40P01', originalMessage: 'deadlock detected' })],
  ['an error caused by a deadlock', new Error('allocation failed', { cause: serverError('40P01', 'deadlock detected') })],
];

describe('classifyFailure', () => {
  it.each([
    ['a serialization failure', sqlError('40001')],
    ['a deadlock', sqlError('40P01')],
    ['a lock timeout', sqlError('55P03')],
    ['the server shutting down (pg_terminate_backend)', sqlError('57P01')],
    ['a connection exception', sqlError('08006')],
    ['a refused connection', sqlError('ECONNREFUSED')],
    ['a connection lost under a query', new Error('Connection terminated unexpectedly')],
    ['a Prisma write conflict', prismaError('P2034')],
    ['a Prisma transaction timeout', prismaError('P2028')],
    ['a raw query whose driver error is a serialization failure', prismaError('P2010', { driverAdapterError: { cause: { originalCode: '40001' } } })],
    ['Temporal unavailable', grpcError(14)],
    ['a Temporal deadline', grpcError(4)],
    ['the payment processor down', new DomainError('unavailable', 'payment_processor_unavailable', 'down')],
  ])('%s is transient', (_name, err) => {
    expect(classifyFailure(err)).toBe('transient');
  });

  it.each(CONNECTION_FAILURES)('a connection-level failure of PostgreSQL, %s, is transient', (_name, err) => {
    expect(classifyFailure(err)).toBe('transient');
  });

  it.each(CONFLICTS)('%s is transient', (_name, err) => {
    expect(classifyFailure(err)).toBe('transient');
  });

  it.each([
    ['a negative period quantity (the rating core)', new CoreValidationError('negative_quantity', 'quantity', 'quantities are never negative')],
    ['a numeric overflow', sqlError('22003', 'numeric field overflow')],
    ['Prisma P2020 (value out of range)', prismaError('P2020')],
    ['a unique violation', sqlError('23505')],
    ['a missing row', new DomainError('not_found', 'invoice_not_found', 'gone')],
    ['a broken invariant', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a RangeError from BigInt', new RangeError('The number 1.5 cannot be converted to a BigInt')],
    ['a raw query that violated a unique constraint (P2010, 23505)', rawQueryFailed({ kind: 'UniqueConstraintViolation', originalCode: '23505', originalMessage: 'duplicate key value violates unique constraint' })],
    ['a raw query that overflowed (P2010, 22003)', prismaError('P2010', undefined, 'Raw query failed. Code: `22003`. Message: `numeric field overflow`')],
    ['an overflow caused by an overflow', new Error('rating failed', { cause: sqlError('22003', 'numeric field overflow') })],
    ['a message that only mentions a connection', new Error('the customer has no connection to a payment method')],
    ['an error that is its own cause', (() => {
      const looping = new Error('looping');
      (looping as { cause?: unknown }).cause = looping;
      return looping;
    })()],
    ['a refused move whose cause is a lost connection (domain errors decide by their kind)', Object.assign(new DomainError('invalid_transition', 'invalid_transition', 'refused'), { cause: new Error('Connection terminated unexpectedly') })],
  ])('%s is deterministic', (_name, err) => {
    expect(classifyFailure(err)).toBe('deterministic');
  });
});

describe('isDependencyUnavailable', () => {
  it.each(CONNECTION_FAILURES)('%s: the database could not be reached (503 at the API)', (_name, err) => {
    expect(isDependencyUnavailable(err)).toBe(true);
  });

  it.each(CONFLICTS)('%s: not an unreachable dependency', (_name, err) => {
    expect(isDependencyUnavailable(err)).toBe(false);
  });
});

describe('classified activities', () => {
  it('never retries a deterministic failure, and keeps what it was', async () => {
    const failure = await classified(() => Promise.reject(new CoreValidationError('negative_quantity', 'quantity', 'quantities are never negative'))).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: DETERMINISTIC_FAILURE, nonRetryable: true, message: 'quantities are never negative' });
    expect((failure as ApplicationFailure).details).toEqual([{ failure: { name: 'CoreValidationError', code: 'negative_quantity', message: 'quantities are never negative' } }]);
  });

  it('maps domain errors to their typed non-retryable failure', async () => {
    const failure = await classified(() => Promise.reject(new DomainError('not_found', 'invoice_not_found', 'gone', { id: 'x' }))).catch((e: unknown) => e);
    expect(failure).toMatchObject({ type: NOT_FOUND, nonRetryable: true });
  });

  it.each(CONNECTION_FAILURES)('rethrows a connection-level failure (%s) as it is, for the retry schedule, never as a DeterministicFailure', async (_name, err) => {
    expect(await classified(() => Promise.reject(err)).catch((e: unknown) => e)).toBe(err);
  });

  it('rethrows transient failures as they are, for the bounded retry schedule', async () => {
    const transient = sqlError('57P01', 'terminating connection due to administrator command');
    expect(await classified(() => Promise.reject(transient)).catch((e: unknown) => e)).toBe(transient);
    expect(ACTIVITY_RETRY).toMatchObject({ initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 20 });
    expect(ACTIVITY_RETRY.nonRetryableErrorTypes).toContain(DETERMINISTIC_FAILURE);
  });
});

describe('billing errors in workflows', () => {
  const at = '2026-02-01T00:00:00.000Z';
  const failed = (retryState: ActivityFailure['retryState'], cause: Error) => new ActivityFailure('activity failed', 'closeSubscriptionPeriod', '1', retryState, 'worker', cause);

  it('reads a deterministic failure as its activity, type and message', () => {
    const err = failed('NON_RETRYABLE_FAILURE', ApplicationFailure.nonRetryable('numeric field overflow', DETERMINISTIC_FAILURE));
    expect(billingErrorOf(err, at)).toEqual({ step: 'closeSubscriptionPeriod', type: DETERMINISTIC_FAILURE, message: 'numeric field overflow', failedAt: at });
    expect(isBillingFailure(err)).toBe(true);
  });

  it('reads a transient failure that outlasted its retry schedule as RetriesExhausted', () => {
    const err = failed('MAXIMUM_ATTEMPTS_REACHED', ApplicationFailure.retryable('Connection terminated unexpectedly', 'Error'));
    expect(billingErrorOf(err, at)).toMatchObject({ type: RETRIES_EXHAUSTED, message: 'Connection terminated unexpectedly' });
    expect(isBillingFailure(err)).toBe(true);
  });

  it('leaves business refusals of invoice moves to their caller', () => {
    expect(isBillingFailure(failed('NON_RETRYABLE_FAILURE', ApplicationFailure.nonRetryable('negative total', UNPROCESSABLE)))).toBe(false);
    expect(isBillingFailure(new Error('not an activity failure'))).toBe(false);
  });
});

describe('operatorMessage', () => {
  it('keeps the call and the reason of a Prisma failure, not the source excerpt and path it quotes', () => {
    const prisma = [
      '',
      'Invalid `tx.webhookAttempt.create()` invocation in',
      '/srv/app/src/db/webhooks.ts:324:27',
      '',
      '  321     if (isPrismaError(err, \'P2025\')) throw notFound(\'webhook_delivery\', input.deliveryId);',
      '→ 324 await tx.webhookAttempt.create(',
      'Value out of range for the type: numeric field overflow',
    ].join('\n');
    expect(operatorMessage(prisma)).toBe('tx.webhookAttempt.create(): Value out of range for the type: numeric field overflow');
  });

  it('cuts any absolute path down to its file name', () => {
    expect(operatorMessage('cannot read /home/ci/checkout/src/core/rating.ts at line 3')).toBe('cannot read rating.ts at line 3');
    expect(operatorMessage('failed in C:\\build\\src\\core\\rating.ts')).toBe('failed in rating.ts');
    expect(operatorMessage('amount 1/2 of 3')).toBe('amount 1/2 of 3');
  });

  it('is what describeFailure reports', () => {
    expect(describeFailure(new Error('bad row in /var/lib/x/file.sql'))).toEqual({ name: 'Error', code: null, message: 'bad row in file.sql' });
  });

  it("carries the server's reason of a Temporal call the server refused", () => {
    const refused = Object.assign(new Error('3 INVALID_ARGUMENT: WorkflowId length exceeds limit.'), { code: 3, details: 'WorkflowId length exceeds limit.', metadata: {} });
    const failure = new ServiceError('Failed to start Workflow', { cause: refused });
    expect(describeFailure(failure)).toEqual({ name: 'ServiceError', code: null, message: 'Failed to start Workflow: WorkflowId length exceeds limit.' });
  });
});
