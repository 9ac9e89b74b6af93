/**
 * /admin/v1/webhooks: outbound webhook endpoints (SPEC §4, §6), their delivery log and the manual
 * resend. The rules live in src/services/webhooks/; the descriptions below publish them.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { WebhookEndpointSchema, WebhookDeliveryStatusSchema, WebhookDeliverySchema } from '../../../schemas/webhooks.js';
import { SUBSCRIBABLE_EVENTS } from '../../../services/webhooks/endpoints.js';
import { jsonResponse, mutationRequest, pageResponse } from '../../helpers.js';
import { IdempotencyHeaderSchema, IdParamSchema, PaginationQuerySchema } from '../../schemas.js';
import { CreateEndpointSchema, UpdateEndpointSchema, DeliveryParamsSchema } from './schemas.js';

const DELIVERY_RULES = `Each event is POSTed to every enabled endpoint subscribed to its type that existed when the event was written, as the JSON
{ id, type, timestamp, data } (money as strings), with X-Billing-Signature (lowercase hex HMAC-SHA256 of the raw body, keyed with the
endpoint's secret), X-Billing-Event-Id and X-Billing-Event-Type. A 2xx answer within the timeout (WEBHOOK_TIMEOUT_MS, 10 s) delivers it;
anything else is retried on WEBHOOK_RETRY_SCHEDULE (at once, then 30 s, 5 min, 30 min and 4 h after the previous attempt); after the
last attempt the delivery is Failed. After WEBHOOK_BREAKER_THRESHOLD (5) consecutive failed attempts the endpoint's circuit opens and
its deliveries wait (Pending, with waiting_since) WEBHOOK_BREAKER_OPEN_SECONDS (60 s) without spending attempts; then one probe is let
through, and its success closes the circuit and sends the waiting ones. An endpoint whose attempts have all failed for
WEBHOOK_DISABLE_AFTER_SECONDS (3 days) is disabled (disabled_reason "outage", event webhook_endpoint.disabled); its deliveries wait
until POST /admin/v1/webhooks/{id}/enable. Each delivery is the Temporal workflow webhook:<event_id>:<endpoint_id>.`;

const URL_RULES = `url: an absolute http(s) URL without credentials. In production mode (NODE_ENV=production) loopback, link-local and private
addresses are refused (422 webhook_url_not_allowed), written in the URL or resolved from its host, unless WEBHOOK_ALLOW_PRIVATE_URLS=true.
events: event types (${SUBSCRIBABLE_EVENTS.slice(1).join(', ')}) or "*"; an unknown type is a 400 naming it.`;

export const create = createRoute({
  method: 'post',
  path: '/admin/v1/webhooks',
  operationId: 'createWebhookEndpoint',
  tags: ['Webhooks'],
  summary: 'Register a webhook endpoint',
  description: `${URL_RULES}\nThe answer carries the signing secret in full; later reads show it masked.\n${DELIVERY_RULES}`,
  request: { ...mutationRequest(CreateEndpointSchema) },
  responses: { 201: jsonResponse('The endpoint, with its signing secret', WebhookEndpointSchema) },
});

export const list = createRoute({
  method: 'get',
  path: '/admin/v1/webhooks',
  operationId: 'listWebhookEndpoints',
  tags: ['Webhooks'],
  summary: 'List webhook endpoints, newest first (secrets masked)',
  description: 'A JSON array, newest first (pagination in the X-Has-More, X-Next-Cursor and Link headers); signing secrets are masked.',
  request: { query: PaginationQuerySchema },
  responses: { 200: pageResponse('A page of endpoints', WebhookEndpointSchema, 'WebhookEndpointList') },
});

export const get = createRoute({
  method: 'get',
  path: '/admin/v1/webhooks/{id}',
  operationId: 'getWebhookEndpoint',
  tags: ['Webhooks'],
  summary: 'Get a webhook endpoint with its circuit breaker state',
  description: 'The endpoint (secret masked) with its circuit breaker: Closed while deliveries flow, Open while they are suspended, HalfOpen while one probe decides.',
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse('The endpoint (secret masked)', WebhookEndpointSchema) },
});

export const update = createRoute({
  method: 'patch',
  path: '/admin/v1/webhooks/{id}',
  operationId: 'updateWebhookEndpoint',
  tags: ['Webhooks'],
  summary: 'Change url, events, description or enabled',
  description: `${URL_RULES}\nA disabled endpoint gets no new deliveries, and its pending ones end Failed at their next attempt. Setting enabled to true on an endpoint disabled after an outage enables it as POST …/enable does.`,
  request: { params: IdParamSchema, ...mutationRequest(UpdateEndpointSchema) },
  responses: { 200: jsonResponse('The endpoint (secret masked)', WebhookEndpointSchema) },
});

export const remove = createRoute({
  method: 'delete',
  path: '/admin/v1/webhooks/{id}',
  operationId: 'deleteWebhookEndpoint',
  tags: ['Webhooks'],
  summary: 'Delete a webhook endpoint and its delivery log',
  description: 'Deliveries under way stop before their next attempt.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 204: { description: 'Deleted' } },
});

export const rotate = createRoute({
  method: 'post',
  path: '/admin/v1/webhooks/{id}/rotate-secret',
  operationId: 'rotateWebhookSecret',
  tags: ['Webhooks'],
  summary: 'Replace the signing secret',
  description: 'Every attempt from now on is signed with the new secret, shown in full in this answer only.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The endpoint, with its new signing secret', WebhookEndpointSchema) },
});

export const enable = createRoute({
  method: 'post',
  path: '/admin/v1/webhooks/{id}/enable',
  operationId: 'enableWebhookEndpoint',
  tags: ['Webhooks'],
  summary: 'Enable an endpoint disabled after an outage, sending what waited for it',
  description:
    'Enables the endpoint with a closed circuit and no outage on record. The deliveries that waited for it (Pending, with waiting_since) ' +
    'are then sent, oldest first, with the attempts they had left. An enabled endpoint is answered as it is.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The endpoint (secret masked)', WebhookEndpointSchema) },
});

export const deliveries = createRoute({
  method: 'get',
  path: '/admin/v1/webhooks/{id}/deliveries',
  operationId: 'listWebhookDeliveries',
  tags: ['Webhooks'],
  summary: "List the endpoint's deliveries with their attempts, newest first",
  description: DELIVERY_RULES,
  request: {
    params: IdParamSchema,
    query: PaginationQuerySchema.extend({
      status: WebhookDeliveryStatusSchema.optional(),
      event_type: z.string().min(1).max(200).optional().openapi({ description: 'only deliveries of this event type' }),
    }),
  },
  responses: { 200: pageResponse('A page of deliveries', WebhookDeliverySchema, 'WebhookDeliveryList') },
});

export const delivery = createRoute({
  method: 'get',
  path: '/admin/v1/webhooks/{id}/deliveries/{delivery_id}',
  operationId: 'getWebhookDelivery',
  tags: ['Webhooks'],
  summary: 'Get a delivery with its attempts',
  description: 'The delivery with its payload, its status and every attempt (status code, error, latency).',
  request: { params: DeliveryParamsSchema },
  responses: { 200: jsonResponse('The delivery', WebhookDeliverySchema) },
});

export const resend = createRoute({
  method: 'post',
  path: '/admin/v1/webhooks/{id}/deliveries/{delivery_id}/resend',
  operationId: 'resendWebhookDelivery',
  tags: ['Webhooks'],
  summary: 'Send a Delivered or Failed delivery again',
  description:
    'The same bytes, as a new run of the delivery workflow with a fresh attempt budget (attempt numbers go on). ' +
    '409 webhook_delivery_in_progress while the delivery is still being attempted.',
  request: { params: DeliveryParamsSchema, headers: IdempotencyHeaderSchema },
  responses: { 202: jsonResponse('The delivery, Pending again', WebhookDeliverySchema) },
});
