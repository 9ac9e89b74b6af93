import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineAmountSteps, settlementSteps } from '../../../src/core/explain.js';
import { ONE_UNIT as UNIT, rateSku, type SkuPrice } from '../../../src/core/index.js';

const sku: SkuPrice = {
  sku_id: '019a4000-0000-7000-8000-0000000000a1',
  name: 'Storage',
  pricing_model: 'Graduated',
  unit_amount_nanos: 0n,
  currency: 'USD',
  meter_event_type: 'storage_gb',
  tiers: [
    { up_to: 100n, unit_amount_nanos: UNIT / 2n },
    { up_to: null, unit_amount_nanos: UNIT / 5n },
  ],
};

describe('lineAmountSteps', () => {
  it('goes from the list price through each adjustment to the line amount (golden)', () => {
    const rated = rateSku(sku, '150', { discount_bps: 1000 });
    const { steps, reconciles } = lineAmountSteps({ amount_nanos: rated.amount_nanos, rated, phases: [], billed_before_nanos: null });
    expect(steps.map((s) => [s.step, s.change_nanos, s.amount_nanos])).toEqual([
      ['list_price', 60n * UNIT, 60n * UNIT],
      ['ContractDiscount', -6n * UNIT, 54n * UNIT],
    ]);
    expect(reconciles).toBe(true);
    // A fee served 15 of 30 days, 10% off: 49.00 → 24.50 → 22.05.
    const fee = rateSku({ ...sku, name: 'Fee', pricing_model: 'Flat', unit_amount_nanos: 49n * UNIT, tiers: undefined }, '1', { discount_bps: 1000, proration: { days_used: 15, days_in_period: 30 } });
    const prorated = lineAmountSteps({ amount_nanos: fee.amount_nanos, rated: fee, phases: [], billed_before_nanos: null });
    expect(prorated.steps.map((s) => [s.step, s.amount_nanos])).toEqual([
      ['list_price', 49n * UNIT],
      ['Proration', (49n * UNIT) / 2n],
      ['ContractDiscount', (2205n * UNIT) / 100n],
    ]);
    expect(prorated.reconciles).toBe(true);
  });

  it('subtracts what earlier invoices billed, and steps phase by phase for a SKU rated in several', () => {
    const { steps, reconciles } = lineAmountSteps({
      amount_nanos: 7n * UNIT,
      rated: { list_amount_nanos: 4n * UNIT, adjustments: [] },
      phases: [
        { label: 'old plan', amount_nanos: 4n * UNIT },
        { label: 'new plan', amount_nanos: 6n * UNIT },
      ],
      billed_before_nanos: 3n * UNIT,
    });
    expect(steps.map((s) => [s.step, s.amount_nanos])).toEqual([
      ['phase', 4n * UNIT],
      ['phase', 10n * UNIT],
      ['billed_before', 7n * UNIT],
    ]);
    expect(reconciles).toBe(true);
  });

  it('ends at the rated amount for any quantity and adjustments (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 9n }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 1, max: 31 }),
        (quantity, discount, days) => {
          const fee = { ...sku, pricing_model: 'Flat' as const, unit_amount_nanos: quantity, tiers: undefined };
          const rated = rateSku(days % 2 === 0 ? sku : fee, quantity.toString(), { discount_bps: discount, proration: { days_used: days, days_in_period: 31 } });
          const { steps, reconciles } = lineAmountSteps({ amount_nanos: rated.amount_nanos, rated, phases: [], billed_before_nanos: null });
          expect(reconciles).toBe(true);
          expect(steps.at(-1)!.amount_nanos).toBe(rated.amount_nanos);
        },
      ),
    );
  });
});

describe('settlementSteps', () => {
  it('deducts the customer balance, then the wallet, then credit notes, never below zero', () => {
    const out = settlementSteps({ total_nanos: 100n, customer_balance_applied_nanos: 10n, wallet_applied_nanos: 20n, due_reduced_nanos: 5n });
    expect(out.steps.map((s) => [s.step, s.amount_nanos])).toEqual([
      ['total', 100n],
      ['customer_balance_applied', 90n],
      ['wallet_applied', 70n],
      ['due_reduced', 65n],
    ]);
    expect(out.amount_due_nanos).toBe(65n);
    expect(settlementSteps({ total_nanos: -5n, customer_balance_applied_nanos: 0n, wallet_applied_nanos: 0n, due_reduced_nanos: 0n }).amount_due_nanos).toBe(0n);
  });
});
