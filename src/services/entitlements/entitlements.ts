/**
 * Entitlements (docs/entitlements.md): what each feature of the catalog gives a customer now, and
 * whether a product may serve it one more request.
 *
 * - Terms: the plan version's attachment of the feature, overridden field by field by the
 *   subscription's contract and then by the subscription itself.
 * - Usage: the feature's meter over the subscription's current billing period, read exactly as the
 *   period close reads it (rollups plus the tail not rolled up yet; the SKU's meter with its filters
 *   and window), never a scan of the period's raw events.
 * - Balance: included − usage − reserved, never below zero (src/core/entitlements.ts); it resets with
 *   the period because it is computed per current period.
 * - Reservations: `check` with `reserve: true` holds the quantity (default 60 s, wall-clock time);
 *   a usage event with `properties.reservation_id` commits it, expiry releases it. Holds of one
 *   customer's feature are decided one at a time (an advisory lock), so they never exceed the balance.
 */
import { addQuantity, formatQuantity, meteredBalance, parseQuantity, quantityAllowed, subtractQuantity, ZERO_QUANTITY, type FeatureLimitBehavior, type Quantity, type SkuPrice } from '../../core/index.js';
import { poolReader, preparedReader, prismaReader, type SqlReader } from '../../db/client.js';
import { customerIdsByExternalId } from '../../db/customers.js';
import {
  commitReservations,
  findFeatureByKey,
  heldQuantities,
  insertReservation,
  lockBalance,
  readEntitlementRows,
  claimPeriodEvent,
  periodEventWritten,
  type EntitlementMeter,
  type EntitlementRow,
  type FeatureKind,
  type FeatureValue,
  type OverrideTerms,
} from '../../db/entitlements.js';
import { cursorKey } from '../../db/metering/aggregators.js';
import { recentCursors } from '../../db/metering/aggregates.js';
import { DomainError, validation } from '../../errors.js';
import { Coalescer } from '../coalescer.js';
import { ReadCache } from '../read-cache.js';
import { enqueueEvent } from '../outbox.js';
import { newId } from '../../ids.js';
import type { EntitlementCheckView, EntitlementListView, FeatureEntitlementView } from '../../schemas/entitlements.js';
import { refuseOtherCustomer, spendBlocked } from '../alerts/spend-alerts.js';
import type { ServiceDeps } from '../deps.js';
import { atLeastZero, meterQuantities, resolveMetersWith, type BillingMeter, type MeterLookups } from '../metering/usage.js';
import { burnFeature, grantsByFeature, moneySources, quantitySourceViews } from './sources.js';

/** How long a reservation holds its quantity unless the check names another TTL. */
export const DEFAULT_RESERVATION_TTL_SECONDS = 60;
export const MAX_RESERVATION_TTL_SECONDS = 3_600;

/** One feature as one subscription gives it, terms merged. */
export interface Grant {
  row: EntitlementRow;
  enabled: boolean;
  limit: FeatureLimitBehavior | null;
  included: Quantity;
  value: FeatureValue | null;
  source: 'plan' | 'contract' | 'subscription';
}

/** The plan's terms overridden by the contract's, then the subscription's (a field left null keeps the one below). */
export function mergeTerms(row: EntitlementRow): Grant {
  const layers: (OverrideTerms | null)[] = [row.subscription, row.contract];
  const pick = <K extends keyof OverrideTerms>(field: K): OverrideTerms[K] | null => {
    for (const layer of layers) if (layer !== null && layer[field] !== null) return layer[field];
    return row.plan?.[field] ?? null;
  };
  const metered = row.kind === 'Metered';
  const limit = metered ? (pick('limit') ?? 'HardStop') : null;
  // An Overage feature includes its overage SKU's free allowance: the price, not an override, decides it.
  const overagePriced = limit === 'Overage' && row.plan?.limit === 'Overage';
  const included = metered ? parseQuantity((overagePriced ? row.plan!.included_quantity : pick('included_quantity')) ?? '0') : ZERO_QUANTITY;
  return {
    row,
    enabled: pick('enabled') ?? true,
    limit,
    included,
    value: row.kind === 'Static' ? pick('value') : null,
    source: row.subscription !== null ? 'subscription' : row.contract !== null ? 'contract' : 'plan',
  };
}

/**
 * The meter of each Metered feature, resolved exactly as a SKU naming it would be (resolveSkuMeters),
 * from the meter rows its entitlement rows carry (no statement of its own).
 */
