import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addQuantity, burnDown, carriedOver, compareQuantity, formatQuantity, freeAllowance, meteredBalance, parseQuantity, quantityAllowed, quantityOf, unitsMoneyCovers, type QuantitySource, type SkuPrice } from '../../../src/core/index.js';

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

describe('burn-down over sources', () => {
  const source = (id: string, quantity: string, priority = 0, expiresAtMs: number | null = null, createdAtMs = 0): QuantitySource => ({
    id,
    kind: id === 'included' ? 'included' : 'grant',
    quantity: q(quantity),
    priority,
    expiresAtMs,
    createdAtMs,
  });
  const consumedOf = (b: ReturnType<typeof burnDown>) => Object.fromEntries(b.sources.map((s) => [s.source.id, formatQuantity(s.consumed)]));

  it('burns included first, then grants by priority, then sooner expiry, then oldest', () => {
    const sources = [source('late', '10', 0, null, 1), source('soon', '10', 0, 5_000, 2), source('urgent', '10', -1, null, 3), source('included', '100')];
    const b = burnDown(sources, q('125'), 1_000);
    expect(b.sources.map((s) => s.source.id)).toEqual(['included', 'urgent', 'soon', 'late']);
    expect(consumedOf(b)).toEqual({ included: '100', urgent: '10', soon: '10', late: '5' });
    expect(formatQuantity(b.uncovered)).toBe('0');
  });

  it('a grant that expired keeps what it absorbed and gives nothing after', () => {
    // 100 included, a 50 grant expiring at t=10 when usage was 120: it absorbed 20; at t=20 usage is 170.
    const b = burnDown([source('included', '100'), source('g', '50', 0, 10)], q('170'), 20, (at) => (at === 10 ? q('120') : q('170')));
    expect(consumedOf(b)).toEqual({ included: '100', g: '20' });
    expect(formatQuantity(b.uncovered)).toBe('50');
    expect(b.sources.find((s) => s.source.id === 'g')).toMatchObject({ expired: true, remaining: q('0') });
  });

  it('rollover: a recurring grant carries at most its cap; a one-off carries all that is left', () => {
    expect(formatQuantity(carriedOver(q('80'), true, q('30')))).toBe('30');
    expect(formatQuantity(carriedOver(q('20'), true, q('30')))).toBe('20');
    expect(formatQuantity(carriedOver(q('80'), true, null))).toBe('0');
    expect(formatQuantity(carriedOver(q('80'), false, null))).toBe('80');
  });

  it('money covers whole units at the overage price (PerUnit, Package); tiers are no source', () => {
    const sku = (pricing_model: SkuPrice['pricing_model'], package_size?: bigint) => ({ pricing_model, unit_amount_nanos: 3n, ...(package_size ? { package_size } : {}) });
    expect(unitsMoneyCovers(sku('PerUnit'), 10n)).toEqual(quantityOf(3n));
    expect(unitsMoneyCovers(sku('Package', 100n), 10n)).toEqual(quantityOf(300n));
    expect(unitsMoneyCovers(sku('Graduated'), 10n)).toBeNull();
    expect(unitsMoneyCovers(sku('PerUnit'), -5n)).toEqual(quantityOf(0n));
  });

  const sourcesArb = fc.array(
    fc.record({
      quantity: fc.bigInt({ min: 0n, max: 10_000n }),
      priority: fc.integer({ min: -3, max: 3 }),
      expiresAtMs: fc.option(fc.integer({ min: 1, max: 100 }), { nil: null }),
      createdAtMs: fc.integer({ min: 0, max: 100 }),
    }),
    { maxLength: 6 },
  );

  it('property: Σ consumed + uncovered = usage, nothing is negative, nothing gives more than it has', () => {
    fc.assert(
      fc.property(sourcesArb, fc.bigInt({ min: 0n, max: 10_000n }), fc.bigInt({ min: 0n, max: 40_000n }), fc.integer({ min: 0, max: 120 }), (grants, included, usage, nowMs) => {
        const sources = [source('included', `${included}`), ...grants.map((g, i) => source(`g${i}`, `${g.quantity}`, g.priority, g.expiresAtMs, g.createdAtMs))];
        // Usage grows with time: at an instant t ≤ now it was usage·t/now.
        const usageAt = (at: number) => quantityOf(nowMs === 0 ? usage : (usage * BigInt(Math.min(at, nowMs))) / BigInt(nowMs));
        const b = burnDown(sources, quantityOf(usage), nowMs, usageAt);
        const total = b.sources.reduce((sum, s) => addQuantity(sum, s.consumed), b.uncovered);
        expect(compareQuantity(total, quantityOf(usage))).toBe(0);
        for (const s of b.sources) {
          expect(s.consumed.coefficient >= 0n && s.remaining.coefficient >= 0n).toBe(true);
          expect(compareQuantity(addQuantity(s.consumed, s.remaining), s.source.quantity)).toBeLessThanOrEqual(0);
        }
        // The balance (Σ remaining) is never negative, and is zero whenever usage was uncovered by live sources.
        const balance = b.sources.reduce((sum, s) => addQuantity(sum, s.remaining), quantityOf(0n));
        expect(balance.coefficient >= 0n).toBe(true);
        if (b.uncovered.coefficient > 0n) expect(balance.coefficient).toBe(0n);
      }),
      { numRuns: 500 },
    );
  });

  it('property: a HardStop balance from combined sources never goes negative, and Overage stays allowed', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 1_000n }), fc.bigInt({ min: 0n, max: 1_000n }), fc.bigInt({ min: 0n, max: 3_000n }), fc.bigInt({ min: 0n, max: 500n }), (included, granted, usage, held) => {
        for (const limit of ['HardStop', 'Overage'] as const) {
          const b = meteredBalance({ included: quantityOf(included), granted: quantityOf(granted), usage: quantityOf(usage), held: quantityOf(held), limit });
          expect(b.balance.coefficient >= 0n).toBe(true);
          if (limit === 'Overage') expect(quantityAllowed(b, limit, quantityOf(usage + 1n))).toBe(true);
        }
      }),
    );
  });
});
