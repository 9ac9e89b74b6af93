/**
 * The events handlers: each reads the validated request, calls its service and answers. The route
 * definitions are in routes.ts, the request schemas in schemas.ts.
 */
import { z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { type FieldNames } from '../../../services/metering/events.js';
import { CLOUD_EVENT_BATCH_FIELDS, CLOUD_EVENT_FIELDS, fromCloudEvent, ingestBatch, ingestEvent, JSON_BATCH_FIELDS, JSON_FIELDS, withCustomerIds, type CloudEventInput, type SentUsageEvent } from '../../../services/metering/events.js';
import { notFound } from '../../../errors.js';
import { UUID_PATTERN } from '../../../ids.js';
import { ownCustomerId } from '../../actor.js';
import type { AppEnv } from '../../context.js';
import { ApiError } from '../../errors.js';
import { validationError } from '../../helpers.js';
import type { App } from '../../context.js';
import { CLOUD_EVENT_MEDIA_TYPE, CLOUD_EVENT_BATCH_MEDIA_TYPE, single, batch } from './routes.js';
import { CloudEventSchema, CloudEventBatchSchema } from './schemas.js';

const mediaTypeOf = (c: Context<AppEnv>) => (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();

/**
 * Structured-mode CloudEvents take another schema than the route's JSON body, so this route
 * middleware validates and answers them itself; plain JSON goes on to the route's validator. A
 * CloudEvents media type on the wrong endpoint is a 415 naming the right one.
 */
function cloudEvents<T>(accepted: string, other: string, schema: z.ZodType<T>, handle: (c: Context<AppEnv>, body: T) => Promise<Response>): MiddlewareHandler<AppEnv> {
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
    const body: unknown = await c.req.json();
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw validationError(parsed.error, body);
    return handle(c, parsed.data);
  };
}

const looksLikeCloudEvent = (value: unknown): boolean => typeof value === 'object' && value !== null && 'specversion' in value;

/**
 * A CloudEvent (or a batch of them) sent as plain application/json would fail the plain schema on
 * every CloudEvents attribute; the 400 says which media type takes it instead.
 */
function refuseCloudEventAsJson(body: unknown, mediaType: string): void {
  const items = Array.isArray(body) ? body : [body];
  if (items.length === 0 || !items.every(looksLikeCloudEvent)) return;
  const message = `is a CloudEvents attribute, not a field of a plain event: send CloudEvents with Content-Type: ${mediaType}`;
  throw new ApiError('validation_failed', `invalid request: the body is ${Array.isArray(body) ? 'a batch of CloudEvents' : 'a CloudEvent'}; send it with Content-Type: ${mediaType}`, {
    issues: [{ path: Array.isArray(body) ? '0.specversion' : 'specversion', message }],
  });
}

const context = (c: Context<AppEnv>, fields: FieldNames) => ({ ownCustomerId: ownCustomerId(c), fields });

/**
 * Events that name no customer: a customer token's are its own customer's (`name` fills it in);
 * admin credentials must name it, so those events are the 400 listing each one.
 */
function namingOwnCustomer<T>(c: Context<AppEnv>, events: T[], fields: FieldNames, isNamed: (event: T) => boolean, name: (event: T, customerId: string) => T): T[] {
  if (events.every(isNamed)) return events;
  const own = ownCustomerId(c);
  if (own === undefined) {
    const missing = fields.customer_id === 'subject' ? 'subject' : 'customer_id, or external_customer_id';
    const issues = events.flatMap((event, i) => (isNamed(event) ? [] : [{ path: `${fields.prefix(i)}${fields.customer_id}`, message: `name the customer: ${missing}` }]));
    throw new ApiError('validation_failed', `invalid request: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, { issues });
  }
  // A token whose subject is no customer id has no customer to send events for.
  if (!UUID_PATTERN.test(own)) throw notFound('customer', own);
  return events.map((event) => (isNamed(event) ? event : name(event, own)));
}

const jsonNamed = (event: SentUsageEvent) => event.customer_id !== undefined || event.external_customer_id !== undefined;
const jsonOwn = (event: SentUsageEvent, customerId: string): SentUsageEvent => ({ ...event, customer_id: customerId });
const cloudNamed = (event: CloudEventInput) => event.subject !== undefined;
const cloudOwn = (event: CloudEventInput, customerId: string): CloudEventInput => ({ ...event, subject: customerId });

export function registerEvents(app: App): void {
  app.openAPIRegistry.register('CloudEvent', CloudEventSchema);
  app.openAPIRegistry.register('CloudEventBatch', CloudEventBatchSchema);

  const singleCloudEvent = cloudEvents(CLOUD_EVENT_MEDIA_TYPE, CLOUD_EVENT_BATCH_MEDIA_TYPE, CloudEventSchema, async (c, event) =>
    c.json(await ingestEvent(c.get('deps'), fromCloudEvent(namingOwnCustomer(c, [event as CloudEventInput], CLOUD_EVENT_FIELDS, cloudNamed, cloudOwn)[0]!), context(c, CLOUD_EVENT_FIELDS)), 200),
  );
  const batchCloudEvents = cloudEvents(CLOUD_EVENT_BATCH_MEDIA_TYPE, CLOUD_EVENT_MEDIA_TYPE, CloudEventBatchSchema, async (c, events) =>
    c.json(await ingestBatch(c.get('deps'), namingOwnCustomer(c, events as CloudEventInput[], CLOUD_EVENT_BATCH_FIELDS, cloudNamed, cloudOwn).map(fromCloudEvent), context(c, CLOUD_EVENT_BATCH_FIELDS)), 200),
  );

  app.openapi(
    { ...single, middleware: [singleCloudEvent] },
    async (c) => {
      const [event] = await withCustomerIds(c.get('deps'), namingOwnCustomer(c, [c.req.valid('json')], JSON_FIELDS, jsonNamed, jsonOwn), JSON_FIELDS, true);
      return c.json(await ingestEvent(c.get('deps'), event!, context(c, JSON_FIELDS)), 200);
    },
  );
  app.openapi(
    { ...batch, middleware: [batchCloudEvents] },
    async (c) => {
      const events = await withCustomerIds(c.get('deps'), namingOwnCustomer(c, c.req.valid('json').events, JSON_BATCH_FIELDS, jsonNamed, jsonOwn), JSON_BATCH_FIELDS, false);
      return c.json(await ingestBatch(c.get('deps'), events, context(c, JSON_BATCH_FIELDS)), 200);
    },
  );
}
