/**
 * The dunning schedule (SPEC §3): after a failed payment, retries at fixed days after the failure
 * (by default +3, +7, +14, +21), each with its notice to the customer: the first notifies, the next
 * ones escalate, the one before the last warns of suspension and the last suspends if it fails.
 * Pure: times are epoch milliseconds passed in, never read from a clock.
 */
import { CoreValidationError } from './errors.js';

export const DEFAULT_DUNNING_SCHEDULE_DAYS: readonly number[] = [3, 7, 14, 21];
export const MAX_DUNNING_DAYS = 365;
const DAY_MS = 86_400_000;

export type DunningNotice = 'notify' | 'escalate' | 'warn_suspension' | 'suspend';

/** Checks a schedule: at least one retry, whole days from 1 to 365, strictly increasing. */
export function validateDunningSchedule(days: readonly number[]): readonly number[] {
  if (days.length === 0) throw new CoreValidationError('invalid_days', 'schedule', 'a dunning schedule needs at least one retry');
  days.forEach((day, i) => {
    if (!Number.isSafeInteger(day) || day < 1 || day > MAX_DUNNING_DAYS) {
      throw new CoreValidationError('invalid_days', 'schedule', `retry ${i + 1} must be a whole number of days from 1 to ${MAX_DUNNING_DAYS}`);
    }
    if (i > 0 && day <= days[i - 1]!) throw new CoreValidationError('invalid_days', 'schedule', 'retry days must increase strictly');
  });
  return days;
}

/** Parses "3,7,14,21" (DUNNING_SCHEDULE_DAYS) into a validated schedule. */
export function parseDunningSchedule(text: string): readonly number[] {
  const parts = text.split(',').map((part) => part.trim());
  if (parts.some((part) => !/^[0-9]{1,3}$/.test(part))) {
    throw new CoreValidationError('invalid_days', 'schedule', 'expected comma-separated whole numbers of days, e.g. "3,7,14,21"');
  }
  return validateDunningSchedule(parts.map((part) => [...part].reduce((n, digit) => n * 10 + (digit.charCodeAt(0) - 48), 0)));
}

/** When retry `attempt` (1-based) is due: the failure time plus its number of days. */
export function dunningAttemptDueMs(failedAtMs: number, days: readonly number[], attempt: number): number {
  const offset = days[attempt - 1];
  if (offset === undefined || attempt < 1) throw new CoreValidationError('invalid_days', 'attempt', `the schedule has no retry ${attempt}`);
  return failedAtMs + offset * DAY_MS;
}

/** The notice that goes with retry `attempt` of a schedule of `total` retries. */
export function dunningNotice(attempt: number, total: number): DunningNotice {
  if (attempt >= total) return 'suspend';
  if (attempt === total - 1) return 'warn_suspension';
  return attempt === 1 ? 'notify' : 'escalate';
}

export interface DunningProgress {
  attemptCount: number;
  /** When the next retry is due, or null when none is left. */
  nextAttemptAtMs: number | null;
  /** True when the retry made was the last one. */
  exhausted: boolean;
}

/** The schedule's state once retry `attempt` has been made (and did not collect the invoice). */
export function afterDunningAttempt(failedAtMs: number, days: readonly number[], attempt: number): DunningProgress {
  const exhausted = attempt >= days.length;
  return { attemptCount: attempt, nextAttemptAtMs: exhausted ? null : dunningAttemptDueMs(failedAtMs, days, attempt + 1), exhausted };
}

/**
 * The `attempt_count` a schedule shows (SPEC §2: 1 to 4): the dunning attempt it is at, i.e. the
 * retry due next (1 before the first retry is made), capped at the last one, where a schedule whose
 * last retry was made (its outcome pending, or Exhausted) stays. A closed schedule keeps the figure it
 * closed at. The retries actually made (0 to the schedule's length) are `retries_made`.
 */
export function dunningAttemptShown(retriesMade: number, scheduleLength: number): number {
  const next = retriesMade < 0 ? 1 : retriesMade + 1;
  const last = scheduleLength < 1 ? 1 : scheduleLength;
  return next < last ? next : last;
}