export async function featureMeters(rows: EntitlementRow[]): Promise<Map<string, BillingMeter>> {
  const probes = new Map<string, SkuPrice>();
  // The meter rows the entitlement rows carry: those named by id, and each event type's first.
  const named = new Map<string, EntitlementMeter>();
  const firsts = new Map<string, EntitlementMeter>();
  for (const row of rows) {
    if (row.kind !== 'Metered' || probes.has(row.feature_id)) continue;
    probes.set(row.feature_id, {
      sku_id: row.feature_id,
      name: row.key,
      pricing_model: 'PerUnit',
      unit_amount_nanos: 0n,
      currency: 'XXX',
      meter_event_type: row.meter_event_type!,
      ...(row.meter_id === null ? {} : { meter_id: row.meter_id }),
    });
    if (row.meter !== null) (row.meter_id === null ? firsts.set(row.meter_event_type!, row.meter) : named.set(row.meter_id, row.meter));
  }
  if (probes.size === 0) return new Map();
  const pick = (from: Map<string, EntitlementMeter>, keys: string[]) => new Map(keys.flatMap((key) => (from.has(key) ? [[key, from.get(key)!] as const] : [])));
  const lookups: MeterLookups = { byIds: async (ids) => pick(named, ids), first: async (types) => pick(firsts, types) };
  const resolved = await resolveMetersWith([...probes.values()], lookups);
  const byKey = new Map(resolved.meters.map((m) => [m.key, m]));
  return new Map(resolved.skus.map((sku) => [sku.sku_id, byKey.get(sku.meter!.meter_id)!]));
}

/** Each Metered feature's usage in each subscription's current period: one quantity read per subscription. */
async function usageBySubscription(read: SqlReader, customerId: string, grants: Grant[], meters: Map<string, BillingMeter>, hints: Map<string, bigint>): Promise<Map<string, Record<string, string>>> {
  const bySubscription = new Map<string, { row: EntitlementRow; meters: Map<string, BillingMeter> }>();
  for (const grant of grants) {
    const meter = meters.get(grant.row.feature_id);
    if (meter === undefined) continue;
    let entry = bySubscription.get(grant.row.subscription_id);
    if (!entry) bySubscription.set(grant.row.subscription_id, (entry = { row: grant.row, meters: new Map() }));
    entry.meters.set(meter.key, meter);
  }
  if (bySubscription.size === 0) return new Map();
  const reads = [...bySubscription].map(async ([subscriptionId, { row, meters: own }]) => {
    const scope = { customerId, subscriptionId };
    const quantities = await meterQuantities(read, [...own.values()], scope, { from: row.period_start, to: row.period_end }, hints);
    return [subscriptionId, atLeastZero(quantities)] as const;
  });
  return new Map(await Promise.all(reads));
}

const valueOf = (grants: Grant[]): { value?: FeatureValue } => {
  const value = grants.find((g) => g.value !== null)?.value;
  return value === undefined || value === null ? {} : { value };
};

interface Computed {
  view: FeatureEntitlementView;
  limit: FeatureLimitBehavior | null;
  balance: ReturnType<typeof meteredBalance> | null;
  enabled: boolean;
  usage: Quantity;
  included: Quantity;
  /** What the grants give this period (an expired one: what it absorbed). */
  granted: Quantity;
  /** Units money (wallet, commit) still covers beyond the quantity sources. */
  moneyUnits: Quantity;
  /** The feature's period (that of its subscription ending first). */
  period: { start: Date; end: Date } | null;
}

/** The balance with `held` reserved: the quantity sources' balance plus the units money covers. */
function balanceWith(c: Pick<Computed, 'included' | 'granted' | 'usage' | 'moneyUnits' | 'limit'>, held: Quantity): ReturnType<typeof meteredBalance> {
  const quantity = meteredBalance({ included: c.included, granted: c.granted, usage: c.usage, held, limit: c.limit! });
  if (c.moneyUnits.coefficient === 0n) return quantity;
  // Money covers units past the quantity sources (net of this period's overage): holds the quantity sources cannot take draw on it.
  const free = subtractQuantity(addQuantity(c.included, c.granted), c.usage);
  const heldBeyond = subtractQuantity(held, free.coefficient < 0n ? ZERO_QUANTITY : free);
  const money = subtractQuantity(c.moneyUnits, heldBeyond.coefficient < 0n ? ZERO_QUANTITY : heldBeyond);
  const left = money.coefficient < 0n ? quantity.balance : addQuantity(quantity.balance, money);
  return { ...quantity, balance: left, has_access: quantity.has_access || left.coefficient > 0n };
}

