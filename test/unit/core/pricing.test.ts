import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addQuantity,
  CoreValidationError,
  formatQuantity,
  parseSkuPrice,
  rateSku,
  serializeRatedLine,
  validateSku,
  validateTiers,
  type RatedLine,
  type RateOptions,
  type SkuPrice,
  type Tier,
  ONE_UNIT as U,
} from '../../../src/core/index.js';
import { price, quantity, sku as anySku, tiersArb } from './arbitraries.js';

const sku = (overrides: Partial<SkuPrice> & Pick<SkuPrice, 'pricing_model'>): SkuPrice => ({
  sku_id: 'sku_1',
  name: 'Test SKU',
  unit_amount_nanos: 0n,
  currency: 'USD',
  ...overrides,
});

// 0.01 up to 1,000 units; 0.005 + 5.00 entry fee up to 10,000; 0.001 beyond.
const TIERS: Tier[] = [
  { up_to: 1000n, unit_amount_nanos: 10_000_000_000n },
  { up_to: 10000n, unit_amount_nanos: 5_000_000_000n, flat_amount_nanos: 5n * U },
  { up_to: null, unit_amount_nanos: 1_000_000_000n },
];

function errorCode(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof CoreValidationError) return error.code;
    throw error;
  }
  return undefined;
}

const sum = (values: readonly bigint[]): bigint => values.reduce((a, b) => a + b, 0n);

// 30-digit prices (about 1.2·10^17 and 9.9·10^17 currency units): bigint must keep every digit.
const P30 = 123456789012345678901234567890n;
const P30_EVEN = 987654321098765432109876543210n;
const P30_ODD = 123456789012345678901234567891n;

function checkInvariants(line: RatedLine): void {
  expect(line.amount_nanos).toBe(line.list_amount_nanos + sum(line.adjustments.map((a) => a.amount_nanos)));
  expect(line.subtotal_nanos - line.discount_nanos).toBe(line.amount_nanos);
  if (line.tiers.length > 0) {
    const override = line.adjustments.find((a) => a.kind === 'TierOverride')?.amount_nanos ?? 0n;
    expect(sum(line.tiers.map((t) => t.amount_nanos))).toBe(line.list_amount_nanos + override);
  }
}

describe('Flat', () => {
  const flat = sku({ pricing_model: 'Flat', unit_amount_nanos: 49_990_000_000_000n });
  it.each(['0', '1', '1000'])('charges the fee once whatever the quantity (%s)', (q) => {
    const line = rateSku(flat, q);
    expect(line.amount_nanos).toBe(49_990_000_000_000n);
    expect(line.quantity).toBe('1');
  });
  it('supports credits as a negative fee', () => {
    expect(rateSku(sku({ pricing_model: 'Flat', unit_amount_nanos: -10n * U }), '0').amount_nanos).toBe(-10_000_000_000_000n);
  });
});

describe('PerUnit', () => {
  const tenthOfACent = sku({ pricing_model: 'PerUnit', unit_amount_nanos: 100_000_000n }); // 0.0001 per unit
  it.each([
    ['0', 0n],
    ['1', 100_000_000n],
    ['1234567', 123_456_700_000_000n], // 123.4567
    ['1000000000000000', 100_000_000_000_000_000_000_000n], // 10^15 units → 10^11 currency units
    ['0.5', 50_000_000n],
    ['0.000000005', 0n], // 0.5 raw → even 0
    ['0.000000015', 2n], // 1.5 raw → even 2
    ['0.000000025', 2n], // 2.5 raw → even 2
    ['0.000000000000000001', 0n], // 10^-10 raw
  ])('%s units at 0.0001', (q, amount) => {
    expect(rateSku(tenthOfACent, q).amount_nanos).toBe(amount);
  });

  it('handles 30-digit amounts exactly', () => {
    const big = sku({ pricing_model: 'PerUnit', unit_amount_nanos: 123456789012345678901234567890n });
    expect(rateSku(big, '1').amount_nanos).toBe(123456789012345678901234567890n);
    expect(rateSku(big, '2').amount_nanos).toBe(246913578024691357802469135780n);
    expect(rateSku(big, '0.1').amount_nanos).toBe(12345678901234567890123456789n);
  });

  it('rates a negative unit price as a credit', () => {
    expect(rateSku(sku({ pricing_model: 'PerUnit', unit_amount_nanos: -5n * U }), '3').amount_nanos).toBe(-15_000_000_000_000n);
  });

  it('accepts a Quantity object as well as a string', () => {
    expect(rateSku(tenthOfACent, { coefficient: 25n, scale: 1 }).amount_nanos).toBe(250_000_000n);
  });
});

