/**
 * The audit handlers: each reads the validated request, calls its service and answers. The route
 * definitions are in routes.ts, the request schemas in schemas.ts.
 */
import { getAuditEntry, listAudit } from '../../../services/audit.js';
import type { App } from '../../context.js';
import { sendPage } from '../../helpers.js';
import { list, get } from './routes.js';

export function registerAudit(app: App): void {
  app.openapi(list, async (c) => {
    const { created_gte, created_lt, ...filter } = c.req.valid('query');
    return sendPage(
      c,
      await listAudit(c.get('deps').db, {
        ...filter,
        created_gte: created_gte === undefined ? undefined : new Date(created_gte),
        created_lt: created_lt === undefined ? undefined : new Date(created_lt),
      }),
    );
  });
  app.openapi(get, async (c) => c.json(await getAuditEntry(c.get('deps').db, c.req.valid('param').id), 200));
}
