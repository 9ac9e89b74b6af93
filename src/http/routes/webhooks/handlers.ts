/**
 * The webhooks handlers: each reads the validated request, calls its service and answers. The route
 * definitions are in routes.ts, the request schemas in schemas.ts.
 */
import type { Context } from 'hono';
import { actorOf } from '../../actor.js';
import type { AppEnv } from '../../context.js';
import { type RequestContext } from '../../../services/webhooks/endpoints.js';
import { create, list, get, update, remove, rotate, deliveries, delivery, resend } from './routes.js';
import type { App } from '../../context.js';
import { sendPage } from '../../helpers.js';
import { createWebhookEndpoint, deleteWebhookEndpoint, getWebhookEndpoint, listWebhookEndpoints, rotateWebhookSecret, updateWebhookEndpoint } from '../../../services/webhooks/endpoints.js';
import { getWebhookDelivery, listWebhookDeliveries, resendWebhookDelivery } from '../../../services/webhooks/deliveries.js';

export const context = (c: Context<AppEnv>): RequestContext => ({ actor: actorOf(c), requestId: c.get('requestId') });

export function registerWebhooks(app: App): void {
  app.openapi(create, async (c) => c.json(await createWebhookEndpoint(c.get('deps'), c.req.valid('json'), context(c)), 201));
  app.openapi(list, async (c) => sendPage(c, await listWebhookEndpoints(c.get('deps'), c.req.valid('query'))));
  app.openapi(get, async (c) => c.json(await getWebhookEndpoint(c.get('deps'), c.req.valid('param').id), 200));
  app.openapi(update, async (c) => c.json(await updateWebhookEndpoint(c.get('deps'), c.req.valid('param').id, c.req.valid('json'), context(c)), 200));
  app.openapi(remove, async (c) => {
    await deleteWebhookEndpoint(c.get('deps'), c.req.valid('param').id, context(c));
    return c.body(null, 204);
  });
  app.openapi(rotate, async (c) => c.json(await rotateWebhookSecret(c.get('deps'), c.req.valid('param').id, context(c)), 200));
  app.openapi(deliveries, async (c) => {
    const { id } = c.req.valid('param');
    return sendPage(c, await listWebhookDeliveries(c.get('deps'), id, c.req.valid('query')));
  });
  app.openapi(delivery, async (c) => {
    const params = c.req.valid('param');
    return c.json(await getWebhookDelivery(c.get('deps'), params.id, params.delivery_id), 200);
  });
  app.openapi(resend, async (c) => {
    const params = c.req.valid('param');
    return c.json(await resendWebhookDelivery(c.get('deps'), params.id, params.delivery_id, context(c)), 202);
  });
}
