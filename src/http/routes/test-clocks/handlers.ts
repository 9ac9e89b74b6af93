/**
 * The test-clocks handlers: each reads the validated request, calls its service and answers. The route
 * definitions are in routes.ts, the request schemas in schemas.ts.
 */
import { advanceTestClock, createTestClock, deleteTestClock, getTestClock, listTestClocks } from '../../../services/subscriptions/test-clocks.js';
import { actorOf } from '../../actor.js';
import type { App } from '../../context.js';
import { sendPage } from '../../helpers.js';
import { create, get, list, advance, remove } from './routes.js';

export function registerTestClocks(app: App): void {
  app.openapi(create, async (c) => c.json(await createTestClock(c.get('deps'), c.req.valid('json'), actorOf(c), c.get('requestId')), 201));
  app.openapi(get, async (c) => c.json(await getTestClock(c.get('deps'), c.req.valid('param').id), 200));
  app.openapi(list, async (c) => sendPage(c, await listTestClocks(c.get('deps'), c.req.valid('query'))));
  app.openapi(advance, async (c) =>
    c.json(await advanceTestClock(c.get('deps'), c.req.valid('param').id, c.req.valid('json').frozen_time, actorOf(c), c.get('requestId')), 202),
  );
  app.openapi(remove, async (c) => {
    await deleteTestClock(c.get('deps'), c.req.valid('param').id, actorOf(c), c.get('requestId'));
    return c.body(null, 204);
  });
}
