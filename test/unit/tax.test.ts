import { describe, expect, it } from 'vitest';
import { createTaxAdapter, flatRateTax, zeroTax, type TaxContext } from '../../src/services/billing/tax.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';

const context = (amounts: bigint[], taxId: string | null = null): TaxContext => ({
  currency: 'USD',
  customer: { id: 'c1', taxId },
  lines: amounts.map((amountNanos, i) => ({ id: `l${i}`, description: `Line ${i}`, amountNanos })),
});

describe('flatRateTax', () => {
  it('taxes each line at the rate, rounding each HalfEven to a whole raw unit', () => {
    // 10%: 5 → 0.5 → 0 (even), 15 → 1.5 → 2 (even), 25 → 2.5 → 2, 7 → 0.7 → 1, −15 → −1.5 → −2 (symmetric)
    const lines = flatRateTax(1000).calculate(context([5n, 15n, 25n, 7n, -15n]));
    expect(lines.map((l) => l.amountNanos)).toEqual([0n, 2n, 2n, 1n, -2n]);
    expect(lines.every((l) => l.kind === 'tax')).toBe(true);
  });

  it('computes exact amounts at 20% and describes the tax line', () => {
    const [whole, repeating] = flatRateTax(2000).calculate(context([100n * UNIT, 33_333_333_333_333n]));
    expect(whole).toMatchObject({ kind: 'tax', description: 'Tax 20% on Line 0', amountNanos: 20n * UNIT });
    expect(whole!.detail).toEqual({ rate_bps: 2000, taxable_line_id: 'l0', taxable_amount_nanos: (100n * UNIT).toString() });
    // 33_333_333_333_333 × 0.2 = 6_666_666_666_666.6 → 6_666_666_666_667
    expect(repeating!.amountNanos).toBe(6_666_666_666_667n);
  });

  it('describes fractional percentages exactly', () => {
    expect(flatRateTax(825).calculate(context([UNIT]))[0]).toMatchObject({ description: 'Tax 8.25% on Line 0', amountNanos: 82_500_000_000n });
  });

  it('skips zero-amount lines', () => {
    expect(flatRateTax(2000).calculate(context([0n, UNIT])).map((l) => l.detail)).toEqual([
      { rate_bps: 2000, taxable_line_id: 'l1', taxable_amount_nanos: UNIT.toString() },
    ]);
  });

  it('exempts B2B customers with a tax_id (reverse charge)', () => {
    expect(flatRateTax(2000).calculate(context([100n * UNIT], 'DE123456789'))).toEqual([]);
  });

  it('adds nothing at a 0 bps rate', () => {
    expect(flatRateTax(0).calculate(context([100n * UNIT]))).toEqual([]);
  });

  it('is named after its rate', () => {
    expect(flatRateTax(2000).name).toBe('flat:2000');
  });

  it.each([-1, 10_001, 12.5, Number.NaN])('refuses the rate %s', (rate) => {
    expect(() => flatRateTax(rate)).toThrow(/TAX_RATE_BPS must be an integer 0-10000/);
  });
});

describe('zeroTax', () => {
  it('passes everything through untaxed', () => {
    expect(zeroTax.name).toBe('none');
    expect(zeroTax.calculate(context([100n * UNIT]))).toEqual([]);
  });
});

describe('createTaxAdapter', () => {
  it('picks the adapter by kind', () => {
    expect(createTaxAdapter('none', 2000)).toBe(zeroTax);
    const flat = createTaxAdapter('flat', 1500);
    expect(flat.name).toBe('flat:1500');
    expect(flat.calculate(context([UNIT]))[0]!.amountNanos).toBe(150_000_000_000n);
  });

  it('refuses an unknown kind and an invalid flat rate', () => {
    expect(() => createTaxAdapter('vat', 2000)).toThrow('unknown TAX_ADAPTER vat (none | flat)');
    expect(() => createTaxAdapter('flat', 20_000)).toThrow(/TAX_RATE_BPS/);
  });
});
