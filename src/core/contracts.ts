/**
 * Contract pricing terms (SPEC §2 Contract): contract discount, rate overrides, tier overrides,
 * escalation and ramp phases. Amounts are bigint raw units; rates are integer basis points
 * (10000 bps = 100%).
 *
 * - Contract discount: 0..10000 bps off a positive line; it never makes a charge negative and is
 *   not applied to credits (lines ≤ 0).
 * - RateOverride { product_tag, multiplier_bps }: multiplies the price of lines whose SKU tags
 *   include product_tag (8000 = 80% of list, 12000 = 120%). When several match, the first in the
 *   contract's list wins, so one line is never multiplied twice.
 * - TierOverride { sku_id, tiers }: custom enterprise tiers that replace a Graduated/Volume SKU's
 *   catalog tiers.
 * - Escalation, per elapsed period: Percent compounds, amount × (1 + bps/10000)^n, computed
 *   exactly and rounded once; Fixed adds n × amount_nanos to a recurring fee.
 * - Ramp phases: ContractTerm ranges are half-open [start_date, end_date); phaseAt picks the term
 *   in force on a date, and each term may carry its own discount and overrides.
 */
import type { CivilDate } from './calendar.js';
import { dayNumber, wholeMonthsBetween } from './calendar.js';
import { CoreValidationError, type Problem } from './errors.js';
import { roundDiv } from './money.js';
import type { Tier } from './pricing.js';

export const BPS_DENOMINATOR = 10_000n;

export type Escalation =
  | { readonly kind: 'Percent'; readonly basis_points: number }
  | { readonly kind: 'Fixed'; readonly amount_nanos: bigint };

export interface RateOverride {
  readonly product_tag: string;
  readonly multiplier_bps: number;
}

export interface TierOverride {
  readonly sku_id: string;
  readonly tiers: readonly Tier[];
}

export interface ContractTerm {
  readonly phase: number;
  readonly start_date: CivilDate;
  readonly end_date: CivilDate;
  readonly committed_amount_nanos: bigint;
  readonly description: string;
  readonly discount_bps?: number;
  readonly tier_overrides?: readonly TierOverride[];
  readonly rate_overrides?: readonly RateOverride[];
}

/**
 * When escalation steps happen: one step per completed `interval_months` since `start_date`. With
 * `end_date` (the contract's end), escalation prices only the days before it: a day on or after
 * end_date has no step in force, so a period crossing the contract end is escalated on its days
 * inside the contract only.
 */
export interface EscalationSchedule {
  readonly escalation: Escalation;
  readonly start_date: CivilDate;
  readonly interval_months: number;
  readonly end_date?: CivilDate;
}

/** Throws unless `value` is an integer number of basis points in [min, max]. */
export function assertBasisPoints(value: number, field: string, max: number = Number.MAX_SAFE_INTEGER): void {
  if (!Number.isSafeInteger(value) || value < 0 || value > max) {
    throw new CoreValidationError('invalid_basis_points', field, `expected an integer number of basis points in 0..${max}`);
  }
}

export function assertPeriods(value: number, field = 'periods_elapsed'): void {
  if (!Number.isSafeInteger(value) || value < 0 || value > 10_000) {
    throw new CoreValidationError('invalid_periods', field, 'expected a whole number of periods in 0..10000');
  }
}

/** amount × bps / 10000, rounded once HalfEven to a raw unit. */
export function applyBasisPoints(amount: bigint, bps: number): bigint {
  assertBasisPoints(bps, 'basis_points');
  return roundDiv(amount * BigInt(bps), BPS_DENOMINATOR, 'HalfEven');
}

export interface DiscountResult {
  readonly amount_nanos: bigint;
  readonly discount_nanos: bigint;
}

/** Contract discount on one charge: never negative, never applied to credits or zero. */
export function applyDiscount(amount: bigint, discountBps: number): DiscountResult {
  assertBasisPoints(discountBps, 'discount_bps', 10_000);
  if (amount <= 0n || discountBps === 0) return { amount_nanos: amount, discount_nanos: 0n };
  const discounted = roundDiv(amount * (BPS_DENOMINATOR - BigInt(discountBps)), BPS_DENOMINATOR, 'HalfEven');
  return { amount_nanos: discounted, discount_nanos: amount - discounted };
}

export function validateEscalation(escalation: Escalation, field = 'escalation'): void {
  if (escalation.kind === 'Percent') {
    assertBasisPoints(escalation.basis_points, `${field}.basis_points`);
  } else if (escalation.kind === 'Fixed') {
    if (typeof escalation.amount_nanos !== 'bigint' || escalation.amount_nanos < 0n) {
      throw new CoreValidationError('invalid_escalation', `${field}.amount_nanos`, 'a Fixed escalation needs a non-negative amount');
    }
  } else {
    throw new CoreValidationError('invalid_escalation', `${field}.kind`, "kind must be 'Percent' or 'Fixed'");
  }
}

