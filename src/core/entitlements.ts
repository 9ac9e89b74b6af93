/**
 * Entitlements (docs/entitlements.md): how much of a metered feature a customer has left in its
 * current period, and whether a request for a quantity is allowed. Quantities are exact decimals;
 * no clock (the caller's period and instants are parameters).
 */
import { addQuantity, compareQuantity, subtractQuantity, ZERO_QUANTITY, type Quantity } from './decimal.js';
import type { SkuPrice } from './pricing.js';

export type FeatureLimitBehavior = 'HardStop' | 'Overage';

export interface MeteredBalanceInput {
  /** The quantity included per period (plan version, overridden by contract or subscription). */
  included: Quantity;
  /** Quantity granted on top of it for this period (grants). */
  granted: Quantity;
  /** Usage of the period so far, as the period close bills it (never below zero). */
  usage: Quantity;
  /** Quantity held by open reservations. */
  held: Quantity;
  limit: FeatureLimitBehavior;
}

export interface MeteredBalance {
  /** included + granted. */
  available: Quantity;
  /** What is left: available − usage − held, never below zero. */
  balance: Quantity;
  /** Usage beyond what is available (billed by the overage SKU when the limit is Overage). */
  overage: Quantity;
  /** Whether one more unit is served: always with Overage, else while the balance is positive. */
  has_access: boolean;
}

const atLeastZero = (q: Quantity): Quantity => (q.coefficient < 0n ? ZERO_QUANTITY : q);

export function meteredBalance(input: MeteredBalanceInput): MeteredBalance {
  const available = addQuantity(input.included, input.granted);
  const balance = atLeastZero(subtractQuantity(subtractQuantity(available, input.usage), input.held));
  const overage = atLeastZero(subtractQuantity(input.usage, available));
  return { available, balance, overage, has_access: input.limit === 'Overage' || balance.coefficient > 0n };
}

/**
 * Whether `quantity` more is allowed: always under Overage (usage is billed, never refused), else
 * only when it fits in the balance (a quantity equal to the balance uses it up and is allowed).
 */
export function quantityAllowed(balance: MeteredBalance, limit: FeatureLimitBehavior, quantity: Quantity): boolean {
  return limit === 'Overage' || compareQuantity(quantity, balance.balance) <= 0;
}

/**
 * The quantity a usage SKU bills nothing for in a period (its free allowance), which is what an
 * Overage feature priced by it includes: Package `package_free_units`, the free leading tiers of a
 * Graduated price (unit and flat amounts zero), zero for PerUnit. Null for models whose charge is not
 * "usage beyond an allowance" (Flat, Volume, Committed, Percentage): they cannot price an overage.
 */
export function freeAllowance(sku: SkuPrice): bigint | null {
  switch (sku.pricing_model) {
    case 'PerUnit':
      return 0n;
    case 'Package':
      return sku.package_free_units ?? 0n;
    case 'Graduated': {
      let free = 0n;
      for (const tier of sku.tiers ?? []) {
        if (tier.unit_amount_nanos !== 0n || (tier.flat_amount_nanos ?? 0n) !== 0n || tier.up_to === null) break;
        free = tier.up_to;
      }
      return free;
    }
    default:
      return null;
  }
}
