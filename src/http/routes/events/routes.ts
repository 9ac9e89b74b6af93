/**
 * Usage events (SPEC §1 Metering, §4): one event or a batch, as plain JSON or as CloudEvents 1.0 in
 * structured mode. The ingestion rules are in src/services/metering/events.ts.
 */
import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import { MAX_BATCH_EVENTS, MAX_FUTURE_SKEW_MS, MAX_NUMBER_DIGITS } from '../../../services/metering/events.js';
import { BatchResultSchema, IngestResultSchema } from '../../../schemas/metering.js';
import { jsonResponse, mutationRequest } from '../../helpers.js';
import { UsageEventSchema, BatchSchema } from './schemas.js';

export const CLOUD_EVENT_MEDIA_TYPE = 'application/cloudevents+json';
export const CLOUD_EVENT_BATCH_MEDIA_TYPE = 'application/cloudevents-batch+json';

/**
 * The route with one more documented request media type, handled by its CloudEvents middleware.
 * Documented by reference (not a zod schema) so the framework does not validate every body against
 * it; typed as the JSON-only route, whose body type the handler receives.
 */
function alsoAccepting<R extends RouteConfig>(route: R, mediaType: string, schemaName: string): R {
  const body = route.request!.body!;
  const content = { ...body.content, [mediaType]: { schema: { $ref: `#/components/schemas/${schemaName}` } } };
  return { ...route, request: { ...route.request, body: { ...body, content } } };
}

const VALIDATION_RULES = `
Validation: the customer exists (customer tokens: their own customer only; with a customer token an event naming no customer, no
customer_id nor external_customer_id and for CloudEvents no subject, is the token's own customer, while admin credentials must name it:
400 validation_failed otherwise); subscription_id, when given, is a subscription of that
customer; the timestamp is an ISO 8601 date-time (UTC offset within ±15:59, not before 1970) at most EVENT_MAX_FUTURE_SKEW_SECONDS
(default ${MAX_FUTURE_SKEW_MS / 1000} s) after the customer's current time (its test clock's for sandbox customers); properties is an
object; JSON numbers must be exact as sent (integers within ±2^53, others at most ${MAX_NUMBER_DIGITS} significant digits): send exact
quantities as decimal strings; \`quantity\`, when present, is numeric (the default meter of an event_type without meters sums it,
counting 1 for events without it).
Event ids are global (deduplication is by id across customers): an id already used by another customer's event is refused as
\`event_id_conflict\` (it says only that the id is taken); use UUIDs or prefix ids with something of your own.
Without a timestamp the event is dated at its receipt (the customer's current time).
Late events (timestamp in a period the subscription has already closed, or before its charged_through_date) are stored with
late = true and billed on the next invoice as a prior-period adjustment line (re-rated with that period's tiers and terms), or on a
correction invoice once the subscription has ended. Events more than LATE_USAGE_MAX_DAYS (default 35) days before the customer's
current time are refused (timestamp_too_old): usage that late is never silently accepted and dropped.
Events no subscription period covers (no subscription, before its start, after its end, in a trial) are stored, answered with
billable: false and the unbillable_reason, and counted in the usage summary's unbillable_event_count.`;

const singleJson = createRoute({
  method: 'post',
  path: '/v1/events',
  operationId: 'ingestEvent',
  tags: ['Metering'],
  summary: 'Ingest one usage event (JSON or a CloudEvent in structured mode)',
  description: `Deduplicated by \`id\` in the database: re-sending an id is safe and answers accepted: false, duplicate: true.
Send \`application/cloudevents+json\` for a CloudEvents 1.0 event: type → event_type, id → id, time → timestamp (receipt time when
absent), subject → customer_id, data → properties, extension \`subscriptionid\` → subscription_id.
Errors: unknown customer or subscription 404; a subscription of another customer 422 subscription_customer_mismatch; a timestamp too far
in the future or older than the lateness limit 400; an id already used by another customer's event 409 event_id_conflict (nothing stored).
${VALIDATION_RULES}`,
  request: mutationRequest(UsageEventSchema),
  responses: { 200: jsonResponse('Stored, or already stored (duplicate)', IngestResultSchema) },
});

const batchJson = createRoute({
  method: 'post',
  path: '/v1/events/batch',
  operationId: 'ingestEventBatch',
  tags: ['Metering'],
  summary: `Ingest up to ${MAX_BATCH_EVENTS} usage events, all or nothing`,
  description: `All or nothing: when any event is invalid, nothing is stored and the error lists every invalid event
(\`details.issues[]\`: path \`events.<index>.<field>\`, message; for reference problems also index, event_id and code). Schema
problems answer 400 validation_failed; unknown customers or subscriptions, foreign subscriptions, future or too old timestamps and ids already
used by another customer's event (code event_id_conflict, path \`events.<index>.id\`) answer 422 invalid_events. Fix and resend the whole batch: ids already stored are counted in duplicate_count, never twice.
Send \`application/cloudevents-batch+json\` (a JSON array of CloudEvents) for a CloudEvents batch; its error paths are
\`<index>.<attribute>\`.
${VALIDATION_RULES}`,
  request: mutationRequest(BatchSchema),
  responses: { 200: jsonResponse('Counts of stored and duplicate events', BatchResultSchema) },
});

/** The JSON routes, also taking CloudEvents (validated by the handlers' CloudEvents middleware). */
export const single = alsoAccepting(singleJson, CLOUD_EVENT_MEDIA_TYPE, 'CloudEvent');
export const batch = alsoAccepting(batchJson, CLOUD_EVENT_BATCH_MEDIA_TYPE, 'CloudEventBatch');
