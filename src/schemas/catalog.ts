/** The catalog as the API returns it: products, plans and their SKUs (SPEC §2 "Product, Plan, SKU"). */
import { z } from '@hono/zod-openapi';
import { CurrencySchema, MetadataSchema, MoneySchema, TimestampSchema, UuidSchema } from './common.js';

export const PricingModelSchema = z.enum(['Flat', 'PerUnit', 'Graduated', 'Volume', 'Package', 'Committed', 'Percentage']).openapi('PricingModel');
export const BillingCadenceSchema = z.enum(['Monthly', 'Quarterly', 'SemiAnnual', 'Annual']).openapi('BillingCadence');
export const PackageRoundingSchema = z.enum(['Up', 'Down']).openapi('PackageRounding');
export const TierScopeSchema = z
  .enum(['per_value', 'across_all'])
  .openapi('TierScope', { description: "a dimensional SKU's tiers: counted per dimension value (each from 0), or across all values together" });

const tierFields = {
  up_to: z.number().int().nullable().openapi({ description: 'inclusive upper bound in whole units; null for the last, unbounded tier' }),
  unit_amount_nanos: MoneySchema,
  flat_amount_nanos: MoneySchema.optional().openapi({ description: 'charged once when the quantity enters (Graduated) or falls into (Volume) the tier' }),
};

/** A tier as a request sends it (strict; SKUs and the rating preview's tier overrides) … */
export const TierInputSchema = z.strictObject(tierFields).openapi('TierInput');
/** … and as a response returns it. */
export const TierSchema = z.object(tierFields).openapi('Tier');

const ArchivedAtSchema = TimestampSchema.nullable();

const dimensionPriceFields = {
  values: z.record(z.string(), z.string()).openapi({ description: 'every group_by property with its value, e.g. {"region": "eu"}', example: { region: 'eu' } }),
  pricing_model: PricingModelSchema.openapi({ description: 'PerUnit, Graduated, Volume or Package' }),
  unit_amount_nanos: MoneySchema.optional(),
  package_size: z.string().optional().openapi({ description: 'Package: units per package, decimal-integer string' }),
  package_rounding: PackageRoundingSchema.optional(),
  package_free_units: z.string().optional().openapi({ description: 'Package: units free before the first package, decimal-integer string' }),
};

/** The price of one listed dimension value, as a request sends it … */
export const DimensionPriceInputSchema = z
  .strictObject({ ...dimensionPriceFields, tiers: z.array(TierInputSchema).max(100).optional() })
  .openapi('DimensionPriceInput');
/** … and as a response returns it. */
export const DimensionPriceSchema = z.object({ ...dimensionPriceFields, tiers: z.array(TierSchema).optional() }).openapi('DimensionPrice');

/** The dimension value an invoice line or a rated line prices ({} for the `other` bucket of the values beyond the bound). */
export const DimensionsSchema = z
  .record(z.string(), z.string().nullable())
  .openapi('Dimensions', {
    description: 'each group_by property with the value this line prices (null: events without the property); {} is the `other` bucket of the values beyond the cardinality bound',
    example: { region: 'eu' },
  });

export const ProductSchema = z
  .object({
    id: UuidSchema,
    name: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
    archived_at: ArchivedAtSchema.openapi({ description: 'set when archived: no new plans, and its plans take no new subscriptions' }),
    created_at: TimestampSchema,
  })
  .openapi('Product');

export type ProductView = z.infer<typeof ProductSchema>;

