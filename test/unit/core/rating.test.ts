import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  CoreValidationError,
  escalationPeriodsAt,
  formatQuantity,
  periodPieces,
  phaseAt,
  ratePeriodAcrossPhases,
  ratePlan,
  serializeRatedPeriod,
  serializeRatedPlan,
  type ContractPricing,
  type RatedLine,
  type RatePlanInput,
  type SkuPrice,
  ONE_UNIT as U,
} from '../../../src/core/index.js';
import { sku as anySku } from './arbitraries.js';

const SKUS: SkuPrice[] = [
  { sku_id: 'platform', name: 'Platform fee', pricing_model: 'Flat', unit_amount_nanos: 500n * U, currency: 'USD' },
  { sku_id: 'api', name: 'API calls', pricing_model: 'PerUnit', unit_amount_nanos: 100_000_000n, currency: 'USD', meter_event_type: 'api_call', tags: ['api'] },
  {
    sku_id: 'tokens',
    name: 'Tokens',
    pricing_model: 'Graduated',
    unit_amount_nanos: 0n,
    currency: 'USD',
    meter_event_type: 'tokens',
    tags: ['ai'],
    tiers: [
      { up_to: 1000n, unit_amount_nanos: 10_000_000_000n },
      { up_to: 10000n, unit_amount_nanos: 5_000_000_000n, flat_amount_nanos: 5n * U },
      { up_to: null, unit_amount_nanos: 1_000_000_000n },
    ],
  },
];

const USAGE = { api_call: '1234567', tokens: '10001', unrelated_meter: '5' };
const PERIOD = { start: '2025-03-01', end: '2025-04-01' };

const CONTRACT: ContractPricing = {
  terms: [
    { phase: 1, start_date: '2024-01-01', end_date: '2025-01-01', committed_amount_nanos: 5000n * U, description: 'Year 1', discount_bps: 1000 },
    {
      phase: 2,
      start_date: '2025-01-01',
      end_date: '2026-01-01',
      committed_amount_nanos: 8000n * U,
      description: 'Year 2',
      discount_bps: 2000,
      rate_overrides: [{ product_tag: 'ai', multiplier_bps: 8000 }],
    },
  ],
  escalation: { escalation: { kind: 'Percent', basis_points: 300 }, start_date: '2024-01-01', interval_months: 12 },
};

