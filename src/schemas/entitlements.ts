/** Features, their attachments and overrides, and the customer's entitlements as the API returns them (docs/entitlements.md). */
import { z } from '@hono/zod-openapi';
import { TimestampSchema, UuidSchema } from './common.js';

export const FeatureKindSchema = z.enum(['Boolean', 'Metered', 'Static']).openapi({
  description: 'Boolean: on or off; Metered: a quantity per period read from a meter; Static: a value (e.g. seats: 10)',
});

export const FeatureLimitSchema = z.enum(['HardStop', 'Overage']).openapi({
  description: 'at the included quantity: HardStop denies more, Overage keeps allowing and the plan\'s overage SKU bills the usage beyond it',
});

export const QuantityTextSchema = z.string().openapi({ description: 'an exact decimal quantity', example: '1000' });

/** A static feature's value: a number, a string or a boolean. */
export const FeatureValueSchema = z.union([z.number(), z.string(), z.boolean()]).openapi({ example: 10 });

export const FeatureSchema = z
  .object({
    id: UuidSchema,
    key: z.string().openapi({ description: 'what products ask for (`feature` in a check)', example: 'api_calls' }),
    name: z.string(),
    kind: FeatureKindSchema,
    meter_id: UuidSchema.nullable().openapi({ description: 'Metered: the meter its usage is read from; null: the default meter of meter_event_type' }),
    meter_event_type: z.string().nullable(),
    unit: z.string(),
    archived_at: TimestampSchema.nullable(),
    created_at: TimestampSchema,
  })
  .openapi('Feature');

export const PlanFeatureSchema = z
  .object({
    id: UuidSchema,
    plan_id: UuidSchema,
    feature_id: UuidSchema,
    feature_key: z.string(),
    version_from: z.number().int(),
    version_to: z.number().int().nullable(),
    enabled: z.boolean(),
    included_quantity: QuantityTextSchema.nullable(),
    limit: FeatureLimitSchema.nullable(),
    overage_sku_id: UuidSchema.nullable(),
    value: FeatureValueSchema.optional().openapi({ description: 'Static features: the value; absent when not set' }),
    created_at: TimestampSchema,
  })
  .openapi('PlanFeature');

export const FeatureOverrideSchema = z
  .object({
    id: UuidSchema,
    feature_id: UuidSchema,
    subscription_id: UuidSchema.nullable(),
    contract_id: UuidSchema.nullable(),
    enabled: z.boolean().nullable(),
    included_quantity: QuantityTextSchema.nullable(),
    limit: FeatureLimitSchema.nullable(),
    value: FeatureValueSchema.optional().openapi({ description: 'Static features: the value; absent when not set' }),
    updated_at: TimestampSchema,
  })
  .openapi('FeatureOverride');

export const EntitlementSourceSchema = z.enum(['plan', 'contract', 'subscription']);

export const BalanceSourceSchema = z
  .object({
    source: z.enum(['included', 'grant', 'wallet', 'commit']).openapi({ description: 'included: the period\'s included quantity; grant: one grant; wallet, commit: money covering units at the overage SKU\'s price' }),
    grant_id: UuidSchema.optional(),
    quantity: QuantityTextSchema.openapi({ description: 'what it gives this period (a grant: its quantity plus what rolled over, or what is left of a one-off); money: the units the money left covers' }),
    consumed: QuantityTextSchema.openapi({ description: "the period's usage it absorbed (burn-down order: included, then grants by priority, then sooner expiry, then oldest)" }),
    remaining: QuantityTextSchema,
    money_nanos: z.string().optional().openapi({ description: 'wallet, commit: the money left (raw units, scale 12)' }),
    expires_at: TimestampSchema.nullable().optional(),
  })
  .openapi('EntitlementBalanceSource');

