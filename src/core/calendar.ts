/**
 * Civil dates ('YYYY-MM-DD', SPEC: contract dates are ISO 8601 dates) as integer day numbers of
 * the proleptic Gregorian calendar, with no Date objects and no time zones: a date is a whole day.
 * Leap years follow the Gregorian rule (divisible by 4, except centuries not divisible by 400), so
 * 2024-02-29 exists, 1900-02-29 does not, and February 2024 has 29 days.
 *
 * Day numbers count days since 0000-03-01, which keeps every value for years 0001–9999
 * non-negative and lets all divisions below be exact non-negative integer divisions.
 */
import { CoreValidationError } from './errors.js';

/** An ISO 8601 calendar date, 'YYYY-MM-DD', years 0001–9999. */
export type CivilDate = string;

const DATE_PATTERN = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

/** Integer quotient of non-negative a by positive b, without floating-point rounding helpers. */
function quotient(a: number, b: number): number {
  return (a - (a % b)) / b;
}

function digits(text: string, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i += 1) value = value * 10 + (text.charCodeAt(i) - 48);
  return value;
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

export interface CivilParts {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

export function parseCivilParts(date: CivilDate, field = 'date'): CivilParts {
  if (typeof date !== 'string' || !DATE_PATTERN.test(date)) {
    throw new CoreValidationError('invalid_date', field, `expected a date 'YYYY-MM-DD', got ${typeof date === 'string' ? JSON.stringify(date.slice(0, 40)) : typeof date}`);
  }
  const year = digits(date, 0, 4);
  const month = digits(date, 5, 7);
  const day = digits(date, 8, 10);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new CoreValidationError('invalid_date', field, `${date} is not a calendar date`);
  }
  return { year, month, day };
}

/** Day number of a date (days since 0000-03-01). */
export function dayNumber(date: CivilDate, field = 'date'): number {
  const { year, month, day } = parseCivilParts(date, field);
  const y = month <= 2 ? year - 1 : year;
  const era = quotient(y, 400);
  const yearOfEra = y - era * 400;
  const monthFromMarch = (month + 9) % 12;
  const dayOfYear = quotient(153 * monthFromMarch + 2, 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + quotient(yearOfEra, 4) - quotient(yearOfEra, 100) + dayOfYear;
  return era * 146097 + dayOfEra;
}

/** The date of a day number (inverse of dayNumber). */
export function fromDayNumber(days: number): CivilDate {
  if (!Number.isSafeInteger(days) || days < 306 || days > 3652364) {
    throw new CoreValidationError('invalid_date', 'date', 'date out of the supported range 0001-01-01..9999-12-31');
  }
  const era = quotient(days, 146097);
  const dayOfEra = days - era * 146097;
  const yearOfEra = quotient(dayOfEra - quotient(dayOfEra, 1460) + quotient(dayOfEra, 36524) - quotient(dayOfEra, 146096), 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + quotient(yearOfEra, 4) - quotient(yearOfEra, 100));
  const monthFromMarch = quotient(5 * dayOfYear + 2, 153);
  const day = dayOfYear - quotient(153 * monthFromMarch + 2, 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Whole days from `from` to `to` (negative when `to` is earlier): the length of [from, to). */
export function daysBetween(from: CivilDate, to: CivilDate): number {
  return dayNumber(to, 'to') - dayNumber(from, 'from');
}

export function addDays(date: CivilDate, days: number): CivilDate {
  return fromDayNumber(dayNumber(date) + days);
}

export function compareDates(a: CivilDate, b: CivilDate): -1 | 0 | 1 {
  const x = dayNumber(a, 'a');
  const y = dayNumber(b, 'b');
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Whole calendar months from `from` to `to` (0 when `to` is earlier): a month is complete on the
 * same day-of-month, or on the last day of a shorter month (2024-01-31 → 2024-02-29 is 1 month).
 */
export function wholeMonthsBetween(from: CivilDate, to: CivilDate): number {
  const a = parseCivilParts(from, 'from');
  const b = parseCivilParts(to, 'to');
  let months = (b.year - a.year) * 12 + (b.month - a.month);
  const monthEnded = b.day >= a.day || b.day === daysInMonth(b.year, b.month);
  if (!monthEnded) months -= 1;
  return months < 0 ? 0 : months;
}

/**
 * The date `months` calendar months after `date` (before it when negative), on day `anchorDay` of
 * the target month clamped to that month's length: the civil-date twin of periods.ts
 * addMonthsAnchored, so stepping back from a date and forward again lands on the same days
 * (anchor 31: 2024-03-31 → −1 → 2024-02-29 → +1 → 2024-03-31).
 */
export function addMonthsClamped(date: CivilDate, months: number, anchorDay: number): CivilDate {
  if (!Number.isSafeInteger(months)) throw new CoreValidationError('invalid_months', 'months', 'months must be an integer');
  if (!Number.isSafeInteger(anchorDay) || anchorDay < 1 || anchorDay > 31) {
    throw new CoreValidationError('invalid_anchor_day', 'anchor_day', 'must be an integer 1-31');
  }
  const { year, month } = parseCivilParts(date);
  const index = year * 12 + (month - 1) + months;
  const targetYear = quotient(index, 12);
  if (index < 12 || targetYear > 9999) {
    throw new CoreValidationError('invalid_date', 'date', 'date out of the supported range 0001-01-01..9999-12-31');
  }
  const targetMonth = (index % 12) + 1;
  const length = daysInMonth(targetYear, targetMonth);
  const day = anchorDay < length ? anchorDay : length;
  return `${String(targetYear).padStart(4, '0')}-${String(targetMonth).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