/**
 * Rollup cursor hints of the checks (and lists), read at most once a second: a lagging hint is exact
 * (see recentCursors), and a check then needs no statement for them.
 */
const checkHints = recentCursors(1_000);

/**
 * The customer's entitlements at business time `now`, with holds open at wall-clock `wallNow`;
 * `blocked` (whether a HardLimit alert blocks the customer) is awaited together with the first read.
 */
async function computeEntitlements(deps: ServiceDeps, read: SqlReader, customerId: string, featureKey: string | null, wallNow: Date, blocking: boolean | Promise<boolean>): Promise<Computed[]> {
  const [rows, blocked] = await Promise.all([readEntitlementRows(read, customerId, featureKey), blocking]);
  const grants = rows.map(mergeTerms);
  const meters = await featureMeters(rows);
  const byFeature = new Map<string, Grant[]>();
  for (const grant of grants) byFeature.set(grant.row.feature_id, [...(byFeature.get(grant.row.feature_id) ?? []), grant]);
  // Each metered feature's period: that of its enabled subscription ending first (its resets_at).
  const periodOf = new Map<string, EntitlementRow>();
  for (const [featureId, all] of byFeature) {
    const first = all.filter((g) => g.enabled && g.limit !== null).sort((a, b) => a.row.period_end.getTime() - b.row.period_end.getTime())[0];
    if (first !== undefined) periodOf.set(featureId, first.row);
  }
  // The customer's time: its test clock's when on one (its subscriptions share it).
  const customerNow = rows[0]?.clock_time ?? wallNow;
  const hints = meters.size === 0 ? new Map<string, bigint>() : await checkHints(read, [...new Set([...meters.values()].map((m) => cursorKey(m.spec)))]);
  const [usage, held, grantRows] = await Promise.all([
    usageBySubscription(read, customerId, grants, meters, hints),
    heldQuantities(read, customerId, [...periodOf.keys()], wallNow),
    grantsByFeature(read, customerId, [...periodOf].map(([featureId, row]) => ({ featureId, periodStart: row.period_start })), customerNow),
  ]);
  return Promise.all(
    [...byFeature.values()].map(async (all): Promise<Computed> => {
      const first = all[0]!;
      // Several subscriptions giving one feature add up; the feature is on while any of them has it on.
      const on = all.filter((g) => g.enabled);
      const enabled = on.length > 0;
      const limit: FeatureLimitBehavior | null = first.limit === null ? null : on.some((g) => g.limit === 'Overage') ? 'Overage' : 'HardStop';
      const meter = meters.get(first.row.feature_id);
      const sum = (pick: (g: Grant) => Quantity) => on.reduce((total, g) => addQuantity(total, pick(g)), ZERO_QUANTITY);
      const used = meter === undefined ? ZERO_QUANTITY : sum((g) => parseQuantity(usage.get(g.row.subscription_id)?.[meter.key] ?? '0'));
      const included = sum((g) => g.included);
      const periodRow = periodOf.get(first.row.feature_id);
      const featureGrants = periodRow === undefined ? [] : (grantRows.get(first.row.feature_id) ?? []);
      const burnt =
        periodRow === undefined
          ? null
          : await burnFeature(included, featureGrants, used, customerNow, async (at) =>
              meter === undefined ? ZERO_QUANTITY : usageUntil(read, customerId, on, meter, periodRow.period_start, at, hints),
            );
      const granted = (burnt?.sources ?? []).filter((s) => s.source.kind === 'grant').reduce((total, s) => addQuantity(total, s.expired ? s.consumed : s.source.quantity), ZERO_QUANTITY);
      const heldNow = parseQuantity(held.get(first.row.feature_id) ?? '0');
      const quantityOnly = limit === null ? null : meteredBalance({ included, granted, usage: used, held: heldNow, limit });
      const overageSkuId = on.find((g) => g.limit === 'Overage' && g.row.plan?.overage_sku_id)?.row.plan?.overage_sku_id ?? null;
      const money =
        limit === 'Overage' && overageSkuId !== null && periodRow !== undefined
          ? await moneySources(deps, customerId, { overageSkuId, currency: periodRow.currency, contractId: periodRow.contract_id, overage: quantityOnly!.overage, now: customerNow })
          : null;
      const moneyUnits = money?.units ?? ZERO_QUANTITY;
      const computed = { included, granted, usage: used, moneyUnits, limit };
      const balance = limit === null ? null : balanceWith(computed, heldNow);
      const metered = balance !== null;
      const text = (q: Quantity | undefined) => (metered && q !== undefined ? formatQuantity(q) : null);
      const resetsAt = periodRow?.period_end.toISOString() ?? null;
      return {
        ...computed,
        balance,
        enabled,
        period: periodRow === undefined ? null : { start: periodRow.period_start, end: periodRow.period_end },
        view: {
          feature: first.row.key,
          feature_id: first.row.feature_id,
          kind: first.row.kind,
          has_access: enabled && (balance === null || (balance.has_access && !blocked)),
          ...valueOf(on),
          limit,
          usage: text(used),
          included: text(included),
          granted: text(granted),
          reserved: text(heldNow),
          balance: text(balance?.balance),
          overage: text(balance?.overage),
          resets_at: metered ? resetsAt : null,
          sources: burnt === null || !metered ? [] : [...quantitySourceViews(burnt, featureGrants), ...(money?.views ?? [])],
          subscription_ids: all.map((g) => g.row.subscription_id),
          source: all.some((g) => g.source === 'subscription') ? 'subscription' : all.some((g) => g.source === 'contract') ? 'contract' : 'plan',
        },
      };
    }),
  );
}

