/**
 * The pure parts of metering: window sizes and windows, billing periods by instant, the exact
 * WeightedSum division, hour alignment of rollup reads, and event validation helpers.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS, GRANULARITIES, rollupSpans, type Span } from '../../src/db/events.js';
import { isBoundedInstant } from '../../src/http/schemas.js';
import { fromCloudEvent, MAX_NUMBER_DIGITS, propertyIssues } from '../../src/services/events.js';
import { formatWindowSize, meterDefinitionIssues, normalizeProperty, parseWindowSize } from '../../src/services/meters.js';
import { billingPeriodAt, canonicalDecimal, meterWindow, weightedAverage } from '../../src/services/usage.js';

const at = (iso: string) => new Date(iso);
const iso = (d: Date) => d.toISOString();

describe('window sizes', () => {
  it.each([
    ['PT1H', 3600],
    ['PT15M', 900],
    ['P1D', 86_400],
    ['P1DT12H', 129_600],
    ['PT90M', 5400],
    ['PT45S', 45],
  ])('%s is %i seconds', (text, seconds) => {
    expect(parseWindowSize(text)).toBe(seconds);
  });

  it.each(['P', 'PT', '1H', 'P1M', 'P1Y', 'P1W', 'PT1.5H', 'pt1h', 'P1DT'])('%s is not a window size', (text) => {
    expect(parseWindowSize(text)).toBeUndefined();
  });

  it('formats canonically and parses back to the same seconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 366 * 86_400 }), (seconds) => {
        const text = formatWindowSize(seconds);
        expect(text).toMatch(/^P(\d+D)?(T(\d+H)?(\d+M)?(\d+S)?)?$/);
        expect(parseWindowSize(text)).toBe(seconds);
      }),
    );
  });
});

describe('meter windows', () => {
  const period = { start: at('2026-09-01T00:00:00Z'), end: at('2026-10-01T00:00:00Z') };
  const when = at('2026-09-10T15:20:00Z');

  it('BillingPeriod is the period, Sliding ends at the instant, Tumbling contains it (epoch-aligned)', () => {
    expect(meterWindow({ windowType: 'BillingPeriod', windowSizeSeconds: null }, { period, at: when })).toEqual(period);
    const sliding = meterWindow({ windowType: 'Sliding', windowSizeSeconds: 3600 }, { period, at: when });
    expect([iso(sliding.start), iso(sliding.end)]).toEqual(['2026-09-10T14:20:00.000Z', '2026-09-10T15:20:00.000Z']);
    const daily = meterWindow({ windowType: 'Tumbling', windowSizeSeconds: 86_400 }, { period, at: when });
    expect([iso(daily.start), iso(daily.end)]).toEqual(['2026-09-10T00:00:00.000Z', '2026-09-11T00:00:00.000Z']);
  });

  it('tumbling windows tile time: each instant is in exactly one, and they do not overlap', () => {
    fc.assert(
      fc.property(fc.integer({ min: 60, max: 7 * 86_400 }), fc.integer({ min: 0, max: 4_000_000_000_000 }), (size, ms) => {
        const window = meterWindow({ windowType: 'Tumbling', windowSizeSeconds: size }, { period, at: new Date(ms) });
        expect(window.start.getTime()).toBeLessThanOrEqual(ms);
        expect(window.end.getTime()).toBeGreaterThan(ms);
        expect(window.end.getTime() - window.start.getTime()).toBe(size * 1000);
        const next = meterWindow({ windowType: 'Tumbling', windowSizeSeconds: size }, { period, at: window.end });
        expect(next.start).toEqual(window.end);
      }),
    );
  });
});

describe('billing period at an instant', () => {
  const subscription = { trialDays: 14, trialEnd: at('2024-02-14T09:00:00Z'), billingAnchor: at('2024-02-14T09:00:00Z') };

  it('is the trial before it ends, then anchored periods, and undefined before the start', () => {
    expect(billingPeriodAt(subscription, 'Monthly', at('2024-02-01T00:00:00Z'))).toEqual({ start: at('2024-01-31T09:00:00Z'), end: subscription.trialEnd });
    expect(billingPeriodAt(subscription, 'Monthly', at('2024-01-31T08:59:59Z'))).toBeUndefined();
    expect(billingPeriodAt(subscription, 'Monthly', at('2024-02-14T09:00:00Z'))).toEqual({ start: at('2024-02-14T09:00:00Z'), end: at('2024-03-14T09:00:00Z') });
    expect(billingPeriodAt(subscription, 'Quarterly', at('2025-01-01T00:00:00Z'))).toEqual({ start: at('2024-11-14T09:00:00Z'), end: at('2025-02-14T09:00:00Z') });
  });

  it('keeps a 31st anchor through short months', () => {
    const end31 = { trialDays: 0, trialEnd: null, billingAnchor: at('2024-01-31T00:00:00Z') };
    expect(billingPeriodAt(end31, 'Monthly', at('2024-03-15T00:00:00Z'))).toEqual({ start: at('2024-02-29T00:00:00Z'), end: at('2024-03-31T00:00:00Z') });
  });

  it('always returns the period containing the instant, consecutive with its neighbours', () => {
    const anchorArb = fc.integer({ min: Date.parse('2000-01-01'), max: Date.parse('2040-01-01') });
    fc.assert(
      fc.property(anchorArb, fc.integer({ min: 0, max: 20 * 365 * 86_400_000 }), fc.constantFrom('Monthly', 'Quarterly', 'SemiAnnual', 'Annual' as const), (anchor, offset, cadence) => {
        const sub = { trialDays: 0, trialEnd: null, billingAnchor: new Date(anchor) };
        const period = billingPeriodAt(sub, cadence, new Date(anchor + offset))!;
        expect(period.start.getTime()).toBeLessThanOrEqual(anchor + offset);
        expect(period.end.getTime()).toBeGreaterThan(anchor + offset);
        expect(billingPeriodAt(sub, cadence, period.end)!.start).toEqual(period.end);
      }),
    );
  });
});

describe('WeightedSum', () => {
  const day = 86_400_000;

  it('is the time-weighted average level, rounded once to 12 places', () => {
    // Level 12 before the window; +5 halfway through a 30-day window → 14.5.
    expect(weightedAverage('12', '5', String(5 * 15 * day), 0, 30 * day)).toBe('14.5');
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
  const MINUTE = 60_000;
  const width = (span: Span, lowest: number) => span.to.getTime() - (span.from?.getTime() ?? lowest);

  it('cover a range exactly once with raw edges under 5 minutes and aligned rollup buckets, coarsest inside', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_000_000_000_000 }), fc.integer({ min: 1, max: 90 * DAY_MS }), (from, length) => {
        const { edges, rolled, spans } = rollupSpans({ from: new Date(from), to: new Date(from + length) });
        const pieces = [...edges, ...spans].sort((x, y) => x.from!.getTime() - y.from!.getTime());
        let cursor = from;
        for (const piece of pieces) {
          expect(piece.from!.getTime()).toBe(cursor);
          cursor = piece.to.getTime();
        }
        expect(cursor).toBe(from + length);
        for (const edge of edges) expect(width(edge, from)).toBeLessThan(5 * MINUTE);
        for (const span of spans) {
          expect(GRANULARITIES).toContain(span.granularity);
          expect([span.from!.getTime() % (span.granularity * MINUTE), span.to.getTime() % (span.granularity * MINUTE)]).toEqual([0, 0]);
        }
        // At most two spans per finer granularity (one at each end), one of the coarsest.
        expect(spans.length).toBeLessThanOrEqual(2 * GRANULARITIES.length - 1);
        if (rolled) expect(width(rolled, from)).toBe(spans.reduce((n, s) => n + width(s, from), 0));
        else expect(spans).toEqual([]);
      }),
    );
  });

  it('reads the history before a WeightedSum window from days, then hours, then 5-minute buckets, then raw events', () => {
    expect(rollupSpans({ from: null, to: at('2026-09-10T15:22:30Z') })).toEqual({
      edges: [{ from: at('2026-09-10T15:20:00Z'), to: at('2026-09-10T15:22:30Z') }],
      rolled: { from: null, to: at('2026-09-10T15:20:00Z') },
      spans: [
        { granularity: 5, from: at('2026-09-10T15:00:00Z'), to: at('2026-09-10T15:20:00Z') },
        { granularity: 60, from: at('2026-09-10T00:00:00Z'), to: at('2026-09-10T15:00:00Z') },
        { granularity: 1440, from: null, to: at('2026-09-10T00:00:00Z') },
      ],
    });
  });

  it('reads a window inside one 5-minute bucket from raw events only', () => {
    const range = { from: at('2026-09-10T15:21:00Z'), to: at('2026-09-10T15:24:00Z') };
    expect(rollupSpans(range)).toEqual({ edges: [range], rolled: null, spans: [] });
  });
});

describe('event validation helpers', () => {
  it.each([
    ['2026-01-31T12:00:00Z', true],
    ['2026-01-31T12:00:00.123456+05:30', true],
    ['2024-02-29T00:00:00Z', true],
    ['2026-02-29T00:00:00Z', false],
    ['2026-02-30T00:00:00Z', false],
    ['2026-13-01T00:00:00Z', false],
    ['2026-01-31T24:00:00Z', false],
    ['2026-01-31T12:00Z', false],
    ['2026-01-31 12:00:00Z', false],
    ['2026-01-31T12:00:00', false],
    ['1969-12-31T23:59:59Z', false],
    // PostgreSQL refuses UTC offsets beyond ±15:59 ("time zone displacement out of range").
    ['2026-01-31T12:00:00+15:59', true],
    ['2026-01-31T12:00:00-15:59', true],
    ['2026-01-31T12:00:00+16:00', false],
    ['2026-01-31T12:00:00-23:00', false],
    // The local date says 1970, the instant is 1969.
    ['1970-01-01T00:30:00+01:00', false],
    ['1970-01-01T00:30:00-01:00', true],
    ['1970-01-01T00:00:00Z', true],
  ])('timestamp %s valid: %s', (text, valid) => {
    expect(isBoundedInstant(text)).toBe(valid);
  });

  it('flags integers JSON cannot carry exactly, at any depth, and a non-numeric quantity', () => {
    expect(propertyIssues({ tokens: 2 ** 53 - 1, nested: { big: 2 ** 60 }, list: [1, 2 ** 54], quantity: 'five' }).map((i) => i.path).sort()).toEqual([
      'list.1',
      'nested.big',
      'quantity',
    ]);
    expect(propertyIssues({ quantity: '-1.25', tokens: '123456789012345678901234567890', ratio: 0.1 })).toEqual([]);
  });

  it('refuses JSON numbers that may not be the text sent: overflow and more than 15 significant digits', () => {
    expect(
      propertyIssues({ overflow: Infinity, negative: -Infinity, imprecise: 0.30000000000000004, long: -1234567.891234567, ok15: 123456789.123456, tiny: 1.5e-7, tenth: 0.1 })
        .map((i) => i.path)
        .sort(),
    ).toEqual(['imprecise', 'long', 'negative', 'overflow']);
    expect(MAX_NUMBER_DIGITS).toBe(15);
  });

  it('accepts every decimal of at most 15 significant digits as a JSON number: the double holds it exactly', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n - 1n }), fc.integer({ min: 1, max: 20 }), fc.boolean(), (digits, scale, negative) => {
        const text = `${negative ? '-' : ''}${digits}e-${scale}`;
        const value = Number(text);
        expect(propertyIssues({ value })).toEqual([]);
        // Shortest round trip gives the same decimal back.
        expect(Number(String(value))).toBe(value);
      }),
    );
  });

  it('maps a CloudEvent onto a usage event', () => {
    expect(
      fromCloudEvent({ specversion: '1.0', id: 'e1', source: '/s', type: 'calls', subject: 'c1', time: '2026-01-01T00:00:00Z', data: { n: 1 }, subscriptionid: 's1', other: 'x' }),
    ).toEqual({ id: 'e1', event_type: 'calls', customer_id: 'c1', subscription_id: 's1', timestamp: '2026-01-01T00:00:00Z', properties: { n: 1 }, source: '/s' });
    expect(fromCloudEvent({ specversion: '1.0', id: 'e2', source: '/s', type: 'calls', subject: 'c1' })).toMatchObject({ subscription_id: null, timestamp: undefined, properties: {} });
  });

  it('checks meter definitions across fields', () => {
    expect(meterDefinitionIssues({ name: 'm', event_type: 't', aggregation: 'Sum', property: 'tokens' })).toEqual([]);
    expect(meterDefinitionIssues({ name: 'm', event_type: 't', aggregation: 'Latest' }).map((i) => i.path)).toEqual(['property']);
    expect(
      meterDefinitionIssues({
        name: 'm',
        event_type: 't',
        aggregation: 'Count',
        window_type: 'Tumbling',
        window_size: 'P400D',
        filters: [{ property: 'a', operator: 'LessThan', value: 'x' }],
      }).map((i) => i.path),
    ).toEqual(['window_size', 'filters.0.value']);
    expect(normalizeProperty('properties.tokens')).toBe('tokens');
    expect(normalizeProperty('tokens')).toBe('tokens');
  });
});
