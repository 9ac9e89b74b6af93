/**
 * Entitlements repository (docs/entitlements.md): features, their plan-version attachments and
 * overrides, reservations, and the one read a check needs. Reservations are decided under a
 * transaction-scoped advisory lock per customer and feature, so concurrent checks of one balance
 * are serialized and never hold more than it has.
 */
import { Prisma, type EntitlementGrant, type Feature, type FeatureKind, type FeatureLimit, type FeatureOverride, type MeterAggregation, type MeterWindow, type PlanFeature } from '../generated/prisma/client.js';
import type { DbClient, SqlReader } from './client.js';
import { NEWEST_FIRST, pageWhere, type PageQuery } from './pages.js';
import { isPrismaError, toSkuPrice } from './catalog.js';
import type { SkuPrice } from '../core/index.js';
import { conflict } from '../errors.js';

export type { FeatureKind, FeatureLimit };
export type FeatureValue = number | string | boolean;

export interface FeatureRecord {
  id: string;
  key: string;
  name: string;
  kind: FeatureKind;
  meter_id: string | null;
  meter_event_type: string | null;
  unit: string;
  archived_at: string | null;
  created_at: string;
}

const toFeatureRecord = (row: Feature): FeatureRecord => ({
  id: row.id,
  key: row.key,
  name: row.name,
  kind: row.kind,
  meter_id: row.meterId,
  meter_event_type: row.meterEventType,
  unit: row.unit,
  archived_at: row.archivedAt?.toISOString() ?? null,
  created_at: row.createdAt.toISOString(),
});

/** A stored decimal quantity as canonical text ("1000", "0.5"). */
export const quantityText = (value: Prisma.Decimal): string => {
  const text = value.toFixed();
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
};

export type NewFeature = Omit<FeatureRecord, 'archived_at' | 'created_at'>;

export async function insertFeature(tx: DbClient, feature: NewFeature): Promise<FeatureRecord> {
  try {
    const row = await tx.feature.create({
      data: { id: feature.id, key: feature.key, name: feature.name, kind: feature.kind, meterId: feature.meter_id, meterEventType: feature.meter_event_type, unit: feature.unit },
    });
    return toFeatureRecord(row);
  } catch (err) {
    if (isPrismaError(err, 'P2002')) throw conflict('feature_key_taken', `a feature with key ${feature.key} exists`, { key: feature.key });
    throw err;
  }
}

export async function findFeature(tx: DbClient, id: string): Promise<FeatureRecord | null> {
  const row = await tx.feature.findUnique({ where: { id } });
  return row === null ? null : toFeatureRecord(row);
}

