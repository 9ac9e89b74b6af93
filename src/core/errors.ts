/**
 * The one error type the pure core throws. `code` is a stable machine-readable reason and
 * `field` names the offending input, so the HTTP layer can map it to its error envelope (400/422)
 * and workflows can mark it non-retryable without parsing messages.
 */
export interface Problem {
  readonly code: string;
  readonly field: string;
  readonly message: string;
}

export class CoreValidationError extends Error {
  override readonly name = 'CoreValidationError';
  readonly code: string;
  readonly field: string;
  /** Every problem found when several were collected (e.g. by validateSku); the first is `code`/`field`. */
  readonly problems: readonly Problem[];

  constructor(code: string, field: string, message: string, problems?: readonly Problem[]) {
    super(message);
    this.code = code;
    this.field = field;
    this.problems = problems ?? [{ code, field, message }];
  }

  static fromProblems(problems: readonly Problem[]): CoreValidationError {
    const first = problems[0];
    if (first === undefined) {
      throw new Error('CoreValidationError.fromProblems needs at least one problem');
    }
    const message = problems.map((p) => `${p.field}: ${p.message}`).join('; ');
    return new CoreValidationError(first.code, first.field, message, problems);
  }
}
