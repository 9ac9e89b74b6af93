/**
 * The requests of the webhooks routes: bodies, queries and path parameters, validated before a handler runs.
 */
import { z } from '@hono/zod-openapi';
import { UuidSchema } from '../../../schemas/common.js';
import { SUBSCRIBABLE_EVENTS } from '../../../services/webhooks/endpoints.js';
import { MAX_URL_LENGTH } from '../../../services/webhooks/url-policy.js';

const UrlSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_URL_LENGTH)
  .openapi({ example: 'https://example.com/billing/webhooks', description: 'absolute http:// or https:// URL' });

const EventTypeSchema = z
  .string()
  .refine((type) => SUBSCRIBABLE_EVENTS.includes(type), { error: (issue) => `unknown event type ${JSON.stringify(issue.input)}; one of ${SUBSCRIBABLE_EVENTS.join(', ')}` })
  .openapi({ description: 'an event type, or "*" for all', example: 'invoice.finalized' });

const EventsSchema = z.array(EventTypeSchema).min(1, 'name at least one event type, or "*"').max(SUBSCRIBABLE_EVENTS.length * 2);
const DescriptionSchema = z.string().max(2000);

export const CreateEndpointSchema = z
  .strictObject({ url: UrlSchema, events: EventsSchema, description: DescriptionSchema.optional() })
  .openapi('CreateWebhookEndpointRequest');

export const UpdateEndpointSchema = z
  .strictObject({ url: UrlSchema.optional(), events: EventsSchema.optional(), description: DescriptionSchema.optional(), enabled: z.boolean().optional() })
  .refine((changes) => Object.keys(changes).length > 0, 'name at least one field to change')
  .openapi('UpdateWebhookEndpointRequest');

export const DeliveryParamsSchema = z.object({ id: UuidSchema, delivery_id: UuidSchema });
