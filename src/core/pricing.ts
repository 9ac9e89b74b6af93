/**
 * Pricing models and the rating of one SKU (SPEC §2 "Pricing models"). Pure and exact: every
 * figure on a RatedLine is an exact rational of the inputs rounded ONCE, HalfEven, to a whole raw
 * unit (see decimal.ts for why that rounding is invisible); differences such as discount_nanos are
 * exact differences of such figures, so they add up.
 *
 * Models (quantities are ≥ 0; credits are expressed with negative Flat/PerUnit prices):
 * - Flat: unit_amount once per period, whatever the quantity (line quantity "1").
 * - PerUnit: quantity × unit_amount.
 * - Graduated: each tier prices only the units inside it; a tier's flat_amount is charged once
 *   when the quantity enters the tier (quantity > the tier's lower bound). Quantity 0 costs 0.
 * - Volume: every unit at the price of the tier the total falls into, plus that tier's
 *   flat_amount; quantity 0 costs 0. Volume is NOT monotone when a higher tier is cheaper
 *   (100 units at 1.00 = 100.00 but 101 units at 0.50 = 50.50); that cliff is the point of it.
 * - Tier boundaries (Stripe's convention): tier i covers (up_to[i-1], up_to[i]]; a quantity
 *   exactly equal to up_to belongs to that tier, one above belongs to the next. Bounds are whole
 *   units, so in Graduated only the last tier entered can hold a fractional quantity: the line is
 *   rounded once and that tier's amount carries the rounding, so the tiers sum to the line.
 * - Package: bundles of package_size units at unit_amount per bundle, after package_free_units free
 *   units (default 0): packages = ⌈(quantity − free)⁺ / size⌉ with package_rounding 'Up' (the default:
 *   a started package is billed whole), ⌊…⌋ with 'Down'. E.g. 1,000 free, 5.00 per started 100:
 *   1,000 → 0.00, 1,001 → 5.00, 1,250 → 15.00.
 * - Percentage: a fee per usage event on an amount property of the event (in the SKU's currency):
 *     fee = clamp(amount × percentage_bps / 10000 + per_event_fee, per_event_minimum, per_event_maximum)
 *   (percentageEventFee, exact). Events whose amount is missing, not a number or negative are not
 *   charged. The rated quantity is the exact sum of the period's fees in currency units (summed by
 *   the database, see percentageFeeQuantity), priced at 1.00 per unit and rounded once per line.
 * - Minimum (minimum_amount_nanos, usage models): not part of the line; rating.ts adds a true-up of
 *   max(0, minimum − the line's amount) beside it (minimumTrueUps).
 * - Committed: commit_amount is due every period and buys usage valued at unit_amount per unit;
 *   usage beyond that value is billed at overage_unit_amount:
 *     charge = commit + max(0, quantity − commit/unit_amount) × overage_unit_amount
 *   e.g. commit 1000.00 at 2.00/unit covers 500 units; 600 units at overage 2.50 cost
 *   1000.00 + 100 × 2.50 = 1250.00. Computed exactly even when commit/unit is not a whole number.
 *
 * Adjustments apply in a fixed order, each recorded as the change it made (amount_nanos):
 *   list price (catalog tiers) → TierOverride (custom tiers) → Escalation → RateOverride
 *   → Proration = subtotal → ContractDiscount = amount.
 * Escalation Percent and RateOverride scale every line; Escalation Fixed raises recurring fees
 * (Flat, Committed) only, since it has no per-unit meaning; Proration applies to recurring fees
 * only (usage is already measured for the days actually served), and for Committed it prorates the
 * commit and the usage it covers together. Invariants: amount = list + Σ adjustments,
 * subtotal = amount + discount, Σ tiers[].amount = list + TierOverride adjustment.
 */
import {
  assertBasisPoints,
  assertPeriods,
  BPS_DENOMINATOR,
  findRateOverride,
  validateEscalation,
  type Escalation,
  type RateOverride,
} from './contracts.js';
import { formatQuantity, MAX_QUANTITY_SCALE, parseQuantity, pow10, roundRational, type Quantity, type Rational } from './decimal.js';
import type { DimensionValues } from './dimensions.js';
import { CoreValidationError, type Problem } from './errors.js';
import { formatMoney, isCurrency, MONEY_LIMIT, ONE_UNIT, parseMoney } from './money.js';

export type PricingModel = 'Flat' | 'PerUnit' | 'Graduated' | 'Volume' | 'Package' | 'Committed' | 'Percentage';
export const PRICING_MODELS: readonly PricingModel[] = ['Flat', 'PerUnit', 'Graduated', 'Volume', 'Package', 'Committed', 'Percentage'];
/** Models that rate usage and may carry a minimum_amount_nanos. */
export const MINIMUM_MODELS: ReadonlySet<PricingModel> = new Set<PricingModel>(['PerUnit', 'Graduated', 'Volume', 'Package', 'Percentage']);

export interface Tier {
  /** Inclusive upper bound in whole units; null only for the last, unbounded tier. */
  readonly up_to: bigint | null;
  readonly unit_amount_nanos: bigint;
  /** Charged once when the quantity enters this tier (Graduated) or falls into it (Volume). */
  readonly flat_amount_nanos?: bigint;
}

export type PackageRounding = 'Up' | 'Down';

export interface SkuPrice {
  readonly sku_id: string;
  readonly name: string;
  readonly pricing_model: PricingModel;
  readonly unit_amount_nanos: bigint;
  readonly currency: string;
  /** Usage event type whose aggregated quantity this SKU rates (unused by Flat). */
  readonly meter_event_type?: string;
  /** The meter the SKU names in the catalog; absent: the default meter of meter_event_type. */
  readonly meter_id?: string;
  /**
   * The meter a usage SKU is priced from, when it was resolved (billing and the rating preview
   * resolve it from the catalog): its quantity is `usage[meter.meter_id]`, falling back to
   * `usage[meter_event_type]`. Carried as is onto the rated line.
   */
  readonly meter?: SkuMeter;
  readonly tiers?: readonly Tier[];
  readonly package_size?: bigint;
  readonly package_rounding?: PackageRounding;
  /** Package: units free before the first package (default 0). */
  readonly package_free_units?: bigint;
  readonly commit_amount_nanos?: bigint;
  readonly overage_unit_amount_nanos?: bigint;
  /** Usage models: the least the SKU bills per period (a true-up line makes up the difference). */
  readonly minimum_amount_nanos?: bigint;
  /** Percentage: the rate on each event's amount, 0..10000 basis points. */
  readonly percentage_bps?: number;
  /** Percentage: the event property holding the amount (currency units, a number or decimal string). */
  readonly amount_property?: string;
  /** Percentage: fixed fee added per event (default 0). */
  readonly per_event_fee_nanos?: bigint;
  /** Percentage: least fee per event. */
  readonly per_event_minimum_nanos?: bigint;
  /** Percentage: greatest fee per event. */
  readonly per_event_maximum_nanos?: bigint;
  /** Product tags, matched by contract RateOverrides. */
  readonly tags?: readonly string[];
  /** Dimensional pricing: the quantity is read per value of event properties, each value priced on its own line. */
  readonly dimensional?: Dimensional;
}

