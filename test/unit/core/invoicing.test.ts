import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chargesToInvoice, type Billed, type ChargeLine } from '../../../src/core/invoicing.js';

const line = (sku_id: string, quantity: string, amount: bigint): ChargeLine => ({ sku_id, description: sku_id, quantity, amount_nanos: amount });

describe('chargesToInvoice (rate to date, invoice the difference)', () => {
  it('puts every SKU on a period\'s first invoice, zero lines included', () => {
    const out = chargesToInvoice([line('fee', '1', 49n), line('calls', '0', 0n)], new Map());
    expect(out).toEqual([line('fee', '1', 49n), line('calls', '0', 0n)]);
  });

  it('bills only the growth since the last finalized invoice', () => {
    const billed = new Map<string, Billed>([
      ['fee', { quantity: '1', amount_nanos: 49n }],
      ['calls', { quantity: '100.5', amount_nanos: 1005n }],
    ]);
    expect(chargesToInvoice([line('fee', '1', 49n), line('calls', '250.7', 2507n)], billed)).toEqual([line('calls', '150.2', 1502n)]);
  });

  it('turns a plan change after the fee was invoiced into a credit and a charge', () => {
    // Old fee 30.00 invoiced for the whole 30-day period; change on day 10: old plan used 10 days
    // (10.00), new plan 60.00 for the remaining 20 days (40.00).
    const billed = new Map<string, Billed>([['old-fee', { quantity: '1', amount_nanos: 30_000n }]]);
    const out = chargesToInvoice([line('old-fee', '1', 10_000n), line('new-fee', '1', 40_000n)], billed);
    expect(out).toEqual([line('old-fee', '0', -20_000n), line('new-fee', '1', 40_000n)]);
  });

  it('merges phases of the same SKU before taking the difference', () => {
    const out = chargesToInvoice([line('fee', '1', 10n), line('fee', '1', 20n)], new Map());
    expect(out).toEqual([line('fee', '2', 30n)]);
  });

  it('invoices, over any sequence of finalizations, exactly the final cumulative amount', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 0n, max: 10n ** 20n }), { minLength: 1, maxLength: 6 }), (increments) => {
        let cumulative = 0n;
        const billed = new Map<string, Billed>();
        let invoiced = 0n;
        for (const increment of increments) {
          cumulative += increment;
          for (const delta of chargesToInvoice([line('calls', '1', cumulative)], billed)) invoiced += delta.amount_nanos;
          billed.set('calls', { quantity: '1', amount_nanos: invoiced });
        }
        expect(invoiced).toBe(cumulative);
      }),
    );
  });
});
