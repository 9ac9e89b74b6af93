import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addQuantity, compareQuantity, formatQuantity, freeAllowance, meteredBalance, parseQuantity, quantityAllowed, quantityOf, type SkuPrice } from '../../../src/core/index.js';

const q = parseQuantity;
const balanceOf = (included: string, granted: string, usage: string, held: string, limit: 'HardStop' | 'Overage' = 'HardStop') =>
  meteredBalance({ included: q(included), granted: q(granted), usage: q(usage), held: q(held), limit });

describe('metered balance', () => {
  it('golden table', () => {
    const rows: [string, string, string, string, string, string, boolean][] = [
      // included, granted, usage, held → balance, overage, has_access (HardStop)
      ['1000', '0', '0', '0', '1000', '0', true],
      ['1000', '0', '999.5', '0', '0.5', '0', true],
      ['1000', '0', '1000', '0', '0', '0', false],
      ['1000', '0', '1250', '0', '0', '250', false],
      ['1000', '200', '1100', '50', '50', '0', true],
      ['0', '0', '3', '0', '0', '3', false],
    ];
    for (const [included, granted, usage, held, balance, overage, access] of rows) {
      const b = balanceOf(included, granted, usage, held);
      expect([formatQuantity(b.balance), formatQuantity(b.overage), b.has_access]).toEqual([balance, overage, access]);
    }
  });

  it('Overage keeps access and allows any quantity; HardStop allows what fits', () => {
    const over = balanceOf('10', '0', '25', '0', 'Overage');
    expect(over.has_access).toBe(true);
    expect(quantityAllowed(over, 'Overage', q('1000'))).toBe(true);
    const hard = balanceOf('10', '0', '7', '0');
    expect(quantityAllowed(hard, 'HardStop', q('3'))).toBe(true);
    expect(quantityAllowed(hard, 'HardStop', q('3.000001'))).toBe(false);
  });

  it('balance + usage + held − overage = available, never a negative balance', () => {
    const amount = fc.bigInt({ min: 0n, max: 10n ** 15n }).map((c) => quantityOf(c, 3));
    fc.assert(
      fc.property(amount, amount, amount, amount, (included, granted, usage, held) => {
        const b = meteredBalance({ included, granted, usage, held, limit: 'HardStop' });
        expect(b.balance.coefficient >= 0n && b.overage.coefficient >= 0n).toBe(true);
        // Whenever nothing is held, what is left and what went over account for the whole allowance.
        const zero = quantityOf(0n);
        const plain = meteredBalance({ included, granted, usage, held: zero, limit: 'HardStop' });
        const lhs = addQuantity(addQuantity(plain.balance, usage), zero);
        expect(compareQuantity(lhs, addQuantity(b.available, plain.overage))).toBe(0);
      }),
    );
  });
});

describe('free allowance of an overage SKU', () => {
  const sku = (over: Partial<SkuPrice>): SkuPrice => ({ sku_id: 's', name: 's', pricing_model: 'PerUnit', unit_amount_nanos: 1n, currency: 'USD', ...over });
  it('per model', () => {
    expect(freeAllowance(sku({}))).toBe(0n);
    expect(freeAllowance(sku({ pricing_model: 'Package', package_size: 1n, package_free_units: 1000n }))).toBe(1000n);
    expect(freeAllowance(sku({ pricing_model: 'Graduated', tiers: [{ up_to: 500n, unit_amount_nanos: 0n }, { up_to: null, unit_amount_nanos: 5n }] }))).toBe(500n);
    expect(freeAllowance(sku({ pricing_model: 'Graduated', tiers: [{ up_to: 500n, unit_amount_nanos: 0n, flat_amount_nanos: 9n }, { up_to: null, unit_amount_nanos: 5n }] }))).toBe(0n);
    expect(freeAllowance(sku({ pricing_model: 'Volume', tiers: [{ up_to: null, unit_amount_nanos: 5n }] }))).toBeNull();
    expect(freeAllowance(sku({ pricing_model: 'Flat' }))).toBeNull();
  });
});
