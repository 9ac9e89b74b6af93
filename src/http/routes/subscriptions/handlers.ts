/**
 * The subscriptions handlers: each reads the validated request, calls its service and answers. The route
 * definitions are in routes.ts, the request schemas in schemas.ts.
 */
import { z } from '@hono/zod-openapi';
import {
  billNow,
  changePlan,
  createSubscription,
  getSubscription,
  listSubscriptions,
  moveSubscription,
  retrySubscriptionBilling,
  updateSubscriptionMetadata,
} from '../../../services/subscriptions/subscriptions.js';
import { ReasonSchema } from '../../schemas.js';
import { actorOf, ownCustomerId } from '../../actor.js';
import type { App } from '../../context.js';
import { withHostedLink } from '../../hosted-links.js';
import { requestContext, sendPage } from '../../helpers.js';
import { upcomingInvoice } from '../../../services/subscriptions/upcoming-invoice.js';
import { create, get, upcomingInvoiceRoute, list, adminList, adminGet, update, bill, changePlanRoute, retry, moveRoutes } from './routes.js';

export function registerSubscriptions(app: App): void {
  app.openapi(create, async (c) => {
    const subscription = await createSubscription(c.get('deps'), c.req.valid('json'), actorOf(c), c.get('requestId'), ownCustomerId(c));
    return c.json(subscription, 201);
  });
  app.openapi(list, async (c) => sendPage(c, await listSubscriptions(c.get('deps'), c.req.valid('query'), ownCustomerId(c))));
  app.openapi(get, async (c) => c.json(await getSubscription(c.get('deps'), c.req.valid('param').id, ownCustomerId(c)), 200));
  app.openapi(upcomingInvoiceRoute, async (c) => c.json(await upcomingInvoice(c.get('deps'), c.req.valid('param').id, ownCustomerId(c)), 200));
  app.openapi(adminList, async (c) => sendPage(c, await listSubscriptions(c.get('deps'), c.req.valid('query'))));
  app.openapi(adminGet, async (c) => c.json(await getSubscription(c.get('deps'), c.req.valid('param').id), 200));
  app.openapi(update, async (c) =>
    c.json(await updateSubscriptionMetadata(c.get('deps'), c.req.valid('param').id, c.req.valid('json').metadata, requestContext(c)), 200),
  );

  for (const [move, route] of Object.entries(moveRoutes) as [keyof typeof moveRoutes, (typeof moveRoutes)[keyof typeof moveRoutes]][]) {
    app.openapi(route, async (c) => {
      const body = (c.req.valid('json') as z.infer<typeof ReasonSchema> | undefined) ?? {};
      const subscription = await moveSubscription(c.get('deps'), c.req.valid('param').id, move, {
        ...requestContext(c),
        ...(body.reason ? { reason: body.reason } : {}),
      });
      return c.json(subscription, 200);
    });
  }

  app.openapi(retry, async (c) => c.json(await retrySubscriptionBilling(c.get('deps'), c.req.valid('param').id, requestContext(c)), 200));
  app.openapi(bill, async (c) => {
    const { invoice, created } = await billNow(c.get('deps'), c.req.valid('param').id, requestContext(c));
    return created ? c.json(withHostedLink(c, invoice), 201) : c.json(withHostedLink(c, invoice), 200);
  });
  app.openapi(changePlanRoute, async (c) =>
    c.json(await changePlan(c.get('deps'), c.req.valid('param').id, c.req.valid('json').plan_id, requestContext(c)), 200),
  );
}