describe('Graduated', () => {
  const graduated = sku({ pricing_model: 'Graduated', tiers: TIERS });
  it.each([
    ['0', 0n, 0],
    ['1', 10_000_000_000n, 1],
    ['1000', 10_000_000_000_000n, 1], // exactly on the boundary: all in tier 0
    ['1001', 15_005_000_000_000n, 2], // 10.00 + 0.005 + 5.00 entry fee
    ['10000', 60_000_000_000_000n, 2], // 10 + 45 + 5
    ['10001', 60_001_000_000_000n, 3],
    ['1000.5', 15_002_500_000_000n, 2], // 10 + 0.0025 + 5
    ['1000000000000000', 1_000_000_000_050_000_000_000_000n, 3], // 60 + (10^15 − 10^4) × 0.001
  ])('%s units', (q, amount, tierCount) => {
    const line = rateSku(graduated, q);
    expect(line.amount_nanos).toBe(amount);
    expect(line.tiers).toHaveLength(tierCount);
    checkInvariants(line);
  });

  it('explains each tier', () => {
    expect(rateSku(graduated, '1000.5').tiers).toEqual([
      { tier: 0, from: 0n, up_to: 1000n, quantity: '1000', unit_amount_nanos: 10_000_000_000n, flat_amount_nanos: 0n, amount_nanos: 10_000_000_000_000n },
      { tier: 1, from: 1000n, up_to: 10000n, quantity: '0.5', unit_amount_nanos: 5_000_000_000n, flat_amount_nanos: 5n * U, amount_nanos: 5_002_500_000_000n },
    ]);
  });

  it.each([
    // tiers: up to 2 at P30, then P30_EVEN with a P30 entry fee
    ['3', 1_358_024_688_135_802_468_813_580_246_880n], // 2·P30 + 1·P30_EVEN + P30 = 3·P30 + P30_EVEN
    ['2.5', 864_197_527_586_419_752_758_641_975_275n], // 3·P30 + P30_EVEN/2 (even: exact)
    ['2.1', 469_135_799_146_913_579_914_691_357_991n], // 3·P30 + P30_EVEN/10 (ends in 0: exact)
    ['2', 246_913_578_024_691_357_802_469_135_780n], // 2·P30, the second tier not entered
  ])('%s units at 30-digit tier prices', (q, amount) => {
    const line = rateSku(sku({ pricing_model: 'Graduated', tiers: [{ up_to: 2n, unit_amount_nanos: P30 }, { up_to: null, unit_amount_nanos: P30_EVEN, flat_amount_nanos: P30 }] }), q);
    expect(line.amount_nanos).toBe(amount);
    checkInvariants(line);
  });

  it('rounds a 30-digit half raw unit once, HalfEven', () => {
    const odd = sku({ pricing_model: 'Graduated', tiers: [{ up_to: 1n, unit_amount_nanos: P30_ODD }, { up_to: null, unit_amount_nanos: P30_EVEN }] });
    // 0.5 × P30_ODD = 61728394506172839450617283945.5 → the even neighbour …946
    expect(rateSku(odd, '0.5').amount_nanos).toBe(61_728_394_506_172_839_450_617_283_946n);
    // P30_ODD + 0.5 × P30_EVEN = 123456789012345678901234567891 + 493827160549382716054938271605
    expect(rateSku(odd, '1.5').amount_nanos).toBe(617_283_949_561_728_394_956_172_839_496n);
  });

  it('rounds the line once, not tier by tier', () => {
    // 1.5 raw units: per-tier HalfEven would give 1 + round(0.5) = 1; the line rounds 1.5 → 2.
    const tiny = sku({ pricing_model: 'Graduated', tiers: [{ up_to: 1n, unit_amount_nanos: 1n }, { up_to: null, unit_amount_nanos: 1n }] });
    const line = rateSku(tiny, '1.5');
    expect(line.amount_nanos).toBe(2n);
    expect(line.tiers.map((t) => t.amount_nanos)).toEqual([1n, 1n]);
  });
});

