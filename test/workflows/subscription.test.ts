/**
 * Subscriptions end to end: the API, PostgreSQL and the subscription workflow on the real Temporal
 * server, on test clocks so months pass in seconds.
 */
import { describe, expect, it } from 'vitest';
import { nextWakeQuery } from '../../workflows/shared/messages.js';
import { processorEventWorkflowId } from '../../workflows/processor-event/messages.js';
import { subscriptionStateQuery, subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { advanceClock } from '../support/clock-usage.js';
import { captureHistory } from '../support/histories.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { expectJson, expectPage, useHarness } from '../support/harness.js';
import { invoicesOf as readInvoices } from '../support/invoices.js';
import { attachCard, autoChargeOf, eventually, intentEvent, notify } from '../support/payments.js';
import { insertLines, recomputeTotals } from '../../src/db/invoices.js';
import { newId } from '../../src/ids.js';

const h = useHarness();

interface InvoiceBody {
  id: string;
  status: string;
  billing_reason: string;
  total: string;
  finalized_at: string | null;
  period_start: string;
  line_items: { kind: string; amount_nanos: string; subscription_id: string | null }[];
}

const invoicesOf = async (subscriptionId: string) =>
  readInvoices<InvoiceBody>(h, `subscription_id=${subscriptionId}`);

interface SubscriptionBody {
  id: string;
  status: string;
  period_start: string;
  period_end: string;
  trial_end: string | null;
  customer_id: string;
  cancelled_at: string | null;
}


const advance = (clockId: string, to: string) => advanceClock(h, clockId, to);

async function onClock(start: string, options: { trialDays?: number } = {}) {
  const clockId = await makeTestClock(h.deps.db, start);
  const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
  const planId = await makePlan(h.deps.db, { trialDays: options.trialDays ?? 0 });
  const subscription = await expectJson<SubscriptionBody>(
    await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD', trial_days: options.trialDays ?? 0 } }),
    201,
  );
  return { clockId, customerId, planId, subscription };
}

const move = (id: string, action: 'pause' | 'resume' | 'cancel') => h.request('POST', `/admin/v1/subscriptions/${id}/${action}`);

describe('subscription lifecycle', () => {
  it('goes Trialing → Active → Paused → Active → Cancelled → Expired, recorded in the database and the workflow', async () => {
    const { clockId, customerId, subscription } = await onClock('2026-01-31T09:00:00.000Z', { trialDays: 14 });
    expect(subscription).toMatchObject({
      status: 'Trialing',
      period_start: '2026-01-31T09:00:00.000Z',
      period_end: '2026-02-14T09:00:00.000Z',
      trial_end: '2026-02-14T09:00:00.000Z',
    });

    await advance(clockId, '2026-02-14T09:00:00.000Z');
    const active = await expectJson<SubscriptionBody>(await h.request('GET', `/v1/subscriptions/${subscription.id}`));
    expect(active).toMatchObject({ status: 'Active', period_start: '2026-02-14T09:00:00.000Z', period_end: '2026-03-14T09:00:00.000Z' });

    expect((await expectJson<SubscriptionBody>(await move(subscription.id, 'pause'))).status).toBe('Paused');
    expect((await expectJson<SubscriptionBody>(await move(subscription.id, 'resume'))).status).toBe('Active');
    const cancelled = await expectJson<SubscriptionBody>(await move(subscription.id, 'cancel'));
    expect(cancelled.status).toBe('Cancelled');
    expect(cancelled.cancelled_at).toBe('2026-02-14T09:00:00.000Z');

    const resumeCancelled = await h.request('POST', `/admin/v1/subscriptions/${subscription.id}/resume`);
    expect(resumeCancelled.status).toBe(409);
    expect(await resumeCancelled.json()).toMatchObject({ error: { code: 'invalid_state_transition' } });

    await advance(clockId, '2026-03-14T09:00:00.000Z');
    expect((await expectJson<SubscriptionBody>(await h.request('GET', `/v1/subscriptions/${subscription.id}`))).status).toBe('Expired');

    // The cancelled period is billed when it ends (the whole fee: a cancellation takes effect at
    // the period end) and its invoice is finalized once the grace period is over; then the
    // workflow ends.
    const handle = h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscription.id));
    const [draft] = await invoicesOf(subscription.id);
    expect(draft).toMatchObject({ status: 'Draft', billing_reason: 'subscription_final', total: '49.00' });
    expect((await handle.describe()).status.name).toBe('RUNNING');
    await advance(clockId, '2026-03-14T10:00:00.000Z');
    expect(await handle.result()).toMatchObject({ status: 'Expired' });
    const [final] = await invoicesOf(subscription.id);
    expect(final).toMatchObject({ id: draft!.id, status: 'Open', finalized_at: '2026-03-14T10:00:00.000Z', total: '49.00' });
    await captureHistory(handle, 'trial-active-paused-active-cancelled-expired');

    const audit = await h.deps.db.auditLogEntry.findMany({ where: { entityId: subscription.id }, orderBy: { id: 'asc' } });
    expect(audit.map((a) => a.action)).toEqual([
      'subscription.created',
      'subscription.active',
      'subscription.paused',
      'subscription.active',
      'subscription.cancelled',
      'subscription.expired',
    ]);
    expect(audit[2]!.actorType).toBe('admin');
    // The trial's end is the workflow's own move: the workflow actor, no request id.
    expect(audit[1]).toMatchObject({ actorType: 'workflow', actorId: subscriptionWorkflowId(subscription.id), requestId: null });
    const events = await h.deps.db.outboxEvent.findMany({ where: { aggregateId: subscription.id }, orderBy: { id: 'asc' } });
    expect(events.map((e) => e.type)).toEqual(['subscription.created', 'subscription.cancelled']);
    expect(events[1]!.payload).toMatchObject({ type: 'subscription.cancelled', data: { subscription_id: subscription.id, customer_id: customerId } });
  });

  it('rejects moves the state machine does not allow, without recording anything', async () => {
    const { subscription } = await onClock('2026-05-01T00:00:00.000Z', { trialDays: 7 });
    for (const action of ['pause', 'resume'] as const) {
      const res = await move(subscription.id, action);
      expect(res.status, action).toBe(409);
      expect(await res.json()).toMatchObject({ error: { code: 'invalid_state_transition', details: { from: 'Trialing', action } } });
    }
    const audit = await h.deps.db.auditLogEntry.count({ where: { entityId: subscription.id } });
    expect(audit).toBe(1);
    const state = await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscription.id)).query(subscriptionStateQuery);
    expect(state.status).toBe('Trialing');
  });

  it('rolls monthly periods on the anchor day across short months', async () => {
    const { clockId, subscription } = await onClock('2024-01-31T12:00:00.000Z');
    expect(subscription).toMatchObject({ status: 'Active', period_end: '2024-02-29T12:00:00.000Z' });
    await advance(clockId, '2024-04-30T12:00:00.000Z');
    const row = await expectJson<SubscriptionBody>(await h.request('GET', `/v1/subscriptions/${subscription.id}`));
    expect(row).toMatchObject({ status: 'Active', period_start: '2024-04-30T12:00:00.000Z', period_end: '2024-05-31T12:00:00.000Z' });
  });

  it('cancels a subscription still Paused when its period ends, then expires it', async () => {
    const { clockId, subscription } = await onClock('2026-03-01T00:00:00.000Z');
    await expectJson(await move(subscription.id, 'pause'));
    await advance(clockId, '2026-04-01T00:00:00.000Z');
    const row = await h.deps.db.subscription.findUniqueOrThrow({ where: { id: subscription.id } });
    expect(row.status).toBe('Expired');
    const actions = (await h.deps.db.auditLogEntry.findMany({ where: { entityId: subscription.id }, orderBy: { id: 'asc' } })).map((a) => a.action);
    expect(actions).toEqual(['subscription.created', 'subscription.paused', 'subscription.cancelled', 'subscription.expired']);
    // The paused period is billed like any other: usage to date and the fee charged in advance.
    const [invoice] = await invoicesOf(subscription.id);
    expect(invoice).toMatchObject({ status: 'Draft', billing_reason: 'subscription_final', total: '49.00' });
    await advance(clockId, '2026-04-01T01:00:00.000Z');
    expect((await invoicesOf(subscription.id)).map((i) => i.status)).toEqual(['Open']);
  });

  it('bills nothing for a trial cancelled before it ends', async () => {
    const { clockId, subscription } = await onClock('2026-06-01T00:00:00.000Z', { trialDays: 10 });
    expect((await expectJson<SubscriptionBody>(await move(subscription.id, 'cancel'))).status).toBe('Cancelled');
    await advance(clockId, '2026-06-11T01:00:00.000Z');
    const handle = h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscription.id));
    expect(await handle.result()).toMatchObject({ status: 'Expired' });
    expect(await invoicesOf(subscription.id)).toEqual([]);
  });

  it('ends the trial when an invoice of the Trialing subscription is paid, collected or by hand: Active from the payment (SPEC §3)', async () => {
    for (const how of ['collected', 'paid by hand'] as const) {
      const { clockId, customerId, subscription } = await onClock('2026-01-31T09:00:00.000Z', { trialDays: 14 });
      if (how === 'collected') await attachCard(h, customerId);
      // Mid-trial, an invoice of the subscription (a one-off fee) is finalized.
      await advance(clockId, '2026-02-03T09:00:00.000Z');
      const invoiceId = newId();
      await h.deps.db.$transaction(async (tx) => {
        await tx.invoice.create({ data: { id: invoiceId, customerId, subscriptionId: subscription.id, testClockId: clockId, currency: 'USD', billingReason: 'manual' } });
        await insertLines(tx, invoiceId, [{ kind: 'fee', description: 'Onboarding', amountNanos: 25n * 1_000_000_000_000n }]);
        await recomputeTotals(tx, invoiceId);
      });
      expect((await expectJson<{ status: string }>(await h.request('POST', `/admin/v1/invoices/${invoiceId}/finalize`))).status).toBe('Open');
      if (how === 'collected') {
        // The auto-charge fails at stripe-mock (the trial goes on), then the processor collects it.
        const charge = await autoChargeOf(h, invoiceId);
        expect((await expectJson<SubscriptionBody>(await h.request('GET', `/v1/subscriptions/${subscription.id}`))).status).toBe('Trialing');
        const receipt = await expectJson<{ event_id: string }>(await notify(h, intentEvent('payment_intent.succeeded', charge)));
        expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(receipt.event_id)).result()).toBe('payment_succeeded');
      } else {
        await expectJson(await h.request('POST', `/admin/v1/invoices/${invoiceId}/pay`, { body: { actor_id: 'ops-1', actor_name: 'Ops' } }));
      }
      // The trial ends at the payment, and the first paid period starts then.
      const active = await eventually(async () => {
        const current = await expectJson<SubscriptionBody>(await h.request('GET', `/v1/subscriptions/${subscription.id}`));
        expect(current.status, how).toBe('Active');
        return current;
      });
      expect(active, how).toMatchObject({ period_start: '2026-02-03T09:00:00.000Z', period_end: '2026-03-03T09:00:00.000Z', trial_end: '2026-02-03T09:00:00.000Z' });
      const handle = h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscription.id));
      // The row moves inside the workflow's activity; the workflow's own state once that activity answered.
      await eventually(async () => expect(await handle.query(subscriptionStateQuery), how).toMatchObject({ status: 'Active', periodEnd: '2026-03-03T09:00:00.000Z' }));
      expect(await handle.query(nextWakeQuery), how).toBe('2026-03-03T09:00:00.000Z');
      const moved = await h.deps.db.auditLogEntry.findFirstOrThrow({ where: { entityId: subscription.id, action: 'subscription.active' } });
      expect([moved.actorType, (moved.after as { reason: string }).reason], how).toEqual(['workflow', `payment_succeeded:${invoiceId}`]);
      if (how === 'collected') await captureHistory(handle, 'trial-ended-by-collected-payment');
      await handle.terminate('test done');
    }
  });

  it('refuses every move the state machine does not allow, in every state, with nothing recorded', async () => {
    const { clockId, subscription } = await onClock('2026-08-01T00:00:00.000Z');
    const refused = async (action: 'pause' | 'resume' | 'cancel', from: string) => {
      const before = await h.deps.db.auditLogEntry.count({ where: { entityId: subscription.id } });
      const res = await move(subscription.id, action);
      expect(res.status, `${action} from ${from}`).toBe(409);
      expect(await res.json()).toMatchObject({ error: { code: 'invalid_state_transition' } });
      expect(await h.deps.db.auditLogEntry.count({ where: { entityId: subscription.id } })).toBe(before);
    };
    await refused('resume', 'Active');
    await expectJson(await move(subscription.id, 'pause'));
    await refused('pause', 'Paused');
    await expectJson(await move(subscription.id, 'cancel'));
    for (const action of ['pause', 'resume', 'cancel'] as const) await refused(action, 'Cancelled');
    await advance(clockId, '2026-09-01T01:00:00.000Z');
    await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscription.id)).result();
    // The workflow of an Expired subscription has ended: every move is refused the same way.
    for (const action of ['pause', 'resume', 'cancel'] as const) await refused(action, 'Expired');
    expect((await h.request('POST', `/admin/v1/subscriptions/${subscription.id}/bill`)).status).toBe(409);
  });

  it('serialises concurrent moves: each one either applies to the state it finds or is refused', async () => {
    const { subscription } = await onClock('2026-10-01T00:00:00.000Z');
    const actions = ['pause', 'resume', 'pause', 'cancel', 'resume', 'pause', 'cancel', 'resume'] as const;
    const responses = await Promise.all(actions.map((action) => move(subscription.id, action)));
    expect(responses.every((r) => r.status === 200 || r.status === 409), JSON.stringify(responses.map((r) => r.status))).toBe(true);
    const audit = await h.deps.db.auditLogEntry.findMany({ where: { entityId: subscription.id }, orderBy: { id: 'asc' } });
    // Every recorded move starts from the state the previous one left.
    let status = 'Active';
    for (const entry of audit.slice(1)) {
      expect((entry.before as { status: string }).status).toBe(status);
      status = (entry.after as { status: string }).status;
    }
    expect(audit.length - 1).toBe(responses.filter((r) => r.status === 200).length);
    const row = await h.deps.db.subscription.findUniqueOrThrow({ where: { id: subscription.id } });
    expect(row.status).toBe(status);
    await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscription.id)).terminate('test done');
  });

  it.each([
    ['Quarterly', '2026-04-15T08:00:00.000Z'],
    ['SemiAnnual', '2026-07-15T08:00:00.000Z'],
    ['Annual', '2027-01-15T08:00:00.000Z'],
  ] as const)('runs %s periods from the plan cadence', async (cadence, end) => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-15T08:00:00.000Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    const planId = await makePlan(h.deps.db, { cadence });
    const subscription = await expectJson<SubscriptionBody>(
      await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }),
      201,
    );
    expect(subscription).toMatchObject({ status: 'Active', period_start: '2026-01-15T08:00:00.000Z', period_end: end });
    await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscription.id)).terminate('test done');
  });

  it('runs real-time subscriptions on Temporal timers and cancels them at once', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const planId = await makePlan(h.deps.db);
    const subscription = await expectJson<SubscriptionBody>(
      await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }),
      201,
    );
    expect(subscription.status).toBe('Active');
    const handle = h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscription.id));
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect(await handle.query(nextWakeQuery)).toBe(subscription.period_end);
    expect((await expectJson<SubscriptionBody>(await move(subscription.id, 'cancel'))).status).toBe('Cancelled');
    const clockless = await h.request('POST', `/admin/v1/test-clocks/${subscription.id}/advance`, { body: { frozen_time: '2030-01-01T00:00:00Z' } });
    expect(clockless.status).toBe(404);
    await handle.terminate('test done');
  });
});

