import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDaysMs, addMonthsAnchored, anchorDayOf, periodEnd } from '../../../src/core/periods.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('billing periods', () => {
  it.each([
    ['2026-01-15T10:30:00.000Z', 'Monthly', 15, '2026-02-15T10:30:00.000Z'],
    ['2026-01-31T00:00:00.000Z', 'Monthly', 31, '2026-02-28T00:00:00.000Z'],
    ['2024-01-31T00:00:00.000Z', 'Monthly', 31, '2024-02-29T00:00:00.000Z'],
    ['2024-02-29T00:00:00.000Z', 'Monthly', 31, '2024-03-31T00:00:00.000Z'],
    ['2026-11-30T23:59:59.000Z', 'Quarterly', 30, '2027-02-28T23:59:59.000Z'],
    ['2026-08-31T12:00:00.000Z', 'SemiAnnual', 31, '2027-02-28T12:00:00.000Z'],
    ['2024-02-29T00:00:00.000Z', 'Annual', 29, '2025-02-28T00:00:00.000Z'],
    ['2026-12-01T00:00:00.000Z', 'Monthly', 1, '2027-01-01T00:00:00.000Z'],
  ] as const)('period from %s (%s, anchor %i) ends %s', (start, cadence, anchor, end) => {
    expect(iso(periodEnd(at(start), cadence, anchor))).toBe(end);
  });

  it('keeps the anchor day across short months (no drift)', () => {
    let t = at('2026-01-31T08:00:00.000Z');
    const ends: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      t = periodEnd(t, 'Monthly', 31);
      ends.push(iso(t).slice(0, 10));
    }
    expect(ends).toEqual(['2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31']);
  });

  it('agrees with the platform calendar for any instant and month count', () => {
    fc.assert(
      fc.property(fc.integer({ min: at('1971-01-01T00:00:00Z'), max: at('2200-01-01T00:00:00Z') }), fc.integer({ min: 0, max: 48 }), (ms, months) => {
        const anchor = anchorDayOf(ms);
        const d = new Date(ms);
        expect(anchor).toBe(d.getUTCDate());
        const expected = new Date(ms);
        expected.setUTCDate(1);
        expected.setUTCMonth(expected.getUTCMonth() + months);
        const lastDay = new Date(Date.UTC(expected.getUTCFullYear(), expected.getUTCMonth() + 1, 0)).getUTCDate();
        expected.setUTCDate(Math.min(anchor, lastDay));
        expect(addMonthsAnchored(ms, months, anchor)).toBe(expected.getTime());
      }),
    );
  });

  it('adds whole trial days and rejects negative ones', () => {
    expect(iso(addDaysMs(at('2024-02-28T12:00:00Z'), 2))).toBe('2024-03-01T12:00:00.000Z');
    expect(() => addDaysMs(0, -1)).toThrow(/non-negative/);
  });
});
