/**
 * The requests of the rating routes: bodies, queries and path parameters, validated before a handler runs.
 */
import { z } from '@hono/zod-openapi';
import { MAX_DIMENSION_VALUES } from '../../../core/index.js';
import { IsoDateSchema, NonNegativeMoneySchema, UuidSchema } from '../../../schemas/common.js';
import { pricing } from '../contracts/schemas.js';

const EscalationBpsSchema = z.number().int().min(0).max(10_000).openapi({ description: 'increase per step in basis points, at most 10000 (100%)' });

const QuantitySchema = z
  .string({ message: 'must be a decimal string, not a number' })
  .regex(/^[0-9]{1,38}(\.[0-9]{1,38})?$/, 'must be a non-negative decimal string such as "1500" or "12.5"')
  .openapi({ example: '1500' });

const escalationTiming = {
  start_date: IsoDateSchema.openapi({ description: 'escalation steps are counted from this date' }),
  interval_months: z.number().int().min(1).max(120).default(12).openapi({ description: 'months per escalation step (default 12)' }),
};

const EscalationSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('Percent'), basis_points: EscalationBpsSchema, ...escalationTiming }),
    z.strictObject({ kind: z.literal('Fixed'), amount_nanos: NonNegativeMoneySchema, ...escalationTiming }),
  ])
  .openapi('Escalation', { description: 'Percent compounds per step on every line; Fixed adds amount_nanos per step to recurring fees' });

const ContractTermPricingSchema = z
  .strictObject({
    phase: z.number().int(),
    start_date: IsoDateSchema,
    end_date: IsoDateSchema.openapi({ description: 'exclusive: a term covers [start_date, end_date)' }),
    committed_amount_nanos: NonNegativeMoneySchema,
    description: z.string().max(500).default(''),
    ...pricing,
  })
  .openapi('ContractTermPricing');

const ContractPricingSchema = z
  .strictObject({ ...pricing, escalation: EscalationSchema.optional(), terms: z.array(ContractTermPricingSchema).max(50).optional() })
  .openapi('ContractPricing', {
    description:
      'contract-level pricing; on each day of the period, the ramp phase (term) in force overrides each of discount_bps, tier_overrides and rate_overrides it sets',
  });

const MeterQuantitiesSchema = z.record(z.string().min(1).max(200), QuantitySchema);

export const PreviewRequestSchema = z
  .strictObject({
    plan_id: UuidSchema,
    quantities: MeterQuantitiesSchema.openapi({
      description:
        "meter → quantity aggregated over the whole period, keyed by a usage SKU's meter_id (its meter as billing resolves it, shown as lines[].meter.meter_id) or by meter_event_type (every SKU of that type whose meter_id is not given); " +
        'a Percentage SKU\'s quantity is keyed by its sku_id: the sum of its per-event fees in currency units (e.g. "13.7"); keys left out count as 0',
      example: { api_calls: '12500' },
    }),
    dimension_quantities: z
      .array(
        z.strictObject({
          sku_id: UuidSchema.openapi({ description: 'a dimensional SKU of the plan (one with group_by)' }),
          dimensions: z
            .record(z.string().min(1).max(200), z.string().max(1000).nullable())
            .openapi({ description: 'every group_by property of the SKU with a value (null: events without the property)', example: { region: 'eu' } }),
          quantity: QuantitySchema,
        }),
      )
      .max(MAX_DIMENSION_VALUES)
      .optional()
      .openapi({
        description:
          "a dimensional SKU's quantity per dimension value over the whole period (as the usage summary's `dimensions` shows them); each value is one line of the SKU priced by its value's price, values left out count as 0",
      }),
    usage_to_date: z
      .record(IsoDateSchema, MeterQuantitiesSchema)
      .optional()
      .openapi({
        description:
          'for a period split by a phase or escalation boundary: boundary date → meter → quantity aggregated over [period.start, date). Required for every inner boundary, refused for any other date',
        example: { '2026-04-16': { api_calls: '6000' } },
      }),
    as_of: IsoDateSchema.optional().openapi({
      description: 'start of the default period (one billing cadence of the plan); default today (UTC). With a period it must equal period.start',
    }),
    period: z
      .strictObject({ start: IsoDateSchema, end: IsoDateSchema })
      .optional()
      .openapi({ description: '[start, end); default one billing cadence of the plan from as_of' }),
    contract: ContractPricingSchema.optional(),
  })
  .openapi('RatingPreviewRequest');
