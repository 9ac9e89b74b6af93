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

  it('refuses a negative commitment', () => {
    expect(() => compute_true_up(-1n, 0n)).toThrow(CoreValidationError);
  });

  it('counts a net-credit phase (negative actual) as zero usage: the true-up is the commitment, no more', () => {
    // committed 100.00, net −30.00 (credits exceeded usage): shortfall 100.00, not 130.00.
    expect(compute_true_up(100n * U, -30n * U)).toEqual({ committed_nanos: 100n * U, actual_nanos: -30n * U, true_up_nanos: 100n * U, overage_nanos: 0n });
    expect(compute_true_up(0n, -1n)).toEqual({ committed_nanos: 0n, actual_nanos: -1n, true_up_nanos: 0n, overage_nanos: 0n });
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

  const problems = (fn: () => unknown): { code: string; field: string }[] => {
    try {
      fn();
    } catch (error) {
      if (error instanceof CoreValidationError) return error.problems.map(({ code, field }) => ({ code, field }));
      throw error;
    }
    return [];
  };

  it('refuses duplicate phase numbers instead of counting their actuals twice', () => {
    const duplicated: ContractTerm[] = [
      { phase: 1, start_date: '2024-01-01', end_date: '2025-01-01', committed_amount_nanos: 1000n * U, description: 'Year 1' },
      { phase: 1, start_date: '2025-01-01', end_date: '2026-01-01', committed_amount_nanos: 1000n * U, description: 'Year 1 again' },
    ];
    // Unvalidated, 1500.00 of actuals would have cleared both 1000.00 commitments (overage 500.00 twice).
    expect(problems(() => compute_phase_true_ups(duplicated, { 1: 1500n * U }))).toEqual([{ code: 'duplicate_phase', field: 'terms[1].phase' }]);
  });

  it('refuses overlapping or empty terms and actuals for an unknown phase', () => {
    const overlapping: ContractTerm[] = [
      { phase: 1, start_date: '2024-01-01', end_date: '2025-02-01', committed_amount_nanos: 0n, description: '' },
      { phase: 2, start_date: '2025-01-01', end_date: '2025-01-01', committed_amount_nanos: 0n, description: '' },
    ];
    expect(problems(() => compute_phase_true_ups(overlapping, {}))).toEqual([
      { code: 'empty_term', field: 'terms[1].end_date' },
      { code: 'overlapping_terms', field: 'terms[1].start_date' },
    ]);
    expect(problems(() => compute_phase_true_ups(terms, new Map([[3, U]])))).toEqual([{ code: 'unknown_phase', field: 'actual_by_phase.3' }]);
    expect(problems(() => compute_phase_true_ups(terms, { 3: U }))).toEqual([{ code: 'unknown_phase', field: 'actual_by_phase.3' }]);
  });

  it('trues up a net-credit phase against its whole commitment', () => {
    const result = compute_phase_true_ups(terms, new Map([[1, -200n * U], [2, 2500n * U]]));
    expect(result.phases.map((p) => [p.actual_nanos, p.true_up_nanos, p.overage_nanos])).toEqual([
      [-200n * U, 1000n * U, 0n],
      [2500n * U, 0n, 500n * U],
    ]);
    expect([result.total_true_up_nanos, result.total_overage_nanos]).toEqual([1000n * U, 500n * U]);
  });
});
