import { describe, expect, it } from 'vitest';
import { coterm, COTERM_ONE_TIME_FEE_THRESHOLD_DAYS, CoreValidationError } from '../../../src/core/index.js';

const U = 1_000_000_000_000n;

describe('coterm', () => {
  it('uses the SPEC threshold of 30 days', () => {
    expect(COTERM_ONE_TIME_FEE_THRESHOLD_DAYS).toBe(30);
  });

  it('bills a one-time fee when fewer than 30 days remain', () => {
    expect(coterm('2024-12-10', '2025-01-01', 310n * U, 31)).toEqual({ kind: 'OneTimeFee', days_remaining: 22, amount_nanos: 220n * U });
    expect(coterm('2024-12-03', '2025-01-01', 300n * U, 30)).toEqual({ kind: 'OneTimeFee', days_remaining: 29, amount_nanos: 290n * U });
    expect(coterm('2024-02-10', '2024-03-01', 29n * U, 29)).toEqual({ kind: 'OneTimeFee', days_remaining: 20, amount_nanos: 20n * U }); // leap February
  });

  it('aligns to the contract end from exactly 30 days on', () => {
    expect(coterm('2024-12-02', '2025-01-01', 300n * U, 30)).toEqual({
      kind: 'Aligned',
      days_remaining: 30,
      period_start: '2024-12-02',
      period_end: '2025-01-01',
      first_period_end: '2025-01-01',
      first_period_days: 30,
      first_period_amount_nanos: 300n * U,
      full_periods_after: 0,
    });
  });

  it('prorates an annual add-on through the contract end', () => {
    expect(coterm('2024-07-01', '2025-01-01', 366n * U, 366)).toMatchObject({
      kind: 'Aligned',
      days_remaining: 184,
      first_period_end: '2025-01-01',
      first_period_amount_nanos: 184n * U,
      full_periods_after: 0,
    });
  });

  it('opens a stub period so later whole periods end on the contract end', () => {
    // 351 days = a 21-day stub + 11 periods of 30 days.
    expect(coterm('2024-01-15', '2024-12-31', 1200n * U, 30)).toEqual({
      kind: 'Aligned',
      days_remaining: 351,
      period_start: '2024-01-15',
      period_end: '2024-12-31',
      first_period_end: '2024-02-05',
      first_period_days: 21,
      first_period_amount_nanos: 840n * U,
      full_periods_after: 11,
    });
  });

  it('refuses an ended contract or an empty period', () => {
    expect(() => coterm('2025-01-01', '2025-01-01', U, 30)).toThrow(CoreValidationError);
    expect(() => coterm('2024-12-01', '2025-01-01', U, 0)).toThrow(CoreValidationError);
  });
});
