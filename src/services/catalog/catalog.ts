/**
 * Catalog: Product → Plan → SKU (SPEC §2). A plan's prices are versioned (./versions.ts): the SKUs
 * of a version a subscription is on never change, so subscriptions and invoices can always be
 * explained by the prices they were rated with; a SKU change to a plan in use opens a new version.
 *
 * SKU rules beyond the core's validateSku (every problem is reported at once, one issue per field):
 * - A usage model (all but Flat) needs meter_id or meter_event_type; optional and unused for Flat.
 *   meter_id prices that meter (it must exist and not be archived; a meter_event_type given with it
 *   must be the meter's, and the SKU stores the meter's); meter_event_type alone prices the type's
 *   default meter (the first one created for it, resolved when rated: services/metering/usage.ts).
 * - unit_amount_nanos is required except for Graduated and Volume, whose tiers carry the prices
 *   (there it defaults to "0"), and Percentage, which refuses it (its fields carry the prices).
 * - package_size/package_rounding/package_free_units belong to Package, commit/overage amounts to
 *   Committed, percentage_bps/amount_property/per_event_* to Percentage only; package_rounding
 *   defaults to Up. minimum_amount_nanos belongs to the usage models (core validateSku).
 * - Prices are bounded (core priceBoundProblems: at most 100,000.00 per unit, 10^18 for a fixed
 *   amount), so that no period's charge can overflow the money columns.
 * - All SKUs of a plan share one currency: a SKU in another currency is a 409
 *   plan_currency_mismatch (a plan is rated onto one invoice).
 */
import {
  findPlan,
  findProduct,
  findSku,
  insertPlan,
  insertProduct,
  insertSku,
  listPlans as listPlanRows,
  listProducts as listProductRows,
  listSkus as listSkuRows,
  lockPlan,
  lockProduct,
  missingReference,
  setPlanMetadata,
  type NewPlan,
  type NewProduct,
  type TierRecord,
} from '../../db/catalog.js';
import type { PageQuery } from '../../db/pages.js';
import type { Db } from '../../db/client.js';
import type { Prisma } from '../../generated/prisma/client.js';
import {
  CoreValidationError,
  dimensionPriceSku,
  parseDimensional,
  parseSkuPrice,
  priceBoundProblems,
  validateSku,
  type DimensionPriceJson,
  type PackageRounding,
  type PricingModel,
  type Problem,
  type SkuPrice,
  type TierScope,
} from '../../core/index.js';
import { newId } from '../../ids.js';
import { recordAudit } from '../audit.js';
import { mergeMetadata, type MetadataChanges } from '../metadata.js';
import type { RequestContext } from '../audit.js';
import { conflict, DomainError, notFound } from '../../errors.js';
import type { PlanView, ProductView, SkuView } from '../../schemas/catalog.js';
import { assertMeterNotArchived, planArchived, productArchived } from './archiving.js';
import { lockMeter } from '../../db/metering/meters.js';
import { versionForChange } from './versions.js';
import { numericPropertiesChanged } from '../metering/meters.js';

export type CreateProductInput = Omit<NewProduct, 'id'>;
export type CreatePlanInput = Omit<NewPlan, 'id' | 'metadata'> & { metadata?: MetadataChanges | undefined };

export interface CreateSkuInput {
  plan_id: string;
  name: string;
  pricing_model: PricingModel;
  unit_amount_nanos?: string;
  meter_event_type?: string;
  meter_id?: string;
  currency: string;
  tiers?: TierRecord[];
  package_size?: string;
  package_rounding?: PackageRounding;
  commit_amount_nanos?: string;
  overage_unit_amount_nanos?: string;
  package_free_units?: string;
  minimum_amount_nanos?: string;
  percentage_bps?: number;
  amount_property?: string;
  per_event_fee_nanos?: string;
  per_event_minimum_nanos?: string;
  per_event_maximum_nanos?: string;
  group_by?: string[];
  tier_scope?: TierScope;
  dimension_prices?: DimensionPriceJson[];
}

/** A core field name ("tiers[1].up_to") as a request path ("tiers.1.up_to"), like zod's issues. */
export const issuePath = (field: string): string => field.replace(/\[(\d+)\]/g, '.$1');

/** Core problems as one 400 listing every issue; `pathOf` maps a core field to the request path. */
export function problemsError(problems: readonly Problem[], pathOf: (field: string) => string = issuePath): DomainError {
  const issues = problems.map((problem) => ({ path: pathOf(problem.field), code: problem.code, message: problem.message }));
  const summary = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
  return new DomainError('validation', 'validation_failed', `invalid request: ${summary}`, { issues });
}

