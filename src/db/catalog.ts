/**
 * Catalog repository: products, plans and SKUs mapped between rows and API-shaped records (money
 * as decimal strings), and SKU rows mapped to the rating core's SkuPrice (money as bigint).
 * Prisma errors are translated into domain errors here, at the edge.
 */
import { dimensionalJson, parseDimensional, type DimensionalJson, type PackageRounding, type SkuPrice, type Tier, type TierScope } from '../core/index.js';
import { Prisma, type BillingCadence, type PricingModel, type Product as ProductRow, type Sku as SkuRow } from '../generated/prisma/client.js';
import { DomainError } from '../errors.js';
import type { DbClient } from './client.js';
import { fromDecimal, fromDecimalOrNull, toDecimal } from './money.js';
import { NEWEST_FIRST, pageWhere, type PageQuery } from './pages.js';
import { col, modelRows, modelTable, runStatement, statement } from './sql.js';

export function isPrismaError(err: unknown, code: 'P2002' | 'P2003' | 'P2025'): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === code;
}

/** A 404 for an id a request body refers to: `parent_id` → parent_not_found, naming the field. */
export function missingReference(field: string, entity: string, id: string): DomainError {
  return new DomainError('not_found', `${field.replace(/_id$/, '')}_not_found`, `${field}: ${entity} ${id} does not exist`, { field, id });
}


export interface ProductRecord {
  id: string;
  name: string;
  description: string;
  tags: string[];
  archived_at: string | null;
  created_at: string;
}

export interface TierRecord {
  up_to: number | null;
  unit_amount_nanos: string;
  flat_amount_nanos?: string;
}

export interface SkuRecord {
  id: string;
  plan_id: string;
  name: string;
  pricing_model: PricingModel;
  unit_amount_nanos: string;
  meter_event_type: string | null;
  /** The meter the SKU prices; null: the default meter of meter_event_type. */
  meter_id: string | null;
  currency: string;
  tiers: TierRecord[] | null;
  package_size: string | null;
  package_rounding: PackageRounding | null;
  commit_amount_nanos: string | null;
  overage_unit_amount_nanos: string | null;
  package_free_units: string | null;
  minimum_amount_nanos: string | null;
  percentage_bps: number | null;
  amount_property: string | null;
  per_event_fee_nanos: string | null;
  per_event_minimum_nanos: string | null;
  per_event_maximum_nanos: string | null;
  /** Dimensional pricing: the event properties it prices per value of; null when priced as one quantity. */
  group_by: string[] | null;
  tier_scope: TierScope | null;
  dimension_prices: DimensionPriceRecord[] | null;
  /** The plan versions holding the SKU: [version_from, version_to), version_to null while current. */
  version_from: number;
  version_to: number | null;
  archived_at: string | null;
  created_at: string;
}

/** A listed dimension value's price as returned (tier bounds as numbers, like the SKU's tiers). */
export interface DimensionPriceRecord {
  values: Record<string, string>;
  pricing_model: PricingModel;
  unit_amount_nanos?: string | undefined;
  package_size?: string | undefined;
  package_rounding?: PackageRounding | undefined;
  package_free_units?: string | undefined;
  tiers?: TierRecord[] | undefined;
}

export interface PlanRecord {
  id: string;
  product_id: string | null;
  name: string;
  description: string;
  billing_cadence: BillingCadence;
  trial_days: number;
  /** The current version (the one new subscriptions take). */
  version: number;
  archived_at: string | null;
  metadata: Record<string, string>;
  created_at: string;
  /** The SKUs of the current version. */
  skus: SkuRecord[];
}

export type NewProduct = Omit<ProductRecord, 'created_at' | 'archived_at'>;
export type NewPlan = Omit<PlanRecord, 'created_at' | 'skus' | 'version' | 'archived_at'>;

/** The JSON column `skus.tiers`: whole-unit bounds and money both as decimal strings. */
interface StoredTier {
  up_to: string | null;
  unit_amount_nanos: string;
  flat_amount_nanos?: string;
}

const storedTiers = (row: SkuRow): StoredTier[] | null => (row.tiers === null ? null : (row.tiers as unknown as StoredTier[]));

function toProductRecord(row: ProductRow): ProductRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    tags: row.tags,
    archived_at: row.archivedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

