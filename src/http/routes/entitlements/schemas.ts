/** The requests of the entitlements routes: bodies and path parameters, validated before a handler runs. */
import { z } from '@hono/zod-openapi';
import { DateTimeSchema, UuidSchema } from '../../../schemas/common.js';
import { FeatureKindSchema, FeatureLimitSchema, FeatureValueSchema } from '../../../schemas/entitlements.js';
import { NameSchema, PaginationQuerySchema } from '../../schemas.js';

/** A quantity as meters count it: ≥ 0, at most 18 integer digits and 12 decimals. */
const QuantityInputSchema = z
  .string()
  .regex(/^[0-9]{1,18}(\.[0-9]{1,12})?$/, 'must be a decimal string ≥ 0 with at most 18 integer digits and 12 decimals, e.g. "1000"')
  .openapi({ example: '1000' });

export const CreateFeatureSchema = z
  .strictObject({
    key: z.string().regex(/^[a-z0-9][a-z0-9_.-]{0,63}$/, 'lowercase letters, digits, "_", "." and "-", at most 64, e.g. api_calls').openapi({ example: 'api_calls' }),
    name: NameSchema,
    kind: FeatureKindSchema,
    meter_id: UuidSchema.nullable().optional().openapi({ description: 'Metered: the meter counting its usage' }),
    meter_event_type: z.string().trim().min(1).max(200).nullable().optional().openapi({ description: "Metered: the event type whose default meter counts its usage (the meter's, when meter_id is given)" }),
    unit: z.string().trim().min(1).max(50).optional().openapi({ description: "what a unit is called (default the meter's unit, else units)" }),
  })
  .openapi('CreateFeatureRequest');

export const AttachFeatureSchema = z
  .strictObject({
    feature_id: UuidSchema,
    enabled: z.boolean().optional().openapi({ description: 'default true' }),
    included_quantity: QuantityInputSchema.optional().openapi({ description: "Metered: included per billing period (default 0; an Overage feature's is its SKU's free allowance)" }),
    limit: FeatureLimitSchema.optional().openapi({ description: 'Metered: default HardStop' }),
    overage_sku_id: UuidSchema.optional().openapi({ description: 'Overage: the SKU of the plan version billing usage beyond the included quantity' }),
    value: FeatureValueSchema.optional().openapi({ description: 'Static: the value (e.g. 10 seats)' }),
  })
  .openapi('AttachFeatureRequest');

export const FeatureOverrideRequestSchema = z
  .strictObject({
    enabled: z.boolean().nullable().optional(),
    included_quantity: QuantityInputSchema.nullable().optional(),
    limit: FeatureLimitSchema.nullable().optional(),
    value: FeatureValueSchema.optional().openapi({ description: 'Static: the value (leave it out to keep the one below)' }),
  })
  .openapi('FeatureOverrideRequest');

export const CheckEntitlementSchema = z
  .strictObject({
    customer_id: UuidSchema.optional(),
    external_customer_id: z.string().min(1).max(255).optional(),
    feature: z.string().min(1).max(64).openapi({ description: 'the feature key', example: 'api_calls' }),
    quantity: QuantityInputSchema.optional().openapi({ description: 'how much more the product wants to use (default 1)' }),
    reserve: z.boolean().optional().openapi({ description: 'Metered: hold the quantity when allowed, until a usage event names the reservation or it expires' }),
    ttl_seconds: z.number().int().min(1).max(3600).optional().openapi({ description: 'how long a reservation holds (default 60)' }),
  })
  .refine((body) => (body.customer_id === undefined) !== (body.external_customer_id === undefined), {
    message: 'exactly one of customer_id and external_customer_id',
    path: ['customer_id'],
  })
  .openapi('CheckEntitlementRequest');

export const OwnerFeatureParamsSchema = z.object({ id: UuidSchema, feature_id: UuidSchema });

export const CreateGrantSchema = z
  .strictObject({
    feature_id: UuidSchema.openapi({ description: 'a Metered feature' }),
    quantity: QuantityInputSchema.openapi({ description: 'what it gives (> 0): once, or each period when recurring' }),
    recurring: z.boolean().optional().openapi({ description: 'default false: a one-off grant lasts until used up or expired' }),
    priority: z.number().int().min(-1000).max(1000).optional().openapi({ description: 'burn-down order among grants, lower first (default 0)' }),
    rollover_cap: QuantityInputSchema.nullable().optional().openapi({ description: 'recurring: at most this much of what is left rolls into the next period (default null: nothing)' }),
    effective_at: DateTimeSchema.optional().openapi({ description: "default now (the customer's test clock time when on one)" }),
    expires_at: DateTimeSchema.nullable().optional(),
  })
  .openapi('CreateEntitlementGrantRequest');

export const GrantListQuerySchema = PaginationQuerySchema.extend({ feature_id: UuidSchema.optional() });

export const CustomerGrantParamsSchema = z.object({ id: UuidSchema, grant_id: UuidSchema });
