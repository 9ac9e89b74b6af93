/**
 * The pure parts of the metering services: window sizes, meter definitions and event validation
 * helpers. Windows, periods, WeightedSum and rollup spans are the core's (test/unit/core/metering.test.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isBoundedInstant } from '../../src/schemas/common.js';
import { fromCloudEvent, magnitudeOf, MAX_NUMBER_DIGITS, negativeQuantityIssues, propertyIssues } from '../../src/services/metering/events.js';
import { formatWindowSize, meterDefinitionIssues, normalizeProperty, parseWindowSize } from '../../src/services/metering/meters.js';

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
    expect(propertyIssues({ quantity: '1.25', tokens: '123456789012345678.123456789012', ratio: 0.1 })).toEqual([]);
  });

  it('refuses unbounded quantities in top-level properties (numbers and decimal strings); negatives only from customer tokens', () => {
    const paths = (properties: Record<string, unknown>) => propertyIssues(properties).map((i) => i.path).sort();
    expect(paths({ quantity: '1000000000000000000000000000000', tokens: '1234567890123456789', ok: '123456789012345678', also: 999999999999999 })).toEqual(['quantity', 'tokens']);
    expect(paths({ quantity: '0.0000000000001', tiny: 1e-13, ok: '0.000000000001', ok2: 1e-12, padded: '0000000000000000000000001' })).toEqual(['quantity', 'tiny']);
    // Negative values are bounded like the others; whether the sender may send them is decided by who it is.
    expect(paths({ quantity: '-5000', n: -5, correction: '-1.5' })).toEqual([]);
    expect(negativeQuantityIssues({ quantity: '-5000', n: -5, m: -0.5, zero: '-0', ok: 0, label: '-x', nested: { delta: -5 } }).map((i) => i.path).sort()).toEqual([
      'm',
      'n',
      'quantity',
    ]);
    // Nested values are not aggregated by meters: only the JSON exactness rules apply there.
    expect(paths({ nested: { big: '1000000000000000000000000000000' } })).toEqual([]);
  });

  it("measures an event's magnitude as the largest |value| its meters can read, scaled by 10^12", () => {
    const tokens = [{ property: 'tokens', meter: 'Tokens', aggregation: 'Sum' }] as const;
    expect(magnitudeOf({ quantity: '2.5', tokens: -7, id: 99999999 }, tokens)).toBe(7_000_000_000_000n);
    expect(magnitudeOf({ quantity: '-0.000000000001' }, [])).toBe(1n);
    expect(magnitudeOf({ quantity: 0.1, tokens: '0.05' }, tokens)).toBe(100_000_000_000n);
    expect(magnitudeOf({ quantity: '999999999999999999.999999999999' }, [])).toBe(999_999_999_999_999_999_999_999_999_999n);
    // What no meter reads counts for nothing, and so does what is no number.
    expect(magnitudeOf({ sent_at_ms: 1767225600000, label: 'x', tokens: true }, tokens)).toBe(0n);
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
        // Nested, so only the exactness rule applies (top-level values are also quantity-bounded).
        expect(propertyIssues({ nested: { value } })).toEqual([]);
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
    expect(meterDefinitionIssues({ name: 'm', event_type: 't', aggregation: 'LATEST' }).map((i) => i.path)).toEqual(['property']);
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
