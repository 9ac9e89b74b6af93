/**
 * Metering as the API returns it: meters, the outcome of ingesting usage events and usage summaries
 * (SPEC §2 "Meter definition", "Usage event"). The enums are the database's: services assign rows
 * to these views and pass validated requests to the database, so a value missing on either side
 * fails the typecheck.
 */
import { z } from '@hono/zod-openapi';
import { TimestampSchema, UuidSchema } from './common.js';

/** Aggregations as SPEC spells them (Sum, Count, Max, UniqueCount; LATEST and WEIGHTED_SUM). */
export const AGGREGATIONS = ['Sum', 'Count', 'Max', 'UniqueCount', 'LATEST', 'WEIGHTED_SUM'] as const;
export const WINDOW_TYPES = ['BillingPeriod', 'Sliding', 'Tumbling'] as const;
export const FILTER_OPERATORS = ['Equals', 'NotEquals', 'GreaterThan', 'GreaterThanOrEqual', 'LessThan', 'LessThanOrEqual', 'In'] as const;

/** As SPEC spells them: Sum, Count, Max, UniqueCount, LATEST and WEIGHTED_SUM (what the API returns). */
export const AggregationSchema = z.enum(AGGREGATIONS).openapi({ description: 'Sum, Count, Max, UniqueCount, LATEST or WEIGHTED_SUM' });
/** Earlier spellings still accepted on input, each with the SPEC spelling it means. */
export const AGGREGATION_ALIASES = { Latest: 'LATEST', WeightedSum: 'WEIGHTED_SUM' } as const satisfies Record<string, (typeof AGGREGATIONS)[number]>;
/** An aggregation in a request: a SPEC spelling, or an earlier spelling (Latest, WeightedSum) read as the SPEC one. */
export const AggregationInputSchema = z
  .enum([...AGGREGATIONS, ...(Object.keys(AGGREGATION_ALIASES) as (keyof typeof AGGREGATION_ALIASES)[])])
  .transform((value): (typeof AGGREGATIONS)[number] => (value in AGGREGATION_ALIASES ? AGGREGATION_ALIASES[value as keyof typeof AGGREGATION_ALIASES] : (value as (typeof AGGREGATIONS)[number])))
  .openapi({ description: 'Sum, Count, Max, UniqueCount, LATEST or WEIGHTED_SUM (as SPEC spells them; Latest and WeightedSum are accepted too and stored as LATEST and WEIGHTED_SUM)' });
export const WindowTypeSchema = z.enum(WINDOW_TYPES);
const ScalarSchema = z.union([z.string().max(500), z.number(), z.boolean()]);
export const PropertyNameSchema = z
  .string()
  .min(1)
  .max(200)
  .openapi({ description: 'key in the event\'s properties; "properties.tokens" and "tokens" are the same', example: 'tokens' });

/** A meter's filter, as a meter definition sends it and a meter returns it. */
export const FilterSchema = z
  .strictObject({
    property: PropertyNameSchema,
    operator: z.enum(FILTER_OPERATORS),
    value: z.union([ScalarSchema, z.array(ScalarSchema)]).openapi({ description: 'a string, number or boolean; an array of them for In' }),
  })
  .openapi('MeterFilter');

export const MeterSchema = z
  .object({
    id: UuidSchema,
    name: z.string(),
    description: z.string(),
    event_type: z.string(),
    aggregation: AggregationSchema,
    property: z.string().nullable(),
    filters: z.array(FilterSchema),
    window_type: WindowTypeSchema,
    window_size: z.string().nullable(),
    unit: z.string(),
    archived_at: z.string().nullable().openapi({ description: 'when the meter was archived: new SKUs can no longer be billed with it; plan versions already pricing its event type keep billing with it' }),
    created_at: z.string(),
  })
  .openapi('Meter');

export type MeterView = z.infer<typeof MeterSchema>;

export const UNBILLABLE_REASONS = ['no_subscription', 'before_subscription_start', 'after_subscription_end', 'in_trial'] as const;
export const UnbillableReasonSchema = z.enum(UNBILLABLE_REASONS).openapi('UnbillableReason', {
  description:
    'no_subscription: its customer has no subscription (or none the event names); before_subscription_start / after_subscription_end: its timestamp is outside the subscription; in_trial: a trial bills nothing',
});
export type UnbillableReason = z.infer<typeof UnbillableReasonSchema>;

export const IngestResultSchema = z
  .object({
    accepted: z.boolean().openapi({ description: 'true when this request stored the event; false for an id already seen' }),
    event_id: z.string(),
    duplicate: z.boolean(),
    late: z.boolean().openapi({
      description: 'the stored event arrived after the period its timestamp falls in was closed: it is billed as a prior-period adjustment line on the next invoice (a correction invoice once the subscription has ended)',
    }),
    billable: z.boolean().openapi({ description: 'false when no subscription period covers the event: it is stored and counted, but no invoice will ever bill it (see unbillable_reason)' }),
    unbillable_reason: UnbillableReasonSchema.optional().openapi({ description: 'why the event will never be billed; present only when billable is false' }),
  })
  .openapi('IngestEventResult');

