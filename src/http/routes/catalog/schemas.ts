/**
 * The requests of the catalog routes: bodies, queries and path parameters, validated before a handler runs.
 */
import { z } from '@hono/zod-openapi';
import { MAX_MIGRATION_BATCH } from '../../../services/subscriptions/plan-migrations.js';
import { BillingCadenceSchema, PackageRoundingSchema, PricingModelSchema, TierInputSchema } from '../../../schemas/catalog.js';
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
    commit_amount_nanos: MoneySchema.optional().openapi({ description: 'Committed only: minimum charge per period' }),
    overage_unit_amount_nanos: MoneySchema.optional().openapi({ description: 'Committed only: price per unit beyond the commit' }),
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