/** Whether tiers are counted per dimension value (each value from 0) or across all values together. */
export type TierScope = 'per_value' | 'across_all';
export const TIER_SCOPES: readonly TierScope[] = ['per_value', 'across_all'];

/** The models a dimensional SKU (and each of its per-value prices) may price with: those rating one meter quantity. */
export const DIMENSION_MODELS: ReadonlySet<PricingModel> = new Set<PricingModel>(['PerUnit', 'Graduated', 'Volume', 'Package']);
/** At most this many event properties to group by. */
export const MAX_GROUP_BY = 3;
/** At most this many listed values with their own price on one SKU. */
export const MAX_DIMENSION_PRICES = 100;

/** The price of one listed dimension value (every group_by property named with its value). */
export interface DimensionPrice {
  readonly values: Readonly<Record<string, string>>;
  readonly pricing_model: PricingModel;
  readonly unit_amount_nanos: bigint;
  readonly tiers?: readonly Tier[];
  readonly package_size?: bigint;
  readonly package_rounding?: PackageRounding;
  readonly package_free_units?: bigint;
}

/**
 * A SKU priced per dimension value: `group_by` names 1–MAX_GROUP_BY event properties; a value listed
 * in `prices` is priced by its own terms, any other value (and events without the property, value
 * null) by the SKU's own terms (the default price).
 */
export interface Dimensional {
  readonly group_by: readonly string[];
  readonly prices: readonly DimensionPrice[];
  readonly tier_scope: TierScope;
}

/**
 * A meter as rated lines show it: `meter_id` is the meter's id, or "default:<event_type>" for the
 * built-in default of an event type without meters. Opaque to rating (filters are shown, not applied).
 */
/** A meter filter as shown (SPEC's 7 operators; the value a scalar, or a list for In). */
export interface SkuMeterFilter {
  readonly property: string;
  readonly operator: string;
  readonly value: string | number | boolean | readonly (string | number | boolean)[];
}

export interface SkuMeter {
  readonly meter_id: string;
  readonly event_type: string;
  readonly aggregation: string;
  readonly filters: readonly SkuMeterFilter[];
  readonly window_type: string;
  /** ISO 8601 duration of Sliding and Tumbling windows; null for BillingPeriod. */
  readonly window_size: string | null;
}

export interface RatedTier {
  readonly tier: number;
  /** Exclusive lower bound (the previous tier's up_to, 0 for the first tier). */
  readonly from: bigint;
  readonly up_to: bigint | null;
  readonly quantity: string;
  readonly unit_amount_nanos: bigint;
  readonly flat_amount_nanos: bigint;
  readonly amount_nanos: bigint;
}

export interface PackageDetail {
  readonly package_size: bigint;
  readonly package_rounding: PackageRounding;
  /** Units free before the first package. */
  readonly free_units: bigint;
  readonly packages: bigint;
}

/** The terms a Percentage line was priced with (its quantity is the sum of the per-event fees). */
export interface PercentageDetail {
  readonly basis_points: number;
  readonly amount_property: string;
  readonly per_event_fee_nanos: bigint;
  readonly per_event_minimum_nanos: bigint | null;
  readonly per_event_maximum_nanos: bigint | null;
}

export interface CommitmentDetail {
  readonly commit_amount_nanos: bigint;
  /** quantity × unit_amount (rounded once; informational). */
  readonly usage_value_nanos: bigint;
  /** Usage value above the commit, max(0, usage − commit) (rounded once; informational). */
  readonly excess_usage_value_nanos: bigint;
  readonly overage_unit_amount_nanos: bigint;
  /** excess usage ÷ unit_amount × overage_unit_amount; list = commit + overage_amount. */
  readonly overage_amount_nanos: bigint;
}

export type AdjustmentKind = 'TierOverride' | 'Escalation' | 'RateOverride' | 'Proration' | 'ContractDiscount';

export interface Adjustment {
  readonly kind: AdjustmentKind;
  readonly basis_points?: number;
  /** The change this step made to the line (negative for savings and discounts). */
  readonly amount_nanos: bigint;
  readonly description: string;
}

export interface RatedLine {
  readonly sku_id: string;
  readonly description: string;
  readonly pricing_model: PricingModel;
  readonly currency: string;
  readonly quantity: string;
  readonly unit_amount_nanos: bigint;
  /** The price at catalog prices, before any adjustment. */
  readonly list_amount_nanos: bigint;
  readonly tiers: readonly RatedTier[];
  readonly package?: PackageDetail;
  readonly commitment?: CommitmentDetail;
  /** The meter the quantity was read from (the SKU's `meter`, when resolved). */
  readonly meter?: SkuMeter;
  readonly percentage?: PercentageDetail;
  /** A dimensional SKU's line: the dimension value it prices (`{}`: the `other` bucket, see dimensions.ts). */
  readonly dimensions?: DimensionValues;
  readonly adjustments: readonly Adjustment[];
  /** After every adjustment except the contract discount. */
  readonly subtotal_nanos: bigint;
  readonly discount_nanos: bigint;
  readonly amount_nanos: bigint;
}

export interface Proration {
  readonly days_used: number;
  readonly days_in_period: number;
}

export interface RateOptions {
  /** Custom tiers replacing the SKU's catalog tiers (Graduated and Volume only). */
  readonly tier_override?: readonly Tier[];
  readonly escalation?: Escalation;
  /** Escalation steps elapsed (0 = no escalation yet). */
  readonly periods_elapsed?: number;
  /** The first override whose product_tag is in the SKU's tags applies. */
  readonly rate_overrides?: readonly RateOverride[];
  /** Partial period for recurring fees (Flat, Committed). */
  readonly proration?: Proration;
  /** Contract discount, 0..10000 basis points. */
  readonly discount_bps?: number;
}

const TIERED: ReadonlySet<PricingModel> = new Set<PricingModel>(['Graduated', 'Volume']);
const NO_ADJUSTMENTS: readonly Adjustment[] = Object.freeze([]);
const NO_TIERS: readonly RatedTier[] = Object.freeze([]);
const NO_OPTIONS: RateOptions = Object.freeze({});

function isMoney(value: unknown): value is bigint {
  return typeof value === 'bigint' && value < MONEY_LIMIT && value > -MONEY_LIMIT;
}

function moneyProblem(problems: Problem[], value: unknown, field: string, allowNegative: boolean): void {
  if (!isMoney(value)) {
    problems.push({ code: 'invalid_money', field, message: 'expected a bigint amount with |amount| < 10^38' });
  } else if (!allowNegative && value < 0n) {
    problems.push({ code: 'negative_price', field, message: 'price must not be negative' });
  }
}

