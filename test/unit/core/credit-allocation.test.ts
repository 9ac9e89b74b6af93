import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateCreditNote, allocationTotal, settledCreditable, type AllocationRequest, type CreditCapacity, ONE_UNIT as U } from '../../../src/core/index.js';

const cents = (n: number) => (BigInt(n) * U) / 100n;

describe('allocateCreditNote', () => {
  // The issue's invoice: 119.50, 50.00 drawn from the wallet, 10.00 already credited off the amount due.
  const issue: CreditCapacity = { remaining: cents(10950), amountDue: cents(5950), refundable: 0n };

  it('by default reduces the amount due first, then credits the settled rest to the customer balance', () => {
    expect(allocateCreditNote({ amount: cents(10000) }, issue)).toEqual({
      ok: true,
      allocation: { dueReduction: cents(5950), refund: 0n, credit: cents(4050), outOfBand: 0n },
    });
    expect(allocateCreditNote({ amount: cents(2000) }, issue)).toEqual({ ok: true, allocation: { dueReduction: cents(2000), refund: 0n, credit: 0n, outOfBand: 0n } });
  });

  it('refuses an amount beyond total − credited, naming the bound', () => {
    expect(allocateCreditNote({ amount: cents(10951) }, issue)).toMatchObject({ ok: false, violation: { bound: 'remaining', field: 'amount_nanos', limit: cents(10950) } });
  });

  it('refuses a due reduction beyond the amount due: 100.00 of which only 10.00 is credited to the balance', () => {
    expect(allocateCreditNote({ amount: cents(10000), credit: cents(1000) }, issue)).toMatchObject({
      ok: false,
      violation: { bound: 'amount_due', field: 'amount_nanos', limit: cents(6950) },
    });
    expect(allocateCreditNote({ amount: cents(10000), credit: cents(4050) }, issue)).toEqual({
      ok: true,
      allocation: { dueReduction: cents(5950), refund: 0n, credit: cents(4050), outOfBand: 0n },
    });
  });

  it('refuses a refund beyond what was collected and not refunded, and money given back beyond what was settled', () => {
    expect(allocateCreditNote({ amount: cents(1000), refund: cents(1000) }, issue)).toMatchObject({ ok: false, violation: { bound: 'refundable', field: 'refund_amount_nanos', limit: 0n } });
    expect(allocateCreditNote({ amount: cents(6000), outOfBand: cents(5001) }, issue)).toMatchObject({
      ok: false,
      violation: { bound: 'settled', field: 'out_of_band_amount_nanos', limit: cents(5000) },
    });
    expect(allocateCreditNote({ amount: cents(1000), credit: cents(600), outOfBand: cents(600) }, issue)).toMatchObject({
      ok: false,
      violation: { bound: 'parts_within_amount', field: 'out_of_band_amount_nanos' },
    });
    expect(allocateCreditNote({ amount: cents(1000), credit: -1n }, issue)).toMatchObject({ ok: false, violation: { bound: 'parts_within_amount', field: 'credit_amount_nanos' } });
  });

  it('on a Paid invoice (nothing due) credits the whole note to the balance by default', () => {
    expect(allocateCreditNote({ amount: cents(1500) }, { remaining: cents(4000), amountDue: 0n, refundable: cents(4000) })).toEqual({
      ok: true,
      allocation: { dueReduction: 0n, refund: 0n, credit: cents(1500), outOfBand: 0n },
    });
  });

  it('parts sum to the amount and each stays within its bound, or the note is refused (property)', () => {
    const money = fc.bigInt({ min: 0n, max: 10n ** 16n });
    const capacity = fc
      .record({ remaining: money, dueShare: fc.bigInt({ min: 0n, max: 1000n }), refundShare: fc.bigInt({ min: 0n, max: 1000n }) })
      .map(({ remaining, dueShare, refundShare }): CreditCapacity => {
        const amountDue = (remaining * dueShare) / 1000n;
        return { remaining, amountDue, refundable: ((remaining - amountDue) * refundShare) / 1000n };
      });
    const part = fc.option(money, { nil: undefined });
    const request = fc.record({ amount: fc.bigInt({ min: 1n, max: 10n ** 16n }), refund: part, credit: part, outOfBand: part }).map((r): AllocationRequest => r);
    fc.assert(
      fc.property(capacity, request, (cap, req) => {
        const result = allocateCreditNote(req, cap);
        if (!result.ok) {
          // A refusal names a bound the request really breaks.
          const given = (req.refund ?? 0n) + (req.credit ?? 0n) + (req.outOfBand ?? 0n);
          const named = req.refund !== undefined || req.credit !== undefined || req.outOfBand !== undefined;
          const broken = {
            remaining: req.amount > cap.remaining,
            parts_within_amount: given > req.amount,
            refundable: (req.refund ?? 0n) > cap.refundable,
            settled: given > settledCreditable(cap),
            amount_due: named && req.amount - given > cap.amountDue,
          }[result.violation.bound];
          expect(broken).toBe(true);
          return;
        }
        const a = result.allocation;
        expect(allocationTotal(a)).toBe(req.amount);
        expect([a.dueReduction, a.refund, a.credit, a.outOfBand].every((p) => p >= 0n)).toBe(true);
        expect(req.amount <= cap.remaining).toBe(true);
        expect(a.dueReduction <= cap.amountDue).toBe(true);
        expect(a.refund <= cap.refundable).toBe(true);
        expect(a.refund + a.credit + a.outOfBand <= settledCreditable(cap)).toBe(true);
        if (req.refund === undefined && req.credit === undefined && req.outOfBand === undefined) {
          // The default: the amount due first.
          expect(a.dueReduction).toBe(req.amount < cap.amountDue ? req.amount : cap.amountDue);
        } else {
          expect([a.refund, a.credit, a.outOfBand]).toEqual([req.refund ?? 0n, req.credit ?? 0n, req.outOfBand ?? 0n]);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('accepts every default note within total − credited (property)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 16n }), fc.bigInt({ min: 0n, max: 1000n }), fc.bigInt({ min: 1n, max: 1000n }), (remaining, dueShare, share) => {
        const cap = { remaining, amountDue: (remaining * dueShare) / 1000n, refundable: 0n };
        const amount = (remaining * share) / 1000n || 1n;
        expect(allocateCreditNote({ amount }, cap).ok).toBe(true);
      }),
    );
  });
});
