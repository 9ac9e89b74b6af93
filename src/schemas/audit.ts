/** The audit trail as the API shows it: one append-only entry per mutating operation. */
import { z } from '@hono/zod-openapi';
import { TimestampSchema, UuidSchema } from './common.js';

export const ACTOR_TYPES = ['admin', 'customer', 'api_key', 'system'] as const;

export const AuditEntrySchema = z
  .object({
    id: UuidSchema,
    action: z.string().openapi({ example: 'invoice.finalized', description: 'what was done: <resource>.<verb> (catalogue in the README)' }),
    actor_type: z.enum(ACTOR_TYPES).openapi({ description: 'admin or customer (JWT scope), api_key, or system (workflows and the engine itself)' }),
    actor_id: z.string().openapi({ description: 'the JWT subject, the API key id, or the system component' }),
    entity_type: z.string().openapi({ example: 'invoice' }),
    entity_id: UuidSchema,
    customer_id: UuidSchema.nullable(),
    request_id: z.string().nullable().openapi({ description: 'X-Request-Id of the API call that made the change; null for changes made by workflows' }),
    before: z.unknown().openapi({ description: 'the resource before the change (null on creation)' }),
    after: z.unknown().openapi({ description: 'the resource after the change (null on deletion)' }),
    created_at: TimestampSchema,
  })
  .openapi('AuditEntry');

export type AuditEntryView = z.infer<typeof AuditEntrySchema>;
