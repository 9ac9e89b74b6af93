/**
 * Money: `bigint` raw units at scale 12 (1 currency unit = 10^12 raw units, so one raw unit is
 * 10^-10 of a cent). JSON carries money as decimal-integer strings in fields ending in `_nanos`;
 * the database column is DECIMAL(38,0), hence the |value| < 10^38 range check at the boundary.
 *
 * Rules (SPEC §1 global rules 1-2):
 * - No floating point anywhere: every operation here is exact bigint arithmetic.
 * - Intermediate amounts are never rounded to the currency's minor unit. `toDisplay` rounds once,
 *   when an invoice is rendered, to the ISO 4217 minor unit of the currency, with a named mode
 *   (HalfEven, banker's rounding, by default).
 * - Splitting an amount (`allocate`) never creates or loses a raw unit: parts always sum to the
 *   total.
 */
import { CoreValidationError } from './errors.js';

export const SCALE = 12;
export const ONE_UNIT = 10n ** 12n;
/** Exclusive bound of DECIMAL(38,0): every stored amount satisfies |amount| < MONEY_LIMIT. */
export const MONEY_LIMIT = 10n ** 38n;

const MONEY_PATTERN = /^-?[0-9]+$/;

/** Parses a `_nanos` string strictly: optional '-', digits only; no '+', spaces, dots or exponents. */
export function parseMoney(text: string, field = 'amount_nanos'): bigint {
  if (typeof text !== 'string' || text.length > 80 || !MONEY_PATTERN.test(text)) {
    throw new CoreValidationError('invalid_money', field, `expected a decimal integer string, got ${describe(text)}`);
  }
  const value = BigInt(text);
  assertMoneyRange(value, field);
  return value;
}

/** Formats raw units as the canonical decimal-integer string of the JSON `_nanos` fields. */
export function formatMoney(value: bigint, field = 'amount_nanos'): string {
  assertMoneyRange(value, field);
  return value.toString();
}

export function assertMoneyRange(value: bigint, field = 'amount_nanos'): void {
  if (value >= MONEY_LIMIT || value <= -MONEY_LIMIT) {
    throw new CoreValidationError('money_out_of_range', field, 'amount does not fit DECIMAL(38,0)');
  }
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value) : typeof value;
}

export type RoundingMode = 'HalfEven' | 'HalfUp' | 'Down' | 'Up' | 'Ceiling' | 'Floor';

/**
 * Exact n / d rounded to an integer. `Down`/`Up` are toward/away from zero, `Ceiling`/`Floor`
 * toward +∞/−∞, `HalfUp` breaks ties away from zero, `HalfEven` to the even neighbour.
 * Symmetric for negatives: roundDiv(-n, d, HalfEven) === -roundDiv(n, d, HalfEven).
 */
export function roundDiv(n: bigint, d: bigint, mode: RoundingMode = 'HalfEven'): bigint {
  if (d === 0n) {
    throw new CoreValidationError('division_by_zero', 'divisor', 'cannot divide by zero');
  }
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  const away = n < 0n ? q - 1n : q + 1n;
  switch (mode) {
    case 'Down':
      return q;
    case 'Up':
      return away;
    case 'Ceiling':
      return n > 0n ? away : q;
    case 'Floor':
      return n < 0n ? away : q;
    case 'HalfUp':
    case 'HalfEven': {
      const twice = (r < 0n ? -r : r) * 2n;
      if (twice > d) return away;
      if (twice < d) return q;
      if (mode === 'HalfUp') return away;
      return q % 2n === 0n ? q : away;
    }
  }
}

/**
 * ISO 4217 List One currencies that have a minor unit, with that unit's exponent. Funds codes
 * (BOV, CLF, COU, …) are included; codes without a minor unit (precious metals XAU/XAG/XPD/XPT,
 * bond-market units XBA–XBD, XDR, XSU, XUA, XTS, XXX) cannot be invoiced and are left out.
 * Withdrawn codes (HRK, VEF, ZWL, …) are not accepted. ANG stays while XCG replaces it.
 */
