/**
 * Rating a plan for one billing period: usage quantities + the plan's SKU prices + optional
 * contract terms → rated lines and totals. Pure and deterministic: the same input gives a
 * deep-equal output (lines follow the order of `skus`).
 *
 * Contract resolution on `asOf` (normally the period start):
 * - the ramp phase in force (ContractTerm, [start_date, end_date)) supplies discount_bps,
 *   tier_overrides and rate_overrides; whatever the phase leaves out falls back to the
 *   contract-level values;
 * - escalation steps = whole `interval_months` elapsed from the escalation schedule's start.
 * `service` (optional) is the part of the period actually served, for subscriptions that start or
 * end mid-period: recurring fees (Flat, Committed) are prorated by its days over the period's days.
 *
 * ratePlan applies the terms of one date to the whole period. A period that crosses a phase or
 * escalation boundary needs ratePeriodAcrossPhases (below), which splits it there.
 */
import { addMonthsClamped, daysBetween, dayNumber, fromDayNumber, parseCivilParts, type CivilDate } from './calendar.js';
import {
  escalationPeriodsAt,
  phaseAt,
  validateTerms,
  type ContractTerm,
  type EscalationSchedule,
  type RateOverride,
  type TierOverride,
} from './contracts.js';
import { addQuantity, compareQuantity, formatQuantity, parseQuantity, roundRational, subtractQuantity, ZERO_QUANTITY, type Quantity } from './decimal.js';
import { dimensionalMeterKey, dimensionLabel, dimensionLineKey, dimensionsOfSuffix, groupedUsagePrefix, isOtherBucket, type DimensionValues } from './dimensions.js';
import { CoreValidationError, type Problem } from './errors.js';
import { formatMoney } from './money.js';
import {
  dimensionPriceSku,
  MINIMUM_MODELS,
  percentageDetail,
  rateSku,
  usageKey,
  serializeRatedLine,
  type Adjustment,
  type AdjustmentKind,
  type RatedLine,
  type RatedLineJson,
  type RatedTier,
  type RateOptions,
  type SkuPrice,
} from './pricing.js';

export interface ContractPricing {
  readonly discount_bps?: number;
  readonly tier_overrides?: readonly TierOverride[];
  readonly rate_overrides?: readonly RateOverride[];
  readonly terms?: readonly ContractTerm[];
  readonly escalation?: EscalationSchedule;
}

/** Half-open [start, end) range of whole days. */
export interface DateRange {
  readonly start: CivilDate;
  readonly end: CivilDate;
}

export type UsageQuantities = ReadonlyMap<string, string> | Readonly<Record<string, string>>;

export interface RatePlanInput {
  readonly skus: readonly SkuPrice[];
  /**
   * meter id (a SKU's resolved `meter.meter_id`) or meter_event_type → aggregated quantity (decimal
   * string); a Percentage SKU's quantity (the sum of its per-event fees in currency units) under its
   * sku_id (usageKey); missing keys count as 0.
   */
  readonly usage: UsageQuantities;
  readonly contract?: ContractPricing;
  readonly asOf: CivilDate;
  readonly period: DateRange;
  readonly service?: DateRange;
}

export interface RatedPlan {
  readonly currency: string;
  readonly period: DateRange;
  /** The ramp phase applied, or null when no term is in force. */
  readonly phase: number | null;
  readonly lines: readonly RatedLine[];
  /** The minimum-spend true-ups of SKUs with a minimum_amount_nanos, after the lines. */
  readonly minimums: readonly MinimumTrueUp[];
  /** Σ lines' subtotals + Σ true-ups. */
  readonly subtotal_nanos: bigint;
  readonly discount_nanos: bigint;
  /** Σ lines' amounts + Σ true-ups. */
  readonly total_nanos: bigint;
}

/**
 * A SKU's minimum spend for a period, against what its line bills: the true-up is
 * max(0, minimum − the line's amount), the line's amount after every adjustment (contract discount
 * included); the minimum itself takes no contract adjustment. A subscription (or plan phase) that
 * serves only part of the period owes the minimum prorated by those days, like a Flat fee
 * (minimum × days_used / days_in_period, exact, rounded once HalfEven).
 */
export interface MinimumTrueUp {
  readonly sku_id: string;
  readonly description: string;
  /** The minimum for the days served (the SKU's minimum_amount_nanos when the whole period is). */
  readonly minimum_amount_nanos: bigint;
  /** What the SKU's line bills in the period. */
  readonly usage_amount_nanos: bigint;
  /** max(0, minimum − usage): the true-up line. */
  readonly amount_nanos: bigint;
  readonly proration: { readonly days_used: number; readonly days_in_period: number } | null;
}

/**
 * The true-ups of the SKUs with a minimum, one per such SKU, in the order of `skus`, against the
 * SKU's lines (a dimensional SKU's minimum is judged on the sum of its dimension lines).
 */
