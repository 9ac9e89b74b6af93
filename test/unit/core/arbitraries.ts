import fc from 'fast-check';
import type { PricingModel, Quantity, SkuPrice, Tier } from '../../../src/core/index.js';

/** Non-negative prices from 0 up to 10^8 currency units (in raw units). */
export const price = fc.bigInt({ min: 0n, max: 10n ** 20n });

/** Quantities up to 10^12 units with 0–6 decimals. */
export const quantity: fc.Arbitrary<Quantity> = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: 6 }))
  .map(([coefficient, scale]) => ({ coefficient, scale }));

export function tiersArb(options: { nonDecreasing?: boolean } = {}): fc.Arbitrary<Tier[]> {
  return fc
    .array(fc.tuple(fc.bigInt({ min: 1n, max: 10_000n }), price, fc.option(price, { nil: undefined })), { minLength: 1, maxLength: 6 })
    .map((rows) => {
      let bound = 0n;
      let floorPrice = 0n;
      let floorFlat = 0n;
      return rows.map(([width, unit, flat], index): Tier => {
        bound += width;
        const unitPrice = options.nonDecreasing === true ? (floorPrice += unit / 8n) : unit;
        const flatAmount = flat === undefined ? undefined : options.nonDecreasing === true ? (floorFlat += flat / 8n) : flat;
        return {
          up_to: index === rows.length - 1 ? null : bound,
          unit_amount_nanos: unitPrice,
          ...(flatAmount === undefined ? {} : { flat_amount_nanos: flatAmount }),
        };
      });
    });
}

const base = (model: PricingModel, unit: bigint): SkuPrice => ({
  sku_id: `sku_${model}`,
  name: model,
  pricing_model: model,
  unit_amount_nanos: unit,
  currency: 'USD',
  meter_event_type: 'usage',
  tags: ['ai'],
});

/**
 * Any valid SKU with non-negative prices. Volume sheets have non-decreasing tier prices, the only
 * case where Volume is monotone in quantity (a cheaper higher tier is a deliberate cliff).
 */
export const sku: fc.Arbitrary<SkuPrice> = fc.oneof(
  price.map((unit) => base('Flat', unit)),
  price.map((unit) => base('PerUnit', unit)),
  tiersArb().map((tiers) => ({ ...base('Graduated', 0n), tiers })),
  tiersArb({ nonDecreasing: true }).map((tiers) => ({ ...base('Volume', 0n), tiers })),
  fc
    .tuple(price, fc.bigInt({ min: 1n, max: 1000n }), fc.constantFrom<'Up' | 'Down'>('Up', 'Down'))
    .map(([unit, size, rounding]) => ({ ...base('Package', unit), package_size: size, package_rounding: rounding })),
  fc
    .tuple(fc.bigInt({ min: 1n, max: 10n ** 16n }), price, price)
    .map(([unit, commit, overage]) => ({ ...base('Committed', unit), commit_amount_nanos: commit, overage_unit_amount_nanos: overage })),
);
