import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  cancellation_credit,
  cancellationCredit,
  CoreValidationError,
  dayNumber,
  fromDayNumber,
  prorate_days,
  prorate_overlap_credit,
  prorate_to_contract_end,
  prorateDays,
  splitByDays,
  ONE_UNIT as U,
} from '../../../src/core/index.js';

describe('prorate_days', () => {
  it.each([
    [30n * U, 15, 30, 15n * U],
    [100n * U, 1, 3, 33_333_333_333_333n], // 33.333…
    [200n * U, 1, 3, 66_666_666_666_667n], // 66.666…
    [1n, 1, 2, 0n], // 0.5 → even 0
    [3n, 1, 2, 2n], // 1.5 → even 2
    [-100n * U, 1, 3, -33_333_333_333_333n],
    [29n * U, 29, 29, 29n * U],
    [29n * U, 0, 29, 0n],
  ])('prorate_days(%s, %s, %s) = %s', (amount, used, period, expected) => {
    expect(prorate_days(amount, used, period)).toBe(expected);
  });

  it('refuses impossible day counts', () => {
    expect(() => prorateDays(U, 31, 30)).toThrow(CoreValidationError);
    expect(() => prorateDays(U, -1, 30)).toThrow(CoreValidationError);
    expect(() => prorateDays(U, 1, 0)).toThrow(CoreValidationError);
    expect(() => prorateDays(U, 1.5, 30)).toThrow(CoreValidationError);
  });
});

describe('date-based proration (leap year February 2024 has 29 days)', () => {
  it('prorates to the contract end', () => {
    expect(prorate_to_contract_end(29n * U, '2024-02-01', '2024-03-01', '2024-02-29', '2025-01-01')).toBe(U); // only the leap day
    expect(prorate_to_contract_end(290n * U, '2024-02-01', '2024-03-01', '2024-02-10', '2024-02-20')).toBe(100n * U); // 10 of 29 days
    expect(prorate_to_contract_end(29n * U, '2024-02-01', '2024-03-01', '2024-02-01', '2024-03-01')).toBe(29n * U);
    expect(prorate_to_contract_end(29n * U, '2024-02-01', '2024-03-01', '2024-02-20', '2024-02-10')).toBe(0n);
  });

  it('credits the unused part after a change; the change day belongs to the new terms', () => {
    expect(prorate_overlap_credit(29n * U, '2024-02-01', '2024-03-01', '2024-02-29')).toBe(U);
    expect(prorate_overlap_credit(29n * U, '2024-02-01', '2024-03-01', '2024-02-01')).toBe(29n * U);
    expect(prorate_overlap_credit(29n * U, '2024-02-01', '2024-03-01', '2024-03-01')).toBe(0n);
    expect(prorate_overlap_credit(28n * U, '2023-02-01', '2023-03-01', '2023-02-15')).toBe(14n * U);
  });

  it('credits after a cancellation; the cancel day counts as used', () => {
    expect(cancellation_credit(29n * U, '2024-02-01', '2024-03-01', '2024-02-28')).toBe(U); // the leap day
    expect(cancellation_credit(29n * U, '2024-02-01', '2024-03-01', '2024-02-29')).toBe(0n);
    expect(cancellation_credit(29n * U, '2024-02-01', '2024-03-01', '2024-02-01')).toBe(28n * U);
    expect(cancellation_credit(28n * U, '2023-02-01', '2023-03-01', '2023-02-14')).toBe(14n * U);
    // Thirds: the credit is the complement of the rounded charge, so they add up to 100.00.
    expect(cancellationCredit(100n * U, '2024-04-01', '2024-04-04', '2024-04-01')).toBe(66_666_666_666_667n);
    expect(cancellation_credit(366n * U, '2024-01-01', '2025-01-01', '2024-02-29')).toBe(306n * U); // 60 days used
  });

  it('refuses dates outside the period', () => {
    expect(() => cancellation_credit(U, '2024-02-01', '2024-03-01', '2024-03-01')).toThrow(CoreValidationError);
    expect(() => prorate_overlap_credit(U, '2024-02-01', '2024-03-01', '2024-01-31')).toThrow(CoreValidationError);
    expect(() => prorate_to_contract_end(U, '2024-02-01', '2024-03-01', '2024-03-02', '2025-01-01')).toThrow(CoreValidationError);
    expect(() => prorate_overlap_credit(U, '2024-03-01', '2024-03-01', '2024-03-01')).toThrow(CoreValidationError);
  });
});

describe('splitByDays', () => {
  it.each([
    [100n * U, ['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04'], [33_333_333_333_334n, 33_333_333_333_333n, 33_333_333_333_333n]],
    [29n * U, ['2024-02-01', '2024-02-15', '2024-03-01'], [14n * U, 15n * U]],
    [-10n, ['2024-02-28', '2024-02-29', '2024-03-01'], [-5n, -5n]],
  ])('splitByDays(%s, …)', (amount, boundaries, expected) => {
    expect(splitByDays(amount, boundaries)).toEqual(expected);
  });

  it('refuses unordered boundaries', () => {
    expect(() => splitByDays(U, ['2024-01-01'])).toThrow(CoreValidationError);
    expect(() => splitByDays(U, ['2024-01-02', '2024-01-02'])).toThrow(CoreValidationError);
  });
});

describe('prorated parts of a period sum to the whole (properties)', () => {
  const period = fc
    .tuple(fc.integer({ min: dayNumber('2000-01-01'), max: dayNumber('2100-01-01') }), fc.integer({ min: 1, max: 400 }))
    .map(([start, length]) => ({ start: fromDayNumber(start), end: fromDayNumber(start + length), length }));
  const amount = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n });

  it('charge for the used days + overlap credit = amount', () => {
    fc.assert(
      fc.property(period, amount, fc.nat(), (p, total, offset) => {
        const used = offset % (p.length + 1);
        const change = addDays(p.start, used);
        expect(prorateDays(total, used, p.length) + prorate_overlap_credit(total, p.start, p.end, change)).toBe(total);
      }),
    );
  });

  it('charge through the cancel day + cancellation credit = amount', () => {
    fc.assert(
      fc.property(period, amount, fc.nat(), (p, total, offset) => {
        const usedBefore = offset % p.length;
        const cancel = addDays(p.start, usedBefore);
        expect(prorateDays(total, usedBefore + 1, p.length) + cancellation_credit(total, p.start, p.end, cancel)).toBe(total);
      }),
    );
  });

  it('splitByDays parts always sum exactly and follow the day weights', () => {
    fc.assert(
      fc.property(period, amount, fc.uniqueArray(fc.nat(), { maxLength: 10 }), (p, total, cuts) => {
        const inner = [...new Set(cuts.map((c) => 1 + (c % Math.max(1, p.length - 1))))].filter((d) => d < p.length).sort((a, b) => a - b);
        const boundaries = [p.start, ...inner.map((d) => addDays(p.start, d)), p.end];
        const parts = splitByDays(total, boundaries);
        expect(parts.reduce((a, b) => a + b, 0n)).toBe(total);
        expect(parts).toHaveLength(boundaries.length - 1);
      }),
    );
  });
});