export function minimumTrueUps(skus: readonly SkuPrice[], lines: readonly RatedLine[], proration: RateOptions['proration']): MinimumTrueUp[] {
  const out: MinimumTrueUp[] = [];
  const amounts = new Map<string, bigint>();
  for (const line of lines) amounts.set(line.sku_id, (amounts.get(line.sku_id) ?? 0n) + line.amount_nanos);
  skus.forEach((sku) => {
    const minimum = sku.minimum_amount_nanos;
    if (minimum === undefined || !MINIMUM_MODELS.has(sku.pricing_model)) return;
    const partial = proration !== undefined && proration.days_used !== proration.days_in_period;
    const owed = partial ? roundRational({ num: minimum * BigInt(proration.days_used), den: BigInt(proration.days_in_period) }) : minimum;
    const usage = amounts.get(sku.sku_id) ?? 0n;
    out.push({
      sku_id: sku.sku_id,
      description: `${sku.name} · minimum spend`,
      minimum_amount_nanos: owed,
      usage_amount_nanos: usage,
      amount_nanos: owed > usage ? owed - usage : 0n,
      proration: partial ? { days_used: proration.days_used, days_in_period: proration.days_in_period } : null,
    });
  });
  return out;
}

export interface MinimumTrueUpJson {
  readonly sku_id: string;
  readonly description: string;
  readonly minimum_amount_nanos: string;
  readonly usage_amount_nanos: string;
  readonly amount_nanos: string;
  readonly proration: { readonly days_used: number; readonly days_in_period: number } | null;
}

export function serializeMinimumTrueUp(minimum: MinimumTrueUp): MinimumTrueUpJson {
  return {
    sku_id: minimum.sku_id,
    description: minimum.description,
    minimum_amount_nanos: formatMoney(minimum.minimum_amount_nanos),
    usage_amount_nanos: formatMoney(minimum.usage_amount_nanos),
    amount_nanos: formatMoney(minimum.amount_nanos),
    proration: minimum.proration,
  };
}

function usageFor(usage: UsageQuantities, meter: string): string | undefined {
  if (usage instanceof Map) return usage.get(meter);
  const record = usage as Readonly<Record<string, string>>;
  return Object.hasOwn(record, meter) ? record[meter] : undefined;
}

/**
 * A usage SKU's quantity: a Percentage SKU's under its sku_id (usageKey), others' under their
 * resolved meter's id, else their meter_event_type; missing is undefined.
 */
function skuQuantity(usage: UsageQuantities, sku: SkuPrice): string | undefined {
  if (sku.pricing_model === 'Percentage') return usageFor(usage, usageKey(sku) as string);
  return (sku.meter === undefined ? undefined : usageFor(usage, sku.meter.meter_id)) ?? usageFor(usage, sku.meter_event_type as string);
}

/*
 * ---------------------------------------------------------------------------------------------
 * Dimensional SKUs (pricing.ts Dimensional, dimensions.ts): one line per dimension value, in the
 * order of the values' keys (the `other` bucket last). A listed value is priced by its own terms,
 * any other by the SKU's (a contract's tier override replaces only the SKU's own tiers).
 * - tier_scope per_value: each value's units fill the tiers from 0, as if it were a SKU of its own.
 * - tier_scope across_all: the values' units share one tier count: the units of a value occupy the
 *   positions after those of the values before it (in that order), and its line is
 *   R_v(position + q) − R_v(position) under its own price R_v ("rate to date, invoice the
 *   difference" across values). When every value has one price, the lines sum to the rating of the
 *   total; a Volume line may be negative across a cheaper-tier cliff, as across contract phases.
 * ---------------------------------------------------------------------------------------------
 */

/** A dimensional SKU's quantity per value (keyed by the value's usage key suffix). */
function groupedQuantities(usage: UsageQuantities | undefined, sku: SkuPrice): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  if (usage === undefined || sku.dimensional === undefined) return out;
  const prefix = groupedUsagePrefix(dimensionalMeterKey(sku), sku.dimensional.group_by);
  const entries = usage instanceof Map ? [...usage.entries()] : Object.entries(usage as Readonly<Record<string, string>>);
  for (const [key, quantity] of entries) if (key.startsWith(prefix)) out.set(key.slice(prefix.length), parseQuantity(quantity));
  return out;
}

/** The price of one dimension value, named after it on its line. */
function dimensionPrice(sku: SkuPrice, dimensions: DimensionValues): { price: SkuPrice; listed: boolean } {
  const dimensional = sku.dimensional!;
  const listed = isOtherBucket(dimensions)
    ? undefined
    : dimensional.prices.find((price) => dimensional.group_by.every((key) => price.values[key] === dimensions[key]));
  return { price: { ...dimensionPriceSku(sku, listed), name: `${sku.name} · ${dimensionLabel(dimensions)}` }, listed: listed !== undefined };
}

