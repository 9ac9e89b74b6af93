/**
 * Issue 31 point 6: waiting costs per endpoint, not per delivery. Many endpoints are down (their
 * receivers closed: every attempt is a refused connection) with many deliveries waiting on their
 * open circuits, on the real worker, relay, circuit waker and Temporal server. The waiting
 * deliveries park: their histories stop growing while the circuits open, probe and re-open again
 * and again, and a healthy endpoint's deliveries arrive promptly meanwhile. Then an endpoint down
 * for longer than the configured outage is disabled, the other endpoints are told, and enabling it
 * sends what waited.
 */
import { afterEach, expect, inject, it } from 'vitest';
import { startCircuitWaker, type CircuitWaker } from '../../src/services/webhooks/waker.js';
import { deliveryPolicyOf } from '../../src/services/webhooks/settings.js';
import { webhookDeliveryWorkflowId } from '../../workflows/webhook-delivery/messages.js';
import { expectJson, useHarness } from '../support/harness.js';
import { eventually } from '../support/payments.js';
import { deliveriesOf, emitEvent, register, useWebhookDeliveries, type DeliveryBody, type EndpointBody } from '../support/webhooks.js';

/** Scaled down from the 50 endpoints and 5,000 deliveries (bench/webhooks.ts runs those): the test machine is shared. */
const DEAD_ENDPOINTS = 12;
const EVENTS_PER_DEAD_ENDPOINT = 15;
const HEALTHY_EVENTS = 20;

const settings = inject('webhookSettings');
const h = useHarness();
const { receiver } = useWebhookDeliveries(h);
const wakers: CircuitWaker[] = [];

afterEach(async () => {
  await Promise.all(wakers.splice(0).map((w) => w.stop()));
});

/** Each workflow's history length, by delivery id. */
async function historyLengths(deliveries: { id: string; eventId: string; endpointId: string }[]): Promise<Map<string, number>> {
  const lengths = new Map<string, number>();
  for (const d of deliveries) {
    const history = await h.deps.temporal.client.workflow.getHandle(webhookDeliveryWorkflowId(d.eventId, d.endpointId)).fetchHistory();
    lengths.set(d.id, history.events?.length ?? 0);
  }
  return lengths;
}

