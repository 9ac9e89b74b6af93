/** GET /v1/subscriptions/:id/usage: what a subscription's meters measured, each over its window. */
import { createRoute } from '@hono/zod-openapi';
import { WEIGHTED_SUM_SCALE } from '../../../services/metering/usage.js';
import { StoredUsageEventSchema, UsageSummarySchema } from '../../../schemas/metering.js';
import { jsonResponse, pageResponse } from '../../helpers.js';
import { IdParamSchema } from '../../schemas.js';
import { UsageQuerySchema, UsageEventsQuerySchema } from './schemas.js';

export const summary = createRoute({
  method: 'get',
  path: '/v1/subscriptions/{id}/usage',
  operationId: 'getSubscriptionUsage',
  tags: ['Metering'],
  summary: 'Usage summary of a subscription',
  description: `One entry per meter of the event types the subscription's plan meters (SKU meter_event_type, the meter_id's event type), each over its window:
by default the current billing period (BillingPeriod meters), the window_size up to now (Sliding) and the current epoch-aligned window
(Tumbling). \`at\` picks another reference instant (and the billing period containing it); \`from\`/\`to\` one explicit window for all.
Counted: the subscription's events and its customer's events sent without a subscription_id. Values are exact decimal strings
(WEIGHTED_SUM rounded half-even to ${WEIGHTED_SUM_SCALE} places). Late events are included and counted in late_event_count.
billable_value is what an invoice of the period rates for the meter (the sum of each window's value for Tumbling meters, the window_size
ending at period_end for Sliding ones), exactly as the period close computes it.
With the raw event retention on (USAGE_EVENT_RETENTION_DAYS), a window of a dropped period is answered from the rollups when they hold
it whole (whole 5-minute buckets of meters read from rollups); one that needs dropped raw events is 410 usage_events_pruned
(details.event_type, details.pruned_before).
Customer tokens see only their own subscriptions.`,
  request: { params: IdParamSchema, query: UsageQuerySchema },
  responses: { 200: jsonResponse('The usage summary', UsageSummarySchema) },
});

export const events = createRoute({
  method: 'get',
  path: '/admin/v1/customers/{id}/usage-events',
  operationId: 'listCustomerUsageEvents',
  tags: ['Metering'],
  summary: "List a customer's stored usage events",
  description: `The raw events as stored, newest first (arrival order), as a JSON array (pagination in the X-Has-More, X-Next-Cursor
and Link headers; the cursor is an event id). Filter by event_type, subscription_id, the event timestamp
(timestamp_gte / timestamp_lt) and when it was stored (created_gte / created_lt). Useful to find events that no meter counts,
such as a misspelled event_type. An unknown customer is 404 \`customer_not_found\`. Events the retention (USAGE_EVENT_RETENTION_DAYS) dropped
are not listed; a starting_after naming one is a 400.`,
  request: { params: IdParamSchema, query: UsageEventsQuerySchema },
  responses: { 200: pageResponse('One page of usage events', StoredUsageEventSchema, 'UsageEventList') },
});
