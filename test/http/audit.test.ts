/**
 * The audit trail through its read API: entries written by real mutations, their actor, request id
 * and before/after state, every filter, newest-first pagination, and the append-only guarantee;
 * changes workflows make on their own (a period close and finalization on a test-clock advance, a
 * spend alert's trigger) carry the `workflow` actor with the workflow id. Every mutating route is
 * walked in audit-walk.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { AuditEntryView } from '../../src/schemas/audit.js';
import { spendAlertWorkflowId } from '../../workflows/spend-alerts/messages.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { advanceClock, sendUsage } from '../support/clock-usage.js';
import { makePlan } from '../support/fixtures.js';
import { eventually } from '../support/payments.js';
import { expectJson, expectPage, useHarness } from '../support/harness.js';

const h = useHarness();

interface Customer {
  id: string;
  display_name: string;
}

async function createCustomer(name: string, as: 'admin' | 'api_key' = 'admin'): Promise<{ customer: Customer; requestId: string }> {
  const res = await h.request('POST', '/admin/v1/customers', { as, body: { display_name: name, email: 'ap@audit.test', currency: 'USD', account_type: 'Organization' } });
  const customer = await expectJson<Customer>(res, 201);
  return { customer, requestId: res.headers.get('x-request-id')! };
}

const audit = async (query: string) => expectPage<AuditEntryView>(await h.request('GET', `/admin/v1/audit-log?${query}`));

describe('GET /admin/v1/audit-log', () => {
  it('shows a mutation with its actor, request id and before/after state', async () => {
    const { customer, requestId } = await createCustomer('Audit One');
    const renamed = await h.request('PATCH', `/admin/v1/customers/${customer.id}`, { body: { display_name: 'Audit One Renamed' } });
    const renameRequestId = renamed.headers.get('x-request-id');
    await expectJson(renamed, 200);

    const page = await audit(`entity_id=${customer.id}`);
    expect(page.data.map((e) => e.action)).toEqual(['customer.updated', 'customer.created']);
    const [update, create] = page.data;
    expect(create).toMatchObject({ actor_type: 'admin', actor_id: 'test-admin', entity_type: 'customer', customer_id: customer.id, request_id: requestId, before: null });
    expect((create!.after as Customer).display_name).toBe('Audit One');
    expect(update!.request_id).toBe(renameRequestId);
    expect((update!.before as Customer).display_name).toBe('Audit One');
    expect((update!.after as Customer).display_name).toBe('Audit One Renamed');

    expect(await expectJson<AuditEntryView>(await h.request('GET', `/admin/v1/audit-log/${create!.id}`))).toEqual(create);
  });

  it('filters by actor, action, customer and time range, and pages newest first', async () => {
    const since = new Date(Date.now() - 1_000).toISOString();
    const made: string[] = [];
    for (let i = 0; i < 3; i += 1) made.push((await createCustomer(`Audit Key ${i}`, 'api_key')).customer.id);

    const byKey = await audit(`actor_type=api_key&action=customer.created&created_gte=${encodeURIComponent(since)}&limit=2`);
    expect(byKey.has_more).toBe(true);
    const next = await audit(`actor_type=api_key&action=customer.created&created_gte=${encodeURIComponent(since)}&limit=2&starting_after=${byKey.next_cursor}`);
    const ids = [...byKey.data, ...next.data].map((e) => e.entity_id);
    // Newest first: the last customer made comes first.
    expect(ids.slice(0, 3)).toEqual([...made].reverse());
    expect([...byKey.data, ...next.data].every((e) => e.actor_type === 'api_key' && e.action === 'customer.created')).toBe(true);

    const one = await audit(`customer_id=${made[1]}`);
    expect(one.data.map((e) => e.entity_id)).toEqual([made[1]]);
    const none = await audit(`customer_id=${made[1]}&created_lt=${encodeURIComponent(since)}`);
    expect(none.data).toEqual([]);
  });

  it('filters by resource type and id, actor id and request id', async () => {
    const { customer, requestId } = await createCustomer('Audit Filters');
    const product = await expectJson<{ id: string }>(await h.request('POST', '/admin/v1/catalog/products', { body: { name: 'Audit filter product' } }), 201);

    const byType = await audit(`entity_type=product&entity_id=${product.id}`);
    expect(byType.data.map((e) => [e.action, e.entity_type, e.entity_id])).toEqual([['product.created', 'product', product.id]]);
    expect((await audit(`entity_type=customer&entity_id=${product.id}`)).data).toEqual([]);

    const byRequest = await audit(`request_id=${requestId}`);
    expect(byRequest.data.map((e) => [e.action, e.entity_id, e.request_id])).toEqual([['customer.created', customer.id, requestId]]);

    const byActor = await audit(`actor_id=test-admin&entity_id=${customer.id}`);
    expect(byActor.data.map((e) => e.action)).toEqual(['customer.created']);
    expect((await audit(`actor_id=someone-else&entity_id=${customer.id}`)).data).toEqual([]);
  });

  it('refuses unknown filters and malformed values with a 400 naming them', async () => {
    for (const [query, field] of [
      ['actor=admin', 'actor'],
      ['actor_type=robot', 'actor_type'],
      ['created_gte=yesterday', 'created_gte'],
      ['customer_id=42', 'customer_id'],
    ] as const) {
      const body = await expectJson<{ error: { code: string; message: string } }>(await h.request('GET', `/admin/v1/audit-log?${query}`), 400);
      expect(body.error.message).toContain(field);
    }
    expect((await h.request('GET', '/admin/v1/audit-log/01900000-0000-7000-8000-000000000000')).status).toBe(404);
  });

  it('is for admins only', async () => {
    const { customer } = await createCustomer('Audit Private');
    expect((await h.request('GET', '/admin/v1/audit-log', { as: { customer: customer.id } })).status).toBe(403);
  });

  it('is append-only: the database refuses to change or remove an entry', async () => {
    const { customer } = await createCustomer('Audit Immutable');
    await expect(h.deps.pool.query(`UPDATE audit_log SET action = 'customer.forged' WHERE entity_id = $1`, [customer.id])).rejects.toThrow();
    await expect(h.deps.pool.query(`DELETE FROM audit_log WHERE entity_id = $1`, [customer.id])).rejects.toThrow();
    await expect(h.deps.pool.query('TRUNCATE audit_log')).rejects.toThrow(/append-only/);
    expect((await audit(`entity_id=${customer.id}`)).data.map((e) => e.action)).toEqual(['customer.created']);
  });
});

describe('changes workflows make on their own', () => {
  it('records the period close and the finalization of a test-clock advance with the workflow actor, no request id', async () => {
    const clock = await expectJson<{ id: string }>(await h.request('POST', '/admin/v1/test-clocks', { body: { name: 'audit workflow actor', frozen_time: '2026-03-01T00:00:00Z' } }), 201);
    const customer = await expectJson<{ id: string }>(
      await h.request('POST', '/admin/v1/customers', { body: { display_name: 'Audit Clock', email: 'clock@audit.test', currency: 'USD', account_type: 'Organization', test_clock_id: clock.id } }),
      201,
    );
    const subscription = await expectJson<{ id: string }>(
      await h.request('POST', '/v1/subscriptions', { body: { customer_id: customer.id, plan_id: await makePlan(h.deps.db), currency: 'USD' } }),
      201,
    );
    // Past the period end and the invoice's grace: the subscription workflow bills the period and finalizes its Draft.
    await advanceClock(h, clock.id, '2026-04-01T02:00:00Z');
    const invoices = (await expectPage<{ id: string; status: string }>(await h.request('GET', `/admin/v1/invoices?subscription_id=${subscription.id}`))).data;
    expect(invoices.map((i) => i.status)).toEqual(['Open']);
    const invoiceId = invoices[0]!.id;

    const workflow = { actor_type: 'workflow', actor_id: subscriptionWorkflowId(subscription.id), request_id: null };
    const entries = (await audit(`entity_id=${invoiceId}`)).data;
    const created = entries.find((e) => e.action === 'invoice.created');
    expect(created).toMatchObject({ ...workflow, entity_type: 'invoice', customer_id: customer.id, before: null });
    expect(created!.after).toMatchObject({ status: 'Draft', billed_subscription_id: subscription.id, total_nanos: '49000000000000' });
    const finalized = entries.find((e) => e.action === 'invoice.finalized');
    expect(finalized).toMatchObject(workflow);
    expect(finalized!.before).toMatchObject({ status: 'Draft' });
    expect(finalized!.after).toMatchObject({ status: 'Open' });

    // The same entries through the actor filter, and nothing of the subscription's own creation (the admin's) among them.
    const byWorkflow = await audit(`actor_type=workflow&actor_id=${encodeURIComponent(workflow.actor_id)}`);
    expect(byWorkflow.data.map((e) => e.action)).toEqual(expect.arrayContaining(['invoice.created', 'invoice.finalized']));
    expect(byWorkflow.data.every((e) => e.actor_type === 'workflow' && e.request_id === null)).toBe(true);
    const subscriptionCreated = (await audit(`entity_id=${subscription.id}&action=subscription.created`)).data;
    expect(subscriptionCreated).toEqual([expect.objectContaining({ actor_type: 'admin', actor_id: 'test-admin' })]);
  });

  it("records a spend alert's trigger with the workflow actor", async () => {
    const customer = await createCustomer('Audit Alert');
    const subscription = await expectJson<{ id: string }>(
      await h.request('POST', '/v1/subscriptions', { body: { customer_id: customer.customer.id, plan_id: await makePlan(h.deps.db, { flatNanos: null }), currency: 'USD' } }),
      201,
    );
    const alerts = `/admin/v1/customers/${customer.customer.id}/alerts`;
    const alert = await expectJson<{ id: string }>(await h.request('POST', alerts, { body: { alert_type: 'SoftLimit', threshold_nanos: '10000000000' } }), 201);
    await sendUsage(h, customer.customer.id, subscription.id, 3, new Date().toISOString());
    const triggered = await eventually(async () => {
      const [entry] = (await audit(`entity_id=${alert.id}&action=spend_alert.triggered`)).data;
      expect(entry).toBeDefined();
      return entry!;
    }, 30_000);
    expect(triggered.actor_type).toBe('workflow');
    expect(triggered.actor_id).toBe(spendAlertWorkflowId(customer.customer.id));
    expect(triggered.request_id).toBeNull();
  });
});