/** The feature's usage over [from, to) across the subscriptions giving it (rollups, as the period close reads them). */
export async function usageUntil(read: SqlReader, customerId: string, on: Grant[], meter: BillingMeter, from: Date, to: Date, hints: Map<string, bigint>): Promise<Quantity> {
  const values = await Promise.all(
    on.map(async (g) => parseQuantity(atLeastZero(await meterQuantities(read, [meter], { customerId, subscriptionId: g.row.subscription_id }, { from, to }, hints))[meter.key] ?? '0')),
  );
  return values.reduce(addQuantity, ZERO_QUANTITY);
}

/**
 * Every feature the customer's open subscriptions give it, with access, usage and balance of the
 * current period. A customer token reads only its own customer (any other is 404). The one read
 * model of entitlements: other views (a customer portal) call this.
 */
export async function listEntitlements(deps: ServiceDeps, customerId: string, ownCustomerId?: string): Promise<EntitlementListView> {
  const read = preparedReader(deps.pool);
  const computed = await computeEntitlements(deps, read, customerId, null, deps.clock(), spendBlocked(read, customerId, ownCustomerId));
  return { customer_id: customerId, as_of: deps.clock().toISOString(), entitlements: computed.map((c) => c.view) };
}

export interface CheckInput {
  customer_id?: string | undefined;
  external_customer_id?: string | undefined;
  feature: string;
  quantity?: string | undefined;
  reserve?: boolean | undefined;
  ttl_seconds?: number | undefined;
}

async function customerOf(deps: ServiceDeps, input: CheckInput): Promise<string> {
  if (input.customer_id !== undefined) return input.customer_id;
  const id = (await customerIdsByExternalId(deps.db, [input.external_customer_id!])).get(input.external_customer_id!);
  if (id === undefined) throw new DomainError('not_found', 'customer_not_found', `no customer has external_id ${JSON.stringify(input.external_customer_id)}`, { external_customer_id: input.external_customer_id });
  return id;
}

const MESSAGES = {
  feature_not_included: 'no open subscription of the customer includes this feature',
  feature_disabled: 'the feature is switched off for the customer',
  limit_reached: 'the quantity exceeds what is left of the feature in this period',
  customer_blocked: 'a HardLimit spend alert of the customer is triggered',
} as const;

/**
 * May the customer use `quantity` more of the feature? With `reserve: true` (Metered features) an
 * allowed quantity is also held until a usage event names the reservation or the TTL passes.
 */
