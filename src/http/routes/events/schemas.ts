/**
 * The requests of the events routes: bodies, queries and path parameters, validated before a handler runs.
 */
import { z } from '@hono/zod-openapi';
import { MAX_BATCH_EVENTS, MAX_EVENT_ID_LENGTH, MAX_EVENT_TYPE_LENGTH, propertyIssues } from '../../../services/metering/events.js';
import { DateTimeSchema, ExternalIdSchema, UuidSchema } from '../../../schemas/common.js';

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
const EXTENSION_NAME = /^[a-z0-9]{1,20}$/;

const EventIdSchema = z
  .string()
  .min(1)
  .max(MAX_EVENT_ID_LENGTH)
  .refine((v) => !CONTROL_CHARACTERS.test(v) && v.trim() === v, 'must have no control characters and no surrounding spaces')
  .openapi({ description: 'client-generated; the deduplication key (global across customers)', example: 'evt_01HZX3' });

const EventTypeSchema = z
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
const EventTimestampSchema = DateTimeSchema.openapi({
  format: 'date-time',
  example: '2026-01-31T12:00:00Z',
  description: 'ISO 8601 date-time with seconds and an offset (Z or ±hh:mm, within ±15:59), from 1970 on',
});

const PropertiesSchema = z
  .record(z.string(), z.unknown(), { message: 'must be an object' })
  .openapi({ additionalProperties: true })
  .superRefine((properties, ctx) => {
    for (const issue of propertyIssues(properties)) ctx.addIssue({ code: 'custom', path: issue.path.split('.'), message: issue.message });
  })
  .openapi({
    description:
      'arbitrary key/values for filtering and aggregation; send exact quantities as decimal strings ("0.25"). Top-level numbers and ' +
      'decimal strings are usage quantities: at most 18 digits before the decimal point and 12 after, and negative only with admin ' +
      'credentials (corrections; billing never counts a period below zero). A customer\'s usage per calendar month (UTC), the sum of ' +
      'each event\'s largest |value| among the properties its meters read, is at most 10^18 (MAX_MONTHLY_QUANTITY), and so is a request\'s: ' +
      'beyond it the request is answered 422 quantity_limit_exceeded and nothing of it is stored',
    example: { tokens: '1500', model: 'large' },
  });

export const UsageEventSchema = z
  .strictObject({
    id: EventIdSchema,
    event_type: EventTypeSchema,
    customer_id: UuidSchema.optional().openapi({
      description:
        "the customer; or name it by external_customer_id. Required (one of the two) with admin credentials; with a customer token, an event naming neither is the token's own customer",
    }),
    external_customer_id: ExternalIdSchema.optional().openapi({ description: "the customer's external_id, instead of customer_id" }),
    subscription_id: UuidSchema.nullish().openapi({ description: "attributes the event to this subscription (must be the customer's)" }),
    timestamp: EventTimestampSchema.optional().openapi({ description: "when the usage happened; the time of receipt (the customer's current time) when absent" }),
    properties: PropertiesSchema.optional(),
  })
  .superRefine((event, ctx) => {
    // An event naming no customer is refused by the handler unless a customer token sent it (its own customer).
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

const CLOUD_EVENT_ATTRIBUTES = new Set(['specversion', 'id', 'source', 'type', 'subject', 'time', 'datacontenttype', 'dataschema', 'subscriptionid']);

/** CloudEvents 1.0 structured mode (JSON format); extension attributes are allowed and ignored. */
/** Any letter case of a word, spelled out so that the published pattern needs no regex flag. */
const anyCase = (word: string): string => word.replace(/[a-z]/g, (letter) => `[${letter.toUpperCase()}${letter}]`);

/** A JSON media type (application/json, application/<x>+json, with parameters), in any letter case. */
const JSON_MEDIA_TYPE = new RegExp(`^${anyCase('application')}/([\\w.-]+\\+)?${anyCase('json')}(;.*)?$`);

export const CloudEventSchema = z
  .looseObject({
    specversion: z.literal('1.0', { message: 'must be "1.0"' }),
    id: EventIdSchema,
    source: z.string().min(1).max(1024).openapi({ description: 'stored with the event' }),
    type: EventTypeSchema.openapi({ description: 'becomes event_type' }),
    subject: UuidSchema.optional().openapi({
      description: "the customer id; required with admin credentials, and with a customer token the token's own customer when absent",
    }),
    time: EventTimestampSchema.optional().openapi({ description: 'becomes timestamp; the time of receipt when absent' }),
    datacontenttype: z
      .string()
      .regex(JSON_MEDIA_TYPE, 'data must be JSON (datacontenttype application/json)')
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
  .openapi('CloudEvent', { additionalProperties: true });

export const CloudEventBatchSchema = z
  .array(CloudEventSchema)
  .min(1, 'must hold at least one event')
  .max(MAX_BATCH_EVENTS, `must hold at most ${MAX_BATCH_EVENTS} events per batch`)
  .openapi('CloudEventBatch');