/**
 * Problems with a tier list for a model: Graduated and Volume need at least one tier, bounds
 * positive and strictly increasing, only the last tier unbounded (and it must be), and no negative
 * prices; the other models take no tiers.
 */
export function validateTiers(model: PricingModel, tiers: readonly Tier[] | undefined, field = 'tiers'): Problem[] {
  const problems: Problem[] = [];
  if (!TIERED.has(model)) {
    if (tiers !== undefined && tiers.length > 0) {
      problems.push({ code: 'tiers_not_allowed', field, message: `${model} pricing takes no tiers` });
    }
    return problems;
  }
  if (tiers === undefined || tiers.length === 0) {
    problems.push({ code: 'tiers_required', field, message: `${model} pricing needs at least one tier` });
    return problems;
  }
  let previous = 0n;
  tiers.forEach((tier, index) => {
    const at = `${field}[${index}]`;
    const last = index === tiers.length - 1;
    if (tier.up_to === null) {
      if (!last) problems.push({ code: 'unbounded_tier_not_last', field: `${at}.up_to`, message: 'only the last tier may have up_to null' });
    } else if (typeof tier.up_to !== 'bigint') {
      problems.push({ code: 'invalid_tier_bound', field: `${at}.up_to`, message: 'up_to must be a whole number or null' });
    } else {
      if (last) problems.push({ code: 'last_tier_must_be_unbounded', field: `${at}.up_to`, message: 'the last tier must have up_to null' });
      if (tier.up_to <= 0n) {
        problems.push({ code: 'tier_bound_not_positive', field: `${at}.up_to`, message: 'up_to must be positive' });
      } else if (tier.up_to <= previous) {
        problems.push({ code: 'tier_bounds_not_increasing', field: `${at}.up_to`, message: 'up_to must increase strictly from tier to tier' });
      }
      if (tier.up_to > previous) previous = tier.up_to;
    }
    moneyProblem(problems, tier.unit_amount_nanos, `${at}.unit_amount_nanos`, false);
    if (tier.flat_amount_nanos !== undefined) moneyProblem(problems, tier.flat_amount_nanos, `${at}.flat_amount_nanos`, false);
  });
  return problems;
}

/**
 * Bounds on the prices a catalog takes, so that no period's charge can overflow the money columns
 * (DECIMAL(38,0), |amount| < 10^38 raw units) however much usage it rates. Usage is bounded too
 * (services/metering: at most MAX_MONTHLY_QUANTITY, the sum of |quantity|, per customer and
 * calendar month): a price multiplied by quantities is at most MAX_UNIT_AMOUNT (100,000.00 per unit),
 * so one SKU's charge over a period of up to 13 calendar months stays below
 * 13 × 10^18 × 10^17 ≈ 1.3 × 10^36, leaving room for many lines per invoice; a fixed amount (a Flat
 * fee, a tier's flat fee, a commitment) is at most MAX_FIXED_AMOUNT (10^18 currency units).
 */
export const MAX_UNIT_AMOUNT = 10n ** 17n;
export const MAX_FIXED_AMOUNT = 10n ** 30n;

function boundProblem(problems: Problem[], value: bigint | undefined, bound: bigint, field: string, what: string): void {
  if (value !== undefined && (value > bound || value < -bound)) {
    problems.push({ code: 'price_out_of_range', field, message: `${what} must be at most ${bound} raw units (${bound / ONE_UNIT} in the currency)` });
  }
}

/**
 * Prices beyond MAX_UNIT_AMOUNT / MAX_FIXED_AMOUNT. Checked when a price is set (a SKU, a tier
 * override), not when one is rated: a price stored before the bound existed still rates.
 */
export function priceBoundProblems(
  sku: Pick<
    SkuPrice,
    | 'pricing_model'
    | 'unit_amount_nanos'
    | 'tiers'
    | 'commit_amount_nanos'
    | 'overage_unit_amount_nanos'
    | 'minimum_amount_nanos'
    | 'package_free_units'
    | 'per_event_fee_nanos'
    | 'per_event_minimum_nanos'
    | 'per_event_maximum_nanos'
  >,
): Problem[] {
  const problems: Problem[] = [];
  const fixed = sku.pricing_model === 'Flat';
  boundProblem(problems, sku.unit_amount_nanos, fixed ? MAX_FIXED_AMOUNT : MAX_UNIT_AMOUNT, 'unit_amount_nanos', fixed ? 'a flat price' : 'a price per unit');
  problems.push(...tierBoundProblems(sku.tiers));
  boundProblem(problems, sku.commit_amount_nanos, MAX_FIXED_AMOUNT, 'commit_amount_nanos', 'a commitment');
  boundProblem(problems, sku.overage_unit_amount_nanos, MAX_UNIT_AMOUNT, 'overage_unit_amount_nanos', 'a price per unit');
  boundProblem(problems, sku.minimum_amount_nanos, MAX_FIXED_AMOUNT, 'minimum_amount_nanos', 'a minimum spend');
  // An event is a unit of a Percentage SKU: its fixed fee, minimum and maximum are prices per unit.
  boundProblem(problems, sku.per_event_fee_nanos, MAX_UNIT_AMOUNT, 'per_event_fee_nanos', 'a fee per event');
  boundProblem(problems, sku.per_event_minimum_nanos, MAX_UNIT_AMOUNT, 'per_event_minimum_nanos', 'a fee per event');
  boundProblem(problems, sku.per_event_maximum_nanos, MAX_UNIT_AMOUNT, 'per_event_maximum_nanos', 'a fee per event');
  if (sku.package_free_units !== undefined && sku.package_free_units > MAX_FREE_UNITS) {
    problems.push({ code: 'quantity_out_of_range', field: 'package_free_units', message: `package_free_units must be at most ${MAX_FREE_UNITS}` });
  }
  return problems;
}

/** Free units of a Package SKU: at most a month's bounded usage (MAX_MONTHLY_QUANTITY) × 13 months. */
export const MAX_FREE_UNITS = 13n * 10n ** 18n;

/** Tier prices beyond the bounds of priceBoundProblems. */
export function tierBoundProblems(tiers: readonly Tier[] | undefined, field = 'tiers'): Problem[] {
  const problems: Problem[] = [];
  (tiers ?? []).forEach((tier, index) => {
    boundProblem(problems, tier.unit_amount_nanos, MAX_UNIT_AMOUNT, `${field}[${index}].unit_amount_nanos`, 'a price per unit');
    boundProblem(problems, tier.flat_amount_nanos, MAX_FIXED_AMOUNT, `${field}[${index}].flat_amount_nanos`, 'a flat fee');
  });
  return problems;
}

