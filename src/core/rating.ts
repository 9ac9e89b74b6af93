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
 */
import { daysBetween, dayNumber, type CivilDate } from './calendar.js';
import {
  escalationPeriodsAt,
  phaseAt,
  type ContractTerm,
  type EscalationSchedule,
  type RateOverride,
  type TierOverride,
} from './contracts.js';
import { CoreValidationError } from './errors.js';
import { formatMoney } from './money.js';
import { rateSku, serializeRatedLine, type RatedLine, type RatedLineJson, type RateOptions, type SkuPrice } from './pricing.js';

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
  /** meter_event_type → aggregated quantity (decimal string); missing meters count as 0. */
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
  readonly subtotal_nanos: bigint;
  readonly discount_nanos: bigint;
  readonly total_nanos: bigint;
}

function usageFor(usage: UsageQuantities, meter: string): string | undefined {
  if (usage instanceof Map) return usage.get(meter);
  const record = usage as Readonly<Record<string, string>>;
  return Object.hasOwn(record, meter) ? record[meter] : undefined;
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

export function ratePlan(input: RatePlanInput): RatedPlan {
  const { skus, usage, contract, asOf, period } = input;
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
  dayNumber(asOf, 'asOf');
  const proration = prorationFor(period, input.service);

  const phase = contract?.terms === undefined ? undefined : phaseAt(contract.terms, asOf);
  const discountBps = phase?.discount_bps ?? contract?.discount_bps;
  const rateOverrides = phase?.rate_overrides ?? contract?.rate_overrides;
  const tierOverrides = tierOverridesBySku(phase?.tier_overrides ?? contract?.tier_overrides, skus);
  const schedule = contract?.escalation;

  const common: RateOptions = {
    ...(discountBps === undefined ? {} : { discount_bps: discountBps }),
    ...(rateOverrides === undefined ? {} : { rate_overrides: rateOverrides }),
    ...(proration === undefined ? {} : { proration }),
    ...(schedule === undefined ? {} : { escalation: schedule.escalation, periods_elapsed: escalationPeriodsAt(schedule, asOf) }),
  };

  const lines = skus.map((sku) => {
    const quantity = sku.pricing_model === 'Flat' ? '0' : (usageFor(usage, sku.meter_event_type as string) ?? '0');
    const override = tierOverrides.get(sku.sku_id);
    return rateSku(sku, quantity, override === undefined ? common : { ...common, tier_override: override });
  });

  let subtotal = 0n;
  let discount = 0n;
  let total = 0n;
  for (const line of lines) {
    subtotal += line.subtotal_nanos;
    discount += line.discount_nanos;
    total += line.amount_nanos;
  }
  return {
    currency: first.currency,
    period,
    phase: phase === undefined ? null : phase.phase,
    lines,
    subtotal_nanos: subtotal,
    discount_nanos: discount,
    total_nanos: total,
  };
}

export interface RatedPlanJson {
  readonly currency: string;
  readonly period: DateRange;
  readonly phase: number | null;
  readonly lines: readonly RatedLineJson[];
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
    subtotal_nanos: formatMoney(plan.subtotal_nanos),
    discount_nanos: formatMoney(plan.discount_nanos),
    total_nanos: formatMoney(plan.total_nanos),
  };
}
