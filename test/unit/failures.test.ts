/**
 * The failure taxonomy (README, "Failures"): which errors a retry can clear (transient) and which it
 * never can (deterministic), and how an activity turns each into a Temporal failure.
 */
import { ActivityFailure, ApplicationFailure } from '@temporalio/common';
import { ServiceError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { classified } from '../../activities/failures.js';
import { CoreValidationError } from '../../src/core/index.js';
import { DomainError } from '../../src/errors.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { classifyFailure, describeFailure, operatorMessage } from '../../src/services/failures/taxonomy.js';
import { billingErrorOf, isBillingFailure, RETRIES_EXHAUSTED } from '../../workflows/failures.js';
import { ACTIVITY_RETRY, DETERMINISTIC_FAILURE, NOT_FOUND, UNPROCESSABLE } from '../../workflows/messages.js';

const sqlError = (code: string, message = `sqlstate ${code}`) => Object.assign(new Error(message), { code });
const prismaError = (code: string, meta?: Record<string, unknown>) =>
  new Prisma.PrismaClientKnownRequestError(`prisma ${code}`, { code, clientVersion: 'test', ...(meta ? { meta } : {}) });
const grpcError = (code: number) => Object.assign(new Error(`grpc ${code}`), { code, details: 'x', metadata: {} });

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

  it.each([
    ['a negative period quantity (the rating core)', new CoreValidationError('negative_quantity', 'quantity', 'quantities are never negative')],
    ['a numeric overflow', sqlError('22003', 'numeric field overflow')],
    ['Prisma P2020 (value out of range)', prismaError('P2020')],
    ['a unique violation', sqlError('23505')],
    ['a missing row', new DomainError('not_found', 'invoice_not_found', 'gone')],
    ['a broken invariant', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a RangeError from BigInt', new RangeError('The number 1.5 cannot be converted to a BigInt')],
  ])('%s is deterministic', (_name, err) => {
    expect(classifyFailure(err)).toBe('deterministic');
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