/** Every problem with a SKU price; rateSku refuses a SKU with any. */
export function validateSku(sku: SkuPrice): Problem[] {
  const problems: Problem[] = [];
  const model = sku.pricing_model;
  if (!PRICING_MODELS.includes(model)) {
    problems.push({ code: 'invalid_pricing_model', field: 'pricing_model', message: `unknown pricing model ${JSON.stringify(model)}` });
    return problems;
  }
  if (typeof sku.currency !== 'string' || !isCurrency(sku.currency)) {
    problems.push({ code: 'invalid_currency', field: 'currency', message: 'currency must be an ISO 4217 code' });
  }
  moneyProblem(problems, sku.unit_amount_nanos, 'unit_amount_nanos', model === 'Flat' || model === 'PerUnit');
  problems.push(...validateTiers(model, sku.tiers));
  if (model === 'Package') {
    if (typeof sku.package_size !== 'bigint' || sku.package_size <= 0n) {
      problems.push({ code: 'invalid_package_size', field: 'package_size', message: 'Package pricing needs package_size > 0' });
    }
    if (sku.package_rounding !== undefined && sku.package_rounding !== 'Up' && sku.package_rounding !== 'Down') {
      problems.push({ code: 'invalid_package_rounding', field: 'package_rounding', message: "package_rounding must be 'Up' or 'Down'" });
    }
  }
  if (model === 'Package' && sku.package_free_units !== undefined && (typeof sku.package_free_units !== 'bigint' || sku.package_free_units < 0n)) {
    problems.push({ code: 'invalid_package_free_units', field: 'package_free_units', message: 'package_free_units must be a whole number ≥ 0' });
  }
  if (sku.minimum_amount_nanos !== undefined) {
    if (!MINIMUM_MODELS.has(model)) {
      problems.push({ code: 'minimum_not_allowed', field: 'minimum_amount_nanos', message: `${model} pricing takes no minimum (only usage models do)` });
    } else {
      moneyProblem(problems, sku.minimum_amount_nanos, 'minimum_amount_nanos', false);
    }
  }
  if (model === 'Percentage') problems.push(...percentageProblems(sku));
  if (sku.dimensional !== undefined) problems.push(...dimensionalProblems(sku, sku.dimensional));
  if (model === 'Committed') {
    if (sku.commit_amount_nanos === undefined) {
      problems.push({ code: 'commit_required', field: 'commit_amount_nanos', message: 'Committed pricing needs commit_amount_nanos' });
    } else {
      moneyProblem(problems, sku.commit_amount_nanos, 'commit_amount_nanos', false);
    }
    if (sku.overage_unit_amount_nanos === undefined) {
      problems.push({ code: 'overage_required', field: 'overage_unit_amount_nanos', message: 'Committed pricing needs overage_unit_amount_nanos' });
    } else {
      moneyProblem(problems, sku.overage_unit_amount_nanos, 'overage_unit_amount_nanos', false);
    }
    if (isMoney(sku.unit_amount_nanos) && sku.unit_amount_nanos === 0n) {
      problems.push({ code: 'unit_amount_required', field: 'unit_amount_nanos', message: 'Committed pricing values usage at unit_amount_nanos, which must be positive' });
    }
  }
  return problems;
}

/** The SKU a dimension value is priced by: the listed value's terms, or the SKU's own (the default price). */
export function dimensionPriceSku(sku: SkuPrice, price: DimensionPrice | undefined): SkuPrice {
  const { dimensional: _dimensional, ...plain } = sku;
  if (price === undefined) return plain;
  const { tiers: _t, package_size: _s, package_rounding: _r, package_free_units: _f, minimum_amount_nanos: _m, ...rest } = plain;
  return {
    ...rest,
    pricing_model: price.pricing_model,
    unit_amount_nanos: price.unit_amount_nanos,
    ...(price.tiers === undefined ? {} : { tiers: price.tiers }),
    ...(price.package_size === undefined ? {} : { package_size: price.package_size }),
    ...(price.package_rounding === undefined ? {} : { package_rounding: price.package_rounding }),
    ...(price.package_free_units === undefined ? {} : { package_free_units: price.package_free_units }),
  };
}

function dimensionalProblems(sku: SkuPrice, dimensional: Dimensional): Problem[] {
  const problems: Problem[] = [];
  const { group_by: groupBy, prices } = dimensional;
  if (!DIMENSION_MODELS.has(sku.pricing_model)) {
    problems.push({ code: 'group_by_not_applicable', field: 'group_by', message: `${sku.pricing_model} pricing cannot be priced per dimension (only ${[...DIMENSION_MODELS].join(', ')})` });
  }
  if (!Array.isArray(groupBy) || groupBy.length < 1 || groupBy.length > MAX_GROUP_BY || groupBy.some((key) => typeof key !== 'string' || key === '')) {
    problems.push({ code: 'invalid_group_by', field: 'group_by', message: `group_by names 1 to ${MAX_GROUP_BY} event properties` });
    return problems;
  }
  if (new Set(groupBy).size !== groupBy.length) problems.push({ code: 'invalid_group_by', field: 'group_by', message: 'group_by names each property once' });
  if (!TIER_SCOPES.includes(dimensional.tier_scope)) {
    problems.push({ code: 'invalid_tier_scope', field: 'tier_scope', message: `tier_scope is one of ${TIER_SCOPES.join(', ')}` });
  }
  if (prices.length > MAX_DIMENSION_PRICES) {
    problems.push({ code: 'too_many_dimension_prices', field: 'dimension_prices', message: `at most ${MAX_DIMENSION_PRICES} dimension prices per SKU` });
  }
  const seen = new Set<string>();
  prices.forEach((price, index) => {
    const at = `dimension_prices[${index}]`;
    const keys = Object.keys(price.values ?? {});
    if (keys.length !== groupBy.length || !groupBy.every((key) => typeof price.values[key] === 'string')) {
      problems.push({ code: 'invalid_dimension_values', field: `${at}.values`, message: `values names every group_by property (${groupBy.join(', ')}) with a string value, and nothing else` });
      return;
    }
    const key = JSON.stringify(groupBy.map((k) => price.values[k]));
    if (seen.has(key)) problems.push({ code: 'duplicate_dimension_price', field: `${at}.values`, message: `two prices for ${key}` });
    seen.add(key);
    if (!DIMENSION_MODELS.has(price.pricing_model)) {
      problems.push({ code: 'group_by_not_applicable', field: `${at}.pricing_model`, message: `a dimension value is priced by one of ${[...DIMENSION_MODELS].join(', ')}` });
      return;
    }
    for (const problem of validateSku(dimensionPriceSku(sku, price))) problems.push({ ...problem, field: `${at}.${problem.field}` });
  });
  return problems;
}