export const SkuSchema = z
  .object({
    id: UuidSchema,
    plan_id: UuidSchema,
    name: z.string(),
    pricing_model: PricingModelSchema,
    unit_amount_nanos: MoneySchema,
    meter_event_type: z.string().nullable().openapi({ description: "the event type it rates (the named meter's when meter_id is set); null for a Flat SKU without one" }),
    meter_id: UuidSchema.nullable().openapi({
      description: "the meter it prices; null: the default meter of meter_event_type (the first meter created for that event type, else the type's built-in default, the sum of `quantity`), resolved when it is rated",
    }),
    currency: CurrencySchema,
    tiers: z.array(TierSchema).nullable(),
    package_size: z.string().nullable().openapi({ description: 'units per package, decimal-integer string' }),
    package_rounding: PackageRoundingSchema.nullable(),
    commit_amount_nanos: MoneySchema.nullable(),
    overage_unit_amount_nanos: MoneySchema.nullable(),
    package_free_units: z.string().nullable().openapi({ description: 'Package: units free before the first package, decimal-integer string' }),
    minimum_amount_nanos: MoneySchema.nullable().openapi({ description: 'usage models: the least the SKU bills per period; a true-up line (kind "minimum") makes up the rest' }),
    percentage_bps: z.number().int().nullable().openapi({ description: "Percentage: the rate on each event's amount, in basis points" }),
    amount_property: z.string().nullable().openapi({ description: 'Percentage: the event property holding the amount, in currency units' }),
    per_event_fee_nanos: MoneySchema.nullable().openapi({ description: 'Percentage: fixed fee added per event' }),
    per_event_minimum_nanos: MoneySchema.nullable().openapi({ description: 'Percentage: least fee per event' }),
    per_event_maximum_nanos: MoneySchema.nullable().openapi({ description: 'Percentage: greatest fee per event' }),
    group_by: z.array(z.string()).nullable().openapi({ description: 'dimensional pricing: the event properties it prices per value of (one invoice line per value); null when priced as one quantity' }),
    tier_scope: TierScopeSchema.nullable(),
    dimension_prices: z.array(DimensionPriceSchema).nullable().openapi({ description: "the listed values' own prices; any other value is priced by the SKU's own terms" }),
    version_from: z.number().int().openapi({ description: 'the first version of its plan holding this SKU' }),
    version_to: z.number().int().nullable().openapi({ description: 'the first version of its plan without it (archived); null while the current version holds it' }),
    archived_at: ArchivedAtSchema.openapi({ description: 'when the SKU was archived (taken out of the plan from version_to on)' }),
    created_at: TimestampSchema,
  })
  .openapi('Sku');

export type SkuView = z.infer<typeof SkuSchema>;

export const PlanSchema = z
  .object({
    id: UuidSchema,
    product_id: UuidSchema.nullable(),
    name: z.string(),
    description: z.string(),
    billing_cadence: BillingCadenceSchema,
    trial_days: z.number().int(),
    version: z.number().int().openapi({ description: 'the current version: new subscriptions take it; a SKU change while a subscription is on it opens the next one' }),
    archived_at: ArchivedAtSchema.openapi({ description: 'set when archived: no new subscriptions, SKUs, plan changes into it or migrations' }),
    metadata: MetadataSchema,
    created_at: TimestampSchema,
    skus: z.array(SkuSchema).openapi({ description: 'the SKUs of the current version in creation order' }),
  })
  .openapi('Plan');

export type PlanView = z.infer<typeof PlanSchema>;

export const PlanVersionSchema = z
  .object({
    version: z.number().int(),
    created_at: TimestampSchema,
    subscription_count: z.number().int().openapi({ description: 'subscriptions on this version now (any state)' }),
    skus: z.array(SkuSchema).openapi({ description: 'the SKUs of this version in creation order' }),
  })
  .openapi('PlanVersion');

export type PlanVersionView = z.infer<typeof PlanVersionSchema>;

const ProrationSchema = z.object({
  credit_nanos: MoneySchema.openapi({ description: "unused part of the old version's Flat fees for the rest of the period" }),
  charge_nanos: MoneySchema.openapi({ description: "the new version's Flat fees for the rest of the period" }),
  net_nanos: MoneySchema.openapi({ description: 'charge − credit: what the move adds to the period (negative lowers it)' }),
});

export const PlanMigrationSchema = z
  .object({
    plan_id: UuidSchema,
    preview: z.boolean(),
    to_version: z.number().int(),
    subscriptions: z.array(
      z.object({
        subscription_id: UuidSchema,
        customer_id: UuidSchema,
        status: z.string(),
        from_version: z.number().int(),
        to_version: z.number().int(),
        effective_at: TimestampSchema.openapi({ description: "the subscription's now (its test clock's time when on one)" }),
        proration: ProrationSchema,
        sku_changes: z.object({ added: z.array(UuidSchema), removed: z.array(UuidSchema) }),
        result: z.enum(['moved', 'failed']).optional().openapi({ description: 'apply only' }),
        error: z.object({ code: z.string(), message: z.string() }).optional().openapi({ description: 'why the move was refused (apply only)' }),
        invoice_id: UuidSchema.nullable().optional().openapi({ description: "the period's Draft after the move (apply only)" }),
      }),
    ),
    moved_count: z.number().int(),
    failed_count: z.number().int(),
    remaining_count: z.number().int().openapi({ description: 'movable subscriptions beyond this batch: send the request again' }),
  })
  .openapi('PlanMigration');

export type PlanMigrationView = z.infer<typeof PlanMigrationSchema>;
