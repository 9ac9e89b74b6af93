/** Maps failures of workflow updates to domain errors the API renders. */
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { INVALID_TRANSITION } from '../../workflows/messages.js';
import { DomainError } from '../services/errors.js';

export async function runUpdate<T>(entity: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    const cause = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
    if (cause instanceof ApplicationFailure && cause.type === INVALID_TRANSITION) {
      const details = (cause.details?.[0] ?? {}) as { move?: string; status?: string };
      throw new DomainError('invalid_transition', 'invalid_state_transition', cause.message, {
        entity,
        from: details.status,
        action: details.move,
      });
    }
    if (err instanceof WorkflowNotFoundError || (err as { name?: string }).name === 'WorkflowNotFoundError') {
      throw new DomainError('invalid_transition', 'invalid_state_transition', `the ${entity} has ended and accepts no more changes`, { entity });
    }
    throw err;
  }
}