describe('Volume', () => {
  const volume = sku({ pricing_model: 'Volume', tiers: TIERS });
  it.each([
    ['0', 0n],
    ['1', 10_000_000_000n],
    ['1000', 10_000_000_000_000n], // boundary: tier 0 price
    ['1001', 10_005_000_000_000n], // 1001 × 0.005 + 5.00
    ['10000', 55_000_000_000_000n], // 10000 × 0.005 + 5
    ['10001', 10_001_000_000_000n], // 10001 × 0.001
    ['1000.5', 10_002_500_000_000n], // 1000.5 × 0.005 + 5
  ])('%s units', (q, amount) => {
    const line = rateSku(volume, q);
    expect(line.amount_nanos).toBe(amount);
    checkInvariants(line);
  });

  it.each([
    ['1000000000000000', 1_000_000_000_000_000_000_000_000n], // 10^15 × 0.001 = 10^12 currency units
    ['12345678901234567890.5', 12_345_678_901_234_567_890_500_000_000n], // × 0.001 = 12345678901234567.8905
  ])('huge quantity %s falls into the last tier', (q, amount) => {
    const line = rateSku(volume, q);
    expect(line.amount_nanos).toBe(amount);
    expect(line.tiers.map((t) => t.tier)).toEqual([2]);
  });

  it.each([
    ['1.5', 185_185_183_518_518_518_351_851_851_835n], // 1.5 × P30 = P30 + P30/2
    ['10', 1_234_567_890_123_456_789_012_345_678_900n], // boundary: 10 × P30
    ['10.5', 1_296_296_284_629_629_628_462_962_962_856n], // 10.5 × P30_ODD = …855.5 → even …856
    ['11', 1_358_024_679_135_802_467_913_580_246_801n], // 11 × P30_ODD
  ])('%s units at 30-digit tier prices', (q, amount) => {
    const line = rateSku(sku({ pricing_model: 'Volume', tiers: [{ up_to: 10n, unit_amount_nanos: P30 }, { up_to: null, unit_amount_nanos: P30_ODD }] }), q);
    expect(line.amount_nanos).toBe(amount);
    checkInvariants(line);
  });

  it('records the single tier applied', () => {
    expect(rateSku(volume, '1001').tiers).toEqual([
      { tier: 1, from: 1000n, up_to: 10000n, quantity: '1001', unit_amount_nanos: 5_000_000_000n, flat_amount_nanos: 5n * U, amount_nanos: 10_005_000_000_000n },
    ]);
  });

  it('has the documented volume cliff when a higher tier is cheaper', () => {
    const cliff = sku({ pricing_model: 'Volume', tiers: [{ up_to: 100n, unit_amount_nanos: U }, { up_to: null, unit_amount_nanos: U / 2n }] });
    expect(rateSku(cliff, '100').amount_nanos).toBe(100n * U);
    expect(rateSku(cliff, '101').amount_nanos).toBe(50_500_000_000_000n);
  });
});

describe('Package', () => {
  const up = sku({ pricing_model: 'Package', unit_amount_nanos: 5n * U, package_size: 100n });
  const down = { ...up, package_rounding: 'Down' as const };
  it.each([
    [up, '0', 0n, 0n],
    [up, '1', 1n, 5n * U],
    [up, '100', 1n, 5n * U],
    [up, '101', 2n, 10n * U],
    [up, '100.5', 2n, 10n * U],
    [up, '1000000000000000', 10_000_000_000_000n, 50_000_000_000_000_000_000_000_000n],
    [down, '99', 0n, 0n],
    [down, '199', 1n, 5n * U],
    [down, '200', 2n, 10n * U],
    [down, '200.9', 2n, 10n * U],
  ])('%#: %s units', (sheet, q, packages, amount) => {
    const line = rateSku(sheet, q);
    expect(line.package?.packages).toBe(packages);
    expect(line.amount_nanos).toBe(amount);
  });

  it.each([
    ['Up', '100', 1n, P30],
    ['Up', '101', 2n, 246_913_578_024_691_357_802_469_135_780n], // a partial bundle is a whole one: 2 × P30
    ['Down', '199', 1n, P30],
    ['Up', '250.5', 3n, 370_370_367_037_037_036_703_703_703_670n], // 3 × P30
  ] as const)('30-digit bundle price, rounding %s: %s units', (rounding, q, packages, amount) => {
    const line = rateSku(sku({ pricing_model: 'Package', unit_amount_nanos: P30, package_size: 100n, package_rounding: rounding }), q);
    expect([line.package?.packages, line.amount_nanos]).toEqual([packages, amount]);
  });
});

