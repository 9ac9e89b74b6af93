/** The rating preview as the API returns it: a plan rated for one period, exact, with its display total. */
import { z } from '@hono/zod-openapi';
import { DimensionsSchema, PricingModelSchema } from './catalog.js';
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
          tier: z.number().int().openapi({ description: 'index of the tier in the price (0 = first)' }),
          from: z.string().openapi({ description: "exclusive lower bound in whole units (the previous tier's up_to, 0 for the first)" }),
          up_to: z.string().nullable().openapi({ description: 'inclusive upper bound in whole units; null for the unbounded last tier' }),
          quantity: z.string().openapi({ description: 'the units priced in this tier (Volume: all units, in the one tier they fall into)' }),
          unit_amount_nanos: MoneySchema.openapi({ description: "the tier's price per unit" }),
          flat_amount_nanos: MoneySchema.openapi({ description: "the tier's flat fee, charged once when the quantity reaches the tier (\"0\" without one)" }),
          amount_nanos: MoneySchema.openapi({ description: 'quantity × unit_amount_nanos + flat_amount_nanos; the tiers sum to the line\'s list amount (the line\'s one rounding is carried by its last tier)' }),
        }),
      )
      .readonly()
      .openapi({ description: 'Graduated and Volume: the tier breakdown the line was priced from (the tier overrides in force when a contract replaces them); [] for other models' }),
    package: z
      .object({
        package_size: z.string(),
        package_rounding: z.enum(['Up', 'Down']),
        free_units: z.string().openapi({ description: 'units free before the first package' }),
        packages: z.string().openapi({ description: 'packages billed: ⌈(quantity − free_units)⁺ / package_size⌉ (Up) or ⌊…⌋ (Down)' }),
      })
      .optional()
      .openapi({ description: 'Package lines: how the quantity was packaged' }),
    percentage: z
      .object({
        basis_points: z.number().int().openapi({ description: "the rate on each event's amount" }),
        amount_property: z.string().openapi({ description: 'the event property read as the amount' }),
        per_event_fee_nanos: MoneySchema.openapi({ description: 'fixed fee added per event' }),
        per_event_minimum_nanos: MoneySchema.nullable().openapi({ description: 'least fee per event, or null' }),
        per_event_maximum_nanos: MoneySchema.nullable().openapi({ description: 'greatest fee per event, or null' }),
      })
      .optional()
      .openapi({
        description:
          "Percentage lines: the terms each event's fee was computed with; the line's quantity is the exact sum of the period's fees in currency units, priced at 1.00 per unit",
      }),
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
    dimensions: DimensionsSchema.optional().openapi({
      description: "a dimensional SKU's line (one per dimension value): the value it prices, e.g. {\"region\": \"eu\"}; null values: events without the property; {}: the `other` bucket",
    }),
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

/** A minimum-spend true-up (core MinimumTrueUp); also the detail of an invoice line of kind "minimum". */
export const minimumTrueUpFields = {
  sku_id: UuidSchema,
  description: z.string(),
  minimum_amount_nanos: MoneySchema.openapi({ description: "the SKU's minimum for the days served (prorated when only part of the period is)" }),
  usage_amount_nanos: MoneySchema.openapi({ description: "what the SKU's line bills in the period (after every adjustment)" }),
  amount_nanos: MoneySchema.openapi({ description: 'the true-up: max(0, minimum_amount_nanos − usage_amount_nanos)' }),
  proration: z
    .object({ days_used: z.number().int(), days_in_period: z.number().int() })
    .nullable()
    .openapi({ description: 'the days served of the period when the minimum was prorated; null for the whole period' }),
};

const MinimumTrueUpSchema = z.object(minimumTrueUpFields).openapi('MinimumTrueUp');

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
    minimums: z
      .array(MinimumTrueUpSchema)
      .readonly()
      .openapi({ description: 'one per SKU with a minimum_amount_nanos: the true-up its line needs to reach the minimum (included in subtotal_nanos and total_nanos)' }),
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
