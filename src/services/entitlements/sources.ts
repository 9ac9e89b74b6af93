/**
 * Where a metered feature's balance comes from (docs/entitlements.md "One balance from every source"):
 * the included quantity, the customer's grants for the feature, and, for a feature whose overage an
 * SKU bills, money: the customer's wallet and its contract's commit, turned into units at that SKU's
 * price. The burn-down itself is pure (src/core/entitlements.ts); this module reads its inputs, from
 * rollups only (a grant that expired during the period needs the usage at its expiry: one more
 * rollup read, never a scan of raw events).
 */
import {
  addQuantity,
  burnDown,
  formatQuantity,
  parseQuantity,
  unitsMoneyCovers,
  ZERO_QUANTITY,
  type BurnDown,
  type Quantity,
  type QuantitySource,
  type SkuPrice,
} from '../../core/index.js';
import type { SqlReader } from '../../db/client.js';
import { findContract } from '../../db/contracts.js';
import { findSkuForFeature, periodGrants, type PeriodGrant } from '../../db/entitlements.js';
import { findWallet } from '../../db/wallets.js';
import { contractBalances } from '../contracts/lifecycle.js';
import type { ServiceDeps } from '../deps.js';

/** One source as a check or the entitlements list shows it. */
export interface SourceView {
  source: 'included' | 'grant' | 'wallet' | 'commit';
  grant_id?: string;
  /** What it gives this period (quantity sources); for money, the units the money left covers. */
  quantity: string;
  consumed: string;
  remaining: string;
  /** Money sources: the money left (raw units, scale 12). */
  money_nanos?: string;
  expires_at?: string | null;
}

/** What a period grant gives this period: a recurring one its quantity plus what rolled over; a one-off what is left of it. */
export function grantSource(grant: PeriodGrant): QuantitySource {
  const carried = grant.carried === null ? null : parseQuantity(grant.carried);
  const base = parseQuantity(grant.quantity);
  const quantity = grant.recurring ? (carried === null ? base : addQuantity(base, carried)) : (carried ?? base);
  return { id: grant.id, kind: 'grant', quantity, priority: grant.priority, expiresAtMs: grant.expires_at?.getTime() ?? null, createdAtMs: grant.created_at.getTime() };
}

/** The grants of each feature in its period, by feature id (one statement for all features). */
export async function grantsByFeature(read: SqlReader, customerId: string, periods: { featureId: string; periodStart: Date }[], now: Date): Promise<Map<string, PeriodGrant[]>> {
  const byFeature = new Map<string, PeriodGrant[]>();
  for (const grant of await periodGrants(read, customerId, periods, now)) byFeature.set(grant.feature_id, [...(byFeature.get(grant.feature_id) ?? []), grant]);
  return byFeature;
}

/**
 * The feature's burn-down this period: the included quantity, then its grants; `usageAt` reads the
 * period's usage up to a grant's expiry (called only for grants that expired during the period).
 */
export async function burnFeature(
  included: Quantity,
  grants: PeriodGrant[],
  usage: Quantity,
  now: Date,
  usageAt: (at: Date) => Promise<Quantity>,
): Promise<BurnDown> {
  const sources: QuantitySource[] = [{ id: 'included', kind: 'included', quantity: included, priority: 0, expiresAtMs: null, createdAtMs: 0 }, ...grants.map(grantSource)];
  const expiries = [...new Set(grants.filter((g) => g.expires_at !== null && g.expires_at <= now).map((g) => g.expires_at!.getTime()))];
  const atExpiry = new Map(await Promise.all(expiries.map(async (ms) => [ms, await usageAt(new Date(ms))] as const)));
  return burnDown(sources, usage, now.getTime(), (ms) => atExpiry.get(ms) ?? usage);
}

/** The quantity sources of a burn-down as views. */
export function quantitySourceViews(burnt: BurnDown, grants: PeriodGrant[]): SourceView[] {
  const expiry = new Map(grants.map((g) => [g.id, g.expires_at?.toISOString() ?? null]));
  return burnt.sources.map((s) => ({
    source: s.source.kind,
    ...(s.source.kind === 'grant' ? { grant_id: s.source.id, expires_at: expiry.get(s.source.id) ?? null } : {}),
    quantity: formatQuantity(s.source.quantity),
    consumed: formatQuantity(s.consumed),
    remaining: formatQuantity(s.remaining),
  }));
}

/** Money a feature billed by an overage SKU may draw on: the SKU's price, the wallet and the commit left. */
export interface MoneySources {
  units: Quantity;
  views: SourceView[];
}

/**
 * Units the customer's money still covers beyond the quantity sources, at the overage SKU's price
 * (PerUnit and Package prices; other models give none). Sources, in the order billing draws them:
 * the commit left in the contract's phase covering `now` (already net of the phase's usage charges,
 * this period's overage included), then the wallet in the subscription's currency (drawn only at
 * finalization, so this period's overage not absorbed by a commit is taken off it first).
 */
export async function moneySources(
  deps: Pick<ServiceDeps, 'db'>,
  customerId: string,
  input: { overageSkuId: string; currency: string; contractId: string | null; overage: Quantity; now: Date },
): Promise<MoneySources | null> {
  const sku = await findSkuForFeature(deps.db, input.overageSkuId);
  if (sku === null) return null;
  const price = sku.price;
  if (unitsMoneyCovers(price, 0n) === null) return null;
  const overageCost = costOf(price, input.overage);
  const [wallet, commit] = await Promise.all([findWallet(deps.db, customerId, input.currency), commitLeft(deps, input.contractId, input.now)]);
  const walletLeft = BigInt((wallet?.balanceNanos ?? 0).toString()) - (commit === null ? overageCost : 0n);
  const views: SourceView[] = [];
  let units = ZERO_QUANTITY;
  for (const [source, money] of [['commit', commit], ['wallet', wallet === null ? null : walletLeft]] as const) {
    if (money === null) continue;
    const left = money < 0n ? 0n : money;
    const covered = unitsMoneyCovers(price, left)!;
    units = addQuantity(units, covered);
    views.push({ source, quantity: formatQuantity(covered), consumed: '0', remaining: formatQuantity(covered), money_nanos: left.toString() });
  }
  return { units, views };
}

/** The cost of `overage` units at the SKU's price (whole units and packages, as unitsMoneyCovers counts them). */
function costOf(price: SkuPrice, overage: Quantity): bigint {
  const whole = overage.coefficient / 10n ** BigInt(overage.scale) + (overage.coefficient % 10n ** BigInt(overage.scale) === 0n ? 0n : 1n);
  if (price.pricing_model === 'Package') {
    const size = price.package_size ?? 1n;
    return ((whole + size - 1n) / size) * price.unit_amount_nanos;
  }
  return whole * price.unit_amount_nanos;
}

/** What is left of the commit of the Active contract's phase covering `now`; null without one. */
async function commitLeft(deps: Pick<ServiceDeps, 'db'>, contractId: string | null, now: Date): Promise<bigint | null> {
  if (contractId === null) return null;
  const contract = await findContract(deps.db, contractId);
  if (contract === null || contract.status !== 'Active') return null;
  const day = now.toISOString().slice(0, 10);
  const index = contract.terms.findIndex((t) => t.start_date <= day && day <= t.end_date);
  if (index < 0) return null;
  const balances = await contractBalances(deps.db, contract, now);
  return balances[index]?.remaining_nanos ?? null;
}
