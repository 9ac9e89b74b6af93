/**
 * The outbox relay: reads committed outbox events (oldest first) and starts one delivery workflow
 * per (event, subscribed endpoint). It runs in every worker process; several at once are safe:
 *
 * - a relay claims a batch with FOR UPDATE SKIP LOCKED and a lease, so relays never share rows, and
 *   the deliveries of the batch are recorded in the claim's transaction (fan-out decided once);
 * - workflows are started after that commit (no RPC inside a transaction) with the delivery's
 *   readable id `webhook:<event_id>:<endpoint_id>`, whose reuse is refused, and only then are the
 *   events marked dispatched. A relay that dies in between leaves its claim to lapse; the next one
 *   claims the events again and starting their workflows again is a no-op: nothing is lost, nothing
 *   sent twice.
 *
 * It wakes on NOTIFY from the outbox trigger (sent at commit) and polls as a fallback.
 */
import type pg from 'pg';
import { subscribes } from '../../core/webhooks.js';
import type { Db } from '../../db/client.js';
import { claimOutboxEvents, listenForOutbox, markOutboxDispatched, type OutboxListener } from '../../db/webhooks.js';
import type { Logger } from '../../logger.js';
import type { TemporalGateway } from '../../temporal/gateway.js';
import type { WebhookDeliveryPolicy } from '../../temporal/messages.js';
import { startDeliveryWorkflow } from './deliveries.js';


export interface OutboxRelayDeps {
  db: Db;
  /** For the LISTEN connection. */
  pool: pg.Pool;
  /** Deliveries run on the webhooks queue of its task queue. */
  temporal: TemporalGateway;
  policy: WebhookDeliveryPolicy;
  logger: Logger;
}

export interface OutboxRelayOptions {
  /** Events claimed per transaction. */
  batchSize?: number;
  /** How long a claim holds before another relay may take the events over. */
  leaseMs?: number;
  /** Fallback poll when no notification arrives (a lost LISTEN connection, another database client). */
  pollIntervalMs?: number;
  /** Workflow starts in flight at once. */
  startConcurrency?: number;
}

export interface OutboxRelay {
  /** Resolves when the relay has stopped: after the batch in hand is handed over. */
  stop(): Promise<void>;
}

const DEFAULTS: Required<OutboxRelayOptions> = { batchSize: 200, leaseMs: 60_000, pollIntervalMs: 1_000, startConcurrency: 32 };
const MAX_BACKOFF_MS = 30_000;

/** Runs `act` over `items`, `concurrency` at a time; returns how many it answered true for (workflows started, signalled). */
export async function runInLanes<T>(items: readonly T[], concurrency: number, act: (item: T) => Promise<boolean>): Promise<number> {
  let next = 0;
  let done = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      if (await act(item)) done += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
  return done;
}

export function startOutboxRelay(deps: OutboxRelayDeps, options: OutboxRelayOptions = {}): OutboxRelay {
  const settings = { ...DEFAULTS, ...options };
  const { logger } = deps;
  let running = true;
  let wake: (() => void) | null = null;
  let pending = false;
  let listener: OutboxListener | null = null;

  const notify = () => {
    pending = true;
    wake?.();
  };
  const idle = (ms: number) =>
    new Promise<void>((resolve) => {
      if (pending || !running) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });

  const listen = async () => {
    if (listener) return;
    const opened: OutboxListener = await listenForOutbox(deps.pool, notify, (err) => {
      logger.warn({ err }, 'outbox relay: LISTEN connection lost; polling until it is back');
      if (listener === opened) listener = null;
    });
    listener = opened;
  };

  const starter = { temporal: deps.temporal, policy: deps.policy };
  const loop = async () => {
    let backoffMs = settings.pollIntervalMs;
    while (running) {
      try {
        await listen();
        pending = false;
        const batch = await claimOutboxEvents(deps.db, settings.batchSize, settings.leaseMs, subscribes);
        if (batch.eventIds.length === 0) {
          await idle(settings.pollIntervalMs);
          continue;
        }
        const started = await runInLanes(batch.deliveries, settings.startConcurrency, (d) => startDeliveryWorkflow(starter, d));
        await markOutboxDispatched(deps.db, batch.eventIds);
        logger.debug({ events: batch.eventIds.length, deliveries: batch.deliveries.length, started }, 'outbox relay: batch handed over');
        backoffMs = settings.pollIntervalMs;
      } catch (err) {
        if (!running) break;
        logger.warn({ err, retryInMs: backoffMs }, 'outbox relay: batch failed; its claim lapses and it is read again');
        await idle(backoffMs);
        backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
      }
    }
  };

  const done = loop();
  logger.info({ batchSize: settings.batchSize, leaseMs: settings.leaseMs }, 'outbox relay started');
  return {
    async stop() {
      running = false;
      wake?.();
      await done;
      const closing = listener;
      listener = null;
      await closing?.close();
      logger.info('outbox relay stopped');
    },
  };
}
