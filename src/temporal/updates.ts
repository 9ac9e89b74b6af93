/** Maps failures of workflow updates to domain errors the API renders. */
import { setTimeout } from 'node:timers/promises';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { CONTINUING_AS_NEW, DETERMINISTIC_FAILURE, type FailureDetails, INVALID_TRANSITION, NO_BILLING_ERROR } from '../../workflows/shared/messages.js';
import { DomainError, type DomainFailureDetails } from '../errors.js';

/** The ApplicationFailure at the root of an update's failure: the handler's own, or an activity's it awaited. */
function applicationFailure(err: unknown): ApplicationFailure | undefined {
  let cause: unknown = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
  while (cause instanceof Error) {
    if (cause instanceof ApplicationFailure) return cause;
    cause = cause.cause;
  }
  return undefined;
}

/**
 * Delays between attempts of an update refused by a run that is continuing as new: the next run
 * takes updates within a workflow task or two, so the last attempt (about 10 s after the first)
 * only fails when no worker is running the workflow.
 */
const CONTINUING_RETRY_DELAYS_MS = [10, 20, 50, 100, 200, 400, ...Array<number>(23).fill(400)];

/** Runs an update (`call` addresses the workflow's latest run), mapping its failures to domain errors. */
export async function runUpdate<T>(entity: string, call: () => Promise<T>): Promise<T> {
  for (const delayMs of CONTINUING_RETRY_DELAYS_MS) {
    try {
      return await call();
    } catch (err) {
      if (applicationFailure(err)?.type !== CONTINUING_AS_NEW) throw updateError(entity, err);
      await setTimeout(delayMs);
    }
  }
  return call().catch((err: unknown) => {
    throw updateError(entity, err);
  });
}

/** The domain error an update's failure means, or the failure itself when it means none. */
function updateError(entity: string, err: unknown): unknown {
  const failure = applicationFailure(err);
  const mapped = failure ? failureError(entity, { type: failure.type ?? null, message: failure.message, details: failure.details?.[0] }) : null;
  if (mapped) return mapped;
  // Update-with-start on a workflow that completed meanwhile: the reuse policy refuses a new run.
  if (err instanceof WorkflowExecutionAlreadyStartedError || (err as { cause?: unknown }).cause instanceof WorkflowExecutionAlreadyStartedError) {
    return new DomainError('invalid_transition', 'invalid_state_transition', `the ${entity} has ended and accepts no more changes`, { entity });
  }
  if (err instanceof WorkflowNotFoundError || (err as { name?: string }).name === 'WorkflowNotFoundError') {
    return new DomainError('invalid_transition', 'invalid_state_transition', `the ${entity} has ended and accepts no more changes`, { entity });
  }
  return err;
}

/**
 * The domain error a workflow's failure means, given as its type, message and first detail (an
 * update's ApplicationFailure, or the failure a workflow answered another's request with); null
 * when it means none.
 */
export function failureError(entity: string, failure: { type: string | null; message: string; details: unknown }): DomainError | null {
  const details = failure.details as (Partial<DomainFailureDetails> & Partial<FailureDetails> & { move?: string; status?: string }) | null | undefined;
  if (details?.domain) {
    // An activity refused with a domain error: the same error, as if the service had thrown it here.
    return new DomainError(details.domain.kind, details.domain.code, failure.message, details.domain.details);
  }
  if (failure.type === NO_BILLING_ERROR) return new DomainError('conflict', 'no_billing_error', failure.message, { entity });
  if (failure.type === DETERMINISTIC_FAILURE) {
    return new DomainError('unprocessable', 'billing_failed', failure.message, { entity, ...(details?.failure ? { failure: details.failure } : {}) });
  }
  if (failure.type === INVALID_TRANSITION) {
    return new DomainError('invalid_transition', 'invalid_state_transition', failure.message, {
      entity,
      from: details?.status,
      action: details?.move,
    });
  }
  return null;
}