const EXPONENTS: ReadonlyMap<string, number> = (() => {
  const zero = 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF';
  const three = 'BHD IQD JOD KWD LYD OMR TND';
  const four = 'CLF UYW';
  const two =
    'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN ' +
    'BZD CAD CDF CHE CHF CHW CNY COP COU CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP ' +
    'GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR ' +
    'LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB ' +
    'PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP ' +
    'SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG';
  const table = new Map<string, number>();
  for (const [codes, exponent] of [
    [zero, 0],
    [two, 2],
    [three, 3],
    [four, 4],
  ] as const) {
    for (const code of codes.split(' ')) table.set(code, exponent);
  }
  return table;
})();

export const ISO_4217: ReadonlySet<string> = new Set(EXPONENTS.keys());

export function isCurrency(code: string): boolean {
  return EXPONENTS.has(code);
}

/** Number of decimals of the currency's minor unit (2 for USD, 0 for JPY, 3 for KWD). */
export function currencyExponent(currency: string): number {
  const exponent = EXPONENTS.get(currency);
  if (exponent === undefined) {
    throw new CoreValidationError('invalid_currency', 'currency', `${describe(currency)} is not an ISO 4217 currency code`);
  }
  return exponent;
}

export interface DisplayAmount {
  /** Amount in minor units of the currency (cents for USD, yen for JPY). */
  readonly minor: bigint;
  /** Plain decimal text with exactly the currency's minor-unit decimals, e.g. "-12.35", "1235". */
  readonly text: string;
}

/** The single rounding of SPEC global rule 2: raw units → the currency's minor unit. */
export function toDisplay(raw: bigint, currency: string, mode: RoundingMode = 'HalfEven'): DisplayAmount {
  const exponent = currencyExponent(currency);
  const minor = roundDiv(raw, 10n ** BigInt(SCALE - exponent), mode);
  return { minor, text: formatMinor(minor, exponent) };
}

function formatMinor(minor: bigint, exponent: number): string {
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString();
  const sign = negative ? '-' : '';
  if (exponent === 0) return sign + digits;
  const padded = digits.padStart(exponent + 1, '0');
  const cut = padded.length - exponent;
  return `${sign}${padded.slice(0, cut)}.${padded.slice(cut)}`;
}

/**
 * Splits `total` in proportion to `weights` without losing a raw unit (largest remainder):
 * each part gets floor(|total|·w/Σw), then the leftover units go one each to the largest
 * remainders, ties to the lower index. A negative total is split as its absolute value and
 * negated, so allocate(-t, w) === allocate(t, w).map(-x). Zero weights get zero; weights must be
 * non-negative and not all zero.
 */
export function allocate(total: bigint, weights: readonly bigint[]): bigint[] {
  let weightSum = 0n;
  for (const weight of weights) {
    if (weight < 0n) throw new CoreValidationError('negative_weight', 'weights', 'weights must be non-negative');
    weightSum += weight;
  }
  if (weightSum === 0n) {
    throw new CoreValidationError('zero_weights', 'weights', 'at least one weight must be positive');
  }
  const negative = total < 0n;
  const magnitude = negative ? -total : total;
  const parts: bigint[] = [];
  const remainders: { index: number; remainder: bigint }[] = [];
  let assigned = 0n;
  weights.forEach((weight, index) => {
    const share = magnitude * weight;
    const part = share / weightSum;
    parts.push(part);
    assigned += part;
    remainders.push({ index, remainder: share % weightSum });
  });
  let leftover = magnitude - assigned;
  if (leftover > 0n) {
    remainders.sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
    for (const { index } of remainders) {
      if (leftover === 0n) break;
      parts[index] = (parts[index] ?? 0n) + 1n;
      leftover -= 1n;
    }
  }
  return negative ? parts.map((part) => -part) : parts;
}

/**
 * Raw units → the whole minor units a payment processor charges (cents for USD, yen for JPY, fils
 * for KWD): the same single rounding as the invoice's display (HalfEven to the currency's minor
 * unit), so a customer is charged exactly the amount the invoice shows.
 */
export function toMinorUnits(raw: bigint, currency: string): bigint {
  return toDisplay(raw, currency).minor;
}

/** Whole minor units → raw units (exact: a minor unit is a whole number of raw units). */
export function minorUnitsToRaw(minor: bigint, currency: string): bigint {
  return minor * 10n ** BigInt(SCALE - currencyExponent(currency));
}