function percentageProblems(sku: SkuPrice): Problem[] {
  const problems: Problem[] = [];
  const bps = sku.percentage_bps;
  if (typeof bps !== 'number' || !Number.isSafeInteger(bps) || bps < 0 || bps > 10_000) {
    problems.push({ code: 'invalid_percentage', field: 'percentage_bps', message: 'Percentage pricing needs percentage_bps, a whole number of basis points in 0..10000' });
  }
  if (typeof sku.amount_property !== 'string' || sku.amount_property === '') {
    problems.push({ code: 'amount_property_required', field: 'amount_property', message: 'Percentage pricing needs amount_property, the event property holding the amount' });
  }
  const optional = ['per_event_fee_nanos', 'per_event_minimum_nanos', 'per_event_maximum_nanos'] as const;
  for (const field of optional) if (sku[field] !== undefined) moneyProblem(problems, sku[field], field, false);
  const { per_event_minimum_nanos: min, per_event_maximum_nanos: max } = sku;
  if (isMoney(min) && isMoney(max) && min > max) {
    problems.push({ code: 'minimum_above_maximum', field: 'per_event_minimum_nanos', message: 'per_event_minimum_nanos must not exceed per_event_maximum_nanos' });
  }
  return problems;
}

/**
 * The exact fee of one event of a Percentage SKU in raw units, or null when the event is not
 * charged (a negative amount). `amount` is the event's amount in currency units:
 *   clamp(amount × 10^12 × percentage_bps / 10000 + per_event_fee, minimum, maximum).
 * The database sums the same expression ×10000 (so without a division) at the period close.
 */
export function percentageEventFee(sku: SkuPrice, amount: string | Quantity): Rational | null {
  const q = typeof amount === 'string' ? parseQuantity(amount, 'amount') : amount;
  if (q.coefficient < 0n) return null;
  const den = BPS_DENOMINATOR * pow10(q.scale);
  let num = q.coefficient * ONE_UNIT * BigInt(sku.percentage_bps ?? 0) + (sku.per_event_fee_nanos ?? 0n) * den;
  const { per_event_minimum_nanos: min, per_event_maximum_nanos: max } = sku;
  if (min !== undefined && num < min * den) num = min * den;
  if (max !== undefined && num > max * den) num = max * den;
  return { num, den };
}

/** The places a per-event fee×10000 (raw units) is shifted by to read as currency units. */
const PERCENTAGE_SHIFT = 16;

/**
 * A Percentage SKU's rated quantity from Σ (fee × 10000) in raw units, as the database sums it:
 * the same sum in currency units, exact (a shift of the decimal point).
 */
export function percentageFeeQuantity(sumTimes10000: string): string {
  const q = parseQuantity(sumTimes10000, 'percentage_fees');
  return formatQuantity({ coefficient: q.coefficient, scale: q.scale + PERCENTAGE_SHIFT });
}

/** The key of a SKU's quantity in rating usage: its meter_event_type, or its sku_id for Percentage. */
export function usageKey(sku: Pick<SkuPrice, 'sku_id' | 'pricing_model' | 'meter_event_type'>): string | undefined {
  return sku.pricing_model === 'Percentage' ? sku.sku_id : sku.meter_event_type;
}

interface Priced {
  readonly exact: Rational;
  readonly amount: bigint;
  readonly tiers: readonly RatedTier[];
  readonly package?: PackageDetail;
  readonly commitment?: CommitmentDetail;
}

const ONE: Rational = { num: 1n, den: 1n };

function integral(amount: bigint, tiers: readonly RatedTier[] = NO_TIERS): Priced {
  return { exact: { num: amount, den: 1n }, amount, tiers };
}

/** Canonical text of an integer quantity, or of a scaled one. */
function quantityText(coefficient: bigint, scale: number): string {
  return scale === 0 ? coefficient.toString() : formatQuantity({ coefficient, scale });
}

function graduated(tiers: readonly Tier[], q: Quantity): Priced {
  const { coefficient, scale } = q;
  const unit = pow10(scale);
  const rated: RatedTier[] = [];
  let total = 0n;
  let exactNum = 0n;
  let from = 0n;
  for (let index = 0; index < tiers.length; index += 1) {
    const tier = tiers[index] as Tier;
    const fromScaled = from * unit;
    if (coefficient <= fromScaled) break;
    const upTo = tier.up_to;
    const top = upTo === null ? coefficient : upTo * unit;
    const inTier = (coefficient < top ? coefficient : top) - fromScaled;
    const flat = tier.flat_amount_nanos ?? 0n;
    const tierNum = inTier * tier.unit_amount_nanos + flat * unit;
    const amount = scale === 0 ? tierNum : tierNum / unit;
    rated.push({
      tier: index,
      from,
      up_to: upTo,
      quantity: quantityText(inTier, scale),
      unit_amount_nanos: tier.unit_amount_nanos,
      flat_amount_nanos: flat,
      amount_nanos: amount,
    });
    total += amount;
    exactNum += tierNum;
    if (upTo === null) break;
    from = upTo;
  }
  const exact = { num: exactNum, den: unit };
  const amount = roundRational(exact);
  const last = rated[rated.length - 1];
  if (last !== undefined && amount !== total) {
    // Only the last tier entered can hold a fractional quantity; it carries the line's one rounding.
    rated[rated.length - 1] = { ...last, amount_nanos: last.amount_nanos + amount - total };
  }
  return { exact, amount, tiers: rated };
}

function volume(tiers: readonly Tier[], q: Quantity): Priced {
  const { coefficient, scale } = q;
  if (coefficient === 0n) return integral(0n);
  const unit = pow10(scale);
  // The last tier is unbounded (validated), so the search always ends on a tier.
  const last = tiers.length - 1;
  let index = 0;
  while (index < last && coefficient > ((tiers[index] as Tier).up_to as bigint) * unit) index += 1;
  const tier = tiers[index] as Tier;
  const flat = tier.flat_amount_nanos ?? 0n;
  const exact = { num: coefficient * tier.unit_amount_nanos + flat * unit, den: unit };
  const amount = roundRational(exact);
  const rated: RatedTier = {
    tier: index,
    from: index === 0 ? 0n : ((tiers[index - 1] as Tier).up_to as bigint),
    up_to: tier.up_to,
    quantity: quantityText(coefficient, scale),
    unit_amount_nanos: tier.unit_amount_nanos,
    flat_amount_nanos: flat,
    amount_nanos: amount,
  };
  return { exact, amount, tiers: [rated] };
}

function perUnit(unitPrice: bigint, q: Quantity): Priced {
  if (q.scale === 0) return integral(q.coefficient * unitPrice);
  const exact = { num: q.coefficient * unitPrice, den: pow10(q.scale) };
  return { exact, amount: roundRational(exact), tiers: NO_TIERS };
}

function packaged(sku: SkuPrice, q: Quantity): Priced {
  const size = sku.package_size as bigint;
  const rounding = sku.package_rounding ?? 'Up';
  const free = sku.package_free_units ?? 0n;
  const unit = pow10(q.scale);
  const perPackage = size * unit;
  const billable = q.coefficient > free * unit ? q.coefficient - free * unit : 0n;
  const whole = billable / perPackage;
  const packages = rounding === 'Up' && billable % perPackage !== 0n ? whole + 1n : whole;
  const amount = packages * sku.unit_amount_nanos;
  return { exact: { num: amount, den: 1n }, amount, tiers: NO_TIERS, package: { package_size: size, package_rounding: rounding, free_units: free, packages } };
}

