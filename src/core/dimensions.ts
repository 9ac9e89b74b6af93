/**
 * Dimensional pricing: the keys that carry a dimensional SKU's quantities per dimension value into
 * rating, and the keys its invoice lines are matched by.
 *
 * - A value is the text of each group_by property of the event (`properties->>'region'`), or null
 *   when the event lacks it: events without the property are one bucket, priced at the default price.
 * - Cardinality: at most MAX_DIMENSION_VALUES distinct values per SKU and period get a line of their
 *   own, the first ones seen (in arrival order); the quantities of every later value are billed
 *   together as one `other` bucket at the default price (its line's `dimensions` is `{}`), so an
 *   invoice has at most MAX_DIMENSION_VALUES + 1 lines per dimensional SKU.
 */
import { CoreValidationError, type Problem } from './errors.js';
import { parseSkuPrice, type Dimensional, type DimensionPrice, type PackageRounding, type PricingModel, type SkuPrice, type TierJson, type TierScope } from './pricing.js';

/** A dimension value: each group_by property → the event's value, null when the event lacks it. */
export type DimensionValues = Readonly<Record<string, string | null>>;

/** Distinct dimension values with their own line, per SKU and period; the rest is one `other` bucket. */
export const MAX_DIMENSION_VALUES = 1000;

/** The `dimensions` of the bucket of values beyond MAX_DIMENSION_VALUES. */
export const OTHER_DIMENSIONS: DimensionValues = Object.freeze({});

const OTHER_SUFFIX = 'other';

/** The prefix of every usage key of one meter grouped by some properties. */
export function groupedUsagePrefix(meterKey: string, groupBy: readonly string[]): string {
  return `${meterKey}|by:${JSON.stringify(groupBy)}|`;
}

/** The usage key of one dimension value of a grouped meter (values in group_by order). */
export function groupedUsageKey(meterKey: string, groupBy: readonly string[], values: readonly (string | null)[]): string {
  return `${groupedUsagePrefix(meterKey, groupBy)}${JSON.stringify(values)}`;
}

/** The usage key of the `other` bucket of a grouped meter. */
export function groupedOtherKey(meterKey: string, groupBy: readonly string[]): string {
  return `${groupedUsagePrefix(meterKey, groupBy)}${OTHER_SUFFIX}`;
}

/** The meter key a dimensional SKU's quantities are read under (its resolved meter, else its meter_id). */
export function dimensionalMeterKey(sku: Pick<SkuPrice, 'meter' | 'meter_id' | 'meter_event_type'>): string {
  return sku.meter?.meter_id ?? sku.meter_id ?? (sku.meter_event_type as string);
}

/** The dimension value a usage key (without its prefix) names. */
export function dimensionsOfSuffix(groupBy: readonly string[], suffix: string): DimensionValues {
  if (suffix === OTHER_SUFFIX) return OTHER_DIMENSIONS;
  const values = JSON.parse(suffix) as (string | null)[];
  return Object.fromEntries(groupBy.map((key, index) => [key, values[index] ?? null]));
}

/** Whether dimensions are the `other` bucket. */
export const isOtherBucket = (dimensions: DimensionValues): boolean => Object.keys(dimensions).length === 0;

/** Dimensions as canonical text (keys sorted): equal values give equal text, whatever the key order. */
export function canonicalDimensions(dimensions: DimensionValues): string {
  return JSON.stringify(Object.keys(dimensions).sort().map((key) => [key, dimensions[key] ?? null]));
}

/** What an invoice line of a SKU is matched by across bills: the sku_id, plus the dimension value of a dimensional line. */
export function dimensionLineKey(skuId: string, dimensions: DimensionValues | null | undefined): string {
  return dimensions === null || dimensions === undefined ? skuId : `${skuId}:dim:${canonicalDimensions(dimensions)}`;
}