describe('ratePlan', () => {
  it('rates list prices when there is no contract', () => {
    const plan = ratePlan({ skus: SKUS, usage: USAGE, asOf: PERIOD.start, period: PERIOD });
    // 500 + 123.4567 + (10 + 45 + 5 + 0.001)
    expect(plan.lines.map((l) => l.amount_nanos)).toEqual([500n * U, 123_456_700_000_000n, 60_001_000_000_000n]);
    expect([plan.subtotal_nanos, plan.discount_nanos, plan.total_nanos]).toEqual([683_457_700_000_000n, 0n, 683_457_700_000_000n]);
    expect(plan.currency).toBe('USD');
    expect(plan.phase).toBeNull();
  });

  it('applies the ramp phase in force, its rate override and one escalation step', () => {
    const plan = ratePlan({ skus: SKUS, usage: USAGE, contract: CONTRACT, asOf: '2025-03-01', period: PERIOD });
    expect(plan.phase).toBe(2);
    // platform: 500 × 1.03 = 515 → −20% = 412
    // api:      123.4567 × 1.03 = 127.160401 → −20% = 101.7283208
    // tokens:   60.001 × 1.03 = 61.80103 → ×80% = 49.440824 → −20% = 39.5526592
    expect(plan.lines.map((l) => [l.subtotal_nanos, l.discount_nanos, l.amount_nanos])).toEqual([
      [515n * U, 103n * U, 412n * U],
      [127_160_401_000_000n, 25_432_080_200_000n, 101_728_320_800_000n],
      [49_440_824_000_000n, 9_888_164_800_000n, 39_552_659_200_000n],
    ]);
    expect([plan.subtotal_nanos, plan.discount_nanos, plan.total_nanos]).toEqual([691_601_225_000_000n, 138_320_245_000_000n, 553_280_980_000_000n]);
  });

  it('uses the earlier phase before the escalation date', () => {
    const plan = ratePlan({ skus: SKUS, usage: USAGE, contract: CONTRACT, asOf: '2024-06-01', period: { start: '2024-06-01', end: '2024-07-01' } });
    expect(plan.phase).toBe(1);
    // 10% off 500 + 123.4567 + 60.001; no escalation yet, no rate override in phase 1
    expect(plan.total_nanos).toBe(615_111_930_000_000n);
    expect(plan.subtotal_nanos).toBe(683_457_700_000_000n);
  });

  it('falls back to contract-level pricing outside every phase', () => {
    const contract: ContractPricing = { ...CONTRACT, discount_bps: 500, tier_overrides: [{ sku_id: 'tokens', tiers: [{ up_to: null, unit_amount_nanos: 2_000_000_000n }] }] };
    const plan = ratePlan({ skus: SKUS, usage: USAGE, contract: { ...contract, escalation: undefined }, asOf: '2027-01-01', period: PERIOD });
    expect(plan.phase).toBeNull();
    // tokens at the custom tier: 10001 × 0.002 = 20.002 → −5% = 19.0019
    expect(plan.lines[2]?.amount_nanos).toBe(19_001_900_000_000n);
    expect(plan.lines[2]?.list_amount_nanos).toBe(60_001_000_000_000n);
  });

  it('prorates recurring fees for a partial service period (leap February)', () => {
    const plan = ratePlan({
      skus: SKUS,
      usage: USAGE,
      asOf: '2024-02-01',
      period: { start: '2024-02-01', end: '2024-03-01' },
      service: { start: '2024-02-15', end: '2024-03-01' },
    });
    // 500 × 15/29 = 258.620689655172413… ; usage lines are not prorated
    expect(plan.lines.map((l) => l.amount_nanos)).toEqual([258_620_689_655_172n, 123_456_700_000_000n, 60_001_000_000_000n]);
  });

  it('treats missing meters as zero usage and accepts a Map', () => {
    const plan = ratePlan({ skus: SKUS, usage: new Map([['tokens', '1000']]), asOf: PERIOD.start, period: PERIOD });
    expect(plan.lines.map((l) => l.amount_nanos)).toEqual([500n * U, 0n, 10n * U]);
    const fromRecord = ratePlan({ skus: SKUS, usage: { tokens: '1000' }, asOf: PERIOD.start, period: PERIOD });
    expect(fromRecord).toEqual(plan);
    // Inherited property names are not meters.
    expect(ratePlan({ skus: [{ ...SKUS[1]!, meter_event_type: 'constructor' }], usage: {}, asOf: PERIOD.start, period: PERIOD }).total_nanos).toBe(0n);
  });

  it('serializes to JSON-safe strings', () => {
    const json = serializeRatedPlan(ratePlan({ skus: SKUS, usage: USAGE, contract: CONTRACT, asOf: '2025-03-01', period: PERIOD }));
    expect(json.total_nanos).toBe('553280980000000');
    expect(json.lines[0]?.amount_nanos).toBe('412000000000000');
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it('refuses inconsistent plans', () => {
    const base: RatePlanInput = { skus: SKUS, usage: USAGE, asOf: PERIOD.start, period: PERIOD };
    const code = (input: RatePlanInput): string | undefined => {
      try {
        ratePlan(input);
      } catch (error) {
        return error instanceof CoreValidationError ? error.code : 'other';
      }
      return undefined;
    };
    expect(code({ ...base, skus: [] })).toBe('no_skus');
    expect(code({ ...base, skus: [...SKUS, { ...SKUS[0]!, sku_id: 'eur', currency: 'EUR' }] })).toBe('mixed_currencies');
    expect(code({ ...base, skus: [...SKUS, SKUS[0]!] })).toBe('duplicate_sku');
    expect(code({ ...base, skus: [{ ...SKUS[1]!, meter_event_type: undefined }] })).toBe('meter_required');
    expect(code({ ...base, contract: { tier_overrides: [{ sku_id: 'nope', tiers: [] }] } })).toBe('unknown_sku');
    expect(code({ ...base, period: { start: PERIOD.end, end: PERIOD.start } })).toBe('empty_period');
    expect(code({ ...base, service: { start: '2025-02-15', end: '2025-03-10' } })).toBe('invalid_service');
    expect(code({ ...base, usage: { api_call: '12.5.1' } })).toBe('invalid_quantity');
  });

  it('is pure: the same input gives a deep-equal output (property)', () => {
    const quantity = fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.integer({ min: 0, max: 4 })).map(([c, s]) => {
      const text = c.toString().padStart(s + 1, '0');
      return s === 0 ? text : `${text.slice(0, text.length - s)}.${text.slice(text.length - s)}`;
    });
    const asOf = fc.constantFrom('2023-06-01', '2024-02-29', '2025-01-01', '2025-12-31', '2026-03-01');
    fc.assert(
      fc.property(quantity, quantity, asOf, (api, tokens, date) => {
        const input: RatePlanInput = { skus: SKUS, usage: { api_call: api, tokens }, contract: CONTRACT, asOf: date, period: { start: date, end: '2027-01-01' } };
        const first = ratePlan(input);
        expect(ratePlan(structuredClone(input))).toEqual(first);
        expect(first.total_nanos).toBe(first.lines.reduce((sum, line) => sum + line.amount_nanos, 0n));
        expect(first.subtotal_nanos - first.discount_nanos).toBe(first.total_nanos);
      }),
    );
  });
});

describe('ratePeriodAcrossPhases', () => {
  const PERIOD_APRIL = { start: '2025-04-01', end: '2025-05-01' }; // 30 days
  const RAMP: ContractPricing = {
    terms: [
      { phase: 1, start_date: '2025-01-01', end_date: '2025-04-16', committed_amount_nanos: 0n, description: 'Ramp', discount_bps: 1000 },
      {
        phase: 2,
        start_date: '2025-04-16',
        end_date: '2026-01-01',
        committed_amount_nanos: 0n,
        description: 'Full',
        discount_bps: 2000,
        rate_overrides: [{ product_tag: 'ai', multiplier_bps: 8000 }],
      },
    ],
  };

  const sum = (values: readonly bigint[]): bigint => values.reduce((a, b) => a + b, 0n);
  const checkLine = (line: RatedLine): void => {
    expect(line.amount_nanos).toBe(line.list_amount_nanos + sum(line.adjustments.map((a) => a.amount_nanos)));
    expect(line.subtotal_nanos - line.discount_nanos).toBe(line.amount_nanos);
    if (line.tiers.length > 0) {
      const override = line.adjustments.find((a) => a.kind === 'TierOverride')?.amount_nanos ?? 0n;
      expect(sum(line.tiers.map((t) => t.amount_nanos))).toBe(line.list_amount_nanos + override);
    }
  };
  const code = (fn: () => unknown): { code: string; field: string }[] => {
    try {
      fn();
    } catch (error) {
      if (error instanceof CoreValidationError) return error.problems.map(({ code: c, field }) => ({ code: c, field }));
      throw error;
    }
    return [];
  };

  it('splits a period at a ramp phase boundary: fees by days, usage by where it was consumed', () => {
    const rated = ratePeriodAcrossPhases({
      skus: SKUS,
      usage: { api_call: '1234567', tokens: '10001' },
      usage_to_date: { '2025-04-16': { api_call: '600000', tokens: '5000' } },
      contract: RAMP,
      period: PERIOD_APRIL,
    });
    expect(rated.pieces.map((p) => [p.start, p.end, p.days, p.phase, p.escalation_periods])).toEqual([
      ['2025-04-01', '2025-04-16', 15, 1, 0],
      ['2025-04-16', '2025-05-01', 15, 2, 0],
    ]);
    const [first, second] = rated.pieces;
    // Phase 1 (−10%): platform 500 × 15/30 = 250 → 225; api 600000 × 0.0001 = 60 → 54;
    // tokens to date 5000 = 10 + 4000 × 0.005 + 5 = 35 → 31.5.
    expect(first!.lines.map((l) => [l.quantity, l.subtotal_nanos, l.amount_nanos])).toEqual([
      ['1', 250n * U, 225n * U],
      ['600000', 60n * U, 54n * U],
      ['5000', 35n * U, 31_500_000_000_000n],
    ]);
    expect([first!.subtotal_nanos, first!.discount_nanos, first!.total_nanos]).toEqual([345n * U, 34_500_000_000_000n, 310_500_000_000_000n]);
    // Phase 2 (−20%, tokens at 80%): platform 250 → 200; api 634567 × 0.0001 = 63.4567 → 50.76536;
    // tokens 5001..10001 = 5000 × 0.005 + 1 × 0.001 = 25.001 (tier 1's entry fee was charged in phase 1)
    // → × 0.8 = 20.0008 → −20% = 16.00064.
    expect(second!.lines.map((l) => [l.quantity, l.subtotal_nanos, l.amount_nanos])).toEqual([
      ['1', 250n * U, 200n * U],
      ['634567', 63_456_700_000_000n, 50_765_360_000_000n],
      ['5001', 20_000_800_000_000n, 16_000_640_000_000n],
    ]);
    const tokens = second!.lines[2]!;
    expect(tokens.list_amount_nanos).toBe(25_001_000_000_000n);
    expect(tokens.tiers.map((t) => [t.tier, t.quantity, t.amount_nanos])).toEqual([
      [1, '5000', 25n * U],
      [2, '1', 1_000_000_000n],
    ]);
    expect(tokens.adjustments).toEqual([
      { kind: 'RateOverride', basis_points: 8000, amount_nanos: -5_000_200_000_000n, description: "rate override 80% for tag 'ai'" },
      { kind: 'ContractDiscount', basis_points: 2000, amount_nanos: -4_000_160_000_000n, description: 'contract discount 20%' },
    ]);
    // 310.5 + (200 + 50.76536 + 16.00064) = 577.266
    expect([rated.subtotal_nanos, rated.discount_nanos, rated.total_nanos]).toEqual([678_457_500_000_000n, 101_191_500_000_000n, 577_266_000_000_000n]);
    // Per-SKU totals: the platform fee is two half-month pieces at different discounts.
    expect(rated.lines[0]).toEqual({
      sku_id: 'platform',
      description: 'Platform fee',
      pricing_model: 'Flat',
      currency: 'USD',
      quantity: '1',
      unit_amount_nanos: 500n * U,
      list_amount_nanos: 1000n * U,
      tiers: [],
      adjustments: [
        { kind: 'Proration', amount_nanos: -500n * U, description: 'prorated 15 of 30 days' },
        { kind: 'ContractDiscount', amount_nanos: -75n * U, description: 'contract discount 10%; contract discount 20%' },
      ],
      subtotal_nanos: 500n * U,
      discount_nanos: 75n * U,
      amount_nanos: 425n * U,
    });
    expect(rated.lines.map((l) => [l.quantity, l.amount_nanos])).toEqual([
      ['1', 425n * U],
      ['1234567', 104_765_360_000_000n],
      ['10001', 47_500_640_000_000n],
    ]);
    for (const line of [...rated.lines, ...rated.pieces.flatMap((p) => p.lines)]) checkLine(line);
    const json = serializeRatedPeriod(rated);
    expect([json.total_nanos, json.pieces[1]!.lines[2]!.amount_nanos, json.pieces[0]!.phase]).toEqual(['577266000000000', '16000640000000', 1]);
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });

  it('splits at an escalation step inside the period', () => {
    const skus: SkuPrice[] = [
      { sku_id: 'platform', name: 'Platform fee', pricing_model: 'Flat', unit_amount_nanos: 300n * U, currency: 'USD' },
      SKUS[1]!,
    ];
    const contract: ContractPricing = { escalation: { escalation: { kind: 'Percent', basis_points: 1000 }, start_date: '2024-04-20', interval_months: 12 } };
    expect(periodPieces(PERIOD_APRIL, contract).map((p) => [p.start, p.days, p.escalation_periods])).toEqual([
      ['2025-04-01', 19, 0],
      ['2025-04-20', 11, 1],
    ]);
    const rated = ratePeriodAcrossPhases({
      skus,
      usage: { api_call: '250000' },
      usage_to_date: new Map([['2025-04-20', { api_call: '100000' }]]),
      contract,
      period: PERIOD_APRIL,
    });
    // 300 × 19/30 = 190 and 10.00 of calls before the step; 300 × 11/30 × 1.1 = 121 and 15.00 × 1.1 = 16.50 after.
    expect(rated.pieces.map((p) => p.lines.map((l) => l.amount_nanos))).toEqual([
      [190n * U, 10n * U],
      [121n * U, 16_500_000_000_000n],
    ]);
    expect(rated.total_nanos).toBe(337_500_000_000_000n);
  });

  it('stops escalating at the schedule end: a period crossing the contract end is escalated on its days inside only', () => {
    const skus: SkuPrice[] = [
      { sku_id: 'platform', name: 'Platform fee', pricing_model: 'Flat', unit_amount_nanos: 300n * U, currency: 'USD' },
      SKUS[1]!,
    ];
    // Two completed yearly steps by April 2025; the contract ends on 2025-04-11.
    const contract: ContractPricing = {
      escalation: { escalation: { kind: 'Percent', basis_points: 1000 }, start_date: '2023-04-01', interval_months: 12, end_date: '2025-04-11' },
    };
    expect(escalationPeriodsAt(contract.escalation!, '2025-04-10')).toBe(2);
    expect(escalationPeriodsAt(contract.escalation!, '2025-04-11')).toBe(0);
    expect(periodPieces(PERIOD_APRIL, contract).map((p) => [p.start, p.days, p.escalation_periods])).toEqual([
      ['2025-04-01', 10, 2],
      ['2025-04-11', 20, 0],
    ]);
    const rated = ratePeriodAcrossPhases({
      skus,
      usage: { api_call: '250000' },
      usage_to_date: new Map([['2025-04-11', { api_call: '100000' }]]),
      contract,
      period: PERIOD_APRIL,
    });
    // 300 × 10/30 × 1.21 = 121 and 10.00 × 1.21 = 12.10 inside; 300 × 20/30 = 200 and 15.00 at list price after.
    expect(rated.pieces.map((p) => p.lines.map((l) => l.amount_nanos))).toEqual([
      [121n * U, 12_100_000_000_000n],
      [200n * U, 15n * U],
    ]);
    // A step date on or after the end is no boundary; a period wholly after the end is one list-price piece.
    const yearly = { ...contract.escalation!, end_date: '2025-04-01' };
    expect(periodPieces({ start: '2025-03-15', end: '2025-05-15' }, { escalation: yearly }).map((p) => [p.start, p.escalation_periods])).toEqual([
      ['2025-03-15', 1],
      ['2025-04-01', 0],
    ]);
    expect(periodPieces(PERIOD_APRIL, { escalation: yearly }).map((p) => [p.start, p.escalation_periods])).toEqual([['2025-04-01', 0]]);
  });

  it('finds monthly escalation steps on a 31st anchor, and none for an interval beyond the calendar', () => {
    const monthly: ContractPricing = { escalation: { escalation: { kind: 'Fixed', amount_nanos: U }, start_date: '2024-01-31', interval_months: 1 } };
    // Steps complete on the last day of shorter months: 02-29, then 03-31.
    expect(periodPieces({ start: '2024-02-01', end: '2024-04-01' }, monthly).map((p) => [p.start, p.end, p.escalation_periods])).toEqual([
      ['2024-02-01', '2024-02-29', 0],
      ['2024-02-29', '2024-03-31', 1],
      ['2024-03-31', '2024-04-01', 2],
    ]);
    const never: ContractPricing = { escalation: { escalation: { kind: 'Percent', basis_points: 100 }, start_date: '2024-01-01', interval_months: 1_000_000_000 } };
    expect(periodPieces(PERIOD_APRIL, never)).toEqual([{ start: '2025-04-01', end: '2025-05-01', days: 30, phase: null, escalation_periods: 0 }]);
  });

  it('prorates the commit per piece and bills overage where it is consumed', () => {
    const gpu: SkuPrice = {
      sku_id: 'gpu',
      name: 'GPU hours',
      pricing_model: 'Committed',
      unit_amount_nanos: 2n * U,
      currency: 'USD',
      meter_event_type: 'gpu',
      commit_amount_nanos: 1000n * U, // covers 500 units a period
      overage_unit_amount_nanos: 2_500_000_000_000n,
    };
    const contract: ContractPricing = {
      terms: [
        { phase: 1, start_date: '2025-01-01', end_date: '2025-04-16', committed_amount_nanos: 0n, description: '' },
        { phase: 2, start_date: '2025-04-16', end_date: '2026-01-01', committed_amount_nanos: 0n, description: '', discount_bps: 5000 },
      ],
    };
    const rated = ratePeriodAcrossPhases({ skus: [gpu], usage: { gpu: '700' }, usage_to_date: { '2025-04-16': { gpu: '300' } }, contract, period: PERIOD_APRIL });
    // Piece 1: commit 1000 × 15/30 = 500; 300 units are inside the period's 500-unit coverage.
    // Piece 2: commit 500 → −50% = 250; units 301..700 pass the coverage by 200 → 200 × 2.50 = 500 → −50% = 250.
    const [first, second] = rated.pieces.map((p) => p.lines[0]!);
    expect([first!.quantity, first!.amount_nanos]).toEqual(['300', 500n * U]);
    expect([second!.quantity, second!.subtotal_nanos, second!.amount_nanos]).toEqual(['400', 1000n * U, 500n * U]);
    expect(second!.commitment).toEqual({
      commit_amount_nanos: 1000n * U,
      usage_value_nanos: 800n * U,
      excess_usage_value_nanos: 400n * U,
      overage_unit_amount_nanos: 2_500_000_000_000n,
      overage_amount_nanos: 500n * U,
    });
    expect(rated.total_nanos).toBe(1000n * U);
    for (const line of [...rated.lines, ...rated.pieces.flatMap((p) => p.lines)]) checkLine(line);
  });

  it('splits only the served part of the period, prorated over the whole period', () => {
    // Service from 04-11: pieces [04-11, 04-16) 5 days in phase 1 and [04-16, 05-01) 15 days in phase 2.
    const rated = ratePeriodAcrossPhases({
      skus: [SKUS[0]!],
      usage: {},
      contract: RAMP,
      period: PERIOD_APRIL,
      service: { start: '2025-04-11', end: '2025-05-01' },
      usage_to_date: { '2025-04-16': {} },
    });
    // 500 × 5/30 = 83.333… → −10% = 75 (exactly: 500 × 5/30 × 0.9); 500 × 15/30 = 250 → −20% = 200.
    expect(rated.pieces.map((p) => [p.start, p.days, p.total_nanos])).toEqual([
      ['2025-04-11', 5, 75n * U],
      ['2025-04-16', 15, 200n * U],
    ]);
  });

  it('asks for the usage to date at every inner boundary and nowhere else', () => {
    const input = { skus: SKUS, usage: { api_call: '1' }, contract: RAMP, period: PERIOD_APRIL };
    expect(code(() => ratePeriodAcrossPhases(input))).toEqual([{ code: 'usage_to_date_required', field: 'usage_to_date.2025-04-16' }]);
    expect(code(() => ratePeriodAcrossPhases({ ...input, usage_to_date: { '2025-04-16': {}, '2025-04-20': {} } }))).toEqual([
      { code: 'not_a_boundary', field: 'usage_to_date.2025-04-20' },
    ]);
    expect(code(() => ratePeriodAcrossPhases({ ...input, period: { start: '2025-05-01', end: '2025-06-01' }, usage_to_date: { '2025-04-16': {} } }))).toEqual([
      { code: 'not_a_boundary', field: 'usage_to_date.2025-04-16' },
    ]);
    expect(code(() => periodPieces({ start: '2025-01-01', end: '2125-01-01' }, { escalation: { escalation: { kind: 'Percent', basis_points: 1 }, start_date: '2024-01-01', interval_months: 1 } }))).toEqual([
      { code: 'too_many_pieces', field: 'period' },
    ]);
  });

  it('equals ratePlan when the period lies inside one phase (property)', () => {
    const quantity = fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 9n }), fc.integer({ min: 0, max: 4 })).map(([c, s]) => formatQuantity({ coefficient: c, scale: s }));
    const start = fc.integer({ min: 0, max: 900 }).map((n) => addDays('2024-01-01', n));
    const service = fc.option(fc.tuple(fc.integer({ min: 0, max: 27 }), fc.integer({ min: 1, max: 27 })), { nil: undefined });
    const oneSku = fc.oneof(anySku, fc.constant(SKUS[0]!));
    fc.assert(
      fc.property(fc.array(oneSku, { minLength: 1, maxLength: 3 }), quantity, start, service, (drawn, q, from, cut) => {
        const skus = drawn.map((sku, index) => ({ ...sku, sku_id: `sku_${index}`, meter_event_type: `m${index}` }));
        const period = { start: from, end: addDays(from, 28) };
        const served = cut === undefined ? undefined : { start: addDays(from, cut[0]), end: addDays(from, Math.min(28, cut[0] + cut[1])) };
        const pieces = periodPieces(period, CONTRACT, served);
        fc.pre(pieces.length === 1);
        const usage = Object.fromEntries(skus.map((_, index) => [`m${index}`, q]));
        const split = ratePeriodAcrossPhases({ skus, usage, contract: CONTRACT, period, ...(served === undefined ? {} : { service: served }) });
        const plan = ratePlan({ skus, usage, contract: CONTRACT, asOf: pieces[0]!.start, period, ...(served === undefined ? {} : { service: served }) });
        expect(split.lines).toEqual(plan.lines);
        expect(split.pieces[0]!.lines).toEqual(plan.lines);
        expect(split.total_nanos).toBe(plan.total_nanos);
      }),
    );
  });

  it('telescopes usage to the whole-period rating when the terms do not change (property)', () => {
    const usageSku = anySku.filter((sku) => sku.pricing_model !== 'Flat' && sku.pricing_model !== 'Committed');
    const twin: ContractPricing = {
      discount_bps: 700,
      terms: [
        { phase: 1, start_date: '2025-01-01', end_date: '2025-04-10', committed_amount_nanos: 0n, description: '' },
        { phase: 2, start_date: '2025-04-10', end_date: '2025-04-21', committed_amount_nanos: 0n, description: '' },
        { phase: 3, start_date: '2025-04-21', end_date: '2026-01-01', committed_amount_nanos: 0n, description: '' },
      ],
    };
    const q = fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 8n }), fc.integer({ min: 0, max: 3 })).map(([c, s]) => formatQuantity({ coefficient: c, scale: s }));
    fc.assert(
      fc.property(usageSku, q, q, q, (sku, a, b, total) => {
        const rated = ratePeriodAcrossPhases({
          skus: [sku],
          usage: { usage: total },
          usage_to_date: { '2025-04-10': { usage: a }, '2025-04-21': { usage: b } },
          contract: twin,
          period: PERIOD_APRIL,
        });
        const whole = ratePlan({ skus: [sku], usage: { usage: total }, contract: twin, asOf: PERIOD_APRIL.start, period: PERIOD_APRIL });
        expect(rated.pieces).toHaveLength(3);
        expect(rated.total_nanos).toBe(whole.total_nanos);
        expect(rated.lines[0]!.list_amount_nanos).toBe(whole.lines[0]!.list_amount_nanos);
        for (const line of [...rated.lines, ...rated.pieces.flatMap((p) => p.lines)]) checkLine(line);
      }),
    );
  });

  it('cuts pieces on which the phase and escalation steps are constant (property)', () => {
    const date = fc.integer({ min: 0, max: 1500 }).map((n) => addDays('2023-01-01', n));
    fc.assert(
      fc.property(date, fc.integer({ min: 1, max: 120 }), date, fc.integer({ min: 1, max: 14 }), date, fc.integer({ min: 1, max: 400 }), (escalationStart, interval, phaseStart, phaseMonths, from, length) => {
        const contract: ContractPricing = {
          escalation: { escalation: { kind: 'Percent', basis_points: 100 }, start_date: escalationStart, interval_months: interval },
          terms: [{ phase: 1, start_date: phaseStart, end_date: addDays(phaseStart, phaseMonths * 30), committed_amount_nanos: 0n, description: '' }],
        };
        const pieces = periodPieces({ start: from, end: addDays(from, length) }, contract);
        expect(pieces[0]!.start).toBe(from);
        expect(pieces.at(-1)!.end).toBe(addDays(from, length));
        pieces.forEach((piece, index) => {
          if (index > 0) {
            const previous = pieces[index - 1]!;
            expect(previous.end).toBe(piece.start);
            // A cut is only made where something changes.
            expect([previous.phase, previous.escalation_periods]).not.toEqual([piece.phase, piece.escalation_periods]);
          }
          for (let d = 0; d < piece.days; d += 1) {
            const day = addDays(piece.start, d);
            expect(escalationPeriodsAt(contract.escalation!, day)).toBe(piece.escalation_periods);
            expect(phaseAt(contract.terms!, day)?.phase ?? null).toBe(piece.phase);
          }
        });
      }),
      { numRuns: 200 },
    );
  });
});
