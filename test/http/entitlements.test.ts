/**
 * Entitlements through the API against the real database (docs/entitlements.md): features in the
 * catalog attached to a plan version; the customer's entitlements (Boolean, Static, Metered with
 * usage read as billing reads it); check with its reasons; overrides per subscription and per
 * contract; access for customer tokens; reservations: 50 concurrent reserves of 1 against a balance
 * of 10 hold exactly 10, a usage event naming one commits it, an unused one expires.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeCustomer, makePlan } from '../support/fixtures.js';
import { expectJson, expectPage, useHarness } from '../support/harness.js';
import { eventually } from '../support/payments.js';
import { mintPortalSession, portalPath } from '../support/portal.js';

const h = useHarness();
const RUN = randomUUID().slice(0, 8);

interface Feature {
  id: string;
  key: string;
  kind: string;
  meter_event_type: string | null;
  archived_at: string | null;
}
interface Entitlement {
  feature: string;
  has_access: boolean;
  value?: unknown;
  limit: string | null;
  usage: string | null;
  included: string | null;
  reserved: string | null;
  balance: string | null;
  overage: string | null;
  resets_at: string | null;
  source: string;
}
interface Check {
  allowed: boolean;
  reason: string | null;
  balance: string | null;
  usage: string | null;
  reservation: { id: string; quantity: string; expires_at: string } | null;
}
interface ErrorBody {
  error: { code: string; details?: { issues?: { path: string }[] } };
}

const key = (name: string) => `${name}_${RUN}`;
const createFeature = async (body: Record<string, unknown>, status = 201) => expectJson<Feature>(await h.request('POST', '/admin/v1/catalog/features', { body }), status);
const attach = async (planId: string, body: Record<string, unknown>, status = 201) => expectJson<Record<string, unknown>>(await h.request('POST', `/admin/v1/catalog/plans/${planId}/features`, { body }), status);
const entitlements = async (customerId: string) =>
  (await expectJson<{ entitlements: Entitlement[] }>(await h.request('GET', `/v1/customers/${customerId}/entitlements`, { as: { customer: customerId } }))).entitlements;
const check = async (body: Record<string, unknown>, as: 'admin' | { customer: string } = 'admin') => expectJson<Check>(await h.request('POST', '/v1/entitlements/check', { body, as }));

let eventSeq = 0;
async function sendEvents(customerId: string, subscriptionId: string, eventType: string, count: number, properties: Record<string, unknown> = {}): Promise<void> {
  const events = Array.from({ length: count }, () => ({
    id: `ent-${RUN}-${(eventSeq += 1)}`,
    event_type: eventType,
    customer_id: customerId,
    subscription_id: subscriptionId,
    timestamp: new Date().toISOString(),
    properties,
  }));
  const body = await expectJson<{ accepted_count: number }>(await h.request('POST', '/v1/events/batch', { body: { events } }));
  expect(body.accepted_count).toBe(count);
}

/** A customer subscribed to a plan with `api_calls_<run>` usage; the plan's features attached first. */
async function subscribed(attachFeatures: (planId: string) => Promise<void>) {
  const eventType = `calls_${RUN}_${(eventSeq += 1)}`;
  const planId = await makePlan(h.deps.db, { meterEventType: eventType });
  await attachFeatures(planId);
  const customerId = await makeCustomer(h.deps.db);
  const subscription = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
  return { planId, customerId, subscriptionId: subscription.id, eventType };
}

