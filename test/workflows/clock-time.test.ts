/**
 * Every object of a customer on a test clock carries the clock's time as its own timestamps
 * (created_at, paid_at, …), whichever way it was made: through the API, by a workflow, or by a
 * processor notification. A customer on no clock gets wall time. Audit entries and webhook
 * deliveries are records of what the system did, in real time (docs/workflows-and-operations.md, "Test clocks").
 */
import { describe, expect, it } from 'vitest';
import { dunningWorkflowId } from '../../workflows/dunning/messages.js';
import { processorEventWorkflowId } from '../../workflows/processor-event/messages.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { makePlan } from '../support/fixtures.js';
import { expectJson, expectPage, terminatedAfterAll, useHarness } from '../support/harness.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { attachCard, collectTopUp, dunningOf, eventually, intentEvent, notify, paymentsOf } from '../support/payments.js';

const h = useHarness();
const cleanup = terminatedAfterAll(h);

/** Far from today, so a wall-time stamp can never pass for it. */
const CLOCK_TIME = '2030-03-10T12:00:00.000Z';

interface Stamped {
  id: string;
  created_at: string;
}

/**
 * Makes one of each kind of customer-owned object for a new customer (on a new clock at CLOCK_TIME
 * when `onClock`) through the API, and returns the customer and every timestamp that says when one
 * of them happened, by name.
 */