describe('POST /v1/subscriptions validation', () => {
  it.each(['Suspended', 'Closed'] as const)('refuses a %s customer and stores nothing', async (status) => {
    const customerId = await makeCustomer(h.deps.db);
    await h.deps.db.customer.update({ where: { id: customerId }, data: { status } });
    const res = await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: await makePlan(h.deps.db), currency: 'USD' } });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: { code: 'customer_not_active' } });
    expect(await h.deps.db.subscription.count({ where: { customerId } })).toBe(0);
  });

  it('replays a create sent twice with one Idempotency-Key: one subscription, one workflow', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const body = { customer_id: customerId, plan_id: await makePlan(h.deps.db), currency: 'USD' };
    const headers = { 'idempotency-key': `create-${customerId}` };
    const first = await h.request('POST', '/v1/subscriptions', { body, headers });
    const again = await Promise.all([1, 2, 3].map(() => h.request('POST', '/v1/subscriptions', { body, headers })));
    const created = await expectJson<SubscriptionBody>(first, 201);
    for (const res of again) {
      expect(res.status).toBe(201);
      expect(res.headers.get('x-idempotency-replayed')).toBe('true');
      expect(((await res.json()) as SubscriptionBody).id).toBe(created.id);
    }
    expect(await h.deps.db.subscription.count({ where: { customerId } })).toBe(1);
    const runs = h.deps.temporal.client.workflow.list({ query: `WorkflowId = '${subscriptionWorkflowId(created.id)}'` });
    let count = 0;
    for await (const _run of runs) count += 1;
    expect(count).toBe(1);
    await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(created.id)).terminate('test done');
  });

  it.each([
    ['an unknown customer', async () => ({ customer_id: '01900000-0000-7000-8000-00000000dead', plan_id: await makePlan(h.deps.db), currency: 'USD' }), 404, 'customer_not_found'],
    ['an unknown plan', async () => ({ customer_id: await makeCustomer(h.deps.db), plan_id: '01900000-0000-7000-8000-00000000beef', currency: 'USD' }), 404, 'plan_not_found'],
    ['a currency other than the plan\'s', async () => ({ customer_id: await makeCustomer(h.deps.db), plan_id: await makePlan(h.deps.db), currency: 'EUR' }), 422, 'currency_mismatch'],
    ['a plan without SKUs', async () => ({ customer_id: await makeCustomer(h.deps.db), plan_id: await makePlan(h.deps.db, { skus: false }), currency: 'USD' }), 422, 'plan_has_no_skus'],
    ['a lower-case currency', async () => ({ customer_id: await makeCustomer(h.deps.db), plan_id: await makePlan(h.deps.db), currency: 'usd' }), 400, 'validation_failed'],
    ['a negative trial', async () => ({ customer_id: await makeCustomer(h.deps.db), plan_id: await makePlan(h.deps.db), currency: 'USD', trial_days: -1 }), 400, 'validation_failed'],
  ])('refuses %s and stores nothing', async (_name, body, status, code) => {
    const before = await h.deps.db.subscription.count();
    const res = await h.request('POST', '/v1/subscriptions', { body: await body() });
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ error: { code } });
    expect(await h.deps.db.subscription.count()).toBe(before);
  });

  it('lets a customer token subscribe and read only its own customer', async () => {
    const mine = await makeCustomer(h.deps.db);
    const theirs = await makeCustomer(h.deps.db);
    const planId = await makePlan(h.deps.db);
    const forOther = await h.request('POST', '/v1/subscriptions', { as: { customer: mine }, body: { customer_id: theirs, plan_id: planId, currency: 'USD' } });
    expect(forOther.status).toBe(404);
    const own = await expectJson<SubscriptionBody>(
      await h.request('POST', '/v1/subscriptions', { as: { customer: mine }, body: { customer_id: mine, plan_id: planId, currency: 'USD' } }),
      201,
    );
    expect((await h.request('GET', `/v1/subscriptions/${own.id}`, { as: { customer: mine } })).status).toBe(200);
    expect((await h.request('GET', `/v1/subscriptions/${own.id}`, { as: { customer: theirs } })).status).toBe(404);
    expect((await h.request('POST', `/admin/v1/subscriptions/${own.id}/cancel`, { as: { customer: mine } })).status).toBe(403);
    await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(own.id)).terminate('test done');
  });
});