const NO_QUANTITIES: ReadonlyMap<string, Quantity> = new Map();

/** R(to) − R(from) under one price: the line of the units at positions (from, to]. */
function rateBetween(price: SkuPrice, from: Quantity, to: Quantity, options: RateOptions): RatedLine {
  const after = rateSku(price, to, options);
  if (from.coefficient === 0n) return after;
  return sumLines(price, formatQuantity(subtractQuantity(to, from)), [[after, 1n], [rateSku(price, from, options), -1n]]);
}

/**
 * The lines of a dimensional SKU for the usage between two to-date readings (`before` undefined:
 * from the period start), per value. No value at all: one line at 0 (the SKU still appears).
 */
function rateDimensionalSpan(sku: SkuPrice, before: ReadonlyMap<string, Quantity> | undefined, after: ReadonlyMap<string, Quantity>, options: RateOptions): RatedLine[] {
  const dimensional = sku.dimensional!;
  const earlier = before ?? NO_QUANTITIES;
  const suffixes = [...new Set([...earlier.keys(), ...after.keys()])].sort((a, b) => (a === 'other' ? 1 : b === 'other' ? -1 : a < b ? -1 : a > b ? 1 : 0));
  if (suffixes.length === 0) return [rateSku(dimensionPriceSku(sku, undefined), '0', options)];
  const { tier_override: _override, ...withoutOverride } = options;
  let position = ZERO_QUANTITY;
  if (dimensional.tier_scope === 'across_all') for (const q of earlier.values()) position = addQuantity(position, q);
  return suffixes.map((suffix) => {
    const dimensions = dimensionsOfSuffix(dimensional.group_by, suffix);
    const { price, listed } = dimensionPrice(sku, dimensions);
    const from = earlier.get(suffix) ?? ZERO_QUANTITY;
    const to = after.get(suffix) ?? ZERO_QUANTITY;
    const quantity = compareQuantity(to, from) < 0 ? ZERO_QUANTITY : subtractQuantity(to, from);
    const opts = listed ? withoutOverride : options;
    let line: RatedLine;
    if (dimensional.tier_scope === 'per_value') {
      line = rateBetween(price, from, compareQuantity(to, from) < 0 ? from : to, opts);
    } else {
      const end = addQuantity(position, quantity);
      line = rateBetween(price, position, end, opts);
      position = end;
    }
    return { ...line, dimensions };
  });
}

function prorationFor(period: DateRange, service: DateRange | undefined): RateOptions['proration'] {
  const periodDays = daysBetween(period.start, period.end);
  if (periodDays <= 0) {
    throw new CoreValidationError('empty_period', 'period.end', 'period.end must be after period.start (periods are [start, end))');
  }
  if (service === undefined) return undefined;
  const start = dayNumber(service.start, 'service.start');
  const end = dayNumber(service.end, 'service.end');
  if (start < dayNumber(period.start) || end > dayNumber(period.end) || end <= start) {
    throw new CoreValidationError('invalid_service', 'service', 'service must be a non-empty range inside the period');
  }
  return { days_used: end - start, days_in_period: periodDays };
}

function tierOverridesBySku(overrides: readonly TierOverride[] | undefined, skus: readonly SkuPrice[]): Map<string, TierOverride['tiers']> {
  const bySku = new Map<string, TierOverride['tiers']>();
  const known = new Set(skus.map((sku) => sku.sku_id));
  (overrides ?? []).forEach((override, index) => {
    if (!known.has(override.sku_id)) {
      throw new CoreValidationError('unknown_sku', `tier_overrides[${index}].sku_id`, `no SKU ${override.sku_id} in this plan`);
    }
    if (bySku.has(override.sku_id)) {
      throw new CoreValidationError('duplicate_override', `tier_overrides[${index}].sku_id`, `two tier overrides for SKU ${override.sku_id}`);
    }
    bySku.set(override.sku_id, override.tiers);
  });
  return bySku;
}

function assertPlanSkus(skus: readonly SkuPrice[]): SkuPrice {
  const first = skus[0];
  if (first === undefined) throw new CoreValidationError('no_skus', 'skus', 'a plan needs at least one SKU');
  const ids = new Set<string>();
  skus.forEach((sku, index) => {
    if (sku.currency !== first.currency) {
      throw new CoreValidationError('mixed_currencies', `skus[${index}].currency`, 'all SKUs of a plan must share one currency');
    }
    if (ids.has(sku.sku_id)) throw new CoreValidationError('duplicate_sku', `skus[${index}].sku_id`, `SKU ${sku.sku_id} appears twice`);
    ids.add(sku.sku_id);
    if (sku.pricing_model !== 'Flat' && (typeof sku.meter_event_type !== 'string' || sku.meter_event_type === '')) {
      throw new CoreValidationError('meter_required', `skus[${index}].meter_event_type`, `${sku.pricing_model} pricing needs a meter_event_type`);
    }
  });
  return first;
}

