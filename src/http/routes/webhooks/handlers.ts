/**
 * The webhooks handlers: each reads the validated request, calls its service and answers. The route
 * definitions are in routes.ts, the request schemas in schemas.ts.
 */
import { createWebhookEndpoint, deleteWebhookEndpoint, enableWebhookEndpoint, getWebhookEndpoint, listWebhookEndpoints, rotateWebhookSecret, updateWebhookEndpoint } from '../../../services/webhooks/endpoints.js';
import { getWebhookDelivery, listWebhookDeliveries, resendWebhookDelivery } from '../../../services/webhooks/deliveries.js';
import type { App } from '../../context.js';
import { sendPage, requestContext } from '../../helpers.js';
import { create, list, get, update, remove, rotate, enable, deliveries, delivery, resend } from './routes.js';

export function registerWebhooks(app: App): void {
  app.openapi(create, async (c) => c.json(await createWebhookEndpoint(c.get('deps'), c.req.valid('json'), requestContext(c)), 201));
  app.openapi(list, async (c) => sendPage(c, await listWebhookEndpoints(c.get('deps'), c.req.valid('query'))));
  app.openapi(get, async (c) => c.json(await getWebhookEndpoint(c.get('deps'), c.req.valid('param').id), 200));
  app.openapi(update, async (c) => c.json(await updateWebhookEndpoint(c.get('deps'), c.req.valid('param').id, c.req.valid('json'), requestContext(c)), 200));
  app.openapi(remove, async (c) => {
    await deleteWebhookEndpoint(c.get('deps'), c.req.valid('param').id, requestContext(c));
    return c.body(null, 204);
  });
  app.openapi(rotate, async (c) => c.json(await rotateWebhookSecret(c.get('deps'), c.req.valid('param').id, requestContext(c)), 200));
  app.openapi(enable, async (c) => c.json(await enableWebhookEndpoint(c.get('deps'), c.req.valid('param').id, requestContext(c)), 200));
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
    return c.json(await resendWebhookDelivery(c.get('deps'), params.id, params.delivery_id, requestContext(c)), 202);
  });
}