async function objectTimes(onClock: boolean): Promise<{ customerId: string; times: Record<string, string | null> }> {
  const clock = onClock
    ? await expectJson<{ id: string }>(await h.request('POST', '/admin/v1/test-clocks', { body: { name: 'far ahead', frozen_time: CLOCK_TIME } }), 201)
    : null;
  const customer = await expectJson<Stamped>(
    await h.request('POST', '/admin/v1/customers', {
      body: { display_name: 'Clock Co', email: 'billing@clock.example', currency: 'USD', account_type: 'Organization', test_clock_id: clock?.id ?? null },
    }),
    201,
  );
  const customerId = customer.id;
  const card = await attachCard(h, customerId);
  const planId = await makePlan(h.deps.db);
  const subscription = await expectJson<Stamped>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
  cleanup.push(subscriptionWorkflowId(subscription.id));

  const usageAt = onClock ? CLOCK_TIME : new Date().toISOString();
  await expectJson(await h.request('POST', '/v1/events', { body: { id: `clock-time-${subscription.id}`, event_type: 'api_calls', customer_id: customerId, subscription_id: subscription.id, timestamp: usageAt, properties: {} } }));
  const [usageEvent] = (await expectPage<{ received_at: string }>(await h.request('GET', `/admin/v1/customers/${customerId}/usage-events`))).data;

  const alert = await expectJson<Stamped & { history: { at: string }[] }>(await h.request('POST', `/admin/v1/customers/${customerId}/alerts`, { body: { alert_type: 'SoftLimit', threshold_nanos: (1000n * UNIT).toString() } }), 201);
  const contract = await expectJson<Stamped>(
    await h.request('POST', '/admin/v1/contracts', {
      body: {
        customer_id: customerId,
        name: 'Enterprise',
        start_date: '2031-01-01',
        end_date: '2032-01-01',
        terms: [{ phase: 1, start_date: '2031-01-01', end_date: '2032-01-01', committed_amount_nanos: (1200n * UNIT).toString(), description: 'year one' }],
      },
    }),
    201,
  );
  const link = await expectJson<{ created_at: string }>(
    await h.request('POST', `/admin/v1/contracts/${contract.id}/subscriptions`, { body: { subscription_id: subscription.id, adoption_type: 'PLG' } }),
    201,
  );

  const wallet = `/admin/v1/customers/${customerId}/wallets/USD`;
  const granted = await expectJson<{ created_at: string; grants: { granted_at: string }[] }>(await h.request('POST', `${wallet}/grants`, { body: { amount_nanos: (5n * UNIT).toString() } }), 201);
  // stripe-mock refuses the confirmation; the processor's notification collects it after all.
  const topUp = await expectJson<{ id: string; processor_payment_intent_id: string | null; requested_at: string }>(
    await h.request('POST', `${wallet}/top-ups`, { body: { amount_nanos: (10n * UNIT).toString() } }),
    201,
  );
  expect(await collectTopUp(h, topUp)).toBe('top_up_succeeded');
  const transactions = (await expectPage<{ kind: string; occurred_at: string }>(await h.request('GET', `${wallet}/transactions`))).data;

  // The invoice: billed, finalized (the auto-charge fails at stripe-mock and dunning starts), then
  // collected by the processor's notification about that charge, and partly refunded.
  const draft = await expectJson<Stamped>(await h.request('POST', `/admin/v1/subscriptions/${subscription.id}/bill`), 201);
  cleanup.push(dunningWorkflowId(draft.id));
  await expectJson(await h.request('POST', `/admin/v1/invoices/${draft.id}/finalize`));
  const [charge] = await eventually(async () => {
    const payments = await paymentsOf(h, draft.id);
    expect(payments.map((p) => p.status)).toEqual(['Failed']);
    return payments;
  });
  const dunningStarted = await eventually(async () => dunningOf(h, draft.id));
  const receipt = await expectJson<{ event_id: string }>(await notify(h, intentEvent('payment_intent.succeeded', charge!)));
  expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(receipt.event_id)).result()).toBe('payment_succeeded');
  const dunning = await dunningOf(h, draft.id);
  expect(dunning.status).toBe('Resolved');
  const refund = await expectJson<Stamped>(await h.request('POST', `/admin/v1/invoices/${draft.id}/refunds`, { body: { amount_nanos: (10n * UNIT).toString() } }), 201);
  const creditNote = await expectJson<Stamped>(await h.request('POST', `/admin/v1/invoices/${draft.id}/credit-notes`, { body: { amount_nanos: (5n * UNIT).toString(), reason: 'other' } }), 201);
  const invoice = await expectJson<Stamped & { finalized_at: string; paid_at: string }>(await h.request('GET', `/admin/v1/invoices/${draft.id}`));
  const [payment] = await paymentsOf(h, draft.id);
  // Rows changed since they were made: their updated_at moved in the same time.
  await expectJson(await h.request('PATCH', `/admin/v1/customers/${customerId}`, { body: { metadata: { crm: 'x' } } }));
  await expectJson(await h.request('PATCH', `/admin/v1/subscriptions/${subscription.id}`, { body: { metadata: { crm: 'x' } } }));
  const updated = async (path: string) => (await expectJson<{ updated_at: string }>(await h.request('GET', path))).updated_at;

  const times = {
    customer: customer.created_at,
    card: card.created_at,
    subscription: subscription.created_at,
    usage_event: usageEvent!.received_at,
    alert: alert.created_at,
    alert_history: alert.history[0]!.at,
    contract: contract.created_at,
    contract_subscription: link.created_at,
    wallet: granted.created_at,
    grant: granted.grants[0]!.granted_at,
    top_up: topUp.requested_at,
    ...Object.fromEntries(transactions.map((t) => [`wallet_${t.kind}`, t.occurred_at])),
    invoice: invoice.created_at,
    invoice_finalized: invoice.finalized_at,
    invoice_paid: invoice.paid_at,
    payment: payment!.created_at,
    payment_attempted: payment!.attempted_at,
    payment_settled: payment!.settled_at,
    dunning: dunning.created_at,
    dunning_failed: dunning.failed_at,
    dunning_closed: dunning.closed_at,
    dunning_started_updated: dunningStarted.updated_at,
    dunning_updated: dunning.updated_at,
    customer_updated: await updated(`/admin/v1/customers/${customerId}`),
    subscription_updated: await updated(`/admin/v1/subscriptions/${subscription.id}`),
    contract_updated: await updated(`/admin/v1/contracts/${contract.id}`),
    refund: refund.created_at,
    payment_refund: payment!.refunds[0]!.created_at,
    credit_note: creditNote.created_at,
  };
  return { customerId, times };
}

describe('timestamps of objects on a test clock', () => {
  it('are the clock time for a customer on a clock, whatever made the object; its audit entries are in real time', async () => {
    const before = Date.now();
    const { customerId, times } = await objectTimes(true);
    const after = Date.now();
    expect(Object.entries(times).filter(([, at]) => at !== CLOCK_TIME)).toEqual([]);
    const audit = (await expectPage<{ action: string; created_at: string }>(await h.request('GET', `/admin/v1/audit-log?customer_id=${customerId}&limit=200`))).data;
    expect(audit.length).toBeGreaterThan(10);
    expect(audit.filter((entry) => Date.parse(entry.created_at) < before || Date.parse(entry.created_at) > after)).toEqual([]);
  });

  it('are wall time for a customer on no clock', async () => {
    const before = Date.now();
    const { times } = await objectTimes(false);
    const after = Date.now();
    const wrong = Object.entries(times).filter(([, at]) => at === null || Date.parse(at) < before || Date.parse(at) > after);
    expect(wrong).toEqual([]);
  });
});
