import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addQuantity,
  compareQuantity,
  CoreValidationError,
  formatQuantity,
  lineAmount,
  multiplyPrice,
  normalizeQuantity,
  parseQuantity,
  quantityOf,
  subtractQuantity,
} from '../../../src/core/index.js';
import { quantity } from './arbitraries.js';

const q = parseQuantity;

describe('parseQuantity', () => {
  it.each([
    ['0', 0n, 0],
    ['1500', 1500n, 0],
    ['0.1', 1n, 1],
    ['-2.50', -250n, 2],
    ['007.5', 75n, 1],
    ['1000000000000000', 1_000_000_000_000_000n, 0],
    ['0.000000000000000001', 1n, 18],
  ])('%s', (text, coefficient, scale) => {
    expect(parseQuantity(text)).toEqual({ coefficient, scale });
  });

  it.each(['', '.5', '5.', '1e3', '1E-3', 'NaN', 'Infinity', '-Infinity', '+1', ' 1', '1 ', '1,000', '0x1', '1.2.3', '١'])(
    'rejects %j',
    (text) => {
      expect(() => parseQuantity(text)).toThrow(CoreValidationError);
    },
  );

  it('rejects more than 38 decimals', () => {
    expect(() => parseQuantity(`0.${'1'.repeat(39)}`)).toThrow(CoreValidationError);
    expect(() => quantityOf(1n, 39)).toThrow(CoreValidationError);
  });
});

describe('formatQuantity', () => {
  it.each([
    [{ coefficient: 3n, scale: 1 }, '0.3'],
    [{ coefficient: 150n, scale: 2 }, '1.5'],
    [{ coefficient: 1200n, scale: 2 }, '12'],
    [{ coefficient: 5n, scale: 3 }, '0.005'],
    [{ coefficient: -5n, scale: 3 }, '-0.005'],
    [{ coefficient: 0n, scale: 5 }, '0'],
    [{ coefficient: 1000n, scale: 0 }, '1000'],
  ])('%o → %s', (value, text) => {
    expect(formatQuantity(value)).toBe(text);
  });
});

describe('arithmetic', () => {
  it('adds 0.1 and 0.2 to exactly 0.3', () => {
    expect(formatQuantity(addQuantity(q('0.1'), q('0.2')))).toBe('0.3');
    expect(compareQuantity(addQuantity(q('0.1'), q('0.2')), q('0.3'))).toBe(0);
    expect(formatQuantity(addQuantity(q('0.10'), q('0.20')))).toBe('0.3');
  });

  it('subtracts and compares across scales', () => {
    expect(formatQuantity(subtractQuantity(q('10'), q('0.001')))).toBe('9.999');
    expect(compareQuantity(q('1.10'), q('1.1'))).toBe(0);
    expect(compareQuantity(q('0.9'), q('1'))).toBe(-1);
    expect(compareQuantity(q('2'), q('1.999999'))).toBe(1);
    expect(normalizeQuantity(q('1.500'))).toEqual({ coefficient: 15n, scale: 1 });
  });

  it('multiplies by a price exactly and rounds a line once, HalfEven', () => {
    expect(multiplyPrice(q('0.5'), 3n)).toEqual({ num: 15n, den: 10n });
    expect(lineAmount(q('3'), 100_000_000n)).toBe(300_000_000n);
    expect(lineAmount(q('0.5'), 1n)).toBe(0n); // 0.5 → even 0
    expect(lineAmount(q('1.5'), 1n)).toBe(2n); // 1.5 → even 2
    expect(lineAmount(q('2.5'), 1n)).toBe(2n); // 2.5 → even 2
    expect(lineAmount(q('0.333'), 3n)).toBe(1n); // 0.999
    expect(lineAmount(q('0.000000000000000001'), 100_000_000n)).toBe(0n); // 10^-10 raw
  });

  it('parse ∘ format is the identity up to trailing zeros (property)', () => {
    fc.assert(
      fc.property(quantity, fc.boolean(), (value, negate) => {
        const signed = negate ? { ...value, coefficient: -value.coefficient } : value;
        expect(parseQuantity(formatQuantity(signed))).toEqual(normalizeQuantity(signed));
      }),
    );
  });

  it('addition is exact: (a + b) − b = a (property)', () => {
    fc.assert(
      fc.property(quantity, quantity, (a, b) => {
        expect(compareQuantity(subtractQuantity(addQuantity(a, b), b), a)).toBe(0);
        expect(compareQuantity(addQuantity(a, b), addQuantity(b, a))).toBe(0);
      }),
    );
  });
});
