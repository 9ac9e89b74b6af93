/** Maps failures of workflow updates to domain errors the API renders. */
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { INVALID_TRANSITION } from '../../workflows/messages.js';
import { DomainError, type DomainFailureDetails } from '../services/errors.js';

/** The ApplicationFailure at the root of an update's failure: the handler's own, or an activity's it awaited. */
function applicationFailure(err: unknown): ApplicationFailure | undefined {
  let cause: unknown = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
  while (cause instanceof Error) {
    if (cause instanceof ApplicationFailure) return cause;
    cause = cause.cause;
  }
  return undefined;
}

export async function runUpdate<T>(entity: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const failure = applicationFailure(err);
    const details = failure?.details?.[0] as Partial<DomainFailureDetails> & { move?: string; status?: string } | undefined;
    if (failure && details?.domain) {
      // An activity refused with a domain error: the same error, as if the service had thrown it here.
      throw new DomainError(details.domain.kind, details.domain.code, failure.message, details.domain.details);
    }
    if (failure?.type === INVALID_TRANSITION) {
      throw new DomainError('invalid_transition', 'invalid_state_transition', failure.message, {
        entity,
        from: details?.status,
        action: details?.move,
      });
    }
    if (err instanceof WorkflowNotFoundError || (err as { name?: string }).name === 'WorkflowNotFoundError') {
      throw new DomainError('invalid_transition', 'invalid_state_transition', `the ${entity} has ended and accepts no more changes`, { entity });
    }
    throw err;
  }
}
