/**
 * The webhook delivery workflow on the real Temporal server with the worker's real activities, run
 * step by step as the relay runs it (claim, start, dispatch) but with a policy of its own: a
 * breaker threshold of 2, so one delivery shows retries, a suspension by its endpoint's open
 * circuit (it parks, spending no attempt, until the circuit waker makes it the probe) and the probe
 * that delivers it. Its history is committed for
 * the replay test (`npm run histories:capture`).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { subscribes } from '../../src/core/webhooks.js';
import { claimOutboxEvents, markOutboxDispatched } from '../../src/db/webhooks.js';
import { startDeliveryWorkflow } from '../../src/services/webhooks/deliveries.js';
import { type WebhookDeliveryOutcome, type WebhookDeliveryPolicy, webhookDeliveryWorkflowId } from '../../workflows/webhook-delivery/messages.js';
import { withOverflow } from '../support/faults.js';
import { captureHistory } from '../support/histories.js';
import { useHarness } from '../support/harness.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { deleteAllEndpoints, emitEvent, register } from '../support/webhooks.js';

const POLICY: WebhookDeliveryPolicy = { retryScheduleMs: [0, 500, 500, 500, 500], timeoutMs: 1000, breakerThreshold: 2, breakerOpenMs: 1500 };

const h = useHarness();
let receiver: Receiver;
beforeAll(async () => {
  await deleteAllEndpoints(h);
  receiver = await startReceiver((_r, n) => ({ status: n <= 2 ? 502 : 200 }));
});
afterAll(async () => {
  await deleteAllEndpoints(h);
  await receiver.close();
});

/** Claims outbox events as the relay does until `eventId`'s deliveries are among them. */
async function claimDeliveriesOf(eventId: string) {
  const deliveries: Awaited<ReturnType<typeof claimOutboxEvents>>['deliveries'] = [];
  for (;;) {
    const batch = await claimOutboxEvents(h.deps.db, 500, 60_000, subscribes);
    deliveries.push(...batch.deliveries.filter((d) => d.eventId === eventId));
    await markOutboxDispatched(h.deps.db, batch.eventIds);
    if (batch.eventIds.length === 0 || batch.eventIds.includes(eventId)) return deliveries;
  }
}

it('retries, waits out the open circuit without spending an attempt, and delivers with the probe', async () => {
  const endpoint = await register(h, receiver, ['payment.failed']);
  const eventId = await emitEvent(h, 'payment.failed', { invoice_id: endpoint.id, dunning_attempt: 1 });
  const deliveries = await claimDeliveriesOf(eventId);
  expect(deliveries).toHaveLength(1);
  const [delivery] = deliveries;
  expect(await startDeliveryWorkflow({ temporal: h.deps.temporal, policy: POLICY }, delivery!)).toBe(true);
  // Starting it again (a relay re-reading its events) is refused: never two runs for one delivery.
  expect(await startDeliveryWorkflow({ temporal: h.deps.temporal, policy: POLICY }, delivery!)).toBe(false);

  const handle = h.deps.temporal.client.workflow.getHandle(webhookDeliveryWorkflowId(eventId, endpoint.id));
  expect(await handle.result()).toEqual<WebhookDeliveryOutcome>({ status: 'Delivered', attempts: 3 });

  const receipts = receiver.of(eventId);
  expect(receipts.map((r) => r.status)).toEqual([502, 502, 200]);
  expect(receipts[1]!.at - receipts[0]!.at).toBeGreaterThanOrEqual(POLICY.retryScheduleMs[1]!);
  // The circuit opened at the second failure: the third attempt waited for the suspension to pass.
  expect(receipts[2]!.at - receipts[1]!.at).toBeGreaterThanOrEqual(POLICY.breakerOpenMs);
  const row = await h.deps.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery!.deliveryId } });
  expect(row).toMatchObject({ status: 'Delivered', attemptCount: 3 });
  const breaker = await h.deps.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
  expect(breaker).toMatchObject({ breakerState: 'Closed', consecutiveFailures: 0 });
  await captureHistory(handle, 'retried-circuit-opened-parked-then-delivered');
});

it('marks the delivery Failed with the reason when an attempt fails deterministically, instead of retrying it forever', async () => {
  const endpoint = await register(h, receiver, ['invoice.voided']);
  const eventId = await emitEvent(h, 'invoice.voided', { invoice_id: endpoint.id });
  const [delivery] = await claimDeliveriesOf(eventId);
  // Recording this delivery's attempt overflows a column (SQLSTATE 22003): no retry can fix it.
  await withOverflow(h.deps.db, { table: 'webhook_attempts', when: `NEW.delivery_id = '${delivery!.deliveryId}'::uuid`, on: 'INSERT' }, async () => {
    expect(await startDeliveryWorkflow({ temporal: h.deps.temporal, policy: POLICY }, delivery!)).toBe(true);
    const handle = h.deps.temporal.client.workflow.getHandle(webhookDeliveryWorkflowId(eventId, endpoint.id));
    expect(await handle.result()).toEqual<WebhookDeliveryOutcome>({ status: 'Failed', attempts: 0 });
    const row = await h.deps.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery!.deliveryId } });
    expect(row.status).toBe('Failed');
    expect(row.lastError).toMatch(/^DeterministicFailure: .*numeric field overflow/s);
    await captureHistory(handle, 'attempt-failed-deterministically');
  });
});
