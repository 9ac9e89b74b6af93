import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { combinedWithheld, spendCapWithheld, thresholdCrossed } from '../../../src/core/index.js';

const U = 1_000_000_000_000n;

describe('thresholdCrossed', () => {
  it('is crossed once spend reaches the threshold', () => {
    expect(thresholdCrossed(99n * U, 100n * U)).toBe(false);
    expect(thresholdCrossed(100n * U, 100n * U)).toBe(true);
    expect(thresholdCrossed(101n * U, 100n * U)).toBe(true);
  });
});

describe('spendCapWithheld', () => {
  it('withholds what exceeds the threshold on one invoice', () => {
    expect(spendCapWithheld({ thresholdNanos: 100n * U, chargedBeforeNanos: 0n, withheldBeforeNanos: 0n, currentNanos: 130n * U })).toBe(30n * U);
    expect(spendCapWithheld({ thresholdNanos: 100n * U, chargedBeforeNanos: 0n, withheldBeforeNanos: 0n, currentNanos: 100n * U })).toBe(0n);
  });

  it('counts what earlier invoices of the period charged, net of what they withheld', () => {
    // Progressive billing: 80 charged before, 40 now → only 20 fit.
    expect(spendCapWithheld({ thresholdNanos: 100n * U, chargedBeforeNanos: 80n * U, withheldBeforeNanos: 0n, currentNanos: 40n * U })).toBe(20n * U);
    // The earlier invoice already hit the cap: everything now is withheld.
    expect(spendCapWithheld({ thresholdNanos: 100n * U, chargedBeforeNanos: 150n * U, withheldBeforeNanos: 50n * U, currentNanos: 10n * U })).toBe(10n * U);
  });

  it('never withholds from a net credit', () => {
    expect(spendCapWithheld({ thresholdNanos: 100n * U, chargedBeforeNanos: 200n * U, withheldBeforeNanos: 100n * U, currentNanos: -5n * U })).toBe(0n);
  });

  it('property: across any split of a period into invoices, the charged total is min(spend, threshold)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 20n }), fc.array(fc.bigInt({ min: 0n, max: 10n ** 20n }), { minLength: 1, maxLength: 8 }), (threshold, invoices) => {
        let charged = 0n;
        let withheld = 0n;
        let billed = 0n;
        for (const current of invoices) {
          const w = spendCapWithheld({ thresholdNanos: threshold, chargedBeforeNanos: charged, withheldBeforeNanos: withheld, currentNanos: current });
          expect(w >= 0n && w <= current).toBe(true);
          charged += current;
          withheld += w;
          billed += current - w;
        }
        const spend = invoices.reduce((a, b) => a + b, 0n);
        expect(billed).toBe(spend < threshold ? spend : threshold);
      }),
    );
  });
});

describe('combinedWithheld', () => {
  it('takes the largest withholding, zero for none', () => {
    expect(combinedWithheld([])).toBe(0n);
    expect(combinedWithheld([3n, 9n, 0n])).toBe(9n);
  });
});
