/**
 * The pricing models real catalogs use: Package with free units, flat fees per tier (Graduated and
 * Volume), a minimum spend per SKU, and Percentage pricing. Golden tables hold hand-computed raw
 * units; fast-check properties hold the rules for any input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CoreValidationError,
  formatQuantity,
  minimumTrueUps,
  parseSkuPrice,
  percentageEventFee,
  percentageFeeQuantity,
  priceBoundProblems,
  ratePeriodAcrossPhases,
  ratePlan,
  rateSku,
  roundRational,
  serializeRatedLine,
  usageKey,
  validateSku,
  MAX_UNIT_AMOUNT,
  ONE_UNIT as U,
  type Quantity,
  type Rational,
  type SkuPrice,
  type Tier,
} from '../../../src/core/index.js';
import { price, quantity, tiersArb } from './arbitraries.js';

const CENT = U / 100n;

const sku = (overrides: Partial<SkuPrice> & Pick<SkuPrice, 'pricing_model'>): SkuPrice => ({
  sku_id: 'sku_1',
  name: 'Test SKU',
  unit_amount_nanos: 0n,
  currency: 'USD',
  meter_event_type: 'usage',
  ...overrides,
});

const codes = (s: SkuPrice): string[] => validateSku(s).map((p) => `${p.field}:${p.code}`);

describe('Package with free units', () => {
  // 1,000 free, then 5.00 per started package of 100.
  const free = (rounding: 'Up' | 'Down') =>
    sku({ pricing_model: 'Package', unit_amount_nanos: 5n * U, package_size: 100n, package_free_units: 1000n, package_rounding: rounding });

  it.each([
    // quantity, Up packages, Up amount, Down packages, Down amount
    ['0', 0n, 0n, 0n, 0n],
    ['999', 0n, 0n, 0n, 0n],
    ['1000', 0n, 0n, 0n, 0n],
    ['1000.5', 1n, 5n * U, 0n, 0n],
    ['1001', 1n, 5n * U, 0n, 0n],
    ['1100', 1n, 5n * U, 1n, 5n * U],
    ['1101', 2n, 10n * U, 1n, 5n * U],
    ['1250', 3n, 15n * U, 2n, 10n * U],
    ['10000', 90n, 450n * U, 90n, 450n * U],
  ] as const)('%s units: %d packages Up (%d raw), %d Down (%d raw)', (q, upPackages, upAmount, downPackages, downAmount) => {
    const up = rateSku(free('Up'), q);
    expect(up.package).toEqual({ package_size: 100n, package_rounding: 'Up', free_units: 1000n, packages: upPackages });
    expect(up.amount_nanos).toBe(upAmount);
    const down = rateSku(free('Down'), q);
    expect(down.package?.packages).toBe(downPackages);
    expect(down.amount_nanos).toBe(downAmount);
  });

  it('defaults to no free units and serializes them', () => {
    const line = rateSku(sku({ pricing_model: 'Package', unit_amount_nanos: 5n * U, package_size: 100n }), '150');
    expect(line.amount_nanos).toBe(10n * U);
    expect(serializeRatedLine(line).package).toEqual({ package_size: '100', package_rounding: 'Up', free_units: '0', packages: '2' });
  });

  it('refuses negative free units', () => {
    expect(codes(sku({ pricing_model: 'Package', unit_amount_nanos: 1n, package_size: 10n, package_free_units: -1n }))).toEqual([
      'package_free_units:invalid_package_free_units',
    ]);
  });

  it('is monotone non-decreasing in quantity, whatever the free units and rounding', () => {
    fc.assert(
      fc.property(
        price,
        fc.bigInt({ min: 1n, max: 1000n }),
        fc.bigInt({ min: 0n, max: 5000n }),
        fc.constantFrom<'Up' | 'Down'>('Up', 'Down'),
        quantity,
        quantity,
        (unit, size, freeUnits, rounding, a, b) => {
          const s = sku({ pricing_model: 'Package', unit_amount_nanos: unit, package_size: size, package_free_units: freeUnits, package_rounding: rounding });
          const [lo, hi] = a.coefficient * 10n ** BigInt(b.scale) <= b.coefficient * 10n ** BigInt(a.scale) ? [a, b] : [b, a];
          expect(rateSku(s, lo).amount_nanos).toBeLessThanOrEqual(rateSku(s, hi).amount_nanos);
        },
      ),
    );
  });
});

describe('flat fee per tier', () => {
  // 1.00 + 10.00 flat up to 100; 0.50 + 20.00 flat up to 1,000; 0.10 + 50.00 flat beyond.
  const TIERS: Tier[] = [
    { up_to: 100n, unit_amount_nanos: U, flat_amount_nanos: 10n * U },
    { up_to: 1000n, unit_amount_nanos: U / 2n, flat_amount_nanos: 20n * U },
    { up_to: null, unit_amount_nanos: U / 10n, flat_amount_nanos: 50n * U },
  ];

  it.each([
    ['0', 0n],
    ['1', 11n * U], // 1 × 1.00 + 10.00
    ['100', 110n * U], // 100.00 + 10.00
    ['101', 130n * U + 50n * CENT], // 110.00 + 0.50 + 20.00
    ['1000', 580n * U], // 110.00 + 900 × 0.50 + 20.00
    ['1001', 630n * U + 10n * CENT], // 580.00 + 0.10 + 50.00
    ['2500', 780n * U], // 580.00 + 1500 × 0.10 + 50.00
    ['0.5', 10n * U + 50n * CENT], // entering the first tier charges its flat fee
  ] as const)('Graduated adds the flat fee of every tier reached: %s units → %d raw', (q, amount) => {
    const line = rateSku(sku({ pricing_model: 'Graduated', tiers: TIERS }), q);
    expect(line.amount_nanos).toBe(amount);
    expect(line.tiers.reduce((total, tier) => total + tier.amount_nanos, 0n)).toBe(amount);
  });

  it('Graduated breaks each tier down (quantity, unit, flat, amount)', () => {
    const line = serializeRatedLine(rateSku(sku({ pricing_model: 'Graduated', tiers: TIERS }), '101'));
    expect(line.tiers).toEqual([
      { tier: 0, from: '0', up_to: '100', quantity: '100', unit_amount_nanos: `${U}`, flat_amount_nanos: `${10n * U}`, amount_nanos: `${110n * U}` },
      { tier: 1, from: '100', up_to: '1000', quantity: '1', unit_amount_nanos: `${U / 2n}`, flat_amount_nanos: `${20n * U}`, amount_nanos: `${20n * U + 50n * CENT}` },
    ]);
  });

  it.each([
    ['0', 0n],
    ['50', 60n * U], // 50 × 1.00 + 10.00
    ['100', 110n * U],
    ['101', 70n * U + 50n * CENT], // 101 × 0.50 + 20.00
    ['1000', 520n * U], // 1000 × 0.50 + 20.00
    ['2500', 300n * U], // 2500 × 0.10 + 50.00
  ] as const)('Volume adds the flat fee of the one tier: %s units → %d raw', (q, amount) => {
    const line = rateSku(sku({ pricing_model: 'Volume', tiers: TIERS }), q);
    expect(line.amount_nanos).toBe(amount);
    expect(line.tiers).toHaveLength(q === '0' ? 0 : 1);
  });

  it('refuses a flat fee beyond MAX_FIXED_AMOUNT (price_out_of_range)', () => {
    const problems = priceBoundProblems(sku({ pricing_model: 'Graduated', tiers: [{ up_to: null, unit_amount_nanos: 0n, flat_amount_nanos: 10n ** 30n + 1n }] }));
    expect(problems.map((p) => `${p.field}:${p.code}`)).toEqual(['tiers[0].flat_amount_nanos:price_out_of_range']);
  });

  const withoutFlat = (tiers: readonly Tier[]): Tier[] => tiers.map(({ up_to, unit_amount_nanos }) => ({ up_to, unit_amount_nanos }));

  it('Graduated and Volume with flat fees never price below the same tiers without them, by the fees reached', () => {
    fc.assert(
      fc.property(tiersArb(), quantity, (tiers, q) => {
        for (const model of ['Graduated', 'Volume'] as const) {
          const withFees = rateSku(sku({ pricing_model: model, tiers }), q);
          const bare = rateSku(sku({ pricing_model: model, tiers: withoutFlat(tiers) }), q);
          expect(withFees.amount_nanos).toBeGreaterThanOrEqual(bare.amount_nanos);
          const fees = withFees.tiers.reduce((total, tier) => total + tier.flat_amount_nanos, 0n);
          // Exactly the fees before the line's one HalfEven rounding, so within one raw unit after it.
          const gap = withFees.amount_nanos - bare.amount_nanos - fees;
          expect(gap >= -1n && gap <= 1n).toBe(true);
        }
      }),
    );
  });
});

describe('Percentage', () => {
  // 2.9% + 0.30 per event, at least 0.50 and at most 10.00.
  const CARD = sku({
    sku_id: 'card',
    pricing_model: 'Percentage',
    percentage_bps: 290,
    amount_property: 'amount',
    per_event_fee_nanos: 30n * CENT,
    per_event_minimum_nanos: 50n * CENT,
    per_event_maximum_nanos: 10n * U,
  });
  const raw = (fee: Rational | null): bigint | null => (fee === null ? null : fee.num % fee.den === 0n ? fee.num / fee.den : -1n);

  it.each([
    ['100', 3n * U + 20n * CENT], // 2.90 + 0.30
    ['100.00', 3n * U + 20n * CENT],
    ['5', 50n * CENT], // 0.145 + 0.30 = 0.445 → minimum 0.50
    ['0', 50n * CENT], // 0.30 → minimum 0.50
    ['1000', 10n * U], // 29.00 + 0.30 → maximum 10.00
    ['12.345', 658_005_000_000n], // 0.358005 + 0.30 = 0.658005
    ['344.8275862069', 10n * U], // 9.99999999999... + 0.30 → maximum
  ] as const)('one event of %s costs %d raw', (amount, fee) => {
    expect(raw(percentageEventFee(CARD, amount))).toBe(fee);
  });

  it('charges nothing for a negative amount and keeps fractions of a raw unit exact', () => {
    expect(percentageEventFee(CARD, '-1')).toBeNull();
    // 1 bps of 10^-12: 10^-4 raw units, exact.
    const tiny = percentageEventFee(sku({ pricing_model: 'Percentage', percentage_bps: 1, amount_property: 'amount' }), '0.000000000001');
    expect(tiny).not.toBeNull();
    expect((tiny as Rational).num * 10_000n).toBe((tiny as Rational).den);
  });

  it('rates the sum of the fees (as the database sums them ×10^4 in raw units) once, at 1.00 per unit', () => {
    // Events of 100, 5 and 1000: 3.20 + 0.50 + 10.00 = 13.70.
    const quantityText = percentageFeeQuantity(`${1370n * CENT * 10_000n}`);
    expect(quantityText).toBe('13.7');
    const line = rateSku(CARD, quantityText);
    expect(line.amount_nanos).toBe(13n * U + 70n * CENT);
    expect(line.unit_amount_nanos).toBe(U);
    expect(serializeRatedLine(line).percentage).toEqual({
      basis_points: 290,
      amount_property: 'amount',
      per_event_fee_nanos: `${30n * CENT}`,
      per_event_minimum_nanos: `${50n * CENT}`,
      per_event_maximum_nanos: `${10n * U}`,
    });
    // Half a raw unit rounds once, HalfEven: 0.5 → 0, 1.5 → 2.
    expect(rateSku(CARD, percentageFeeQuantity('5000')).amount_nanos).toBe(0n);
    expect(rateSku(CARD, percentageFeeQuantity('15000')).amount_nanos).toBe(2n);
  });

  it('keys its usage by sku_id (two Percentage SKUs may read one event type)', () => {
    expect(usageKey(CARD)).toBe('card');
    expect(usageKey(sku({ pricing_model: 'PerUnit', meter_event_type: 'calls' }))).toBe('calls');
    const plan = ratePlan({
      skus: [CARD, { ...CARD, sku_id: 'intl', name: 'International', percentage_bps: 100 }],
      usage: { card: '13.7', intl: '1.25' },
      asOf: '2026-01-01',
      period: { start: '2026-01-01', end: '2026-02-01' },
    });
    expect(plan.lines.map((l) => l.amount_nanos)).toEqual([13n * U + 70n * CENT, U + 25n * CENT]);
  });

  it('validates its terms', () => {
    expect(codes(sku({ pricing_model: 'Percentage' }))).toEqual(['percentage_bps:invalid_percentage', 'amount_property:amount_property_required']);
    expect(codes({ ...CARD, percentage_bps: 10_001 })).toEqual(['percentage_bps:invalid_percentage']);
    expect(codes({ ...CARD, per_event_minimum_nanos: 11n * U })).toEqual(['per_event_minimum_nanos:minimum_above_maximum']);
    expect(codes({ ...CARD, per_event_fee_nanos: -1n })).toEqual(['per_event_fee_nanos:negative_price']);
    const bounds = priceBoundProblems({ ...CARD, per_event_fee_nanos: MAX_UNIT_AMOUNT + 1n, per_event_maximum_nanos: MAX_UNIT_AMOUNT + 1n });
    expect(bounds.map((p) => `${p.field}:${p.code}`)).toEqual(['per_event_fee_nanos:price_out_of_range', 'per_event_maximum_nanos:price_out_of_range']);
  });

  it('parses from JSON', () => {
    const parsed = parseSkuPrice({
      sku_id: 'card',
      name: 'Cards',
      pricing_model: 'Percentage',
      unit_amount_nanos: '0',
      currency: 'USD',
      meter_event_type: 'payment',
      percentage_bps: 290,
      amount_property: 'amount',
      per_event_fee_nanos: `${30n * CENT}`,
      per_event_maximum_nanos: `${10n * U}`,
    });
    expect(parsed).toMatchObject({ percentage_bps: 290, amount_property: 'amount', per_event_fee_nanos: 30n * CENT, per_event_maximum_nanos: 10n * U });
    expect(parsed.per_event_minimum_nanos).toBeUndefined();
  });

  const amount: fc.Arbitrary<Quantity> = fc
    .tuple(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.integer({ min: 0, max: 12 }))
    .map(([coefficient, scale]) => ({ coefficient, scale }));
  const percentageSku = fc
    .tuple(fc.integer({ min: 0, max: 10_000 }), fc.bigInt({ min: 0n, max: MAX_UNIT_AMOUNT }), fc.option(price), fc.option(price))
    .map(([bps, fee, a, b]) => {
      const [min, max] = a !== null && b !== null && a > b ? [b, a] : [a, b];
      return sku({
        pricing_model: 'Percentage',
        percentage_bps: bps,
        amount_property: 'amount',
        per_event_fee_nanos: fee,
        ...(min === null ? {} : { per_event_minimum_nanos: min }),
        ...(max === null ? {} : { per_event_maximum_nanos: max }),
      });
    });
  const value = (r: Rational, den: bigint): bigint => (r.num * den) / r.den; // exact when den is a multiple of r.den

  it('keeps every event fee within [minimum, maximum] and monotone in the amount', () => {
    fc.assert(
      fc.property(percentageSku, amount, amount, (s, a, b) => {
        const den = 10n ** 16n;
        const fa = value(percentageEventFee(s, a) as Rational, den);
        if (s.per_event_minimum_nanos !== undefined) expect(fa).toBeGreaterThanOrEqual(s.per_event_minimum_nanos * den);
        if (s.per_event_maximum_nanos !== undefined) expect(fa).toBeLessThanOrEqual(s.per_event_maximum_nanos * den);
        const fb = value(percentageEventFee(s, b) as Rational, den);
        const aBelowB = a.coefficient * 10n ** BigInt(b.scale) <= b.coefficient * 10n ** BigInt(a.scale);
        expect(aBelowB ? fa <= fb : fb <= fa).toBe(true);
      }),
    );
  });

  it('rates the database-shaped sum to the exact sum of the event fees, rounded once', () => {
    fc.assert(
      fc.property(percentageSku, fc.array(amount, { maxLength: 20 }), (s, amounts) => {
        // What the database sums: Σ fee × 10^4 in raw units, exact (amounts have ≤ 12 decimals).
        const den = 10n ** 12n;
        const times10000 = amounts.reduce((total, a) => total + value(percentageEventFee(s, a) as Rational, den * 10_000n), 0n);
        const text = formatQuantity({ coefficient: times10000, scale: 12 });
        const line = rateSku(s, percentageFeeQuantity(text));
        expect(line.amount_nanos).toBe(roundRational({ num: times10000, den: den * 10_000n }));
      }),
    );
  });
});

describe('minimum spend', () => {
  const API = sku({ sku_id: 'api', name: 'API calls', pricing_model: 'PerUnit', unit_amount_nanos: U, meter_event_type: 'calls', minimum_amount_nanos: 100n * U });
  const PERIOD = { start: '2026-04-01', end: '2026-05-01' }; // 30 days

  it.each([
    // usage, line, true-up, total
    ['0', 0n, 100n * U, 100n * U],
    ['30', 30n * U, 70n * U, 100n * U],
    ['100', 100n * U, 0n, 100n * U],
    ['150', 150n * U, 0n, 150n * U],
  ] as const)('%s units: line %d, true-up %d, total %d', (usage, line, trueUp, total) => {
    const plan = ratePlan({ skus: [API], usage: { calls: usage }, asOf: PERIOD.start, period: PERIOD });
    expect(plan.lines[0]?.amount_nanos).toBe(line);
    expect(plan.minimums).toEqual([
      { sku_id: 'api', description: 'API calls · minimum spend', minimum_amount_nanos: 100n * U, usage_amount_nanos: line, amount_nanos: trueUp, proration: null },
    ]);
    expect(plan.total_nanos).toBe(total);
    expect(plan.subtotal_nanos).toBe(total);
  });

  it('prorates the minimum by the days served, like a Flat fee', () => {
    // 10 of 30 days: 100.00 × 10/30 = 33.333333333333 (HalfEven on the raw unit), against 30.00 of usage.
    const plan = ratePlan({ skus: [API], usage: { calls: '30' }, asOf: PERIOD.start, period: PERIOD, service: { start: '2026-04-21', end: '2026-05-01' } });
    const owed = 33_333_333_333_333n;
    expect(plan.minimums[0]).toMatchObject({ minimum_amount_nanos: owed, amount_nanos: owed - 30n * U, proration: { days_used: 10, days_in_period: 30 } });
  });

  it("judges the line after the contract's adjustments, and takes none itself", () => {
    // 10% off: 100 units bill 90.00, so the true-up is 10.00.
    const plan = ratePlan({ skus: [API], usage: { calls: '100' }, contract: { discount_bps: 1000 }, asOf: PERIOD.start, period: PERIOD });
    expect(plan.lines[0]?.amount_nanos).toBe(90n * U);
    expect(plan.minimums[0]?.amount_nanos).toBe(10n * U);
    expect(plan.total_nanos).toBe(100n * U);
  });

  it('is carried across contract pieces against the summed line', () => {
    const rated = ratePeriodAcrossPhases({
      skus: [API],
      usage: { calls: '40' },
      usage_to_date: { '2026-04-16': { calls: '10' } },
      contract: {
        terms: [
          { phase: 1, start_date: '2026-01-01', end_date: '2026-04-16', committed_amount_nanos: 0n, description: 'ramp', discount_bps: 5000 },
          { phase: 2, start_date: '2026-04-16', end_date: '2027-01-01', committed_amount_nanos: 0n, description: 'steady' },
        ],
      },
      period: PERIOD,
    });
    // 10 units at half price (5.00) + 30 at list (30.00) = 35.00; minimum 100.00 → 65.00.
    expect(rated.lines[0]?.amount_nanos).toBe(35n * U);
    expect(rated.minimums[0]?.amount_nanos).toBe(65n * U);
    expect(rated.total_nanos).toBe(100n * U);
  });

  it('belongs to usage models only', () => {
    expect(codes(sku({ pricing_model: 'Flat', minimum_amount_nanos: U }))).toEqual(['minimum_amount_nanos:minimum_not_allowed']);
    expect(codes(sku({ pricing_model: 'PerUnit', minimum_amount_nanos: -U }))).toEqual(['minimum_amount_nanos:negative_price']);
    expect(priceBoundProblems(sku({ pricing_model: 'PerUnit', minimum_amount_nanos: 10n ** 30n + 1n })).map((p) => p.code)).toEqual(['price_out_of_range']);
    expect(() => rateSku(sku({ pricing_model: 'Committed', unit_amount_nanos: U, commit_amount_nanos: U, overage_unit_amount_nanos: U, minimum_amount_nanos: U }), '1')).toThrow(
      CoreValidationError,
    );
  });

  it('always brings the total to at least the minimum, and adds nothing once usage reaches it', () => {
    fc.assert(
      fc.property(price, price, quantity, (unit, minimum, q) => {
        const s = { ...API, unit_amount_nanos: unit, minimum_amount_nanos: minimum };
        const plan = ratePlan({ skus: [s], usage: { calls: formatQuantity(q) }, asOf: PERIOD.start, period: PERIOD });
        const line = plan.lines[0]?.amount_nanos as bigint;
        expect(plan.total_nanos).toBe(line > minimum ? line : minimum);
        expect(minimumTrueUps([s], plan.lines, undefined)).toEqual(plan.minimums);
      }),
    );
  });
});
