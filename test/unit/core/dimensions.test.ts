/**
 * Dimensional pricing in the core: one line per dimension value, a listed value at its own price and
 * any other at the SKU's default, tiers counted per value or across all values. Golden figures are
 * hand-computed raw units; the property holds the across-all rule for any tiers and split.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  dimensionLineKey,
  groupedOtherKey,
  groupedUsageKey,
  ratePeriodAcrossPhases,
  ratePlan,
  rateSku,
  validateSku,
  addQuantity,
  formatQuantity,
  ZERO_QUANTITY,
  ONE_UNIT as U,
  type RatedLine,
  type SkuPrice,
  type Tier,
} from '../../../src/core/index.js';
import { quantity, tiersArb } from './arbitraries.js';

const METER = 'meter-1';
const period = { start: '2026-01-01', end: '2026-02-01' };
const tiers: Tier[] = [
  { up_to: 100n, unit_amount_nanos: 2n * U },
  { up_to: null, unit_amount_nanos: 1n * U },
];

const grouped = (overrides: Partial<SkuPrice> = {}, dimensional: Partial<NonNullable<SkuPrice['dimensional']>> = {}): SkuPrice => ({
  sku_id: 'sku-api',
  name: 'API calls',
  pricing_model: 'Graduated',
  unit_amount_nanos: 0n,
  currency: 'USD',
  meter_event_type: 'api_call',
  meter_id: METER,
  tiers,
  ...overrides,
  dimensional: { group_by: ['region'], prices: [], tier_scope: 'per_value', ...dimensional },
});

/** The same SKU without dimensions. */
const plain = (overrides: Partial<SkuPrice> = {}): SkuPrice => {
  const { dimensional: _dimensional, ...sku } = grouped(overrides);
  return sku;
};
const key = (...values: (string | null)[]): string => groupedUsageKey(METER, ['region'], values);
const rate = (sku: SkuPrice, usage: Record<string, string>) => ratePlan({ skus: [sku], usage, asOf: period.start, period });
const summary = (lines: readonly RatedLine[]) => lines.map((line) => [line.dimensions, line.quantity, line.amount_nanos]);

