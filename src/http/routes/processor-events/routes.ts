/**
 * /admin/v1/processor-events: the payment processor's notifications as stored (POST
 * /v1/webhooks/processor receives them), whether and how each was applied, and the operator's retry
 * of one whose application failed for good (docs/failures.md). The rules live in
 * src/services/payments/processor-events.ts.
 */
import { createRoute } from '@hono/zod-openapi';
import { ProcessorEventSchema } from '../../../schemas/payments.js';
import { jsonResponse, pageResponse } from '../../helpers.js';
import { IdempotencyHeaderSchema } from '../../schemas.js';
import { ListProcessorEventsQuerySchema, EventParamSchema } from './schemas.js';

const tags = ['Payments'];

export const list = createRoute({
  method: 'get',
  path: '/admin/v1/processor-events',
  operationId: 'listProcessorEvents',
  tags,
  summary: 'List processor notifications',
  description:
    'The notifications received on POST /v1/webhooks/processor, newest first by arrival, as a JSON array (pagination in the X-Has-More, ' +
    'X-Next-Cursor and Link headers; the cursor is an event id). Filter by status (billing_error finds those waiting for an operator), ' +
    'type, object_id, and when they were received (created_gte / created_lt).',
  request: { query: ListProcessorEventsQuerySchema },
  responses: { 200: pageResponse('One page of processor notifications', ProcessorEventSchema, 'ProcessorEventList') },
});

export const get = createRoute({
  method: 'get',
  path: '/admin/v1/processor-events/{id}',
  operationId: 'getProcessorEvent',
  tags,
  summary: 'Get a processor notification',
  description: 'The notification with its type, the object it names, when it was received and processed, its outcome, and any billing_error waiting for an operator.',
  request: { params: EventParamSchema },
  responses: { 200: jsonResponse('The processor notification', ProcessorEventSchema) },
});

export const retry = createRoute({
  method: 'post',
  path: '/admin/v1/processor-events/{id}/retry',
  operationId: 'retryProcessorEvent',
  tags,
  summary: 'Retry applying a processor notification that is in billing_error',
  description:
    'A notification whose application failed in a way no automatic retry fixes (invalid stored data, a numeric overflow, a failure ' +
    "inside its invoice's workflow, or a transient failure that outlasted its retry schedule) is held by its workflow with " +
    'billing_error set; the daily dunning check leaves it alone. Fix the data, then retry: billing_error is cleared (audited as ' +
    'processor_event.billing_retried) and the answer comes once the notification was applied again, with its outcome, or with ' +
    'billing_error set anew when it failed again. 409 no_billing_error when there is nothing to retry.',
  request: { params: EventParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The processor notification after the retry', ProcessorEventSchema) },
});
