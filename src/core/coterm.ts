/**
 * Coterming (SPEC §2 Contract, §8 limits): a subscription added under a contract is aligned to end
 * on the contract's end date. When fewer than COTERM_ONE_TIME_FEE_THRESHOLD_DAYS days remain, no
 * subscription period is opened; the remaining days are billed as a one-time fee instead.
 *
 * Days remaining = days in [start, contract_end). The prorated amounts are
 * period_amount × days / period_days, exact then rounded once (HalfEven). When more than one
 * period remains, the first period is a stub (days_remaining mod period_days, or a full period
 * when that is 0) so that every following whole period ends exactly on the contract end.
 */
import { addDays, daysBetween, type CivilDate } from './calendar.js';
import { CoreValidationError } from './errors.js';
import { roundDiv } from './money.js';

export const COTERM_ONE_TIME_FEE_THRESHOLD_DAYS = 30;

export type CotermResult =
  | {
      readonly kind: 'OneTimeFee';
      readonly days_remaining: number;
      readonly amount_nanos: bigint;
    }
  | {
      readonly kind: 'Aligned';
      readonly days_remaining: number;
      readonly period_start: CivilDate;
      /** The aligned end: the contract end date. */
      readonly period_end: CivilDate;
      readonly first_period_end: CivilDate;
      readonly first_period_days: number;
      readonly first_period_amount_nanos: bigint;
      /** Whole periods after the first one, ending exactly on period_end. */
      readonly full_periods_after: number;
    };

export function coterm(newSubscriptionStart: CivilDate, contractEnd: CivilDate, periodAmount: bigint, periodDays: number): CotermResult {
  if (!Number.isSafeInteger(periodDays) || periodDays <= 0) {
    throw new CoreValidationError('invalid_period', 'period_days', 'period_days must be a positive whole number');
  }
  const daysRemaining = daysBetween(newSubscriptionStart, contractEnd);
  if (daysRemaining <= 0) {
    throw new CoreValidationError('contract_ended', 'contract_end', 'the contract ends on or before the subscription start');
  }
  const prorate = (days: number): bigint => roundDiv(periodAmount * BigInt(days), BigInt(periodDays), 'HalfEven');
  if (daysRemaining < COTERM_ONE_TIME_FEE_THRESHOLD_DAYS) {
    return { kind: 'OneTimeFee', days_remaining: daysRemaining, amount_nanos: prorate(daysRemaining) };
  }
  const stub = daysRemaining % periodDays === 0 ? periodDays : daysRemaining % periodDays;
  return {
    kind: 'Aligned',
    days_remaining: daysRemaining,
    period_start: newSubscriptionStart,
    period_end: contractEnd,
    first_period_end: addDays(newSubscriptionStart, stub),
    first_period_days: stub,
    first_period_amount_nanos: prorate(stub),
    full_periods_after: (daysRemaining - stub) / periodDays,
  };
}