describe('Committed', () => {
  // 1,000.00 commit buys usage at 2.00/unit (500 units); overage at 2.50/unit.
  const commit = sku({ pricing_model: 'Committed', unit_amount_nanos: 2n * U, commit_amount_nanos: 1000n * U, overage_unit_amount_nanos: 2_500_000_000_000n });
  it.each([
    ['0', 1_000_000_000_000_000n],
    ['500', 1_000_000_000_000_000n],
    ['501', 1_002_500_000_000_000n],
    ['600', 1_250_000_000_000_000n],
    ['500.5', 1_001_250_000_000_000n],
  ])('%s units', (q, amount) => {
    expect(rateSku(commit, q).amount_nanos).toBe(amount);
  });

  it.each([
    // (10^15 − 500) × 2.50 + 1000.00 = 2,499,999,999,999,750 currency units
    ['1000000000000000', 2_499_999_999_999_750_000_000_000_000n],
    // plus 10^-6 unit of overage at 2.50 = 2.5·10^-6 currency units = 2,500,000 raw units
    ['1000000000000000.000001', 2_499_999_999_999_750_000_002_500_000n],
  ])('huge quantity %s', (q, amount) => {
    expect(rateSku(commit, q).amount_nanos).toBe(amount);
  });

  it('handles a 30-digit commit and a 30-digit overage price exactly', () => {
    // Commit P30 at 1.00/unit covers 123456789012345678.90123456789 units; 123456789012345679 units exceed it by
    // 0.09876543211 units (98765432110 raw units of usage), billed at 2.00: P30 + 197530864220.
    const bigCommit = sku({ pricing_model: 'Committed', unit_amount_nanos: U, commit_amount_nanos: P30, overage_unit_amount_nanos: 2n * U });
    expect(rateSku(bigCommit, '123456789012345678').amount_nanos).toBe(P30);
    expect(rateSku(bigCommit, '123456789012345679').amount_nanos).toBe(123_456_789_012_345_679_098_765_432_110n);
    // Commit 1000.00 at 1.00/unit; the 1001st unit costs P30: 10^15 + P30.
    const bigOverage = sku({ pricing_model: 'Committed', unit_amount_nanos: U, commit_amount_nanos: 1000n * U, overage_unit_amount_nanos: P30 });
    expect(rateSku(bigOverage, '1001').amount_nanos).toBe(123_456_789_012_346_678_901_234_567_890n);
  });

  it('explains the commitment', () => {
    expect(rateSku(commit, '600').commitment).toEqual({
      commit_amount_nanos: 1000n * U,
      usage_value_nanos: 1200n * U,
      excess_usage_value_nanos: 200n * U,
      overage_unit_amount_nanos: 2_500_000_000_000n,
      overage_amount_nanos: 250n * U,
    });
  });

  it('is exact when the commit does not divide by the unit price', () => {
    // commit 1000 at 3.00/unit covers 333.33… units; 334 units exceed it by 2.00 of usage = 2/3 unit.
    const odd = { ...commit, unit_amount_nanos: 3n * U, overage_unit_amount_nanos: 4n * U };
    const line = rateSku(odd, '334');
    expect(line.commitment?.excess_usage_value_nanos).toBe(2n * U);
    expect(line.commitment?.overage_amount_nanos).toBe(2_666_666_666_667n); // 8/3 → HalfEven
    expect(line.amount_nanos).toBe(1_002_666_666_666_667n);
  });
});