/** Fields that only some models take; present on another model they would be silently ignored. */
const MODEL_ONLY_FIELDS: readonly { field: keyof CreateSkuInput; model: PricingModel }[] = [
  { field: 'package_size', model: 'Package' },
  { field: 'package_rounding', model: 'Package' },
  { field: 'commit_amount_nanos', model: 'Committed' },
  { field: 'overage_unit_amount_nanos', model: 'Committed' },
  { field: 'package_free_units', model: 'Package' },
  { field: 'percentage_bps', model: 'Percentage' },
  { field: 'amount_property', model: 'Percentage' },
  { field: 'per_event_fee_nanos', model: 'Percentage' },
  { field: 'per_event_minimum_nanos', model: 'Percentage' },
  { field: 'per_event_maximum_nanos', model: 'Percentage' },
];

/** Models that price usage without a unit_amount_nanos (their own fields carry the prices). */
const NO_UNIT_AMOUNT: ReadonlySet<PricingModel> = new Set<PricingModel>(['Graduated', 'Volume', 'Percentage']);

function applicabilityProblems(input: CreateSkuInput): Problem[] {
  const model = input.pricing_model;
  const problems: Problem[] = [];
  if (model !== 'Flat' && input.meter_event_type === undefined && input.meter_id === undefined) {
    problems.push({ code: 'meter_required', field: 'meter_event_type', message: `${model} pricing rates usage and needs a meter_id or a meter_event_type` });
  }
  if (!NO_UNIT_AMOUNT.has(model) && input.unit_amount_nanos === undefined) {
    problems.push({ code: 'unit_amount_required', field: 'unit_amount_nanos', message: `${model} pricing needs unit_amount_nanos` });
  }
  if (model === 'Percentage' && input.unit_amount_nanos !== undefined) {
    problems.push({ code: 'field_not_applicable', field: 'unit_amount_nanos', message: 'Percentage pricing takes percentage_bps and per_event_fee_nanos, not unit_amount_nanos' });
  }
  for (const { field, model: owner } of MODEL_ONLY_FIELDS) {
    if (input[field] !== undefined && model !== owner) {
      problems.push({ code: 'field_not_applicable', field, message: `only ${owner} pricing takes ${field}` });
    }
  }
  if (input.group_by === undefined) {
    for (const field of ['tier_scope', 'dimension_prices'] as const) {
      if (input[field] !== undefined) problems.push({ code: 'field_not_applicable', field, message: `only a SKU with group_by (dimensional pricing) takes ${field}` });
    }
  }
  return problems;
}

/** A dimensional SKU's terms, validated with the SKU (every value's price as the SKU's own would be, and bounded alike). */
function withDimensions(price: SkuPrice, input: CreateSkuInput): SkuPrice {
  if (input.group_by === undefined) return price;
  const dimensional = parseDimensional({ group_by: input.group_by, tier_scope: input.tier_scope ?? 'per_value', dimension_prices: input.dimension_prices ?? [] }, price.currency);
  const problems = dimensional.prices.flatMap((listed, index) =>
    priceBoundProblems(dimensionPriceSku(price, listed)).map((problem) => ({ ...problem, field: `dimension_prices[${index}].${problem.field}` })),
  );
  const sku = { ...price, dimensional };
  problems.push(...validateSku(sku));
  if (problems.length > 0) throw CoreValidationError.fromProblems(problems);
  return sku;
}

