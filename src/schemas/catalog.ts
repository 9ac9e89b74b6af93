/** The catalog as the API returns it: products, plans and their SKUs (SPEC §2 "Product, Plan, SKU"). */
import { z } from '@hono/zod-openapi';
import { CurrencySchema, MoneySchema, TimestampSchema, UuidSchema } from './common.js';

export const PricingModelSchema = z.enum(['Flat', 'PerUnit', 'Graduated', 'Volume', 'Package', 'Committed']).openapi('PricingModel');
export const BillingCadenceSchema = z.enum(['Monthly', 'Quarterly', 'SemiAnnual', 'Annual']).openapi('BillingCadence');
export const PackageRoundingSchema = z.enum(['Up', 'Down']).openapi('PackageRounding');

const tierFields = {
  up_to: z.number().int().nullable().openapi({ description: 'inclusive upper bound in whole units; null for the last, unbounded tier' }),
  unit_amount_nanos: MoneySchema,
  flat_amount_nanos: MoneySchema.optional().openapi({ description: 'charged once when the quantity enters (Graduated) or falls into (Volume) the tier' }),
};

/** A tier as a request sends it (strict; SKUs and the rating preview's tier overrides) … */
export const TierInputSchema = z.strictObject(tierFields).openapi('TierInput');
/** … and as a response returns it. */
export const TierSchema = z.object(tierFields).openapi('Tier');

export const ProductSchema = z
  .object({ id: UuidSchema, name: z.string(), description: z.string(), tags: z.array(z.string()), created_at: TimestampSchema })
  .openapi('Product');

export type ProductView = z.infer<typeof ProductSchema>;

export const SkuSchema = z
  .object({
    id: UuidSchema,
    plan_id: UuidSchema,
    name: z.string(),
    pricing_model: PricingModelSchema,
    unit_amount_nanos: MoneySchema,
    meter_event_type: z.string().nullable(),
    currency: CurrencySchema,
    tiers: z.array(TierSchema).nullable(),
    package_size: z.string().nullable().openapi({ description: 'units per package, decimal-integer string' }),
    package_rounding: PackageRoundingSchema.nullable(),
    commit_amount_nanos: MoneySchema.nullable(),
    overage_unit_amount_nanos: MoneySchema.nullable(),
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
    created_at: TimestampSchema,
    skus: z.array(SkuSchema).openapi({ description: 'the SKUs of the plan in creation order' }),
  })
  .openapi('Plan');

export type PlanView = z.infer<typeof PlanSchema>;
