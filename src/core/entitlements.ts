/**
 * Entitlements (docs/entitlements.md): how much of a metered feature a customer has left in its
 * current period, and whether a request for a quantity is allowed. Quantities are exact decimals;
 * no clock (the caller's period and instants are parameters).
 */
import { addQuantity, compareQuantity, quantityOf, subtractQuantity, ZERO_QUANTITY, type Quantity } from './decimal.js';
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

// ── One balance from every source (docs/entitlements.md "Where a balance comes from") ──

/** A quantity a metered feature's period draws on: the included quantity, or one grant. */
export interface QuantitySource {
  /** `included`, or the grant's id. */
  id: string;
  kind: 'included' | 'grant';
  /** What it gives this period (a grant: its quantity, or what is left of it, plus what rolled over). */
  quantity: Quantity;
  /** Grants: lower burns first. */
  priority: number;
  /** Grants: the instant it stops counting (ms); null: never. */
  expiresAtMs: number | null;
  /** Grants: when it was created (ms), the last tie-breaker. */
  createdAtMs: number;
}

/** One source after the burn-down: how much usage it absorbed and what it still gives. */
export interface BurntSource {
  source: QuantitySource;
  consumed: Quantity;
  remaining: Quantity;
  /** It expired during the period: it keeps what it absorbed before, and gives nothing more. */
  expired: boolean;
}

export interface BurnDown {
  sources: BurntSource[];
  /** Usage no source covered (overage). */
  uncovered: Quantity;
}

/**
 * The burn-down order: the included quantity first, then grants by priority (lower first), then by
 * expiry (sooner first, never-expiring last), then oldest first, then by id (a total order).
 */
export function burnOrder(a: QuantitySource, b: QuantitySource): number {
  if (a.kind !== b.kind) return a.kind === 'included' ? -1 : 1;
  if (a.priority !== b.priority) return a.priority - b.priority;
  const ae = a.expiresAtMs ?? Number.POSITIVE_INFINITY;
  const be = b.expiresAtMs ?? Number.POSITIVE_INFINITY;
  if (ae !== be) return ae < be ? -1 : 1;
  if (a.createdAtMs !== b.createdAtMs) return a.createdAtMs - b.createdAtMs;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

const minQuantity = (a: Quantity, b: Quantity): Quantity => (compareQuantity(a, b) <= 0 ? a : b);

/** Fills `sources` in burn order with `usage`; sources with a fixed consumption take theirs first. */
function allocate(sources: QuantitySource[], usage: Quantity, fixed: Map<string, Quantity>): { consumed: Map<string, Quantity>; uncovered: Quantity } {
  let left = usage.coefficient < 0n ? ZERO_QUANTITY : usage;
  const consumed = new Map<string, Quantity>();
  for (const [id, q] of fixed) {
    consumed.set(id, q);
    left = atLeastZero(subtractQuantity(left, q));
  }
  for (const source of sources) {
    if (fixed.has(source.id)) continue;
    const take = minQuantity(atLeastZero(source.quantity), left);
    consumed.set(source.id, take);
    left = subtractQuantity(left, take);
  }
  return { consumed, uncovered: left };
}

/**
 * Burns the period's usage down the sources in burn order. A grant that expired during the period
 * keeps the usage it had absorbed when it expired (`usageAt(expiry)` gives the period's usage at that
 * instant) and gives nothing after; later usage goes to the sources still counting. Pure: the caller
 * reads the usage at each expiry (rollups, never raw events).
 */
export function burnDown(sources: QuantitySource[], usage: Quantity, nowMs: number, usageAt: (atMs: number) => Quantity = () => usage): BurnDown {
  const ordered = [...sources].sort(burnOrder);
  const expiries = [...new Set(ordered.filter((s) => s.expiresAtMs !== null && s.expiresAtMs <= nowMs).map((s) => s.expiresAtMs!))].sort((a, b) => a - b);
  const fixed = new Map<string, Quantity>();
  for (const at of expiries) {
    const live = ordered.filter((s) => s.expiresAtMs === null || s.expiresAtMs >= at);
    const { consumed } = allocate(live, usageAt(at), fixed);
    for (const source of ordered) if (source.expiresAtMs === at) fixed.set(source.id, consumed.get(source.id) ?? ZERO_QUANTITY);
  }
  const { consumed, uncovered } = allocate(ordered, usage, fixed);
  return {
    uncovered,
    sources: ordered.map((source) => {
      const expired = source.expiresAtMs !== null && source.expiresAtMs <= nowMs;
      const used = consumed.get(source.id) ?? ZERO_QUANTITY;
      return { source, consumed: used, remaining: expired ? ZERO_QUANTITY : atLeastZero(subtractQuantity(source.quantity, used)), expired };
    }),
  };
}

/**
 * What a recurring grant carries into the next period: what is left of it, at most its rollover cap
 * (no cap: nothing rolls over). A one-off grant carries all that is left of it (until it expires).
 */
export function carriedOver(remaining: Quantity, recurring: boolean, rolloverCap: Quantity | null): Quantity {
  if (!recurring) return atLeastZero(remaining);
  if (rolloverCap === null) return ZERO_QUANTITY;
  return minQuantity(atLeastZero(remaining), atLeastZero(rolloverCap));
}

/**
 * How many units of a feature money covers at its overage SKU's price: PerUnit, whole units of
 * `unit_amount_nanos`; Package, whole packages of `package_size` units at `unit_amount_nanos` each.
 * Other models (Graduated tiers) have no single price for the next unit: null (money is no source).
 */
export function unitsMoneyCovers(sku: Pick<SkuPrice, 'pricing_model' | 'unit_amount_nanos' | 'package_size'>, moneyNanos: bigint): Quantity | null {
  const money = moneyNanos < 0n ? 0n : moneyNanos;
  if (sku.unit_amount_nanos <= 0n) return null;
  if (sku.pricing_model === 'PerUnit') return quantityOf(money / sku.unit_amount_nanos);
  if (sku.pricing_model === 'Package') return quantityOf((money / sku.unit_amount_nanos) * (sku.package_size ?? 1n));
  return null;
}