/** Exact Committed charge for a (possibly prorated) commit given as a rational. */
function committedExact(q: Quantity, unitPrice: bigint, commit: Rational, overage: bigint): Rational {
  const unit = pow10(q.scale);
  // usage − commit = (coefficient·unitPrice·commit.den − commit.num·10^scale) / (10^scale·commit.den)
  const excess = q.coefficient * unitPrice * commit.den - commit.num * unit;
  if (excess <= 0n) return commit;
  return { num: commit.num * unit * unitPrice + excess * overage, den: unit * commit.den * unitPrice };
}

function committed(sku: SkuPrice, q: Quantity): Priced {
  const unitPrice = sku.unit_amount_nanos;
  const commit = sku.commit_amount_nanos as bigint;
  const overage = sku.overage_unit_amount_nanos as bigint;
  const unit = pow10(q.scale);
  const exact = committedExact(q, unitPrice, { num: commit, den: 1n }, overage);
  const excess = q.coefficient * unitPrice - commit * unit;
  const overageAmount = roundRational(exact) - commit;
  return {
    exact,
    amount: commit + overageAmount,
    tiers: NO_TIERS,
    commitment: {
      commit_amount_nanos: commit,
      usage_value_nanos: roundRational({ num: q.coefficient * unitPrice, den: unit }),
      excess_usage_value_nanos: excess > 0n ? roundRational({ num: excess, den: unit }) : 0n,
      overage_unit_amount_nanos: overage,
      overage_amount_nanos: overageAmount,
    },
  };
}

function priceAt(sku: SkuPrice, tiers: readonly Tier[] | undefined, q: Quantity): Priced {
  switch (sku.pricing_model) {
    case 'Flat':
      return integral(sku.unit_amount_nanos);
    case 'PerUnit':
      return perUnit(sku.unit_amount_nanos, q);
    case 'Graduated':
      return graduated(tiers as readonly Tier[], q);
    case 'Volume':
      return volume(tiers as readonly Tier[], q);
    case 'Package':
      return packaged(sku, q);
    case 'Committed':
      return committed(sku, q);
    case 'Percentage':
      return perUnit(ONE_UNIT, q);
  }
}

function toQuantity(quantity: string | Quantity): Quantity {
  const q = typeof quantity === 'string' ? parseQuantity(quantity) : quantity;
  if (typeof q.coefficient !== 'bigint' || !Number.isSafeInteger(q.scale) || q.scale < 0 || q.scale > MAX_QUANTITY_SCALE) {
    throw new CoreValidationError('invalid_quantity', 'quantity', 'quantity must be a decimal string or { coefficient: bigint, scale }');
  }
  if (q.coefficient < 0n) {
    throw new CoreValidationError('negative_quantity', 'quantity', 'quantities are never negative; express credits with a negative Flat or PerUnit price');
  }
  return q;
}

function assertValidSku(sku: SkuPrice): void {
  const problems = validateSku(sku);
  if (problems.length > 0) throw CoreValidationError.fromProblems(problems);
}

/** Basis points as a percentage text without floating point: 1250 → "12.5%". */
export function formatBasisPoints(bps: number): string {
  const whole = (bps - (bps % 100)) / 100;
  const fraction = String(bps % 100).padStart(2, '0').replace(/0+$/, '');
  return `${whole}${fraction === '' ? '' : `.${fraction}`}%`;
}

const mul = (r: Rational, num: bigint, den: bigint): Rational => ({ num: r.num * num, den: r.den * den });
const isRecurring = (model: PricingModel): boolean => model === 'Flat' || model === 'Committed';

/**
 * Rates one SKU for one period's quantity. Throws CoreValidationError for an invalid SKU, a
 * negative or malformed quantity, or invalid options. See the top of this file for the rules.
 */
export function rateSku(sku: SkuPrice, quantity: string | Quantity, options: RateOptions = NO_OPTIONS): RatedLine {
  assertValidSku(sku);
  const q = toQuantity(quantity);
  const model = sku.pricing_model;
  const override = options.tier_override;
  if (override !== undefined) {
    if (!TIERED.has(model)) {
      throw new CoreValidationError('tiers_not_allowed', 'tier_override', `${model} pricing takes no tiers`);
    }
    const problems = validateTiers(model, override, 'tier_override');
    if (problems.length > 0) throw CoreValidationError.fromProblems(problems);
  }
  const priced = priceAt(sku, override ?? sku.tiers, q);
  const adjusted = options === NO_OPTIONS || !hasAdjustments(options) ? undefined : adjust(sku, q, priced, options);
  // Built as one literal (no object spread) because this is the hot path of every rating.
  const line: { -readonly [K in keyof RatedLine]: RatedLine[K] } = {
    sku_id: sku.sku_id,
    description: sku.name,
    pricing_model: model,
    currency: sku.currency,
    quantity: model === 'Flat' ? '1' : quantityText(q.coefficient, q.scale),
    unit_amount_nanos: model === 'Percentage' ? ONE_UNIT : sku.unit_amount_nanos,
    list_amount_nanos: adjusted === undefined ? priced.amount : adjusted.list_amount_nanos,
    tiers: priced.tiers,
    adjustments: adjusted === undefined ? NO_ADJUSTMENTS : adjusted.adjustments,
    subtotal_nanos: adjusted === undefined ? priced.amount : adjusted.subtotal_nanos,
    discount_nanos: adjusted === undefined ? 0n : adjusted.discount_nanos,
    amount_nanos: adjusted === undefined ? priced.amount : adjusted.amount_nanos,
  };
  if (priced.package !== undefined) line.package = priced.package;
  if (priced.commitment !== undefined) line.commitment = priced.commitment;
  if (sku.meter !== undefined) line.meter = sku.meter;
  if (model === 'Percentage') line.percentage = percentageDetail(sku);
  return line;
}

/** The terms of a Percentage SKU as its lines carry them. */
export function percentageDetail(sku: SkuPrice): PercentageDetail {
  return {
    basis_points: sku.percentage_bps as number,
    amount_property: sku.amount_property as string,
    per_event_fee_nanos: sku.per_event_fee_nanos ?? 0n,
    per_event_minimum_nanos: sku.per_event_minimum_nanos ?? null,
    per_event_maximum_nanos: sku.per_event_maximum_nanos ?? null,
  };
}

function hasAdjustments(options: RateOptions): boolean {
  return (
    options.tier_override !== undefined ||
    options.escalation !== undefined ||
    options.rate_overrides !== undefined ||
    options.proration !== undefined ||
    (options.discount_bps !== undefined && options.discount_bps !== 0)
  );
}

