/**
 * A month of usage on a test clock with a SoftLimit and a HardLimit, end to end through the API,
 * PostgreSQL and Temporal: each alert triggers once, when the period's spend crosses it (and at
 * the business time it did); the HardLimit blocks the customer while usage keeps being recorded;
 * the period's invoice charges exactly the HardLimit and shows what it withheld; the next period
 * start re-arms both alerts and unblocks the customer, also when usage recorded just before it is
 * still being gathered while the clock passes it.
 */
import { describe, expect, it } from 'vitest';
import { spendAlertWorkflowId } from '../../workflows/spend-alerts/messages.js';
import { advanceClock, sendUsage } from '../support/clock-usage.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { captureHistory } from '../support/histories.js';
import { expectJson, expectPage, useHarness } from '../support/harness.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { invoicesOf } from '../support/invoices.js';
import { eventually } from '../support/payments.js';

const h = useHarness();

const units = (n: bigint) => (n * UNIT).toString();

interface Alert {
  id: string;
  alert_type: string;
  status: string;
  threshold_nanos: string;
  last_spend_nanos: string | null;
  last_evaluated_at: string | null;
  triggered_at: string | null;
  history: { kind: string; reason: string | null; period_start: string | null; at: string }[];
}
interface Invoice {
  id: string;
  status: string;
  period_start: string;
  total_nanos: string;
  amount_due_nanos: string;
  spend_cap_withheld_nanos: string;
  line_items: { kind: string; amount_nanos: string; quantity: string }[];
}

const advance = (clockId: string, to: string) => advanceClock(h, clockId, to);

/** The alerts of one customer as the API shows them, its spend_alert.triggered events and its entitlement. */
function watch(customerId: string, alertIds: string[]) {
  const alert = async (id: string) => expectJson<Alert>(await h.request('GET', `/admin/v1/customers/${customerId}/alerts/${id}`));
  return {
    alert,
    /** Waits until the evaluator has seen this spend for every alert. */
    evaluatedAt: async (spend: bigint) =>
      eventually(async () => {
        for (const id of alertIds) expect((await alert(id)).last_spend_nanos).toBe(units(spend));
      }),
    triggered: async () => {
      const rows = await h.deps.db.outboxEvent.findMany({ where: { type: 'spend_alert.triggered', aggregateId: { in: alertIds } }, orderBy: { id: 'asc' } });
      return rows.map((row) => ({ aggregateId: row.aggregateId, occurredAt: row.occurredAt.toISOString(), data: (row.payload as { data: Record<string, unknown> }).data }));
    },
    entitlement: async () =>
      (await expectJson<{ status: string }>(await h.request('GET', `/v1/customers/${customerId}/entitlement`, { as: { customer: customerId } }))).status,
  };
}

async function createAlert(customerId: string, alertType: 'SoftLimit' | 'HardLimit', threshold: bigint): Promise<Alert> {
  return expectJson<Alert>(await h.request('POST', `/admin/v1/customers/${customerId}/alerts`, { body: { alert_type: alertType, threshold_nanos: units(threshold) } }), 201);
}

/** How many signals the customer's evaluator has received (its current run). */
async function signalsReceived(customerId: string): Promise<number> {
  const history = await h.deps.temporal.client.workflow.getHandle(spendAlertWorkflowId(customerId)).fetchHistory();
  return (history.events ?? []).filter((event) => event.workflowExecutionSignaledEventAttributes).length;
}