/**
 * The amount after `periodsElapsed` escalation steps. Percent compounds and is rounded once at
 * the end (not per step): escalate(100, 10%, 2) = 121 exactly.
 */
export function escalate(amount: bigint, escalation: Escalation, periodsElapsed: number): bigint {
  validateEscalation(escalation);
  assertPeriods(periodsElapsed);
  if (periodsElapsed === 0) return amount;
  if (escalation.kind === 'Fixed') return amount + escalation.amount_nanos * BigInt(periodsElapsed);
  const n = BigInt(periodsElapsed);
  return roundDiv(amount * (BPS_DENOMINATOR + BigInt(escalation.basis_points)) ** n, BPS_DENOMINATOR ** n, 'HalfEven');
}

/** Escalation steps in force on `date`: whole `interval_months` since the schedule's start (0 from end_date on). */
export function escalationPeriodsAt(schedule: EscalationSchedule, date: CivilDate): number {
  if (!Number.isSafeInteger(schedule.interval_months) || schedule.interval_months < 1) {
    throw new CoreValidationError('invalid_escalation', 'escalation.interval_months', 'interval_months must be a positive integer');
  }
  if (schedule.end_date !== undefined && dayNumber(date) >= dayNumber(schedule.end_date, 'escalation.end_date')) return 0;
  const months = wholeMonthsBetween(schedule.start_date, date);
  return (months - (months % schedule.interval_months)) / schedule.interval_months;
}

/** The first override whose product_tag is among the SKU's tags. */
export function findRateOverride(
  tags: readonly string[] | undefined,
  overrides: readonly RateOverride[] | undefined,
): RateOverride | undefined {
  if (tags === undefined || overrides === undefined) return undefined;
  for (const override of overrides) {
    if (tags.includes(override.product_tag)) return override;
  }
  return undefined;
}

/** Problems with a list of ramp phases: bad dates, empty ranges, overlaps, duplicate phases. */
export function validateTerms(terms: readonly ContractTerm[]): Problem[] {
  const problems: Problem[] = [];
  const ranges: { phase: number; start: number; end: number; index: number }[] = [];
  const phases = new Set<number>();
  terms.forEach((term, index) => {
    const field = `terms[${index}]`;
    if (!Number.isSafeInteger(term.phase)) {
      problems.push({ code: 'invalid_phase', field: `${field}.phase`, message: 'phase must be an integer' });
    } else if (phases.has(term.phase)) {
      problems.push({ code: 'duplicate_phase', field: `${field}.phase`, message: `phase ${term.phase} appears twice` });
    }
    phases.add(term.phase);
    if (typeof term.committed_amount_nanos !== 'bigint' || term.committed_amount_nanos < 0n) {
      problems.push({ code: 'invalid_money', field: `${field}.committed_amount_nanos`, message: 'committed amount must be a non-negative amount' });
    }
    let start: number;
    let end: number;
    try {
      start = dayNumber(term.start_date, `${field}.start_date`);
      end = dayNumber(term.end_date, `${field}.end_date`);
    } catch (error) {
      if (error instanceof CoreValidationError) {
        problems.push(...error.problems);
        return;
      }
      throw error;
    }
    if (end <= start) {
      problems.push({ code: 'empty_term', field: `${field}.end_date`, message: 'end_date must be after start_date (terms are [start, end))' });
    }
    ranges.push({ phase: term.phase, start, end, index });
  });
  ranges.sort((a, b) => a.start - b.start || a.index - b.index);
  for (let i = 1; i < ranges.length; i += 1) {
    const previous = ranges[i - 1];
    const current = ranges[i];
    if (previous !== undefined && current !== undefined && current.start < previous.end) {
      problems.push({
        code: 'overlapping_terms',
        field: `terms[${current.index}].start_date`,
        message: `phase ${current.phase} starts before phase ${previous.phase} ends`,
      });
    }
  }
  return problems;
}

/** The ramp phase in force on `date` (start_date ≤ date < end_date), if any. */
export function phaseAt(terms: readonly ContractTerm[], date: CivilDate): ContractTerm | undefined {
  const problems = validateTerms(terms);
  if (problems.length > 0) throw CoreValidationError.fromProblems(problems);
  const day = dayNumber(date);
  return terms.find((term) => dayNumber(term.start_date) <= day && day < dayNumber(term.end_date));
}
