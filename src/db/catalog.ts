/**
 * Catalog repository: products, plans and SKUs mapped between rows and API-shaped records (money
 * as decimal strings), and SKU rows mapped to the rating core's SkuPrice (money as bigint).
 * Prisma errors are translated into domain errors here, at the edge.
 */
import type { PackageRounding, SkuPrice, Tier } from '../core/index.js';
import { Prisma, type BillingCadence, type PricingModel, type Product as ProductRow, type Sku as SkuRow } from '../generated/prisma/client.js';
import { DomainError } from '../errors.js';
import type { DbClient } from './client.js';
import { fromDecimal, fromDecimalOrNull, toDecimal } from './money.js';

export function isPrismaError(err: unknown, code: 'P2002' | 'P2003' | 'P2025'): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === code;
}

/** A 404 for an id a request body refers to: `parent_id` → parent_not_found, naming the field. */
export function missingReference(field: string, entity: string, id: string): DomainError {
  return new DomainError('not_found', `${field.replace(/_id$/, '')}_not_found`, `${field}: ${entity} ${id} does not exist`, { field, id });
}

/** Keyset pagination: rows after the cursor in id (UUIDv7 = creation) order. */
export const afterCursor = (startingAfter: string | undefined) => (startingAfter === undefined ? {} : { id: { gt: startingAfter } });

export interface PageQuery {
  limit: number;
  starting_after?: string;
}

export interface ProductRecord {
  id: string;
  name: string;
  description: string;
  tags: string[];
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
  currency: string;
  tiers: TierRecord[] | null;
  package_size: string | null;
  package_rounding: PackageRounding | null;
  commit_amount_nanos: string | null;
  overage_unit_amount_nanos: string | null;
  created_at: string;
}

export interface PlanRecord {
  id: string;
  product_id: string | null;
  name: string;
  description: string;
  billing_cadence: BillingCadence;
  trial_days: number;
  created_at: string;
  skus: SkuRecord[];
}

export type NewProduct = Omit<ProductRecord, 'created_at'>;
export type NewPlan = Omit<PlanRecord, 'created_at' | 'skus'>;

/** The JSON column `skus.tiers`: whole-unit bounds and money both as decimal strings. */
interface StoredTier {
  up_to: string | null;
  unit_amount_nanos: string;
  flat_amount_nanos?: string;
}

const storedTiers = (row: SkuRow): StoredTier[] | null => (row.tiers === null ? null : (row.tiers as unknown as StoredTier[]));

function toProductRecord(row: ProductRow): ProductRecord {
  return { id: row.id, name: row.name, description: row.description, tags: row.tags, created_at: row.createdAt.toISOString() };
}

function toSkuRecord(row: SkuRow): SkuRecord {
  const tiers = storedTiers(row);
  return {
    id: row.id,
    plan_id: row.planId,
    name: row.name,
    pricing_model: row.pricingModel,
    unit_amount_nanos: fromDecimal(row.unitAmountNanos).toString(),
    meter_event_type: row.meterEventType,
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
  };
}

const SKUS_IN_ORDER = { skus: { orderBy: { id: 'asc' } } } as const;

export async function insertProduct(tx: DbClient, product: NewProduct): Promise<ProductRecord> {
  return toProductRecord(await tx.product.create({ data: product }));
}

export async function findProduct(tx: DbClient, id: string): Promise<ProductRecord | null> {
  const row = await tx.product.findUnique({ where: { id } });
  return row === null ? null : toProductRecord(row);
}

export async function listProducts(tx: DbClient, page: PageQuery): Promise<ProductRecord[]> {
  const rows = await tx.product.findMany({ where: afterCursor(page.starting_after), orderBy: { id: 'asc' }, take: page.limit + 1 });
  return rows.map(toProductRecord);
}

export async function insertPlan(tx: DbClient, plan: NewPlan): Promise<PlanRecord> {
  try {
    const row = await tx.plan.create({
      data: {
        id: plan.id,
        productId: plan.product_id,
        name: plan.name,
        description: plan.description,
        billingCadence: plan.billing_cadence,
        trialDays: plan.trial_days,
      },
      include: SKUS_IN_ORDER,
    });
    return toPlanRecord(row);
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

export async function listPlans(tx: DbClient, page: PageQuery): Promise<PlanRecord[]> {
  const rows = await tx.plan.findMany({
    where: afterCursor(page.starting_after),
    orderBy: { id: 'asc' },
    take: page.limit + 1,
    include: SKUS_IN_ORDER,
  });
  return rows.map(toPlanRecord);
}

/**
 * Locks the plan row for the rest of the transaction (SKUs added concurrently must agree on one
 * currency) and returns the currency its SKUs already use: null for a plan without SKUs,
 * undefined when the plan does not exist.
 */
export async function lockPlanCurrency(tx: DbClient, planId: string): Promise<string | null | undefined> {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM plans WHERE id = ${planId}::uuid FOR UPDATE`;
  if (locked.length === 0) return undefined;
  const sku = await tx.sku.findFirst({ where: { planId }, select: { currency: true } });
  return sku === null ? null : sku.currency;
}

/** Stores a SKU price the core has validated. */
export async function insertSku(tx: DbClient, planId: string, price: SkuPrice): Promise<SkuRecord> {
  const row = await tx.sku.create({
    data: {
      id: price.sku_id,
      planId,
      name: price.name,
      pricingModel: price.pricing_model,
      unitAmountNanos: toDecimal(price.unit_amount_nanos),
      meterEventType: price.meter_event_type ?? null,
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
    },
  });
  return toSkuRecord(row);
}

export async function findSku(tx: DbClient, id: string): Promise<SkuRecord | null> {
  const row = await tx.sku.findUnique({ where: { id } });
  return row === null ? null : toSkuRecord(row);
}

export async function listSkus(tx: DbClient, query: PageQuery & { plan_id?: string }): Promise<SkuRecord[]> {
  const rows = await tx.sku.findMany({
    where: { ...afterCursor(query.starting_after), ...(query.plan_id === undefined ? {} : { planId: query.plan_id }) },
    orderBy: { id: 'asc' },
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

const PRICING = { ...SKUS_IN_ORDER, product: { select: { tags: true } } } as const;

function toPlanPricing(plan: Prisma.PlanGetPayload<{ include: typeof PRICING }>): PlanPricing {
  const tags = plan.product?.tags ?? [];
  return { name: plan.name, billing_cadence: plan.billingCadence, prices: plan.skus.map((row) => toSkuPrice(row, tags)) };
}

export async function findPlanPricing(tx: DbClient, planId: string): Promise<PlanPricing | null> {
  const plan = await tx.plan.findUnique({ where: { id: planId }, include: PRICING });
  return plan === null ? null : toPlanPricing(plan);
}

/** The pricing of a plan known to exist (a subscription phase's). */
export async function getPlanPricing(tx: DbClient, planId: string): Promise<PlanPricing> {
  return toPlanPricing(await tx.plan.findUniqueOrThrow({ where: { id: planId }, include: PRICING }));
}
