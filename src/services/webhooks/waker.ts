/**
 * The circuit waker: the one per-endpoint mechanism that wakes deliveries waiting on an endpoint's
 * circuit. A delivery the circuit refuses is parked (its row's parked_at, its workflow waiting for a
 * signal with no timer of its own but a long safety net), so a down endpoint costs the worker one
 * row in this loop's scan, however many deliveries wait for it. For each endpoint with parked
 * deliveries it
 *
 * - wakes them all, oldest first, once the circuit is closed (or the endpoint was disabled by hand:
 *   their attempts then end them as Failed);
 * - while the circuit is open, makes the oldest parked delivery the half-open probe as soon as the
 *   suspension has passed (claiming the probe here, so nothing else wakes meanwhile): its success
 *   closes the circuit and the next pass wakes the rest, its failure re-opens it;
 * - disables the endpoint instead, once its attempts have all failed for `disableAfterMs` (Stripe-
 *   like): `webhook_endpoint.disabled` goes to the other endpoints and the audit trail, and its
 *   deliveries stay parked until `POST /admin/v1/webhooks/:id/enable` (endpoints.ts) resends them.
 *
 * It runs in every worker process, like the outbox relay: an endpoint is handled under a row lock
 * taken with SKIP LOCKED, so several wakers never wake the same deliveries twice. The signals go
 * after the commit (no RPC inside a transaction); a waker that dies in between leaves those
 * deliveries to their safety net.
 */
import { circuitWake, outageExceeded } from '../../core/webhooks.js';
import type { Db } from '../../db/client.js';
import { disableEndpoint, endpointsToWake, lockEndpointUnlessBusy, oldestParkedDelivery, saveBreaker, unparkDeliveries, type ParkedDelivery } from '../../db/webhooks.js';
import type { Logger } from '../../logger.js';
import type { TemporalGateway } from '../../temporal/gateway.js';
import type { WebhookDeliveryPolicy } from '../../temporal/messages.js';
import { signalCircuitReady } from '../../temporal/workflows/webhook-delivery.js';
import { recordAudit, SYSTEM_ACTOR } from '../audit.js';
import { enqueueEvent } from '../outbox.js';
import { runInLanes } from './relay.js';
import { breakerPolicy } from './sender.js';

export interface CircuitWakerDeps {
  db: Db;
  temporal: TemporalGateway;
  policy: WebhookDeliveryPolicy;
  /** How long an endpoint's attempts may all fail before it is disabled. */
  disableAfterMs: number;
  logger: Logger;
}

export interface CircuitWakerOptions {
  /** How often the parked deliveries' endpoints are looked at. */
  pollIntervalMs?: number;
  /** Endpoints handled per pass. */
  batchSize?: number;
  /** Signals in flight at once. */
  signalConcurrency?: number;
}

export interface CircuitWaker {
  stop(): Promise<void>;
}

const DEFAULTS: Required<CircuitWakerOptions> = { pollIntervalMs: 1_000, batchSize: 100, signalConcurrency: 32 };

export const ENDPOINT_DISABLED_REASON = 'outage';

interface EndpointPass {
  woken: ParkedDelivery[];
  disabled: boolean;
}

/** One endpoint: wake its parked deliveries, its probe, or nothing; or disable it after a long outage. */
async function wakeEndpoint(deps: CircuitWakerDeps, endpointId: string): Promise<EndpointPass> {
  const policy = breakerPolicy(deps.policy);
  return deps.db.$transaction(async (tx) => {
    const endpoint = await lockEndpointUnlessBusy(tx, endpointId);
    if (!endpoint) return { woken: [], disabled: false };
    if (!endpoint.enabled) return { woken: endpoint.disabledAt === null ? await unparkDeliveries(tx, endpointId) : [], disabled: false };
    const now = new Date();
    if (endpoint.breaker.state !== 'Closed' && outageExceeded(endpoint.failingSince?.getTime() ?? null, now.getTime(), deps.disableAfterMs)) {
      const disabled = await disableEndpoint(tx, endpointId, now, ENDPOINT_DISABLED_REASON);
      const data = { endpoint_id: endpointId, url: disabled.url, reason: ENDPOINT_DISABLED_REASON, failing_since: endpoint.failingSince!.toISOString(), disabled_at: now.toISOString() };
      await enqueueEvent(tx, 'webhook_endpoint.disabled', endpointId, data, now);
      await recordAudit(tx, {
        action: 'webhook_endpoint.disabled',
        actor: SYSTEM_ACTOR,
        entityType: 'webhook_endpoint',
        entityId: endpointId,
        before: { enabled: true, failing_since: data.failing_since },
        after: { enabled: false, reason: ENDPOINT_DISABLED_REASON, disabled_at: data.disabled_at },
      });
      return { woken: [], disabled: true };
    }
    const oldest = await oldestParkedDelivery(tx, endpointId);
    if (!oldest) return { woken: [], disabled: false };
    const wake = circuitWake(endpoint.breaker, oldest.id, now.getTime(), policy);
    if (wake.wake === 'all') return { woken: await unparkDeliveries(tx, endpointId), disabled: false };
    if (wake.wake === 'none') return { woken: [], disabled: false };
    await saveBreaker(tx, endpointId, wake.breaker);
    return { woken: await unparkDeliveries(tx, endpointId, oldest.id), disabled: false };
  });
}

/** One pass over the endpoints that may let a parked delivery through now; returns the deliveries woken. */
export async function wakeParkedDeliveries(deps: CircuitWakerDeps, options: Pick<CircuitWakerOptions, 'batchSize' | 'signalConcurrency'> = {}): Promise<number> {
  const { batchSize, signalConcurrency } = { ...DEFAULTS, ...options };
  const endpointIds = await endpointsToWake(deps.db, deps.policy.breakerOpenMs, batchSize);
  let woken = 0;
  for (const endpointId of endpointIds) {
    const pass = await wakeEndpoint(deps, endpointId);
    if (pass.disabled) deps.logger.warn({ endpointId, disableAfterMs: deps.disableAfterMs }, 'webhook endpoint disabled after a long outage: its deliveries wait until it is enabled');
    if (pass.woken.length === 0) continue;
    const signalled = await runInLanes(pass.woken, signalConcurrency, (delivery) => signalCircuitReady(deps.temporal, delivery));
    deps.logger.debug({ endpointId, woken: pass.woken.length, signalled }, 'webhook circuit waker: parked deliveries woken');
    woken += pass.woken.length;
  }
  return woken;
}

export function startCircuitWaker(deps: CircuitWakerDeps, options: CircuitWakerOptions = {}): CircuitWaker {
  const settings = { ...DEFAULTS, ...options };
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  const idle = (ms: number) =>
    new Promise<void>((resolve) => {
      if (!running) return resolve();
      wake = resolve;
      timer = setTimeout(resolve, ms);
    });
  const loop = async () => {
    while (running) {
      try {
        await wakeParkedDeliveries(deps, settings);
      } catch (err) {
        if (!running) break;
        deps.logger.warn({ err }, 'webhook circuit waker: pass failed; trying again');
      }
      await idle(settings.pollIntervalMs);
    }
  };
  const done = loop();
  deps.logger.info({ pollIntervalMs: settings.pollIntervalMs }, 'webhook circuit waker started');
  return {
    async stop() {
      running = false;
      clearTimeout(timer);
      wake?.();
      await done;
      deps.logger.info('webhook circuit waker stopped');
    },
  };
}