/** The SKU as a validated core price, or a 400 naming every offending field. */
function skuPrice(id: string, input: CreateSkuInput): SkuPrice {
  const problems = applicabilityProblems(input);
  try {
    const price = parseSkuPrice({
      sku_id: id,
      name: input.name,
      pricing_model: input.pricing_model,
      unit_amount_nanos: input.unit_amount_nanos ?? '0',
      currency: input.currency,
      ...(input.meter_event_type === undefined ? {} : { meter_event_type: input.meter_event_type }),
      ...(input.tiers === undefined ? {} : { tiers: input.tiers }),
      ...(input.package_size === undefined ? {} : { package_size: input.package_size }),
      ...(input.pricing_model === 'Package' ? { package_rounding: input.package_rounding ?? 'Up' } : {}),
      ...(input.commit_amount_nanos === undefined ? {} : { commit_amount_nanos: input.commit_amount_nanos }),
      ...(input.overage_unit_amount_nanos === undefined ? {} : { overage_unit_amount_nanos: input.overage_unit_amount_nanos }),
      ...(input.package_free_units === undefined ? {} : { package_free_units: input.package_free_units }),
      ...(input.minimum_amount_nanos === undefined ? {} : { minimum_amount_nanos: input.minimum_amount_nanos }),
      ...(input.percentage_bps === undefined ? {} : { percentage_bps: input.percentage_bps }),
      ...(input.amount_property === undefined ? {} : { amount_property: input.amount_property }),
      ...(input.per_event_fee_nanos === undefined ? {} : { per_event_fee_nanos: input.per_event_fee_nanos }),
      ...(input.per_event_minimum_nanos === undefined ? {} : { per_event_minimum_nanos: input.per_event_minimum_nanos }),
      ...(input.per_event_maximum_nanos === undefined ? {} : { per_event_maximum_nanos: input.per_event_maximum_nanos }),
    });
    problems.push(...priceBoundProblems(price));
    if (problems.length === 0) return withDimensions(price, input);
  } catch (err) {
    if (!(err instanceof CoreValidationError)) throw err;
    // The core may report a rule already reported above (a Committed SKU without unit amount).
    const reported = new Set(problems.map((p) => `${p.field} ${p.code}`));
    problems.push(...err.problems.filter((p) => !reported.has(`${p.field} ${p.code}`)));
  }
  throw problemsError(problems);
}

/** The audit entry of a catalog creation: `<entity>.created` carrying the new record. */
async function auditCreated(tx: Prisma.TransactionClient, context: RequestContext, entityType: 'product' | 'plan' | 'sku', record: { id: string }) {
  await recordAudit(tx, {
    action: `${entityType}.created`,
    actor: context.actor,
    entityType,
    entityId: record.id,
    after: record,
    requestId: context.requestId,
  });
}

async function found<T>(lookup: Promise<T | null>, entity: string, id: string): Promise<T> {
  const record = await lookup;
  if (record === null) throw notFound(entity, id);
  return record;
}

export async function createProduct(db: Db, input: CreateProductInput, context: RequestContext): Promise<ProductView> {
  return db.$transaction(async (tx) => {
    const product = await insertProduct(tx, { id: newId(), ...input });
    await auditCreated(tx, context, 'product', product);
    return product;
  });
}

export const getProduct = (db: Db, id: string): Promise<ProductView> => found(findProduct(db, id), 'product', id);
export const listProducts = (db: Db, page: PageQuery): Promise<ProductView[]> => listProductRows(db, page);

export async function createPlan(db: Db, input: CreatePlanInput, context: RequestContext): Promise<PlanView> {
  return db.$transaction(async (tx) => {
    if (input.product_id !== null) {
      const product = await lockProduct(tx, input.product_id);
      if (product === null) throw missingReference('product_id', 'product', input.product_id);
      if (product.archived_at !== null) throw productArchived(product.id);
    }
    const { metadata, ...fields } = input;
    const plan = await insertPlan(tx, { id: newId(), ...fields, metadata: mergeMetadata({}, metadata ?? {}) });
    await auditCreated(tx, context, 'plan', plan);
    return plan;
  });
}

/**
 * Merges `changes` into the plan's metadata, archived or not: metadata is never billed, so it is
 * no price change and opens no new version. Audited as plan.updated.
 */
export async function updatePlanMetadata(db: Db, id: string, changes: MetadataChanges, context: RequestContext): Promise<PlanView> {
  return db.$transaction(async (tx) => {
    const before = (await lockPlan(tx, id, 'update')) === null ? null : await findPlan(tx, id);
    if (before === null) throw notFound('plan', id);
    const after = await setPlanMetadata(tx, id, mergeMetadata(before.metadata, changes));
    await recordAudit(tx, {
      action: 'plan.updated',
      actor: context.actor,
      entityType: 'plan',
      entityId: id,
      before: { metadata: before.metadata },
      after: { metadata: after.metadata },
      requestId: context.requestId,
    });
    return after;
  });
}

export const getPlan = (db: Db, id: string): Promise<PlanView> => found(findPlan(db, id), 'plan', id);
export const listPlans = (db: Db, page: PageQuery & { currency?: string | undefined; product_id?: string | undefined }): Promise<PlanView[]> => listPlanRows(db, page);