it('parks the deliveries of dead endpoints (their histories stop growing) while a healthy endpoint is served promptly', { timeout: 300_000 }, async () => {
  const dead: EndpointBody[] = [];
  for (let i = 0; i < DEAD_ENDPOINTS; i += 1) {
    const gone = await receiver();
    dead.push(await register(h, gone, ['invoice.voided'], `dead ${i}`));
    await gone.close();
  }
  const deadIds = dead.map((e) => e.id);
  for (let i = 0; i < EVENTS_PER_DEAD_ENDPOINT; i += 1) await emitEvent(h, 'invoice.voided', { invoice_id: dead[0]!.id });
  const total = DEAD_ENDPOINTS * EVENTS_PER_DEAD_ENDPOINT;

  // Every delivery is waiting (or has spent its attempts as a probe) but for at most the one probe of each endpoint.
  await eventually(async () => {
    const parked = await h.deps.db.webhookDelivery.count({ where: { endpointId: { in: deadIds }, OR: [{ parkedAt: { not: null } }, { status: 'Failed' }] } });
    expect(parked, 'parked or Failed').toBeGreaterThanOrEqual(total - DEAD_ENDPOINTS);
  }, 240_000);
  const waiting = await h.deps.db.webhookDelivery.findMany({ where: { endpointId: { in: deadIds }, status: 'Pending' }, select: { id: true, eventId: true, endpointId: true } });
  const before = await historyLengths(waiting);
  const attemptsBefore = await h.deps.db.webhookAttempt.count({ where: { delivery: { endpointId: { in: deadIds } } } });
  const windowStart = Date.now();

  // A healthy endpoint registered now is served at once, its circuit closed, whatever waits elsewhere.
  const healthy = await receiver();
  await register(h, healthy, ['payment.succeeded'], 'healthy');
  const sent = new Map<string, number>();
  for (let i = 0; i < HEALTHY_EVENTS; i += 1) {
    const id = await emitEvent(h, 'payment.succeeded', { invoice_id: dead[0]!.id, amount_nanos: String(i + 1) });
    sent.set(id, Date.now());
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await healthy.until('every healthy delivery', (receipts) => new Set(receipts.map((r) => r.eventId)).size === HEALTHY_EVENTS, 60_000);
  const latencies = healthy.receipts.map((r) => r.at - sent.get(r.eventId!)!).sort((a, b) => a - b);
  h.deps.logger.info({ latencies }, 'healthy endpoint latencies while the dead ones wait');

  // Let the dead circuits open, probe and re-open several times over.
  const windows = 4;
  const windowEnd = windowStart + windows * settings.breakerOpenMs + 1000;
  if (Date.now() < windowEnd) await new Promise((resolve) => setTimeout(resolve, windowEnd - Date.now()));
  const after = await historyLengths(waiting);
  const attemptsAfter = await h.deps.db.webhookAttempt.count({ where: { delivery: { endpointId: { in: deadIds } } } });
  const elapsedWindows = Math.ceil((Date.now() - windowStart) / settings.breakerOpenMs) + 1;

  // Only the probes moved: at most one delivery per endpoint per window was woken and attempted.
  const grew = waiting.filter((d) => after.get(d.id)! > before.get(d.id)!);
  expect(grew.length).toBeLessThanOrEqual(DEAD_ENDPOINTS * elapsedWindows);
  expect(grew.length).toBeLessThan(total / 2);
  expect(attemptsAfter - attemptsBefore).toBeLessThanOrEqual(DEAD_ENDPOINTS * elapsedWindows);
  const stillParked = await h.deps.db.webhookDelivery.count({ where: { endpointId: { in: deadIds }, parkedAt: { not: null } } });
  expect(stillParked).toBeGreaterThanOrEqual(total - DEAD_ENDPOINTS * 5);
  // The circuits did cycle meanwhile: each dead endpoint probed at least once.
  const probed = await h.deps.db.webhookAttempt.groupBy({ by: ['deliveryId'], where: { delivery: { endpointId: { in: deadIds } }, startedAt: { gte: new Date(windowStart) } } });
  expect(probed.length).toBeGreaterThanOrEqual(1);
});

it('disables an endpoint down for longer than the outage limit, tells the other endpoints, and enabling it sends what waited', { timeout: 180_000 }, async () => {
  // A waker like the worker's with a short outage limit (the test worker's is 10 minutes).
  const disableAfterMs = 6_000;
  wakers.push(startCircuitWaker({ db: h.deps.db, temporal: h.deps.temporal, policy: deliveryPolicyOf(settings), disableAfterMs, logger: h.deps.logger }, { pollIntervalMs: 250 }));
  let up = false;
  const flaky = await receiver(() => ({ status: up ? 200 : 503 }));
  const endpoint = await register(h, flaky, ['invoice.paid']);
  const observer = await receiver();
  await register(h, observer, ['webhook_endpoint.disabled']);

  const events: string[] = [];
  for (let i = 0; i < 8; i += 1) events.push(await emitEvent(h, 'invoice.paid', { invoice_id: endpoint.id }));

  const disabled = await eventually(async () => {
    const body = await expectJson<EndpointBody>(await h.request('GET', `/admin/v1/webhooks/${endpoint.id}`));
    expect(body).toMatchObject({ enabled: false, disabled_reason: 'outage' });
    return body;
  }, 90_000);
  expect(Date.parse(disabled.disabled_at!) - Date.parse(disabled.failing_since!)).toBeGreaterThanOrEqual(disableAfterMs);

  // The other endpoints are told, and the audit trail has it.
  await observer.until('webhook_endpoint.disabled', (receipts) => receipts.some((r) => r.body.data.endpoint_id === endpoint.id), 30_000);
  const notice = observer.receipts.find((r) => r.body.data.endpoint_id === endpoint.id)!;
  expect(notice.body).toMatchObject({ type: 'webhook_endpoint.disabled', data: { endpoint_id: endpoint.id, url: flaky.url, reason: 'outage', disabled_at: disabled.disabled_at } });
  const audit = await h.deps.db.auditLogEntry.findMany({ where: { entityId: endpoint.id, action: 'webhook_endpoint.disabled' } });
  expect(audit).toHaveLength(1);

  // What was not delivered waits (Pending, parked), spending no attempts while the endpoint is disabled.
  const waiting = (await deliveriesOf(h, endpoint.id)).filter((d) => d.status === 'Pending');
  expect(waiting.length).toBeGreaterThan(0);
  await eventually(async () => {
    const rows = await h.deps.db.webhookDelivery.findMany({ where: { endpointId: endpoint.id, status: 'Pending' } });
    expect(rows.every((r) => r.parkedAt !== null)).toBe(true);
  });
  const attemptsWhileDisabled = await h.deps.db.webhookAttempt.count({ where: { delivery: { endpointId: endpoint.id } } });
  // A disabled endpoint gets no new deliveries.
  const later = await emitEvent(h, 'invoice.paid', { invoice_id: endpoint.id });
  await eventually(async () => expect(await h.deps.db.outboxEvent.count({ where: { id: later, dispatchedAt: { not: null } } })).toBe(1));
  expect(await h.deps.db.webhookDelivery.count({ where: { endpointId: endpoint.id, eventId: later } })).toBe(0);
  expect(await h.deps.db.webhookAttempt.count({ where: { delivery: { endpointId: endpoint.id } } })).toBe(attemptsWhileDisabled);

  up = true;
  const enabled = await expectJson<EndpointBody>(await h.request('POST', `/admin/v1/webhooks/${endpoint.id}/enable`));
  expect(enabled).toMatchObject({ enabled: true, disabled_at: null, disabled_reason: null, failing_since: null, circuit: { state: 'Closed', consecutive_failures: 0 } });
  const waitingIds = new Set(waiting.map((d) => d.event_id));
  await flaky.until('every waiting delivery sent', (receipts) => [...waitingIds].every((id) => receipts.some((r) => r.eventId === id && r.status === 200)), 60_000);
  const settled = await eventually(async () => {
    const all = await deliveriesOf(h, endpoint.id);
    expect(all.filter((d) => waitingIds.has(d.event_id)).every((d) => d.status === 'Delivered' && d.waiting_since === null)).toBe(true);
    return all;
  });
  // Each was sent once successfully, with the attempts it had left (none was spent while disabled).
  for (const id of waitingIds) expect(flaky.of(id).filter((r) => r.status === 200)).toHaveLength(1);
  expect(settled.every((d: DeliveryBody) => d.attempt_count <= settings.retryScheduleMs.length)).toBe(true);
  const enabledAudit = await h.deps.db.auditLogEntry.findFirstOrThrow({ where: { entityId: endpoint.id, action: 'webhook_endpoint.enabled' } });
  expect(enabledAudit.after).toMatchObject({ enabled: true, waiting_deliveries: waitingIds.size });

  // Enabling an enabled endpoint answers it as it is; an unknown one is a 404.
  expect(await expectJson<EndpointBody>(await h.request('POST', `/admin/v1/webhooks/${endpoint.id}/enable`))).toMatchObject({ enabled: true });
  expect(await h.deps.db.auditLogEntry.count({ where: { entityId: endpoint.id, action: 'webhook_endpoint.enabled' } })).toBe(1);
  expect((await h.request('POST', `/admin/v1/webhooks/01900000-0000-7000-8000-000000000000/enable`)).status).toBe(404);
});
