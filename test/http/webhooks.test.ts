/**
 * Outbound webhooks end to end: endpoints through the API, events written by the real flows (and,
 * where only the delivery matters, by the outbox writer itself), a relay, the worker's delivery
 * workflows, and real HTTP receivers on 127.0.0.1 that check every signature over the raw bytes.
 * The worker runs the tests' scaled-down schedule (TEST_WEBHOOK_SETTINGS): spacing between
 * receipts is checked against it.
 */
import { describe, expect, inject, it } from 'vitest';
import { waitFor } from '../../src/dev/processes.js';
import { createWebhookAgents, postWebhook } from '../../src/services/webhooks/sender.js';
import { makeCustomer, makePlan } from '../support/fixtures.js';
import { createHarness, expectJson, expectPage, useHarness } from '../support/harness.js';
import type { Receipt } from '../support/webhook-receiver.js';
import { deliveriesOf, emitEvent, register, useWebhookDeliveries, type DeliveryBody, type EndpointBody } from '../support/webhooks.js';

const settings = inject('webhookSettings');
const schedule = settings.retryScheduleMs;
/** Timers never fire early; a loaded machine may make them late by this much. */
const LATE_TOLERANCE_MS = 2_500;

const h = useHarness();
const { receiver } = useWebhookDeliveries(h);

interface ErrorBody {
  error: { code: string; message: string; details?: { issues?: { path: string; message: string }[] } };
}

async function deliveryOf(endpointId: string, eventId: string): Promise<DeliveryBody> {
  let found: DeliveryBody | undefined;
  await waitFor(`the delivery of ${eventId}`, async () => {
    found = (await deliveriesOf(h, endpointId)).find((d) => d.event_id === eventId);
    if (!found) throw new Error('not recorded yet');
  }, 30_000, 100);
  return found!;
}

async function settled(endpointId: string, deliveryId: string, status: DeliveryBody['status']): Promise<DeliveryBody> {
  let delivery: DeliveryBody | undefined;
  await waitFor(`delivery ${deliveryId} ${status}`, async () => {
    delivery = await expectJson<DeliveryBody>(await h.request('GET', `/admin/v1/webhooks/${endpointId}/deliveries/${deliveryId}`));
    if (delivery.status !== status) throw new Error(`still ${delivery.status} after ${delivery.attempt_count} attempts`);
  }, 60_000, 100);
  return delivery!;
}

/** Each gap between consecutive receipts against the schedule's delay before that attempt. */
function expectSpacing(receipts: Receipt[]): void {
  receipts.slice(1).forEach((receipt, i) => {
    const gap = receipt.at - receipts[i]!.at;
    const delay = schedule[i + 1]!;
    expect(gap, `gap before attempt ${i + 2}`).toBeGreaterThanOrEqual(delay);
    expect(gap, `gap before attempt ${i + 2}`).toBeLessThan(delay + LATE_TOLERANCE_MS);
  });
}

