/**
 * The requests of the catalog routes: bodies, queries and path parameters, validated before a handler runs.
 */
import { z } from '@hono/zod-openapi';
import { MAX_DIMENSION_PRICES, MAX_FIXED_AMOUNT, MAX_FREE_UNITS, MAX_GROUP_BY, MAX_UNIT_AMOUNT } from '../../../core/index.js';
import { MAX_MIGRATION_BATCH } from '../../../services/subscriptions/plan-migrations.js';
import { BillingCadenceSchema, DimensionPriceInputSchema, PackageRoundingSchema, PricingModelSchema, TierInputSchema, TierScopeSchema } from '../../../schemas/catalog.js';
import { CurrencySchema, MetadataInputSchema, MoneySchema, UuidSchema } from '../../../schemas/common.js';
import { NameSchema } from '../../schemas.js';

const DescriptionSchema = z.string().max(2000).optional().openapi({ description: 'default ""' });

export const CreateProductSchema = z
  .strictObject({
    name: NameSchema,
    description: DescriptionSchema,
    tags: z
      .array(z.string().trim().min(1, 'must not be empty').max(64))
      .max(50)
      .refine((tags) => new Set(tags).size === tags.length, 'must not repeat a tag')
      .optional()
      .openapi({ description: 'matched by contract rate overrides (product_tag); default []' }),
  })
  .openapi('CreateProductRequest');

export const CreateSkuSchema = z
  .strictObject({
    plan_id: UuidSchema,
    name: NameSchema,
    pricing_model: PricingModelSchema,
    unit_amount_nanos: MoneySchema.optional().openapi({
      description:
        'price per unit (PerUnit), fee (Flat), price per package (Package), value of a unit against the commit (Committed); ' +
        'optional for Graduated and Volume (default "0", unused)',
    }),
    meter_event_type: z.string().trim().min(1, 'must not be empty').max(200).optional().openapi({
      description:
        "usage event_type this SKU rates, billed with that type's default meter (the first meter created for it; without meters, the sum of `quantity`). " +
        'Every model but Flat needs it or meter_id; with meter_id it may be left out, and must be the meter\'s event_type when given',
    }),
    meter_id: UuidSchema.optional().openapi({
      description: 'the meter this SKU prices (its filters and window): any meter of an event type, each priced by its own SKU. Must exist and not be archived',
    }),
    currency: CurrencySchema,
    tiers: z.array(TierInputSchema).max(100).optional().openapi({ description: 'Graduated and Volume only; at least one, the last unbounded' }),
    package_size: z
      .string()
      .regex(/^[1-9][0-9]{0,37}$/, 'must be a positive decimal-integer string')
      .optional()
      .openapi({ description: 'Package only: units per package', example: '1000' }),
    package_rounding: PackageRoundingSchema.optional().openapi({ description: 'Package only: a partial package is billed (Up, default) or not (Down)' }),
    package_free_units: z
      .string()
      .regex(/^[0-9]{1,38}$/, 'must be a decimal-integer string ≥ 0')
      .optional()
      .openapi({
        description: `Package only: units free before the first package (default "0", at most ${MAX_FREE_UNITS}); then every started package is billed (Up) or only whole ones (Down)`,
        example: '1000',
      }),
    commit_amount_nanos: MoneySchema.optional().openapi({ description: 'Committed only: minimum charge per period' }),
    overage_unit_amount_nanos: MoneySchema.optional().openapi({ description: 'Committed only: price per unit beyond the commit' }),
    minimum_amount_nanos: MoneySchema.optional().openapi({
      description:
        `PerUnit, Graduated, Volume, Package and Percentage: the least the SKU bills per period (at most ${MAX_FIXED_AMOUNT} raw units). ` +
        'At the period close a true-up line (kind "minimum") bills max(0, minimum − the SKU\'s line); prorated by days when the subscription serves part of the period',
    }),
    percentage_bps: z.number().int().min(0).max(10_000).optional().openapi({
      description: "Percentage only (required): the rate on each event's amount in basis points, 0-10000 (290 = 2.9%)",
      example: 290,
    }),
    amount_property: z.string().trim().min(1, 'must not be empty').max(200).optional().openapi({
      description:
        'Percentage only (required): the event property holding the amount in the currency units of the SKU (a number or decimal string); ' +
        'events without it, or with a negative one, are not charged',
      example: 'amount',
    }),
    per_event_fee_nanos: MoneySchema.optional().openapi({ description: `Percentage only: fixed fee added to each event's fee (default "0", at most ${MAX_UNIT_AMOUNT} raw units)` }),
    per_event_minimum_nanos: MoneySchema.optional().openapi({ description: `Percentage only: least fee per event (at most ${MAX_UNIT_AMOUNT} raw units)` }),
    per_event_maximum_nanos: MoneySchema.optional().openapi({ description: `Percentage only: greatest fee per event, ≥ per_event_minimum_nanos (at most ${MAX_UNIT_AMOUNT} raw units)` }),
    group_by: z
      .array(z.string().trim().min(1, 'must not be empty').max(200))
      .min(1)
      .max(MAX_GROUP_BY)
      .optional()
      .openapi({ description: `dimensional pricing: 1-${MAX_GROUP_BY} event properties priced per value (one invoice line per value); needs meter_id`, example: ['region'] }),
    tier_scope: TierScopeSchema.optional().openapi({ description: 'with group_by: tiers counted per value (per_value, the default) or across all values (across_all)' }),
    dimension_prices: z
      .array(DimensionPriceInputSchema)
      .max(MAX_DIMENSION_PRICES)
      .optional()
      .openapi({ description: "with group_by: values priced by their own terms; any other value (and events without the property) takes the SKU's own price" }),
  })
  .openapi('CreateSkuRequest');

export const CreatePlanSchema = z
  .strictObject({
    name: NameSchema,
    description: DescriptionSchema,
    billing_cadence: BillingCadenceSchema,
    trial_days: z.number().int().min(0).max(730).optional().openapi({ description: '0-730, default 0' }),
    product_id: UuidSchema.nullable().optional().openapi({ description: 'the product this plan sells; must exist' }),
    metadata: MetadataInputSchema.optional(),
  })
  .openapi('CreatePlanRequest');

export const MigrationRequestSchema = z
  .strictObject({
    preview: z.boolean().openapi({ description: 'true: tell which subscriptions would move and the proration effect, changing nothing' }),
    from_version: z.number().int().min(1).optional().openapi({ description: 'only subscriptions on this version; default every version but to_version' }),
    to_version: z.number().int().min(1).optional().openapi({ description: "default the plan's current version" }),
    limit: z.number().int().min(1).max(MAX_MIGRATION_BATCH).optional().openapi({ description: `at most this many subscriptions per request (default and maximum ${MAX_MIGRATION_BATCH})` }),
  })
  .openapi('PlanMigrationRequest');
