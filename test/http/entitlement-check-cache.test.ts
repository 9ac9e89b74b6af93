/**
 * Fast checks (docs/entitlements.md "Fast checks"): with ENTITLEMENT_CHECK_CACHE_MS set, a plain
 * check's answer is kept for that long. Usage stored through this process, a reservation and a
 * grant change are seen by the very next check; a change this process did not make (a usage row
 * written by another process) is seen once the kept answer is older than the maximum age. A
 * reservation always decides on fresh reads, and a customer token never reads another customer's
 * kept answer.
 */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { makeCustomer } from '../support/fixtures.js';
import { expectJson, useHarness } from '../support/harness.js';

const MAX_AGE_MS = 60_000;
let offsetMs = 0;
const h = useHarness({ entitlementCheckCacheMs: MAX_AGE_MS }, () => new Date(Date.now() + offsetMs));
const RUN = randomUUID().slice(0, 8);

interface ErrorBody {
  error: { code: string };
}

interface Check {
  allowed: boolean;
  usage: string | null;
  balance: string | null;
  granted: string | null;
  reservation: { id: string } | null;
}

it('keeps a plain check for its maximum age, forgets it at once on usage, grants and reservations of this process', async () => {
  const eventType = `cached_calls_${RUN}`;
  const post = async <T>(path: string, body: unknown, status = 201) => expectJson<T>(await h.request('POST', path, { body }), status);
  const plan = await post<{ id: string }>('/admin/v1/catalog/plans', { name: 'Cached', billing_cadence: 'Monthly' });
  await post('/admin/v1/catalog/skus', { plan_id: plan.id, name: 'Platform', pricing_model: 'Flat', unit_amount_nanos: '0', currency: 'USD' });
  const feature = await post<{ id: string; key: string }>('/admin/v1/catalog/features', { key: `cached_${RUN}`, name: 'Calls', kind: 'Metered', meter_event_type: eventType });
  await post(`/admin/v1/catalog/plans/${plan.id}/features`, { feature_id: feature.id, limit: 'HardStop', included_quantity: '100' });
  const customerId = await makeCustomer(h.deps.db);
  const subscription = await post<{ id: string }>('/v1/subscriptions', { customer_id: customerId, plan_id: plan.id, currency: 'USD' });
  const check = (body: Record<string, unknown> = {}) => post<Check>('/v1/entitlements/check', { customer_id: customerId, feature: feature.key, ...body }, 200);
  let seq = 0;
  const event = () => ({ id: `cached-${RUN}-${(seq += 1)}`, event_type: eventType, customer_id: customerId, subscription_id: subscription.id, timestamp: new Date().toISOString(), properties: {} });

  expect(await check()).toMatchObject({ allowed: true, usage: '0', balance: '100' });

  // Another process stores an event: this process does not hear of it, so its kept answer stands until it is too old.
  const other = event();
  await h.deps.pool.query(
    `INSERT INTO usage_events (id, event_type, customer_id, subscription_id, occurred_at, properties) VALUES ($1, $2, $3::uuid, $4::uuid, $5::timestamptz, '{}'::jsonb)`,
    [other.id, eventType, customerId, subscription.id, other.timestamp],
  );
  expect(await check()).toMatchObject({ usage: '0', balance: '100' });
  offsetMs += MAX_AGE_MS;
  expect(await check()).toMatchObject({ usage: '1', balance: '99' });

  // Usage stored through this process is seen by the next check.
  expect((await post<{ accepted_count: number }>('/v1/events/batch', { events: [event(), event()] }, 200)).accepted_count).toBe(2);
  expect(await check()).toMatchObject({ usage: '3', balance: '97' });

  // So is a grant, and its void.
  const grant = await post<{ id: string }>(`/admin/v1/customers/${customerId}/entitlement-grants`, { feature_id: feature.id, quantity: '50' });
  expect(await check()).toMatchObject({ granted: '50', balance: '147' });
  await post(`/admin/v1/customers/${customerId}/entitlement-grants/${grant.id}/void`, undefined, 200);
  expect(await check()).toMatchObject({ granted: '0', balance: '97' });

  // A reservation decides on fresh reads and holds at once for plain checks too.
  const held = await check({ quantity: '90', reserve: true });
  expect(held).toMatchObject({ allowed: true, balance: '7' });
  expect(held.reservation).not.toBeNull();
  expect(await check({ quantity: '8' })).toMatchObject({ allowed: false, balance: '7' });
  expect(await check({ quantity: '8', reserve: true })).toMatchObject({ allowed: false, reservation: null });

  // A customer token reads only its own customer, whatever is kept for another.
  const stranger = await makeCustomer(h.deps.db);
  const refused = await h.request('POST', '/v1/entitlements/check', { body: { customer_id: customerId, feature: feature.key }, as: { customer: stranger } });
  expect((await expectJson<ErrorBody>(refused, 404)).error.code).toBe('customer_not_found');
  expect(await expectJson<Check>(await h.request('POST', '/v1/entitlements/check', { body: { customer_id: customerId, feature: feature.key }, as: { customer: customerId } }), 200)).toMatchObject({ balance: '7' });
});
