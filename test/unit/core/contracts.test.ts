import { describe, expect, it } from 'vitest';
import {
  applyBasisPoints,
  applyDiscount,
  CoreValidationError,
  escalate,
  escalationPeriodsAt,
  findRateOverride,
  formatBasisPoints,
  phaseAt,
  validateTerms,
  type ContractTerm,
  ONE_UNIT as U,
} from '../../../src/core/index.js';

const TERMS: ContractTerm[] = [
  { phase: 1, start_date: '2024-01-01', end_date: '2025-01-01', committed_amount_nanos: 1000n * U, description: 'Year 1 ramp' },
  { phase: 2, start_date: '2025-01-01', end_date: '2026-01-01', committed_amount_nanos: 2000n * U, description: 'Year 2' },
];

describe('escalate', () => {
  it.each([
    [100n * U, { kind: 'Percent', basis_points: 1000 }, 2, 121n * U],
    [100n * U, { kind: 'Percent', basis_points: 300 }, 0, 100n * U],
    [100n * U, { kind: 'Percent', basis_points: 300 }, 1, 103n * U],
    [-100n * U, { kind: 'Percent', basis_points: 1000 }, 1, -110n * U],
    [1n, { kind: 'Percent', basis_points: 5000 }, 1, 2n], // 1.5 → even 2
    [3n, { kind: 'Percent', basis_points: 5000 }, 1, 4n], // 4.5 → even 4
    // 1 × 1.5² = 2.25 → 2; rounding per step would give round(1.5) = 2, then 3.
    [1n, { kind: 'Percent', basis_points: 5000 }, 2, 2n],
    [100n * U, { kind: 'Fixed', amount_nanos: 5n * U }, 3, 115n * U],
  ] as const)('escalate(%s, %o, %s) = %s', (amount, escalation, periods, expected) => {
    expect(escalate(amount, escalation, periods)).toBe(expected);
  });

  it('refuses invalid escalations', () => {
    expect(() => escalate(1n, { kind: 'Percent', basis_points: 1.5 }, 1)).toThrow(CoreValidationError);
    expect(() => escalate(1n, { kind: 'Fixed', amount_nanos: -1n }, 1)).toThrow(CoreValidationError);
    expect(() => escalate(1n, { kind: 'Percent', basis_points: 100 }, -1)).toThrow(CoreValidationError);
  });
});

describe('discounts and basis points', () => {
  it.each([
    [100n * U, 1000, 90n * U, 10n * U],
    [100n * U, 10000, 0n, 100n * U],
    [100n * U, 0, 100n * U, 0n],
    [-100n * U, 5000, -100n * U, 0n], // credits are not discounted
    [0n, 5000, 0n, 0n],
    [3n, 5000, 2n, 1n], // 1.5 → even 2; discount is the exact rest
  ])('applyDiscount(%s, %s)', (amount, bps, discounted, discount) => {
    expect(applyDiscount(amount, bps)).toEqual({ amount_nanos: discounted, discount_nanos: discount });
  });

  it('refuses discounts outside 0..10000 whole basis points', () => {
    for (const bps of [-1, 10001, 12.5, Number.NaN]) expect(() => applyDiscount(U, bps)).toThrow(CoreValidationError);
  });

  it('multiplies by basis points', () => {
    expect(applyBasisPoints(100n * U, 8000)).toBe(80n * U);
    expect(applyBasisPoints(100n * U, 12500)).toBe(125n * U);
    expect(applyBasisPoints(5n, 1000)).toBe(0n); // 0.5 → even 0
  });

  it('formats basis points without floating point', () => {
    expect(formatBasisPoints(1000)).toBe('10%');
    expect(formatBasisPoints(1250)).toBe('12.5%');
    expect(formatBasisPoints(333)).toBe('3.33%');
    expect(formatBasisPoints(5)).toBe('0.05%');
    expect(formatBasisPoints(12000)).toBe('120%');
  });
});

describe('rate overrides', () => {
  it('picks the first override whose tag the SKU carries', () => {
    const overrides = [
      { product_tag: 'api', multiplier_bps: 9000 },
      { product_tag: 'ai', multiplier_bps: 8000 },
    ];
    expect(findRateOverride(['ai', 'api'], overrides)).toEqual({ product_tag: 'api', multiplier_bps: 9000 });
    expect(findRateOverride(['ai'], overrides)).toEqual({ product_tag: 'ai', multiplier_bps: 8000 });
    expect(findRateOverride(['storage'], overrides)).toBeUndefined();
    expect(findRateOverride(undefined, overrides)).toBeUndefined();
  });
});

describe('ramp phases', () => {
  it.each([
    ['2024-01-01', 1],
    ['2024-12-31', 1],
    ['2025-01-01', 2], // end dates are exclusive
    ['2025-12-31', 2],
    ['2023-12-31', undefined],
    ['2026-01-01', undefined],
  ])('phaseAt(%s) = %s', (date, phase) => {
    expect(phaseAt(TERMS, date)?.phase).toBe(phase);
  });

  it('reports overlapping, empty and duplicate terms', () => {
    const [first, second] = TERMS as [ContractTerm, ContractTerm];
    expect(validateTerms(TERMS)).toEqual([]);
    expect(validateTerms([first, { ...second, start_date: '2024-12-31' }]).map((p) => p.code)).toEqual(['overlapping_terms']);
    expect(validateTerms([{ ...first, end_date: '2024-01-01' }]).map((p) => p.code)).toEqual(['empty_term']);
    expect(validateTerms([first, { ...second, phase: 1 }]).map((p) => p.code)).toEqual(['duplicate_phase']);
    expect(validateTerms([{ ...first, start_date: '2024-02-30' }]).map((p) => p.code)).toEqual(['invalid_date']);
    expect(validateTerms([{ ...first, committed_amount_nanos: -1n }]).map((p) => p.code)).toEqual(['invalid_money']);
    expect(() => phaseAt([first, { ...second, start_date: '2024-06-01' }], '2024-07-01')).toThrow(CoreValidationError);
  });

  it('counts escalation steps in whole intervals', () => {
    const schedule = { escalation: { kind: 'Percent', basis_points: 300 } as const, start_date: '2024-01-01', interval_months: 12 };
    expect(escalationPeriodsAt(schedule, '2023-06-01')).toBe(0);
    expect(escalationPeriodsAt(schedule, '2024-12-31')).toBe(0);
    expect(escalationPeriodsAt(schedule, '2025-01-01')).toBe(1);
    expect(escalationPeriodsAt(schedule, '2026-06-30')).toBe(2);
    expect(escalationPeriodsAt({ ...schedule, interval_months: 1 }, '2024-03-01')).toBe(2);
    expect(() => escalationPeriodsAt({ ...schedule, interval_months: 0 }, '2025-01-01')).toThrow(CoreValidationError);
  });
});
