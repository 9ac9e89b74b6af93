/** The rating preview as the API returns it: a plan rated for one period, exact, with its display total. */
import { z } from '@hono/zod-openapi';
import { PricingModelSchema } from './catalog.js';
import { CurrencySchema, IsoDateSchema, MoneySchema, UuidSchema } from './common.js';

/** The fields of a rated line; also the detail of the invoice lines billing rates (InvoiceLineDetail). */
export const ratedLineFields = {
    sku_id: UuidSchema,
    description: z.string(),
    pricing_model: PricingModelSchema,
    currency: CurrencySchema,
    quantity: z.string(),
    unit_amount_nanos: MoneySchema,
    list_amount_nanos: MoneySchema.openapi({ description: 'at catalog prices, before any adjustment' }),
    tiers: z
      .array(
        z.object({
          tier: z.number().int(),
          from: z.string(),
          up_to: z.string().nullable(),
          quantity: z.string(),
          unit_amount_nanos: MoneySchema,
          flat_amount_nanos: MoneySchema,
          amount_nanos: MoneySchema,
        }),
      )
      .readonly(),
    package: z.object({ package_size: z.string(), package_rounding: z.enum(['Up', 'Down']), packages: z.string() }).optional(),
    commitment: z
      .object({
        commit_amount_nanos: MoneySchema,
        usage_value_nanos: MoneySchema,
        excess_usage_value_nanos: MoneySchema,
        overage_unit_amount_nanos: MoneySchema,
        overage_amount_nanos: MoneySchema,
      })
      .optional(),
    meter: z
      .object({
        meter_id: z.string().openapi({ description: 'the meter\'s id, or "default:<event_type>" for the built-in default of an event type without meters' }),
        event_type: z.string(),
        aggregation: z.string().openapi({ description: 'Sum, Count, Max, UniqueCount, LATEST or WEIGHTED_SUM' }),
        filters: z
          .array(
            z.object({
              property: z.string(),
              operator: z.string().openapi({ description: 'Equals, NotEquals, GreaterThan, GreaterThanOrEqual, LessThan, LessThanOrEqual or In' }),
              value: z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number(), z.boolean()])).readonly()]),
            }),
          )
          .readonly()
          .openapi({ description: "the meter's filters ({property, operator, value}), all of which hold for the events counted" }),
        window_type: z.string().openapi({ description: 'BillingPeriod, Sliding or Tumbling (see the usage summary)' }),
        window_size: z.string().nullable().openapi({ description: 'ISO 8601 duration of Sliding and Tumbling windows; null for BillingPeriod' }),
      })
      .optional()
      .openapi({ description: 'usage lines: the meter the quantity was read from (the SKU\'s meter_id, else its meter_event_type\'s default meter)' }),
    adjustments: z
      .array(
        z.object({
          kind: z.enum(['TierOverride', 'Escalation', 'RateOverride', 'Proration', 'ContractDiscount']),
          basis_points: z.number().int().optional(),
          amount_nanos: MoneySchema,
          description: z.string(),
        }),
      )
      .readonly(),
    subtotal_nanos: MoneySchema,
    discount_nanos: MoneySchema,
    amount_nanos: MoneySchema,
};

// Arrays are readonly to match the core's serialized plan (RatedPlanJson), which is returned as is.
const RatedLineSchema = z.object(ratedLineFields).openapi('RatedLine');

export const RatingPreviewSchema = z
  .object({
    plan_id: UuidSchema,
    as_of: IsoDateSchema,
    currency: CurrencySchema,
    period: z.object({ start: IsoDateSchema, end: IsoDateSchema }),
    phase: z.number().int().nullable().openapi({ description: 'the contract ramp phase applied; null without one, or when the period is split (see pieces)' }),
    pieces: z
      .array(
        z.object({
          start: IsoDateSchema,
          end: IsoDateSchema.openapi({ description: 'exclusive' }),
          days: z.number().int(),
          phase: z.number().int().nullable().openapi({ description: 'the ramp phase in force, or null (contract-level terms)' }),
          escalation_periods: z.number().int().openapi({ description: 'escalation steps elapsed on this piece' }),
          lines: z.array(RatedLineSchema).readonly().openapi({ description: "one line per SKU, in the plan's order; quantity is this piece's usage" }),
          subtotal_nanos: MoneySchema,
          discount_nanos: MoneySchema,
          total_nanos: MoneySchema,
        }),
      )
      .readonly()
      .openapi({ description: 'the period split where the contract terms change; one piece when they do not' }),
    lines: z
      .array(RatedLineSchema)
      .readonly()
      .openapi({ description: "one line per SKU of the plan, in the plan's order; for a split period, the sum of the SKU's piece lines" }),
    subtotal_nanos: MoneySchema,
    discount_nanos: MoneySchema,
    total_nanos: MoneySchema,
    display: z
      .object({
        currency: CurrencySchema,
        total: z.string().openapi({ example: '69.50' }),
        total_minor_units: z.string().openapi({ example: '6950' }),
      })
      .openapi({ description: 'total_nanos rounded once (HalfEven) to the minor unit of the currency' }),
  })
  .openapi('RatingPreview');

export type RatingPreview = z.infer<typeof RatingPreviewSchema>;
