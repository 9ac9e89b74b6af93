/**
 * Plan versions and archiving through the API, PostgreSQL and the Temporal server: a SKU added to
 * a plan with a live subscriber opens a new version that only new subscriptions take; the period
 * close bills each subscription on its own version; a plan migration previews, then moves the old
 * subscriber through its workflow's change-plan update; archived catalog entries refuse new use.
 */
import type { temporal } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { advanceClock, sendUsage } from '../support/clock-usage.js';
import { makeCustomer, makeTestClock } from '../support/fixtures.js';
import { invoicesOf as invoicesWithLines } from '../support/invoices.js';
import { expectJson, expectPage, useHarness } from '../support/harness.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';

const h = useHarness();

interface Sku {
  id: string;
  version_from: number;
  version_to: number | null;
  archived_at: string | null;
}
interface Plan {
  id: string;
  version: number;
  archived_at: string | null;
  skus: Sku[];
}
interface Subscription {
  id: string;
  plan_id: string;
  plan_version: number;
}
interface Invoice {
  id: string;
  status: string;
  period_start: string;
  line_items: { kind: string; sku_id: string | null; amount_nanos: string; quantity: string }[];
}
interface Migration {
  preview: boolean;
  to_version: number;
  moved_count: number;
  failed_count: number;
  remaining_count: number;
  subscriptions: {
    subscription_id: string;
    from_version: number;
    to_version: number;
    effective_at: string;
    proration: { credit_nanos: string; charge_nanos: string; net_nanos: string };
    sku_changes: { added: string[]; removed: string[] };
    result?: string;
    invoice_id?: string | null;
  }[];
}

const post = (path: string, body?: unknown) => h.request('POST', path, body === undefined ? {} : { body });
const errorCode = async (res: Response, status: number) => {
  const body = (await res.json()) as { error: { code: string } };
  expect(res.status, JSON.stringify(body)).toBe(status);
  return body.error.code;
};

async function makePlanViaApi(flat: bigint, productId?: string) {
  const plan = await expectJson<Plan>(
    await post('/admin/v1/catalog/plans', { name: 'Team', billing_cadence: 'Monthly', ...(productId ? { product_id: productId } : {}) }),
    201,
  );
  const fee = await expectJson<Sku>(
    await post('/admin/v1/catalog/skus', { plan_id: plan.id, name: 'Base fee', pricing_model: 'Flat', unit_amount_nanos: flat.toString(), currency: 'USD' }),
    201,
  );
  const calls = await expectJson<Sku>(
    await post('/admin/v1/catalog/skus', {
      plan_id: plan.id,
      name: 'API calls',
      pricing_model: 'PerUnit',
      unit_amount_nanos: (UNIT / 100n).toString(),
      meter_event_type: 'api_calls',
      currency: 'USD',
    }),
    201,
  );
  return { planId: plan.id, fee, calls };
}

const subscribe = async (customerId: string, planId: string) =>
  expectJson<Subscription>(await post('/v1/subscriptions', { customer_id: customerId, plan_id: planId, currency: 'USD' }), 201);

/** The subscription's invoices, oldest first, each with its lines. */
const invoicesOf = (subscriptionId: string) => invoicesWithLines<Invoice>(h, `subscription_id=${subscriptionId}`);

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** Names of the updates the subscription's workflow accepted, over all its runs. */
async function acceptedUpdates(subscriptionId: string): Promise<string[]> {
  const workflows = h.deps.temporal.client.workflow;
  const workflowId = subscriptionWorkflowId(subscriptionId);
  const names: string[] = [];
  let runId: string | null | undefined = (await workflows.getHandle(workflowId).describe()).runId;
  while (runId) {
    const history: { events?: HistoryEvent[] | null } = await workflows.getHandle(workflowId, runId).fetchHistory();
    const events = history.events ?? [];
    for (const event of events) {
      const name = event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name;
      if (name) names.push(name);
    }
    runId = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId;
  }
  return names;
}

