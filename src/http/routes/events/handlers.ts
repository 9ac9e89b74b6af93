import type { App } from '../../context.js';
import {
CLOUD_EVENT_BATCH_FIELDS,
CLOUD_EVENT_FIELDS,
fromCloudEvent,
ingestBatch,
ingestEvent,
JSON_BATCH_FIELDS,
JSON_FIELDS,withCustomerIds,
type CloudEventInput
} from '../../../services/metering/events.js';
import { CLOUD_EVENT_MEDIA_TYPE,CLOUD_EVENT_BATCH_MEDIA_TYPE,CloudEventSchema,CloudEventBatchSchema,alsoAccepting,single,batch,cloudEvents,context } from './routes.js';

export function registerEvents(app: App): void {
  app.openAPIRegistry.register('CloudEvent', CloudEventSchema);
  app.openAPIRegistry.register('CloudEventBatch', CloudEventBatchSchema);

  const singleCloudEvent = cloudEvents(CLOUD_EVENT_MEDIA_TYPE, CLOUD_EVENT_BATCH_MEDIA_TYPE, CloudEventSchema, async (c, event) =>
    c.json(await ingestEvent(c.get('deps'), fromCloudEvent(event as CloudEventInput), context(c, CLOUD_EVENT_FIELDS)), 200),
  );
  const batchCloudEvents = cloudEvents(CLOUD_EVENT_BATCH_MEDIA_TYPE, CLOUD_EVENT_MEDIA_TYPE, CloudEventBatchSchema, async (c, events) =>
    c.json(await ingestBatch(c.get('deps'), (events as CloudEventInput[]).map(fromCloudEvent), context(c, CLOUD_EVENT_BATCH_FIELDS)), 200),
  );

  app.openapi(
    { ...alsoAccepting(single, CLOUD_EVENT_MEDIA_TYPE, 'CloudEvent'), middleware: [singleCloudEvent] },
    async (c) => {
      const [event] = await withCustomerIds(c.get('deps'), [c.req.valid('json')], JSON_FIELDS, true);
      return c.json(await ingestEvent(c.get('deps'), event!, context(c, JSON_FIELDS)), 200);
    },
  );
  app.openapi(
    { ...alsoAccepting(batch, CLOUD_EVENT_BATCH_MEDIA_TYPE, 'CloudEventBatch'), middleware: [batchCloudEvents] },
    async (c) => {
      const events = await withCustomerIds(c.get('deps'), c.req.valid('json').events, JSON_BATCH_FIELDS, false);
      return c.json(await ingestBatch(c.get('deps'), events, context(c, JSON_BATCH_FIELDS)), 200);
    },
  );
}