describe('features in the catalog', () => {
  it('creates Boolean, Metered and Static features, refuses bad ones, lists, archives', async () => {
    const sso = await createFeature({ key: key('sso'), name: 'Single sign-on', kind: 'Boolean' });
    expect(sso).toMatchObject({ key: key('sso'), kind: 'Boolean', meter_event_type: null, archived_at: null });
    const calls = await createFeature({ key: key('calls'), name: 'API calls', kind: 'Metered', meter_event_type: 'api_calls' });
    expect(calls.meter_event_type).toBe('api_calls');
    expect((await createFeature({ key: key('sso'), name: 'again', kind: 'Boolean' }, 409) as unknown as ErrorBody).error.code).toBe('feature_key_taken');
    const bad: [Record<string, unknown>, string][] = [
      [{ key: 'Bad Key', name: 'x', kind: 'Boolean' }, 'key'],
      [{ key: key('m'), name: 'x', kind: 'Metered' }, 'meter_event_type'],
      [{ key: key('b'), name: 'x', kind: 'Boolean', meter_event_type: 'api_calls' }, 'meter_event_type'],
      [{ key: key('k'), name: 'x', kind: 'Sometimes' }, 'kind'],
    ];
    for (const [body, field] of bad) {
      const refused = (await createFeature(body, 400)) as unknown as ErrorBody;
      expect(refused.error.details?.issues?.map((i) => i.path)).toContain(field);
    }
    expect((await createFeature({ key: key('mm'), name: 'x', kind: 'Metered', meter_id: randomUUID() }, 404) as unknown as ErrorBody).error.code).toBe('meter_not_found');

    const page = await expectPage<Feature>(await h.request('GET', '/admin/v1/catalog/features?limit=2'));
    expect(page.data.map((f) => f.id)).toEqual([calls.id, sso.id]);
    const archived = await expectJson<Feature>(await h.request('POST', `/admin/v1/catalog/features/${sso.id}/archive`));
    expect(archived.archived_at).not.toBeNull();
    const planId = await makePlan(h.deps.db);
    expect((await attach(planId, { feature_id: sso.id }, 409) as unknown as ErrorBody).error.code).toBe('feature_archived');
    const audit = await h.deps.db.auditLogEntry.findMany({ where: { entityId: sso.id }, orderBy: { id: 'asc' } });
    expect(audit.map((a) => a.action)).toEqual(['feature.created', 'feature.archived']);
  });

  it('checks an overage SKU: on the plan version, pricing the meter, included = its free allowance; a plan in use opens a version', async () => {
    const eventType = `tokens_${RUN}`;
    const planId = await makePlan(h.deps.db, { meterEventType: eventType });
    const feature = await createFeature({ key: key('tokens'), name: 'Tokens', kind: 'Metered', meter_event_type: eventType });
    const sku = await expectJson<{ id: string }>(
      await h.request('POST', '/admin/v1/catalog/skus', {
        body: { plan_id: planId, name: 'Tokens', pricing_model: 'Package', unit_amount_nanos: '10000000000', package_size: '1', package_free_units: '500', meter_event_type: eventType, currency: 'USD' },
      }),
      201,
    );
    const flat = (await h.deps.db.sku.findFirst({ where: { planId, pricingModel: 'Flat' } }))!;
    expect((await attach(planId, { feature_id: feature.id, limit: 'Overage', overage_sku_id: flat.id }, 422)).error).toMatchObject({ code: 'overage_sku_model' });
    expect((await attach(planId, { feature_id: feature.id, limit: 'Overage', overage_sku_id: sku.id, included_quantity: '400' }, 422)).error).toMatchObject({ code: 'included_quantity_mismatch' });
    expect((await attach(planId, { feature_id: feature.id, limit: 'Overage' }, 400)).error).toMatchObject({ code: 'validation_failed' });
    const perUnit = (await h.deps.db.sku.findFirst({ where: { planId, pricingModel: 'PerUnit' } }))!;
    const otherFeature = await createFeature({ key: key('other'), name: 'Other', kind: 'Metered', meter_event_type: `other_${RUN}` });
    expect((await attach(planId, { feature_id: otherFeature.id, limit: 'Overage', overage_sku_id: perUnit.id }, 422)).error).toMatchObject({ code: 'overage_sku_meter_mismatch' });
    const attached = await attach(planId, { feature_id: feature.id, limit: 'Overage', overage_sku_id: sku.id });
    expect(attached).toMatchObject({ included_quantity: '500', limit: 'Overage', version_from: 1, version_to: null });

    // Once a subscription is on version 1, changing the terms opens version 2 and leaves version 1 as it was.
    const customerId = await makeCustomer(h.deps.db);
    await expectJson(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
    const changed = await attach(planId, { feature_id: feature.id, limit: 'HardStop', included_quantity: '100' });
    expect(changed).toMatchObject({ version_from: 2, included_quantity: '100' });
    const listed = await expectJson<{ version_from: number; version_to: number | null }[]>(await h.request('GET', `/admin/v1/catalog/plans/${planId}/features`));
    expect(listed.map((a) => [a.version_from, a.version_to])).toEqual([[2, null], [1, 2]]);
    expect((await entitlements(customerId)).find((e) => e.feature === feature.key)).toMatchObject({ limit: 'Overage', included: '500' });
  });
});

describe('entitlements and check', () => {
  it('lists Boolean, Static and Metered features with usage as billing reads it; check answers with reasons; overrides change terms', async () => {
    const sso = await createFeature({ key: key('sso2'), name: 'SSO', kind: 'Boolean' });
    const seats = await createFeature({ key: key('seats'), name: 'Seats', kind: 'Static' });
    const beta = await createFeature({ key: key('beta'), name: 'Beta', kind: 'Boolean' });
    let calls!: Feature;
    const { customerId, subscriptionId, eventType } = await subscribed(async (planId) => {
      const type = (await h.deps.db.sku.findFirst({ where: { planId, pricingModel: 'PerUnit' } }))!.meterEventType!;
      calls = await createFeature({ key: key('calls2'), name: 'Calls', kind: 'Metered', meter_event_type: type });
      await attach(planId, { feature_id: sso.id });
      await attach(planId, { feature_id: seats.id, value: 10 });
      await attach(planId, { feature_id: calls.id, included_quantity: '5' });
    });
    await sendEvents(customerId, subscriptionId, eventType, 3);
    const byKey = async () => Object.fromEntries((await entitlements(customerId)).map((e) => [e.feature, e]));
    const before = await byKey();
    expect(Object.keys(before).sort()).toEqual([calls.key, seats.key, sso.key].sort());
    expect(before[sso.key]).toMatchObject({ has_access: true, usage: null, balance: null, source: 'plan' });
    expect(before[seats.key]).toMatchObject({ has_access: true, value: 10 });
    expect(before[calls.key]).toMatchObject({ has_access: true, limit: 'HardStop', usage: '3', included: '5', balance: '2', overage: '0', reserved: '0' });
    const usage = await expectJson<{ meters: { billable_value: string }[] }>(await h.request('GET', `/v1/subscriptions/${subscriptionId}/usage`));
    expect(usage.meters[0]!.billable_value).toBe('3');
    expect(before[calls.key]!.resets_at).toBe((await h.deps.db.subscription.findUniqueOrThrow({ where: { id: subscriptionId } })).periodEnd.toISOString());

    // The customer portal shows the same entitlements in its Features section.
    const portal = await h.app.request(portalPath((await mintPortalSession(h, customerId)).url));
    expect(portal.status).toBe(200);
    const html = await portal.text();
    const rowOf = (feature: string) => new RegExp(`<tr data-feature="${feature}">(.*?)</tr>`).exec(html)?.[1];
    expect(html).toContain('<h2 id="features-h">Features</h2>');
    expect(rowOf(calls.key)).toContain('<td>Yes</td><td>3 used of 5 included; 2 left</td>');
    expect(rowOf(seats.key)).toContain('<td>Yes</td><td>10</td><td>—</td>');
    expect(rowOf(sso.key)).toContain('<td>Yes</td><td>Included</td>');

    expect(await check({ customer_id: customerId, feature: calls.key, quantity: '2' })).toMatchObject({ allowed: true, reason: null, balance: '2', usage: '3' });
    expect(await check({ customer_id: customerId, feature: calls.key, quantity: '2.5' })).toMatchObject({ allowed: false, reason: 'limit_reached' });
    expect(await check({ customer_id: customerId, feature: beta.key })).toMatchObject({ allowed: false, reason: 'feature_not_included' });
    expect(await check({ customer_id: customerId, feature: sso.key }, { customer: customerId })).toMatchObject({ allowed: true });
    expect((await expectJson<ErrorBody>(await h.request('POST', '/v1/entitlements/check', { body: { customer_id: customerId, feature: `nope_${RUN}` } }), 404)).error.code).toBe('feature_not_found');
    expect((await expectJson<ErrorBody>(await h.request('POST', '/v1/entitlements/check', { body: { feature: sso.key } }), 400)).error.code).toBe('validation_failed');
    expect((await expectJson<ErrorBody>(await h.request('POST', '/v1/entitlements/check', { body: { customer_id: customerId, feature: sso.key, quantity: '-1' } }), 400)).error.code).toBe('validation_failed');
    expect((await expectJson<ErrorBody>(await h.request('POST', '/v1/entitlements/check', { body: { customer_id: customerId, feature: sso.key, reserve: true } }), 400)).error.code).toBe('validation_failed');

    // By external id; a customer token checks and reads only its own customer.
    const other = await makeCustomer(h.deps.db);
    await h.deps.db.customer.update({ where: { id: customerId }, data: { externalId: `ext-${RUN}` } });
    expect(await check({ external_customer_id: `ext-${RUN}`, feature: calls.key })).toMatchObject({ allowed: true });
    expect((await h.request('POST', '/v1/entitlements/check', { body: { customer_id: customerId, feature: sso.key }, as: { customer: other } })).status).toBe(404);
    expect((await h.request('GET', `/v1/customers/${customerId}/entitlements`, { as: { customer: other } })).status).toBe(404);

    // Overrides: the subscription switches SSO off, raises the included calls, and gets the beta feature the plan lacks.
    // A new override is created (201); setting it again replaces it (200).
    await expectJson(await h.request('PUT', `/admin/v1/subscriptions/${subscriptionId}/features/${sso.id}`, { body: { enabled: true } }), 201);
    await expectJson(await h.request('PUT', `/admin/v1/subscriptions/${subscriptionId}/features/${sso.id}`, { body: { enabled: false } }), 200);
    await expectJson(await h.request('PUT', `/admin/v1/subscriptions/${subscriptionId}/features/${calls.id}`, { body: { included_quantity: '100' } }), 201);
    await expectJson(await h.request('PUT', `/admin/v1/subscriptions/${subscriptionId}/features/${beta.id}`, { body: { enabled: true } }), 201);
    const refused = await expectJson<{ error: { code: string; details: { field: string } } }>(await h.request('PUT', `/admin/v1/subscriptions/${subscriptionId}/features/${seats.id}`, { body: { included_quantity: '3' } }), 422);
    expect(refused.error).toMatchObject({ code: 'feature_term_not_applicable', details: { field: 'included_quantity' } });
    const after = await byKey();
    expect(after[sso.key]).toMatchObject({ has_access: false, source: 'subscription' });
    expect(after[calls.key]).toMatchObject({ included: '100', balance: '97', source: 'subscription' });
    expect(after[beta.key]).toMatchObject({ has_access: true, source: 'subscription' });
    expect(await check({ customer_id: customerId, feature: sso.key })).toMatchObject({ allowed: false, reason: 'feature_disabled' });
    // Removing an override brings the plan's terms back.
    expect((await h.request('DELETE', `/admin/v1/subscriptions/${subscriptionId}/features/${calls.id}`)).status).toBe(204);
    expect((await byKey())[calls.key]).toMatchObject({ included: '5', balance: '2' });
    const audit = await h.deps.db.auditLogEntry.findMany({ where: { action: { startsWith: 'feature_override.' }, requestId: { not: null } }, select: { action: true, before: true, after: true } });
    const ofThisSubscription = audit.filter((a) => [a.before, a.after].some((state) => (state as { subscription_id?: string } | null)?.subscription_id === subscriptionId));
    expect(ofThisSubscription.filter((a) => a.action === 'feature_override.removed')).toHaveLength(1);

    // A HardLimit spend alert that triggers blocks the Metered feature.
    await h.deps.db.spendAlert.create({
      data: { id: randomUUID(), customerId, alertType: 'HardLimit', thresholdNanos: 1, currency: 'USD', status: 'Triggered', triggeredAt: new Date(), triggeredSpendNanos: 1, updatedAt: new Date() },
    });
    expect(await check({ customer_id: customerId, feature: calls.key })).toMatchObject({ allowed: false, reason: 'customer_blocked' });
    expect((await byKey())[calls.key]!.has_access).toBe(false);
  });

  it('50 concurrent reserves of 1 against a balance of 10 hold exactly 10; a usage event commits one, an unused one expires', async () => {
    let calls!: Feature;
    const { customerId, subscriptionId, eventType } = await subscribed(async (planId) => {
      const type = (await h.deps.db.sku.findFirst({ where: { planId, pricingModel: 'PerUnit' } }))!.meterEventType!;
      calls = await createFeature({ key: key('calls3'), name: 'Calls', kind: 'Metered', meter_event_type: type });
      await attach(planId, { feature_id: calls.id, included_quantity: '15' });
    });
    await sendEvents(customerId, subscriptionId, eventType, 5);
    const answers = await Promise.all(Array.from({ length: 50 }, () => check({ customer_id: customerId, feature: calls.key, quantity: '1', reserve: true })));
    const held = answers.filter((a) => a.allowed);
    expect(held).toHaveLength(10);
    expect(answers.filter((a) => !a.allowed).every((a) => a.reason === 'limit_reached' && a.reservation === null)).toBe(true);
    expect(new Set(held.map((a) => a.reservation!.id)).size).toBe(10);
    expect((await entitlements(customerId)).find((e) => e.feature === calls.key)).toMatchObject({ usage: '5', reserved: '10', balance: '0', has_access: false });

    // Usage naming a reservation commits it: the usage counts instead of the hold (3 units against a hold of 1 count in full).
    await sendEvents(customerId, subscriptionId, eventType, 1, { reservation_id: held[0]!.reservation!.id, quantity: 3 });
    const row = await h.deps.db.entitlementReservation.findUniqueOrThrow({ where: { id: held[0]!.reservation!.id } });
    expect(row.committedAt).not.toBeNull();
    expect((await entitlements(customerId)).find((e) => e.feature === calls.key)).toMatchObject({ usage: '8', reserved: '9', balance: '0', overage: '0' });

    // Holds past their expiry release their quantity: 15 included − 8 used = 7 left.
    expect(await check({ customer_id: customerId, feature: calls.key, quantity: '1', reserve: true })).toMatchObject({ allowed: false, reason: 'limit_reached' });
    await h.deps.db.entitlementReservation.updateMany({ where: { customerId, committedAt: null }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect((await entitlements(customerId)).find((e) => e.feature === calls.key)).toMatchObject({ reserved: '0', balance: '7' });
    const short = await check({ customer_id: customerId, feature: calls.key, quantity: '7', reserve: true, ttl_seconds: 1 });
    expect(short).toMatchObject({ allowed: true, balance: '0' });
    // A short hold nobody uses expires by itself.
    await eventually(async () => expect((await entitlements(customerId)).find((e) => e.feature === calls.key)).toMatchObject({ reserved: '0', balance: '7' }), 5_000);
  });
});