describe('validateTiers / validateSku', () => {
  const codes = (problems: { code: string }[]): string[] => problems.map((p) => p.code);
  it('accepts a well-formed sheet', () => {
    expect(validateTiers('Graduated', TIERS)).toEqual([]);
    expect(validateSku(sku({ pricing_model: 'Volume', tiers: TIERS }))).toEqual([]);
  });
  it.each([
    ['Graduated', undefined, ['tiers_required']],
    ['Volume', [], ['tiers_required']],
    ['Graduated', [{ up_to: 10n, unit_amount_nanos: 1n }], ['last_tier_must_be_unbounded']],
    ['Graduated', [{ up_to: null, unit_amount_nanos: 1n }, { up_to: 10n, unit_amount_nanos: 1n }], ['unbounded_tier_not_last', 'last_tier_must_be_unbounded']],
    ['Graduated', [{ up_to: 10n, unit_amount_nanos: 1n }, { up_to: 5n, unit_amount_nanos: 1n }, { up_to: null, unit_amount_nanos: 1n }], ['tier_bounds_not_increasing']],
    ['Graduated', [{ up_to: 10n, unit_amount_nanos: 1n }, { up_to: 10n, unit_amount_nanos: 1n }, { up_to: null, unit_amount_nanos: 1n }], ['tier_bounds_not_increasing']],
    ['Volume', [{ up_to: 0n, unit_amount_nanos: 1n }, { up_to: null, unit_amount_nanos: 1n }], ['tier_bound_not_positive']],
    ['Volume', [{ up_to: null, unit_amount_nanos: -1n }], ['negative_price']],
    ['Volume', [{ up_to: null, unit_amount_nanos: 1n, flat_amount_nanos: -1n }], ['negative_price']],
    ['PerUnit', [{ up_to: null, unit_amount_nanos: 1n }], ['tiers_not_allowed']],
  ] as const)('%s %o', (model, tiers, expected) => {
    expect(codes(validateTiers(model, tiers as Tier[] | undefined))).toEqual(expected);
  });

  it.each([
    [{ pricing_model: 'Package', unit_amount_nanos: U }, ['invalid_package_size']],
    [{ pricing_model: 'Package', unit_amount_nanos: U, package_size: 0n }, ['invalid_package_size']],
    [{ pricing_model: 'Committed', unit_amount_nanos: U, overage_unit_amount_nanos: U }, ['commit_required']],
    [{ pricing_model: 'Committed', unit_amount_nanos: U, commit_amount_nanos: U }, ['overage_required']],
    [{ pricing_model: 'Committed', unit_amount_nanos: 0n, commit_amount_nanos: U, overage_unit_amount_nanos: U }, ['unit_amount_required']],
    [{ pricing_model: 'PerUnit', unit_amount_nanos: U, currency: 'ABC' }, ['invalid_currency']],
    [{ pricing_model: 'Package', unit_amount_nanos: -U, package_size: 10n }, ['negative_price']],
    [{ pricing_model: 'PerUnit', unit_amount_nanos: 10n ** 38n }, ['invalid_money']],
    [{ pricing_model: 'Hourly' as never, unit_amount_nanos: U }, ['invalid_pricing_model']],
  ] as const)('%o', (overrides, expected) => {
    expect(codes(validateSku(sku(overrides as Partial<SkuPrice> & Pick<SkuPrice, 'pricing_model'>)))).toEqual(expected);
  });

  it('makes rateSku refuse an invalid SKU with every problem listed', () => {
    try {
      rateSku(sku({ pricing_model: 'Graduated', currency: 'usd' }), '1');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CoreValidationError);
      expect((error as CoreValidationError).problems.map((p) => p.code)).toEqual(['invalid_currency', 'tiers_required']);
    }
  });

  it('refuses negative and malformed quantities', () => {
    const perUnit = sku({ pricing_model: 'PerUnit', unit_amount_nanos: U });
    expect(errorCode(() => rateSku(perUnit, '-1'))).toBe('negative_quantity');
    expect(errorCode(() => rateSku(perUnit, '1e3'))).toBe('invalid_quantity');
    expect(errorCode(() => rateSku(perUnit, 'NaN'))).toBe('invalid_quantity');
  });
});

