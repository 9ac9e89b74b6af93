import { createRoute,z,type RouteConfig } from '@hono/zod-openapi';
import type { Context,MiddlewareHandler } from 'hono';
import { ownCustomerId } from '../../actor.js';
import type { AppEnv } from '../../context.js';
import { ApiError,commonErrorResponses } from '../../errors.js';
import { jsonResponse,mutationRequest,validationError } from '../../helpers.js';
import {
MAX_BATCH_EVENTS,
MAX_EVENT_ID_LENGTH,
MAX_EVENT_TYPE_LENGTH,
MAX_FUTURE_SKEW_MS,
MAX_NUMBER_DIGITS,
propertyIssues,type FieldNames
} from '../../../services/metering/events.js';
import { DateTimeSchema,ExternalIdSchema,UuidSchema } from '../../../schemas/common.js';
import { BatchResultSchema,IngestResultSchema } from '../../../schemas/metering.js';

export const CLOUD_EVENT_MEDIA_TYPE = 'application/cloudevents+json';
export const CLOUD_EVENT_BATCH_MEDIA_TYPE = 'application/cloudevents-batch+json';
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
export const EXTENSION_NAME = /^[a-z0-9]{1,20}$/;

export const EventIdSchema = z
  .string()
  .min(1)
  .max(MAX_EVENT_ID_LENGTH)
  .refine((v) => !CONTROL_CHARACTERS.test(v) && v.trim() === v, 'must have no control characters and no surrounding spaces')
  .openapi({ description: 'client-generated; the deduplication key (global across customers)', example: 'evt_01HZX3' });

export const EventTypeSchema = z
  .string()
  .min(1)
  .max(MAX_EVENT_TYPE_LENGTH)
  .refine((v) => !CONTROL_CHARACTERS.test(v) && v.trim() === v, 'must have no control characters and no surrounding spaces')
  .openapi({ description: 'matched against meters and SKU meter_event_type', example: 'api_calls' });

/**
 * The shared date-time rules (a real instant from 1970 on, an offset PostgreSQL accepts): an event's
 * timestamp is parsed by the database inside the insert, where a bad one would fail the statement
 * (a 500, and for coalesced single events the neighbours' statement too) instead of a 400.
 */
export const EventTimestampSchema = DateTimeSchema.openapi({
  format: 'date-time',
  example: '2026-01-31T12:00:00Z',
  description: 'ISO 8601 date-time with seconds and an offset (Z or ±hh:mm, within ±15:59), from 1970 on',
});

export const PropertiesSchema = z
  .record(z.string(), z.unknown(), { message: 'must be an object' })
  .superRefine((properties, ctx) => {
    for (const issue of propertyIssues(properties)) ctx.addIssue({ code: 'custom', path: issue.path.split('.'), message: issue.message });
  })
  .openapi({
    description:
      'arbitrary key/values for filtering and aggregation; send exact quantities as decimal strings ("0.25"). Top-level numbers and ' +
      'decimal strings are usage quantities: at most 20 digits before the decimal point and 12 after, and negative only with admin ' +
      'credentials (corrections; billing never counts a period below zero)',
    example: { tokens: '1500', model: 'large' },
  });

export const UsageEventSchema = z
  .strictObject({
    id: EventIdSchema,
    event_type: EventTypeSchema,
    customer_id: UuidSchema.optional().openapi({ description: 'the customer; or name it by external_customer_id' }),
    external_customer_id: ExternalIdSchema.optional().openapi({ description: "the customer's external_id, instead of customer_id" }),
    subscription_id: UuidSchema.nullish().openapi({ description: "attributes the event to this subscription (must be the customer's)" }),
    timestamp: EventTimestampSchema.optional().openapi({ description: "when the usage happened; the time of receipt (the customer's current time) when absent" }),
    properties: PropertiesSchema.optional(),
  })
  .superRefine((event, ctx) => {
    if (event.customer_id === undefined && event.external_customer_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['customer_id'], message: 'name the customer: customer_id, or external_customer_id' });
    }
    if (event.customer_id !== undefined && event.external_customer_id !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['external_customer_id'], message: 'name the customer once: customer_id or external_customer_id, not both' });
    }
  })
  .openapi('UsageEvent');

export const BatchSchema = z
  .strictObject({
    events: z
      .array(UsageEventSchema)
      .min(1, 'must hold at least one event')
      .max(MAX_BATCH_EVENTS, `must hold at most ${MAX_BATCH_EVENTS} events per batch`),
  })
  .openapi('UsageEventBatch');

export const CLOUD_EVENT_ATTRIBUTES = new Set(['specversion', 'id', 'source', 'type', 'subject', 'time', 'datacontenttype', 'dataschema', 'subscriptionid']);

