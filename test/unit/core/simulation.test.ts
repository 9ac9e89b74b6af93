import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyPriceChanges, DELTA_BUCKETS, deltaBucket, distributeDeltas, ONE_UNIT, priceChangeProblems, type SkuPrice } from '../../../src/core/index.js';

const seat: SkuPrice = { sku_id: 'seat', name: 'Seat', pricing_model: 'Flat', unit_amount_nanos: 10n * ONE_UNIT, currency: 'USD' };
const calls: SkuPrice = { sku_id: 'calls', name: 'Calls', pricing_model: 'PerUnit', unit_amount_nanos: ONE_UNIT / 100n, currency: 'USD', meter_event_type: 'api_call' };
const units = (n: number | string): bigint => BigInt(n) * ONE_UNIT;

describe('applyPriceChanges', () => {
  it('replaces only the named SKU’s given prices', () => {
    const changed = applyPriceChanges([seat, calls], [{ sku_id: 'calls', unit_amount_nanos: ONE_UNIT / 50n }]);
    expect(changed).toEqual([seat, { ...calls, unit_amount_nanos: ONE_UNIT / 50n }]);
  });

  it('refuses an unknown SKU, a repeated one and an invalid price, naming each field', () => {
    const problems = priceChangeProblems(
      [seat, calls],
      [
        { sku_id: 'nope', unit_amount_nanos: 1n },
        { sku_id: 'calls', unit_amount_nanos: 1n },
        { sku_id: 'calls', unit_amount_nanos: 2n },
        { sku_id: 'seat', tiers: [{ up_to: null, unit_amount_nanos: 1n }] },
        { sku_id: 'seat', unit_amount_nanos: 10n ** 31n },
      ],
      'candidate.price_changes',
    );
    expect(problems.map((p) => [p.code, p.field])).toEqual([
      ['unknown_sku', 'candidate.price_changes[0].sku_id'],
      ['duplicate_price_change', 'candidate.price_changes[2].sku_id'],
      ['tiers_not_allowed', 'candidate.price_changes[3].tiers'],
      ['duplicate_price_change', 'candidate.price_changes[4].sku_id'],
    ]);
    expect(priceChangeProblems([calls], [{ sku_id: 'calls', unit_amount_nanos: 10n ** 18n }], 'c').map((p) => [p.code, p.field])).toEqual([
      ['price_out_of_range', 'c[0].unit_amount_nanos'],
    ]);
  });
});

describe('deltaBucket', () => {
  it.each([
    [100, 100, 'unchanged'],
    [0, 0, 'unchanged'],
    [0, 5, 'from_zero'],
    [100, 104, 'increase_under_5'],
    [100, 105, 'increase_5_to_10'],
    [100, 110, 'increase_10_to_20'],
    [100, 119, 'increase_10_to_20'],
    [100, 120, 'increase_20_to_50'],
    [100, 150, 'increase_50_or_more'],
    [100, 400, 'increase_50_or_more'],
    [100, 99, 'decrease_under_5'],
    [100, 95, 'decrease_5_to_10'],
    [100, 81, 'decrease_10_to_20'],
    [100, 80, 'decrease_20_to_50'],
    [100, 50, 'decrease_50_or_more'],
    [100, 0, 'decrease_50_or_more'],
    [-100, -90, 'increase_10_to_20'],
  ] as const)('%s → %s is %s', (actual, candidate, bucket) => {
    expect(deltaBucket(units(actual), units(candidate))).toBe(bucket);
  });

  it('is exact at a bound one raw unit apart', () => {
    expect(deltaBucket(units(100), units(110) - 1n)).toBe('increase_5_to_10');
    expect(deltaBucket(units(100), units(110))).toBe('increase_10_to_20');
  });

  it('is in the increases exactly when candidate > actual, in the decreases when below (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 30n }), fc.bigInt({ min: 0n, max: 10n ** 30n }), (actual, candidate) => {
        const bucket = deltaBucket(actual, candidate);
        if (candidate > actual) expect(bucket.startsWith('increase_')).toBe(true);
        else if (candidate < actual) expect(bucket.startsWith('decrease_')).toBe(true);
        else expect(bucket).toBe('unchanged');
      }),
    );
  });
});

describe('distributeDeltas', () => {
  it('totals each currency and counts each customer in one bucket', () => {
    const result = distributeDeltas([
      { customer_id: 'a', currency: 'USD', actual_nanos: units(100), candidate_nanos: units(112) },
      { customer_id: 'b', currency: 'USD', actual_nanos: units(50), candidate_nanos: units(50) },
      { customer_id: 'c', currency: 'USD', actual_nanos: units(10), candidate_nanos: units(4) },
      { customer_id: 'a', currency: 'EUR', actual_nanos: 0n, candidate_nanos: units(3) },
    ]);
    expect(result.map((r) => r.currency)).toEqual(['EUR', 'USD']);
    const usd = result[1]!;
    expect(usd).toMatchObject({
      customers: 3,
      actual_nanos: units(160),
      candidate_nanos: units(166),
      delta_nanos: units(6),
      customers_paying_more: 1,
      customers_paying_less: 1,
      customers_unchanged: 1,
    });
    const nonEmpty = usd.buckets.filter((b) => b.customers > 0).map((b) => [b.bucket, b.customers, b.delta_nanos]);
    expect(nonEmpty).toEqual([
      ['decrease_50_or_more', 1, -units(6)],
      ['unchanged', 1, 0n],
      ['increase_10_to_20', 1, units(12)],
    ]);
    expect(result[0]!.buckets.find((b) => b.bucket === 'from_zero')!.customers).toBe(1);
  });

  it('buckets’ customers and deltas sum to the currency’s (property)', () => {
    const customer = fc.record({ customer_id: fc.uuid(), currency: fc.constantFrom('USD', 'EUR'), actual_nanos: fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), candidate_nanos: fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }) });
    fc.assert(
      fc.property(fc.array(customer, { maxLength: 40 }), (customers) => {
        for (const currency of distributeDeltas(customers)) {
          expect(currency.buckets.map((b) => b.bucket)).toEqual([...DELTA_BUCKETS]);
          expect(currency.buckets.reduce((n, b) => n + b.customers, 0)).toBe(currency.customers);
          expect(currency.buckets.reduce((sum, b) => sum + b.delta_nanos, 0n)).toBe(currency.delta_nanos);
          expect(currency.customers_paying_more + currency.customers_paying_less + currency.customers_unchanged).toBe(currency.customers);
        }
      }),
    );
  });
});
