import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allocate,
  CoreValidationError,
  currencyExponent,
  formatMoney,
  isCurrency,
  ISO_4217,
  ONE_UNIT,
  parseMoney,
  roundDiv,
  SCALE,
  toDisplay,
  type RoundingMode,
} from '../../../src/core/index.js';

const U = 1_000_000_000_000n;

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof CoreValidationError) return error.code;
    throw error;
  }
  return undefined;
}

describe('scale', () => {
  it('is 12 decimals: one currency unit is 10^12 raw units', () => {
    expect(SCALE).toBe(12);
    expect(ONE_UNIT).toBe(U);
  });
});

describe('parseMoney / formatMoney', () => {
  it.each([
    ['0', 0n],
    ['-0', 0n],
    ['007', 7n],
    ['1000000000000', U],
    ['-1', -1n],
    ['123456789012345678901234567890', 123456789012345678901234567890n],
    ['99999999999999999999999999999999999999', 99999999999999999999999999999999999999n],
    ['-99999999999999999999999999999999999999', -99999999999999999999999999999999999999n],
  ])('parses %s', (text, value) => {
    expect(parseMoney(text)).toBe(value);
  });

  it.each(['', '-', '+1', ' 1', '1 ', '1.0', '1e3', '1E3', 'NaN', 'Infinity', '0x10', '--1', '1_000', '١٢'])(
    'rejects %j',
    (text) => {
      expect(codeOf(() => parseMoney(text))).toBe('invalid_money');
    },
  );

  it('rejects values outside DECIMAL(38,0)', () => {
    expect(codeOf(() => parseMoney('100000000000000000000000000000000000000'))).toBe('money_out_of_range');
    expect(codeOf(() => parseMoney('-100000000000000000000000000000000000000'))).toBe('money_out_of_range');
    expect(codeOf(() => formatMoney(10n ** 38n))).toBe('money_out_of_range');
  });

  it('names the offending field', () => {
    try {
      parseMoney('12.5', 'unit_amount_nanos');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CoreValidationError);
      expect((error as CoreValidationError).field).toBe('unit_amount_nanos');
    }
  });

  it('formats canonical decimal integers', () => {
    expect(formatMoney(0n)).toBe('0');
    expect(formatMoney(-1_500_000_000_000n)).toBe('-1500000000000');
    expect(formatMoney(123456789012345678901234567890n)).toBe('123456789012345678901234567890');
  });

  it('round-trips every in-range bigint (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 38n) + 1n, max: 10n ** 38n - 1n }), (value) => {
        expect(parseMoney(formatMoney(value))).toBe(value);
      }),
    );
  });

  it('round-trips canonical strings (property)', () => {
    const canonical = fc
      .tuple(fc.boolean(), fc.stringMatching(/^[1-9][0-9]{0,37}$/))
      .map(([negative, digits]) => (negative ? `-${digits}` : digits));
    fc.assert(
      fc.property(canonical, (text) => {
        expect(formatMoney(parseMoney(text))).toBe(text);
      }),
    );
  });
});