const storedDimensional = (row: SkuRow): DimensionalJson | null => (row.dimensional === null ? null : (row.dimensional as unknown as DimensionalJson));

function toSkuRecord(row: SkuRow): SkuRecord {
  const tiers = storedTiers(row);
  const dimensional = storedDimensional(row);
  return {
    id: row.id,
    plan_id: row.planId,
    name: row.name,
    pricing_model: row.pricingModel,
    unit_amount_nanos: fromDecimal(row.unitAmountNanos).toString(),
    meter_event_type: row.meterEventType,
    meter_id: row.meterId,
    currency: row.currency,
    tiers:
      tiers === null
        ? null
        : tiers.map((tier) => ({
            // Bounds were accepted as safe JSON integers, so they come back as the same numbers.
            up_to: tier.up_to === null ? null : Number(tier.up_to),
            unit_amount_nanos: tier.unit_amount_nanos,
            ...(tier.flat_amount_nanos === undefined ? {} : { flat_amount_nanos: tier.flat_amount_nanos }),
          })),
    package_size: fromDecimalOrNull(row.packageSize)?.toString() ?? null,
    package_rounding: row.packageRounding as PackageRounding | null,
    commit_amount_nanos: fromDecimalOrNull(row.commitAmountNanos)?.toString() ?? null,
    overage_unit_amount_nanos: fromDecimalOrNull(row.overageUnitAmountNanos)?.toString() ?? null,
    package_free_units: fromDecimalOrNull(row.packageFreeUnits)?.toString() ?? null,
    minimum_amount_nanos: fromDecimalOrNull(row.minimumAmountNanos)?.toString() ?? null,
    percentage_bps: row.percentageBps,
    amount_property: row.amountProperty,
    per_event_fee_nanos: fromDecimalOrNull(row.perEventFeeNanos)?.toString() ?? null,
    per_event_minimum_nanos: fromDecimalOrNull(row.perEventMinimumNanos)?.toString() ?? null,
    per_event_maximum_nanos: fromDecimalOrNull(row.perEventMaximumNanos)?.toString() ?? null,
    group_by: dimensional === null ? null : [...dimensional.group_by],
    tier_scope: dimensional?.tier_scope ?? null,
    dimension_prices:
      dimensional === null
        ? null
        : dimensional.dimension_prices.map(({ tiers: priceTiers, ...price }) => ({
            ...price,
            values: { ...price.values },
            ...(priceTiers === undefined
              ? {}
              : { tiers: priceTiers.map((tier) => ({ ...tier, up_to: tier.up_to === null ? null : Number(tier.up_to) })) }),
          })),
    version_from: row.versionFrom,
    version_to: row.versionTo,
    archived_at: row.archivedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

function toPlanRecord(row: Prisma.PlanGetPayload<{ include: { skus: true } }>): PlanRecord {
  return {
    id: row.id,
    product_id: row.productId,
    name: row.name,
    description: row.description,
    billing_cadence: row.billingCadence,
    trial_days: row.trialDays,
    version: row.version,
    archived_at: row.archivedAt?.toISOString() ?? null,
    metadata: row.metadata as Record<string, string>,
    created_at: row.createdAt.toISOString(),
    skus: row.skus.map(toSkuRecord),
  };
}

/** A stored SKU as the rating core prices it; `tags` are its product's tags (for rate overrides). */
export function toSkuPrice(row: SkuRow, tags: readonly string[]): SkuPrice {
  const tiers = storedTiers(row);
  const packageSize = fromDecimalOrNull(row.packageSize);
  const commit = fromDecimalOrNull(row.commitAmountNanos);
  const overage = fromDecimalOrNull(row.overageUnitAmountNanos);
  return {
    sku_id: row.id,
    name: row.name,
    pricing_model: row.pricingModel,
    unit_amount_nanos: fromDecimal(row.unitAmountNanos),
    currency: row.currency,
    tags,
    ...(row.meterEventType === null ? {} : { meter_event_type: row.meterEventType }),
    ...(row.meterId === null ? {} : { meter_id: row.meterId }),
    ...(tiers === null
      ? {}
      : {
          tiers: tiers.map(
            (tier): Tier => ({
              up_to: tier.up_to === null ? null : BigInt(tier.up_to),
              unit_amount_nanos: BigInt(tier.unit_amount_nanos),
              ...(tier.flat_amount_nanos === undefined ? {} : { flat_amount_nanos: BigInt(tier.flat_amount_nanos) }),
            }),
          ),
        }),
    ...(packageSize === null ? {} : { package_size: packageSize }),
    ...(row.packageRounding === null ? {} : { package_rounding: row.packageRounding as PackageRounding }),
    ...(commit === null ? {} : { commit_amount_nanos: commit }),
    ...(overage === null ? {} : { overage_unit_amount_nanos: overage }),
    ...optionalBigint('package_free_units', row.packageFreeUnits),
    ...optionalBigint('minimum_amount_nanos', row.minimumAmountNanos),
    ...(row.percentageBps === null ? {} : { percentage_bps: row.percentageBps }),
    ...(row.amountProperty === null ? {} : { amount_property: row.amountProperty }),
    ...optionalBigint('per_event_fee_nanos', row.perEventFeeNanos),
    ...optionalBigint('per_event_minimum_nanos', row.perEventMinimumNanos),
    ...optionalBigint('per_event_maximum_nanos', row.perEventMaximumNanos),
    ...(row.dimensional === null ? {} : { dimensional: parseDimensional(storedDimensional(row)!, row.currency) }),
  };
}

type OptionalAmount = 'package_free_units' | 'minimum_amount_nanos' | 'per_event_fee_nanos' | 'per_event_minimum_nanos' | 'per_event_maximum_nanos';

function optionalBigint<F extends OptionalAmount>(field: F, value: Prisma.Decimal | null): { [K in F]?: bigint } {
  const amount = fromDecimalOrNull(value);
  return (amount === null ? {} : { [field]: amount }) as { [K in F]?: bigint };
}

const decimalOrNull = (value: bigint | undefined): Prisma.Decimal | null => (value === undefined ? null : toDecimal(value));

/**
 * The amount property of every Percentage SKU (archived ones included: they still bill), which
 * ingestion reads like a numeric meter's property.
 */
export async function percentageAmountProperties(tx: DbClient): Promise<{ eventType: string; property: string; name: string }[]> {
  const rows = await tx.sku.findMany({
    where: { pricingModel: 'Percentage', amountProperty: { not: null }, meterEventType: { not: null } },
    select: { meterEventType: true, amountProperty: true, name: true },
    orderBy: { id: 'asc' },
  });
  return rows.map((row) => ({ eventType: row.meterEventType as string, property: row.amountProperty as string, name: row.name }));
}

/** The SKUs a plan version holds: those whose [version_from, version_to) contains it. */
export const skusOfVersion = (version: number) => ({ versionFrom: { lte: version }, OR: [{ versionTo: null }, { versionTo: { gt: version } }] });

/** The SKUs of a plan's current version (every later SKU change either opened a version or kept it unused). */
const SKUS_IN_ORDER = { skus: { where: { versionTo: null }, orderBy: { id: 'asc' } } } as const;

export async function insertProduct(tx: DbClient, product: NewProduct): Promise<ProductRecord> {
  return toProductRecord(await tx.product.create({ data: product }));
}

export async function findProduct(tx: DbClient, id: string): Promise<ProductRecord | null> {
  const row = await tx.product.findUnique({ where: { id } });
  return row === null ? null : toProductRecord(row);
}

export async function listProducts(tx: DbClient, page: PageQuery): Promise<ProductRecord[]> {
  const rows = await tx.product.findMany({ where: pageWhere(page), orderBy: NEWEST_FIRST, take: page.limit + 1 });
  return rows.map(toProductRecord);
}

/** Inserts the plan; its version 1 comes with the row (a trigger of the plan_versions migration). */
export async function insertPlan(tx: DbClient, plan: NewPlan): Promise<PlanRecord> {
  try {
    await tx.plan.create({
      data: {
        id: plan.id,
        productId: plan.product_id,
        name: plan.name,
        description: plan.description,
        billingCadence: plan.billing_cadence,
        trialDays: plan.trial_days,
        metadata: plan.metadata,
      },
    });
    return toPlanRecord(await tx.plan.findUniqueOrThrow({ where: { id: plan.id }, include: SKUS_IN_ORDER }));
  } catch (err) {
    // product_id is the plan's only foreign key.
    if (isPrismaError(err, 'P2003') && plan.product_id !== null) {
      throw missingReference('product_id', 'product', plan.product_id);
    }
    throw err;
  }
}

export async function findPlan(tx: DbClient, id: string): Promise<PlanRecord | null> {
  const row = await tx.plan.findUnique({ where: { id }, include: SKUS_IN_ORDER });
  return row === null ? null : toPlanRecord(row);
}

export async function listPlans(tx: DbClient, page: PageQuery & { currency?: string | undefined; product_id?: string | undefined }): Promise<PlanRecord[]> {
  const rows = await tx.plan.findMany({
    where: {
      ...pageWhere(page),
      ...(page.currency === undefined ? {} : { skus: { some: { currency: page.currency } } }),
      ...(page.product_id === undefined ? {} : { productId: page.product_id }),
    },
    orderBy: NEWEST_FIRST,
    take: page.limit + 1,
    include: SKUS_IN_ORDER,
  });
  return rows.map(toPlanRecord);
}

export interface LockedPlan {
  id: string;
  version: number;
  archived: boolean;
  product_archived: boolean;
  /** The currency of its current SKUs; null for a plan without any. */
  currency: string | null;
}

/**
 * Locks the plan row for the rest of the transaction: SKU changes take it exclusively (they decide
 * whether the current version is in use, and SKUs added concurrently must agree on one currency),
 * subscriptions and plan changes share it (so no SKU change slips into the version they take).
 * Null when the plan does not exist.
 */
export async function lockPlan(tx: DbClient, planId: string, mode: 'update' | 'share'): Promise<LockedPlan | null> {
  const lock = mode === 'update' ? Prisma.sql`FOR UPDATE` : Prisma.sql`FOR SHARE`;
  const [row] = await tx.$queryRaw<{ version: number; archived: boolean; product_id: string | null }[]>`
    SELECT version, archived_at IS NOT NULL AS archived, product_id::text AS product_id FROM plans WHERE id = ${planId}::uuid ${lock}`;
  if (!row) return null;
  // The product is read under a share lock too, so archiving it cannot interleave with this transaction.
  const product =
    row.product_id === null
      ? []
      : await tx.$queryRaw<{ archived: boolean }[]>`SELECT archived_at IS NOT NULL AS archived FROM products WHERE id = ${row.product_id}::uuid FOR SHARE`;
  const sku = await tx.sku.findFirst({ where: { planId, versionTo: null }, select: { currency: true } });
  return { id: planId, version: row.version, archived: row.archived, product_archived: product[0]?.archived ?? false, currency: sku?.currency ?? null };
}

/** Whether any subscription, or any plan phase of one (current or past), is on this version of the plan. */
export async function planVersionInUse(tx: DbClient, planId: string, version: number): Promise<boolean> {
  const phase = await tx.subscriptionPhase.findFirst({ where: { planId, planVersion: version }, select: { id: true } });
  if (phase !== null) return true;
  return (await tx.subscription.findFirst({ where: { planId, planVersion: version }, select: { id: true } })) !== null;
}

/** Opens `version` as the plan's current version (the caller holds the plan lock). */
export async function openPlanVersion(tx: DbClient, planId: string, version: number): Promise<{ version: number; created_at: string }> {
  const row = await tx.planVersion.create({ data: { planId, version } });
  await tx.plan.update({ where: { id: planId }, data: { version } });
  return { version: row.version, created_at: row.createdAt.toISOString() };
}

export interface PlanVersionRecord {
  version: number;
  created_at: string;
  /** Subscriptions on this version now. */
  subscription_count: number;
  skus: SkuRecord[];
}

/** Every version of a plan, newest first, each with its SKUs and how many subscriptions are on it. */
export async function listPlanVersions(tx: DbClient, planId: string): Promise<PlanVersionRecord[]> {
  const [versions, skus, counts] = await Promise.all([
    tx.planVersion.findMany({ where: { planId }, orderBy: { version: 'desc' } }),
    tx.sku.findMany({ where: { planId }, orderBy: { id: 'asc' } }),
    tx.subscription.groupBy({ by: ['planVersion'], where: { planId }, _count: { _all: true } }),
  ]);
  const countOf = new Map(counts.map((c) => [c.planVersion, c._count._all]));
  return versions.map((v) => ({
    version: v.version,
    created_at: v.createdAt.toISOString(),
    subscription_count: countOf.get(v.version) ?? 0,
    skus: skus.filter((k) => k.versionFrom <= v.version && (k.versionTo === null || k.versionTo > v.version)).map(toSkuRecord),
  }));
}

/** Whether the plan has this version. */
export async function planVersionExists(tx: DbClient, planId: string, version: number): Promise<boolean> {
  return (await tx.planVersion.findUnique({ where: { planId_version: { planId, version } }, select: { version: true } })) !== null;
}

/** Stores a SKU price the core has validated. */
export async function insertSku(tx: DbClient, planId: string, version: number, price: SkuPrice): Promise<SkuRecord> {
  const row = await tx.sku.create({
    data: {
      id: price.sku_id,
      planId,
      versionFrom: version,
      name: price.name,
      pricingModel: price.pricing_model,
      unitAmountNanos: toDecimal(price.unit_amount_nanos),
      meterEventType: price.meter_event_type ?? null,
      meterId: price.meter_id ?? null,
      currency: price.currency,
      ...(price.tiers === undefined
        ? {}
        : {
            tiers: price.tiers.map(
              (tier): StoredTier => ({
                up_to: tier.up_to === null ? null : tier.up_to.toString(),
                unit_amount_nanos: tier.unit_amount_nanos.toString(),
                ...(tier.flat_amount_nanos === undefined ? {} : { flat_amount_nanos: tier.flat_amount_nanos.toString() }),
              }),
            ) as unknown as Prisma.InputJsonValue,
          }),
      packageSize: price.package_size === undefined ? null : toDecimal(price.package_size),
      packageRounding: price.package_rounding ?? null,
      commitAmountNanos: price.commit_amount_nanos === undefined ? null : toDecimal(price.commit_amount_nanos),
      overageUnitAmountNanos: price.overage_unit_amount_nanos === undefined ? null : toDecimal(price.overage_unit_amount_nanos),
      packageFreeUnits: decimalOrNull(price.package_free_units),
      minimumAmountNanos: decimalOrNull(price.minimum_amount_nanos),
      percentageBps: price.percentage_bps ?? null,
      amountProperty: price.amount_property ?? null,
      perEventFeeNanos: decimalOrNull(price.per_event_fee_nanos),
      perEventMinimumNanos: decimalOrNull(price.per_event_minimum_nanos),
      perEventMaximumNanos: decimalOrNull(price.per_event_maximum_nanos),
      ...(price.dimensional === undefined ? {} : { dimensional: dimensionalJson(price.dimensional) as unknown as Prisma.InputJsonValue }),
    },
  });
  return toSkuRecord(row);
}

/** Takes the SKU out of the plan from `versionTo` on (the caller holds the plan lock). */
export async function retireSku(tx: DbClient, id: string, versionTo: number, at: Date): Promise<SkuRecord> {
  return toSkuRecord(await tx.sku.update({ where: { id }, data: { versionTo, archivedAt: at } }));
}

export async function archiveProductRow(tx: DbClient, id: string, at: Date): Promise<ProductRecord> {
  return toProductRecord(await tx.product.update({ where: { id }, data: { archivedAt: at } }));
}

export async function archivePlanRow(tx: DbClient, id: string, at: Date): Promise<PlanRecord> {
  await tx.plan.update({ where: { id }, data: { archivedAt: at } });
  return toPlanRecord(await tx.plan.findUniqueOrThrow({ where: { id }, include: SKUS_IN_ORDER }));
}

/** Replaces the plan's metadata (its prices and version are untouched). */
export async function setPlanMetadata(tx: DbClient, id: string, metadata: Record<string, string>): Promise<PlanRecord> {
  await tx.plan.update({ where: { id }, data: { metadata } });
  return toPlanRecord(await tx.plan.findUniqueOrThrow({ where: { id }, include: SKUS_IN_ORDER }));
}

/** Locks the product row (plans created under it must not race its archiving). */
export async function lockProduct(tx: DbClient, id: string): Promise<ProductRecord | null> {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM products WHERE id = ${id}::uuid FOR UPDATE`;
  return locked.length === 0 ? null : findProduct(tx, id);
}

export async function findSku(tx: DbClient, id: string): Promise<SkuRecord | null> {
  const row = await tx.sku.findUnique({ where: { id } });
  return row === null ? null : toSkuRecord(row);
}

export async function listSkus(tx: DbClient, query: PageQuery & { plan_id?: string | undefined; currency?: string | undefined }): Promise<SkuRecord[]> {
  const rows = await tx.sku.findMany({
    where: {
      ...pageWhere(query),
      ...(query.plan_id === undefined ? {} : { planId: query.plan_id }),
      ...(query.currency === undefined ? {} : { currency: query.currency }),
    },
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
  });
  return rows.map(toSkuRecord);
}

export interface PlanPricing {
  name: string;
  billing_cadence: BillingCadence;
  /** The plan's SKUs in id order, tagged with the product's tags. */
  prices: SkuPrice[];
}

/** The pricing of a plan's current version; null when the plan does not exist. */
export async function findPlanPricing(tx: DbClient, planId: string): Promise<PlanPricing | null> {
  const current = await tx.plan.findUnique({ where: { id: planId }, select: { version: true } });
  return current === null ? null : getPlanPricing(tx, planId, current.version);
}

/** The skus table as the Sku model (a period close reads its plan version's SKUs without Prisma). */
const SKUS = modelTable<SkuRow>('skus', {
  id: col.text('id'),
  planId: col.text('plan_id'),
  name: col.text('name'),
  pricingModel: col.label<PricingModel>('pricing_model'),
  unitAmountNanos: col.decimal('unit_amount_nanos'),
  meterEventType: col.textOrNull('meter_event_type'),
  meterId: col.textOrNull('meter_id'),
  currency: col.text('currency'),
  tiers: col.jsonOrNull('tiers'),
  packageSize: col.decimalOrNull('package_size'),
  packageRounding: col.textOrNull('package_rounding'),
  commitAmountNanos: col.decimalOrNull('commit_amount_nanos'),
  overageUnitAmountNanos: col.decimalOrNull('overage_unit_amount_nanos'),
  packageFreeUnits: col.decimalOrNull('package_free_units'),
  minimumAmountNanos: col.decimalOrNull('minimum_amount_nanos'),
  percentageBps: col.intOrNull('percentage_bps'),
  amountProperty: col.textOrNull('amount_property'),
  perEventFeeNanos: col.decimalOrNull('per_event_fee_nanos'),
  perEventMinimumNanos: col.decimalOrNull('per_event_minimum_nanos'),
  perEventMaximumNanos: col.decimalOrNull('per_event_maximum_nanos'),
  dimensional: col.jsonOrNull('dimensional'),
  versionFrom: col.int('version_from'),
  versionTo: col.intOrNull('version_to'),
  archivedAt: col.timeOrNull('archived_at'),
  createdAt: col.time('created_at'),
});
/** The SKUs of one version of a plan (as skusOfVersion selects them), in id order. */
const SKUS_OF_VERSION = statement(`${SKUS.select('k')} WHERE k.plan_id = $1::uuid AND k.version_from <= $2 AND (k.version_to IS NULL OR k.version_to > $2) ORDER BY k.id`);
const PLAN_HEAD = statement(
  'SELECT p.name, p.billing_cadence::text AS billing_cadence, pr.tags FROM plans p LEFT JOIN products pr ON pr.id = p.product_id WHERE p.id = $1::uuid',
);

/** The pricing of one version of a plan known to exist (a subscription phase's): never the plan's latest. */
export async function getPlanPricing(tx: DbClient, planId: string, version: number): Promise<PlanPricing> {
  const [head] = await runStatement<{ name: string; billing_cadence: BillingCadence; tags: string[] | null }>(tx, PLAN_HEAD, [planId]);
  if (head === undefined) throw new Error(`plan ${planId} does not exist`);
  const tags = head.tags ?? [];
  const skus = await modelRows(tx, SKUS, SKUS_OF_VERSION, [planId, version]);
  return { name: head.name, billing_cadence: head.billing_cadence, prices: skus.map((row) => toSkuPrice(row, tags)) };
}

/** Every SKU a plan ever had (all its versions), in id order; null when the plan does not exist. */
export async function allPlanSkuPrices(tx: DbClient, planId: string): Promise<SkuPrice[] | null> {
  const plan = await tx.plan.findUnique({ where: { id: planId }, include: { skus: { orderBy: { id: 'asc' } }, product: { select: { tags: true } } } });
  return plan === null ? null : plan.skus.map((row) => toSkuPrice(row, plan.product?.tags ?? []));
}
