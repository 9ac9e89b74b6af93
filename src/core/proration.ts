/**
 * Day-based proration (SPEC: prorate_days, prorate_to_contract_end, prorate_overlap_credit,
 * cancellation_credit). Pure: dates are parameters, never "today".
 *
 * Conventions:
 * - A period is the half-open range of whole days [period_start, period_end): a monthly period
 *   2024-02-01 → 2024-03-01 has 29 days in 2024, 28 in 2023. A leap day is an ordinary day.
 * - Dates carry no time of day. A change (plan change, effective date) takes effect at the start
 *   of its date: that day belongs to the new terms, so the old terms are used on
 *   [period_start, change_date) and credited on [change_date, period_end).
 * - A cancellation date is a day the customer already had (a partial day counts as a full day of
 *   the side it starts on): service is used on [period_start, cancel_date] inclusive and the credit
 *   covers (cancel_date, period_end).
 * - amount × used / period is computed exactly and rounded once, HalfEven, to a raw unit. A credit
 *   is the complement of the charge for the used part (amount − charge), so charge + credit is
 *   always exactly the period amount; splitByDays splits with `allocate`, so parts sum exactly.
 */
import { dayNumber, type CivilDate } from './calendar.js';
import { CoreValidationError } from './errors.js';
import { allocate, roundDiv } from './money.js';

function assertDays(daysUsed: number, daysInPeriod: number): void {
  if (!Number.isSafeInteger(daysInPeriod) || daysInPeriod <= 0) {
    throw new CoreValidationError('invalid_period', 'days_in_period', 'days_in_period must be a positive whole number');
  }
  if (!Number.isSafeInteger(daysUsed) || daysUsed < 0 || daysUsed > daysInPeriod) {
    throw new CoreValidationError('invalid_days', 'days_used', 'days_used must be a whole number in 0..days_in_period');
  }
}

/** amount × daysUsed / daysInPeriod, exact then rounded once (HalfEven). */
export function prorateDays(amount: bigint, daysUsed: number, daysInPeriod: number): bigint {
  assertDays(daysUsed, daysInPeriod);
  if (daysUsed === daysInPeriod) return amount;
  return roundDiv(amount * BigInt(daysUsed), BigInt(daysInPeriod), 'HalfEven');
}

interface PeriodDays {
  readonly start: number;
  readonly end: number;
}

function period(periodStart: CivilDate, periodEnd: CivilDate): PeriodDays {
  const start = dayNumber(periodStart, 'period_start');
  const end = dayNumber(periodEnd, 'period_end');
  if (end <= start) {
    throw new CoreValidationError('empty_period', 'period_end', 'period_end must be after period_start (periods are [start, end))');
  }
  return { start, end };
}

function within(day: number, range: PeriodDays, field: string, endInclusive: boolean): void {
  if (day < range.start || day > range.end || (!endInclusive && day === range.end)) {
    throw new CoreValidationError('date_outside_period', field, `${field} must fall inside the period`);
  }
}

/**
 * The charge for the part of one period from `effectiveDate` up to the period end or the contract
 * end, whichever comes first: amount × days[effective, min(period_end, contract_end)) / period days.
 * A contract that ends on or before the effective date yields 0.
 */
export function prorateToContractEnd(
  amount: bigint,
  periodStart: CivilDate,
  periodEnd: CivilDate,
  effectiveDate: CivilDate,
  contractEnd: CivilDate,
): bigint {
  const range = period(periodStart, periodEnd);
  const effective = dayNumber(effectiveDate, 'effective_date');
  within(effective, range, 'effective_date', true);
  const end = Math.min(range.end, dayNumber(contractEnd, 'contract_end'));
  const used = end > effective ? end - effective : 0;
  return prorateDays(amount, used, range.end - range.start);
}

/**
 * Credit for the unused part of a period after a change effective on `changeDate` (the change day
 * belongs to the new terms): amount − charge for [period_start, change_date).
 */
export function prorateOverlapCredit(amount: bigint, periodStart: CivilDate, periodEnd: CivilDate, changeDate: CivilDate): bigint {
  const range = period(periodStart, periodEnd);
  const change = dayNumber(changeDate, 'change_date');
  within(change, range, 'change_date', true);
  return amount - prorateDays(amount, change - range.start, range.end - range.start);
}

/**
 * Credit after cancelling on `cancelDate` (a day of the period, counted as used):
 * amount − charge for [period_start, cancel_date]. Cancelling on the last day credits 0.
 */
export function cancellationCredit(amount: bigint, periodStart: CivilDate, periodEnd: CivilDate, cancelDate: CivilDate): bigint {
  const range = period(periodStart, periodEnd);
  const cancel = dayNumber(cancelDate, 'cancel_date');
  within(cancel, range, 'cancel_date', false);
  return amount - prorateDays(amount, cancel + 1 - range.start, range.end - range.start);
}

/**
 * Splits one period's amount over consecutive sub-periods [b0, b1), [b1, b2), … in proportion to
 * their days, with `allocate`, so the parts always sum exactly to `amount`.
 */
export function splitByDays(amount: bigint, boundaries: readonly CivilDate[]): bigint[] {
  if (boundaries.length < 2) {
    throw new CoreValidationError('invalid_boundaries', 'boundaries', 'need at least a start and an end date');
  }
  const days = boundaries.map((date, index) => dayNumber(date, `boundaries[${index}]`));
  const weights: bigint[] = [];
  for (let i = 1; i < days.length; i += 1) {
    const length = (days[i] as number) - (days[i - 1] as number);
    if (length <= 0) {
      throw new CoreValidationError('invalid_boundaries', `boundaries[${i}]`, 'boundaries must be strictly increasing');
    }
    weights.push(BigInt(length));
  }
  return allocate(amount, weights);
}

export {
  prorateDays as prorate_days,
  prorateToContractEnd as prorate_to_contract_end,
  prorateOverlapCredit as prorate_overlap_credit,
  cancellationCredit as cancellation_credit,
};
