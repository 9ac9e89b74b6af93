/**
 * Invoicing end to end through the API, PostgreSQL and the Temporal server: subscriptions on test
 * clocks are billed period after period by their workflows; invoices move through their own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceWorkflowId, subscriptionWorkflowId } from '../../workflows/messages.js';
import { captureHistory } from '../support/histories.js';
import { makeCustomer, makePlan, makeTestClock, type CustomerOptions, type PlanOptions } from '../support/fixtures.js';
import { createHarness, expectJson, expectPage, type Harness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

interface Line {
  kind: string;
  description: string;
  quantity: string;
  amount_nanos: string;
  sku_id: string | null;
  customer_id: string | null;
  customer_name: string | null;
}
interface Invoice {
  id: string;
  status: string;
  invoice_number: string | null;
  customer_id: string;
  currency: string;
  total_nanos: string;
  total: string;
  billing_reason: string;
  period_start: string;
  line_items: Line[];
}


const UNIT = 1_000_000_000_000n;
const advance = async (clockId: string, to: string) => expectJson(await h.request('POST', `/admin/v1/test-clocks/${clockId}/advance`, { body: { frozen_time: to } }));
const invoicesOf = async (subscriptionId: string) =>
  (await expectPage<Invoice>(await h.request('GET', `/admin/v1/invoices?subscription_id=${subscriptionId}&limit=200`))).data;
const invoiceNumber = (invoice: Invoice) => Number(invoice.invoice_number!.slice(4));

let eventSeq = 0;
async function sendUsage(customerId: string, subscriptionId: string, count: number, timestamp: string, eventType = 'api_calls') {
  const events = Array.from({ length: count }, () => ({
    id: `evt-${process.pid}-${(eventSeq += 1)}`,
    event_type: eventType,
    customer_id: customerId,
    subscription_id: subscriptionId,
    timestamp,
    properties: {},
  }));
  for (let i = 0; i < events.length; i += 1000) {
    const res = await h.request('POST', '/v1/events/batch', { body: { events: events.slice(i, i + 1000) } });
    expect([200, 201, 202], await res.clone().text()).toContain(res.status);
  }
}

async function subscribeOnClock(start: string, plan: PlanOptions = {}, customer: CustomerOptions = {}, extra: Record<string, unknown> = {}) {
  const clockId = await makeTestClock(h.deps.db, start);
  const customerId = await makeCustomer(h.deps.db, { testClockId: clockId, ...customer });
  const planId = await makePlan(h.deps.db, plan);
  const subscription = await expectJson<{ id: string; status: string }>(
    await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: plan.currency ?? 'USD', ...extra } }),
    201,
  );
  return { clockId, customerId, planId, subscriptionId: subscription.id };
}

describe('billing periods on a test clock', () => {
  it('bills three months of usage into three invoices with consecutive numbers, takes payment, issues a credit note and prorates a plan change', async () => {
    const { clockId, customerId, subscriptionId } = await subscribeOnClock('2026-01-01T00:00:00.000Z');

    const usage = [
      { calls: 1000, at: '2026-01-15T12:00:00.000Z', close: '2026-02-01T00:00:00.000Z', total: 59n * UNIT },
      { calls: 2500, at: '2026-02-10T12:00:00.000Z', close: '2026-03-01T00:00:00.000Z', total: 74n * UNIT },
      { calls: 333, at: '2026-03-31T23:00:00.000Z', close: '2026-04-01T00:00:00.000Z', total: 5233n * (UNIT / 100n) },
    ];
    for (const period of usage) {
      await advance(clockId, period.at);
      await sendUsage(customerId, subscriptionId, period.calls, period.at);
      await advance(clockId, period.close);
    }

    const invoices = await invoicesOf(subscriptionId);
    expect(invoices.map((i) => [i.status, i.total_nanos, i.billing_reason])).toEqual(
      usage.map((p) => ['Open', p.total.toString(), 'subscription_cycle']),
    );
    expect(invoices.map((i) => i.total)).toEqual(['59.00', '74.00', '52.33']);
    const numbers = invoices.map(invoiceNumber);
    expect(numbers).toEqual([numbers[0], numbers[0]! + 1, numbers[0]! + 2]);
    expect(invoices[1]!.line_items.map((l) => [l.kind, l.quantity, l.amount_nanos])).toEqual([
      ['fee', '1', (49n * UNIT).toString()],
      ['usage', '2500', (25n * UNIT).toString()],
    ]);

    for (const invoice of invoices) {
      const paid = await expectJson<Invoice>(await h.request('POST', `/admin/v1/invoices/${invoice.id}/pay`, { body: { actor_id: 'ops-1', actor_name: 'Ops' } }));
      expect(paid.status).toBe('Paid');
    }
    const subscription = await h.deps.db.subscription.findUniqueOrThrow({ where: { id: subscriptionId } });
    expect(subscription.chargedThroughDate?.toISOString()).toBe('2026-04-01T00:00:00.000Z');
    expect(subscription.periodStart.toISOString()).toBe('2026-04-01T00:00:00.000Z');

    const creditNote = await expectJson<{ number: string; amount_nanos: string }>(
      await h.request('POST', `/admin/v1/invoices/${invoices[2]!.id}/credit-notes`, { body: { amount_nanos: (233n * (UNIT / 100n)).toString(), reason: 'product_unsatisfactory' } }),
      201,
    );
    expect(creditNote.number).toMatch(/^CN-\d{6}$/);

    // April: the 49.00 fee is invoiced on day 1, then on April 11 the customer moves to a 99.00 plan:
    // 10 of 30 days were used on the old plan, 20 remain on the new one.
    await advance(clockId, '2026-04-01T06:00:00.000Z');
    const april = await expectJson<Invoice>(await h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/bill`), 201);
    expect(april.total_nanos).toBe((49n * UNIT).toString());
    await expectJson(await h.request('POST', `/admin/v1/invoices/${april.id}/finalize`));
    await advance(clockId, '2026-04-11T00:00:00.000Z');
    const premiumPlan = await makePlan(h.deps.db, { flatNanos: 99n * UNIT });
    const change = await expectJson<{ subscription: { plan_id: string }; invoice: Invoice }>(
      await h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/change-plan`, { body: { plan_id: premiumPlan } }),
    );
    expect(change.subscription.plan_id).toBe(premiumPlan);
    const fees = change.invoice.line_items.filter((l) => l.kind === 'fee').map((l) => l.amount_nanos);
    expect(fees).toEqual(['-32666666666667', (66n * UNIT).toString()]);
    expect(change.invoice).toMatchObject({ status: 'Draft', billing_reason: 'plan_change', total_nanos: '33333333333333', total: '33.33' });
    const finalized = await expectJson<Invoice>(await h.request('POST', `/admin/v1/invoices/${change.invoice.id}/finalize`));
    expect(invoiceNumber(finalized)).toBe(numbers[0]! + 4);

    await captureHistory(h.deps.temporal.client.workflow.getHandle(invoiceWorkflowId(invoices[0]!.id)), 'period-invoice-finalized-paid');
    await advance(clockId, '2026-05-01T00:00:00.000Z');
    const subscriptionHandle = h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId));
    await expectJson(await h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/cancel`));
    await advance(clockId, '2026-06-01T00:00:00.000Z');
    await subscriptionHandle.result();
    await captureHistory(subscriptionHandle, 'four-periods-billed-plan-change-cancelled');

    const events = await h.deps.db.outboxEvent.findMany({ where: { aggregateId: { in: invoices.map((i) => i.id) } }, orderBy: { id: 'asc' } });
    expect(events.filter((e) => e.type === 'invoice.finalized')).toHaveLength(3);
    expect(events.filter((e) => e.type === 'invoice.paid')).toHaveLength(3);
    expect(events.find((e) => e.type === 'invoice.finalized')!.payload).toMatchObject({
      data: { invoice_id: invoices[0]!.id, customer_id: customerId, invoice_number: invoices[0]!.invoice_number, total_nanos: (59n * UNIT).toString(), currency: 'USD' },
    });
  });

  it('never creates two invoices for one period, and refuses invalid invoice moves', async () => {
    const { clockId, subscriptionId } = await subscribeOnClock('2026-07-01T00:00:00.000Z');
    await advance(clockId, '2026-07-05T00:00:00.000Z');
    const first = await expectJson<Invoice>(await h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/bill`), 201);
    const second = await expectJson<Invoice>(await h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/bill`), 200);
    expect(second.id).toBe(first.id);
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/bill`)));
    expect(concurrent.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await h.deps.db.invoice.count({ where: { subscriptionId } })).toBe(1);

    const pay = (id: string) => h.request('POST', `/admin/v1/invoices/${id}/pay`, { body: { actor_id: 'a', actor_name: 'A' } });
    const expectInvalid = async (res: Response, from: string) => {
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ error: { code: 'invalid_state_transition', details: { from } } });
    };
    await expectInvalid(await pay(first.id), 'Draft');
    await expectInvalid(await h.request('POST', `/admin/v1/invoices/${first.id}/void`), 'Draft');
    await expectJson(await h.request('POST', `/admin/v1/invoices/${first.id}/finalize`));
    await expectInvalid(await h.request('POST', `/admin/v1/invoices/${first.id}/finalize`), 'Open');
    await expectJson(await pay(first.id));
    await expectInvalid(await h.request('POST', `/admin/v1/invoices/${first.id}/void`), 'Paid');
    await expect(
      h.deps.db.$executeRaw`UPDATE invoices SET total_nanos = 1 WHERE id = ${first.id}::uuid`,
    ).rejects.toThrow(/immutable/);
    await expect(h.deps.db.$executeRaw`DELETE FROM invoice_line_items WHERE invoice_id = ${first.id}::uuid`).rejects.toThrow(/immutable/);

    // The period's remaining usage goes on a new Draft at period end; nothing is billed twice.
    await advance(clockId, '2026-08-01T00:00:00.000Z');
    const all = await invoicesOf(subscriptionId);
    expect(all).toHaveLength(1);
    const voidable = await expectJson<Invoice>(await h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/bill`), 201);
    await expectJson(await h.request('POST', `/admin/v1/invoices/${voidable.id}/finalize`));
    expect((await expectJson<Invoice>(await h.request('POST', `/admin/v1/invoices/${voidable.id}/void`, { body: { reason: 'duplicate' } }))).status).toBe('Void');
    await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId)).terminate('test done');
  });

  it('finalizes the Draft when accrued charges reach the progressive threshold and bills the rest at period end', async () => {
    const { clockId, customerId, subscriptionId } = await subscribeOnClock(
      '2026-01-01T00:00:00.000Z',
      { flatNanos: null },
      {},
      { progressive_threshold_nanos: (5n * UNIT).toString() },
    );
    await advance(clockId, '2026-01-02T10:00:00.000Z');
    await sendUsage(customerId, subscriptionId, 600, '2026-01-02T10:00:00.000Z');
    await advance(clockId, '2026-01-04T00:00:00.000Z');
    let invoices = await invoicesOf(subscriptionId);
    expect(invoices.map((i) => [i.status, i.billing_reason, i.total_nanos])).toEqual([['Open', 'threshold', (6n * UNIT).toString()]]);

    await advance(clockId, '2026-01-20T10:00:00.000Z');
    await sendUsage(customerId, subscriptionId, 100, '2026-01-20T10:00:00.000Z');
    await advance(clockId, '2026-02-01T00:00:00.000Z');
    invoices = (await invoicesOf(subscriptionId)).filter((i) => i.period_start === '2026-01-01T00:00:00.000Z');
    expect(invoices.map((i) => [i.status, i.total_nanos])).toEqual([
      ['Open', (6n * UNIT).toString()],
      ['Open', (1n * UNIT).toString()],
    ]);
    expect(invoices[1]!.line_items.map((l) => l.quantity)).toEqual(['100']);
    await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId)).terminate('test done');
  });
});

describe('who receives the invoice', () => {
  it('puts a consolidating subsidiary\'s charges on its parent\'s invoice, naming the subsidiary on each line', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const parentId = await makeCustomer(h.deps.db, { testClockId: clockId });
    const childId = await makeCustomer(h.deps.db, { testClockId: clockId, parentId, consolidateToParent: true });
    const planId = await makePlan(h.deps.db);
    const sub = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: childId, plan_id: planId, currency: 'USD' } }), 201);
    await advance(clockId, '2026-02-01T00:00:00.000Z');
    const [invoice] = await invoicesOf(sub.id);
    expect(invoice!.customer_id).toBe(parentId);
    expect(new Set(invoice!.line_items.map((l) => l.customer_id))).toEqual(new Set([childId]));
    expect(invoice!.line_items[0]!.customer_name).toMatch(/^Customer /);
    await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(sub.id)).terminate('test done');
  });

  it('sends the invoice to bill_to and keeps one invoice per currency', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const payerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId, billToId: payerId });
    const subs = [];
    for (const currency of ['USD', 'EUR']) {
      const planId = await makePlan(h.deps.db, { currency });
      subs.push(await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency } }), 201));
    }
    await advance(clockId, '2026-02-01T00:00:00.000Z');
    const invoices = (await expectPage<Invoice>(await h.request('GET', `/admin/v1/invoices?customer_id=${payerId}`))).data;
    expect(invoices.map((i) => i.currency).sort()).toEqual(['EUR', 'USD']);
    expect(invoices.every((i) => i.line_items.every((l) => l.customer_id === customerId))).toBe(true);
    for (const sub of subs) await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(sub.id)).terminate('test done');
  });
});

describe('finalize concurrency', () => {
  it('gives 50 concurrently finalized Drafts 50 distinct consecutive numbers', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    const ids: string[] = [];
    for (let i = 0; i < 50; i += 1) {
      const planId = await makePlan(h.deps.db);
      const sub = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
      ids.push((await expectJson<Invoice>(await h.request('POST', `/admin/v1/subscriptions/${sub.id}/bill`), 201)).id);
    }
    const results = await Promise.all(ids.map((id) => h.request('POST', `/admin/v1/invoices/${id}/finalize`)));
    const bodies = await Promise.all(results.map((r) => r.json() as Promise<Invoice>));
    expect(results.map((r) => r.status)).toEqual(ids.map(() => 200));
    const numbers = bodies.map(invoiceNumber).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(50);
    expect(numbers[49]! - numbers[0]!).toBe(49);
    const counter = await h.deps.db.documentCounter.findUniqueOrThrow({ where: { name: 'invoice' } });
    const highest = await h.deps.db.invoice.count({ where: { invoiceNumber: { not: null } } });
    expect(Number(counter.value)).toBe(highest);
    const subs = await h.deps.db.subscription.findMany({ where: { customerId }, select: { id: true } });
    await Promise.all(subs.map((s) => h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(s.id)).terminate('test done')));
  });
});