describe('adjustments', () => {
  const perUnit = sku({ pricing_model: 'PerUnit', unit_amount_nanos: U, tags: ['ai'] }); // 100 units → 100.00
  const rate = (options: RateOptions, target: SkuPrice = perUnit, q = '100'): RatedLine => {
    const line = rateSku(target, q, options);
    checkInvariants(line);
    return line;
  };

  it('applies a contract discount in basis points', () => {
    const line = rate({ discount_bps: 1000 });
    expect([line.subtotal_nanos, line.discount_nanos, line.amount_nanos]).toEqual([100n * U, 10n * U, 90n * U]);
    expect(line.adjustments).toEqual([{ kind: 'ContractDiscount', basis_points: 1000, amount_nanos: -10n * U, description: 'contract discount 10%' }]);
    expect(rate({ discount_bps: 10000 }).amount_nanos).toBe(0n);
  });

  it('never discounts a credit or makes a charge negative', () => {
    const credit = sku({ pricing_model: 'Flat', unit_amount_nanos: -10n * U });
    expect(rate({ discount_bps: 5000 }, credit).amount_nanos).toBe(-10n * U);
    // 3 raw units at 50% off: the amount rounds once (1.5 → 2), the discount is the exact rest.
    const line = rate({ discount_bps: 5000 }, sku({ pricing_model: 'PerUnit', unit_amount_nanos: 3n }), '1');
    expect([line.amount_nanos, line.discount_nanos]).toEqual([2n, 1n]);
  });

  it('applies the first matching rate override only', () => {
    const line = rate({ rate_overrides: [{ product_tag: 'storage', multiplier_bps: 5000 }, { product_tag: 'ai', multiplier_bps: 8000 }, { product_tag: 'ai', multiplier_bps: 1 }] });
    expect(line.amount_nanos).toBe(80n * U);
    expect(line.adjustments).toEqual([{ kind: 'RateOverride', basis_points: 8000, amount_nanos: -20n * U, description: "rate override 80% for tag 'ai'" }]);
    expect(rate({ rate_overrides: [{ product_tag: 'storage', multiplier_bps: 5000 }] }).amount_nanos).toBe(100n * U);
  });

  it('escalates by compounding percent', () => {
    const line = rate({ escalation: { kind: 'Percent', basis_points: 500 }, periods_elapsed: 2 });
    expect(line.amount_nanos).toBe(110_250_000_000_000n); // 100 × 1.05²
    expect(line.adjustments[0]).toMatchObject({ kind: 'Escalation', basis_points: 500, amount_nanos: 10_250_000_000_000n });
    expect(rate({ escalation: { kind: 'Percent', basis_points: 500 }, periods_elapsed: 0 }).adjustments).toEqual([]);
  });

  it('applies a fixed escalation to recurring fees only', () => {
    const fixed: RateOptions = { escalation: { kind: 'Fixed', amount_nanos: U }, periods_elapsed: 3 };
    expect(rate(fixed).amount_nanos).toBe(100n * U);
    expect(rate(fixed, sku({ pricing_model: 'Flat', unit_amount_nanos: 50n * U })).amount_nanos).toBe(53n * U);
  });

  it('chains escalation → rate override → discount', () => {
    const line = rate({
      escalation: { kind: 'Percent', basis_points: 1000 },
      periods_elapsed: 1,
      rate_overrides: [{ product_tag: 'ai', multiplier_bps: 8000 }],
      discount_bps: 2500,
    });
    // 100 → 110 → 88 → 66
    expect(line.adjustments.map((a) => [a.kind, a.amount_nanos])).toEqual([
      ['Escalation', 10n * U],
      ['RateOverride', -22n * U],
      ['ContractDiscount', -22n * U],
    ]);
    expect([line.list_amount_nanos, line.subtotal_nanos, line.amount_nanos]).toEqual([100n * U, 88n * U, 66n * U]);
  });

  it('prorates recurring fees by days and leaves usage alone', () => {
    const flat = sku({ pricing_model: 'Flat', unit_amount_nanos: 100n * U });
    const line = rate({ proration: { days_used: 10, days_in_period: 31 } }, flat);
    expect(line.amount_nanos).toBe(32_258_064_516_129n); // 100 × 10/31 = 32.258064516129032…
    expect(line.adjustments).toEqual([{ kind: 'Proration', amount_nanos: -67_741_935_483_871n, description: 'prorated 10 of 31 days' }]);
    expect(rate({ proration: { days_used: 10, days_in_period: 31 } }).amount_nanos).toBe(100n * U);
  });

  it('prorates a commitment together with the usage it covers', () => {
    const commit = sku({ pricing_model: 'Committed', unit_amount_nanos: 2n * U, commit_amount_nanos: 1000n * U, overage_unit_amount_nanos: 2_500_000_000_000n });
    // Half a period: commit 500.00 covers 250 units; 300 units → 50 × 2.50 overage = 625.00.
    const line = rate({ proration: { days_used: 15, days_in_period: 30 } }, commit, '300');
    expect(line.list_amount_nanos).toBe(1000n * U);
    expect(line.amount_nanos).toBe(625n * U);
  });

  it('replaces tiers with a tier override and records the saving against list', () => {
    const graduated = sku({ pricing_model: 'Graduated', tiers: TIERS });
    const line = rate({ tier_override: [{ up_to: null, unit_amount_nanos: 2_000_000_000n }] }, graduated, '1001');
    expect(line.list_amount_nanos).toBe(15_005_000_000_000n);
    expect(line.amount_nanos).toBe(2_002_000_000_000n); // 1001 × 0.002
    expect(line.adjustments).toEqual([{ kind: 'TierOverride', amount_nanos: -13_003_000_000_000n, description: 'contract tiers replace the catalog tiers' }]);
    expect(line.tiers).toHaveLength(1);
  });

  it('refuses invalid options', () => {
    expect(errorCode(() => rate({ tier_override: TIERS }))).toBe('tiers_not_allowed');
    expect(errorCode(() => rate({ tier_override: [{ up_to: 5n, unit_amount_nanos: 1n }] }, sku({ pricing_model: 'Volume', tiers: TIERS })))).toBe('last_tier_must_be_unbounded');
    expect(errorCode(() => rate({ discount_bps: 10001 }))).toBe('invalid_basis_points');
    expect(errorCode(() => rate({ discount_bps: 12.5 }))).toBe('invalid_basis_points');
    expect(errorCode(() => rate({ proration: { days_used: 31, days_in_period: 30 } }))).toBe('invalid_proration');
    expect(errorCode(() => rate({ escalation: { kind: 'Percent', basis_points: -1 }, periods_elapsed: 1 }))).toBe('invalid_basis_points');
  });
});