/** The contract terms in force on one date, as rateSku options (without proration). */
interface TermsAt {
  readonly phase: ContractTerm | undefined;
  readonly escalationPeriods: number;
  readonly options: RateOptions;
  readonly tierOverrides: ReadonlyMap<string, TierOverride['tiers']>;
}

function termsAt(contract: ContractPricing | undefined, skus: readonly SkuPrice[], date: CivilDate): TermsAt {
  const phase = contract?.terms === undefined ? undefined : phaseAt(contract.terms, date);
  const discountBps = phase?.discount_bps ?? contract?.discount_bps;
  const rateOverrides = phase?.rate_overrides ?? contract?.rate_overrides;
  const tierOverrides = tierOverridesBySku(phase?.tier_overrides ?? contract?.tier_overrides, skus);
  const schedule = contract?.escalation;
  const escalationPeriods = schedule === undefined ? 0 : escalationPeriodsAt(schedule, date);
  const options: RateOptions = {
    ...(discountBps === undefined ? {} : { discount_bps: discountBps }),
    ...(rateOverrides === undefined ? {} : { rate_overrides: rateOverrides }),
    ...(schedule === undefined ? {} : { escalation: schedule.escalation, periods_elapsed: escalationPeriods }),
  };
  return { phase, escalationPeriods, options, tierOverrides };
}

function optionsFor(terms: TermsAt, sku: SkuPrice, proration: RateOptions['proration']): RateOptions {
  const override = terms.tierOverrides.get(sku.sku_id);
  if (override === undefined && proration === undefined) return terms.options;
  return {
    ...terms.options,
    ...(proration === undefined ? {} : { proration }),
    ...(override === undefined ? {} : { tier_override: override }),
  };
}

/**
 * Rates the whole period under the terms in force on `asOf`. A period that crosses a ramp phase
 * or escalation boundary is rated under one side of it only: use ratePeriodAcrossPhases for that.
 */
export function ratePlan(input: RatePlanInput): RatedPlan {
  const { skus, usage, contract, asOf, period } = input;
  const first = assertPlanSkus(skus);
  dayNumber(asOf, 'asOf');
  const proration = prorationFor(period, input.service);
  const terms = termsAt(contract, skus, asOf);
  const phase = terms.phase;

  const lines = skus.flatMap((sku) => {
    if (sku.dimensional !== undefined) return rateDimensionalSpan(sku, undefined, groupedQuantities(usage, sku), optionsFor(terms, sku, proration));
    const quantity = sku.pricing_model === 'Flat' ? '0' : (skuQuantity(usage, sku) ?? '0');
    return [rateSku(sku, quantity, optionsFor(terms, sku, proration))];
  });
  const minimums = minimumTrueUps(skus, lines, proration);

  return { currency: first.currency, period, phase: phase === undefined ? null : phase.phase, lines, minimums, ...totals(lines, minimums) };
}

export interface RatedPlanJson {
  readonly currency: string;
  readonly period: DateRange;
  readonly phase: number | null;
  readonly lines: readonly RatedLineJson[];
  readonly minimums: readonly MinimumTrueUpJson[];
  readonly subtotal_nanos: string;
  readonly discount_nanos: string;
  readonly total_nanos: string;
}

/** JSON-safe form of a RatedPlan (money as decimal strings), e.g. for Temporal payloads. */
export function serializeRatedPlan(plan: RatedPlan): RatedPlanJson {
  return {
    currency: plan.currency,
    period: { start: plan.period.start, end: plan.period.end },
    phase: plan.phase,
    lines: plan.lines.map(serializeRatedLine),
    minimums: plan.minimums.map(serializeMinimumTrueUp),
    subtotal_nanos: formatMoney(plan.subtotal_nanos),
    discount_nanos: formatMoney(plan.discount_nanos),
    total_nanos: formatMoney(plan.total_nanos),
  };
}

