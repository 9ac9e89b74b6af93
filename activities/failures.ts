/**
 * How activities fail (docs/failures.md). Every activity body runs inside `classified`:
 * - a domain error (a refused move, a missing row, a business rule) is a non-retryable failure
 *   whose type names its kind and whose details carry the domain error, so the API that awaited
 *   it answers the same 4xx;
 * - any other DETERMINISTIC failure (a core validation error, a numeric overflow, a broken
 *   invariant, a bug) is a non-retryable `DeterministicFailure`: retrying the same input can never
 *   succeed, so the workflow records it as a billing_error for an operator instead;
 * - a TRANSIENT failure (database or Temporal unreachable, a serialization conflict, the payment
 *   processor down) is thrown as is and retried on the workflow's bounded backoff schedule.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { actingAs, engineActor, type Actor } from '../src/services/audit.js';
import { DomainError, type DomainFailureDetails } from '../src/errors.js';
import { classifyFailure, describeFailure } from '../src/services/failures/taxonomy.js';
import type { Logger } from '../src/logger.js';
import type { ServiceDeps } from '../src/services/deps.js';
import { clearBillingError, recordBillingError, type BillingErrorEntity } from '../src/services/failures/billing-errors.js';
import {
  DETERMINISTIC_FAILURE,
  INVALID_TRANSITION,
  NOT_FOUND,
  UNAVAILABLE,
  UNPROCESSABLE,
  type BillingErrorState,
  type FailureDetails,
  type SubscriptionCommand,
} from '../workflows/shared/messages.js';

const FAILURE_TYPE: Record<DomainError['kind'], string> = {
  invalid_transition: INVALID_TRANSITION,
  not_found: NOT_FOUND,
  unprocessable: UNPROCESSABLE,
  validation: UNPROCESSABLE,
  conflict: UNPROCESSABLE,
  gone: UNPROCESSABLE,
  unavailable: UNAVAILABLE,
};

/**
 * The audit actor of the workflow whose activity is running: `workflow` with its workflow id (e.g.
 * `subscription:<id>`). Outside an activity (a direct call in a test), the engine's own actor.
 */
export function workflowActor(): Actor {
  let workflowId: string | undefined;
  try {
    workflowId = Context.current().info.workflowExecution?.workflowId;
  } catch {
    workflowId = undefined;
  }
  return workflowId ? { type: 'workflow', id: workflowId } : engineActor();
}

/** Runs an activity body: changes the engine makes on its own are the workflow's (audit), failures classified. */
export async function classified<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await actingAs(workflowActor(), work);
  } catch (err) {
    if (err instanceof ApplicationFailure) throw err;
    // A dependency that is down may answer a retry: only the other domain errors are final.
    if (err instanceof DomainError && err.kind !== 'unavailable') {
      const details: DomainFailureDetails = { domain: { kind: err.kind, code: err.code, ...(err.details ? { details: err.details } : {}) } };
      throw ApplicationFailure.nonRetryable(err.message, FAILURE_TYPE[err.kind], details);
    }
    if (classifyFailure(err) === 'deterministic') {
      const details: FailureDetails = { failure: describeFailure(err) };
      throw ApplicationFailure.create({ message: details.failure.message, type: DETERMINISTIC_FAILURE, nonRetryable: true, details: [details], cause: err as Error });
    }
    throw err;
  }
}

export interface FailureActivityDeps {
  db: ServiceDeps['db'];
  logger: Logger;
}

/** The billing_error of a subscription or invoice, recorded and cleared by its workflow. */
export function createFailureActivities(deps: FailureActivityDeps) {
  return {
    recordBillingError: (input: { entity: BillingErrorEntity; id: string; error: BillingErrorState }): Promise<void> =>
      classified(() => recordBillingError(deps, input.entity, input.id, input.error, workflowActor())),

    clearBillingError: (input: { entity: BillingErrorEntity; id: string; command: SubscriptionCommand }): Promise<void> =>
      classified(() => clearBillingError(deps, input.entity, input.id, input.command.actor, input.command.requestId)),
  };
}
