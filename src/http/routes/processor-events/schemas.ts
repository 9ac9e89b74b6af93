/**
 * The requests of the processor-events routes: bodies, queries and path parameters, validated before a handler runs.
 */
import { z } from '@hono/zod-openapi';
import { DateTimeSchema } from '../../../schemas/common.js';
import { ProcessorEventIdSchema, ProcessorEventStatusSchema } from '../../../schemas/payments.js';
import { PaginationQuerySchema } from '../../schemas.js';

export const ListProcessorEventsQuerySchema = PaginationQuerySchema.extend({
  starting_after: ProcessorEventIdSchema.optional().openapi({ description: 'id of the last event of the previous page; the next page holds events received before it' }),
  status: ProcessorEventStatusSchema.optional(),
  type: z.string().min(1).max(200).optional().openapi({ description: 'only events of this type (exact match), e.g. charge.refunded' }),
  object_id: z.string().min(1).max(255).optional().openapi({ description: 'only events about this processor object' }),
  created_gte: DateTimeSchema.optional().openapi({ description: 'only events received at or after this instant' }),
  created_lt: DateTimeSchema.optional().openapi({ description: 'only events received before this instant' }),
});

export const EventParamSchema = z.object({ id: ProcessorEventIdSchema });
