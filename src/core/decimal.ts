/**
 * Exact decimal quantities. Meters output quantities as decimal strings ("1500", "0.25"); here a
 * quantity is `coefficient × 10^-scale` with a bigint coefficient, so "0.1" + "0.2" is exactly
 * "0.3" and nothing is ever a float.
 *
 * Line-amount rule (the only rounding before display rounding):
 *   quantity × unit price (raw units) is computed exactly as the rational
 *   coefficient·price / 10^scale and rounded ONCE per line, HalfEven, to a whole raw unit.
 * A raw unit is 10^-12 of the currency, i.e. 10^-10 of a cent, so this rounding can never show on
 * an invoice: even a million lines each off by half a raw unit move the total by 5·10^-5 of a cent
 * (less than the display rounding can reveal). It exists only because stored money is integral.
 */
import { CoreValidationError } from './errors.js';
import { roundDiv } from './money.js';

export interface Quantity {
  readonly coefficient: bigint;
  /** Number of decimal places, 0..MAX_QUANTITY_SCALE. */
  readonly scale: number;
}

/** An exact fraction; `den` is always positive. */
export interface Rational {
  readonly num: bigint;
  readonly den: bigint;
}

export const MAX_QUANTITY_SCALE = 38;
const QUANTITY_PATTERN = /^-?[0-9]+(?:\.[0-9]+)?$/;
const POW10: bigint[] = [];
for (let i = 0, p = 1n; i <= MAX_QUANTITY_SCALE * 2; i += 1, p *= 10n) POW10.push(p);

/** 10^n for 0 ≤ n ≤ 76 from a table; larger n are computed. */
export function pow10(n: number): bigint {
  return POW10[n] ?? 10n ** BigInt(n);
}

export const ZERO_QUANTITY: Quantity = Object.freeze({ coefficient: 0n, scale: 0 });

export function quantityOf(coefficient: bigint, scale = 0): Quantity {
  if (!Number.isInteger(scale) || scale < 0 || scale > MAX_QUANTITY_SCALE) {
    throw new CoreValidationError('invalid_quantity_scale', 'quantity', `scale must be an integer in 0..${MAX_QUANTITY_SCALE}`);
  }
  return { coefficient, scale };
}

/** Strict: optional '-', digits, optional '.' and digits. No '+', exponent, spaces, NaN or Infinity. */
export function parseQuantity(text: string, field = 'quantity'): Quantity {
  if (typeof text !== 'string' || text.length > 80 || !QUANTITY_PATTERN.test(text)) {
    throw new CoreValidationError('invalid_quantity', field, `expected a decimal string such as "12.5", got ${typeof text === 'string' ? JSON.stringify(text.slice(0, 40)) : typeof text}`);
  }
  const dot = text.indexOf('.');
  if (dot < 0) return { coefficient: BigInt(text), scale: 0 };
  const scale = text.length - dot - 1;
  if (scale > MAX_QUANTITY_SCALE) {
    throw new CoreValidationError('invalid_quantity', field, `at most ${MAX_QUANTITY_SCALE} decimal places are supported`);
  }
  return { coefficient: BigInt(text.slice(0, dot) + text.slice(dot + 1)), scale };
}

/** Canonical text: no trailing fractional zeros, no leading zeros, no "-0". */
export function formatQuantity(q: Quantity): string {
  const { coefficient, scale } = normalizeQuantity(q);
  if (scale === 0) return coefficient.toString();
  const negative = coefficient < 0n;
  const digits = (negative ? -coefficient : coefficient).toString().padStart(scale + 1, '0');
  const cut = digits.length - scale;
  return `${negative ? '-' : ''}${digits.slice(0, cut)}.${digits.slice(cut)}`;
}

/** Removes trailing fractional zeros: {1500, 3} → {15, 1}. */
export function normalizeQuantity(q: Quantity): Quantity {
  let { coefficient, scale } = q;
  if (coefficient === 0n) return ZERO_QUANTITY;
  while (scale > 0 && coefficient % 10n === 0n) {
    coefficient /= 10n;
    scale -= 1;
  }
  return scale === q.scale ? q : { coefficient, scale };
}

/** The coefficient of `q` expressed at a larger-or-equal `scale`. */
export function coefficientAt(q: Quantity, scale: number): bigint {
  return q.scale === scale ? q.coefficient : q.coefficient * pow10(scale - q.scale);
}

export function addQuantity(a: Quantity, b: Quantity): Quantity {
  const scale = a.scale > b.scale ? a.scale : b.scale;
  return { coefficient: coefficientAt(a, scale) + coefficientAt(b, scale), scale };
}

export function subtractQuantity(a: Quantity, b: Quantity): Quantity {
  const scale = a.scale > b.scale ? a.scale : b.scale;
  return { coefficient: coefficientAt(a, scale) - coefficientAt(b, scale), scale };
}

export function compareQuantity(a: Quantity, b: Quantity): -1 | 0 | 1 {
  const scale = a.scale > b.scale ? a.scale : b.scale;
  const x = coefficientAt(a, scale);
  const y = coefficientAt(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Exact quantity × unit price (raw units) as a rational amount of raw units. */
export function multiplyPrice(q: Quantity, unitPrice: bigint): Rational {
  return { num: q.coefficient * unitPrice, den: pow10(q.scale) };
}

/** quantity × unit price rounded once, HalfEven, to a whole raw unit (the line-amount rule above). */
export function lineAmount(q: Quantity, unitPrice: bigint): bigint {
  return q.scale === 0 ? q.coefficient * unitPrice : roundDiv(q.coefficient * unitPrice, pow10(q.scale), 'HalfEven');
}

/** A rational rounded HalfEven to a whole raw unit. */
export function roundRational(r: Rational): bigint {
  return r.den === 1n ? r.num : roundDiv(r.num, r.den, 'HalfEven');
}