interface Adjusted {
  readonly list_amount_nanos: bigint;
  readonly adjustments: readonly Adjustment[];
  readonly subtotal_nanos: bigint;
  readonly discount_nanos: bigint;
  readonly amount_nanos: bigint;
}

function assertProration(proration: Proration): void {
  const { days_used: used, days_in_period: period } = proration;
  if (!Number.isSafeInteger(period) || period <= 0 || !Number.isSafeInteger(used) || used < 0 || used > period) {
    throw new CoreValidationError('invalid_proration', 'proration', 'need whole days with 0 ≤ days_used ≤ days_in_period and days_in_period > 0');
  }
}

/**
 * Applies the adjustment chain to a priced line. Each stage is an exact rational; an adjustment's
 * amount is the difference between the stage's value and the previous one, each rounded once, so
 * the recorded amounts telescope: list + Σ adjustments = amount.
 */
function adjust(sku: SkuPrice, q: Quantity, priced: Priced, options: RateOptions): Adjusted {
  const model = sku.pricing_model;
  const { escalation, proration } = options;
  const periods = options.periods_elapsed ?? 0;
  const discountBps = options.discount_bps ?? 0;
  if (escalation !== undefined) validateEscalation(escalation);
  assertPeriods(periods);
  options.rate_overrides?.forEach((override, index) => assertBasisPoints(override.multiplier_bps, `rate_overrides[${index}].multiplier_bps`));
  if (proration !== undefined) assertProration(proration);
  assertBasisPoints(discountBps, 'discount_bps', 10_000);

  const adjustments: Adjustment[] = [];
  let value = priced.exact;
  let current = priced.amount;
  const step = (next: Rational, kind: AdjustmentKind, description: string, basisPoints?: number): void => {
    const rounded = roundRational(next);
    if (rounded !== current) {
      adjustments.push({ kind, ...(basisPoints === undefined ? {} : { basis_points: basisPoints }), amount_nanos: rounded - current, description });
    }
    value = next;
    current = rounded;
  };

  const list = options.tier_override === undefined ? priced.amount : priceAt(sku, sku.tiers, q).amount;
  if (list !== priced.amount) {
    adjustments.push({ kind: 'TierOverride', amount_nanos: priced.amount - list, description: 'contract tiers replace the catalog tiers' });
  }

  // Escalation and the rate override as functions of a line value, so the prorated value below
  // goes through exactly the same steps. `share` is the part of the period served (1 = all).
  const escalating = escalation !== undefined && periods > 0;
  const percentFactor =
    escalating && escalation.kind === 'Percent' ? ([(BPS_DENOMINATOR + BigInt(escalation.basis_points)) ** BigInt(periods), BPS_DENOMINATOR ** BigInt(periods)] as const) : undefined;
  const fixedIncrease = escalating && escalation.kind === 'Fixed' && isRecurring(model) ? escalation.amount_nanos * BigInt(periods) : 0n;
  const escalate = (line: Rational, share: Rational): Rational => {
    const scaled = percentFactor === undefined ? line : mul(line, percentFactor[0], percentFactor[1]);
    return fixedIncrease === 0n ? scaled : { num: scaled.num * share.den + fixedIncrease * share.num * scaled.den, den: scaled.den * share.den };
  };
  const rate = findRateOverride(sku.tags, options.rate_overrides);
  const override = (line: Rational): Rational => (rate === undefined ? line : mul(line, BigInt(rate.multiplier_bps), BPS_DENOMINATOR));

  if (escalating) {
    step(
      escalate(value, ONE),
      'Escalation',
      escalation.kind === 'Percent'
        ? `escalation ${formatBasisPoints(escalation.basis_points)} compounded over ${periods} period(s)`
        : `fixed escalation of ${escalation.amount_nanos} raw units per period over ${periods} period(s)`,
      escalation.kind === 'Percent' ? escalation.basis_points : undefined,
    );
  }
  if (rate !== undefined) {
    step(override(value), 'RateOverride', `rate override ${formatBasisPoints(rate.multiplier_bps)} for tag '${rate.product_tag}'`, rate.multiplier_bps);
  }
  if (proration !== undefined && isRecurring(model) && proration.days_used !== proration.days_in_period) {
    const share: Rational = { num: BigInt(proration.days_used), den: BigInt(proration.days_in_period) };
    const base =
      model === 'Flat'
        ? mul(priced.exact, share.num, share.den)
        : committedExact(q, sku.unit_amount_nanos, { num: (sku.commit_amount_nanos as bigint) * share.num, den: share.den }, sku.overage_unit_amount_nanos as bigint);
    step(override(escalate(base, share)), 'Proration', `prorated ${proration.days_used} of ${proration.days_in_period} days`);
  }

  const subtotal = current;
  if (discountBps > 0 && value.num > 0n) {
    step(mul(value, BPS_DENOMINATOR - BigInt(discountBps), BPS_DENOMINATOR), 'ContractDiscount', `contract discount ${formatBasisPoints(discountBps)}`, discountBps);
  }
  return { list_amount_nanos: list, adjustments, subtotal_nanos: subtotal, discount_nanos: subtotal - current, amount_nanos: current };
}

export interface RatedTierJson {
  readonly tier: number;
  readonly from: string;
  readonly up_to: string | null;
  readonly quantity: string;
  readonly unit_amount_nanos: string;
  readonly flat_amount_nanos: string;
  readonly amount_nanos: string;
}

export interface AdjustmentJson {
  readonly kind: AdjustmentKind;
  readonly basis_points?: number;
  readonly amount_nanos: string;
  readonly description: string;
}

export interface RatedLineJson {
  readonly sku_id: string;
  readonly description: string;
  readonly pricing_model: PricingModel;
  readonly currency: string;
  readonly quantity: string;
  readonly unit_amount_nanos: string;
  readonly list_amount_nanos: string;
  readonly tiers: readonly RatedTierJson[];
  readonly package?: { readonly package_size: string; readonly package_rounding: PackageRounding; readonly free_units: string; readonly packages: string };
  readonly percentage?: {
    readonly basis_points: number;
    readonly amount_property: string;
    readonly per_event_fee_nanos: string;
    readonly per_event_minimum_nanos: string | null;
    readonly per_event_maximum_nanos: string | null;
  };
  readonly commitment?: {
    readonly commit_amount_nanos: string;
    readonly usage_value_nanos: string;
    readonly excess_usage_value_nanos: string;
    readonly overage_unit_amount_nanos: string;
    readonly overage_amount_nanos: string;
  };
  readonly meter?: SkuMeter;
  readonly dimensions?: DimensionValues;
  readonly adjustments: readonly AdjustmentJson[];
  readonly subtotal_nanos: string;
  readonly discount_nanos: string;
  readonly amount_nanos: string;
}