describe('plan versions', () => {
  it('bills a live subscriber on its version when a SKU is added, new subscribers on the new one, and migrates the old subscriber after a preview', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-02-01T00:00:00.000Z');
    const early = await makeCustomer(h.deps.db, { testClockId: clockId });
    const late = await makeCustomer(h.deps.db, { testClockId: clockId });
    const { planId, fee, calls } = await makePlanViaApi(49n * UNIT);
    // Nobody is on version 1 yet: both SKUs were added to it in place.
    expect([fee.version_from, calls.version_from]).toEqual([1, 1]);

    const first = await subscribe(early, planId);
    expect(first.plan_version).toBe(1);

    // A SKU added while a subscription is on version 1 opens version 2 ...
    const support = await expectJson<Sku>(
      await post('/admin/v1/catalog/skus', { plan_id: planId, name: 'Support', pricing_model: 'Flat', unit_amount_nanos: (10n * UNIT).toString(), currency: 'USD' }),
      201,
    );
    expect(support).toMatchObject({ version_from: 2, version_to: null });
    // ... and a second change joins version 2, which nobody is on yet.
    const seats = await expectJson<Sku>(
      await post('/admin/v1/catalog/skus', { plan_id: planId, name: 'Seats', pricing_model: 'Flat', unit_amount_nanos: (5n * UNIT).toString(), currency: 'USD' }),
      201,
    );
    expect(seats.version_from).toBe(2);
    const plan = await expectJson<Plan>(await h.request('GET', `/admin/v1/catalog/plans/${planId}`));
    expect(plan.version).toBe(2);
    expect(plan.skus.map((s) => s.id).sort()).toEqual([fee.id, calls.id, support.id, seats.id].sort());
    const versionAudits = await h.deps.db.auditLogEntry.findMany({ where: { entityId: planId, action: 'plan.version_created' } });
    expect(versionAudits.map((a) => [a.before, a.after])).toEqual([[{ version: 1 }, { version: 2, created_at: expect.any(String) }]]);

    const second = await subscribe(late, planId);
    expect(second.plan_version).toBe(2);
    const versions = await expectJson<{ version: number; subscription_count: number; skus: Sku[] }[]>(
      await h.request('GET', `/admin/v1/catalog/plans/${planId}/versions`),
    );
    expect(versions.map((v) => [v.version, v.subscription_count, v.skus.length])).toEqual([
      [2, 1, 4],
      [1, 1, 2],
    ]);

    // A usage-only look at version isolation of metered SKUs too: both send usage.
    await advanceClock(h, clockId, '2026-02-10T00:00:00.000Z');
    await sendUsage(h, early, first.id, 100, '2026-02-10T00:00:00.000Z');
    await sendUsage(h, late, second.id, 100, '2026-02-10T00:00:00.000Z');

    // Close February (plus the hour of grace): each subscriber is billed on its own version.
    await advanceClock(h, clockId, '2026-03-01T01:00:00.000Z');
    const [earlyFeb] = await invoicesOf(first.id);
    const [lateFeb] = await invoicesOf(second.id);
    const skusOf = (invoice: Invoice) => invoice.line_items.flatMap((l) => (l.sku_id ? [l.sku_id] : [])).sort();
    expect(earlyFeb!.status).toBe('Open');
    expect(skusOf(earlyFeb!)).toEqual([fee.id, calls.id].sort());
    expect(lateFeb!.status).toBe('Open');
    expect(skusOf(lateFeb!)).toEqual([fee.id, calls.id, support.id, seats.id].sort());

    // March 11: preview the migration of version 1 to version 2; nothing changes.
    await advanceClock(h, clockId, '2026-03-11T00:00:00.000Z');
    const preview = await expectJson<Migration>(await post(`/admin/v1/catalog/plans/${planId}/migrations`, { preview: true }));
    // 21 of March's 31 days remain from the 11th: old Flat fees 49.00, new 64.00.
    expect(preview).toMatchObject({ preview: true, to_version: 2, moved_count: 0, failed_count: 0, remaining_count: 0 });
    expect(preview.subscriptions).toEqual([
      {
        subscription_id: first.id,
        customer_id: early,
        status: 'Active',
        from_version: 1,
        to_version: 2,
        effective_at: '2026-03-11T00:00:00.000Z',
        proration: {
          credit_nanos: ((49n * UNIT * 21n + 15n) / 31n).toString(),
          charge_nanos: ((64n * UNIT * 21n + 15n) / 31n).toString(),
          net_nanos: (((64n * UNIT * 21n + 15n) / 31n) - ((49n * UNIT * 21n + 15n) / 31n)).toString(),
        },
        sku_changes: { added: [support.id, seats.id].sort(), removed: [] },
      },
    ]);
    expect((await expectJson<Subscription>(await h.request('GET', `/v1/subscriptions/${first.id}`))).plan_version).toBe(1);
    expect(await h.deps.db.auditLogEntry.count({ where: { entityId: planId, action: 'plan.migrated' } })).toBe(0);

    // Apply: the move runs as the changePlan update of the subscription's workflow.
    const applied = await expectJson<Migration>(await post(`/admin/v1/catalog/plans/${planId}/migrations`, { preview: false, from_version: 1 }));
    expect(applied).toMatchObject({ preview: false, moved_count: 1, failed_count: 0 });
    expect(applied.subscriptions).toMatchObject([{ subscription_id: first.id, result: 'moved', invoice_id: expect.any(String) }]);
    expect((await expectJson<Subscription>(await h.request('GET', `/v1/subscriptions/${first.id}`))).plan_version).toBe(2);
    expect(await acceptedUpdates(first.id)).toContain('changePlan');
    const changed = await h.deps.db.auditLogEntry.findFirstOrThrow({ where: { entityId: first.id, action: 'subscription.plan_changed' } });
    expect([changed.before, changed.after]).toEqual([
      { plan_id: planId, plan_version: 1 },
      { plan_id: planId, plan_version: 2, effective_at: '2026-03-11T00:00:00.000Z' },
    ]);
    expect(await h.deps.db.auditLogEntry.count({ where: { entityId: planId, action: 'plan.migrated' } })).toBe(1);
    // Nobody is left to move.
    expect((await expectJson<Migration>(await post(`/admin/v1/catalog/plans/${planId}/migrations`, { preview: true }))).subscriptions).toEqual([]);

    // Archiving the plan refuses new subscribers; both subscribers keep billing on version 2.
    await expectJson(await post(`/admin/v1/catalog/plans/${planId}/archive`));
    expect(await errorCode(await post('/v1/subscriptions', { customer_id: late, plan_id: planId, currency: 'USD' }), 409)).toBe('plan_archived');
    await advanceClock(h, clockId, '2026-04-01T01:00:00.000Z');
    const earlyMarch = (await invoicesOf(first.id)).find((i) => i.period_start === '2026-03-01T00:00:00.000Z')!;
    expect(earlyMarch.status).toBe('Open');
    const amountOf = (skuId: string) => earlyMarch.line_items.filter((l) => l.sku_id === skuId).map((l) => BigInt(l.amount_nanos));
    // Version 1's fee for the 10 days used, version 2's fees for the 21 days left.
    expect(amountOf(support.id)).toEqual([(10n * UNIT * 21n + 15n) / 31n]);
    expect(amountOf(fee.id).reduce((a, b) => a + b, 0n)).toBe(49n * UNIT);
    const lateMarch = (await invoicesOf(second.id)).find((i) => i.period_start === '2026-03-01T00:00:00.000Z')!;
    expect(lateMarch.line_items.filter((l) => l.kind === 'fee').reduce((sum, l) => sum + BigInt(l.amount_nanos), 0n)).toBe(64n * UNIT);
  });

  it('removes an archived SKU from a new version only and bills the version in use at its old price', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-05-01T00:00:00.000Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    const { planId, fee, calls } = await makePlanViaApi(20n * UNIT);
    const subscription = await subscribe(customerId, planId);

    const archived = await expectJson<Sku>(await post(`/admin/v1/catalog/skus/${calls.id}/archive`));
    expect(archived).toMatchObject({ version_from: 1, version_to: 2, archived_at: expect.any(String) });
    // Archiving again changes nothing.
    expect(await expectJson<Sku>(await post(`/admin/v1/catalog/skus/${calls.id}/archive`))).toEqual(archived);
    const plan = await expectJson<Plan>(await h.request('GET', `/admin/v1/catalog/plans/${planId}`));
    expect([plan.version, plan.skus.map((s) => s.id)]).toEqual([2, [fee.id]]);
    expect(await h.deps.db.auditLogEntry.count({ where: { entityId: calls.id, action: 'sku.archived' } })).toBe(1);
    // A price change is the archive above plus the new price: both land in version 2.
    const repriced = await expectJson<Sku>(
      await post('/admin/v1/catalog/skus', { plan_id: planId, name: 'API calls', pricing_model: 'PerUnit', unit_amount_nanos: (UNIT / 50n).toString(), meter_event_type: 'api_calls', currency: 'USD' }),
      201,
    );
    expect(repriced.version_from).toBe(2);
    expect((await expectJson<Plan>(await h.request('GET', `/admin/v1/catalog/plans/${planId}`))).version).toBe(2);
    expect((await expectJson<Subscription>(await h.request('GET', `/v1/subscriptions/${subscription.id}`))).plan_version).toBe(1);

    await advanceClock(h, clockId, '2026-05-10T00:00:00.000Z');
    await sendUsage(h, customerId, subscription.id, 300, '2026-05-10T00:00:00.000Z');
    await advanceClock(h, clockId, '2026-06-01T01:00:00.000Z');
    const [may] = await invoicesOf(subscription.id);
    // Billed on version 1: the old 0.01 price, not the new 0.02.
    expect(may!.line_items.find((l) => l.sku_id === calls.id)).toMatchObject({ quantity: '300', amount_nanos: (3n * UNIT).toString() });
    expect(may!.line_items.some((l) => l.sku_id === repriced.id)).toBe(false);
  });
});

