/**
 * The meters handlers: each reads the validated request, calls its service and answers. The route
 * definitions are in routes.ts, the request schemas in schemas.ts.
 */
import { archiveMeter, createMeter, getMeter, listMeters } from '../../../services/metering/meters.js';
import { actorOf } from '../../actor.js';
import type { App } from '../../context.js';
import { sendPage } from '../../helpers.js';
import { create, list, get, archive } from './routes.js';

export function registerMeters(app: App): void {
  app.openapi(create, async (c) => c.json(await createMeter(c.get('deps'), c.req.valid('json'), actorOf(c), c.get('requestId')), 201));
  app.openapi(list, async (c) => sendPage(c, await listMeters(c.get('deps'), c.req.valid('query'))));
  app.openapi(get, async (c) => c.json(await getMeter(c.get('deps'), c.req.valid('param').id), 200));
  app.openapi(archive, async (c) => c.json(await archiveMeter(c.get('deps'), c.req.valid('param').id, actorOf(c), c.get('requestId')), 200));
}
