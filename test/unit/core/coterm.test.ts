import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonthsClamped,
  anchorDayOf,
  CADENCE_MONTHS,
  coterm,
  COTERM_ONE_TIME_FEE_THRESHOLD_DAYS,
  CoreValidationError,
  daysBetween,
  periodEnd,
  type BillingCadence,
} from '../../../src/core/index.js';

const U = 1_000_000_000_000n;

describe('coterm (calendar cadences)', () => {
  it('uses the SPEC threshold of 30 days', () => {
    expect(COTERM_ONE_TIME_FEE_THRESHOLD_DAYS).toBe(30);
  });

  it('bills a one-time fee when fewer than 30 days remain, prorated over the calendar month', () => {
    // December has 31 days: 22 of them at 310.00 a month = 220.00.
    expect(coterm('2024-12-10', '2025-01-01', 310n * U, 'Monthly')).toEqual({ kind: 'OneTimeFee', days_remaining: 22, amount_nanos: 220n * U });
    // 29 days left in a 31-day December: 300.00 × 29/31 = 280.645161290322580645… → …581 (HalfEven).
    expect(coterm('2024-12-03', '2025-01-01', 300n * U, 'Monthly')).toEqual({ kind: 'OneTimeFee', days_remaining: 29, amount_nanos: 280_645_161_290_323n });
    // Leap February has 29 days: 20 of them at 290.00 = 200.00; in 2023 (28 days) 19 of 28 at 280.00 = 190.00.
    expect(coterm('2024-02-10', '2024-03-01', 290n * U, 'Monthly')).toEqual({ kind: 'OneTimeFee', days_remaining: 20, amount_nanos: 200n * U });
    expect(coterm('2023-02-10', '2023-03-01', 280n * U, 'Monthly')).toEqual({ kind: 'OneTimeFee', days_remaining: 19, amount_nanos: 190n * U });
  });

  it('charges a short remainder that spans two calendar months as stub + whole month', () => {
    // 2025-01-31 → 2025-03-01 is 29 days: 1 day of January (1/31 of 310.00 = 10.00) + all of February (310.00).
    expect(coterm('2025-01-31', '2025-03-01', 310n * U, 'Monthly')).toEqual({ kind: 'OneTimeFee', days_remaining: 29, amount_nanos: 320n * U });
  });

  it('aligns from exactly 30 days on', () => {
    // 30 of December's 31 days: 310.00 × 30/31 = 300.00.
    expect(coterm('2024-12-02', '2025-01-01', 310n * U, 'Monthly')).toEqual({
      kind: 'Aligned',
      days_remaining: 30,
      period_start: '2024-12-02',
      period_end: '2025-01-01',
      anchor_day: 1,
      first_period_end: '2025-01-01',
      first_period_days: 30,
      first_period_days_in_period: 31,
      first_period_amount_nanos: 300n * U,
      full_periods_after: 0,
    });
  });

  it('opens a stub in a leap February, then whole months to the contract end', () => {
    // Periods end on the 1st: stub [02-10, 03-01) = 20 of February 2024's 29 days → 290.00 × 20/29 = 200.00,
    // then March, April, May. Days remaining 20 + 31 + 30 + 31 = 112.
    expect(coterm('2024-02-10', '2024-06-01', 290n * U, 'Monthly')).toEqual({
      kind: 'Aligned',
      days_remaining: 112,
      period_start: '2024-02-10',
      period_end: '2024-06-01',
      anchor_day: 1,
      first_period_end: '2024-03-01',
      first_period_days: 20,
      first_period_days_in_period: 29,
      first_period_amount_nanos: 200n * U,
      full_periods_after: 3,
    });
    // The same stub a year earlier is 19 of 28 days: 280.00 × 19/28 = 190.00.
    expect(coterm('2023-02-10', '2023-06-01', 280n * U, 'Monthly')).toMatchObject({ days_remaining: 111, first_period_end: '2023-03-01', first_period_days: 19, first_period_days_in_period: 28, first_period_amount_nanos: 190n * U, full_periods_after: 3 });
  });

  it('keeps a 31st anchor through short months', () => {
    // Contract ends 2024-05-31: periods end 04-30, 03-31, 02-29, 01-31. The stub [02-10, 02-29) is 19 of the
    // 29 days of [01-31, 02-29): 290.00 × 19/29 = 190.00. Remaining 19 + 31 + 30 + 31 = 111 days.
    expect(coterm('2024-02-10', '2024-05-31', 290n * U, 'Monthly')).toEqual({
      kind: 'Aligned',
      days_remaining: 111,
      period_start: '2024-02-10',
      period_end: '2024-05-31',
      anchor_day: 31,
      first_period_end: '2024-02-29',
      first_period_days: 19,
      first_period_days_in_period: 29,
      first_period_amount_nanos: 190n * U,
      full_periods_after: 3,
    });
    // Contract ends 2024-12-31: the stub [01-15, 01-31) is 16 of the 31 days of [2023-12-31, 2024-01-31):
    // 310.00 × 16/31 = 160.00, then 11 months ending 02-29, 03-31, …, 12-31. Remaining 16 + 335 = 351 days.
    expect(coterm('2024-01-15', '2024-12-31', 310n * U, 'Monthly')).toMatchObject({
      kind: 'Aligned',
      days_remaining: 351,
      anchor_day: 31,
      first_period_end: '2024-01-31',
      first_period_days: 16,
      first_period_days_in_period: 31,
      first_period_amount_nanos: 160n * U,
      full_periods_after: 11,
    });
  });

  it('rounds a non-terminating stub once, HalfEven', () => {
    // 10 of January's 31 days at 100.00: 32.258064516129032… → 32.258064516129 (raw units); then February.
    expect(coterm('2025-01-22', '2025-03-01', 100n * U, 'Monthly')).toMatchObject({
      kind: 'Aligned',
      days_remaining: 38,
      first_period_end: '2025-02-01',
      first_period_days: 10,
      first_period_days_in_period: 31,
      first_period_amount_nanos: 32_258_064_516_129n,
      full_periods_after: 1,
    });
  });

  it('makes the first period a full one when the start is on a boundary', () => {
    expect(coterm('2024-03-01', '2024-06-01', 310n * U, 'Monthly')).toMatchObject({
      kind: 'Aligned',
      days_remaining: 92,
      first_period_end: '2024-04-01',
      first_period_days: 31,
      first_period_days_in_period: 31,
      first_period_amount_nanos: 310n * U,
      full_periods_after: 2,
    });
  });

  it('steps back quarters and years', () => {
    // Quarterly to 2025-01-01: boundaries 2024-10-01, 2024-07-01 — the start is on one, two full quarters.
    expect(coterm('2024-07-01', '2025-01-01', 900n * U, 'Quarterly')).toMatchObject({ first_period_end: '2024-10-01', first_period_days: 92, first_period_days_in_period: 92, first_period_amount_nanos: 900n * U, full_periods_after: 1 });
    // Quarterly, stub in [2024-07-01, 2024-10-01) (92 days): from 08-16 that is 46 days → 920.00 × 46/92 = 460.00.
    expect(coterm('2024-08-16', '2025-01-01', 920n * U, 'Quarterly')).toMatchObject({ first_period_end: '2024-10-01', first_period_days: 46, first_period_days_in_period: 92, first_period_amount_nanos: 460n * U, full_periods_after: 1 });
    // Annual in leap 2024: 184 of 366 days at 366.00 = 184.00.
    expect(coterm('2024-07-01', '2025-01-01', 366n * U, 'Annual')).toMatchObject({ days_remaining: 184, first_period_end: '2025-01-01', first_period_days: 184, first_period_days_in_period: 366, first_period_amount_nanos: 184n * U, full_periods_after: 0 });
  });

  it('refuses an ended contract or an unknown cadence', () => {
    expect(() => coterm('2025-01-01', '2025-01-01', U, 'Monthly')).toThrow(CoreValidationError);
    expect(() => coterm('2025-01-02', '2025-01-01', U, 'Monthly')).toThrow(CoreValidationError);
    expect(() => coterm('2024-12-01', '2025-01-01', U, 'Weekly' as BillingCadence)).toThrow(CoreValidationError);
    expect(() => coterm('2024-12-01', '2025-01-01', U, 'toString' as BillingCadence)).toThrow(CoreValidationError);
  });

  it('always lands on the contract end with the subscription billing cadence (property)', () => {
    const day = fc.integer({ min: 0, max: 3 * 366 }).map((n) => addDays('2023-01-01', n));
    const cadence = fc.constantFrom<BillingCadence>('Monthly', 'Quarterly', 'SemiAnnual', 'Annual');
    fc.assert(
      fc.property(day, fc.integer({ min: 1, max: 4 * 366 }), cadence, fc.bigInt({ min: 0n, max: 10n ** 20n }), (start, length, c, amount) => {
        const end = addDays(start, length);
        const result = coterm(start, end, amount, c);
        if (length < 30) {
          expect(result.kind).toBe('OneTimeFee');
          return;
        }
        if (result.kind !== 'Aligned') throw new Error('expected Aligned');
        // The stub is at most one calendar period and never more than the full amount.
        expect(result.first_period_days).toBeGreaterThan(0);
        expect(result.first_period_days).toBeLessThanOrEqual(result.first_period_days_in_period);
        expect(result.first_period_amount_nanos <= amount).toBe(true);
        // periods.ts, anchored on anchor_day, walks from the stub end to the contract end in whole periods.
        let at = Date.parse(`${result.first_period_end}T00:00:00Z`);
        for (let i = 0; i < result.full_periods_after; i += 1) at = periodEnd(at, c, result.anchor_day);
        expect(new Date(at).toISOString().slice(0, 10)).toBe(end);
        // The stub's calendar period is one whole cadence step before its end.
        const cycleStart = addMonthsClamped(result.first_period_end, -CADENCE_MONTHS[c], result.anchor_day);
        expect(daysBetween(cycleStart, result.first_period_end)).toBe(result.first_period_days_in_period);
        expect(daysBetween(start, result.first_period_end)).toBe(result.first_period_days);
        expect(anchorDayOf(Date.parse(`${end}T00:00:00Z`))).toBe(result.anchor_day);
      }),
    );
  });
});
