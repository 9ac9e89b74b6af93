/**
 * Coterming (SPEC §2 Contract, §8 limits): a subscription added under a contract is aligned to end
 * on the contract's end date, on the subscription's real billing cadence (calendar months, as in
 * periods.ts), so its periods are the calendar periods that end on the contract end.
 *
 * - The aligned periods are found by stepping back whole cadence periods from contract_end, on
 *   contract_end's day of month clamped to shorter months (addMonthsClamped; anchor 31 gives
 *   …, 02-29, 03-31, 04-30, …). The returned anchor_day is the anchor the subscription must keep:
 *   periods.ts periodEnd(boundary, cadence, anchor_day) then steps forward along the same dates.
 * - The first period is the stub [start, first_period_end): the part of the calendar period
 *   [cycle_start, first_period_end) that contains the start. Its charge is the period amount
 *   prorated over that calendar period's own days (a stub in February 2024 is x/29 of a month,
 *   in February 2023 x/28), exact then rounded once HalfEven (proration.ts prorateDays). A start on
 *   a boundary makes the first period a full one.
 * - Days remaining = days in [start, contract_end). When fewer than
 *   COTERM_ONE_TIME_FEE_THRESHOLD_DAYS remain, no period is opened and the same remaining charge
 *   (stub + any whole periods, normally just the stub) is billed as one one-time fee.
 */
import { addMonthsClamped, dayNumber, daysBetween, parseCivilParts, type CivilDate } from './calendar.js';
import { CoreValidationError } from './errors.js';
import { CADENCE_MONTHS, type BillingCadence } from './periods.js';
import { prorateDays } from './proration.js';

export const COTERM_ONE_TIME_FEE_THRESHOLD_DAYS = 30;

export type CotermResult =
  | {
      readonly kind: 'OneTimeFee';
      readonly days_remaining: number;
      /** The remaining days' charge: the prorated stub plus any whole periods (see the file header). */
      readonly amount_nanos: bigint;
    }
  | {
      readonly kind: 'Aligned';
      readonly days_remaining: number;
      readonly period_start: CivilDate;
      /** The aligned end: the contract end date. */
      readonly period_end: CivilDate;
      /** Day of month the aligned periods keep (contract_end's day), for periods.ts periodEnd. */
      readonly anchor_day: number;
      readonly first_period_end: CivilDate;
      readonly first_period_days: number;
      /** Days of the calendar period [cycle start, first_period_end) the stub is prorated over. */
      readonly first_period_days_in_period: number;
      readonly first_period_amount_nanos: bigint;
      /** Whole cadence periods after the first one, ending exactly on period_end. */
      readonly full_periods_after: number;
    };

export function coterm(newSubscriptionStart: CivilDate, contractEnd: CivilDate, periodAmount: bigint, cadence: BillingCadence): CotermResult {
  const step = Object.hasOwn(CADENCE_MONTHS, cadence) ? CADENCE_MONTHS[cadence] : undefined;
  if (step === undefined) {
    throw new CoreValidationError('invalid_cadence', 'cadence', `cadence must be one of ${Object.keys(CADENCE_MONTHS).join(', ')}`);
  }
  if (typeof periodAmount !== 'bigint') throw new CoreValidationError('invalid_money', 'period_amount_nanos', 'expected a bigint amount');
  const start = dayNumber(newSubscriptionStart, 'start');
  const end = dayNumber(contractEnd, 'contract_end');
  const daysRemaining = end - start;
  if (daysRemaining <= 0) {
    throw new CoreValidationError('contract_ended', 'contract_end', 'the contract ends on or before the subscription start');
  }
  const anchor = parseCivilParts(contractEnd, 'contract_end').day;
  const boundary = (periods: number): CivilDate => addMonthsClamped(contractEnd, -periods * step, anchor);

  // Smallest k ≥ 1 with boundary(k) ≤ start. Boundaries fall strictly as k grows, so start from
  // the month distance (never past the answer) and walk forward a step or two.
  const from = parseCivilParts(newSubscriptionStart, 'start');
  const to = parseCivilParts(contractEnd, 'contract_end');
  const monthsApart = (to.year - from.year) * 12 + (to.month - from.month);
  let periods = (monthsApart - (monthsApart % step)) / step;
  if (periods < 1) periods = 1;
  while (periods > 1 && dayNumber(boundary(periods - 1)) <= start) periods -= 1;
  while (dayNumber(boundary(periods)) > start) periods += 1;

  const cycleStart = boundary(periods);
  const firstEnd = periods === 1 ? contractEnd : boundary(periods - 1);
  const stubDays = daysBetween(newSubscriptionStart, firstEnd);
  const cycleDays = daysBetween(cycleStart, firstEnd);
  const stubAmount = prorateDays(periodAmount, stubDays, cycleDays);
  const fullPeriodsAfter = periods - 1;

  if (daysRemaining < COTERM_ONE_TIME_FEE_THRESHOLD_DAYS) {
    return { kind: 'OneTimeFee', days_remaining: daysRemaining, amount_nanos: stubAmount + periodAmount * BigInt(fullPeriodsAfter) };
  }
  return {
    kind: 'Aligned',
    days_remaining: daysRemaining,
    period_start: newSubscriptionStart,
    period_end: contractEnd,
    anchor_day: anchor,
    first_period_end: firstEnd,
    first_period_days: stubDays,
    first_period_days_in_period: cycleDays,
    first_period_amount_nanos: stubAmount,
    full_periods_after: fullPeriodsAfter,
  };
}
