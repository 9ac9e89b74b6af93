/**
 * Money as an entitlement source (docs/entitlements.md "Wallet credits and contract commits"): an
 * Overage feature billed by a PerUnit SKU counts the wallet's money as units at the SKU's price, net of
 * the period's overage not yet drawn; when grants, included quantity and money are used up the check
 * still allows (usage is billed) and `entitlement.exhausted` is written once. A contract's commit left
 * counts the same way, already net of the phase's usage charges.
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { ONE_UNIT } from '../../src/core/index.js';
import { makeCustomer } from '../support/fixtures.js';
import { expectJson, useHarness } from '../support/harness.js';

const h = useHarness();
const RUN = randomUUID().slice(0, 8);

interface Check {
  allowed: boolean;
  balance: string | null;
  granted: string | null;
  sources: { source: string; quantity: string; consumed: string; remaining: string; money_nanos?: string }[];
}

it('wallet money covers overage units at the overage price after grants; exhausted once when all is used', async () => {
  const eventType = `money_calls_${RUN}`;
  const post = async <T>(path: string, body: unknown, status = 201) => expectJson<T>(await h.request('POST', path, { body }), status);
  const plan = await post<{ id: string }>('/admin/v1/catalog/plans', { name: 'Prepaid', billing_cadence: 'Monthly' });
  const cent = ONE_UNIT / 100n;
  const sku = await post<{ id: string }>('/admin/v1/catalog/skus', { plan_id: plan.id, name: 'Calls', pricing_model: 'PerUnit', unit_amount_nanos: `${cent}`, meter_event_type: eventType, currency: 'USD' });
  const feature = await post<{ id: string; key: string }>('/admin/v1/catalog/features', { key: `money_${RUN}`, name: 'Calls', kind: 'Metered', meter_event_type: eventType });
  await post(`/admin/v1/catalog/plans/${plan.id}/features`, { feature_id: feature.id, limit: 'Overage', overage_sku_id: sku.id });
  const customerId = await makeCustomer(h.deps.db);
  const subscription = await post<{ id: string }>('/v1/subscriptions', { customer_id: customerId, plan_id: plan.id, currency: 'USD' });
  await post(`/admin/v1/customers/${customerId}/entitlement-grants`, { feature_id: feature.id, quantity: '10' });
  await post(`/admin/v1/customers/${customerId}/wallets/USD/grants`, { amount_nanos: `${ONE_UNIT}` });

  let seq = 0;
  const send = async (count: number) => {
    const events = Array.from({ length: count }, () => ({ id: `money-${RUN}-${(seq += 1)}`, event_type: eventType, customer_id: customerId, subscription_id: subscription.id, timestamp: new Date().toISOString(), properties: {} }));
    expect((await post<{ accepted_count: number }>('/v1/events/batch', { events }, 200)).accepted_count).toBe(count);
  };
  const check = () => post<Check>('/v1/entitlements/check', { customer_id: customerId, feature: feature.key, quantity: '5' }, 200);
  const exhausted = () => h.deps.db.outboxEvent.count({ where: { type: 'entitlement.exhausted', aggregateId: customerId } });

  // 30 used: the grant's 10, then 20 beyond it at 0.01 = 0.20 of the wallet's 1.00; 0.80 left covers 80 more.
  await send(30);
  const first = await check();
  expect(first).toMatchObject({ allowed: true, granted: '10', balance: '80' });
  expect(first.sources.map((s) => [s.source, s.consumed, s.remaining, s.money_nanos ?? null])).toEqual([
    ['included', '0', '0', null],
    ['grant', '10', '0', null],
    ['wallet', '0', '80', `${80n * cent}`],
  ]);
  expect(await exhausted()).toBe(0);

  // 80 more: everything is used. Still allowed (Overage is billed), and announced once, however many checks race.
  await send(80);
  const racing = await Promise.all(Array.from({ length: 10 }, () => check()));
  for (const answer of racing) expect(answer).toMatchObject({ allowed: true, balance: '0' });
  expect(await check()).toMatchObject({ allowed: true, balance: '0' });
  expect(await exhausted()).toBe(1);
});

it("a contract's commit left covers overage units at the overage price, net of the phase's usage charges", async () => {
  const eventType = `commit_calls_${RUN}`;
  const post = async <T>(path: string, body: unknown, status = 201) => expectJson<T>(await h.request('POST', path, { body }), status);
  const plan = await post<{ id: string }>('/admin/v1/catalog/plans', { name: 'Committed', billing_cadence: 'Monthly' });
  const cent = ONE_UNIT / 100n;
  const sku = await post<{ id: string }>('/admin/v1/catalog/skus', { plan_id: plan.id, name: 'Calls', pricing_model: 'PerUnit', unit_amount_nanos: `${cent}`, meter_event_type: eventType, currency: 'USD' });
  const feature = await post<{ id: string; key: string }>('/admin/v1/catalog/features', { key: `commit_${RUN}`, name: 'Calls', kind: 'Metered', meter_event_type: eventType });
  await post(`/admin/v1/catalog/plans/${plan.id}/features`, { feature_id: feature.id, limit: 'Overage', overage_sku_id: sku.id });
  const customerId = await makeCustomer(h.deps.db);
  const subscription = await post<{ id: string }>('/v1/subscriptions', { customer_id: customerId, plan_id: plan.id, currency: 'USD' });
  const civil = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const [start, end] = [civil(Date.now() - 10 * 86_400_000), civil(Date.now() + 300 * 86_400_000)];
  const contract = await post<{ id: string }>('/admin/v1/contracts', {
    customer_id: customerId,
    name: 'Commit',
    start_date: start,
    end_date: end,
    terms: [{ phase: 1, start_date: start, end_date: end, committed_amount_nanos: `${ONE_UNIT}`, description: 'commit' }],
  });
  await post(`/admin/v1/contracts/${contract.id}/subscriptions`, { subscription_id: subscription.id, adoption_type: 'PLG' });
  const events = Array.from({ length: 30 }, (_, i) => ({ id: `commit-${RUN}-${i}`, event_type: eventType, customer_id: customerId, subscription_id: subscription.id, timestamp: new Date().toISOString(), properties: {} }));
  await post('/v1/events/batch', { events }, 200);

  // 30 used at 0.01 drew 0.30 of the 1.00 commit: 0.70 left covers 70 units.
  const answer = await post<Check>('/v1/entitlements/check', { customer_id: customerId, feature: feature.key }, 200);
  expect(answer).toMatchObject({ allowed: true, balance: '70' });
  expect(answer.sources.find((s) => s.source === 'commit')).toMatchObject({ remaining: '70', money_nanos: `${70n * cent}` });
});
