/** Meters (SPEC §2 "Meter definition"): how an event_type becomes a quantity. */
import { createRoute, z } from '@hono/zod-openapi';
import { MeterSchema } from '../../../schemas/metering.js';
import { jsonResponse, mutationRequest, pageResponse } from '../../helpers.js';
import { IdempotencyHeaderSchema, IdParamSchema, PaginationQuerySchema } from '../../schemas.js';
import { CreateMeterSchema } from './schemas.js';

const METER_RULES = `Aggregations (as SPEC spells them): Sum, Max and LATEST of a numeric property (JSON numbers or decimal strings, summed
exactly); Count of events; UniqueCount of distinct values of the property; WEIGHTED_SUM: each event's property moves a level that
persists across windows, and the value is the level's time-weighted average over the window (rounded half-even to 12 decimal places).
Latest and WeightedSum are accepted on input and stored as LATEST and WEIGHTED_SUM.
Filters (all must hold): Equals, NotEquals, GreaterThan, GreaterThanOrEqual, LessThan, LessThanOrEqual, In. A number compares
numerically with numbers and decimal strings, a string with the text of strings and numbers, a boolean with booleans. NotEquals also
matches events without the property; the others need it. For "not in", give several NotEquals.
Windows: BillingPeriod (the subscription's billing period), Sliding (window_size before the reference instant), Tumbling (consecutive
window_size windows aligned on the Unix epoch, so P1D windows start at 00:00 UTC; the one containing the reference instant).
A period's invoice bills a BillingPeriod meter's value over the period, a Tumbling meter the sum over the period's windows of each
window's value (e.g. the sum of daily maxima), a Sliding meter its value over the window_size ending at the period end.
Several meters may match one event_type, each priced by its own SKU (SKU meter_id); a SKU giving only meter_event_type is billed with
the type's default meter, the first one created. Meters are immutable (they can only be archived); an event_type without meters is
measured by the default: the sum of each event's \`quantity\` (1 for events without it).`;

export const create = createRoute({
  method: 'post',
  path: '/admin/v1/meters',
  operationId: 'createMeter',
  tags: ['Metering'],
  summary: 'Define a meter',
  description: `${METER_RULES}\nEvents already stored count as soon as the meter exists. A meter measuring exactly what another does (same event_type, aggregation, property, filters and window) is 409 meter_exists, naming the existing one in details.id. A WEIGHTED_SUM meter of an event_type whose old raw events the retention (USAGE_EVENT_RETENTION_DAYS) dropped is 409 event_type_pruned: its level sums every earlier event.`,
  request: mutationRequest(CreateMeterSchema),
  responses: { 201: jsonResponse('The meter', MeterSchema) },
});

export const list = createRoute({
  method: 'get',
  path: '/admin/v1/meters',
  operationId: 'listMeters',
  tags: ['Metering'],
  summary: 'List meters, newest first',
  description: 'Every meter, newest first, as a JSON array (pagination in the X-Has-More, X-Next-Cursor and Link headers); event_type narrows to the meters of one event type.',
  request: { query: PaginationQuerySchema.extend({ event_type: z.string().min(1).max(200).optional().openapi({ description: 'only meters of this event_type' }) }) },
  responses: { 200: pageResponse('A page of meters', MeterSchema, 'MeterList') },
});

export const get = createRoute({
  method: 'get',
  path: '/admin/v1/meters/{id}',
  operationId: 'getMeter',
  tags: ['Metering'],
  summary: 'Get a meter',
  description: 'The meter definition: event type, aggregation, property, filters and window, archived or not.',
  request: { params: IdParamSchema },
  responses: { 200: jsonResponse('The meter', MeterSchema) },
});

export const archive = createRoute({
  method: 'post',
  path: '/admin/v1/meters/{id}/archive',
  operationId: 'archiveMeter',
  tags: ['Metering'],
  summary: 'Archive a meter',
  description:
    'Sets archived_at. A new SKU cannot price an event_type billed with an archived meter (409 meter_archived), so no new plan ' +
    'version is matched to it. Plan versions already pricing its event_type keep billing with it: subscriptions on them are not ' +
    're-priced. Archiving an archived meter returns it unchanged.',
  request: { params: IdParamSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The archived meter', MeterSchema) },
});
