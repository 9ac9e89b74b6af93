/**
 * Billing a meter over its windows (core/metering.ts): the span a Sliding meter bills, the Tumbling
 * windows a period meets, and the sum over them of each window's aggregate (golden table and
 * properties), as the period close and the usage summary's billable_value compute it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDecimals, billedSpan, tumblingTotal, tumblingWindows, weightedAverage, type WindowAggregation, type WindowPartial } from '../../../src/core/index.js';

const ms = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;
const DAY = 86_400_000;
const january = { start: ms('2026-01-01T00:00:00Z'), end: ms('2026-02-01T00:00:00Z') };

const partial = (index: number, fields: Partial<WindowPartial>): WindowPartial => ({
  index,
  count: '1',
  sum: null,
  max: null,
  latest: null,
  distinct: null,
  weighted: null,
  ...fields,
});
const day = (iso: string) => Math.floor(ms(iso) / DAY);

describe('billedSpan', () => {
  it('is the range for BillingPeriod and Tumbling, and the window_size ending at its end, clipped to it, for Sliding', () => {
    expect(billedSpan({ windowType: 'BillingPeriod', windowSizeSeconds: null }, january)).toEqual(january);
    expect(billedSpan({ windowType: 'Tumbling', windowSizeSeconds: 86_400 }, january)).toEqual(january);
    expect(billedSpan({ windowType: 'Sliding', windowSizeSeconds: 86_400 }, january)).toEqual({ start: ms('2026-01-31T00:00:00Z'), end: january.end });
    expect(billedSpan({ windowType: 'Sliding', windowSizeSeconds: 366 * 86_400 }, january)).toEqual(january);
  });
});

describe('tumblingWindows', () => {
  it('lists the epoch-aligned windows a range meets, the edge ones clipped', () => {
    const range = { start: ms('2026-01-10T12:00:00Z'), end: ms('2026-01-12T06:00:00Z') };
    expect(tumblingWindows(range, DAY).map((w) => [w.index, new Date(w.start).toISOString(), new Date(w.end).toISOString()])).toEqual([
      [day('2026-01-10T00:00:00Z'), '2026-01-10T12:00:00.000Z', '2026-01-11T00:00:00.000Z'],
      [day('2026-01-11T00:00:00Z'), '2026-01-11T00:00:00.000Z', '2026-01-12T00:00:00.000Z'],
      [day('2026-01-12T00:00:00Z'), '2026-01-12T00:00:00.000Z', '2026-01-12T06:00:00.000Z'],
    ]);
    expect(tumblingWindows({ start: 5, end: 5 }, DAY)).toEqual([]);
  });

  it('cover the range exactly once, in order (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 4e12 }), fc.integer({ min: 1, max: 3 * DAY }), fc.integer({ min: 60_000, max: 3 * DAY }), (start, length, size) => {
        const windows = tumblingWindows({ start, end: start + length }, size);
        expect(windows[0]!.start).toBe(start);
        expect(windows.at(-1)!.end).toBe(start + length);
        windows.forEach((w, i) => {
          expect(w.end).toBeGreaterThan(w.start);
          if (i > 0) expect(w.start).toBe(windows[i - 1]!.end);
          expect(Math.floor(w.start / size)).toBe(w.index);
        });
      }),
      { numRuns: 200 },
    );
  });
});

describe('tumblingTotal', () => {
  // Daily windows of January with events on the 10th, 11th and 31st.
  const partials = [
    partial(day('2026-01-10T00:00:00Z'), { count: '2', sum: '8', max: '5', latest: '3', distinct: '2', weighted: '0' }),
    partial(day('2026-01-11T00:00:00Z'), { count: '1', sum: '7', max: '7', latest: '7', distinct: '1', weighted: '0' }),
    partial(day('2026-01-31T00:00:00Z'), { count: '2', sum: '6', max: '4', latest: '4', distinct: '2', weighted: '0' }),
  ];
  it.each<[WindowAggregation, string]>([
    ['Sum', '21'],
    ['Count', '5'],
    ['Max', '16'],
    ['UniqueCount', '5'],
    ['LATEST', '14'],
  ])('%s sums each window\'s value: %s', (aggregation, expected) => {
    expect(tumblingTotal(aggregation, partials, january, DAY)).toBe(expected);
  });

  it('ignores windows outside the range and counts empty windows as 0', () => {
    expect(tumblingTotal('Max', [...partials, partial(day('2026-02-03T00:00:00Z'), { max: '100' })], january, DAY)).toBe('16');
    expect(tumblingTotal('Max', [], january, DAY)).toBe('0');
    expect(tumblingTotal('Max', partials, { start: january.end, end: january.end }, DAY)).toBe('0');
  });

  it('WEIGHTED_SUM carries the level across windows, empty ones included: each window adds its average level', () => {
    // Level 2 before January; +4 at 06:00 on the 10th (Σ value × ms = 4 × t).
    const t = ms('2026-01-10T06:00:00Z');
    const total = tumblingTotal('WEIGHTED_SUM', [partial(day('2026-01-10T00:00:00Z'), { sum: '4', weighted: String(4 * t) })], january, DAY, '2');
    // 9 days at 2, the 10th averages 2 + 4 × 18/24 = 5, 21 days at 6.
    expect(total).toBe(addDecimals(addDecimals('18', '5'), '126'));
    expect(total).toBe('149');
    // One window the size of the range is the range's weighted average.
    const whole = { start: 0, end: 31 * DAY };
    expect(tumblingTotal('WEIGHTED_SUM', [partial(0, { sum: '3', weighted: String(3 * 10 * HOUR) })], whole, 31 * DAY, '1')).toBe(weightedAverage('1', '3', String(3 * 10 * HOUR), 0, 31 * DAY));
  });

  it('Sum and Count over windows are the sums over the range, whatever the window size (property)', () => {
    const event = fc.record({ at: fc.integer({ min: january.start, max: january.end - 1 }), v: fc.integer({ min: 0, max: 1_000_000 }) });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), fc.integer({ min: 60, max: 10 * 86_400 }), (events, sizeSeconds) => {
        const size = sizeSeconds * 1000;
        const byWindow = new Map<number, WindowPartial>();
        for (const e of events) {
          const index = Math.floor(e.at / size);
          const p = byWindow.get(index) ?? partial(index, { count: '0', sum: '0' });
          byWindow.set(index, { ...p, count: String(Number(p.count) + 1), sum: addDecimals(p.sum!, String(e.v)) });
        }
        const windows = [...byWindow.values()];
        expect(tumblingTotal('Sum', windows, january, size)).toBe(String(events.reduce((s, e) => s + e.v, 0)));
        expect(tumblingTotal('Count', windows, january, size)).toBe(String(events.length));
      }),
      { numRuns: 200 },
    );
  });

  it('Max over windows is at least the range\'s max and at most the sum of values (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ index: fc.integer({ min: day('2026-01-01T00:00:00Z'), max: day('2026-01-31T00:00:00Z') }), max: fc.integer({ min: 0, max: 1000 }) }), { maxLength: 20 }), (rows) => {
        const unique = [...new Map(rows.map((r) => [r.index, r])).values()];
        const total = Number(tumblingTotal('Max', unique.map((r) => partial(r.index, { max: String(r.max) })), january, DAY));
        expect(total).toBeGreaterThanOrEqual(Math.max(0, ...unique.map((r) => r.max)));
        expect(total).toBe(unique.reduce((s, r) => s + r.max, 0));
      }),
      { numRuns: 200 },
    );
  });
});

describe('addDecimals', () => {
  it('adds exact decimal text of any length', () => {
    expect(addDecimals('0.1', '0.2')).toBe('0.3');
    expect(addDecimals('-1.5', '1.5')).toBe('0');
    expect(addDecimals('123456789012345678901234567890.000000000000001', '1')).toBe('123456789012345678901234567891.000000000000001');
  });
});
