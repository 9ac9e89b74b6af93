/**
 * Progressive billing on the crossing, end to end through the API, PostgreSQL and the Temporal
 * server: usage that takes a subscription's accrued charges past its progressive threshold is
 * invoiced within seconds of its ingestion (ingestion signals the subscription workflow, which
 * debounces a burst into one check), on a test clock and in real time; the period's own invoice
 * then bills only what the threshold invoice did not.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { advanceClock, sendUsage } from '../support/clock-usage.js';
import { eventually } from '../support/payments.js';
import { captureHistory } from '../support/histories.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { expectJson, useHarness } from '../support/harness.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { invoicesOf as readInvoices } from '../support/invoices.js';

const h = useHarness();

interface Invoice {
  id: string;
  status: string;
  total_nanos: string;
  billing_reason: string;
  period_start: string;
  finalized_at: string | null;
  line_items: { quantity: string; amount_nanos: string }[];
}

const invoicesOf = (subscriptionId: string) => readInvoices<Invoice>(h, `subscription_id=${subscriptionId}`);
/** The API calls SKU of makePlan: 0.01 a call, so 100 calls make one unit. */
const THRESHOLD = (5n * UNIT).toString();
const handleOf = (subscriptionId: string) => h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId));

async function subscribe(customerId: string): Promise<string> {
  const planId = await makePlan(h.deps.db, { flatNanos: null });
  const body = { customer_id: customerId, plan_id: planId, currency: 'USD', progressive_threshold_nanos: THRESHOLD };
  return (await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body }), 201)).id;
}

/** The threshold invoices of the subscription once one is Open. */
const thresholdInvoices = (subscriptionId: string) =>
  eventually(async () => {
    const invoices = (await invoicesOf(subscriptionId)).filter((i) => i.billing_reason === 'threshold' && i.status === 'Open');
    expect(invoices.length).toBeGreaterThan(0);
    return invoices;
  });

/**
 * Resolves once the run has no crossing check armed or running: every debounce timer it started
 * (the only timers of a second) fired and every activity it scheduled completed.
 */
async function crossingChecksSettled(subscriptionId: string): Promise<void> {
  await eventually(async () => {
    const { events } = await handleOf(subscriptionId).fetchHistory();
    const debounces = (events ?? []).filter((e) => e.timerStartedEventAttributes && Number(e.timerStartedEventAttributes.startToFireTimeout?.seconds ?? 0) === 1);
    const fired = (events ?? []).filter((e) => e.timerFiredEventAttributes).length;
    const scheduled = (events ?? []).filter((e) => e.activityTaskScheduledEventAttributes).length;
    const ended = (events ?? []).filter((e) => e.activityTaskCompletedEventAttributes || e.activityTaskFailedEventAttributes).length;
    expect(debounces.length).toBeGreaterThan(0);
    expect(fired).toBeGreaterThanOrEqual(debounces.length);
    expect(ended).toBe(scheduled);
  });
}

describe('progressive billing fires on the crossing', () => {
  it('on a test clock: the batch that crosses the threshold is invoiced at once, without a clock advance, and the period close bills the rest', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    const subscriptionId = await subscribe(customerId);
    await advanceClock(h, clockId, '2026-01-02T10:00:00.000Z');

    // Below the threshold: no invoice (a check runs, reads, writes nothing).
    await sendUsage(h, customerId, subscriptionId, 300, '2026-01-02T10:00:00.000Z');
    const sent = Date.now();
    await sendUsage(h, customerId, subscriptionId, 300, '2026-01-02T10:00:00.000Z');
    const [invoice] = await thresholdInvoices(subscriptionId);
    expect(Date.now() - sent).toBeLessThan(10_000);
    expect(invoice).toMatchObject({ total_nanos: (6n * UNIT).toString(), finalized_at: '2026-01-02T10:00:00.000Z', period_start: '2026-01-01T00:00:00.000Z' });
    expect(await invoicesOf(subscriptionId)).toHaveLength(1);

    // Below the threshold again: nothing until the period close.
    await sendUsage(h, customerId, subscriptionId, 100, '2026-01-02T10:00:00.000Z');
    await advanceClock(h, clockId, '2026-02-01T01:00:00.000Z');
    const period = (await invoicesOf(subscriptionId)).filter((i) => i.period_start === '2026-01-01T00:00:00.000Z');
    // The period's own invoice deducts what the threshold invoice billed: only the last 100 calls.
    expect(period.map((i) => [i.status, i.billing_reason, i.total_nanos])).toEqual([
      ['Open', 'threshold', (6n * UNIT).toString()],
      ['Open', 'subscription_cycle', (1n * UNIT).toString()],
    ]);
    expect(period[1]!.line_items.map((l) => l.quantity)).toEqual(['100']);
    const handle = handleOf(subscriptionId);
    await captureHistory(handle, 'threshold-on-crossing');
    await handle.terminate('test done');
  });

  it('in real time: a burst of concurrent events crossing the threshold makes exactly one threshold invoice within seconds', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const subscriptionId = await subscribe(customerId);
    const run = randomUUID().slice(0, 8);
    const event = (i: number) => ({ id: `burst-${run}-${i}`, event_type: 'api_calls', customer_id: customerId, subscription_id: subscriptionId, timestamp: new Date().toISOString(), properties: {} });
    const sent = Date.now();
    // 700 calls (7 units) at once: 20 batches of 30 and 100 single events, all concurrent.
    const batches = Array.from({ length: 20 }, (_, b) => h.request('POST', '/v1/events/batch', { body: { events: Array.from({ length: 30 }, (_, i) => event(b * 30 + i)) } }));
    const singles = Array.from({ length: 100 }, (_, i) => h.request('POST', '/v1/events', { body: event(600 + i) }));
    for (const response of await Promise.all([...batches, ...singles])) expect(response.status).toBe(200);

    const [first] = await thresholdInvoices(subscriptionId);
    const latencyMs = Date.now() - sent;
    expect(latencyMs).toBeLessThan(10_000);
    await crossingChecksSettled(subscriptionId);
    const invoices = await invoicesOf(subscriptionId);
    expect(invoices.filter((i) => i.billing_reason === 'threshold')).toHaveLength(1);
    expect(BigInt(first!.total_nanos)).toBeGreaterThanOrEqual(5n * UNIT);
    // Billing the period now deducts what the threshold invoice billed: together they carry the 700 calls once.
    // (422 nothing_to_bill when the one check saw every call.)
    const billed = await h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/bill`);
    const rest = billed.status === 422 ? 0n : BigInt((await expectJson<Invoice>(billed, 201)).total_nanos);
    expect(BigInt(first!.total_nanos) + rest).toBe(7n * UNIT);
    await handleOf(subscriptionId).terminate('test done');
  });
});
