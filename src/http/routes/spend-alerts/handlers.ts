/**
 * The spend-alerts handlers: each reads the validated request, calls its service and answers. The route
 * definitions are in routes.ts, the request schemas in schemas.ts.
 */
import { z } from '@hono/zod-openapi';
import { createSpendAlert, disableSpendAlert, getEntitlement, getSpendAlert, listSpendAlerts, resetSpendAlert } from '../../../services/alerts/spend-alerts.js';
import { ownCustomerId } from '../../actor.js';
import type { App } from '../../context.js';
import { requestContext, sendPage } from '../../helpers.js';
import { create, list, get, remove, reset, entitlement } from './routes.js';
import { ResetSpendAlertSchema } from './schemas.js';

export function registerSpendAlerts(app: App): void {
  app.openapi(create, async (c) => c.json(await createSpendAlert(c.get('deps'), c.req.valid('param').id, c.req.valid('json'), requestContext(c)), 201));

  app.openapi(list, async (c) => {
    const { status, ...page } = c.req.valid('query');
    return sendPage(c, await listSpendAlerts(c.get('deps').db, c.req.valid('param').id, { status }, page));
  });

  app.openapi(get, async (c) => {
    const { id, alert_id } = c.req.valid('param');
    return c.json(await getSpendAlert(c.get('deps').db, id, alert_id), 200);
  });

  app.openapi(remove, async (c) => {
    const { id, alert_id } = c.req.valid('param');
    return c.json(await disableSpendAlert(c.get('deps'), id, alert_id, requestContext(c)), 200);
  });

  app.openapi(reset, async (c) => {
    const { id, alert_id } = c.req.valid('param');
    const body = (c.req.valid('json') as z.infer<typeof ResetSpendAlertSchema> | undefined) ?? {};
    return c.json(await resetSpendAlert(c.get('deps'), id, alert_id, body, requestContext(c)), 200);
  });

  app.openapi(entitlement, async (c) => c.json(await getEntitlement(c.get('deps').db, c.req.valid('param').id, ownCustomerId(c)), 200));
}