/*
 * ---------------------------------------------------------------------------------------------
 * Rating one period across ramp phases and escalation steps.
 *
 * The period (or the served part of it) is split at every date inside it where the terms change:
 * a ContractTerm's start_date or end_date, or an escalation step date (schedule start +
 * n × interval_months, on the start's day of month clamped to shorter months, which is exactly
 * where escalationPeriodsAt steps up). Each piece is rated under the terms in force on its first
 * day, constant over the piece by construction.
 *
 * - Recurring fees (Flat, and the commit of Committed) are prorated by days: piece days / period
 *   days, the proration convention of ratePlan's `service` (exact, rounded once per line HalfEven).
 * - Usage is priced under the terms of the piece in which it was consumed, with tiers counted over
 *   the whole period: the caller gives period-to-date quantities at each inner boundary
 *   (usage_to_date[date] = usage over [period.start, date)) and the whole period's quantities
 *   (usage). With C_i the period-to-date quantity at the end of piece i (C_0 = 0) and R_i the
 *   full-period rating under piece i's terms, the piece's usage line is R_i(C_i) − R_i(C_{i−1}):
 *   the units of piece i occupy tier positions (C_{i−1}, C_i], so a free or cheap first tier is
 *   granted once per period, not once per piece, and Graduated/PerUnit/Package units are priced at
 *   exactly their marginal tier price. For Volume it is the piece's increase of the volume charge
 *   (negative across a cheaper-tier cliff). It is the "rate to date, invoice the difference" rule
 *   of invoicing.ts applied at term boundaries. Period-to-date quantities (not per-window ones)
 *   keep Max and UniqueCount meters right, since those are not sums over windows.
 * - Committed = the piece's prorated commit + the piece's usage line as above, where R_i values
 *   usage against the period's whole commit (prorated by the service days when the subscription
 *   only serves part of the period, as ratePlan does).
 * With one piece the result equals ratePlan(asOf = the piece start); when every piece has the same
 * terms the usage lines telescope to the whole-period rating.
 * ---------------------------------------------------------------------------------------------
 */

/** Upper bound on pieces per period: a guard against absurd periods, far above real contracts. */
export const MAX_PERIOD_PIECES = 1000;

export interface PeriodPiece {
  readonly start: CivilDate;
  /** Exclusive. */
  readonly end: CivilDate;
  readonly days: number;
  /** The ramp phase in force on the piece, or null (contract-level terms). */
  readonly phase: number | null;
  readonly escalation_periods: number;
}

function rangeOf(period: DateRange, service: DateRange | undefined): { start: number; end: number } {
  prorationFor(period, service);
  const range = service ?? period;
  return { start: dayNumber(range.start), end: dayNumber(range.end) };
}

/** Escalation step dates strictly inside (start, end), as day numbers. */
function escalationBoundaries(schedule: EscalationSchedule, start: number, end: number): number[] {
  // Steps completed on the range's first and last day bound the loop (and validate the schedule).
  // The schedule's end (when inside the range) is a boundary too: escalation stops there.
  const scheduleEnd = schedule.end_date === undefined ? end : dayNumber(schedule.end_date, 'escalation.end_date');
  const stop = scheduleEnd < end ? scheduleEnd : end;
  const found: number[] = stop > start && stop < end ? [stop] : [];
  if (stop <= start) return found;
  const first = escalationPeriodsAt(schedule, fromDayNumber(start));
  const last = escalationPeriodsAt(schedule, fromDayNumber(stop - 1));
  const anchor = parseCivilParts(schedule.start_date, 'escalation.start_date').day;
  for (let step = first < 1 ? 1 : first; step <= last; step += 1) {
    const day = dayNumber(addMonthsClamped(schedule.start_date, step * schedule.interval_months, anchor));
    if (day > start && day < stop) found.push(day);
    if (found.length >= MAX_PERIOD_PIECES) {
      throw new CoreValidationError('too_many_pieces', 'period', `a period may cross at most ${MAX_PERIOD_PIECES - 1} phase or escalation boundaries`);
    }
  }
  return found;
}

/**
 * The pieces of [period.start, period.end) — or of `service` when given — between which the
 * contract terms change (see above). Without a contract, or with no boundary inside, one piece.
 */
export function periodPieces(period: DateRange, contract?: ContractPricing, service?: DateRange): PeriodPiece[] {
  const { start, end } = rangeOf(period, service);
  const cuts = new Set<number>();
  if (contract?.terms !== undefined) {
    const problems = validateTerms(contract.terms);
    if (problems.length > 0) throw CoreValidationError.fromProblems(problems);
    for (const term of contract.terms) {
      for (const day of [dayNumber(term.start_date), dayNumber(term.end_date)]) if (day > start && day < end) cuts.add(day);
    }
  }
  if (contract?.escalation !== undefined) for (const day of escalationBoundaries(contract.escalation, start, end)) cuts.add(day);
  if (cuts.size >= MAX_PERIOD_PIECES) {
    throw new CoreValidationError('too_many_pieces', 'period', `a period may cross at most ${MAX_PERIOD_PIECES - 1} phase or escalation boundaries`);
  }
  const days = [start, ...[...cuts].sort((a, b) => a - b), end];
  const pieces: PeriodPiece[] = [];
  for (let i = 1; i < days.length; i += 1) {
    const from = fromDayNumber(days[i - 1] as number);
    const phase = contract?.terms === undefined ? undefined : phaseAt(contract.terms, from);
    pieces.push({
      start: from,
      end: fromDayNumber(days[i] as number),
      days: (days[i] as number) - (days[i - 1] as number),
      phase: phase === undefined ? null : phase.phase,
      escalation_periods: contract?.escalation === undefined ? 0 : escalationPeriodsAt(contract.escalation, from),
    });
  }
  return pieces;
}