export async function checkEntitlement(deps: ServiceDeps, input: CheckInput, ownCustomerId?: string): Promise<EntitlementCheckView> {
  const customerId = await customerOf(deps, input);
  // Before the kept answers are looked at: a customer token reads only its own customer.
  refuseOtherCustomer(customerId, ownCustomerId);
  const quantityText = input.quantity ?? '1';
  const quantity = parseQuantity(quantityText);
  const wallNow = deps.clock();
  const { found, feature, blocked } = input.reserve ? await featureStanding(deps, customerId, input.feature, wallNow) : await cachedFeatureStanding(deps, customerId, input.feature, wallNow);
  if (input.reserve && feature.kind !== 'Metered') throw validation('reserve', `only Metered features are reserved; ${input.feature} is ${feature.kind}`);
  const answer = (reason: keyof typeof MESSAGES | null, computed: Computed | undefined, reservation: EntitlementCheckView['reservation'] = null): EntitlementCheckView => ({
    allowed: reason === null,
    customer_id: customerId,
    feature: input.feature,
    quantity: formatQuantity(quantity),
    reason,
    message: reason === null ? null : MESSAGES[reason],
    balance: computed?.view.balance ?? null,
    usage: computed?.view.usage ?? null,
    included: computed?.view.included ?? null,
    granted: computed?.view.granted ?? null,
    resets_at: computed?.view.resets_at ?? null,
    sources: computed?.view.sources ?? [],
    reservation,
  });
  if (found === undefined || feature.archived) return answer('feature_not_included', undefined);
  if (!found.enabled) return answer('feature_disabled', found);
  if (found.balance === null) return answer(null, found);
  if (blocked) return answer('customer_blocked', found);
  if (!input.reserve) return answer(quantityAllowed(found.balance, found.limit!, quantity) ? null : 'limit_reached', found);
  return reserve(deps, customerId, found, quantity, input.ttl_seconds ?? DEFAULT_RESERVATION_TTL_SECONDS, wallNow, answer);
}

/** What a check of one feature decides on: the feature as the customer's subscriptions give it, the feature itself, the spend block. */
interface FeatureStanding {
  found: Computed | undefined;
  feature: { kind: FeatureKind; archived: boolean };
  blocked: boolean;
}

/**
 * The feature's standing for the customer, read fresh (2 statements at once, then the period's usage,
 * holds and grants at once; the feature's own row only when no subscription gives it); a used-up
 * balance is announced (entitlement.exhausted) on the way.
 */
async function featureStanding(deps: ServiceDeps, customerId: string, featureKey: string, wallNow: Date): Promise<FeatureStanding> {
  const read = preparedReader(deps.pool);
  const blocking = spendBlocked(read, customerId);
  const [found] = await computeEntitlements(deps, read, customerId, featureKey, wallNow, blocking);
  const blocked = await blocking;
  const feature = found === undefined ? await findFeatureByKey(read, featureKey) : { kind: found.view.kind, archived: false };
  if (feature === null) throw new DomainError('not_found', 'feature_not_found', `no feature has key ${JSON.stringify(featureKey)}`, { feature: featureKey });
  if (found !== undefined && found.enabled && found.balance !== null) await announceExhausted(deps, customerId, [found]);
  return { found, feature, blocked };
}

/** Plain checks' standings by feature, kept for ENTITLEMENT_CHECK_CACHE_MS (src/services/read-cache.ts); off when it is 0. */
const checkCache = new ReadCache<FeatureStanding>();

/** featureStanding through the check cache. */
async function cachedFeatureStanding(deps: ServiceDeps, customerId: string, featureKey: string, wallNow: Date): Promise<FeatureStanding> {
  const maxAgeMs = deps.settings.entitlementCheckCacheMs ?? 0;
  if (maxAgeMs <= 0) return featureStanding(deps, customerId, featureKey, wallNow);
  const nowMs = wallNow.getTime();
  const kept = checkCache.get(customerId, featureKey, nowMs, maxAgeMs);
  if (kept !== undefined) return kept;
  const generation = checkCache.generation(customerId);
  const standing = await featureStanding(deps, customerId, featureKey, wallNow);
  checkCache.set(customerId, featureKey, generation, standing, nowMs);
  return standing;
}

/** The customers' kept check answers are stale (their usage was stored, a reservation of theirs held or committed). */
export function forgetEntitlementChecks(customerIds: Iterable<string>): void {
  checkCache.forgetCustomers(customerIds);
}

/** Every kept check answer is stale (grants or overrides changed). */
export function forgetAllEntitlementChecks(): void {
  checkCache.forgetAll();
}