describe('GET /v1/subscriptions', () => {
  it('lists newest first with customer and status filters; a customer token sees only its own', async () => {
    const mine = await makeCustomer(h.deps.db);
    const theirs = await makeCustomer(h.deps.db);
    const planId = await makePlan(h.deps.db);
    const subscribe = async (customerId: string) =>
      (await expectJson<SubscriptionBody>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201)).id;
    const own = [await subscribe(mine), await subscribe(mine), await subscribe(mine)];
    const other = await subscribe(theirs);
    await expectJson(await move(own[1]!, 'cancel'));

    const first = await expectPage<SubscriptionBody>(await h.request('GET', `/v1/subscriptions?customer_id=${mine}&limit=2`));
    expect(first.data.map((sub) => sub.id)).toEqual([own[2], own[1]]);
    const rest = await expectPage<SubscriptionBody>(await h.request('GET', `/v1/subscriptions?customer_id=${mine}&limit=2&starting_after=${first.next_cursor}`));
    expect(rest).toMatchObject({ has_more: false });
    expect(rest.data.map((sub) => sub.id)).toEqual([own[0]]);
    const cancelled = await expectPage<SubscriptionBody>(await h.request('GET', `/v1/subscriptions?customer_id=${mine}&status=Cancelled`));
    expect(cancelled.data.map((sub) => sub.id)).toEqual([own[1]]);

    const asCustomer = await expectPage<SubscriptionBody>(await h.request('GET', '/v1/subscriptions', { as: { customer: mine } }));
    expect(asCustomer.data.map((sub) => sub.id)).toEqual([...own].reverse());
    expect((await h.request('GET', `/v1/subscriptions?customer_id=${theirs}`, { as: { customer: mine } })).status).toBe(404);
    expect((await h.request('GET', '/v1/subscriptions?status=Gone')).status).toBe(400);
    for (const id of [...own, other]) await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(id)).terminate('test done');
  });
});
