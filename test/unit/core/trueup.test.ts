import { describe, expect, it } from 'vitest';
import { compute_phase_true_ups, compute_true_up, CoreValidationError, type ContractTerm } from '../../../src/core/index.js';

const U = 1_000_000_000_000n;

describe('compute_true_up', () => {
  it.each([
    [100n * U, 60n * U, 40n * U, 0n],
    [100n * U, 130n * U, 0n, 30n * U],
    [100n * U, 100n * U, 0n, 0n],
    [0n, 5n, 0n, 5n],
    [123456789012345678901234567890n, 1n, 123456789012345678901234567889n, 0n],
  ])('committed %s, actual %s', (committed, actual, trueUp, overage) => {
    expect(compute_true_up(committed, actual)).toEqual({ committed_nanos: committed, actual_nanos: actual, true_up_nanos: trueUp, overage_nanos: overage });
  });

  it('refuses negative amounts', () => {
    expect(() => compute_true_up(-1n, 0n)).toThrow(CoreValidationError);
    expect(() => compute_true_up(0n, -1n)).toThrow(CoreValidationError);
  });
});

describe('compute_phase_true_ups', () => {
  const terms: ContractTerm[] = [
    { phase: 2, start_date: '2025-01-01', end_date: '2026-01-01', committed_amount_nanos: 2000n * U, description: 'Year 2' },
    { phase: 1, start_date: '2024-01-01', end_date: '2025-01-01', committed_amount_nanos: 1000n * U, description: 'Year 1' },
  ];

  it('trues up each phase against its own commitment, in phase order', () => {
    const result = compute_phase_true_ups(terms, new Map([[1, 1200n * U], [2, 1500n * U]]));
    expect(result).toEqual({
      phases: [
        { phase: 1, start_date: '2024-01-01', end_date: '2025-01-01', committed_nanos: 1000n * U, actual_nanos: 1200n * U, true_up_nanos: 0n, overage_nanos: 200n * U },
        { phase: 2, start_date: '2025-01-01', end_date: '2026-01-01', committed_nanos: 2000n * U, actual_nanos: 1500n * U, true_up_nanos: 500n * U, overage_nanos: 0n },
      ],
      total_true_up_nanos: 500n * U,
      total_overage_nanos: 200n * U,
    });
  });

  it('accepts a record and counts a phase without actuals as zero usage', () => {
    const result = compute_phase_true_ups(terms, { 1: 400n * U });
    expect(result.phases.map((p) => p.true_up_nanos)).toEqual([600n * U, 2000n * U]);
    expect(result.total_true_up_nanos).toBe(2600n * U);
  });
});
