/** Whether the database and Temporal answer, each within a bounded time. */
import { pingDb } from '../db/client.js';
import type { Check, Health } from '../schemas/health.js';
import { pingTemporal } from '../temporal/gateway.js';
import type { ServiceDeps } from './deps.js';

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

/** Probes both dependencies at once; `temporalNamespace` is the namespace Temporal must know. */
export async function checkHealth(deps: Pick<ServiceDeps, 'pool' | 'temporal'>, temporalNamespace: string): Promise<Health> {
  const [database, temporal] = await Promise.all([timed(() => pingDb(deps.pool)), timed(() => pingTemporal(deps.temporal, temporalNamespace))]);
  const down = Object.entries({ database, temporal })
    .filter(([, check]) => check.status === 'down')
    .map(([name]) => name);
  return { status: down.length === 0 ? 'ok' : 'degraded', checks: { database, temporal }, down };
}
