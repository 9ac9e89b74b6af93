/**
 * The requests of the meters routes: bodies, queries and path parameters, validated before a handler runs.
 */
import { z } from '@hono/zod-openapi';
import { MAX_FILTERS, meterDefinitionIssues } from '../../../services/metering/meters.js';
import { AggregationInputSchema, FilterSchema, PropertyNameSchema, WindowTypeSchema } from '../../../schemas/metering.js';

export const CreateMeterSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(200),
    description: z.string().max(2000).optional(),
    event_type: z.string().trim().min(1).max(200).openapi({ example: 'tokens_used' }),
    aggregation: AggregationInputSchema,
    property: PropertyNameSchema.optional().openapi({ description: 'required except for Count' }),
    filters: z.array(FilterSchema).max(MAX_FILTERS).optional().openapi({ description: `up to ${MAX_FILTERS}; all must hold` }),
    window_type: WindowTypeSchema.optional().openapi({ description: 'default BillingPeriod' }),
    window_size: z.string().optional().openapi({ description: 'ISO 8601 duration for Sliding and Tumbling, e.g. "PT1H", "P1D"', example: 'PT1H' }),
    unit: z.string().trim().min(1).max(50).optional().openapi({ description: 'defaults to the property, or "events" for Count' }),
  })
  .superRefine((input, ctx) => {
    for (const issue of meterDefinitionIssues(input)) ctx.addIssue({ code: 'custom', path: issue.path.split('.'), message: issue.message });
  })
  .openapi('CreateMeter');