describe('spend alerts over a month on a test clock', () => {
  it('triggers each alert once at its crossing, blocks on the HardLimit, caps the invoice and re-arms at the next period', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    // 49.00 a month plus 0.01 per API call.
    const planId = await makePlan(h.deps.db);
    const subscription = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);

    const soft = await createAlert(customerId, 'SoftLimit', 100n);
    const hard = await createAlert(customerId, 'HardLimit', 150n);
    const { alert, evaluatedAt, triggered, entitlement } = watch(customerId, [soft.id, hard.id]);

    // The base fee alone: 49.00, below both.
    await evaluatedAt(49n);
    expect(await triggered()).toEqual([]);

    // Jan 10: 3,000 calls → 79.00.
    await advance(clockId, '2026-01-10T00:00:00.000Z');
    await sendUsage(h, customerId, subscription.id, 3000, '2026-01-10T00:00:00.000Z');
    await evaluatedAt(79n);
    expect(await triggered()).toEqual([]);

    // Jan 15: 3,000 more → 109.00 crosses the SoftLimit only.
    await advance(clockId, '2026-01-15T00:00:00.000Z');
    await sendUsage(h, customerId, subscription.id, 3000, '2026-01-15T00:00:00.000Z');
    await evaluatedAt(109n);
    expect(await triggered()).toEqual([
      { aggregateId: soft.id, occurredAt: '2026-01-15T00:00:00.000Z', data: expect.objectContaining({ alert_type: 'SoftLimit', customer_id: customerId, threshold_nanos: units(100n) }) },
    ]);
    expect((await alert(soft.id)).status).toBe('Triggered');
    expect(await entitlement()).toBe('active');

    // Jan 20: 6,000 more → 169.00 crosses the HardLimit: blocked.
    await advance(clockId, '2026-01-20T00:00:00.000Z');
    await sendUsage(h, customerId, subscription.id, 6000, '2026-01-20T00:00:00.000Z');
    await evaluatedAt(169n);
    expect((await triggered()).map((e) => [e.aggregateId, e.occurredAt, e.data.alert_type])).toEqual([
      [soft.id, '2026-01-15T00:00:00.000Z', 'SoftLimit'],
      [hard.id, '2026-01-20T00:00:00.000Z', 'HardLimit'],
    ]);
    expect(await entitlement()).toBe('blocked');

    // Jan 25: usage is still recorded while blocked (189.00), and nothing triggers twice.
    await advance(clockId, '2026-01-25T00:00:00.000Z');
    await sendUsage(h, customerId, subscription.id, 2000, '2026-01-25T00:00:00.000Z');
    await evaluatedAt(189n);
    expect(await triggered()).toHaveLength(2);
    expect(await entitlement()).toBe('blocked');

    // Past the period end and its invoice's grace: the January invoice charges the HardLimit, 150.00.
    await advance(clockId, '2026-02-01T01:00:01.000Z');
    const invoices = await invoicesOf<Invoice>(h, `customer_id=${customerId}`);
    const january = invoices.find((invoice) => invoice.period_start === '2026-01-01T00:00:00.000Z')!;
    expect(january.status).toBe('Open');
    expect(january.total_nanos).toBe(units(150n));
    expect(january.amount_due_nanos).toBe(units(150n));
    expect(january.spend_cap_withheld_nanos).toBe(units(39n));
    expect(january.line_items.map((line) => [line.kind, line.amount_nanos, line.quantity]).sort()).toEqual(
      [
        ['fee', units(49n), '1'],
        ['spend_cap', (-39n * UNIT).toString(), '1'],
        ['usage', units(140n), '14000'],
      ].sort(),
    );

    // February started: both alerts re-armed by the period roll, the customer unblocked.
    for (const id of [soft.id, hard.id]) {
      const rearmed = await alert(id);
      expect(rearmed.status).toBe('Armed');
      expect(rearmed.history.map((entry) => [entry.kind, entry.reason, entry.period_start])).toEqual([
        ['created', null, null],
        ['triggered', null, '2026-01-01T00:00:00.000Z'],
        ['reset', 'period_start', '2026-02-01T00:00:00.000Z'],
      ]);
    }
    expect(await entitlement()).toBe('active');
    await evaluatedAt(49n);
    expect(await triggered()).toHaveLength(2);

    await captureHistory(h.deps.temporal.client.workflow.getHandle(spendAlertWorkflowId(customerId)), 'month-soft-hard-triggered-capped-reset');
  }, 180_000);
});

