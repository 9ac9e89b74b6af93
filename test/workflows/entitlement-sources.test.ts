/**
 * One balance from every source (issue 27, point 4), through the API on a test clock: grants burn
 * down after the included quantity by priority then expiry, an expired grant keeps what it absorbed,
 * a voided grant stops counting, the period roll settles the grants (a recurring grant's leftover
 * rolls over up to its cap) and announces `entitlement.reset`, and a used-up balance announces
 * `entitlement.exhausted` once per period; both reach a registered receiver. Grants are audited.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ONE_UNIT } from '../../src/core/index.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { advanceClock, sendUsage } from '../support/clock-usage.js';
import { makeCustomer, makeTestClock } from '../support/fixtures.js';
import { captureHistory } from '../support/histories.js';
import { expectJson, expectPage, terminatedAfterAll, useHarness } from '../support/harness.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { register, startTestRelay } from '../support/webhooks.js';
import type { OutboxRelay } from '../../src/services/webhooks/relay.js';

const h = useHarness();
terminatedAfterAll(h);

let receiver: Receiver;
let relay: OutboxRelay;
beforeAll(async () => {
  receiver = await startReceiver();
  await register(h, receiver, ['entitlement.exhausted', 'entitlement.reset']);
  relay = startTestRelay(h);
});
afterAll(async () => {
  await relay?.stop();
  await receiver?.close();
});

interface Source {
  source: string;
  grant_id?: string;
  quantity: string;
  consumed: string;
  remaining: string;
}
interface Check {
  allowed: boolean;
  reason: string | null;
  balance: string | null;
  granted: string | null;
  usage: string | null;
  sources: Source[];
}
interface Grant {
  id: string;
  voided_at: string | null;
}

it('grants burn down by priority and expiry, roll over capped at the period roll, and announce reset and exhaustion', async () => {
  const run = Date.now().toString(36);
  const eventType = `grant_calls_${run}`;
  const post = async <T>(path: string, body: unknown, status = 201) => expectJson<T>(await h.request('POST', path, { body }), status);
  const plan = await post<{ id: string }>('/admin/v1/catalog/plans', { name: 'Granted', billing_cadence: 'Monthly' });
  await post('/admin/v1/catalog/skus', { plan_id: plan.id, name: 'Base', pricing_model: 'Flat', unit_amount_nanos: `${10n * ONE_UNIT}`, currency: 'USD' });
  const feature = await post<{ id: string; key: string }>('/admin/v1/catalog/features', { key: `calls_${run}`, name: 'Calls', kind: 'Metered', meter_event_type: eventType });
  await post(`/admin/v1/catalog/plans/${plan.id}/features`, { feature_id: feature.id, limit: 'HardStop', included_quantity: '100' });

  const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
  const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
  const subscription = await post<{ id: string }>('/v1/subscriptions', { customer_id: customerId, plan_id: plan.id, currency: 'USD' });
  const grants = `/admin/v1/customers/${customerId}/entitlement-grants`;
  // A: one-off 50, first in line, gone on the 15th. C: one-off 40. B: recurring 30 each period, burnt last, at most 20 rolls over.
  const a = await post<Grant>(grants, { feature_id: feature.id, quantity: '50', priority: 0, expires_at: '2026-01-15T00:00:00Z' });
  const c = await post<Grant>(grants, { feature_id: feature.id, quantity: '40', priority: 5 });
  const b = await post<Grant>(grants, { feature_id: feature.id, quantity: '30', recurring: true, priority: 10, rollover_cap: '20' });
  const d = await post<Grant>(grants, { feature_id: feature.id, quantity: '1000' });
  expect(await post<Grant>(`${grants}/${d.id}/void`, undefined, 200)).toMatchObject({ id: d.id, voided_at: '2026-01-01T00:00:00.000Z' });
  expect((await h.request('POST', `${grants}/${d.id}/void`)).status).toBe(409);
  expect((await h.request('POST', grants, { body: { feature_id: feature.id, quantity: '5', rollover_cap: '1' } })).status).toBe(422);
  const listed = await expectPage<Grant>(await h.request('GET', `${grants}?feature_id=${feature.id}`));
  expect(listed.data.map((g) => g.id)).toEqual([d.id, b.id, c.id, a.id]);
  const audit = await h.deps.db.auditLogEntry.findMany({ where: { customerId, entityType: 'entitlement_grant' }, orderBy: { id: 'asc' } });
  expect(audit.map((e) => e.action)).toEqual(['entitlement_grant.created', 'entitlement_grant.created', 'entitlement_grant.created', 'entitlement_grant.created', 'entitlement_grant.voided']);

  const check = (quantity = '1') => post<Check>('/v1/entitlements/check', { customer_id: customerId, feature: feature.key, quantity }, 200);
  const consumed = (answer: Check) => Object.fromEntries(answer.sources.map((s) => [s.grant_id ?? s.source, `${s.consumed}/${s.remaining}`]));

  // 120 used: the included 100, then 20 of A (priority 0). 30 + 40 + 30 left.
  await advanceClock(h, clockId, '2026-01-10T00:00:00.000Z');
  await sendUsage(h, customerId, subscription.id, 120, '2026-01-09T12:00:00.000Z', eventType);
  const tenth = await check();
  expect(tenth).toMatchObject({ allowed: true, usage: '120', granted: '120', balance: '100' });
  expect(consumed(tenth)).toEqual({ included: '100/0', [a.id]: '20/30', [c.id]: '0/40', [b.id]: '0/30' });

  // A expired on the 15th keeping the 20 it absorbed; 45 more go to C (40) then B (5).
  await advanceClock(h, clockId, '2026-01-16T00:00:00.000Z');
  await sendUsage(h, customerId, subscription.id, 45, '2026-01-15T12:00:00.000Z', eventType);
  const sixteenth = await check('30');
  expect(sixteenth).toMatchObject({ allowed: false, reason: 'limit_reached', usage: '165', balance: '25' });
  expect(consumed(sixteenth)).toEqual({ included: '100/0', [a.id]: '20/0', [c.id]: '40/0', [b.id]: '5/25' });

  // The roll settles January: B carries min(25, 20) = 20 into February on top of its 30; C is used up.
  await advanceClock(h, clockId, '2026-02-02T00:00:00.000Z');
  await receiver.until('entitlement.reset', (rs) => rs.some((r) => r.body.type === 'entitlement.reset' && r.body.data.customer_id === customerId));
  const reset = receiver.receipts.find((r) => r.body.type === 'entitlement.reset' && r.body.data.customer_id === customerId)!;
  expect(reset.signatureValid).toBe(true);
  expect(reset.body.data).toMatchObject({ feature: feature.key, carried_over: '20', previous_period_usage: '165', period_start: '2026-02-01T00:00:00.000Z' });
  // Dated at the boundary in the clock's time, not when the advance ran.
  expect(reset.body).toMatchObject({ timestamp: '2026-02-01T00:00:00.000Z' });
  const february = await check();
  expect(february).toMatchObject({ allowed: true, usage: '0', balance: '150' });
  expect(consumed(february)).toEqual({ included: '0/100', [c.id]: '0/0', [b.id]: '0/50' });

  // February used up: entitlement.exhausted, once, whatever announces it (the usage reaction, checks).
  await sendUsage(h, customerId, subscription.id, 150, '2026-02-01T12:00:00.000Z', eventType);
  expect(await check()).toMatchObject({ allowed: false, reason: 'limit_reached', balance: '0' });
  expect(await check()).toMatchObject({ allowed: false, balance: '0' });
  await receiver.until('entitlement.exhausted', (rs) => rs.some((r) => r.body.type === 'entitlement.exhausted' && r.body.data.customer_id === customerId));
  const exhausted = await h.deps.db.outboxEvent.findMany({ where: { type: 'entitlement.exhausted', aggregateId: customerId } });
  expect(exhausted).toHaveLength(1);
  expect(exhausted[0]!.payload).toMatchObject({ data: { feature: feature.key, usage: '150', included: '100', granted: '50', period_start: '2026-02-01T00:00:00.000Z' } });
  const resets = await h.deps.db.outboxEvent.count({ where: { type: 'entitlement.reset', aggregateId: customerId } });
  expect(resets).toBe(1);

  await captureHistory(h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscription.id)), 'entitlement-reset-held-step-at-period-roll');
});