export async function lockFeature(tx: DbClient, id: string): Promise<FeatureRecord | null> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id::text FROM features WHERE id = ${id}::uuid FOR UPDATE`;
  return rows.length === 0 ? null : findFeature(tx, id);
}

export async function listFeatureRows(tx: DbClient, query: PageQuery): Promise<FeatureRecord[]> {
  const rows = await tx.feature.findMany({ where: pageWhere(query), orderBy: NEWEST_FIRST, take: query.limit + 1 });
  return rows.map(toFeatureRecord);
}

export async function archiveFeatureRow(tx: DbClient, id: string, at: Date): Promise<FeatureRecord> {
  return toFeatureRecord(await tx.feature.update({ where: { id }, data: { archivedAt: at } }));
}

// ── Plan version attachments ──

export interface PlanFeatureTerms {
  enabled: boolean;
  included_quantity: string | null;
  limit: FeatureLimit | null;
  overage_sku_id: string | null;
  value: FeatureValue | null;
}

export interface PlanFeatureRecord extends Omit<PlanFeatureTerms, 'value'> {
  value?: FeatureValue;
  id: string;
  plan_id: string;
  feature_id: string;
  feature_key: string;
  version_from: number;
  version_to: number | null;
  created_at: string;
}

const toPlanFeatureRecord = (row: PlanFeature, key: string): PlanFeatureRecord => ({
  id: row.id,
  plan_id: row.planId,
  feature_id: row.featureId,
  feature_key: key,
  version_from: row.versionFrom,
  version_to: row.versionTo,
  enabled: row.enabled,
  included_quantity: row.includedQuantity === null ? null : quantityText(row.includedQuantity),
  limit: row.limitBehavior,
  overage_sku_id: row.overageSkuId,
  ...valueField(row.value),
  created_at: row.createdAt.toISOString(),
});

/** A stored value as records show it: the key only when set. */
const valueField = (value: Prisma.JsonValue): { value?: FeatureValue } => (value === null ? {} : { value: value as FeatureValue });

const jsonValue = (value: FeatureValue | null) => (value === null ? Prisma.DbNull : value);

/** The feature's attachment on the plan's given version, if any. */
export async function findPlanFeature(tx: DbClient, planId: string, featureId: string, version: number): Promise<PlanFeature | null> {
  return tx.planFeature.findFirst({
    where: { planId, featureId, versionFrom: { lte: version }, OR: [{ versionTo: null }, { versionTo: { gt: version } }] },
  });
}

/** Attaches the feature to the plan from `version` on, ending an attachment the version held (its terms change). */
export async function attachPlanFeature(tx: DbClient, id: string, planId: string, feature: FeatureRecord, version: number, terms: PlanFeatureTerms): Promise<PlanFeatureRecord> {
  const held = await findPlanFeature(tx, planId, feature.id, version);
  if (held !== null) {
    if (held.versionFrom === version) await tx.planFeature.delete({ where: { id: held.id } });
    else await tx.planFeature.update({ where: { id: held.id }, data: { versionTo: version } });
  }
  const row = await tx.planFeature.create({
    data: {
      id,
      planId,
      featureId: feature.id,
      versionFrom: version,
      enabled: terms.enabled,
      includedQuantity: terms.included_quantity === null ? null : new Prisma.Decimal(terms.included_quantity),
      limitBehavior: terms.limit,
      overageSkuId: terms.overage_sku_id,
      value: jsonValue(terms.value),
    },
  });
  return toPlanFeatureRecord(row, feature.key);
}

/** Every feature attachment of the plan, newest first (each with its version range). */
export async function listPlanFeatureRows(tx: DbClient, planId: string): Promise<PlanFeatureRecord[]> {
  const rows = await tx.planFeature.findMany({ where: { planId }, orderBy: NEWEST_FIRST });
  const keys = new Map((await tx.feature.findMany({ where: { id: { in: [...new Set(rows.map((r) => r.featureId))] } }, select: { id: true, key: true } })).map((f) => [f.id, f.key]));
  return rows.map((row) => toPlanFeatureRecord(row, keys.get(row.featureId)!));
}

// ── Overrides ──

export interface OverrideTerms {
  enabled: boolean | null;
  included_quantity: string | null;
  limit: FeatureLimit | null;
  value: FeatureValue | null;
}

export interface FeatureOverrideRecord extends Omit<OverrideTerms, 'value'> {
  value?: FeatureValue;
  id: string;
  feature_id: string;
  subscription_id: string | null;
  contract_id: string | null;
  updated_at: string;
}

const toOverrideRecord = (row: FeatureOverride): FeatureOverrideRecord => ({
  id: row.id,
  feature_id: row.featureId,
  subscription_id: row.subscriptionId,
  contract_id: row.contractId,
  enabled: row.enabled,
  included_quantity: row.includedQuantity === null ? null : quantityText(row.includedQuantity),
  limit: row.limitBehavior,
  ...valueField(row.value),
  updated_at: row.updatedAt.toISOString(),
});

export type OverrideOwner = { subscription_id: string; contract_id?: undefined } | { contract_id: string; subscription_id?: undefined };

export async function findOverride(tx: DbClient, owner: OverrideOwner, featureId: string): Promise<FeatureOverrideRecord | null> {
  const row = await tx.featureOverride.findFirst({
    where: owner.subscription_id !== undefined ? { subscriptionId: owner.subscription_id, featureId } : { contractId: owner.contract_id, featureId },
  });
  return row === null ? null : toOverrideRecord(row);
}

/** Creates or replaces the owner's override of the feature. */
export async function upsertOverride(tx: DbClient, id: string, owner: OverrideOwner, featureId: string, terms: OverrideTerms, at: Date): Promise<FeatureOverrideRecord> {
  const data = {
    enabled: terms.enabled,
    includedQuantity: terms.included_quantity === null ? null : new Prisma.Decimal(terms.included_quantity),
    limitBehavior: terms.limit,
    value: jsonValue(terms.value),
    updatedAt: at,
  };
  const held = await findOverride(tx, owner, featureId);
  const row =
    held === null
      ? await tx.featureOverride.create({ data: { id, featureId, subscriptionId: owner.subscription_id ?? null, contractId: owner.contract_id ?? null, createdAt: at, ...data } })
      : await tx.featureOverride.update({ where: { id: held.id }, data });
  return toOverrideRecord(row);
}

export async function deleteOverride(tx: DbClient, id: string): Promise<void> {
  await tx.featureOverride.delete({ where: { id } });
}

// ── What a customer is entitled to (one statement) ──

/** A feature one open subscription of the customer carries, with the terms of its plan version and its overrides. */
export interface EntitlementRow {
  subscription_id: string;
  currency: string;
  contract_id: string | null;
  period_start: Date;
  period_end: Date;
  /** The test clock's time, for a subscription on one. */
  clock_time: Date | null;
  feature_id: string;
  key: string;
  kind: FeatureKind;
  meter_id: string | null;
  meter_event_type: string | null;
  /**
   * The meter a Metered feature is read by, as resolveSkuMeters would find it for an SKU naming the
   * feature's meter_id (that meter) or meter_event_type (the type's first meter); null for the type's
   * built-in default (no meter of the type) and for other kinds.
   */
  meter: EntitlementMeter | null;
  plan: PlanFeatureTerms | null;
  contract: OverrideTerms | null;
  subscription: OverrideTerms | null;
}

/** The columns of a meter row that price its usage (the row of `meters` a feature resolves to). */
export interface EntitlementMeter {
  id: string;
  name: string;
  eventType: string;
  aggregation: MeterAggregation;
  property: string | null;
  filters: unknown;
  windowType: MeterWindow;
  windowSizeSeconds: number | null;
  createdAt: Date;
}

const termsColumns = (alias: string) => Prisma.raw(
  `CASE WHEN ${alias}.id IS NULL THEN NULL ELSE json_build_object('enabled', ${alias}.enabled, 'included_quantity', ${alias}.included_quantity::text, 'limit', ${alias}.limit_behavior, 'value', ${alias}.value${alias === 'pf' ? ", 'overage_sku_id', pf.overage_sku_id" : ''})::text END`,
);

type EntitlementColumn = 'subscription_id' | 'currency' | 'contract_id' | 'period_start' | 'period_end' | 'clock_time' | 'feature_id' | 'key' | 'kind' | 'meter_id' | 'meter_event_type' | 'meter' | 'plan' | 'contract' | 'subscription';

/** A meter row as JSON text, in the fields EntitlementMeter names. */
const meterColumn = (alias: string) =>
  Prisma.raw(
    `json_build_object('id', ${alias}.id, 'name', ${alias}.name, 'eventType', ${alias}.event_type, 'aggregation', ${alias}.aggregation, 'property', ${alias}.property, 'filters', ${alias}.filters, 'windowType', ${alias}.window_type, 'windowSizeSeconds', ${alias}.window_size_seconds, 'createdAt', ${alias}.created_at)::text`,
  );

/**
 * The features of the customer's Trialing, Active and PastDue subscriptions: those of each one's plan
 * version, and those only an override (of the subscription or of its contract) gives it. Archived
 * features are left out. `featureKey` narrows to one feature.
 */
export async function readEntitlementRows(read: SqlReader, customerId: string, featureKey: string | null): Promise<EntitlementRow[]> {
  const rows = await read<Record<EntitlementColumn, string | null>>(Prisma.sql`
    WITH subs AS (
      SELECT s.id, s.plan_id, s.plan_version, s.contract_id, s.currency, s.period_start, s.period_end, tc.frozen_time
      FROM subscriptions s LEFT JOIN test_clocks tc ON tc.id = s.test_clock_id
      WHERE s.customer_id = ${customerId}::uuid AND s.status IN ('Trialing', 'Active', 'PastDue')
    ), pairs AS (
      SELECT s.id AS subscription_id, pf.feature_id FROM subs s
        JOIN plan_features pf ON pf.plan_id = s.plan_id AND pf.version_from <= s.plan_version AND (pf.version_to IS NULL OR pf.version_to > s.plan_version)
      UNION
      SELECT s.id, o.feature_id FROM subs s JOIN feature_overrides o ON o.subscription_id = s.id OR (s.contract_id IS NOT NULL AND o.contract_id = s.contract_id)
    )
    SELECT s.id::text AS subscription_id, s.currency::text AS currency, s.contract_id::text AS contract_id, floor(extract(epoch FROM s.period_start) * 1000)::text AS period_start,
           floor(extract(epoch FROM s.period_end) * 1000)::text AS period_end, floor(extract(epoch FROM s.frozen_time) * 1000)::text AS clock_time,
           f.id::text AS feature_id, f.key, f.kind::text AS kind, f.meter_id::text AS meter_id, f.meter_event_type,
           CASE WHEN m.id IS NULL THEN NULL ELSE ${meterColumn('m')} END AS meter,
           ${termsColumns('pf')} AS plan, ${termsColumns('co')} AS contract, ${termsColumns('so')} AS subscription
    FROM pairs p
    JOIN subs s ON s.id = p.subscription_id
    JOIN features f ON f.id = p.feature_id AND f.archived_at IS NULL
    -- The feature's meter in the same statement: the one it names, else its event type's first (oldest, archived ones included).
    LEFT JOIN LATERAL (
      (SELECT * FROM meters WHERE f.kind = 'Metered' AND id = f.meter_id)
      UNION ALL
      (SELECT * FROM meters WHERE f.kind = 'Metered' AND f.meter_id IS NULL AND event_type = f.meter_event_type ORDER BY created_at, id LIMIT 1)
    ) m ON true
    LEFT JOIN plan_features pf ON pf.plan_id = s.plan_id AND pf.feature_id = f.id AND pf.version_from <= s.plan_version AND (pf.version_to IS NULL OR pf.version_to > s.plan_version)
    LEFT JOIN feature_overrides co ON s.contract_id IS NOT NULL AND co.contract_id = s.contract_id AND co.feature_id = f.id
    LEFT JOIN feature_overrides so ON so.subscription_id = s.id AND so.feature_id = f.id
    WHERE ${featureKey}::text IS NULL OR f.key = ${featureKey}::text
    ORDER BY f.key, s.id`);
  const date = (v: string | null) => (v === null ? null : new Date(Number(v)));
  const terms = <T>(v: string | null): T | null => (v === null ? null : (JSON.parse(v) as T));
  return rows.map((row) => ({
    subscription_id: row.subscription_id!,
    currency: row.currency!,
    contract_id: row.contract_id,
    period_start: date(row.period_start)!,
    period_end: date(row.period_end)!,
    clock_time: date(row.clock_time),
    feature_id: row.feature_id!,
    key: row.key!,
    kind: row.kind as FeatureKind,
    meter_id: row.meter_id,
    meter_event_type: row.meter_event_type,
    meter: meterOf(row.meter),
    plan: terms<PlanFeatureTerms>(row.plan),
    contract: terms<OverrideTerms>(row.contract),
    subscription: terms<OverrideTerms>(row.subscription),
  }));
}

const meterOf = (text: string | null): EntitlementMeter | null => {
  if (text === null) return null;
  const meter = JSON.parse(text) as Omit<EntitlementMeter, 'createdAt'> & { createdAt: string };
  return { ...meter, createdAt: new Date(meter.createdAt) };
};

/** The quantity open reservations of the customer hold, per feature (those not committed nor expired at `now`). */
export async function heldQuantities(read: SqlReader, customerId: string, featureIds: string[], now: Date): Promise<Map<string, string>> {
  if (featureIds.length === 0) return new Map();
  const rows = await read<{ feature_id: string; held: string }>(Prisma.sql`
    SELECT feature_id::text, sum(quantity)::text AS held FROM entitlement_reservations
    WHERE customer_id = ${customerId}::uuid AND feature_id = ANY(${featureIds}::uuid[]) AND committed_at IS NULL AND expires_at > ${now}
    GROUP BY feature_id`);
  return new Map(rows.map((r) => [r.feature_id, r.held]));
}

// ── Reservations ──

/** Serializes reservations of one customer's feature until the transaction ends. */
export async function lockBalance(tx: DbClient, customerId: string, featureId: string): Promise<void> {
  await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`entitlement:${customerId}:${featureId}`}::text, 0))::text`;
}

