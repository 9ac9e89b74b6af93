/**
 * The metering core: meter windows, billing periods by instant, the exact WeightedSum division,
 * decimal text, the split of a read range into raw edges and aligned rollup buckets, and which
 * reads need events the raw event retention dropped.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  billingPeriodAt,
  canonicalDecimal,
  GRANULARITIES,
  meterWindow,
  needsDroppedEvents,
  rollupSpans,
  usageRetentionProblem,
  weightedAverage,
  type Span,
} from '../../../src/core/index.js';

const ms = (iso: string) => Date.parse(iso);
const iso = (instant: number) => new Date(instant).toISOString();
const DAY_MS = 86_400_000;
const MINUTE = 60_000;

describe('meter windows', () => {
  const period = { start: ms('2026-09-01T00:00:00Z'), end: ms('2026-10-01T00:00:00Z') };
  const when = ms('2026-09-10T15:20:00Z');

  it('BillingPeriod is the period, Sliding ends at the instant, Tumbling contains it (epoch-aligned)', () => {
    expect(meterWindow({ windowType: 'BillingPeriod', windowSizeSeconds: null }, { period, atMs: when })).toEqual(period);
    const sliding = meterWindow({ windowType: 'Sliding', windowSizeSeconds: 3600 }, { period, atMs: when });
    expect([iso(sliding.start), iso(sliding.end)]).toEqual(['2026-09-10T14:20:00.000Z', '2026-09-10T15:20:00.000Z']);
    const daily = meterWindow({ windowType: 'Tumbling', windowSizeSeconds: 86_400 }, { period, atMs: when });
    expect([iso(daily.start), iso(daily.end)]).toEqual(['2026-09-10T00:00:00.000Z', '2026-09-11T00:00:00.000Z']);
  });

  it('tumbling windows tile time, before 1970 too: each instant is in exactly one, and they do not overlap', () => {
    fc.assert(
      fc.property(fc.integer({ min: 60, max: 7 * 86_400 }), fc.integer({ min: -4_000_000_000_000, max: 4_000_000_000_000 }), (size, at) => {
        const window = meterWindow({ windowType: 'Tumbling', windowSizeSeconds: size }, { period, atMs: at });
        expect(window.start).toBeLessThanOrEqual(at);
        expect(window.end).toBeGreaterThan(at);
        expect(window.end - window.start).toBe(size * 1000);
        // The epoch-aligned start, as the floating-point floor it replaced computed it.
        expect(window.start).toBe(Math.floor(at / (size * 1000)) * size * 1000);
        const next = meterWindow({ windowType: 'Tumbling', windowSizeSeconds: size }, { period, atMs: window.end });
        expect(next.start).toBe(window.end);
      }),
    );
  });
});

describe('billing period at an instant', () => {
  const subscription = { trialDays: 14, trialEndMs: ms('2024-02-14T09:00:00Z'), billingAnchorMs: ms('2024-02-14T09:00:00Z') };

  it('is the trial before it ends, then anchored periods, and undefined before the start', () => {
    expect(billingPeriodAt(subscription, 'Monthly', ms('2024-02-01T00:00:00Z'))).toEqual({ start: ms('2024-01-31T09:00:00Z'), end: subscription.trialEndMs });
    expect(billingPeriodAt(subscription, 'Monthly', ms('2024-01-31T08:59:59Z'))).toBeUndefined();
    expect(billingPeriodAt(subscription, 'Monthly', ms('2024-02-14T09:00:00Z'))).toEqual({ start: ms('2024-02-14T09:00:00Z'), end: ms('2024-03-14T09:00:00Z') });
    expect(billingPeriodAt(subscription, 'Quarterly', ms('2025-01-01T00:00:00Z'))).toEqual({ start: ms('2024-11-14T09:00:00Z'), end: ms('2025-02-14T09:00:00Z') });
  });

  it('keeps a 31st anchor through short months', () => {
    const end31 = { trialDays: 0, trialEndMs: null, billingAnchorMs: ms('2024-01-31T00:00:00Z') };
    expect(billingPeriodAt(end31, 'Monthly', ms('2024-03-15T00:00:00Z'))).toEqual({ start: ms('2024-02-29T00:00:00Z'), end: ms('2024-03-31T00:00:00Z') });
  });

  it('always returns the period containing the instant, consecutive with its neighbours', () => {
    const anchorArb = fc.integer({ min: ms('2000-01-01'), max: ms('2040-01-01') });
    fc.assert(
      fc.property(anchorArb, fc.integer({ min: 0, max: 20 * 365 * DAY_MS }), fc.constantFrom('Monthly', 'Quarterly', 'SemiAnnual', 'Annual' as const), (anchor, offset, cadence) => {
        const sub = { trialDays: 0, trialEndMs: null, billingAnchorMs: anchor };
        const period = billingPeriodAt(sub, cadence, anchor + offset)!;
        expect(period.start).toBeLessThanOrEqual(anchor + offset);
        expect(period.end).toBeGreaterThan(anchor + offset);
        expect(billingPeriodAt(sub, cadence, period.end)!.start).toBe(period.end);
      }),
    );
  });
});

describe('WeightedSum', () => {
  it('is the time-weighted average level, rounded once to 12 places', () => {
    // Level 12 before the window; +5 halfway through a 30-day window → 14.5.
    expect(weightedAverage('12', '5', String(5 * 15 * DAY_MS), 0, 30 * DAY_MS)).toBe('14.5');
    expect(weightedAverage('0', '1', '0', 0, 3)).toBe('1');
    expect(weightedAverage('0', '1', '1', 0, 3)).toBe('0.666666666667');
    expect(weightedAverage('0', '0', '0', 0, 10)).toBe('0');
    expect(weightedAverage('-2.5', '0', '0', 0, 10)).toBe('-2.5');
  });

  it('equals the level when nothing changes in the window, at any scale up to 12 places', () => {
    const decimalText = fc
      .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.stringMatching(/^[0-9]{0,12}$/))
      .map(([negative, whole, fraction]) => canonicalDecimal(`${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`));
    fc.assert(
      fc.property(decimalText, fc.integer({ min: 1, max: 10 ** 10 }), (level, length) => {
        expect(weightedAverage(level, '0', '0', 1_000, 1_000 + length)).toBe(level);
      }),
    );
  });
});

describe('decimal text', () => {
  it.each([
    ['1.500', '1.5'],
    ['2.000', '2'],
    ['-0.00', '0'],
    ['0', '0'],
    ['100', '100'],
    ['-12.340', '-12.34'],
  ])('%s is %s', (text, canonical) => {
    expect(canonicalDecimal(text)).toBe(canonical);
  });
});

describe('rollup spans', () => {
  const width = (span: Span, lowest: number) => span.to - (span.from ?? lowest);

  // Plain meters' rollups have every granularity; dimension series hours and days only.
  it.each([[GRANULARITIES], [[60, 1440]]] as const)('cover a range exactly once with raw edges under the finest bucket and aligned rollup buckets, coarsest inside (%j)', (granularities) => {
    fc.assert(
      fc.property(fc.integer({ min: -4_000_000_000_000, max: 4_000_000_000_000 }), fc.integer({ min: 1, max: 90 * DAY_MS }), (from, length) => {
        const { edges, rolled, spans } = rollupSpans({ from, to: from + length }, granularities);
        const pieces = [...edges, ...spans].sort((x, y) => x.from! - y.from!);
        let cursor = from;
        for (const piece of pieces) {
          expect(piece.from).toBe(cursor);
          cursor = piece.to;
        }
        expect(cursor).toBe(from + length);
        for (const edge of edges) expect(width(edge, from)).toBeLessThan(granularities[0]! * MINUTE);
        for (const span of spans) {
          expect(granularities).toContain(span.granularity);
          const size = span.granularity * MINUTE;
          expect([(span.from! % size) + 0, (span.to % size) + 0]).toEqual([0, 0]);
        }
        // At most two spans per finer granularity (one at each end), one of the coarsest.
        expect(spans.length).toBeLessThanOrEqual(2 * granularities.length - 1);
        if (rolled) expect(width(rolled, from)).toBe(spans.reduce((n, s) => n + width(s, from), 0));
        else expect(spans).toEqual([]);
      }),
    );
  });

  it('reads the history before a WeightedSum window from days, then hours, then 5-minute buckets, then raw events', () => {
    expect(rollupSpans({ from: null, to: ms('2026-09-10T15:22:30Z') })).toEqual({
      edges: [{ from: ms('2026-09-10T15:20:00Z'), to: ms('2026-09-10T15:22:30Z') }],
      rolled: { from: null, to: ms('2026-09-10T15:20:00Z') },
      spans: [
        { granularity: 5, from: ms('2026-09-10T15:00:00Z'), to: ms('2026-09-10T15:20:00Z') },
        { granularity: 60, from: ms('2026-09-10T00:00:00Z'), to: ms('2026-09-10T15:00:00Z') },
        { granularity: 1440, from: null, to: ms('2026-09-10T00:00:00Z') },
      ],
    });
  });

  it('reads a window inside one 5-minute bucket from raw events only', () => {
    const range = { from: ms('2026-09-10T15:21:00Z'), to: ms('2026-09-10T15:24:00Z') };
    expect(rollupSpans(range)).toEqual({ edges: [range], rolled: null, spans: [] });
  });
});

describe('raw event retention', () => {
  it('is at least the late-usage window and a day: a dropped event sent again is refused as too old', () => {
    expect(usageRetentionProblem(36, 35)).toBeNull();
    expect(usageRetentionProblem(400, 35)).toBeNull();
    expect(usageRetentionProblem(35, 35)).toMatch(/^must be at least LATE_USAGE_MAX_DAYS \+ 1 \(36 days with LATE_USAGE_MAX_DAYS=35\)/);
    expect(usageRetentionProblem(10, 60)).toMatch(/\(61 days/);
  });

  const dropped = ms('2026-02-01T00:00:00Z');
  const read = (from: string | null, to: string, source: 'edges' | 'raw' = 'edges', rolledUp = true) => ({ from: from === null ? null : ms(from), to: ms(to), source, rolledUp });

  it('answers from rollups that hold the dropped events whole: aligned windows, and anything from the drop on', () => {
    expect(needsDroppedEvents(read('2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z'), dropped)).toBe(false);
    expect(needsDroppedEvents(read('2026-01-10T00:05:00Z', '2026-01-20T13:35:00Z'), dropped)).toBe(false);
    expect(needsDroppedEvents(read('2026-02-01T00:00:00Z', '2026-02-03T00:00:07Z', 'raw', false), dropped)).toBe(false);
    // The level before a WEIGHTED_SUM window: rollups since the beginning, a raw edge after the drop.
    expect(needsDroppedEvents(read(null, '2026-02-10T00:02:00Z'), dropped)).toBe(false);
    expect(needsDroppedEvents(read('2026-01-10T00:00:00Z', '2026-01-10T00:00:00Z', 'raw', false), dropped)).toBe(false);
  });

  it('refuses raw edges, raw reads and incomplete rollups before the drop', () => {
    expect(needsDroppedEvents(read('2026-01-10T00:02:30Z', '2026-01-20T00:00:00Z'), dropped)).toBe(true);
    expect(needsDroppedEvents(read('2026-01-10T00:00:00Z', '2026-01-20T00:00:01Z'), dropped)).toBe(true);
    expect(needsDroppedEvents(read('2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z', 'raw'), dropped)).toBe(true);
    expect(needsDroppedEvents(read('2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z', 'edges', false), dropped)).toBe(true);
    expect(needsDroppedEvents(read(null, '2026-01-15T00:02:00Z'), dropped)).toBe(true);
    // Hourly series (dimension rollups): a range on 5-minute buckets still has raw partial hours.
    expect(needsDroppedEvents({ ...read('2026-01-10T00:05:00Z', '2026-01-20T00:00:00Z'), granularities: [60, 1440] }, dropped)).toBe(true);
  });

  it('never needs dropped events for a range starting at or after the drop (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 90 * DAY_MS }), fc.integer({ min: 1, max: 40 * DAY_MS }), fc.constantFrom<'edges' | 'raw'>('edges', 'raw'), fc.boolean(), (offset, length, source, rolledUp) => {
        const from = dropped + offset;
        return !needsDroppedEvents({ from, to: from + length, source, rolledUp }, dropped);
      }),
    );
  });
});
