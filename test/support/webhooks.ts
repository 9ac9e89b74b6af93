/**
 * Webhook test helpers: a relay in the test process (the worker's activities deliver), endpoints
 * registered through the API for a receiver, and outbox events written the way services write them.
 */
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { newId } from '../../src/ids.js';
import { enqueueEvent, type EventType } from '../../src/services/outbox.js';
import { startOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from '../../src/services/webhooks/relay.js';
import { deliveryPolicyOf } from '../../src/services/webhooks/settings.js';
import type { WebhookDeliveryView } from '../../src/services/webhooks/deliveries.js';
import type { WebhookEndpointView } from '../../src/services/webhooks/endpoints.js';
import type { Harness } from './harness.js';
import { expectJson, expectPage } from './harness.js';
import { startReceiver, type Receiver } from './webhook-receiver.js';

/** An endpoint as the API answers it (the secret in full only from create and rotate). */
export type EndpointBody = WebhookEndpointView;

export type DeliveryBody = WebhookDeliveryView;

/** A relay like the worker's, on the test task queue with the tests' scaled-down delivery policy. */
export function startTestRelay(h: Harness, options: OutboxRelayOptions = {}): OutboxRelay {
  return startOutboxRelay(
    {
      db: h.deps.db,
      pool: h.deps.pool,
      temporal: h.deps.temporal,
      policy: deliveryPolicyOf(inject('webhookSettings')),
      logger: h.deps.logger,
    },
    { pollIntervalMs: 250, ...options },
  );
}

/**
 * A delivery test file's set-up: no endpoint before the file or after each test, a test relay while the file runs,
 * and receivers started through the returned function, closed at the end. Call it at the top of the file; an
 * `afterEach` the file adds after it runs before this one's clean-up (vitest runs after-hooks as a stack).
 */
export function useWebhookDeliveries(h: Harness): { receiver: (respond?: Receiver['respond']) => Promise<Receiver> } {
  let relay: OutboxRelay | undefined;
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    await deleteAllEndpoints(h);
    relay = startTestRelay(h);
  });
  afterEach(async () => {
    await deleteAllEndpoints(h);
  });
  afterAll(async () => {
    await relay?.stop();
    await Promise.all(receivers.map((r) => r.close()));
  });
  return {
    receiver: async (respond) => {
      const r = await startReceiver(respond);
      receivers.push(r);
      return r;
    },
  };
}

/** Registers the receiver for `events` and teaches it the signing secret. */
export async function register(h: Harness, receiver: Receiver, events: string[], description = 'test receiver'): Promise<EndpointBody> {
  const endpoint = await expectJson<EndpointBody>(await h.request('POST', '/admin/v1/webhooks', { body: { url: receiver.url, events, description } }), 201);
  receiver.secret = endpoint.secret;
  return endpoint;
}

/** Deletes every endpoint: the delivery tests own the endpoints of the test database. */
export async function deleteAllEndpoints(h: Harness): Promise<void> {
  for (;;) {
    const page = await expectPage<EndpointBody>(await h.request('GET', '/admin/v1/webhooks?limit=200'));
    for (const endpoint of page.data) expect((await h.request('DELETE', `/admin/v1/webhooks/${endpoint.id}`)).status).toBe(204);
    if (!page.has_more) return;
  }
}

/** Writes an outbox event as the services do (its own transaction here); returns its id. */
export async function emitEvent(h: Harness, type: EventType, data: Record<string, string | number | boolean | null>): Promise<string> {
  return h.deps.db.$transaction((tx) => enqueueEvent(tx, type, newId(), data, new Date()));
}

/** An endpoint's deliveries in creation order (the list is newest first). */
export async function deliveriesOf(h: Harness, endpointId: string, query = ''): Promise<DeliveryBody[]> {
  return (await expectPage<DeliveryBody>(await h.request('GET', `/admin/v1/webhooks/${endpointId}/deliveries?limit=200${query}`))).data.reverse();
}