export async function insertReservation(tx: DbClient, reservation: { id: string; customerId: string; featureId: string; quantity: string; expiresAt: Date; createdAt: Date }): Promise<void> {
  await tx.entitlementReservation.create({ data: { ...reservation, quantity: new Prisma.Decimal(reservation.quantity) } });
}

/** Marks the open reservations named by (customer, reservation) pairs committed; returns the ids it committed. */
export async function commitReservations(tx: DbClient, uses: { customerId: string; reservationId: string }[], at: Date): Promise<string[]> {
  if (uses.length === 0) return [];
  const rows = await tx.$queryRaw<{ id: string }[]>`
    UPDATE entitlement_reservations r SET committed_at = ${at}
    FROM unnest(${uses.map((u) => u.reservationId)}::uuid[], ${uses.map((u) => u.customerId)}::uuid[]) AS u(id, customer_id)
    WHERE r.id = u.id AND r.customer_id = u.customer_id AND r.committed_at IS NULL
    RETURNING r.id::text`;
  return rows.map((r) => r.id);
}

export async function findReservation(tx: DbClient, id: string): Promise<{ id: string; customer_id: string; feature_id: string; quantity: string; expires_at: Date; committed_at: Date | null } | null> {
  const row = await tx.entitlementReservation.findUnique({ where: { id } });
  return row === null
    ? null
    : { id: row.id, customer_id: row.customerId, feature_id: row.featureId, quantity: quantityText(row.quantity), expires_at: row.expiresAt, committed_at: row.committedAt };
}

