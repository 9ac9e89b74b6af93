import { createRoute } from '@hono/zod-openapi';
import { HealthSchema } from '../../schemas/health.js';
import { checkHealth } from '../../services/health.js';
import type { App } from '../context.js';
import { jsonResponse } from '../helpers.js';

const route = createRoute({
  method: 'get',
  path: '/health',
  operationId: 'getHealth',
  tags: ['Platform'],
  summary: 'Status of the service and its dependencies (public)',
  description: 'Public. 200 when the database and Temporal both answer, 503 when either does not; checks gives the status and latency of each, down names the ones that did not answer.',
  security: [],
  responses: {
    200: jsonResponse('Database and Temporal both answer', HealthSchema),
    503: jsonResponse('At least one dependency is down', HealthSchema),
  },
});

export function registerHealth(app: App): void {
  app.openapi(route, async (c) => {
    const deps = c.get('deps');
    const health = await checkHealth(deps, deps.settings.temporalNamespace);
    return health.status === 'ok' ? c.json(health, 200) : c.json(health, 503);
  });
}
