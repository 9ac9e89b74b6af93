/** The audit trail as the API shows it: one append-only entry per mutating operation. */
import { z } from '@hono/zod-openapi';
import { TimestampSchema, UuidSchema } from './common.js';

export const ACTOR_TYPES = ['admin', 'customer', 'api_key', 'workflow', 'system'] as const;

/** A resource as an audit entry records it, before or after the change: an object, or null. The view type is the stored JSON. */
export const auditSnapshot = (description: string): z.ZodType<unknown> =>
  z.record(z.string(), z.unknown()).nullable().openapi({ additionalProperties: true, description });

export const AuditEntrySchema = z
  .object({
    id: UuidSchema,
    action: z.string().openapi({ example: 'invoice.finalized', description: 'what was done: <resource>.<verb> (catalogue in docs/audit-trail.md)' }),
    actor_type: z.enum(ACTOR_TYPES).openapi({ description: 'admin or customer (JWT scope), api_key, workflow (a change a workflow made on its own: period close, finalization, dunning, auto-charge, alert trigger, contract move…), or system (the engine outside workflows: relays, reconcilers; and the payment processor)' }),
    actor_id: z.string().openapi({ description: 'the JWT subject, the API key id, the Temporal workflow id, or the system component' }),
    entity_type: z.string().openapi({ example: 'invoice' }),
    entity_id: z.string().openapi({ description: "the resource's id: a UUID, or the processor's event id for a processor_event" }),
    customer_id: UuidSchema.nullable(),
    request_id: z.string().nullable().openapi({ description: 'X-Request-Id of the API call that made the change; null for changes workflows and the system made on their own' }),
    before: auditSnapshot('the resource before the change (null on creation)'),
    after: auditSnapshot('the resource after the change (null on deletion)'),
    created_at: TimestampSchema,
  })
  .openapi('AuditEntry');

export type AuditEntryView = z.infer<typeof AuditEntrySchema>;