describe('webhook endpoints API', () => {
  it('registers an endpoint with its secret shown once, masks it in reads, and audits every change without the secret', async () => {
    const created = await expectJson<EndpointBody>(
      await h.request('POST', '/admin/v1/webhooks', { body: { url: 'http://127.0.0.1:9/hooks', events: ['invoice.finalized', 'invoice.paid'], description: 'ERP' } }),
      201,
    );
    expect(created).toMatchObject({ url: 'http://127.0.0.1:9/hooks', events: ['invoice.finalized', 'invoice.paid'], description: 'ERP', enabled: true });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(created.circuit).toEqual({ state: 'Closed', consecutive_failures: 0, opened_at: null, reopens_at: null });
    const masked = `whsec_…${created.secret.slice(-4)}`;

    const list = await expectPage<EndpointBody>(await h.request('GET', '/admin/v1/webhooks'));
    expect(list.data.find((e) => e.id === created.id)?.secret).toBe(masked);
    expect((await expectJson<EndpointBody>(await h.request('GET', `/admin/v1/webhooks/${created.id}`))).secret).toBe(masked);

    const updated = await expectJson<EndpointBody>(
      await h.request('PATCH', `/admin/v1/webhooks/${created.id}`, { body: { events: ['invoice.paid', 'invoice.paid'], enabled: false, description: 'ERP (paused)' } }),
    );
    expect(updated).toMatchObject({ events: ['invoice.paid'], enabled: false, description: 'ERP (paused)', secret: masked });
    const star = await expectJson<EndpointBody>(await h.request('PATCH', `/admin/v1/webhooks/${created.id}`, { body: { events: ['invoice.paid', '*'] } }));
    expect(star.events).toEqual(['*']);

    const rotated = await expectJson<EndpointBody>(await h.request('POST', `/admin/v1/webhooks/${created.id}/rotate-secret`));
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);

    expect((await h.request('DELETE', `/admin/v1/webhooks/${created.id}`)).status).toBe(204);
    const gone = await expectJson<ErrorBody>(await h.request('GET', `/admin/v1/webhooks/${created.id}`), 404);
    expect(gone.error.code).toBe('webhook_endpoint_not_found');
    expect((await expectJson<ErrorBody>(await h.request('DELETE', `/admin/v1/webhooks/${created.id}`), 404)).error.code).toBe('webhook_endpoint_not_found');

    const audit = await h.deps.db.auditLogEntry.findMany({ where: { entityId: created.id }, orderBy: { id: 'asc' } });
    expect(audit.map((a) => a.action)).toEqual([
      'webhook_endpoint.created',
      'webhook_endpoint.updated',
      'webhook_endpoint.updated',
      'webhook_endpoint.secret_rotated',
      'webhook_endpoint.deleted',
    ]);
    expect(audit.every((a) => a.actorId === 'test-admin')).toBe(true);
    const trail = JSON.stringify(audit.map((a) => [a.before, a.after]));
    expect(trail).not.toContain(created.secret);
    expect(trail).not.toContain(rotated.secret);
  });

  it('refuses unknown event types (naming them), bad URLs and unknown fields', async () => {
    const unknown = await expectJson<ErrorBody>(
      await h.request('POST', '/admin/v1/webhooks', { body: { url: 'http://127.0.0.1:9/', events: ['invoice.paid', 'invoice.finalised'] } }),
      400,
    );
    expect(unknown.error.code).toBe('validation_failed');
    expect(unknown.error.details?.issues).toEqual([expect.objectContaining({ path: 'events.1', message: expect.stringContaining('"invoice.finalised"') })]);
    expect((await expectJson<ErrorBody>(await h.request('POST', '/admin/v1/webhooks', { body: { url: 'http://127.0.0.1:9/', events: [] } }), 400)).error.code).toBe(
      'validation_failed',
    );
    const stray = await expectJson<ErrorBody>(
      await h.request('POST', '/admin/v1/webhooks', { body: { url: 'http://127.0.0.1:9/', events: ['*'], secret: 'mine' } }),
      400,
    );
    expect(stray.error.details?.issues).toEqual([{ path: 'secret', message: 'is not a known field' }]);
    for (const url of ['ftp://example.com/hooks', 'example.com/hooks', 'http://user:pw@example.com/hooks', 'javascript:alert(1)']) {
      const refused = await expectJson<ErrorBody>(await h.request('POST', '/admin/v1/webhooks', { body: { url, events: ['*'] } }), 422);
      expect(refused.error.code, url).toBe('webhook_url_not_allowed');
    }
    const endpoint = await expectJson<EndpointBody>(await h.request('POST', '/admin/v1/webhooks', { body: { url: 'http://127.0.0.1:9/', events: ['*'] } }), 201);
    expect((await expectJson<ErrorBody>(await h.request('PATCH', `/admin/v1/webhooks/${endpoint.id}`, { body: {} }), 400)).error.code).toBe('validation_failed');
    expect((await expectJson<ErrorBody>(await h.request('PATCH', `/admin/v1/webhooks/${endpoint.id}`, { body: { url: 'gopher://x/' } }), 422)).error.code).toBe(
      'webhook_url_not_allowed',
    );
  });

  it('refuses loopback, link-local and private addresses in production mode, at registration and when delivering', async () => {
    const production = await createHarness({ webhooks: { ...settings, allowPrivateUrls: false } });
    try {
      const local = await receiver();
      const port = new URL(local.url).port;
      for (const url of [
        `http://127.0.0.1:${port}/hooks`,
        'http://10.1.2.3/hooks',
        'http://172.20.0.1/hooks',
        'http://192.168.1.10/hooks',
        'http://169.254.169.254/latest/meta-data',
        'http://100.64.0.1/hooks',
        'http://0.0.0.0/hooks',
        'http://[::1]/hooks',
        'http://[::ffff:127.0.0.1]/hooks',
        'http://[fd00::1]/hooks',
        'http://[fe80::1]/hooks',
        `http://localhost:${port}/hooks`,
      ]) {
        const refused = await expectJson<ErrorBody>(await production.request('POST', '/admin/v1/webhooks', { body: { url, events: ['*'] } }), 422);
        expect(refused.error.code, url).toBe('webhook_url_not_allowed');
      }
      const publicAddress = await expectJson<EndpointBody>(await production.request('POST', '/admin/v1/webhooks', { body: { url: 'https://93.184.216.34/hooks', events: ['*'] } }), 201);
      expect(publicAddress.url).toBe('https://93.184.216.34/hooks');

      // Delivering re-checks what the name resolves to when it connects (a name may move after registration).
      const agents = createWebhookAgents();
      for (const url of [`http://localhost:${port}/hooks`, `http://127.0.0.1:${port}/hooks`]) {
        const outcome = await postWebhook({ allowPrivateUrls: false, agents }, url, '{}', {}, 1000);
        expect(outcome, url).toMatchObject({ statusCode: null, error: expect.stringMatching(/private address/) });
      }
      expect(local.receipts).toHaveLength(0);
      const allowed = await postWebhook({ allowPrivateUrls: true, agents }, `http://localhost:${port}/hooks`, '{}', {}, 1000);
      expect(allowed.statusCode).toBe(400);
      expect(local.receipts).toHaveLength(1);
      agents.http.destroy();
    } finally {
      await production.close();
    }
  });
});

