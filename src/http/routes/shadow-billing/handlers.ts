/**
 * The shadow billing handlers: each reads the validated request, calls its service and answers. The
 * route definitions are in routes.ts, the request schemas in schemas.ts.
 */
import { attachShadow, detachShadow, getShadowAttachment, listShadowAttachments, shadowVariance, shadowVarianceCsv } from '../../../services/simulations/shadow-billing.js';
import { actorOf } from '../../actor.js';
import type { App } from '../../context.js';
import { sendCsv, wantsCsv } from '../../csv.js';
import { sendPage } from '../../helpers.js';
import { attach, detach, get, list, variance } from './routes.js';

export function registerShadowBilling(app: App): void {
  app.openapi(attach, async (c) => c.json(await attachShadow(c.get('deps'), c.req.valid('json'), actorOf(c), c.get('requestId')), 201));
  app.openapi(list, async (c) => sendPage(c, await listShadowAttachments(c.get('deps'), c.req.valid('query'))));
  app.openapi(get, async (c) => c.json(await getShadowAttachment(c.get('deps'), c.req.valid('param').id), 200));
  app.openapi(detach, async (c) => c.json(await detachShadow(c.get('deps'), c.req.valid('param').id, actorOf(c), c.get('requestId')), 200));
  app.openapi(variance, async (c) => {
    const { from, to, attachment_id, customer_id, format } = c.req.valid('query');
    const view = await shadowVariance(c.get('deps'), { from: new Date(from), to: new Date(to), attachment_id, customer_id });
    return wantsCsv(c, format) ? sendCsv(c, shadowVarianceCsv(view), 'shadow-billing-variance.csv') : c.json(view, 200);
  });
}
