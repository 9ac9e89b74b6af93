/**
 * Workflow side of the failure taxonomy (docs/failures.md): which activity failures become a
 * billing_error that holds the failed step for an operator, and how it reads.
 */
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import { DETERMINISTIC_FAILURE, type BillingErrorState } from './shared/messages.js';

/** The retry schedule ran out on a transient failure (ACTIVITY_RETRY.maximumAttempts). */
export const RETRIES_EXHAUSTED = 'RetriesExhausted';

/** The billing_error an activity failure means: its activity, its failure type and message. */
export function billingErrorOf(err: ActivityFailure, failedAt: string): BillingErrorState {
  const cause = err.cause;
  const exhausted = err.retryState === 'MAXIMUM_ATTEMPTS_REACHED' || err.retryState === 'TIMEOUT';
  const type = exhausted ? RETRIES_EXHAUSTED : cause instanceof ApplicationFailure ? (cause.type ?? 'Error') : (cause?.name ?? 'Error');
  return { step: err.activityType, type, message: (cause?.message ?? err.message).slice(0, 2000), failedAt };
}

/**
 * Whether an activity failure of an invoice move is a billing error rather than a business refusal
 * (a domain error the caller answers with its 4xx): a deterministic failure, or a transient one
 * that outlasted its retry schedule.
 */
export function isBillingFailure(err: unknown): err is ActivityFailure {
  if (!(err instanceof ActivityFailure)) return false;
  if (err.retryState === 'MAXIMUM_ATTEMPTS_REACHED' || err.retryState === 'TIMEOUT') return true;
  return err.cause instanceof ApplicationFailure && err.cause.type === DETERMINISTIC_FAILURE;
}

/**
 * The deterministic failure an activity or local activity failed with, or null. A local activity's
 * failure reaches the workflow unwrapped (an ApplicationFailure), an activity's inside an ActivityFailure.
 */
export function deterministicFailureOf(err: unknown): ApplicationFailure | null {
  const failure = err instanceof ActivityFailure ? err.cause : err;
  return failure instanceof ApplicationFailure && failure.type === DETERMINISTIC_FAILURE ? failure : null;
}