describe('webhook delivery', () => {
  it('delivers each event type the flows emit, signed over the raw bytes, with the SPEC payload; a later endpoint gets only later events', async () => {
    const all = await receiver();
    const endpoint = await register(h, all, ['*']);
    const db = h.deps.db;
    const plan = await makePlan(db);
    const [payer, voided] = [await makeCustomer(db), await makeCustomer(db)];

    const first = await expectJson<{ id: string; status: string; plan_id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: payer, plan_id: plan, currency: 'USD' } }), 201);
    await all.until('subscription.created', (rs) => rs.some((r) => r.body.type === 'subscription.created' && r.body.data.subscription_id === first.id));
    const firstEventId = all.receipts.find((r) => r.body.data.subscription_id === first.id)!.body.id;
    const late = await receiver();
    const lateEndpoint = await register(h, late, ['*']);

    const draft = await expectJson<{ id: string }>(await h.request('POST', `/admin/v1/subscriptions/${first.id}/bill`), 201);
    const open = await expectJson<{ id: string; invoice_number: string; total_nanos: string; currency: string }>(await h.request('POST', `/admin/v1/invoices/${draft.id}/finalize`));
    const note = await expectJson<{ id: string; number: string; amount_nanos: string }>(
      await h.request('POST', `/admin/v1/invoices/${open.id}/credit-notes`, { body: { amount_nanos: '1000000000000', reason: 'other' } }),
      201,
    );
    await expectJson(await h.request('POST', `/admin/v1/invoices/${open.id}/pay`, { body: { actor_id: 'ops-1', actor_name: 'Ops' } }));

    const second = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: voided, plan_id: plan, currency: 'USD' } }), 201);
    const secondDraft = await expectJson<{ id: string }>(await h.request('POST', `/admin/v1/subscriptions/${second.id}/bill`), 201);
    const secondOpen = await expectJson<{ id: string; invoice_number: string; total_nanos: string }>(await h.request('POST', `/admin/v1/invoices/${secondDraft.id}/finalize`));
    await expectJson(await h.request('POST', `/admin/v1/invoices/${secondOpen.id}/void`, { body: { reason: 'duplicate order' } }));
    await expectJson(await h.request('POST', `/admin/v1/subscriptions/${second.id}/cancel`, { body: { reason: 'moving on' } }));

    const ours = (rs: Receipt[]) => rs.filter((r) => r.body.data.customer_id === payer || r.body.data.customer_id === voided);
    const expected = ['subscription.created', 'invoice.finalized', 'credit_note.issued', 'invoice.paid', 'subscription.created', 'invoice.finalized', 'invoice.voided', 'subscription.cancelled'];
    await all.until('every event of the flows', (rs) => ours(rs).length >= expected.length);
    await late.until('every event after its registration', (rs) => ours(rs).length >= expected.length - 1);

    const received = ours(all.receipts);
    expect(received.map((r) => r.body.type).sort()).toEqual([...expected].sort());
    for (const receipt of received) {
      expect(receipt.signatureValid, receipt.body.type).toBe(true);
      expect(receipt.eventId).toBe(receipt.body.id);
      expect(receipt.eventType).toBe(receipt.body.type);
      expect(Object.keys(receipt.body)).toEqual(['id', 'type', 'timestamp', 'data']);
      expect(receipt.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(new Date(receipt.body.timestamp).toISOString()).toBe(receipt.body.timestamp);
    }
    const data = (type: string, key: string, value: string) => received.find((r) => r.body.type === type && r.body.data[key] === value)?.body.data;
    expect(data('subscription.created', 'subscription_id', first.id)).toEqual({ subscription_id: first.id, customer_id: payer, plan_id: plan, plan_version: 1, status: first.status, currency: 'USD' });
    expect(data('invoice.finalized', 'invoice_id', open.id)).toEqual({
      invoice_id: open.id,
      customer_id: payer,
      invoice_number: open.invoice_number,
      total_nanos: open.total_nanos,
      currency: 'USD',
    });
    expect(open.total_nanos).toMatch(/^[1-9][0-9]*$/);
    expect(data('credit_note.issued', 'invoice_id', open.id)).toEqual({
      credit_note_id: note.id,
      invoice_id: open.id,
      customer_id: payer,
      number: note.number,
      credit_note_number: note.number,
      amount_nanos: '1000000000000',
      due_reduction_nanos: '1000000000000',
      refund_amount_nanos: '0',
      credit_amount_nanos: '0',
      out_of_band_amount_nanos: '0',
      currency: 'USD',
      reason: 'other',
    });
    expect(data('invoice.paid', 'invoice_id', open.id)).toEqual({
      invoice_id: open.id,
      customer_id: payer,
      invoice_number: open.invoice_number,
      amount_nanos: (BigInt(open.total_nanos) - 1_000_000_000_000n).toString(),
      currency: 'USD',
    });
    expect(data('invoice.voided', 'invoice_id', secondOpen.id)).toEqual({ invoice_id: secondOpen.id, customer_id: voided, invoice_number: secondOpen.invoice_number, reason: 'duplicate order' });
    expect(data('subscription.cancelled', 'subscription_id', second.id)).toMatchObject({ subscription_id: second.id, customer_id: voided, reason: 'moving on' });

    // Each event exactly once per endpoint; the late endpoint never gets the event written before it existed.
    expect(new Set(received.map((r) => r.body.id)).size).toBe(received.length);
    const lateIds = ours(late.receipts).map((r) => r.body.id);
    expect(lateIds).not.toContain(firstEventId);
    expect(new Set(lateIds)).toEqual(new Set(received.map((r) => r.body.id).filter((id) => id !== firstEventId)));
    expect(late.receipts.every((r) => r.signatureValid)).toBe(true);
    expect((await deliveriesOf(h, lateEndpoint.id)).map((d) => d.event_id)).not.toContain(firstEventId);

    const log = await deliveriesOf(h, endpoint.id, '&event_type=invoice.finalized&status=Delivered');
    expect(log.map((d) => d.event_id).sort()).toEqual(received.filter((r) => r.body.type === 'invoice.finalized').map((r) => r.body.id).sort());
    expect(log.every((d) => d.attempt_count === 1 && d.attempts[0]!.status_code === 200)).toBe(true);
  });

  it('retries on the schedule: a receiver that fails 3 times is delivered on attempt 4, with the same bytes each time', async () => {
    const flaky = await receiver((_r, n) => ({ status: n <= 3 ? 500 : 200 }));
    const endpoint = await register(h, flaky, ['spend_alert.triggered']);
    const eventId = await emitEvent(h, 'spend_alert.triggered', { alert_type: 'SoftLimit', customer_id: endpoint.id, threshold_nanos: '5000000000000' });

    await flaky.until('the first attempt', () => flaky.of(eventId).length >= 1);
    const pending = await deliveryOf(endpoint.id, eventId);
    const busy = await expectJson<ErrorBody>(await h.request('POST', `/admin/v1/webhooks/${endpoint.id}/deliveries/${pending.id}/resend`), 409);
    expect(busy.error.code).toBe('webhook_delivery_in_progress');

    const delivered = await settled(endpoint.id, pending.id, 'Delivered');
    const receipts = flaky.of(eventId);
    expect(receipts.map((r) => r.status)).toEqual([500, 500, 500, 200]);
    expectSpacing(receipts);
    expect(new Set(receipts.map((r) => r.raw.toString('base64'))).size).toBe(1);
    expect(receipts.every((r) => r.signatureValid)).toBe(true);
    expect(receipts[0]!.body).toEqual({ id: eventId, type: 'spend_alert.triggered', timestamp: expect.any(String), data: { alert_type: 'SoftLimit', customer_id: endpoint.id, threshold_nanos: '5000000000000' } });

    expect(delivered).toMatchObject({ status: 'Delivered', attempt_count: 4, last_status_code: 200, last_error: null, next_attempt_at: null, workflow_id: `webhook:${eventId}:${endpoint.id}` });
    expect(delivered.attempts.map((a) => [a.number, a.status_code, a.error])).toEqual([
      [1, 500, 'HTTP 500'],
      [2, 500, 'HTTP 500'],
      [3, 500, 'HTTP 500'],
      [4, 200, null],
    ]);
    expect(delivered.attempts[0]!.response_body).toBe('answer 500 #1');
    expect(delivered.payload).toEqual(JSON.parse(receipts[0]!.raw.toString('utf8')));
    // The delivery turns Delivered in the workflow's last activity; the run completes just after.
    const handle = h.deps.temporal.client.workflow.getHandle(delivered.workflow_id);
    await handle.result();
    const run = await handle.describe();
    expect(run.type).toBe('webhookDeliveryWorkflow');
    expect(run.status.name).toBe('COMPLETED');
  });

  it('counts a receiver slower than the timeout as a failed attempt', async () => {
    const slow = await receiver((_r, n) => (n === 1 ? { status: 200, delayMs: settings.timeoutMs + 1000 } : { status: 200 }));
    const endpoint = await register(h, slow, ['spend_alert.triggered']);
    const eventId = await emitEvent(h, 'spend_alert.triggered', { alert_type: 'HardLimit', customer_id: endpoint.id, threshold_nanos: '1' });
    const delivered = await settled(endpoint.id, (await deliveryOf(endpoint.id, eventId)).id, 'Delivered');
    expect(delivered.attempts).toHaveLength(2);
    expect(delivered.attempts[0]).toMatchObject({ number: 1, status_code: null, error: `timed out after ${settings.timeoutMs} ms`, response_body: null });
    expect(delivered.attempts[0]!.latency_ms).toBeGreaterThanOrEqual(settings.timeoutMs);
    expect(delivered.attempts[1]).toMatchObject({ number: 2, status_code: 200, error: null });
    expect(slow.of(eventId)).toHaveLength(2);
    expectSpacing(slow.of(eventId));
  });

  it('abandons after exactly 5 attempts; 5 failures open the circuit, which holds every delivery for the window, then one probe closes it; a resend sends the same bytes', async () => {
    let healthy = false;
    const down = await receiver(() => ({ status: healthy ? 200 : 503 }));
    const endpoint = await register(h, down, ['spend_alert.triggered']);
    const lost = await emitEvent(h, 'spend_alert.triggered', { alert_type: 'SoftLimit', customer_id: endpoint.id, threshold_nanos: '2' });
    const failed = await settled(endpoint.id, (await deliveryOf(endpoint.id, lost)).id, 'Failed');

    expect(failed.attempt_count).toBe(schedule.length);
    expect(failed.attempts.map((a) => a.status_code)).toEqual([503, 503, 503, 503, 503]);
    expect(failed.failed_at).not.toBeNull();
    expect(down.of(lost)).toHaveLength(5);
    expectSpacing(down.of(lost));

    const open = await expectJson<EndpointBody>(await h.request('GET', `/admin/v1/webhooks/${endpoint.id}`));
    expect(open.circuit).toMatchObject({ state: 'Open', consecutive_failures: 5 });
    const openedAt = Date.parse(open.circuit.opened_at!);
    expect(Date.parse(open.circuit.reopens_at!)).toBe(openedAt + settings.breakerOpenMs);

    const held = await emitEvent(h, 'spend_alert.triggered', { alert_type: 'SoftLimit', customer_id: endpoint.id, threshold_nanos: '3' });
    healthy = true;
    await down.until('the probe after the suspension', () => down.of(held).length >= 1, 30_000);
    const probe = down.of(held)[0]!;
    expect(probe.at).toBeGreaterThanOrEqual(openedAt + settings.breakerOpenMs);
    expect(down.receipts.filter((r) => r.at > openedAt && r.at < openedAt + settings.breakerOpenMs)).toEqual([]);
    const heldDelivery = await settled(endpoint.id, (await deliveryOf(endpoint.id, held)).id, 'Delivered');
    expect(heldDelivery.attempt_count).toBe(1);
    const closed = await expectJson<EndpointBody>(await h.request('GET', `/admin/v1/webhooks/${endpoint.id}`));
    expect(closed.circuit).toEqual({ state: 'Closed', consecutive_failures: 0, opened_at: null, reopens_at: null });

    const resent = await expectJson<DeliveryBody>(await h.request('POST', `/admin/v1/webhooks/${endpoint.id}/deliveries/${failed.id}/resend`), 202);
    expect(resent.status).toBe('Pending');
    const redelivered = await settled(endpoint.id, failed.id, 'Delivered');
    expect(redelivered.attempts.map((a) => [a.number, a.status_code])).toEqual([
      [1, 503],
      [2, 503],
      [3, 503],
      [4, 503],
      [5, 503],
      [6, 200],
    ]);
    const copies = down.of(lost);
    expect(copies).toHaveLength(6);
    expect(copies[5]!.raw.equals(copies[0]!.raw)).toBe(true);
    expect(copies[5]!.signatureValid).toBe(true);
    const audit = await h.deps.db.auditLogEntry.findMany({ where: { entityId: failed.id } });
    expect(audit.map((a) => a.action)).toEqual(['webhook_delivery.resent']);
  });
});
