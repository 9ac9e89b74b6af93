import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CoreValidationError,
  ratePlan,
  serializeRatedPlan,
  type ContractPricing,
  type RatePlanInput,
  type SkuPrice,
} from '../../../src/core/index.js';

const U = 1_000_000_000_000n;

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