export type IngestEventResult = z.infer<typeof IngestResultSchema>;

export const BatchResultSchema = z
  .object({
    accepted_count: z.number().int().openapi({ description: 'events stored by this request' }),
    duplicate_count: z.number().int().openapi({ description: 'events whose id was already stored (earlier, or earlier in this batch)' }),
    late_count: z.number().int().openapi({ description: 'stored events whose period was already closed (billed as prior-period adjustments)' }),
    unbillable_count: z.number().int().openapi({ description: 'stored events no subscription period covers (never billed; see IngestEventResult.unbillable_reason)' }),
  })
  .openapi('IngestBatchResult');

export type IngestBatchResult = z.infer<typeof BatchResultSchema>;

export const UsageMeterEntrySchema = z
  .object({
    meter_id: z.string().openapi({ description: 'the meter\'s id, or "default:<event_type>" for an event_type without meters' }),
    name: z.string(),
    event_type: z.string(),
    aggregation: z.enum(AGGREGATIONS),
    value: z.string().openapi({ description: 'exact decimal string: the aggregate over this entry\'s window (window_start–window_end)', example: '1234.5' }),
    billable_value: z.string().openapi({
      description:
        "what an invoice of the period (period_start–period_end; with from/to, of that range) rates for this meter, from the events stored now: BillingPeriod meters their value over the period; Tumbling meters the sum over the period's windows of each window's value (e.g. the sum of daily maxima); Sliding meters their value over the window_size ending at period_end (clipped to the period). Exact decimal string, never below 0 (as invoices bill it)",
      example: '1234.5',
    }),
    unit: z.string(),
    window_type: z.enum([...WINDOW_TYPES, 'Custom']),
    window_start: z.string().openapi({ format: 'date-time' }),
    window_end: z.string().openapi({ format: 'date-time' }),
    event_count: z.number().int().openapi({ description: 'events matching the meter in its window' }),
    late_event_count: z.number().int().openapi({ description: 'of which arrived after their period was closed (billed as prior-period adjustments)' }),
    dimensions: z
      .array(
        z.object({
          sku_id: UuidSchema.openapi({ description: 'a dimensional SKU of the plan pricing this meter' }),
          group_by: z.array(z.string()),
          values: z.array(
            z.object({
              dimensions: z.record(z.string(), z.string().nullable()).openapi({ description: 'the value ({} for the `other` bucket beyond the cardinality bound)' }),
              billable_value: z.string().openapi({ description: "what an invoice of the period rates for this value (its line's quantity), never below 0" }),
            }),
          ),
        }),
      )
      .openapi({ description: "per dimensional SKU pricing this meter, the billable value per dimension value: the lines its invoice would carry; [] when none groups it" }),
  })
  .openapi('UsageMeterEntry');

export type UsageMeterEntry = z.infer<typeof UsageMeterEntrySchema>;

export const UsageSummarySchema = z
  .object({
    subscription_id: UuidSchema,
    customer_id: UuidSchema,
    period_start: z.string().openapi({ format: 'date-time' }),
    period_end: z.string().openapi({ format: 'date-time' }),
    as_of: z.string().openapi({ format: 'date-time', description: 'the reference instant used' }),
    unbillable_event_count: z.number().int().openapi({
      description: "events of this subscription (and its customer's events sent without a subscription_id) that no subscription period covers: stored, never billed (see IngestEventResult.unbillable_reason)",
    }),
    meters: z.array(UsageMeterEntrySchema),
  })
  .openapi('UsageSummary');

export type UsageSummary = z.infer<typeof UsageSummarySchema>;

/** A stored usage event as the admin list shows it. */
export const StoredUsageEventSchema = z
  .object({
    id: z.string().openapi({ description: 'the client-generated event id (the deduplication key)' }),
    event_type: z.string(),
    customer_id: UuidSchema,
    subscription_id: UuidSchema.nullable(),
    timestamp: TimestampSchema.openapi({ description: 'when the event occurred' }),
    properties: z.record(z.string(), z.unknown()).openapi({ additionalProperties: true }),
    source: z.string().nullable().openapi({ description: 'the CloudEvents source, when it came as a CloudEvent' }),
    late: z.boolean().openapi({ description: 'it arrived after its period was closed (billed as a prior-period adjustment)' }),
    unbillable_reason: UnbillableReasonSchema.nullable().openapi({ description: 'why no invoice will bill it; null when billable' }),
    received_at: TimestampSchema.openapi({ description: "when it was stored, in the customer's time (its test clock's when on one)" }),
  })
  .openapi('UsageEvent');

export type StoredUsageEventView = z.infer<typeof StoredUsageEventSchema>;