export type UsageToDate = ReadonlyMap<CivilDate, UsageQuantities> | Readonly<Record<CivilDate, UsageQuantities>>;

export interface RatePeriodInput {
  readonly skus: readonly SkuPrice[];
  /** meter_event_type → quantity over the whole period (as ratePlan's usage); missing meters count as 0. */
  readonly usage: UsageQuantities;
  /**
   * Period-to-date usage at each inner boundary: date → meter → quantity over [period.start, date).
   * Exactly the dates where periodPieces() starts a piece after the first; missing meters count as 0.
   */
  readonly usage_to_date?: UsageToDate;
  readonly contract?: ContractPricing;
  readonly period: DateRange;
  readonly service?: DateRange;
}

export interface RatedPiece extends PeriodPiece {
  /** One line per SKU, in the order of `skus`; quantity is the piece's share of the usage. */
  readonly lines: readonly RatedLine[];
  readonly subtotal_nanos: bigint;
  readonly discount_nanos: bigint;
  readonly total_nanos: bigint;
}

export interface RatedPeriod {
  readonly currency: string;
  readonly period: DateRange;
  readonly pieces: readonly RatedPiece[];
  /** One line per SKU: the sum of its piece lines (every amount, adjustment kind and tier summed). */
  readonly lines: readonly RatedLine[];
  /** Minimum-spend true-ups against the summed lines (prorated by the service days only). */
  readonly minimums: readonly MinimumTrueUp[];
  readonly subtotal_nanos: bigint;
  readonly discount_nanos: bigint;
  readonly total_nanos: bigint;
}

const ADJUSTMENT_ORDER: readonly AdjustmentKind[] = ['TierOverride', 'Escalation', 'RateOverride', 'Proration', 'ContractDiscount'];

/**
 * Σ sign × part over lines of one SKU. Every figure of a RatedLine that is an amount is linear, so
 * the line invariants (amount = list + Σ adjustments, subtotal − discount = amount, Σ tiers =
 * list + TierOverride) hold for the result; catalog facts (unit prices, commit, package size) are
 * copied from the SKU, not summed.
 */
function sumLines(sku: SkuPrice, quantity: string, parts: readonly (readonly [RatedLine, bigint])[]): RatedLine {
  let list = 0n;
  let subtotal = 0n;
  let discount = 0n;
  let amount = 0n;
  const tiers = new Map<string, { tier: RatedTier; quantity: Quantity; amount: bigint }>();
  const adjustments = new Map<AdjustmentKind, { amount: bigint; bps: Set<number | undefined>; descriptions: string[] }>();
  let packages: bigint | undefined;
  let commitment: { usage: bigint; excess: bigint; overage: bigint } | undefined;
  for (const [line, sign] of parts) {
    list += sign * line.list_amount_nanos;
    subtotal += sign * line.subtotal_nanos;
    discount += sign * line.discount_nanos;
    amount += sign * line.amount_nanos;
    for (const tier of line.tiers) {
      const key = `${tier.tier}|${tier.from}|${tier.up_to}|${tier.unit_amount_nanos}|${tier.flat_amount_nanos}`;
      const q = parseQuantity(tier.quantity);
      const signed: Quantity = { coefficient: sign * q.coefficient, scale: q.scale };
      const entry = tiers.get(key);
      if (entry === undefined) tiers.set(key, { tier, quantity: signed, amount: sign * tier.amount_nanos });
      else tiers.set(key, { tier, quantity: addQuantity(entry.quantity, signed), amount: entry.amount + sign * tier.amount_nanos });
    }
    for (const adjustment of line.adjustments) {
      const entry = adjustments.get(adjustment.kind) ?? { amount: 0n, bps: new Set<number | undefined>(), descriptions: [] };
      entry.amount += sign * adjustment.amount_nanos;
      entry.bps.add(adjustment.basis_points);
      if (!entry.descriptions.includes(adjustment.description)) entry.descriptions.push(adjustment.description);
      adjustments.set(adjustment.kind, entry);
    }
    if (line.package !== undefined) packages = (packages ?? 0n) + sign * line.package.packages;
    if (line.commitment !== undefined) {
      const c = commitment ?? { usage: 0n, excess: 0n, overage: 0n };
      commitment = {
        usage: c.usage + sign * line.commitment.usage_value_nanos,
        excess: c.excess + sign * line.commitment.excess_usage_value_nanos,
        overage: c.overage + sign * line.commitment.overage_amount_nanos,
      };
    }
  }
  const summed: { -readonly [K in keyof RatedLine]: RatedLine[K] } = {
    sku_id: sku.sku_id,
    description: sku.name,
    pricing_model: sku.pricing_model,
    currency: sku.currency,
    quantity,
    unit_amount_nanos: sku.unit_amount_nanos,
    list_amount_nanos: list,
    tiers: [...tiers.values()]
      .filter((entry) => entry.quantity.coefficient !== 0n || entry.amount !== 0n)
      .sort((a, b) => a.tier.tier - b.tier.tier)
      .map((entry) => ({ ...entry.tier, quantity: formatQuantity(entry.quantity), amount_nanos: entry.amount })),
    adjustments: ADJUSTMENT_ORDER.flatMap((kind): Adjustment[] => {
      const entry = adjustments.get(kind);
      if (entry === undefined || entry.amount === 0n) return [];
      const [bps] = [...entry.bps];
      return [{ kind, ...(entry.bps.size === 1 && bps !== undefined ? { basis_points: bps } : {}), amount_nanos: entry.amount, description: entry.descriptions.join('; ') }];
    }),
    subtotal_nanos: subtotal,
    discount_nanos: discount,
    amount_nanos: amount,
  };
  if (packages !== undefined) {
    summed.package = { package_size: sku.package_size as bigint, package_rounding: sku.package_rounding ?? 'Up', free_units: sku.package_free_units ?? 0n, packages };
  }
  if (sku.meter !== undefined) summed.meter = sku.meter;
  if (commitment !== undefined) {
    summed.commitment = {
      commit_amount_nanos: sku.commit_amount_nanos as bigint,
      usage_value_nanos: commitment.usage,
      excess_usage_value_nanos: commitment.excess,
      overage_unit_amount_nanos: sku.overage_unit_amount_nanos as bigint,
      overage_amount_nanos: commitment.overage,
    };
  }
  return summed;
}

