/**
 * Webhook endpoints whose receivers are gone, with deliveries waiting on their open circuits (issue
 * 31 point 6): the state a service is in after a long outage of its receivers. Used by the webhook
 * benchmark's `waiting` scenario and by the bill run measured beside such deliveries.
 */
import { createDb } from '../../src/db/client.js';
import { insertEndpoint } from '../../src/db/webhooks.js';
import { freePort, waitFor } from '../../src/dev/processes.js';
import { newId } from '../../src/ids.js';
import { enqueueEvent } from '../../src/services/outbox.js';
import { newWebhookSecret } from '../../src/services/webhooks/signature.js';

type Db = ReturnType<typeof createDb>['db'];

/** The event type the dead endpoints subscribe to: one a bill run never writes, so only the written events reach them. */
export const DEAD_ENDPOINT_EVENT = 'invoice.voided';

/** A URL on 127.0.0.1 where nothing listens: every attempt is a refused connection, as for a receiver long gone. */
export async function deadUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}/gone`;
}

export interface DeliveryCounts {
  parked: number;
  failed: number;
  pending: number;
  /** Deliveries whose workflow has run: parked, attempted, or Failed. */
  reached: number;
}

export interface DeadEndpoints {
  ids: string[];
  /** Deliveries written: events × endpoints. */
  total: number;
  counts(): Promise<DeliveryCounts>;
}

/** Registers `endpoints` dead endpoints (in the database, as the API would) subscribed to DEAD_ENDPOINT_EVENT. */
export async function registerDeadEndpoints(db: Db, endpoints: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < endpoints; i += 1) {
    const id = newId();
    await insertEndpoint(db, { id, url: await deadUrl(), description: `dead ${i}`, events: [DEAD_ENDPOINT_EVENT], secret: newWebhookSecret() });
    ids.push(id);
  }
  return ids;
}

/**
 * Writes enough DEAD_ENDPOINT_EVENT events (each in its own transaction, `writers` at once) for
 * `deliveries` deliveries to the endpoints, and returns a way to count them; the worker's relay
 * records and starts them.
 */
export async function writeWaitingDeliveries(db: Db, ids: string[], deliveries: number, writers: number): Promise<DeadEndpoints> {
  const events = Math.ceil(deliveries / ids.length);
  let written = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (written < events) {
        written += 1;
        await db.$transaction((tx) => enqueueEvent(tx, DEAD_ENDPOINT_EVENT, newId(), { invoice_id: newId() }, new Date()));
      }
    }),
  );
  const counts = async (): Promise<DeliveryCounts> => {
    const [parked, failed, pending, reached] = await Promise.all([
      db.webhookDelivery.count({ where: { endpointId: { in: ids }, parkedAt: { not: null } } }),
      db.webhookDelivery.count({ where: { endpointId: { in: ids }, status: 'Failed' } }),
      db.webhookDelivery.count({ where: { endpointId: { in: ids }, status: 'Pending' } }),
      db.webhookDelivery.count({ where: { endpointId: { in: ids }, OR: [{ parkedAt: { not: null } }, { attemptCount: { gt: 0 } }, { status: 'Failed' }] } }),
    ]);
    return { parked, failed, pending, reached };
  };
  return { ids, total: events * ids.length, counts };
}

/**
 * Waits until every delivery's workflow has run: it is parked, or between attempts (it failed one
 * before its circuit opened, or as a probe: those wait out the SPEC's 30 s, 5 min… on timers).
 */
export async function waitUntilSettled(dead: DeadEndpoints, log: (line: string) => void): Promise<DeliveryCounts> {
  let last: DeliveryCounts | undefined;
  await waitFor('every delivery waiting on its circuit', async () => {
    last = await dead.counts();
    log(`${last.parked} parked, ${last.failed} failed, ${last.pending} pending, ${last.reached} reached of ${dead.total}`);
    if (last.reached < dead.total) throw new Error('not yet');
  }, 30 * 60_000, 5_000);
  return last!;
}