describe('dimensional SKU lines', () => {
  it('prices a listed value at its own price and the others (and events without the property) at the default', () => {
    const sku = grouped({ pricing_model: 'PerUnit', unit_amount_nanos: 1n * U, tiers: undefined }, {
      prices: [{ values: { region: 'eu' }, pricing_model: 'PerUnit', unit_amount_nanos: 3n * U }],
    });
    const plan = rate(sku, { [key('eu')]: '10', [key('us')]: '20', [key(null)]: '5' });
    expect(summary(plan.lines)).toEqual([
      [{ region: 'eu' }, '10', 30n * U],
      [{ region: 'us' }, '20', 20n * U],
      [{ region: null }, '5', 5n * U],
    ]);
    expect(plan.lines.map((line) => line.description)).toEqual(['API calls · region=eu', 'API calls · region=us', 'API calls · region=(none)']);
    expect(plan.total_nanos).toBe(55n * U);
  });

  it('a value may use another pricing model than the default', () => {
    const sku = grouped({}, { prices: [{ values: { region: 'eu' }, pricing_model: 'Package', unit_amount_nanos: 5n * U, package_size: 100n }] });
    const plan = rate(sku, { [key('eu')]: '150', [key('us')]: '150' });
    // eu: 2 started packages of 100 at 5.00; us: 100 × 2.00 + 50 × 1.00 graduated.
    expect(summary(plan.lines)).toEqual([
      [{ region: 'eu' }, '150', 10n * U],
      [{ region: 'us' }, '150', 250n * U],
    ]);
    expect(plan.lines[0]!.package?.packages).toBe(2n);
  });

  it('tiers per value start every value at 0; across all, each value continues where the one before stopped', () => {
    const usage = { [key('eu')]: '80', [key('us')]: '80' };
    // per value: 80 × 2.00 each.
    expect(summary(rate(grouped(), usage).lines)).toEqual([
      [{ region: 'eu' }, '80', 160n * U],
      [{ region: 'us' }, '80', 160n * U],
    ]);
    // across all: eu fills positions 1–80 (2.00), us 81–160: 20 × 2.00 + 60 × 1.00.
    const across = rate(grouped({}, { tier_scope: 'across_all' }), usage);
    expect(summary(across.lines)).toEqual([
      [{ region: 'eu' }, '80', 160n * U],
      [{ region: 'us' }, '80', 100n * U],
    ]);
    expect(across.total_nanos).toBe(rateSku(plain(), '160').amount_nanos);
    expect(across.lines[1]!.tiers.map((tier) => [tier.tier, tier.quantity, tier.amount_nanos])).toEqual([
      [0, '20', 40n * U],
      [1, '60', 60n * U],
    ]);
  });

  it('bills the values beyond the cardinality bound as one `other` line at the default price, last', () => {
    const sku = grouped({ pricing_model: 'PerUnit', unit_amount_nanos: 1n * U, tiers: undefined }, {
      prices: [{ values: { region: 'eu' }, pricing_model: 'PerUnit', unit_amount_nanos: 3n * U }],
    });
    const plan = rate(sku, { [groupedOtherKey(METER, ['region'])]: '7', [key('eu')]: '1' });
    expect(summary(plan.lines)).toEqual([
      [{ region: 'eu' }, '1', 3n * U],
      [{}, '7', 7n * U],
    ]);
    expect(plan.lines[1]!.description).toBe('API calls · other values');
  });

  it('a SKU without any value still has its one line at 0, and its minimum is judged on the sum of its lines', () => {
    const sku = grouped({ pricing_model: 'PerUnit', unit_amount_nanos: 1n * U, tiers: undefined, minimum_amount_nanos: 50n * U });
    const empty = rate(sku, {});
    expect(summary(empty.lines)).toEqual([[undefined, '0', 0n]]);
    expect(empty.minimums[0]!.amount_nanos).toBe(50n * U);
    const used = rate(sku, { [key('eu')]: '10', [key('us')]: '15' });
    expect(used.minimums[0]!.usage_amount_nanos).toBe(25n * U);
    expect(used.minimums[0]!.amount_nanos).toBe(25n * U);
  });

  it('rates across contract phases per value and matches ratePlan with one piece', () => {
    const usage = { [key('eu')]: '80', [key('us')]: '80' };
    const sku = grouped({}, { tier_scope: 'across_all' });
    const whole = ratePeriodAcrossPhases({ skus: [sku], usage, period });
    expect(summary(whole.lines)).toEqual(summary(rate(sku, usage).lines));
    // A discount phase from Jan 16: half of each value's units arrived before.
    const contract = { terms: [{ phase: 1, start_date: '2026-01-16', end_date: '2026-03-01', committed_amount_nanos: 0n, discount_bps: 5000, description: 'ramp' }] };
    const split = ratePeriodAcrossPhases({ skus: [sku], usage, usage_to_date: { '2026-01-16': { [key('eu')]: '40', [key('us')]: '40' } }, contract, period });
    // Positions: piece 1 eu 1–40, us 41–80 (all 2.00: 160.00); piece 2 eu 81–120, us 121–160 at 50 %:
    // eu 20 × 2.00 + 20 × 1.00 = 60.00 → 30.00; us 40 × 1.00 = 40.00 → 20.00.
    expect(summary(split.lines)).toEqual([
      [{ region: 'eu' }, '80', 80n * U + 30n * U],
      [{ region: 'us' }, '80', 80n * U + 20n * U],
    ]);
  });

  it('refuses what dimensional pricing cannot price', () => {
    const codes = (sku: SkuPrice) => validateSku(sku).map((p) => p.code);
    expect(codes(grouped({ pricing_model: 'Flat', tiers: undefined }))).toContain('group_by_not_applicable');
    expect(codes(grouped({}, { group_by: ['a', 'b', 'c', 'd'] }))).toContain('invalid_group_by');
    expect(codes(grouped({}, { group_by: [] }))).toContain('invalid_group_by');
    expect(codes(grouped({}, { prices: [{ values: { zone: 'eu' }, pricing_model: 'PerUnit', unit_amount_nanos: 1n }] }))).toContain('invalid_dimension_values');
    expect(
      codes(
        grouped({}, {
          prices: [
            { values: { region: 'eu' }, pricing_model: 'PerUnit', unit_amount_nanos: 1n },
            { values: { region: 'eu' }, pricing_model: 'PerUnit', unit_amount_nanos: 2n },
          ],
        }),
      ),
    ).toContain('duplicate_dimension_price');
    expect(validateSku(grouped({}, { prices: [{ values: { region: 'eu' }, pricing_model: 'Graduated', unit_amount_nanos: 0n }] }))).toContainEqual(
      expect.objectContaining({ code: 'tiers_required', field: 'dimension_prices[0].tiers' }),
    );
  });

  it('line keys tell dimension values apart whatever the key order', () => {
    expect(dimensionLineKey('s', { b: '1', a: null })).toBe(dimensionLineKey('s', { a: null, b: '1' }));
    expect(dimensionLineKey('s', { a: 'x' })).not.toBe(dimensionLineKey('s', { a: null }));
    expect(dimensionLineKey('s', undefined)).toBe('s');
  });
});

describe('property: across all values with one price, the lines sum to rating the total', () => {
  it('holds for any Graduated or Volume tiers and any split of the quantity over values', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<'Graduated' | 'Volume'>('Graduated', 'Volume'),
        tiersArb(),
        fc.array(quantity, { minLength: 1, maxLength: 6 }),
        (model, sheet, parts) => {
          const sku = grouped({ pricing_model: model, tiers: sheet }, { tier_scope: 'across_all' });
          const usage = Object.fromEntries(parts.map((q, i) => [key(`v${i}`), formatQuantity(q)]));
          const plan = rate(sku, usage);
          const whole = rateSku(plain({ pricing_model: model, tiers: sheet }), parts.reduce(addQuantity, ZERO_QUANTITY));
          expect(plan.lines).toHaveLength(parts.length);
          expect(plan.lines.reduce((sum, line) => sum + line.amount_nanos, 0n)).toBe(whole.amount_nanos);
        },
      ),
      { numRuns: 300 },
    );
  });
});
