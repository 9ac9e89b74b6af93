import { createRoute, z } from '@hono/zod-openapi';
import { pingDb } from '../../db/client.js';
import { pingTemporal } from '../../temporal/client.js';
import type { App, AppDeps } from '../context.js';

const CheckSchema = z.object({
  status: z.enum(['ok', 'down']),
  latency_ms: z.number().int(),
  error: z.string().optional(),
});

const HealthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    checks: z.object({ database: CheckSchema, temporal: CheckSchema }),
    down: z.array(z.string()).openapi({ description: 'names of the dependencies that did not answer' }),
  })
  .openapi('Health');

type Check = z.infer<typeof CheckSchema>;

const CHECK_TIMEOUT_MS = 2_000;

async function timed(probe: () => Promise<void>): Promise<Check> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { status: 'ok', latency_ms: Math.round(performance.now() - started) };
  } catch (err) {
    return { status: 'down', latency_ms: Math.round(performance.now() - started), error: (err as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

export async function checkHealth(deps: AppDeps): Promise<z.infer<typeof HealthSchema>> {
  const [database, temporal] = await Promise.all([
    timed(() => pingDb(deps.pool)),
    timed(() => pingTemporal(deps.temporal, deps.settings.temporalNamespace)),
  ]);
  const down = Object.entries({ database, temporal })
    .filter(([, check]) => check.status === 'down')
    .map(([name]) => name);
  return { status: down.length === 0 ? 'ok' : 'degraded', checks: { database, temporal }, down };
}

const route = createRoute({
  method: 'get',
  path: '/health',
  tags: ['Platform'],
  summary: 'Status of the service and its dependencies (public)',
  security: [],
  responses: {
    200: { description: 'Database and Temporal both answer', content: { 'application/json': { schema: HealthSchema } } },
    503: { description: 'At least one dependency is down', content: { 'application/json': { schema: HealthSchema } } },
  },
});

export function registerHealth(app: App): void {
  app.openapi(route, async (c) => {
    const health = await checkHealth(c.get('deps'));
    return health.status === 'ok' ? c.json(health, 200) : c.json(health, 503);
  });
}