/** A SKU as rating prices it, with its plan and version range (an overage SKU's checks). */
export async function findSkuForFeature(tx: DbClient, skuId: string): Promise<{ price: SkuPrice; plan_id: string; version_from: number; version_to: number | null } | null> {
  const row = await tx.sku.findUnique({ where: { id: skuId } });
  return row === null ? null : { price: toSkuPrice(row, []), plan_id: row.planId, version_from: row.versionFrom, version_to: row.versionTo };
}

/** Ids of the subscriptions a contract covers. */
export async function contractSubscriptionIds(tx: DbClient, contractId: string): Promise<string[]> {
  return (await tx.subscription.findMany({ where: { contractId }, select: { id: true } })).map((s) => s.id);
}

/** The plan attachment of the feature on the subscription's plan version, if any. */
export async function subscriptionPlanFeature(tx: DbClient, subscriptionId: string, featureId: string): Promise<PlanFeatureRecord | null> {
  const sub = await tx.subscription.findUnique({ where: { id: subscriptionId }, select: { planId: true, planVersion: true } });
  if (sub === null) return null;
  const row = await findPlanFeature(tx, sub.planId, featureId, sub.planVersion);
  return row === null ? null : toPlanFeatureRecord(row, '');
}

export async function findFeatureByKey(read: SqlReader, key: string): Promise<{ id: string; kind: FeatureKind; archived: boolean } | null> {
  const [row] = await read<{ id: string; kind: FeatureKind; archived: boolean }>(
    Prisma.sql`SELECT id::text, kind::text AS kind, archived_at IS NOT NULL AS archived FROM features WHERE key = ${key}::text`,
  );
  return row ?? null;
}