function usageAt(usageToDate: UsageToDate | undefined, date: CivilDate): UsageQuantities | undefined {
  if (usageToDate === undefined) return undefined;
  if (usageToDate instanceof Map) return usageToDate.get(date);
  const record = usageToDate as Readonly<Record<CivilDate, UsageQuantities>>;
  return Object.hasOwn(record, date) ? record[date] : undefined;
}

/** Rates one period split at ramp phase and escalation boundaries (rules above). */
export function ratePeriodAcrossPhases(input: RatePeriodInput): RatedPeriod {
  const { skus, usage, contract, period, service } = input;
  const first = assertPlanSkus(skus);
  const serviceProration = prorationFor(period, service);
  const periodDays = daysBetween(period.start, period.end);
  const pieces = periodPieces(period, contract, service);

  const inner = new Set(pieces.slice(1).map((piece) => piece.start));
  const given = input.usage_to_date instanceof Map ? [...input.usage_to_date.keys()] : Object.keys(input.usage_to_date ?? {});
  const problems: Problem[] = given
    .filter((date) => !inner.has(date))
    .map((date) => ({ code: 'not_a_boundary', field: `usage_to_date.${date}`, message: `${date} is not a phase or escalation boundary inside the period` }));
  for (const date of inner) {
    if (usageAt(input.usage_to_date, date) === undefined) {
      problems.push({ code: 'usage_to_date_required', field: `usage_to_date.${date}`, message: `the terms change on ${date}: give the period-to-date usage at that date` });
    }
  }
  if (problems.length > 0) throw CoreValidationError.fromProblems(problems);

  // Period-to-date quantity of a meter at the end of each piece (the last one is the whole period's).
  const toDate = (sku: SkuPrice, index: number): Quantity => {
    const quantities = index === pieces.length - 1 ? usage : (usageAt(input.usage_to_date, (pieces[index] as PeriodPiece).end) as UsageQuantities);
    return parseQuantity(skuQuantity(quantities, sku) ?? '0');
  };

  const rated: RatedPiece[] = pieces.map((piece, index) => {
    const terms = termsAt(contract, skus, piece.start);
    const pieceProration = piece.days === periodDays ? undefined : { days_used: piece.days, days_in_period: periodDays };
    const pieceLine = (sku: SkuPrice): RatedLine => {
      if (sku.pricing_model === 'Flat') return rateSku(sku, '0', optionsFor(terms, sku, pieceProration));
      const upTo = toDate(sku, index);
      const before = index === 0 ? ZERO_QUANTITY : toDate(sku, index - 1);
      const quantity = formatQuantity(subtractQuantity(upTo, before));
      const options = optionsFor(terms, sku, serviceProration);
      const after = rateSku(sku, upTo, options);
      if (sku.pricing_model !== 'Committed') {
        // R(0) is a zero line for usage models, so the first piece needs no subtraction.
        return before.coefficient === 0n ? after : sumLines(sku, quantity, [[after, 1n], [rateSku(sku, before, options), -1n]]);
      }
      const commit = rateSku(sku, '0', optionsFor(terms, sku, pieceProration));
      return sumLines(sku, quantity, [[commit, 1n], [after, 1n], [rateSku(sku, before, options), -1n]]);
    };
    const lines = skus.flatMap((sku): RatedLine[] => {
      if (sku.dimensional !== undefined) {
        const at = (i: number) => groupedQuantities(i === pieces.length - 1 ? usage : usageAt(input.usage_to_date, (pieces[i] as PeriodPiece).end), sku);
        return rateDimensionalSpan(sku, index === 0 ? undefined : at(index - 1), at(index), optionsFor(terms, sku, serviceProration));
      }
      return [pieceLine(sku)];
    });
    return { ...piece, lines, ...totals(lines) };
  });

  // One line per SKU (per SKU and dimension value for a dimensional SKU): the sum of its piece lines.
  const skuOf = new Map(skus.map((sku) => [sku.sku_id, sku]));
  const partsOf = new Map<string, RatedLine[]>();
  for (const piece of rated) for (const line of piece.lines) partsOf.set(dimensionLineKey(line.sku_id, line.dimensions), [...(partsOf.get(dimensionLineKey(line.sku_id, line.dimensions)) ?? []), line]);
  const lines = [...partsOf.values()].map((parts): RatedLine => {
    const first = parts[0] as RatedLine;
    if (parts.length === 1) return first;
    const sku = skuOf.get(first.sku_id) as SkuPrice;
    if (first.dimensions !== undefined) {
      const quantity = formatQuantity(parts.reduce((sum, line) => addQuantity(sum, parseQuantity(line.quantity)), ZERO_QUANTITY));
      return { ...sumLines(dimensionPrice(sku, first.dimensions).price, quantity, parts.map((line) => [line, 1n] as const)), dimensions: first.dimensions };
    }
    const quantity = sku.pricing_model === 'Flat' ? '1' : formatQuantity(parseQuantity(skuQuantity(usage, sku) ?? '0'));
    return sumLines(sku, quantity, parts.map((line) => [line, 1n] as const));
  });
  const minimums = minimumTrueUps(skus, lines, serviceProration);
  return { currency: first.currency, period, pieces: rated, lines, minimums, ...totals(lines, minimums) };
}

