/**
 * Typed domain errors. Services throw these; the HTTP layer maps each kind to one status and one
 * stable error code (src/http/errors.ts), activities map them to non-retryable Temporal failures.
 */
export type DomainErrorKind =
  | 'validation'
  | 'not_found'
  | 'conflict'
  | 'invalid_transition'
  | 'unprocessable'
  /** What was asked for is no longer kept (raw usage events the retention dropped). */
  | 'gone'
  /** A service the operation depends on (the payment processor) failed or could not be reached: retry later. */
  | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/**
 * Details of a Temporal failure raised from a domain error inside an activity, so the API can
 * rebuild the same error when an update that awaited the activity fails (src/temporal/updates.ts).
 */
export interface DomainFailureDetails {
  domain: { kind: DomainErrorKind; code: string; details?: Record<string, unknown> };
}

export const notFound = (entity: string, id: string): DomainError =>
  new DomainError('not_found', `${entity}_not_found`, `${entity} ${id} does not exist`, { id });

export const validation = (field: string, message: string, code = 'validation_failed'): DomainError =>
  new DomainError('validation', code, `${field}: ${message}`, { issues: [{ path: field, message }] });

export const conflict = (code: string, message: string, details?: Record<string, unknown>): DomainError =>
  new DomainError('conflict', code, message, details);

/** "a" or "an" before a word, by its first letter (good enough for the entity names of this product). */
export const article = (word: string): string => (/^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`);

export const invalidTransition = (entity: string, from: string, action: string): DomainError =>
  new DomainError('invalid_transition', 'invalid_state_transition', `cannot ${action} ${article(entity)} in state ${from}`, {
    entity,
    from,
    action,
  });
