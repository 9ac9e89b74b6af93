/**
 * The requests of the usage routes: bodies, queries and path parameters, validated before a handler runs.
 */
import { z } from '@hono/zod-openapi';
import { usageQueryIssues } from '../../../services/metering/usage.js';
import { DateTimeSchema, UuidSchema } from '../../../schemas/common.js';
import { PaginationQuerySchema } from '../../schemas.js';

export const UsageQuerySchema = z
  .object({
    from: DateTimeSchema.optional().openapi({ description: 'with `to`: one explicit window [from, to) for every meter' }),
    to: DateTimeSchema.optional(),
    at: DateTimeSchema.optional().openapi({
      description: 'reference instant (default now, or the test clock\'s time): the billing period containing it, Sliding windows ending at it, the Tumbling window containing it',
    }),
  })
  .superRefine((query, ctx) => {
    for (const issue of usageQueryIssues(query)) ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
  });

export const UsageEventsQuerySchema = PaginationQuerySchema.extend({
  starting_after: z.string().min(1).max(255).optional().openapi({ description: 'id of the last event of the previous page; the next page holds events that arrived before it' }),
  event_type: z.string().min(1).max(200).optional().openapi({ description: 'only events of this event_type (exact match)' }),
  subscription_id: UuidSchema.optional().openapi({ description: 'only events sent with this subscription_id' }),
  timestamp_gte: DateTimeSchema.optional().openapi({ description: 'only events that occurred at or after this instant' }),
  timestamp_lt: DateTimeSchema.optional().openapi({ description: 'only events that occurred before this instant' }),
  created_gte: DateTimeSchema.optional().openapi({ description: 'only events stored at or after this instant' }),
  created_lt: DateTimeSchema.optional().openapi({ description: 'only events stored before this instant' }),
});