/** JSON-safe form of a RatedLine: money as decimal strings (SPEC global rule 1). */
export function serializeRatedLine(line: RatedLine): RatedLineJson {
  const { package: pack, commitment, percentage } = line;
  return {
    sku_id: line.sku_id,
    description: line.description,
    pricing_model: line.pricing_model,
    currency: line.currency,
    quantity: line.quantity,
    unit_amount_nanos: formatMoney(line.unit_amount_nanos),
    list_amount_nanos: formatMoney(line.list_amount_nanos),
    tiers: line.tiers.map((tier) => ({
      tier: tier.tier,
      from: tier.from.toString(),
      up_to: tier.up_to === null ? null : tier.up_to.toString(),
      quantity: tier.quantity,
      unit_amount_nanos: formatMoney(tier.unit_amount_nanos),
      flat_amount_nanos: formatMoney(tier.flat_amount_nanos),
      amount_nanos: formatMoney(tier.amount_nanos),
    })),
    ...(pack === undefined
      ? {}
      : {
          package: {
            package_size: pack.package_size.toString(),
            package_rounding: pack.package_rounding,
            free_units: pack.free_units.toString(),
            packages: pack.packages.toString(),
          },
        }),
    ...(percentage === undefined
      ? {}
      : {
          percentage: {
            basis_points: percentage.basis_points,
            amount_property: percentage.amount_property,
            per_event_fee_nanos: formatMoney(percentage.per_event_fee_nanos),
            per_event_minimum_nanos: percentage.per_event_minimum_nanos === null ? null : formatMoney(percentage.per_event_minimum_nanos),
            per_event_maximum_nanos: percentage.per_event_maximum_nanos === null ? null : formatMoney(percentage.per_event_maximum_nanos),
          },
        }),
    ...(commitment === undefined
      ? {}
      : {
          commitment: {
            commit_amount_nanos: formatMoney(commitment.commit_amount_nanos),
            usage_value_nanos: formatMoney(commitment.usage_value_nanos),
            excess_usage_value_nanos: formatMoney(commitment.excess_usage_value_nanos),
            overage_unit_amount_nanos: formatMoney(commitment.overage_unit_amount_nanos),
            overage_amount_nanos: formatMoney(commitment.overage_amount_nanos),
          },
        }),
    ...(line.meter === undefined ? {} : { meter: line.meter }),
    ...(line.dimensions === undefined ? {} : { dimensions: line.dimensions }),
    adjustments: line.adjustments.map((adjustment) => ({
      kind: adjustment.kind,
      ...(adjustment.basis_points === undefined ? {} : { basis_points: adjustment.basis_points }),
      amount_nanos: formatMoney(adjustment.amount_nanos),
      description: adjustment.description,
    })),
    subtotal_nanos: formatMoney(line.subtotal_nanos),
    discount_nanos: formatMoney(line.discount_nanos),
    amount_nanos: formatMoney(line.amount_nanos),
  };
}

export interface TierJson {
  readonly up_to: number | string | null;
  readonly unit_amount_nanos: string;
  readonly flat_amount_nanos?: string;
}

export interface SkuPriceJson {
  readonly sku_id: string;
  readonly name: string;
  readonly pricing_model: PricingModel;
  readonly unit_amount_nanos: string;
  readonly currency: string;
  readonly meter_event_type?: string;
  readonly tiers?: readonly TierJson[];
  readonly package_size?: number | string;
  readonly package_rounding?: PackageRounding;
  readonly package_free_units?: number | string;
  readonly commit_amount_nanos?: string;
  readonly overage_unit_amount_nanos?: string;
  readonly minimum_amount_nanos?: string;
  readonly percentage_bps?: number;
  readonly amount_property?: string;
  readonly per_event_fee_nanos?: string;
  readonly per_event_minimum_nanos?: string;
  readonly per_event_maximum_nanos?: string;
  readonly tags?: readonly string[];
}

function wholeNumber(value: number | string, field: string): bigint {
  if (typeof value === 'number' ? Number.isSafeInteger(value) : /^[0-9]{1,38}$/.test(value)) return BigInt(value);
  throw new CoreValidationError('invalid_integer', field, 'expected a whole number');
}

type OptionalMoneyField = 'minimum_amount_nanos' | 'per_event_fee_nanos' | 'per_event_minimum_nanos' | 'per_event_maximum_nanos';

function optionalMoney<F extends OptionalMoneyField>(json: SkuPriceJson, field: F): { [K in F]?: bigint } {
  const value = json[field];
  return (value === undefined ? {} : { [field]: parseMoney(value, field) }) as { [K in F]?: bigint };
}

/** A SkuPrice from its JSON form (money as `_nanos` strings, SPEC tier objects), validated. */
export function parseSkuPrice(json: SkuPriceJson): SkuPrice {
  const sku: SkuPrice = {
    sku_id: json.sku_id,
    name: json.name,
    pricing_model: json.pricing_model,
    unit_amount_nanos: parseMoney(json.unit_amount_nanos, 'unit_amount_nanos'),
    currency: json.currency,
    ...(json.meter_event_type === undefined ? {} : { meter_event_type: json.meter_event_type }),
    ...(json.tiers === undefined
      ? {}
      : {
          tiers: json.tiers.map((tier, index) => ({
            up_to: tier.up_to === null ? null : wholeNumber(tier.up_to, `tiers[${index}].up_to`),
            unit_amount_nanos: parseMoney(tier.unit_amount_nanos, `tiers[${index}].unit_amount_nanos`),
            ...(tier.flat_amount_nanos === undefined ? {} : { flat_amount_nanos: parseMoney(tier.flat_amount_nanos, `tiers[${index}].flat_amount_nanos`) }),
          })),
        }),
    ...(json.package_size === undefined ? {} : { package_size: wholeNumber(json.package_size, 'package_size') }),
    ...(json.package_rounding === undefined ? {} : { package_rounding: json.package_rounding }),
    ...(json.commit_amount_nanos === undefined ? {} : { commit_amount_nanos: parseMoney(json.commit_amount_nanos, 'commit_amount_nanos') }),
    ...(json.overage_unit_amount_nanos === undefined
      ? {}
      : { overage_unit_amount_nanos: parseMoney(json.overage_unit_amount_nanos, 'overage_unit_amount_nanos') }),
    ...(json.package_free_units === undefined ? {} : { package_free_units: wholeNumber(json.package_free_units, 'package_free_units') }),
    ...optionalMoney(json, 'minimum_amount_nanos'),
    ...(json.percentage_bps === undefined ? {} : { percentage_bps: json.percentage_bps }),
    ...(json.amount_property === undefined ? {} : { amount_property: json.amount_property }),
    ...optionalMoney(json, 'per_event_fee_nanos'),
    ...optionalMoney(json, 'per_event_minimum_nanos'),
    ...optionalMoney(json, 'per_event_maximum_nanos'),
    ...(json.tags === undefined ? {} : { tags: [...json.tags] }),
  };
  assertValidSku(sku);
  return sku;
}