describe('spend alerts at a period start with usage in flight', () => {
  it('re-arms the alerts at the period start when usage recorded a second before it is still being gathered, and they trigger again in the new period', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    // 49.00 a month plus 0.01 per API call.
    const planId = await makePlan(h.deps.db);
    const subscription = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
    const soft = await createAlert(customerId, 'SoftLimit', 100n);
    const hard = await createAlert(customerId, 'HardLimit', 150n);
    const { alert, evaluatedAt, triggered, entitlement } = watch(customerId, [soft.id, hard.id]);
    await evaluatedAt(49n);

    // Jan 20: 12,000 calls → 169.00 crosses both: blocked.
    await advance(clockId, '2026-01-20T00:00:00.000Z');
    await sendUsage(h, customerId, subscription.id, 12000, '2026-01-20T00:00:00.000Z');
    await evaluatedAt(169n);
    expect((await triggered()).map((e) => [e.aggregateId, e.occurredAt])).toEqual([
      [soft.id, '2026-01-20T00:00:00.000Z'],
      [hard.id, '2026-01-20T00:00:00.000Z'],
    ]);
    expect(await entitlement()).toBe('blocked');

    // A second before February, more usage; the clock passes the period start while the evaluator
    // is still gathering it (its debounce): the evaluation runs at the new period's time.
    await advance(clockId, '2026-01-31T23:59:59.000Z');
    const signals = await signalsReceived(customerId);
    await sendUsage(h, customerId, subscription.id, 1000, '2026-01-31T23:59:59.000Z');
    await eventually(async () => expect(await signalsReceived(customerId)).toBeGreaterThan(signals), 5_000);
    await advance(clockId, '2026-02-01T01:00:01.000Z');

    // February started: both alerts re-armed at its start, the customer unblocked.
    for (const id of [soft.id, hard.id]) {
      const rearmed = await alert(id);
      expect(rearmed.status).toBe('Armed');
      expect(rearmed.history.map((entry) => [entry.kind, entry.reason, entry.period_start, entry.at])).toEqual([
        ['created', null, null, '2026-01-01T00:00:00.000Z'],
        ['triggered', null, '2026-01-01T00:00:00.000Z', '2026-01-20T00:00:00.000Z'],
        ['reset', 'period_start', '2026-02-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'],
      ]);
    }
    expect(await entitlement()).toBe('active');
    await evaluatedAt(49n);
    // The last second of January is billed in January (179.00, capped at the HardLimit's 150.00).
    const january = (await invoicesOf<Invoice>(h, `customer_id=${customerId}`)).find((invoice) => invoice.period_start === '2026-01-01T00:00:00.000Z')!;
    expect([january.total_nanos, january.spend_cap_withheld_nanos]).toEqual([units(150n), units(29n)]);

    // February's spend crosses them again: 109.00 the SoftLimit on Feb 10, 159.00 the HardLimit on Feb 20.
    await advance(clockId, '2026-02-10T00:00:00.000Z');
    await sendUsage(h, customerId, subscription.id, 6000, '2026-02-10T00:00:00.000Z');
    await evaluatedAt(109n);
    await advance(clockId, '2026-02-20T00:00:00.000Z');
    await sendUsage(h, customerId, subscription.id, 5000, '2026-02-20T00:00:00.000Z');
    await evaluatedAt(159n);
    expect((await triggered()).map((e) => [e.aggregateId, e.occurredAt, e.data.alert_type])).toEqual([
      [soft.id, '2026-01-20T00:00:00.000Z', 'SoftLimit'],
      [hard.id, '2026-01-20T00:00:00.000Z', 'HardLimit'],
      [soft.id, '2026-02-10T00:00:00.000Z', 'SoftLimit'],
      [hard.id, '2026-02-20T00:00:00.000Z', 'HardLimit'],
    ]);
    expect(await entitlement()).toBe('blocked');

    await captureHistory(h.deps.temporal.client.workflow.getHandle(spendAlertWorkflowId(customerId)), 'usage-in-flight-at-period-start-reset-triggered-again');
  }, 180_000);
});