describe('roundDiv', () => {
  const modes: RoundingMode[] = ['HalfEven', 'HalfUp', 'Down', 'Up', 'Ceiling', 'Floor'];
  // [n, d, HalfEven, HalfUp, Down, Up, Ceiling, Floor], computed by hand.
  const table: [bigint, bigint, bigint, bigint, bigint, bigint, bigint, bigint][] = [
    [5n, 2n, 2n, 3n, 2n, 3n, 3n, 2n], // 2.5
    [-5n, 2n, -2n, -3n, -2n, -3n, -2n, -3n], // -2.5
    [7n, 2n, 4n, 4n, 3n, 4n, 4n, 3n], // 3.5
    [-7n, 2n, -4n, -4n, -3n, -4n, -3n, -4n], // -3.5
    [7n, 3n, 2n, 2n, 2n, 3n, 3n, 2n], // 2.333…
    [-7n, 3n, -2n, -2n, -2n, -3n, -2n, -3n], // -2.333…
    [8n, 3n, 3n, 3n, 2n, 3n, 3n, 2n], // 2.666…
    [-8n, 3n, -3n, -3n, -2n, -3n, -2n, -3n], // -2.666…
    [6n, 3n, 2n, 2n, 2n, 2n, 2n, 2n], // exact
    [-6n, 3n, -2n, -2n, -2n, -2n, -2n, -2n], // exact
    [0n, 7n, 0n, 0n, 0n, 0n, 0n, 0n],
    [1n, 2n, 0n, 1n, 0n, 1n, 1n, 0n], // 0.5
    [-1n, 2n, 0n, -1n, 0n, -1n, 0n, -1n], // -0.5
  ];
  it.each(table)('%s / %s', (n, d, ...expected) => {
    modes.forEach((mode, i) => expect(roundDiv(n, d, mode), mode).toBe(expected[i]));
  });

  it('defaults to HalfEven and accepts a negative divisor', () => {
    expect(roundDiv(5n, 2n)).toBe(2n);
    expect(roundDiv(5n, -2n)).toBe(-2n);
    expect(roundDiv(-7n, -2n, 'Floor')).toBe(3n);
  });

  it('refuses division by zero', () => {
    expect(codeOf(() => roundDiv(1n, 0n))).toBe('division_by_zero');
  });

  it('stays within one unit of the exact quotient, and within half for Half modes (property)', () => {
    const nonZero = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).filter((d) => d !== 0n);
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), nonZero, fc.constantFrom(...modes), (n, d, mode) => {
        const r = roundDiv(n, d, mode);
        const error = n - r * d;
        const abs = (x: bigint): bigint => (x < 0n ? -x : x);
        expect(abs(error) < abs(d)).toBe(true);
        if (mode === 'HalfEven' || mode === 'HalfUp') expect(abs(error) * 2n <= abs(d)).toBe(true);
        // Direction: Floor leaves a remainder with the divisor's sign, Ceiling the opposite one.
        if (mode === 'Floor') expect(error === 0n || error > 0n === d > 0n).toBe(true);
        if (mode === 'Ceiling') expect(error === 0n || error < 0n === d > 0n).toBe(true);
        if (mode === 'Down') expect(abs(r * d) <= abs(n)).toBe(true);
        if (mode === 'Up') expect(abs(r * d) >= abs(n)).toBe(true);
      }),
    );
  });

  it('is symmetric for negatives in HalfEven (property)', () => {
    fc.assert(
      fc.property(fc.bigInt(), fc.bigInt({ min: 1n, max: 10n ** 20n }), (n, d) => {
        expect(roundDiv(-n, d, 'HalfEven')).toBe(-roundDiv(n, d, 'HalfEven'));
      }),
    );
  });
});

describe('toDisplay (the single display rounding)', () => {
  it.each([
    // raw, currency, mode, minor, text — by hand
    [12_345_000_000_000n, 'USD', 'HalfEven', 1234n, '12.34'], // 12.345 → tie → even 4
    [12_355_000_000_000n, 'USD', 'HalfEven', 1236n, '12.36'], // 12.355 → tie → even 6
    [12_345_000_000_001n, 'USD', 'HalfEven', 1235n, '12.35'], // just above the tie
    [-12_345_000_000_000n, 'USD', 'HalfEven', -1234n, '-12.34'],
    [-12_355_000_000_000n, 'USD', 'HalfEven', -1236n, '-12.36'],
    [12_345_000_000_000n, 'USD', 'HalfUp', 1235n, '12.35'],
    [-12_345_000_000_000n, 'USD', 'HalfUp', -1235n, '-12.35'],
    [5_000_000_000n, 'USD', 'HalfEven', 0n, '0.00'], // 0.005
    [15_000_000_000n, 'USD', 'HalfEven', 2n, '0.02'], // 0.015
    [25_000_000_000n, 'USD', 'HalfEven', 2n, '0.02'], // 0.025
    [-5_000_000_000n, 'USD', 'HalfEven', 0n, '0.00'], // no "-0.00"
    [-1_000_000_000n, 'USD', 'Floor', -1n, '-0.01'],
    [-1_000_000_000n, 'USD', 'Ceiling', 0n, '0.00'],
    [1n, 'USD', 'Up', 1n, '0.01'],
    [1n, 'USD', 'Down', 0n, '0.00'],
    [12_349_999_999_999n, 'EUR', 'Down', 1234n, '12.34'],
    [1_234_500_000_000_000n, 'JPY', 'HalfEven', 1234n, '1234'], // 1234.5 yen
    [1_235_500_000_000_000n, 'JPY', 'HalfEven', 1236n, '1236'],
    [1_234_500_000_000n, 'KWD', 'HalfEven', 1234n, '1.234'], // 1.2345 dinar
    [1_234_560_000_000n, 'CLF', 'HalfEven', 12346n, '1.2346'],
    [123456789012345678901234567890n, 'USD', 'HalfEven', 12345678901234567890n, '123456789012345678.90'],
  ] as const)('%s %s %s → %s', (raw, currency, mode, minor, text) => {
    expect(toDisplay(raw, currency, mode)).toEqual({ minor, text });
  });

  it('defaults to HalfEven', () => {
    expect(toDisplay(12_345_000_000_000n, 'USD').text).toBe('12.34');
  });

  it('rejects unknown or non-canonical currency codes', () => {
    expect(codeOf(() => toDisplay(1n, 'XXX'))).toBe('invalid_currency');
    expect(codeOf(() => toDisplay(1n, 'usd'))).toBe('invalid_currency');
  });
});

