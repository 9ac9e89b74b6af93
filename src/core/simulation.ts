/**
 * Price simulations, the pure part: a candidate's price changes applied to a plan's SKUs, and what a
 * simulation's re-rated periods add up to (totals, and the distribution of customers by how much
 * more or less they would pay). Rating itself is the period close's (rating.ts, pricing.ts).
 *
 * A customer's change is the sum of its re-rated periods in one currency: delta = candidate − actual,
 * relative to |actual|. Buckets are bounded below inclusively: a change of exactly +10% is in
 * `increase_10_to_20`. A customer billed nothing whose candidate charges something is `from_zero`.
 */
import type { Problem } from './errors.js';
import { priceBoundProblems, validateSku, type SkuPrice, type Tier } from './pricing.js';

/** New prices for one SKU of a plan; fields left out keep the SKU's. */
export interface PriceChange {
  readonly sku_id: string;
  readonly unit_amount_nanos?: bigint;
  readonly tiers?: readonly Tier[];
  readonly overage_unit_amount_nanos?: bigint;
  readonly commit_amount_nanos?: bigint;
}

const withChange = (sku: SkuPrice, change: PriceChange): SkuPrice => ({
  ...sku,
  ...(change.unit_amount_nanos === undefined ? {} : { unit_amount_nanos: change.unit_amount_nanos }),
  ...(change.tiers === undefined ? {} : { tiers: change.tiers }),
  ...(change.overage_unit_amount_nanos === undefined ? {} : { overage_unit_amount_nanos: change.overage_unit_amount_nanos }),
  ...(change.commit_amount_nanos === undefined ? {} : { commit_amount_nanos: change.commit_amount_nanos }),
});

/** The SKUs with the changes of those named applied (the others unchanged). */
export function applyPriceChanges(skus: readonly SkuPrice[], changes: readonly PriceChange[]): SkuPrice[] {
  const byId = new Map(changes.map((change) => [change.sku_id, change]));
  return skus.map((sku) => {
    const change = byId.get(sku.sku_id);
    return change === undefined ? sku : withChange(sku, change);
  });
}

/** What is wrong with price changes to these SKUs: an unknown or repeated SKU, an invalid or out-of-bounds price. */
export function priceChangeProblems(skus: readonly SkuPrice[], changes: readonly PriceChange[], field: string): Problem[] {
  const problems: Problem[] = [];
  const known = new Map(skus.map((sku) => [sku.sku_id, sku]));
  const seen = new Set<string>();
  changes.forEach((change, index) => {
    const at = `${field}[${index}]`;
    const sku = known.get(change.sku_id);
    if (sku === undefined) {
      problems.push({ code: 'unknown_sku', field: `${at}.sku_id`, message: `no SKU ${change.sku_id} in this plan version` });
    } else if (seen.has(change.sku_id)) {
      problems.push({ code: 'duplicate_price_change', field: `${at}.sku_id`, message: `two price changes for SKU ${change.sku_id}` });
    } else {
      const changed = withChange(sku, change);
      for (const problem of [...validateSku(changed), ...priceBoundProblems(changed)]) problems.push({ ...problem, field: `${at}.${problem.field}` });
    }
    seen.add(change.sku_id);
  });
  return problems;
}

export const DELTA_BUCKETS = [
  'decrease_50_or_more',
  'decrease_20_to_50',
  'decrease_10_to_20',
  'decrease_5_to_10',
  'decrease_under_5',
  'unchanged',
  'increase_under_5',
  'increase_5_to_10',
  'increase_10_to_20',
  'increase_20_to_50',
  'increase_50_or_more',
  'from_zero',
] as const;

export type DeltaBucket = (typeof DELTA_BUCKETS)[number];

/** Bucket bounds in basis points of |actual|, ascending. */
const BOUNDS_BPS = [500n, 1000n, 2000n, 5000n] as const;
const UP: readonly DeltaBucket[] = ['increase_under_5', 'increase_5_to_10', 'increase_10_to_20', 'increase_20_to_50', 'increase_50_or_more'];
const DOWN: readonly DeltaBucket[] = ['decrease_under_5', 'decrease_5_to_10', 'decrease_10_to_20', 'decrease_20_to_50', 'decrease_50_or_more'];

/** The bucket of a change from `actual` to `candidate` (raw units), compared exactly (no division). */
export function deltaBucket(actual: bigint, candidate: bigint): DeltaBucket {
  const delta = candidate - actual;
  if (delta === 0n) return 'unchanged';
  if (actual === 0n) return 'from_zero';
  const base = actual < 0n ? -actual : actual;
  const size = (delta < 0n ? -delta : delta) * 10_000n;
  const step = BOUNDS_BPS.filter((bound) => size >= bound * base).length;
  return (delta > 0n ? UP : DOWN)[step]!;
}

/** One customer's re-rated periods in one currency, summed. */
export interface CustomerDelta {
  readonly customer_id: string;
  readonly currency: string;
  readonly actual_nanos: bigint;
  readonly candidate_nanos: bigint;
}

export interface BucketCount {
  readonly bucket: DeltaBucket;
  readonly customers: number;
  /** Sum of the customers' deltas (candidate − actual) in the bucket. */
  readonly delta_nanos: bigint;
}

export interface CurrencyDistribution {
  readonly currency: string;
  readonly customers: number;
  readonly actual_nanos: bigint;
  readonly candidate_nanos: bigint;
  readonly delta_nanos: bigint;
  readonly customers_paying_more: number;
  readonly customers_paying_less: number;
  readonly customers_unchanged: number;
  /** Every bucket, in DELTA_BUCKETS order (empty ones with 0 customers). */
  readonly buckets: readonly BucketCount[];
}

/** Totals and the distribution of customers by bucket, per currency (currencies in code order). */
export function distributeDeltas(customers: Iterable<CustomerDelta>): CurrencyDistribution[] {
  const byCurrency = new Map<string, CustomerDelta[]>();
  for (const customer of customers) {
    const list = byCurrency.get(customer.currency) ?? [];
    list.push(customer);
    byCurrency.set(customer.currency, list);
  }
  return [...byCurrency.keys()].sort().map((currency) => {
    const list = byCurrency.get(currency)!;
    const counts = new Map<DeltaBucket, { customers: number; delta: bigint }>(DELTA_BUCKETS.map((bucket) => [bucket, { customers: 0, delta: 0n }]));
    let actual = 0n;
    let candidate = 0n;
    let more = 0;
    let less = 0;
    for (const customer of list) {
      actual += customer.actual_nanos;
      candidate += customer.candidate_nanos;
      const delta = customer.candidate_nanos - customer.actual_nanos;
      if (delta > 0n) more += 1;
      if (delta < 0n) less += 1;
      const count = counts.get(deltaBucket(customer.actual_nanos, customer.candidate_nanos))!;
      count.customers += 1;
      count.delta += delta;
    }
    return {
      currency,
      customers: list.length,
      actual_nanos: actual,
      candidate_nanos: candidate,
      delta_nanos: candidate - actual,
      customers_paying_more: more,
      customers_paying_less: less,
      customers_unchanged: list.length - more - less,
      buckets: DELTA_BUCKETS.map((bucket) => ({ bucket, customers: counts.get(bucket)!.customers, delta_nanos: counts.get(bucket)!.delta })),
    };
  });
}
