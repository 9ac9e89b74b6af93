/**
 * Usage summaries kept for USAGE_SUMMARY_CACHE_MS (docs/usage-and-metering.md): a summary read again
 * within the maximum age is the kept one (a usage row another process wrote shows once it is older);
 * usage stored through this process shows in the very next summary; a customer token never reads
 * another customer's kept summary; each query (from/to, at) is its own answer.
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { makeCustomer } from '../support/fixtures.js';
import { expectJson, useHarness } from '../support/harness.js';

const MAX_AGE_MS = 60_000;
let offsetMs = 0;
const h = useHarness({ usageSummaryCacheMs: MAX_AGE_MS }, () => new Date(Date.now() + offsetMs));
const RUN = randomUUID().slice(0, 8);

interface Summary {
  customer_id: string;
  as_of: string;
  meters: { event_type: string; value: string; event_count: number }[];
}

it('keeps a summary for its maximum age and forgets it at once when this process stores the customer\'s usage', async () => {
  const eventType = `summary_calls_${RUN}`;
  const post = async <T>(path: string, body: unknown, status = 201) => expectJson<T>(await h.request('POST', path, { body }), status);
  const plan = await post<{ id: string }>('/admin/v1/catalog/plans', { name: 'Summarized', billing_cadence: 'Monthly' });
  await post('/admin/v1/catalog/skus', { plan_id: plan.id, name: 'Calls', pricing_model: 'PerUnit', unit_amount_nanos: '1000000000', meter_event_type: eventType, currency: 'USD' });
  const customerId = await makeCustomer(h.deps.db);
  const subscription = await post<{ id: string }>('/v1/subscriptions', { customer_id: customerId, plan_id: plan.id, currency: 'USD' });
  const summary = async (query = '') => expectJson<Summary>(await h.request('GET', `/v1/subscriptions/${subscription.id}/usage${query}`), 200);
  const calls = (s: Summary) => s.meters.find((m) => m.event_type === eventType)!.event_count;
  let seq = 0;
  const event = () => ({ id: `summary-${RUN}-${(seq += 1)}`, event_type: eventType, customer_id: customerId, subscription_id: subscription.id, timestamp: new Date().toISOString(), properties: {} });
  const send = async (count: number) =>
    expect((await post<{ accepted_count: number }>('/v1/events/batch', { events: Array.from({ length: count }, event) }, 200)).accepted_count).toBe(count);

  await send(2);
  // The first summary of a subscription learns its customer; the second is kept.
  expect(calls(await summary())).toBe(2);
  const kept = await summary();
  expect(calls(kept)).toBe(2);

  // Another process stores an event: the kept summary stands until it is too old.
  const other = event();
  await h.deps.pool.query(
    `INSERT INTO usage_events (id, event_type, customer_id, subscription_id, occurred_at, properties) VALUES ($1, $2, $3::uuid, $4::uuid, $5::timestamptz, '{}'::jsonb)`,
    [other.id, eventType, customerId, subscription.id, other.timestamp],
  );
  expect(await summary()).toEqual(kept);
  // Another window is another answer, read now.
  const from = new Date(Date.now() - 86_400_000).toISOString();
  const to = new Date(Date.now() + 86_400_000).toISOString();
  expect(calls(await summary(`?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`))).toBe(3);
  offsetMs += MAX_AGE_MS;
  expect(calls(await summary())).toBe(3);

  // Usage stored through this process shows at once.
  await summary();
  await send(1);
  expect(calls(await summary())).toBe(4);

  // A customer token reads only its own subscriptions, kept or not.
  const stranger = await makeCustomer(h.deps.db);
  expect((await h.request('GET', `/v1/subscriptions/${subscription.id}/usage`, { as: { customer: stranger } })).status).toBe(404);
  expect(calls(await expectJson<Summary>(await h.request('GET', `/v1/subscriptions/${subscription.id}/usage`, { as: { customer: customerId } }), 200))).toBe(4);
});
