/**
 * The usage handlers: each reads the validated request, calls its service and answers. The route
 * definitions are in routes.ts, the request schemas in schemas.ts.
 */
import { getUsageSummary } from '../../../services/metering/usage.js';
import { listUsageEvents } from '../../../services/metering/usage-events.js';
import { ownCustomerId } from '../../actor.js';
import type { App } from '../../context.js';
import { sendPage } from '../../helpers.js';
import { summary, events } from './routes.js';

export function registerUsage(app: App): void {
  app.openapi(events, async (c) => sendPage(c, await listUsageEvents(c.get('deps').db, c.req.valid('param').id, c.req.valid('query'))));
  app.openapi(summary, async (c) =>
    c.json(await getUsageSummary(c.get('deps'), c.req.valid('param').id, c.req.valid('query'), ownCustomerId(c)), 200),
  );
}
