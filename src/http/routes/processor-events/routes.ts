/**
 * /admin/v1/processor-events: the payment processor's notifications as stored (POST
 * /v1/webhooks/processor receives them), whether and how each was applied, and the operator's retry
 * of one whose application failed for good (README, "Failures"). The rules live in
 * src/services/payments/processor-events.ts.
 */
import { createRoute,z } from '@hono/zod-openapi';
import { BillingErrorSchema,DateTimeSchema,TimestampSchema } from '../../../schemas/common.js';
import { commonErrorResponses } from '../../errors.js';
import { jsonResponse,pageResponse } from '../../helpers.js';
import { IdempotencyHeaderSchema,PaginationQuerySchema } from '../../schemas.js';

/** The processor's event id (e.g. evt_…), not a UUID. */
export const EventIdSchema = z.string().min(1).max(255);

export const StatusSchema = z.enum(['pending', 'processed', 'billing_error']);

export const ProcessorEventSchema = z
  .object({
    id: EventIdSchema.openapi({ description: "the processor's event id", example: 'evt_1QxYz2AbCdEf' }),
    type: z.string().openapi({ example: 'payment_intent.succeeded' }),
    object_id: z.string().nullable().openapi({ description: "the id of the processor object it is about (a PaymentIntent's, a charge's…)" }),
    status: StatusSchema.openapi({
      description:
        'billing_error: applying it failed in a way no automatic retry fixes and waits for an operator (POST /admin/v1/processor-events/{id}/retry); ' +
        'processed: applied (or acknowledged and ignored), see outcome; pending: waiting for its workflow to apply it',
    }),
    received_at: TimestampSchema,
    processed_at: TimestampSchema.nullable(),
    outcome: z.string().nullable().openapi({ description: 'what applying it did, e.g. payment_succeeded, refund_recorded, ignored_type; null until applied', example: 'payment_succeeded' }),
    billing_error: BillingErrorSchema.openapi({
      description: 'the failure its workflow holds for an operator: fix the cause, then POST /admin/v1/processor-events/{id}/retry; null when none',
    }),
  })
  .openapi('ProcessorEvent');

export const ListQuerySchema = PaginationQuerySchema.extend({
  starting_after: EventIdSchema.optional().openapi({ description: 'id of the last event of the previous page; the next page holds events received before it' }),
  status: StatusSchema.optional(),
  type: z.string().min(1).max(200).optional().openapi({ description: 'only events of this type (exact match), e.g. charge.refunded' }),
  object_id: z.string().min(1).max(255).optional().openapi({ description: 'only events about this processor object' }),
  created_gte: DateTimeSchema.optional().openapi({ description: 'only events received at or after this instant' }),
  created_lt: DateTimeSchema.optional().openapi({ description: 'only events received before this instant' }),
});

export const EventParamSchema = z.object({ id: EventIdSchema });

export const tags = ['Payments'];

export const list = createRoute({
  method: 'get',
  path: '/admin/v1/processor-events',
  tags,
  summary: 'List processor notifications',
  description:
    'The notifications received on POST /v1/webhooks/processor, newest first by arrival, as a JSON array (pagination in the X-Has-More, ' +
    'X-Next-Cursor and Link headers; the cursor is an event id). Filter by status (billing_error finds those waiting for an operator), ' +
    'type, object_id, and when they were received (created_gte / created_lt).',
  request: { query: ListQuerySchema },
  responses: { 200: pageResponse('One page of processor notifications', ProcessorEventSchema, 'ProcessorEventList'), ...commonErrorResponses },
});

export const get = createRoute({
  method: 'get',
  path: '/admin/v1/processor-events/{id}',
  tags,
  summary: 'Get a processor notification',
  request: { params: EventParamSchema },
  responses: { 200: jsonResponse('The processor notification', ProcessorEventSchema), ...commonErrorResponses },
});

export const retry = createRoute({
  method: 'post',
  path: '/admin/v1/processor-events/{id}/retry',
  tags,
  summary: 'Retry applying a processor notification that is in billing_error',
  description:
    'A notification whose application failed in a way no automatic retry fixes (invalid stored data, a numeric overflow, a failure ' +
    "inside its invoice's workflow, or a transient failure that outlasted its retry schedule) is held by its workflow with " +
    'billing_error set; the daily dunning check leaves it alone. Fix the data, then retry: billing_error is cleared (audited as ' +
    'processor_event.billing_retried) and the answer comes once the notification was applied again, with its outcome, or with ' +
    'billing_error set anew when it failed again. 409 no_billing_error when there is nothing to retry.',
  request: { params: EventParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The processor notification after the retry', ProcessorEventSchema), ...commonErrorResponses },
});

