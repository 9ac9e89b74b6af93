/**
 * The invoice-lifecycle handlers: each reads the validated request, calls its service and answers. The route
 * definitions are in routes.ts, the request schemas in schemas.ts.
 */
import { z } from '@hono/zod-openapi';
import { finalizeInvoiceNow, moveInvoiceNow, retryInvoiceBilling } from '../../../services/invoicing/invoice-lifecycle.js';
import type { App } from '../../context.js';
import { withHostedLink } from '../../hosted-links.js';
import { requestContext } from '../../helpers.js';
import { ReasonSchema } from '../../schemas.js';
import { finalize, pay, voidRoute, retry } from './routes.js';
import { PaySchema } from './schemas.js';

export function registerInvoiceLifecycle(app: App): void {
  app.openapi(retry, async (c) => c.json(withHostedLink(c, await retryInvoiceBilling(c.get('deps'), c.req.valid('param').id, requestContext(c))), 200));
  app.openapi(finalize, async (c) => c.json(withHostedLink(c, await finalizeInvoiceNow(c.get('deps'), c.req.valid('param').id, requestContext(c))), 200));
  app.openapi(pay, async (c) => {
    const { actor_id, actor_name, reference, amount_nanos } = (c.req.valid('json') as z.infer<typeof PaySchema> | undefined) ?? {};
    const context = requestContext(c);
    // The caller is known from its credentials: who paid defaults to it.
    const command = {
      ...context,
      paidBy: { actorId: actor_id ?? context.actor.id, actorName: actor_name ?? null },
      ...(reference !== undefined ? { reference } : {}),
      ...(amount_nanos !== undefined ? { amountNanos: amount_nanos } : {}),
    };
    return c.json(withHostedLink(c, await moveInvoiceNow(c.get('deps'), c.req.valid('param').id, 'pay', command)), 200);
  });
  app.openapi(voidRoute, async (c) => {
    const { reason } = (c.req.valid('json') as z.infer<typeof ReasonSchema> | undefined) ?? {};
    const command = { ...requestContext(c), ...(reason ? { reason } : {}) };
    return c.json(withHostedLink(c, await moveInvoiceNow(c.get('deps'), c.req.valid('param').id, 'void', command)), 200);
  });
}