describe('ISO 4217', () => {
  it('knows active codes and their minor units', () => {
    for (const code of ['USD', 'EUR', 'GBP', 'CHF', 'INR', 'BRL', 'XCG', 'ZWG', 'VES', 'VED', 'SLE', 'ANG', 'XOF', 'XPF', 'BOV', 'USN']) {
      expect(isCurrency(code), code).toBe(true);
    }
    expect(currencyExponent('USD')).toBe(2);
    for (const code of ['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'UGX', 'PYG', 'XAF']) expect(currencyExponent(code), code).toBe(0);
    for (const code of ['BHD', 'KWD', 'OMR', 'JOD', 'TND', 'LYD', 'IQD']) expect(currencyExponent(code), code).toBe(3);
    expect(currencyExponent('UYW')).toBe(4);
  });

  it('rejects withdrawn codes, codes without a minor unit and non-codes', () => {
    for (const code of ['HRK', 'VEF', 'ZWL', 'DEM', 'XAU', 'XDR', 'XXX', 'XTS', 'usd', 'US', '']) {
      expect(isCurrency(code), code).toBe(false);
    }
  });

  it('is a set of three-letter upper-case codes', () => {
    expect(ISO_4217.size).toBeGreaterThan(150);
    for (const code of ISO_4217) expect(code).toMatch(/^[A-Z]{3}$/);
  });
});

describe('allocate', () => {
  it.each([
    [100n, [1n, 1n, 1n], [34n, 33n, 33n]],
    [-100n, [1n, 1n, 1n], [-34n, -33n, -33n]],
    [10n, [0n, 1n, 0n], [0n, 10n, 0n]],
    [5n, [1n, 2n, 3n], [1n, 2n, 2n]], // shares 0.83, 1.67, 2.5: remainders 5,4,3 of 6
    [1n, [1n, 1n], [1n, 0n]],
    [0n, [1n, 2n], [0n, 0n]],
    [60n, [31n, 29n], [31n, 29n]],
    [100n, [3n, 3n, 1n], [43n, 43n, 14n]],
    [100n * U, [1n, 1n, 1n], [33_333_333_333_334n, 33_333_333_333_333n, 33_333_333_333_333n]],
  ])('allocate(%s, [%s])', (total, weights, expected) => {
    expect(allocate(total, weights)).toEqual(expected);
  });

  it('refuses weights that cannot split anything', () => {
    expect(codeOf(() => allocate(1n, []))).toBe('zero_weights');
    expect(codeOf(() => allocate(1n, [0n, 0n]))).toBe('zero_weights');
    expect(codeOf(() => allocate(1n, [-1n, 2n]))).toBe('negative_weight');
  });

  it('always sums to the total, stays within one unit of the exact share and gives zero weights nothing (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 6n }), { minLength: 1, maxLength: 20 }).filter((w) => w.some((x) => x > 0n)),
        (total, weights) => {
          const parts = allocate(total, weights);
          const weightSum = weights.reduce((a, b) => a + b, 0n);
          expect(parts.reduce((a, b) => a + b, 0n)).toBe(total);
          parts.forEach((part, i) => {
            const w = weights[i] as bigint;
            const exactTimesSum = total * w; // part ≈ exactTimesSum / weightSum
            const diff = part * weightSum - exactTimesSum;
            expect(diff < weightSum && diff > -weightSum).toBe(true);
            if (w === 0n) expect(part).toBe(0n);
          });
          expect(allocate(-total, weights)).toEqual(parts.map((p) => -p));
        },
      ),
    );
  });
});
