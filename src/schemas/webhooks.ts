/**
 * Webhook endpoints and their deliveries as the API returns them (SPEC §4 Webhooks).
 */
import { z } from '@hono/zod-openapi';
import { TimestampSchema, UuidSchema } from './common.js';

export const WebhookCircuitSchema = z
  .object({
    state: z.enum(['Closed', 'Open', 'HalfOpen']).openapi({ description: 'Closed: deliveries flow; Open: suspended; HalfOpen: one probe delivery decides' }),
    consecutive_failures: z.number().int(),
    opened_at: TimestampSchema.nullable(),
    reopens_at: TimestampSchema.nullable().openapi({ description: 'when an Open circuit lets one probe through' }),
  })
  .openapi('WebhookCircuit');

export const WebhookEndpointSchema = z
  .object({
    id: UuidSchema,
    url: z.string(),
    description: z.string(),
    events: z.array(z.string()),
    enabled: z.boolean(),
    failing_since: TimestampSchema.nullable().openapi({ description: 'when the current run of failed attempts began; null while the last attempt succeeded' }),
    disabled_at: TimestampSchema.nullable().openapi({ description: 'when the endpoint was disabled after a long outage (WEBHOOK_DISABLE_AFTER_SECONDS); POST …/enable re-enables it' }),
    disabled_reason: z.string().nullable().openapi({ description: '"outage" when disabled after a long outage; null otherwise (also when disabled by hand)' }),
    secret: z.string().openapi({ description: 'signing secret: in full in the answers of create and rotate-secret only, masked elsewhere' }),
    circuit: WebhookCircuitSchema,
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi('WebhookEndpoint');

export const WebhookDeliveryStatusSchema = z.enum(['Pending', 'Delivered', 'Failed']);

export const WebhookAttemptSchema = z
  .object({
    number: z.number().int(),
    started_at: TimestampSchema,
    latency_ms: z.number().int(),
    status_code: z.number().int().nullable(),
    error: z.string().nullable().openapi({ description: 'why it failed: the HTTP status, a timeout, a connection error' }),
    response_body: z.string().nullable().openapi({ description: 'the first 1024 bytes of the answer' }),
  })
  .openapi('WebhookAttempt');

export const WebhookDeliverySchema = z
  .object({
    id: UuidSchema,
    endpoint_id: UuidSchema,
    event_id: UuidSchema,
    event_type: z.string(),
    status: WebhookDeliveryStatusSchema,
    attempt_count: z.number().int(),
    next_attempt_at: TimestampSchema.nullable(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    delivered_at: TimestampSchema.nullable(),
    failed_at: TimestampSchema.nullable(),
    waiting_since: TimestampSchema.nullable().openapi({
      description: "Pending and waiting for its endpoint's circuit (or for the endpoint to be enabled) since then, spending no attempts; null otherwise",
    }),
    workflow_id: z.string().openapi({ description: 'the delivery workflow in the Temporal UI', example: 'webhook:<event id>:<endpoint id>' }),
    payload: z.record(z.string(), z.unknown()).openapi({ additionalProperties: true, description: 'the event as every attempt sends it: { id, type, timestamp, data }' }),
    attempts: z.array(WebhookAttemptSchema),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  })
  .openapi('WebhookDelivery');
