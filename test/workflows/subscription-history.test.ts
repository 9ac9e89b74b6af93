/**
 * The subscription workflow's own history: it stays short however many commands a period gets (the
 * workflow continues as new when the server suggests it, which the test server does past
 * `suggestContinueAsNewEvents` events), and billing commands on a subscription living in real time
 * leave its period-end timer running. Histories of both are committed for replay.
 */
import { describe, expect, inject, it } from 'vitest';
import { nextWakeQuery } from '../../workflows/shared/messages.js';
import { subscriptionStateQuery, subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { advanceClock } from '../support/clock-usage.js';
import { captureHistory } from '../support/histories.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { expectJson, expectPage, useHarness } from '../support/harness.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { invoicesOf } from '../support/invoices.js';

const h = useHarness();

interface Invoice {
  id: string;
  status: string;
  billing_reason: string;
  total_nanos: string;
  finalized_at: string | null;
  line_items: { kind: string; quantity: string; amount_nanos: string }[];
}
interface Subscription {
  id: string;
  status: string;
  plan_id: string;
  period_start: string;
  period_end: string;
}

let eventSeq = 0;
async function sendUsage(customerId: string, subscriptionId: string, timestamp: string): Promise<void> {
  const event = { id: `hist-${process.pid}-${(eventSeq += 1)}`, event_type: 'api_calls', customer_id: customerId, subscription_id: subscriptionId, timestamp, properties: {} };
  const res = await h.request('POST', '/v1/events', { body: event });
  expect([200, 201, 202], await res.clone().text()).toContain(res.status);
}

interface Run {
  runId: string;
  events: number;
  continuedAsNew: boolean;
}

/** Every run of the workflow, first to latest, walking back from the latest run to the one each continued. */
async function runsOf(workflowId: string): Promise<Run[]> {
  const workflows = h.deps.temporal.client.workflow;
  const eventsOf = async (runId: string) => (await workflows.getHandle(workflowId, runId).fetchHistory()).events ?? [];
  const runs: Run[] = [];
  let runId: string | null | undefined = (await workflows.getHandle(workflowId).describe()).runId;
  while (runId) {
    const events = await eventsOf(runId);
    runs.unshift({ runId, events: events.length, continuedAsNew: events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes != null });
    runId = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId;
  }
  return runs;
}

describe('subscription workflow history', () => {
  it('continues as new while a period is billed on demand 500 times, every run staying short, and still closes the period', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-03-01T00:00:00.000Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    const planId = await makePlan(h.deps.db);
    const subscription = await expectJson<Subscription>(
      await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }),
      201,
    );
    expect(subscription).toMatchObject({ status: 'Active', period_start: '2026-03-01T00:00:00.000Z', period_end: '2026-04-01T00:00:00.000Z' });
    await advanceClock(h, clockId, '2026-03-10T00:00:00.000Z');

    // The first bill opens the Draft; the others refresh it, four callers at a time, each after one
    // more usage event. The workflow runs a subscription's commands one after another; the callers
    // overlap everything around that (the API, the usage, the update's round trips), and a run about
    // to continue as new refuses new commands, which the API sends again to the next run.
    const BILLS = 500;
    const CALLERS = 4;
    // Billed to now: usage up to the instant before.
    const usageAt = '2026-03-09T12:00:00.000Z';
    await sendUsage(customerId, subscription.id, usageAt);
    const draft = await expectJson<Invoice>(await h.request('POST', `/admin/v1/subscriptions/${subscription.id}/bill`), 201);
    expect(draft.total_nanos).toBe((49n * UNIT + UNIT / 100n).toString());
    let sent = 1;
    const refreshed: Invoice[] = [];
    const caller = async () => {
      while (sent < BILLS) {
        sent += 1;
        await sendUsage(customerId, subscription.id, usageAt);
        refreshed.push(await expectJson<Invoice>(await h.request('POST', `/admin/v1/subscriptions/${subscription.id}/bill`)));
      }
    };
    await Promise.all(Array.from({ length: CALLERS }, caller));
    expect(refreshed).toHaveLength(BILLS - 1);
    expect(new Set(refreshed.map((invoice) => invoice.id))).toEqual(new Set([draft.id]));
    // The bill run last started after every usage event was stored, so it billed them all.
    const billedNanos = refreshed.map((invoice) => BigInt(invoice.total_nanos)).reduce((a, b) => (a > b ? a : b));
    expect(billedNanos).toBe(49n * UNIT + BigInt(BILLS) * (UNIT / 100n));

    // Past the threshold the server suggests continuing as new at every workflow task; the run does
    // at its next wake, once the bills it accepted before (at most one per caller, a dozen events
    // each) have finished.
    const bound = inject('suggestContinueAsNewEvents') + (CALLERS + 1) * 12;
    const workflowId = subscriptionWorkflowId(subscription.id);
    const runs = await runsOf(workflowId);
    expect(runs.length).toBeGreaterThan(1);
    expect(runs.filter((run) => run.events >= bound)).toEqual([]);
    expect(runs.map((run) => run.continuedAsNew)).toEqual(runs.map((_run, i) => i < runs.length - 1));
    const handle = h.deps.temporal.client.workflow.getHandle(workflowId);
    expect(await handle.query(subscriptionStateQuery)).toMatchObject({ status: 'Active', periodEnd: '2026-04-01T00:00:00.000Z' });

    const stored = await expectJson<Invoice>(await h.request('GET', `/admin/v1/invoices/${draft.id}`));
    expect(stored).toMatchObject({ status: 'Draft', total_nanos: billedNanos.toString() });
    expect(stored.line_items.map((l) => [l.kind, l.quantity, l.amount_nanos])).toEqual([
      ['fee', '1', (49n * UNIT).toString()],
      ['usage', String(BILLS), (5n * UNIT).toString()],
    ]);

    // The latest run closes the period: nothing is billed twice, and the Draft is finalized once
    // the grace period is over.
    await advanceClock(h, clockId, '2026-04-01T01:00:00.000Z');
    const invoices = (await invoicesOf<Invoice>(h, `subscription_id=${subscription.id}`));
    expect(invoices.map((i) => [i.id, i.status, i.total_nanos, i.finalized_at])).toEqual([
      [draft.id, 'Open', (54n * UNIT).toString(), '2026-04-01T01:00:00.000Z'],
    ]);
    const rolled = await expectJson<Subscription>(await h.request('GET', `/v1/subscriptions/${subscription.id}`));
    expect(rolled).toMatchObject({ status: 'Active', period_start: '2026-04-01T00:00:00.000Z', period_end: '2026-05-01T00:00:00.000Z' });
    expect((await runsOf(workflowId)).filter((run) => run.events >= bound)).toEqual([]);

    await captureHistory(h.deps.temporal.client.workflow.getHandle(workflowId, runs[0]!.runId), 'billed-on-demand-until-continued-as-new');
    await handle.terminate('test done');
  }, 480_000);

  it('bills a subscription in real time on demand and changes its plan while its period-end timer keeps running', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const planId = await makePlan(h.deps.db);
    const subscription = await expectJson<Subscription>(
      await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }),
      201,
    );
    expect(subscription.status).toBe('Active');
    await sendUsage(customerId, subscription.id, new Date().toISOString());

    const draft = await expectJson<Invoice>(await h.request('POST', `/admin/v1/subscriptions/${subscription.id}/bill`), 201);
    expect(draft).toMatchObject({ status: 'Draft', total_nanos: (49n * UNIT + UNIT / 100n).toString() });
    const premiumPlan = await makePlan(h.deps.db, { flatNanos: 99n * UNIT });
    const changed = await expectJson<{ subscription: Subscription }>(
      await h.request('POST', `/admin/v1/subscriptions/${subscription.id}/change-plan`, { body: { plan_id: premiumPlan } }),
    );
    expect(changed.subscription.plan_id).toBe(premiumPlan);

    const handle = h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscription.id));
    expect(await handle.query(nextWakeQuery)).toBe(subscription.period_end);
    await captureHistory(handle, 'real-time-billed-on-demand-plan-changed');
    await handle.terminate('test done');
  });
});
