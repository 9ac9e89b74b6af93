/**
 * A month of usage on a test clock with a SoftLimit and a HardLimit, end to end through the API,
 * PostgreSQL and Temporal: each alert triggers once, when the period's spend crosses it (and at
 * the business time it did); the HardLimit blocks the customer while usage keeps being recorded;
 * the period's invoice charges exactly the HardLimit and shows what it withheld; the next period
 * start re-arms both alerts and unblocks the customer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spendAlertWorkflowId } from '../../workflows/messages.js';
import { advanceClock, sendUsage } from '../support/clock-usage.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { captureHistory } from '../support/histories.js';
import { createHarness, expectJson, expectPage, type Harness } from '../support/harness.js';
import { invoicesOf } from '../support/invoices.js';
import { eventually } from '../support/payments.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const UNIT = 1_000_000_000_000n;
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


describe('spend alerts over a month on a test clock', () => {
  it('triggers each alert once at its crossing, blocks on the HardLimit, caps the invoice and re-arms at the next period', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    // 49.00 a month plus 0.01 per API call.
    const planId = await makePlan(h.deps.db);
    const subscription = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);

    const soft = await expectJson<Alert>(
      await h.request('POST', `/admin/v1/customers/${customerId}/alerts`, { body: { alert_type: 'SoftLimit', threshold_nanos: units(100n) } }),
      201,
    );
    const hard = await expectJson<Alert>(
      await h.request('POST', `/admin/v1/customers/${customerId}/alerts`, { body: { alert_type: 'HardLimit', threshold_nanos: units(150n) } }),
      201,
    );
    const alert = async (id: string) => expectJson<Alert>(await h.request('GET', `/admin/v1/customers/${customerId}/alerts/${id}`));
    /** Waits until the evaluator has seen this spend for both alerts. */
    const evaluatedAt = async (spend: bigint) =>
      eventually(async () => {
        for (const id of [soft.id, hard.id]) expect((await alert(id)).last_spend_nanos).toBe(units(spend));
      });
    const triggered = async () => {
      const rows = await h.deps.db.outboxEvent.findMany({ where: { type: 'spend_alert.triggered', aggregateId: { in: [soft.id, hard.id] } }, orderBy: { id: 'asc' } });
      return rows.map((row) => ({ aggregateId: row.aggregateId, occurredAt: row.occurredAt.toISOString(), data: (row.payload as { data: Record<string, unknown> }).data }));
    };
    const entitlement = async () =>
      (await expectJson<{ status: string }>(await h.request('GET', `/v1/customers/${customerId}/entitlement`, { as: { customer: customerId } }))).status;

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
