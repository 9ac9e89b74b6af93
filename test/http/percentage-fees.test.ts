/**
 * The database's sum of Percentage fees (src/db/metering/percentage-fees.ts) against the pure core:
 * for random event amounts (numbers and decimal strings, up to 12 decimals, negatives and missing
 * amounts among them) and random terms, the one statement's exact sum is what the core's
 * percentageEventFee gives event by event, rounded the same once.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { percentageEventFee, percentageFeeQuantity, rateSku, roundRational, MAX_UNIT_AMOUNT, type Rational, type SkuPrice } from '../../src/core/index.js';
import { percentageFeeSums, type PercentageFeeSpec } from '../../src/db/metering/percentage-fees.js';
import { newId } from '../../src/ids.js';
import { makeCustomer } from '../support/fixtures.js';
import { expectJson, useHarness } from '../support/harness.js';

const h = useHarness();

const amountArb = fc.oneof(
  fc.tuple(fc.bigInt({ min: -(10n ** 6n), max: 10n ** 17n }), fc.integer({ min: 0, max: 12 })).map(([coefficient, scale]) => {
    const text = (coefficient < 0n ? -coefficient : coefficient).toString().padStart(scale + 1, '0');
    const decimal = scale === 0 ? text : `${text.slice(0, -scale)}.${text.slice(-scale)}`;
    return `${coefficient < 0n ? '-' : ''}${decimal}`;
  }),
  fc.integer({ min: 0, max: 1_000_000 }),
  fc.constant(null),
);

const termsArb = fc
  .tuple(fc.integer({ min: 0, max: 10_000 }), fc.bigInt({ min: 0n, max: MAX_UNIT_AMOUNT }), fc.option(fc.bigInt({ min: 0n, max: MAX_UNIT_AMOUNT })), fc.option(fc.bigInt({ min: 0n, max: MAX_UNIT_AMOUNT })))
  .map(([bps, fee, a, b]) => {
    const [min, max] = a !== null && b !== null && a > b ? [b, a] : [a, b];
    return { bps, fee, min, max };
  });

describe('Percentage fees summed by the database', () => {
  it('equal the core fees of every event, exactly, in one statement for several SKUs', async () => {
    const samples = fc.sample(fc.tuple(fc.array(amountArb, { minLength: 0, maxLength: 60 }), termsArb, termsArb), { numRuns: 4, seed: 26 });
    for (const [amounts, first, second] of samples) {
      const customerId = await makeCustomer(h.deps.db);
      const subscriptionId = newId();
      const events = amounts.map((amount) => ({
        id: newId(),
        event_type: 'pct_payment',
        customer_id: customerId,
        timestamp: '2026-03-10T00:00:00Z',
        properties: amount === null ? { other: 1 } : { amount },
      }));
      if (events.length > 0) expect(await expectJson<{ accepted_count: number }>(await h.request('POST', '/v1/events/batch', { body: { events } }))).toMatchObject({ accepted_count: events.length });

      const skus: SkuPrice[] = [first, second].map((t, i) => ({
        sku_id: `sku-${i}`,
        name: `Percentage ${i}`,
        pricing_model: 'Percentage',
        unit_amount_nanos: 0n,
        currency: 'USD',
        meter_event_type: 'pct_payment',
        percentage_bps: t.bps,
        amount_property: 'amount',
        per_event_fee_nanos: t.fee,
        ...(t.min === null ? {} : { per_event_minimum_nanos: t.min }),
        ...(t.max === null ? {} : { per_event_maximum_nanos: t.max }),
      }));
      const specs: PercentageFeeSpec[] = skus.map((sku) => ({
        skuId: sku.sku_id,
        eventType: 'pct_payment',
        property: 'amount',
        basisPoints: sku.percentage_bps as number,
        feeNanos: sku.per_event_fee_nanos as bigint,
        minimumNanos: sku.per_event_minimum_nanos ?? null,
        maximumNanos: sku.per_event_maximum_nanos ?? null,
      }));
      const sums = await percentageFeeSums(h.deps.db, specs, { customerId, subscriptionId }, new Date('2026-03-01T00:00:00Z'), new Date('2026-04-01T00:00:00Z'));

      for (const sku of skus) {
        // Σ of the core's exact fees over a common denominator (10^4 × 10^12 covers every event's).
        const den = 10n ** 16n;
        const exact = amounts.reduce((total, amount) => {
          const fee = amount === null ? null : percentageEventFee(sku, String(amount));
          return fee === null ? total : total + ((fee as Rational).num * den) / (fee as Rational).den;
        }, 0n);
        const line = rateSku(sku, percentageFeeQuantity(sums.get(sku.sku_id) as string));
        expect(line.amount_nanos).toBe(roundRational({ num: exact, den }));
        expect(percentageFeeQuantity(sums.get(sku.sku_id) as string)).toBe(percentageFeeQuantity(formatTimes10000(exact)));
      }
    }
  });
});

/** Σ fee × 10^16 as the decimal text of Σ fee × 10^4 (what the database returns, canonicalized by the shift). */
function formatTimes10000(times1e16: bigint): string {
  const whole = times1e16 / 10n ** 12n;
  const fraction = (times1e16 % 10n ** 12n).toString().padStart(12, '0');
  return `${whole}.${fraction}`;
}
