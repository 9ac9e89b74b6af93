/**
 * The contracts handlers: each reads the validated request, calls its service and answers. The route
 * definitions are in routes.ts, the request schemas in schemas.ts.
 */
import { z } from '@hono/zod-openapi';
import { activateContract, amendContract, createContract, getContract, linkSubscription, listContracts, retryContract, terminateContract } from '../../../services/contracts/contracts.js';
import type { App } from '../../context.js';
import { requestContext, sendPage } from '../../helpers.js';
import { ReasonSchema } from '../../schemas.js';
import { create, get, list, activate, amend, terminate, retry, link } from './routes.js';

export function registerContracts(app: App): void {
  app.openapi(create, async (c) => {
    const { actor, requestId } = requestContext(c);
    return c.json(await createContract(c.get('deps'), c.req.valid('json'), actor, requestId), 201);
  });
  app.openapi(list, async (c) => sendPage(c, await listContracts(c.get('deps'), c.req.valid('query'))));
  app.openapi(get, async (c) => c.json(await getContract(c.get('deps'), c.req.valid('param').id), 200));
  app.openapi(activate, async (c) => {
    const { actor, requestId } = requestContext(c);
    return c.json(await activateContract(c.get('deps'), c.req.valid('param').id, actor, requestId), 200);
  });
  app.openapi(amend, async (c) => {
    const { actor, requestId } = requestContext(c);
    return c.json(await amendContract(c.get('deps'), c.req.valid('param').id, c.req.valid('json'), actor, requestId), 201);
  });
  app.openapi(terminate, async (c) => {
    const { actor, requestId } = requestContext(c);
    const body = (c.req.valid('json') as z.infer<typeof ReasonSchema> | undefined) ?? {};
    return c.json(await terminateContract(c.get('deps'), c.req.valid('param').id, body, actor, requestId), 200);
  });
  app.openapi(retry, async (c) => c.json(await retryContract(c.get('deps'), c.req.valid('param').id, requestContext(c)), 200));
  app.openapi(link, async (c) => {
    const { actor, requestId } = requestContext(c);
    return c.json(await linkSubscription(c.get('deps'), c.req.valid('param').id, c.req.valid('json'), actor, requestId), 201);
  });
}
