/**
 * Entitlements agree with billing (issue 27, point 6): a month on a test clock crosses the included
 * quantities. The HardStop feature flips to denied at its limit, the Overage feature keeps allowing,
 * the January invoice's overage line is exactly the usage beyond the included quantity, and at the
 * period roll the balances start again from the new period's (empty) usage.
 */
import { expect, it } from 'vitest';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { advanceClock, sendUsage } from '../support/clock-usage.js';
import { makeCustomer, makeTestClock } from '../support/fixtures.js';
import { expectJson, terminatedAfterAll, useHarness } from '../support/harness.js';
import { invoicesOf } from '../support/invoices.js';

const h = useHarness();
terminatedAfterAll(h);

const CENT = UNIT / 100n;

interface Entitlement {
  feature: string;
  has_access: boolean;
  usage: string | null;
  included: string | null;
  balance: string | null;
  overage: string | null;
  resets_at: string | null;
}
interface Line {
  sku_id: string | null;
  kind: string;
  quantity: string;
  amount_nanos: string;
  detail?: { package?: { free_units: string; packages: string } };
}

it('a month crossing the included quantities: HardStop denies, Overage allows, the overage line equals the usage beyond included', async () => {
  const run = Date.now().toString(36);
  const [callsType, seatsType] = [`ent_calls_${run}`, `ent_exports_${run}`];
  const post = async <T>(path: string, body: unknown, status = 201) => expectJson<T>(await h.request('POST', path, { body }), status);
  const plan = await post<{ id: string }>('/admin/v1/catalog/plans', { name: 'Entitled', billing_cadence: 'Monthly' });
  await post('/admin/v1/catalog/skus', { plan_id: plan.id, name: 'Base', pricing_model: 'Flat', unit_amount_nanos: `${10n * UNIT}`, currency: 'USD' });
  // 1,000 calls included, then 0.01 per call (a Package of 1 after 1,000 free units).
  const overageSku = await post<{ id: string }>('/admin/v1/catalog/skus', {
    plan_id: plan.id,
    name: 'API calls',
    pricing_model: 'Package',
    unit_amount_nanos: `${CENT}`,
    package_size: '1',
    package_free_units: '1000',
    meter_event_type: callsType,
    currency: 'USD',
  });
  const calls = await post<{ id: string; key: string }>('/admin/v1/catalog/features', { key: `calls_${run}`, name: 'API calls', kind: 'Metered', meter_event_type: callsType });
  const exportsFeature = await post<{ id: string; key: string }>('/admin/v1/catalog/features', { key: `exports_${run}`, name: 'Exports', kind: 'Metered', meter_event_type: seatsType });
  expect(await post(`/admin/v1/catalog/plans/${plan.id}/features`, { feature_id: calls.id, limit: 'Overage', overage_sku_id: overageSku.id })).toMatchObject({ included_quantity: '1000' });
  await post(`/admin/v1/catalog/plans/${plan.id}/features`, { feature_id: exportsFeature.id, limit: 'HardStop', included_quantity: '50' });

  const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
  const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
  const subscription = await post<{ id: string }>('/v1/subscriptions', { customer_id: customerId, plan_id: plan.id, currency: 'USD' });
  const check = (feature: string, quantity = '1') => post<{ allowed: boolean; reason: string | null; balance: string | null }>('/v1/entitlements/check', { customer_id: customerId, feature, quantity }, 200);
  const entitlement = async (feature: string) =>
    (await expectJson<{ entitlements: Entitlement[] }>(await h.request('GET', `/v1/customers/${customerId}/entitlements`, { as: { customer: customerId } }))).entitlements.find(
      (e) => e.feature === feature,
    )!;

  await advanceClock(h, clockId, '2026-01-10T00:00:00.000Z');
  await sendUsage(h, customerId, subscription.id, 900, '2026-01-09T12:00:00.000Z', callsType);
  await sendUsage(h, customerId, subscription.id, 49, '2026-01-09T12:00:00.000Z', seatsType);
  expect(await entitlement(calls.key)).toMatchObject({ has_access: true, usage: '900', included: '1000', balance: '100', overage: '0', resets_at: '2026-02-01T00:00:00.000Z' });
  expect(await check(exportsFeature.key)).toMatchObject({ allowed: true, balance: '1' });

  await advanceClock(h, clockId, '2026-01-20T00:00:00.000Z');
  await sendUsage(h, customerId, subscription.id, 337, '2026-01-19T12:00:00.000Z', callsType);
  await sendUsage(h, customerId, subscription.id, 1, '2026-01-19T12:00:00.000Z', seatsType);
  // The HardStop feature is used up: denied. The Overage feature keeps allowing past its included quantity.
  expect(await check(exportsFeature.key)).toMatchObject({ allowed: false, reason: 'limit_reached', balance: '0' });
  expect(await entitlement(exportsFeature.key)).toMatchObject({ has_access: false, usage: '50', balance: '0' });
  expect(await check(calls.key, '500')).toMatchObject({ allowed: true, balance: '0' });
  const crossed = await entitlement(calls.key);
  expect(crossed).toMatchObject({ has_access: true, usage: '1237', balance: '0', overage: '237' });

  // The period close bills exactly the usage beyond the included quantity.
  await advanceClock(h, clockId, '2026-02-01T02:00:00.000Z');
  const [january] = await invoicesOf<{ period_start: string; line_items: Line[] }>(h, `subscription_id=${subscription.id}`);
  const overageLine = january!.line_items.find((l) => l.sku_id === overageSku.id && l.kind === 'usage')!;
  expect(overageLine.detail?.package).toMatchObject({ free_units: '1000', packages: crossed.overage });
  expect(BigInt(overageLine.amount_nanos)).toBe(BigInt(crossed.overage!) * CENT);

  // February starts from its own usage: both features are back to their included quantities.
  expect(await entitlement(calls.key)).toMatchObject({ usage: '0', balance: '1000', overage: '0', resets_at: '2026-03-01T00:00:00.000Z' });
  expect(await check(exportsFeature.key)).toMatchObject({ allowed: true, balance: '50' });
});