/** Holds the quantity when it fits what is left once the holds open now are counted (under the balance's lock). */
async function reserve(
  deps: ServiceDeps,
  customerId: string,
  found: Computed,
  quantity: Quantity,
  ttlSeconds: number,
  wallNow: Date,
  answer: (reason: 'limit_reached' | null, computed: Computed, reservation?: EntitlementCheckView['reservation']) => EntitlementCheckView,
): Promise<EntitlementCheckView> {
  const featureId = found.view.feature_id;
  const decided = await deps.db.$transaction(async (tx) => {
    await lockBalance(tx, customerId, featureId);
    const held = parseQuantity((await heldQuantities(prismaReader(tx), customerId, [featureId], wallNow)).get(featureId) ?? '0');
    const limit = found.limit!;
    const before = balanceWith(found, held);
    const now = { ...found, view: { ...found.view, balance: formatQuantity(before.balance), reserved: formatQuantity(held) } };
    if (!quantityAllowed(before, limit, quantity)) return answer('limit_reached', now);
    const id = newId();
    const expiresAt = new Date(wallNow.getTime() + ttlSeconds * 1000);
    await insertReservation(tx, { id, customerId, featureId, quantity: formatQuantity(quantity), expiresAt, createdAt: wallNow });
    const after = balanceWith(found, addQuantity(held, quantity));
    return answer(null, { ...now, view: { ...now.view, balance: formatQuantity(after.balance) } }, { id, quantity: formatQuantity(quantity), expires_at: expiresAt.toISOString() });
  });
  // After the commit: a plain check computing meanwhile keeps nothing (see ReadCache).
  if (decided.reservation !== null) forgetEntitlementChecks([customerId]);
  return decided;
}

/**
 * Usage events named these reservations (`properties.reservation_id`): they are committed (their hold
 * ends, the event's usage counts instead). Ids of other customers' reservations, unknown ones and
 * committed ones change nothing.
 */
export async function commitUsedReservations(deps: ServiceDeps, uses: { customerId: string; reservationId: string }[]): Promise<number> {
  const named = uses.filter((u) => UUID.test(u.reservationId));
  if (named.length === 0) return 0;
  const committed = await deps.db.$transaction((tx) => commitReservations(tx, named, deps.clock()));
  forgetEntitlementChecks(named.map((u) => u.customerId));
  return committed.length;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * entitlement.exhausted, once per customer, feature and period: when the period's usage has used up
 * every source of a metered feature (its balance, reservations left aside, is zero). A check and the
 * usage reaction (noteUsageForEntitlements) both announce it; the first one claims the period's row
 * and writes the outbox event in the same transaction, later ones find the row and write nothing.
 */
async function announceExhausted(deps: ServiceDeps, customerId: string, features: Computed[]): Promise<void> {
  const read = poolReader(deps.pool);
  for (const c of features) {
    if (c.limit === null || c.period === null || !c.enabled || balanceWith(c, ZERO_QUANTITY).balance.coefficient !== 0n) continue;
    const period = c.period;
    if (await periodEventWritten(read, customerId, c.view.feature_id, period.start, 'exhausted')) continue;
    await deps.db.$transaction(async (tx) => {
      const at = deps.clock();
      if (!(await claimPeriodEvent(tx, { customerId, featureId: c.view.feature_id, periodStart: period.start, kind: 'exhausted', at }))) return;
      await enqueueEvent(
        tx,
        'entitlement.exhausted',
        customerId,
        {
          customer_id: customerId,
          feature: c.view.feature,
          feature_id: c.view.feature_id,
          limit: c.limit,
          usage: formatQuantity(c.usage),
          included: formatQuantity(c.included),
          granted: formatQuantity(c.granted),
          overage: c.view.overage,
          period_start: period.start.toISOString(),
          resets_at: period.end.toISOString(),
        },
        at,
      );
    });
  }
}

/** Usage of these customers was stored: their metered features are looked at once per window, and a used-up one announced. */
const exhaustionChecks = new Coalescer<ServiceDeps>(250, (deps, customerIds) => {
  void Promise.all(
    customerIds.map(async (customerId) => {
      try {
        const computed = await computeEntitlements(deps, preparedReader(deps.pool), customerId, null, deps.clock(), false);
        await announceExhausted(deps, customerId, computed);
      } catch (err) {
        deps.logger.warn({ err, customerId }, 'could not look for used-up entitlements after usage');
      }
    }),
  );
});

export function noteUsageForEntitlements(deps: ServiceDeps, customerIds: Iterable<string>): void {
  const ids = [...customerIds];
  forgetEntitlementChecks(ids);
  exhaustionChecks.note(deps.db, deps, ids);
}