export const EntitlementSchema = z
  .object({
    feature: z.string().openapi({ description: 'the feature key' }),
    feature_id: UuidSchema,
    kind: FeatureKindSchema,
    has_access: z.boolean(),
    value: FeatureValueSchema.optional().openapi({ description: 'Static features: the value; absent otherwise' }),
    limit: FeatureLimitSchema.nullable(),
    usage: QuantityTextSchema.nullable().openapi({ description: 'Metered: usage of the current period, as the period close bills it' }),
    included: QuantityTextSchema.nullable(),
    granted: QuantityTextSchema.nullable().openapi({ description: 'Metered: quantity the grants give on top of included this period (an expired grant: what it absorbed)' }),
    reserved: QuantityTextSchema.nullable().openapi({ description: 'Metered: quantity held by open reservations' }),
    balance: QuantityTextSchema.nullable().openapi({ description: 'Metered: included + granted − usage − reserved, never below zero, plus the units wallet and commit money still cover (Overage features)' }),
    overage: QuantityTextSchema.nullable().openapi({ description: 'Metered: usage beyond included + granted' }),
    resets_at: TimestampSchema.nullable().openapi({ description: 'Metered: the end of the current billing period' }),
    sources: z.array(BalanceSourceSchema).openapi({ description: 'Metered: what the balance is made of, in burn-down order (empty for other kinds)' }),
    subscription_ids: z.array(UuidSchema).openapi({ description: 'the subscriptions granting the feature' }),
    source: EntitlementSourceSchema.openapi({ description: 'where the terms come from: the plan version, a contract override or a subscription override' }),
  })
  .openapi('Entitlement');

export const EntitlementListSchema = z
  .object({ customer_id: UuidSchema, as_of: TimestampSchema, entitlements: z.array(EntitlementSchema) })
  .openapi('EntitlementList');

export const DenialReasonSchema = z.enum(['feature_not_included', 'feature_disabled', 'limit_reached', 'customer_blocked']).openapi({
  description:
    'feature_not_included: no subscription of the customer carries the feature; feature_disabled: it is switched off; limit_reached: the quantity exceeds the balance of a HardStop feature; customer_blocked: a HardLimit spend alert is Triggered',
});

export const EntitlementCheckSchema = z
  .object({
    allowed: z.boolean(),
    customer_id: UuidSchema,
    feature: z.string(),
    quantity: QuantityTextSchema,
    reason: DenialReasonSchema.nullable().openapi({ description: 'why it was denied; null when allowed' }),
    message: z.string().nullable(),
    balance: QuantityTextSchema.nullable().openapi({ description: 'Metered: the balance after the reservation (if any)' }),
    usage: QuantityTextSchema.nullable(),
    included: QuantityTextSchema.nullable(),
    granted: QuantityTextSchema.nullable(),
    resets_at: TimestampSchema.nullable(),
    sources: z.array(BalanceSourceSchema).openapi({ description: 'Metered: what the balance is made of (see the entitlements list)' }),
    reservation: z
      .object({ id: UuidSchema, quantity: QuantityTextSchema, expires_at: TimestampSchema })
      .nullable()
      .openapi({ description: 'with reserve: true and allowed: the hold; send usage events with properties.reservation_id = id to commit it' }),
  })
  .openapi('EntitlementCheck');

export const EntitlementGrantSchema = z
  .object({
    id: UuidSchema,
    customer_id: UuidSchema,
    feature_id: UuidSchema,
    quantity: QuantityTextSchema.openapi({ description: 'what it gives: once (one-off), or each period (recurring)' }),
    recurring: z.boolean(),
    priority: z.number().int().openapi({ description: 'burn-down order among grants: lower first (then sooner expiry, then older)' }),
    rollover_cap: QuantityTextSchema.nullable().openapi({ description: 'recurring: at most this much of what is left rolls into the next period (null: nothing rolls over)' }),
    effective_at: TimestampSchema,
    expires_at: TimestampSchema.nullable(),
    voided_at: TimestampSchema.nullable(),
    created_at: TimestampSchema,
  })
  .openapi('EntitlementGrant');

export type EntitlementGrantView = z.infer<typeof EntitlementGrantSchema>;
export type FeatureView = z.infer<typeof FeatureSchema>;
export type PlanFeatureView = z.infer<typeof PlanFeatureSchema>;
export type FeatureOverrideView = z.infer<typeof FeatureOverrideSchema>;
export type FeatureEntitlementView = z.infer<typeof EntitlementSchema>;
export type EntitlementListView = z.infer<typeof EntitlementListSchema>;
export type EntitlementCheckView = z.infer<typeof EntitlementCheckSchema>;
