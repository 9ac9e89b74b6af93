import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonthsAnchored,
  addMonthsClamped,
  compareDates,
  CoreValidationError,
  dayNumber,
  daysBetween,
  daysInMonth,
  fromDayNumber,
  isLeapYear,
  wholeMonthsBetween,
} from '../../../src/core/index.js';

describe('calendar', () => {
  it('follows the Gregorian leap-year rule', () => {
    expect(isLeapYear(2024)).toBe(true);
    expect(isLeapYear(2023)).toBe(false);
    expect(isLeapYear(1900)).toBe(false);
    expect(isLeapYear(2000)).toBe(true);
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2023, 2)).toBe(28);
    expect(daysInMonth(2024, 4)).toBe(30);
  });

  it.each([
    ['2024-02-01', '2024-03-01', 29],
    ['2023-02-01', '2023-03-01', 28],
    ['2024-01-01', '2025-01-01', 366],
    ['2023-01-01', '2024-01-01', 365],
    ['1900-01-01', '1901-01-01', 365],
    ['2000-01-01', '2001-01-01', 366],
    ['1970-01-01', '2000-01-01', 10957],
    ['2024-03-01', '2024-02-01', -29],
    ['2024-02-29', '2024-02-29', 0],
  ])('daysBetween(%s, %s) = %s', (from, to, days) => {
    expect(daysBetween(from, to)).toBe(days);
  });

  it.each([
    ['2024-02-28', 1, '2024-02-29'],
    ['2024-02-29', 1, '2024-03-01'],
    ['2023-02-28', 1, '2023-03-01'],
    ['2024-12-31', 1, '2025-01-01'],
    ['2024-03-01', -1, '2024-02-29'],
    ['2024-01-01', 366, '2025-01-01'],
  ])('addDays(%s, %s) = %s', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
  });

  it.each(['2023-02-29', '1900-02-29', '2024-13-01', '2024-00-10', '2024-04-31', '24-01-01', '2024-1-01', '2024-01-01T00:00:00Z', '0000-01-01', ''])(
    'rejects %j',
    (date) => {
      expect(() => dayNumber(date)).toThrow(CoreValidationError);
    },
  );

  it('accepts 2000-02-29 and the ends of the supported range', () => {
    expect(fromDayNumber(dayNumber('2000-02-29'))).toBe('2000-02-29');
    expect(fromDayNumber(dayNumber('0001-01-01'))).toBe('0001-01-01');
    expect(fromDayNumber(dayNumber('9999-12-31'))).toBe('9999-12-31');
    expect(() => addDays('9999-12-31', 1)).toThrow(CoreValidationError);
  });

  it.each([
    ['2024-01-31', '2024-02-29', 1], // month-end counts as a whole month
    ['2024-01-31', '2024-02-28', 0],
    ['2024-01-15', '2025-01-14', 11],
    ['2024-01-15', '2025-01-15', 12],
    ['2024-02-29', '2025-02-28', 12],
    ['2025-01-01', '2024-01-01', 0],
  ])('wholeMonthsBetween(%s, %s) = %s', (from, to, months) => {
    expect(wholeMonthsBetween(from, to)).toBe(months);
  });

  it('orders dates', () => {
    expect(compareDates('2024-02-29', '2024-03-01')).toBe(-1);
    expect(compareDates('2024-03-01', '2024-03-01')).toBe(0);
  });

  const date = fc.integer({ min: dayNumber('1900-01-01'), max: dayNumber('2200-12-31') }).map(fromDayNumber);

  it('day numbers round-trip and addDays moves by exactly n days (property)', () => {
    fc.assert(
      fc.property(date, fc.integer({ min: -5000, max: 5000 }), (d, n) => {
        expect(fromDayNumber(dayNumber(d))).toBe(d);
        expect(daysBetween(d, addDays(d, n))).toBe(n);
      }),
    );
  });

  it('consecutive day numbers are consecutive calendar days (property)', () => {
    fc.assert(
      fc.property(date, (d) => {
        const [y, m, day] = d.split('-').map((part) => Number.parseInt(part, 10)) as [number, number, number];
        const next = fromDayNumber(dayNumber(d) + 1);
        const expected =
          day < daysInMonth(y, m)
            ? `${y}-${String(m).padStart(2, '0')}-${String(day + 1).padStart(2, '0')}`
            : m < 12
              ? `${y}-${String(m + 1).padStart(2, '0')}-01`
              : `${y + 1}-01-01`;
        expect(next).toBe(expected);
      }),
    );
  });

  it.each([
    ['2024-03-31', -1, 31, '2024-02-29'],
    ['2024-02-29', 1, 31, '2024-03-31'],
    ['2023-03-31', -1, 31, '2023-02-28'],
    ['2025-01-31', -1, 31, '2024-12-31'],
    ['2024-12-31', -10, 31, '2024-02-29'],
    ['2025-01-01', -3, 1, '2024-10-01'],
    ['2024-02-29', -12, 29, '2023-02-28'],
    ['2024-02-29', 12, 29, '2025-02-28'],
    ['2024-05-15', 0, 31, '2024-05-31'],
  ])('addMonthsClamped(%s, %i, anchor %i) = %s', (from, months, anchor, expected) => {
    expect(addMonthsClamped(from, months, anchor)).toBe(expected);
  });

  it('refuses a bad anchor or a date out of range', () => {
    expect(() => addMonthsClamped('2024-01-01', 1, 0)).toThrow(CoreValidationError);
    expect(() => addMonthsClamped('2024-01-01', 1, 32)).toThrow(CoreValidationError);
    expect(() => addMonthsClamped('0001-01-31', -1, 31)).toThrow(CoreValidationError);
    expect(() => addMonthsClamped('9999-12-01', 1, 1)).toThrow(CoreValidationError);
  });

  it('steps months like periods.ts addMonthsAnchored (property)', () => {
    fc.assert(
      fc.property(date, fc.integer({ min: 0, max: 48 }), fc.integer({ min: 1, max: 31 }), (d, months, anchor) => {
        const ms = (dayNumber(d) - dayNumber('1970-01-01')) * 86_400_000;
        // Midnight instants, so the quotient is a whole number of days.
        const viaPeriods = fromDayNumber(dayNumber('1970-01-01') + addMonthsAnchored(ms, months, anchor) / 86_400_000);
        expect(addMonthsClamped(d, months, anchor)).toBe(viaPeriods);
        // Stepping back and forth again on the same anchor returns to an anchored date.
        const anchored = addMonthsClamped(d, 0, anchor);
        expect(addMonthsClamped(addMonthsClamped(anchored, -months, anchor), months, anchor)).toBe(anchored);
      }),
    );
  });
});