/** Subtotal, discount and total of rated lines (and of minimum true-ups, when given). */
function totals(lines: readonly RatedLine[], minimums: readonly MinimumTrueUp[] = []): { subtotal_nanos: bigint; discount_nanos: bigint; total_nanos: bigint } {
  let subtotal = 0n;
  let discount = 0n;
  let total = 0n;
  for (const minimum of minimums) {
    subtotal += minimum.amount_nanos;
    total += minimum.amount_nanos;
  }
  for (const line of lines) {
    subtotal += line.subtotal_nanos;
    discount += line.discount_nanos;
    total += line.amount_nanos;
  }
  return { subtotal_nanos: subtotal, discount_nanos: discount, total_nanos: total };
}

export interface RatedPieceJson extends PeriodPiece {
  readonly lines: readonly RatedLineJson[];
  readonly subtotal_nanos: string;
  readonly discount_nanos: string;
  readonly total_nanos: string;
}

export interface RatedPeriodJson {
  readonly currency: string;
  readonly period: DateRange;
  readonly pieces: readonly RatedPieceJson[];
  readonly lines: readonly RatedLineJson[];
  readonly minimums: readonly MinimumTrueUpJson[];
  readonly subtotal_nanos: string;
  readonly discount_nanos: string;
  readonly total_nanos: string;
}

/** JSON-safe form of a RatedPeriod (money as decimal strings). */
export function serializeRatedPeriod(rated: RatedPeriod): RatedPeriodJson {
  return {
    currency: rated.currency,
    period: { start: rated.period.start, end: rated.period.end },
    pieces: rated.pieces.map((piece) => ({
      start: piece.start,
      end: piece.end,
      days: piece.days,
      phase: piece.phase,
      escalation_periods: piece.escalation_periods,
      lines: piece.lines.map(serializeRatedLine),
      subtotal_nanos: formatMoney(piece.subtotal_nanos),
      discount_nanos: formatMoney(piece.discount_nanos),
      total_nanos: formatMoney(piece.total_nanos),
    })),
    lines: rated.lines.map(serializeRatedLine),
    minimums: rated.minimums.map(serializeMinimumTrueUp),
    subtotal_nanos: formatMoney(rated.subtotal_nanos),
    discount_nanos: formatMoney(rated.discount_nanos),
    total_nanos: formatMoney(rated.total_nanos),
  };
}
