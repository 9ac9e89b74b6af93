/**
 * Amounts and dates as invoice documents print them. An amount is rounded once, from its raw
 * bigint, by the core's `toDisplay` (HalfEven to the currency's ISO 4217 minor unit: the same
 * rounding as the JSON display strings and the charged amount), then only decorated for the locale:
 * Intl.NumberFormat receives the exact decimal *string*, which it formats without converting it to
 * a float, so no digit is ever lost or rounded a second time.
 */
import { currencyExponent, SCALE, toDisplay } from '../../core/index.js';

/** Intl.NumberFormat formats a decimal string exactly (ECMA-402 NumberFormat v3); ES2022 typings only list number | bigint. */
type ExactFormat = (value: string) => string;

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(locale: string, currency: string, minDigits: number, maxDigits: number): Intl.NumberFormat {
  const key = `${locale}|${currency}|${minDigits}|${maxDigits}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: minDigits,
      maximumFractionDigits: maxDigits,
      roundingMode: 'trunc',
    } as Intl.NumberFormatOptions);
    formatters.set(key, format);
  }
  return format;
}

/**
 * Characters the PDF's standard fonts can draw (WinAnsi): a currency sign outside it (₹, ₩, …) would
 * come out as garbage, so such currencies are printed with their ISO code instead.
 */
const WIN_ANSI = /^[\u0020-\u007e\u00a0-\u00ff\u20ac\u2013\u2014\u2018-\u201e\u2022\u2026\u2212]*$/;

function decorate(locale: string, currency: string, text: string, minDigits: number, maxDigits: number): string {
  const exact = formatter(locale, currency, minDigits, maxDigits).format as unknown as ExactFormat;
  const formatted = exact(text);
  if (WIN_ANSI.test(formatted)) return formatted;
  const coded = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    currencyDisplay: 'code',
    minimumFractionDigits: minDigits,
    maximumFractionDigits: maxDigits,
    roundingMode: 'trunc',
  } as Intl.NumberFormatOptions).format as unknown as ExactFormat;
  return coded(text);
}

/** A money amount (raw units) as printed: rounded once to the currency's minor unit, then localised. */
export function formatAmount(raw: bigint, currency: string, locale: string): string {
  const exponent = currencyExponent(currency);
  return decorate(locale, currency, toDisplay(raw, currency).text, exponent, exponent);
}

/**
 * A unit price (raw units) as printed: exact, never rounded (a usage price can be a fraction of
 * the minor unit, e.g. $0.0004 per call), with at least the currency's minor-unit decimals.
 */
export function formatUnitPrice(raw: bigint, currency: string, locale: string): string {
  const exponent = currencyExponent(currency);
  return decorate(locale, currency, exactDecimal(raw), exponent, SCALE);
}

/** Raw units as an exact decimal string of currency units ("-0.000400000000"). */
function exactDecimal(raw: bigint): string {
  const negative = raw < 0n;
  const digits = (negative ? -raw : raw).toString().padStart(SCALE + 1, '0');
  const cut = digits.length - SCALE;
  return `${negative ? '-' : ''}${digits.slice(0, cut)}.${digits.slice(cut)}`;
}

/** An exact decimal quantity ("1234.5") grouped for the locale, digits unchanged. */
export function formatQuantity(quantity: string, locale: string): string {
  const decimals = quantity.includes('.') ? quantity.length - quantity.indexOf('.') - 1 : 0;
  const format = new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format as unknown as ExactFormat;
  return format(quantity);
}

/** A date as printed: the UTC calendar date, ISO 8601 (unambiguous in every locale). */
export function formatDate(at: Date | string): string {
  return (typeof at === 'string' ? at : at.toISOString()).slice(0, 10);
}

/** The last day of a half-open period [start, end): the day before `end` when it falls on midnight UTC. */
export function lastDayOf(end: Date | string): string {
  const at = typeof end === 'string' ? new Date(end) : end;
  return formatDate(new Date(at.getTime() - 1));
}