describe('archiving', () => {
  it('refuses archived products, plans and meters for new plans, subscriptions, SKUs and plan changes', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const product = await expectJson<{ id: string }>(await post('/admin/v1/catalog/products', { name: 'Compute' }), 201);
    const { planId } = await makePlanViaApi(30n * UNIT, product.id);
    const other = await makePlanViaApi(40n * UNIT);
    const subscription = await subscribe(customerId, other.planId);

    const archivedProduct = await expectJson<{ archived_at: string }>(await post(`/admin/v1/catalog/products/${product.id}/archive`));
    expect(archivedProduct.archived_at).toEqual(expect.any(String));
    expect(await expectJson(await post(`/admin/v1/catalog/products/${product.id}/archive`))).toEqual(archivedProduct);
    expect(await errorCode(await post('/admin/v1/catalog/plans', { name: 'New', billing_cadence: 'Monthly', product_id: product.id }), 409)).toBe('product_archived');
    expect(await errorCode(await post('/v1/subscriptions', { customer_id: customerId, plan_id: planId, currency: 'USD' }), 409)).toBe('product_archived');
    expect(await errorCode(await post(`/admin/v1/subscriptions/${subscription.id}/change-plan`, { plan_id: planId }), 409)).toBe('product_archived');

    const archivedPlan = await expectJson<Plan>(await post(`/admin/v1/catalog/plans/${other.planId}/archive`));
    expect(archivedPlan.archived_at).toEqual(expect.any(String));
    const sku = { plan_id: other.planId, name: 'Extra', pricing_model: 'Flat', unit_amount_nanos: UNIT.toString(), currency: 'USD' };
    expect(await errorCode(await post('/admin/v1/catalog/skus', sku), 409)).toBe('plan_archived');
    expect(await errorCode(await post(`/admin/v1/catalog/plans/${other.planId}/migrations`, { preview: true }), 409)).toBe('plan_archived');
    // The subscription on the archived plan is still served.
    expect((await expectJson<Subscription>(await h.request('GET', `/v1/subscriptions/${subscription.id}`))).plan_id).toBe(other.planId);

    const eventType = `archived_meter_${Date.now()}`;
    const meter = await expectJson<{ id: string }>(await post('/admin/v1/meters', { name: 'Rows', event_type: eventType, aggregation: 'Count' }), 201);
    const archivedMeter = await expectJson<{ archived_at: string | null }>(await post(`/admin/v1/meters/${meter.id}/archive`));
    expect(archivedMeter.archived_at).toEqual(expect.any(String));
    const fresh = await makePlanViaApi(1n * UNIT);
    const metered = { plan_id: fresh.planId, name: 'Rows', pricing_model: 'PerUnit', unit_amount_nanos: UNIT.toString(), meter_event_type: eventType, currency: 'USD' };
    expect(await errorCode(await post('/admin/v1/catalog/skus', metered), 409)).toBe('meter_archived');

    const actions = await h.deps.db.auditLogEntry.findMany({
      where: { entityId: { in: [product.id, other.planId, meter.id] }, action: { endsWith: '.archived' } },
      orderBy: { createdAt: 'asc' },
    });
    expect(actions.map((a) => a.action)).toEqual(['product.archived', 'plan.archived', 'meter.archived']);

    expect(await errorCode(await post(`/admin/v1/catalog/plans/${fresh.planId}/migrations`, { preview: true, to_version: 7 }), 404)).toBe('plan_version_not_found');
    expect(await errorCode(await post(`/admin/v1/catalog/plans/${fresh.planId}/migrations`, { preview: true, extra: 1 }), 400)).toBe('validation_failed');
  });
});