// ── Grants ──

export interface GrantRecord {
  id: string;
  customer_id: string;
  feature_id: string;
  quantity: string;
  recurring: boolean;
  priority: number;
  rollover_cap: string | null;
  effective_at: string;
  expires_at: string | null;
  voided_at: string | null;
  created_at: string;
}

const toGrantRecord = (row: EntitlementGrant): GrantRecord => ({
  id: row.id,
  customer_id: row.customerId,
  feature_id: row.featureId,
  quantity: quantityText(row.quantity),
  recurring: row.recurring,
  priority: row.priority,
  rollover_cap: row.rolloverCap === null ? null : quantityText(row.rolloverCap),
  effective_at: row.effectiveAt.toISOString(),
  expires_at: row.expiresAt?.toISOString() ?? null,
  voided_at: row.voidedAt?.toISOString() ?? null,
  created_at: row.createdAt.toISOString(),
});

export interface NewGrant {
  id: string;
  customerId: string;
  featureId: string;
  quantity: string;
  recurring: boolean;
  priority: number;
  rolloverCap: string | null;
  effectiveAt: Date;
  expiresAt: Date | null;
  createdAt: Date;
}

export async function insertGrant(tx: DbClient, grant: NewGrant): Promise<GrantRecord> {
  const row = await tx.entitlementGrant.create({
    data: { ...grant, quantity: new Prisma.Decimal(grant.quantity), rolloverCap: grant.rolloverCap === null ? null : new Prisma.Decimal(grant.rolloverCap) },
  });
  return toGrantRecord(row);
}

