/**
 * The requests of the audit routes: bodies, queries and path parameters, validated before a handler runs.
 */
import { z } from '@hono/zod-openapi';
import { ACTOR_TYPES } from '../../../schemas/audit.js';
import { DateTimeSchema, UuidSchema } from '../../../schemas/common.js';
import { PaginationQuerySchema } from '../../schemas.js';

const Name = z.string().min(1).max(100);

export const AuditQuerySchema = PaginationQuerySchema.extend({
  starting_after: UuidSchema.optional().openapi({ description: 'id of the last entry of the previous page (the next page holds older entries)' }),
  entity_type: Name.optional().openapi({ description: 'resource type, e.g. invoice, subscription, customer' }),
  entity_id: z.string().min(1).max(255).optional().openapi({ description: "one resource: its id (a UUID, or the processor's event id for a processor_event)" }),
  customer_id: UuidSchema.optional().openapi({ description: "entries about one customer's resources" }),
  actor_type: z.enum(ACTOR_TYPES).optional(),
  actor_id: Name.optional().openapi({ description: 'JWT subject, API key id or system component' }),
  action: Name.optional().openapi({ description: 'one action, e.g. invoice.voided' }),
  request_id: Name.optional().openapi({ description: 'what one API call changed: the X-Request-Id it was answered with' }),
  created_gte: DateTimeSchema.optional().openapi({ description: 'entries written at or after this instant' }),
  created_lt: DateTimeSchema.optional().openapi({ description: 'entries written before this instant' }),
});