/**
 * Adds a SKU to the plan's current version, or to a new version when a subscription is on the
 * current one (its prices are frozen). An event type billed with an archived meter is refused.
 */
export async function createSku(db: Db, input: CreateSkuInput, context: RequestContext): Promise<SkuView> {
  const parsed = skuPrice(newId(), input);
  if (parsed.pricing_model === 'Percentage' && input.meter_id !== undefined) {
    throw new DomainError(
      'unprocessable',
      'meter_not_applicable',
      "meter_id: a Percentage SKU charges each event of its meter_event_type on the event's amount_property, not a meter's quantity; send meter_event_type instead",
      { field: 'meter_id' },
    );
  }
  if (parsed.dimensional !== undefined && input.meter_id === undefined) throw groupedMeterUnsupported('group_by needs meter_id: a dimensional SKU names the meter it reads per dimension value');
  const sku = await db.$transaction(async (tx) => {
    const plan = await lockPlan(tx, input.plan_id, 'update');
    if (plan === null) {
      throw missingReference('plan_id', 'plan', input.plan_id);
    }
    if (plan.archived) throw planArchived(plan.id);
    if (plan.currency !== null && plan.currency !== parsed.currency) {
      throw conflict('plan_currency_mismatch', `currency: the SKUs of plan ${input.plan_id} are priced in ${plan.currency}, not ${parsed.currency}`, {
        field: 'currency',
        plan_currency: plan.currency,
      });
    }
    const price = input.meter_id === undefined ? parsed : await withNamedMeter(tx, parsed, input.meter_id);
    if (input.meter_id === undefined && price.meter_event_type !== undefined) await assertMeterNotArchived(tx, price.meter_event_type);
    const version = await versionForChange(tx, plan, context);
    const created = await insertSku(tx, input.plan_id, version, price);
    await auditCreated(tx, context, 'sku', created);
    return created;
  });
  // This process bounds the amount property at the door from the next event on (others within 5 s).
  if (parsed.pricing_model === 'Percentage') numericPropertiesChanged();
  return sku;
}

/**
 * The price with the meter it names: the meter must exist (404 meter_not_found) and not be archived
 * (409 meter_archived), and a meter_event_type given with it must be the meter's (422
 * meter_event_type_mismatch); the SKU stores the meter's event type. Locks the meter row, so an
 * archive cannot slip in between.
 */
async function withNamedMeter(tx: Prisma.TransactionClient, price: SkuPrice, meterId: string): Promise<SkuPrice> {
  const meter = await lockMeter(tx, meterId);
  if (meter === null) throw missingReference('meter_id', 'meter', meterId);
  if (meter.archivedAt !== null) {
    throw conflict('meter_archived', `meter_id: meter ${meterId} is archived; new SKUs cannot price it`, { field: 'meter_id', meter_id: meterId });
  }
  if (price.meter_event_type !== undefined && price.meter_event_type !== meter.eventType) {
    throw new DomainError(
      'unprocessable',
      'meter_event_type_mismatch',
      `meter_event_type: meter ${meterId} measures ${JSON.stringify(meter.eventType)}, not ${JSON.stringify(price.meter_event_type)}`,
      { field: 'meter_event_type', meter_id: meterId, meter_event_type: meter.eventType },
    );
  }
  if (price.dimensional !== undefined && (meter.windowType !== 'BillingPeriod' || !GROUPABLE_AGGREGATIONS.has(meter.aggregation))) {
    throw groupedMeterUnsupported(
      `meter_id: meter ${meterId} aggregates ${meter.aggregation} over ${meter.windowType} windows; a dimensional SKU reads a BillingPeriod meter aggregating ${[...GROUPABLE_AGGREGATIONS].join(', ')}`,
    );
  }
  return { ...price, meter_id: meterId, meter_event_type: meter.eventType };
}

/** The aggregations a meter of a dimensional SKU may have: those read per dimension value in one statement over the period. */
const GROUPABLE_AGGREGATIONS: ReadonlySet<string> = new Set(['Sum', 'Count', 'Max', 'UniqueCount']);

const groupedMeterUnsupported = (message: string): DomainError => new DomainError('unprocessable', 'group_by_meter_unsupported', message, { field: 'meter_id' });

export const getSku = (db: Db, id: string): Promise<SkuView> => found(findSku(db, id), 'sku', id);
export const listSkus = (db: Db, query: PageQuery & { plan_id?: string | undefined; currency?: string | undefined }): Promise<SkuView[]> => listSkuRows(db, query);