/** The grant, locked for the rest of the transaction. */
export async function lockGrant(tx: DbClient, id: string): Promise<GrantRecord | null> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id::text FROM entitlement_grants WHERE id = ${id}::uuid FOR UPDATE`;
  if (rows.length === 0) return null;
  return toGrantRecord((await tx.entitlementGrant.findUnique({ where: { id } }))!);
}

export async function voidGrantRow(tx: DbClient, id: string, at: Date): Promise<GrantRecord> {
  return toGrantRecord(await tx.entitlementGrant.update({ where: { id }, data: { voidedAt: at } }));
}

/** The customer's grants (optionally of one feature), newest first, a page of `limit + 1`. */
export async function listGrantRows(tx: DbClient, customerId: string, featureId: string | undefined, query: PageQuery): Promise<GrantRecord[]> {
  const rows = await tx.entitlementGrant.findMany({
    where: { customerId, ...(featureId === undefined ? {} : { featureId }), ...pageWhere(query) },
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
  });
  return rows.map(toGrantRecord);
}

/** A grant as a period's balance reads it: its terms, and what its latest closed period before this one carried. */
export interface PeriodGrant {
  id: string;
  feature_id: string;
  quantity: string;
  recurring: boolean;
  priority: number;
  rollover_cap: string | null;
  effective_at: Date;
  expires_at: Date | null;
  created_at: Date;
  /** What the latest closed period before this one carried into it; null when none was closed. */
  carried: string | null;
}

/**
 * The customer's grants counting in each feature's period: not voided, effective by `now`, not expired
 * before the period started, each with what its latest closed period carried (one statement).
 */
export async function periodGrants(read: SqlReader, customerId: string, periods: { featureId: string; periodStart: Date }[], now: Date): Promise<PeriodGrant[]> {
  if (periods.length === 0) return [];
  const rows = await read<Record<'id' | 'feature_id' | 'quantity' | 'rollover_cap' | 'effective_at' | 'expires_at' | 'created_at' | 'carried', string | null> & { recurring: boolean; priority: number }>(Prisma.sql`
    SELECT g.id::text, g.feature_id::text, g.quantity::text, g.recurring, g.priority, g.rollover_cap::text,
           floor(extract(epoch FROM g.effective_at) * 1000)::text AS effective_at, floor(extract(epoch FROM g.expires_at) * 1000)::text AS expires_at,
           floor(extract(epoch FROM g.created_at) * 1000)::text AS created_at, c.carried::text AS carried
    FROM unnest(${periods.map((p) => p.featureId)}::uuid[], ${periods.map((p) => p.periodStart)}::timestamptz[]) AS p(feature_id, period_start)
    JOIN entitlement_grants g ON g.customer_id = ${customerId}::uuid AND g.feature_id = p.feature_id AND g.voided_at IS NULL
      AND g.effective_at <= ${now} AND (g.expires_at IS NULL OR g.expires_at > p.period_start)
    LEFT JOIN LATERAL (
      SELECT gp.carried FROM entitlement_grant_periods gp WHERE gp.grant_id = g.id AND gp.period_end <= p.period_start ORDER BY gp.period_end DESC LIMIT 1
    ) c ON true
    ORDER BY g.id`);
  const date = (v: string | null) => (v === null ? null : new Date(Number(v)));
  const text = (v: string | null) => (v === null ? null : quantityText(new Prisma.Decimal(v)));
  return rows.map((r) => ({
    id: r.id!,
    feature_id: r.feature_id!,
    quantity: text(r.quantity)!,
    recurring: r.recurring,
    priority: r.priority,
    rollover_cap: text(r.rollover_cap),
    effective_at: date(r.effective_at)!,
    expires_at: date(r.expires_at),
    created_at: date(r.created_at)!,
    carried: text(r.carried),
  }));
}

/** Records each grant's closed period (a repeated reset of the same period writes nothing). */
export async function insertGrantPeriods(
  tx: DbClient,
  rows: { grantId: string; periodStart: Date; periodEnd: Date; available: string; consumed: string; carried: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx.entitlementGrantPeriod.createMany({
    data: rows.map((r) => ({ ...r, available: new Prisma.Decimal(r.available), consumed: new Prisma.Decimal(r.consumed), carried: new Prisma.Decimal(r.carried) })),
    skipDuplicates: true,
  });
}

/** Claims the period's event of this kind for the customer's feature: true only for the first claim. */
export async function claimPeriodEvent(tx: DbClient, event: { customerId: string; featureId: string; periodStart: Date; kind: 'exhausted' | 'reset'; at: Date }): Promise<boolean> {
  const rows = await tx.$queryRaw<{ kind: string }[]>`
    INSERT INTO entitlement_period_events (customer_id, feature_id, period_start, kind, occurred_at)
    VALUES (${event.customerId}::uuid, ${event.featureId}::uuid, ${event.periodStart}, ${event.kind}, ${event.at})
    ON CONFLICT DO NOTHING RETURNING kind`;
  return rows.length === 1;
}

/** Whether the period's event of this kind was written already (a read, no lock). */
export async function periodEventWritten(read: SqlReader, customerId: string, featureId: string, periodStart: Date, kind: 'exhausted' | 'reset'): Promise<boolean> {
  const rows = await read<{ one: number }>(Prisma.sql`
    SELECT 1 AS one FROM entitlement_period_events WHERE customer_id = ${customerId}::uuid AND feature_id = ${featureId}::uuid AND period_start = ${periodStart} AND kind = ${kind}`);
  return rows.length > 0;
}

/** Whether the subscription gives Metered features (its period roll then resets them). */
export async function subscriptionHasMeteredFeatures(db: DbClient, subscriptionId: string): Promise<boolean> {
  const rows = await db.$queryRaw<{ one: number }[]>`
    SELECT 1 AS one FROM subscriptions s
    JOIN plan_features pf ON pf.plan_id = s.plan_id AND pf.version_from <= s.plan_version AND (pf.version_to IS NULL OR pf.version_to > s.plan_version)
    JOIN features f ON f.id = pf.feature_id AND f.kind = 'Metered' AND f.archived_at IS NULL
    WHERE s.id = ${subscriptionId}::uuid
    UNION ALL
    SELECT 1 FROM subscriptions s JOIN feature_overrides o ON o.subscription_id = s.id OR (s.contract_id IS NOT NULL AND o.contract_id = s.contract_id)
    JOIN features f ON f.id = o.feature_id AND f.kind = 'Metered' AND f.archived_at IS NULL
    WHERE s.id = ${subscriptionId}::uuid
    LIMIT 1`;
  return rows.length > 0;
}
