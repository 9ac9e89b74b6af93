/**
 * The processor-events handlers: each reads the validated request, calls its service and answers. The route
 * definitions are in routes.ts, the request schemas in schemas.ts.
 */
import { getProcessorEvent, listProcessorEvents, retryProcessorEvent } from '../../../services/payments/processor-events.js';
import type { App } from '../../context.js';
import { requestContext, sendPage } from '../../helpers.js';
import { list, get, retry } from './routes.js';

export function registerProcessorEvents(app: App): void {
  app.openapi(list, async (c) => sendPage(c, await listProcessorEvents(c.get('deps').db, c.req.valid('query'))));
  app.openapi(get, async (c) => c.json(await getProcessorEvent(c.get('deps').db, c.req.valid('param').id), 200));
  app.openapi(retry, async (c) => {
    const deps = c.get('deps');
    return c.json(await retryProcessorEvent(deps, c.req.valid('param').id, requestContext(c)), 200);
  });
}