describe('serialization', () => {
  it('renders money as decimal strings', () => {
    const line = rateSku(sku({ pricing_model: 'Graduated', tiers: TIERS }), '1001', { discount_bps: 1000 });
    const json = serializeRatedLine(line);
    expect(json).toEqual({
      sku_id: 'sku_1',
      description: 'Test SKU',
      pricing_model: 'Graduated',
      currency: 'USD',
      quantity: '1001',
      unit_amount_nanos: '0',
      list_amount_nanos: '15005000000000',
      tiers: [
        { tier: 0, from: '0', up_to: '1000', quantity: '1000', unit_amount_nanos: '10000000000', flat_amount_nanos: '0', amount_nanos: '10000000000000' },
        { tier: 1, from: '1000', up_to: '10000', quantity: '1', unit_amount_nanos: '5000000000', flat_amount_nanos: '5000000000000', amount_nanos: '5005000000000' },
      ],
      adjustments: [{ kind: 'ContractDiscount', basis_points: 1000, amount_nanos: '-1500500000000', description: 'contract discount 10%' }],
      subtotal_nanos: '15005000000000',
      discount_nanos: '1500500000000',
      amount_nanos: '13504500000000',
    });
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it('parses a SKU from its JSON form', () => {
    const parsed = parseSkuPrice({
      sku_id: 'sku_tokens',
      name: 'Tokens',
      pricing_model: 'Graduated',
      unit_amount_nanos: '0',
      currency: 'USD',
      tiers: [
        { up_to: 1000, unit_amount_nanos: '10000000000' },
        { up_to: '10000', unit_amount_nanos: '5000000000', flat_amount_nanos: '5000000000000' },
        { up_to: null, unit_amount_nanos: '1000000000' },
      ],
    });
    expect(parsed.tiers).toEqual(TIERS);
    expect(errorCode(() => parseSkuPrice({ sku_id: 's', name: 'n', pricing_model: 'PerUnit', unit_amount_nanos: '1.5', currency: 'USD' }))).toBe('invalid_money');
    expect(errorCode(() => parseSkuPrice({ sku_id: 's', name: 'n', pricing_model: 'Package', unit_amount_nanos: '1', currency: 'USD', package_size: 1.5 }))).toBe('invalid_integer');
  });
});

describe('properties', () => {
  it('Graduated and Volume agree on single-tier sheets', () => {
    fc.assert(
      fc.property(price, fc.option(price, { nil: undefined }), quantity, (unit, flat, q) => {
        const tiers: Tier[] = [{ up_to: null, unit_amount_nanos: unit, ...(flat === undefined ? {} : { flat_amount_nanos: flat }) }];
        const graduated = rateSku(sku({ pricing_model: 'Graduated', tiers }), q);
        const volume = rateSku(sku({ pricing_model: 'Volume', tiers }), q);
        expect(graduated.amount_nanos).toBe(volume.amount_nanos);
      }),
    );
  });

  it('Graduated equals the sum of its tiers computed independently', () => {
    fc.assert(
      fc.property(tiersArb(), fc.bigInt({ min: 0n, max: 100_000n }), (tiers, q) => {
        let expected = 0n;
        let from = 0n;
        for (const tier of tiers) {
          if (q <= from) break;
          const top = tier.up_to === null || q < tier.up_to ? q : tier.up_to;
          expected += (top - from) * tier.unit_amount_nanos + (tier.flat_amount_nanos ?? 0n);
          if (tier.up_to === null) break;
          from = tier.up_to;
        }
        expect(rateSku(sku({ pricing_model: 'Graduated', tiers }), q.toString()).amount_nanos).toBe(expected);
      }),
    );
  });

  it('rating is monotone non-decreasing in quantity for every model (Volume with non-decreasing tier prices)', () => {
    fc.assert(
      fc.property(anySku, quantity, quantity, (sheet, a, delta) => {
        const b = addQuantity(a, delta);
        expect(rateSku(sheet, b).amount_nanos >= rateSku(sheet, a).amount_nanos).toBe(true);
      }),
    );
  });

  const options: fc.Arbitrary<RateOptions> = fc.record(
    {
      discount_bps: fc.integer({ min: 0, max: 10000 }),
      rate_overrides: fc.array(fc.record({ product_tag: fc.constantFrom('ai', 'api'), multiplier_bps: fc.integer({ min: 0, max: 30000 }) }), { maxLength: 2 }),
      escalation: fc.oneof(
        fc.record({ kind: fc.constant('Percent' as const), basis_points: fc.integer({ min: 0, max: 2000 }) }),
        fc.record({ kind: fc.constant('Fixed' as const), amount_nanos: price }),
      ),
      periods_elapsed: fc.integer({ min: 0, max: 5 }),
      proration: fc.integer({ min: 1, max: 366 }).chain((period) => fc.record({ days_used: fc.integer({ min: 0, max: period }), days_in_period: fc.constant(period) })),
    },
    { requiredKeys: [] },
  );

  it('discounts never make a charge negative and every line adds up', () => {
    fc.assert(
      fc.property(anySku, quantity, options, (sheet, q, opts) => {
        const line = rateSku(sheet, q, opts);
        checkInvariants(line);
        expect(line.amount_nanos >= 0n).toBe(true);
        expect(line.discount_nanos >= 0n).toBe(true);
        expect(line.amount_nanos <= line.subtotal_nanos).toBe(true);
      }),
    );
  });

  it('is deterministic: same input, deep-equal output', () => {
    fc.assert(
      fc.property(anySku, quantity, options, (sheet, q, opts) => {
        expect(rateSku(sheet, formatQuantity(q), opts)).toEqual(rateSku(sheet, q, opts));
      }),
    );
  });
});
