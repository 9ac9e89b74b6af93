/**
 * Billing periods on instants (epoch milliseconds, UTC). A period is [start, end). Monthly-based
 * cadences keep the anchor day of the subscription's first period: a period anchored on the 31st
 * ends on the last day of shorter months (Jan 31 → Feb 29 in a leap year → Mar 31), never drifting.
 * Pure: time is always a parameter.
 */
import { dayNumber, daysInMonth, fromDayNumber, parseCivilParts } from './calendar.js';
import { CoreValidationError } from './errors.js';

export type BillingCadence = 'Monthly' | 'Quarterly' | 'SemiAnnual' | 'Annual';

export const CADENCE_MONTHS: Readonly<Record<BillingCadence, number>> = {
  Monthly: 1,
  Quarterly: 3,
  SemiAnnual: 6,
  Annual: 12,
};

const DAY_MS = 86_400_000;

const EPOCH_DAY = dayNumber('1970-01-01');

/** Integer quotient rounding toward −∞ (instants before 1970 stay correct). */
function floorDiv(a: number, b: number): number {
  const r = a % b;
  return (a - r) / b - (r < 0 ? 1 : 0);
}

/** The instant `months` calendar months after `fromMs`, on `anchorDay` clamped to the month's length. */
export function addMonthsAnchored(fromMs: number, months: number, anchorDay: number): number {
  if (!Number.isInteger(months) || months < 0) throw new CoreValidationError('invalid_months', 'months', 'must be a non-negative integer');
  if (!Number.isInteger(anchorDay) || anchorDay < 1 || anchorDay > 31) {
    throw new CoreValidationError('invalid_anchor_day', 'anchor_day', 'must be an integer 1-31');
  }
  const days = floorDiv(fromMs, DAY_MS);
  const timeOfDay = fromMs - days * DAY_MS;
  const { year, month } = parseCivilParts(fromDayNumber(days + EPOCH_DAY));
  const monthIndex = month - 1 + months;
  const targetYear = year + floorDiv(monthIndex, 12);
  const targetMonth = (monthIndex % 12) + 1;
  const day = Math.min(anchorDay, daysInMonth(targetYear, targetMonth));
  const date = `${String(targetYear).padStart(4, '0')}-${String(targetMonth).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return (dayNumber(date) - EPOCH_DAY) * DAY_MS + timeOfDay;
}

/** Day of month (1-31, UTC) of an instant: the anchor of a subscription started then. */
export function anchorDayOf(ms: number): number {
  return parseCivilParts(fromDayNumber(floorDiv(ms, DAY_MS) + EPOCH_DAY)).day;
}

/** End of the period starting at `startMs` for the cadence, anchored on `anchorDay`. */
export function periodEnd(startMs: number, cadence: BillingCadence, anchorDay: number): number {
  return addMonthsAnchored(startMs, CADENCE_MONTHS[cadence], anchorDay);
}

/** `days` whole days after `fromMs` (trials). */
export function addDaysMs(fromMs: number, days: number): number {
  if (!Number.isInteger(days) || days < 0) throw new CoreValidationError('invalid_days', 'days', 'must be a non-negative integer');
  return fromMs + days * DAY_MS;
}