/** How a line names its dimension value: "region=eu", "region=(none)", "other values". */
export function dimensionLabel(dimensions: DimensionValues): string {
  if (isOtherBucket(dimensions)) return 'other values';
  return Object.entries(dimensions)
    .map(([key, value]) => `${key}=${value ?? '(none)'}`)
    .join(', ');
}

/** A dimension value's price as the API and the catalog's JSON column carry it (money as decimal strings). */
export interface DimensionPriceJson {
  readonly values: Readonly<Record<string, string>>;
  readonly pricing_model: PricingModel;
  readonly unit_amount_nanos?: string;
  readonly tiers?: readonly TierJson[];
  readonly package_size?: string;
  readonly package_rounding?: PackageRounding;
  readonly package_free_units?: string;
}

export interface DimensionalJson {
  readonly group_by: readonly string[];
  readonly tier_scope: TierScope;
  readonly dimension_prices: readonly DimensionPriceJson[];
}

/** A SKU's dimensional terms from their JSON form; a value's price is validated as the SKU's own would be (fields prefixed dimension_prices[i]). */
export function parseDimensional(json: DimensionalJson, currency: string): Dimensional {
  const problems: Problem[] = [];
  const prices = json.dimension_prices.flatMap((price, index): DimensionPrice[] => {
    try {
      const parsed = parseSkuPrice({
        sku_id: 'dimension',
        name: 'dimension',
        pricing_model: price.pricing_model,
        unit_amount_nanos: price.unit_amount_nanos ?? '0',
        currency,
        ...(price.tiers === undefined ? {} : { tiers: price.tiers }),
        ...(price.package_size === undefined ? {} : { package_size: price.package_size }),
        ...(price.pricing_model === 'Package' ? { package_rounding: price.package_rounding ?? 'Up' } : {}),
        ...(price.package_free_units === undefined ? {} : { package_free_units: price.package_free_units }),
      });
      return [
        {
          values: price.values,
          pricing_model: parsed.pricing_model,
          unit_amount_nanos: parsed.unit_amount_nanos,
          ...(parsed.tiers === undefined ? {} : { tiers: parsed.tiers }),
          ...(parsed.package_size === undefined ? {} : { package_size: parsed.package_size }),
          ...(parsed.package_rounding === undefined ? {} : { package_rounding: parsed.package_rounding }),
          ...(parsed.package_free_units === undefined ? {} : { package_free_units: parsed.package_free_units }),
        },
      ];
    } catch (err) {
      if (!(err instanceof CoreValidationError)) throw err;
      problems.push(...err.problems.map((problem) => ({ ...problem, field: `dimension_prices[${index}].${problem.field}` })));
      return [];
    }
  });
  if (problems.length > 0) throw CoreValidationError.fromProblems(problems);
  return { group_by: [...json.group_by], tier_scope: json.tier_scope, prices };
}

/** The JSON form of a SKU's dimensional terms (tier bounds and money as decimal strings). */
export function dimensionalJson(dimensional: Dimensional): DimensionalJson {
  return {
    group_by: [...dimensional.group_by],
    tier_scope: dimensional.tier_scope,
    dimension_prices: dimensional.prices.map((price) => ({
      values: { ...price.values },
      pricing_model: price.pricing_model,
      unit_amount_nanos: price.unit_amount_nanos.toString(),
      ...(price.tiers === undefined
        ? {}
        : {
            tiers: price.tiers.map((tier) => ({
              up_to: tier.up_to === null ? null : tier.up_to.toString(),
              unit_amount_nanos: tier.unit_amount_nanos.toString(),
              ...(tier.flat_amount_nanos === undefined ? {} : { flat_amount_nanos: tier.flat_amount_nanos.toString() }),
            })),
          }),
      ...(price.package_size === undefined ? {} : { package_size: price.package_size.toString() }),
      ...(price.package_rounding === undefined ? {} : { package_rounding: price.package_rounding }),
      ...(price.package_free_units === undefined ? {} : { package_free_units: price.package_free_units.toString() }),
    })),
  };
}