/** CloudEvents 1.0 structured mode (JSON format); extension attributes are allowed and ignored. */
export const CloudEventSchema = z
  .looseObject({
    specversion: z.literal('1.0', { message: 'must be "1.0"' }),
    id: EventIdSchema,
    source: z.string().min(1).max(1024).openapi({ description: 'stored with the event' }),
    type: EventTypeSchema.openapi({ description: 'becomes event_type' }),
    subject: UuidSchema.openapi({ description: 'the customer id' }),
    time: EventTimestampSchema.optional().openapi({ description: 'becomes timestamp; the time of receipt when absent' }),
    datacontenttype: z
      .string()
      .regex(/^application\/([\w.-]+\+)?json(;.*)?$/i, 'data must be JSON (datacontenttype application/json)')
      .optional(),
    dataschema: z.string().max(2048).optional(),
    data: PropertiesSchema.optional().openapi({ description: 'becomes properties' }),
    subscriptionid: UuidSchema.optional().openapi({ description: 'extension attribute: becomes subscription_id' }),
  })
  .superRefine((event, ctx) => {
    if ('data_base64' in event) ctx.addIssue({ code: 'custom', path: ['data_base64'], message: 'binary data is not supported: send data as a JSON object' });
    for (const [name, value] of Object.entries(event)) {
      if (name === 'data' || name === 'data_base64' || CLOUD_EVENT_ATTRIBUTES.has(name)) continue;
      if (!EXTENSION_NAME.test(name)) ctx.addIssue({ code: 'custom', path: [name], message: 'extension attribute names are 1-20 lower-case letters or digits' });
      else if (value !== null && typeof value === 'object') ctx.addIssue({ code: 'custom', path: [name], message: 'extension attributes must be strings, numbers or booleans' });
    }
  })
  .openapi('CloudEvent');

export const CloudEventBatchSchema = z
  .array(CloudEventSchema)
  .min(1, 'must hold at least one event')
  .max(MAX_BATCH_EVENTS, `must hold at most ${MAX_BATCH_EVENTS} events per batch`)
  .openapi('CloudEventBatch');

/**
 * The route with one more documented request media type, handled by its CloudEvents middleware.
 * Documented by reference (not a zod schema) so the framework does not validate every body against
 * it; typed as the JSON-only route, whose body type the handler receives.
 */
export function alsoAccepting<R extends RouteConfig>(route: R, mediaType: string, schemaName: string): R {
  const body = route.request!.body!;
  const content = { ...body.content, [mediaType]: { schema: { $ref: `#/components/schemas/${schemaName}` } } };
  return { ...route, request: { ...route.request, body: { ...body, content } } };
}

export const VALIDATION_RULES = `
Validation: the customer exists (customer tokens: their own customer only); subscription_id, when given, is a subscription of that
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

export const single = createRoute({
  method: 'post',
  path: '/v1/events',
  tags: ['Metering'],
  summary: 'Ingest one usage event (JSON or a CloudEvent in structured mode)',
  description: `Deduplicated by \`id\` in the database: re-sending an id is safe and answers accepted: false, duplicate: true.
Send \`application/cloudevents+json\` for a CloudEvents 1.0 event: type → event_type, id → id, time → timestamp (receipt time when
absent), subject → customer_id, data → properties, extension \`subscriptionid\` → subscription_id.
Errors: unknown customer or subscription 404; a subscription of another customer 422 subscription_customer_mismatch; a timestamp too far
in the future or older than the lateness limit 400; an id already used by another customer's event 409 event_id_conflict (nothing stored).
${VALIDATION_RULES}`,
  request: mutationRequest(UsageEventSchema),
  responses: { 200: jsonResponse('Stored, or already stored (duplicate)', IngestResultSchema), ...commonErrorResponses },
});

export const batch = createRoute({
  method: 'post',
  path: '/v1/events/batch',
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
  responses: { 200: jsonResponse('Counts of stored and duplicate events', BatchResultSchema), ...commonErrorResponses },
});

export const mediaTypeOf = (c: Context<AppEnv>) => (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * Structured-mode CloudEvents take another schema than the route's JSON body, so this route
 * middleware validates and answers them itself; plain JSON goes on to the route's validator. A
 * CloudEvents media type on the wrong endpoint is a 415 naming the right one.
 */
export function cloudEvents<T>(accepted: string, other: string, schema: z.ZodType<T>, handle: (c: Context<AppEnv>, body: T) => Promise<Response>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const mediaType = mediaTypeOf(c);
    if (mediaType === other) {
      throw new ApiError('unsupported_media_type', `${c.req.path} takes ${accepted} (or application/json), not ${other}`);
    }
    if (mediaType !== accepted) {
      // No media type at all is an empty body: the route's validator reports what is missing.
      if (mediaType !== 'application/json' && mediaType !== '') throw new ApiError('unsupported_media_type', `${c.req.path} takes application/json or ${accepted}`);
      if (mediaType === 'application/json') refuseCloudEventAsJson(await c.req.json(), accepted);
      return next();
    }
    const parsed = schema.safeParse(await c.req.json());
    if (!parsed.success) throw validationError(parsed.error);
    return handle(c, parsed.data);
  };
}

export const looksLikeCloudEvent = (value: unknown): boolean => typeof value === 'object' && value !== null && 'specversion' in value;

/**
 * A CloudEvent (or a batch of them) sent as plain application/json would fail the plain schema on
 * every CloudEvents attribute; the 400 says which media type takes it instead.
 */
export function refuseCloudEventAsJson(body: unknown, mediaType: string): void {
  const items = Array.isArray(body) ? body : [body];
  if (items.length === 0 || !items.every(looksLikeCloudEvent)) return;
  const message = `is a CloudEvents attribute, not a field of a plain event: send CloudEvents with Content-Type: ${mediaType}`;
  throw new ApiError('validation_failed', `invalid request: the body is ${Array.isArray(body) ? 'a batch of CloudEvents' : 'a CloudEvent'}; send it with Content-Type: ${mediaType}`, {
    issues: [{ path: Array.isArray(body) ? '0.specversion' : 'specversion', message }],
  });
}

export const context = (c: Context<AppEnv>, fields: FieldNames) => ({ ownCustomerId: ownCustomerId(c), fields });

