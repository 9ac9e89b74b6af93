/**
 * Every accepted usage event billed exactly once, through the API, PostgreSQL and the Temporal
 * server on test clocks: usage that arrives after its period's invoice is billed on the next invoice
 * as a prior-period adjustment (re-rated with the period's tiers), an ended subscription's on a
 * correction invoice, events sent while a close runs are never lost, and a close run again after its
 * invoice was finalized opens no second invoice.
 */
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import { LATE_USAGE_CORRECTIONS_SCHEDULE_ID, type LateUsageCorrectionsSummary } from '../../workflows/late-usage-corrections/messages.js';
import { dunningWorkflowId } from '../../workflows/dunning/messages.js';
import { invoiceWorkflowId } from '../../workflows/invoice/messages.js';
import { testClockAdvanceWorkflowId } from '../../workflows/test-clock-advance/messages.js';
import { captureHistory, childStartsOf } from '../support/histories.js';
import { closeSubscriptionPeriod } from '../../src/services/subscriptions/period-close.js';
import { advanceClock, sendUsage } from '../support/clock-usage.js';
import { attachCard, eventually, paymentsOf } from '../support/payments.js';
import { makeCustomer, makeTestClock } from '../support/fixtures.js';
import { expectJson, useHarness } from '../support/harness.js';
import { invoicesOf as readInvoices } from '../support/invoices.js';
import { billedUsage, CENT, makeGraduatedCallsPlan } from '../support/usage-billing.js';

const h = useHarness();

interface Line {
  kind: string;
  description: string;
  quantity: string;
  amount_nanos: string;
  subscription_id: string | null;
  period_start: string | null;
  period_end: string | null;
  detail: { adjustment?: { reason: string; billed_quantity: string; rated_quantity: string; billed_amount_nanos: string; rated_amount_nanos: string } } | null;
}
interface Invoice {
  id: string;
  status: string;
  billing_reason: string;
  period_start: string | null;
  total_nanos: string;
  line_items: Line[];
}

const invoicesOf = (subscriptionId: string) => readInvoices<Invoice>(h, `subscription_id=${subscriptionId}`);
const allInvoicesOf = (customerId: string) => readInvoices<Invoice>(h, `customer_id=${customerId}`);

async function subscribeOnClock(start: string, planId: string) {
  const clockId = await makeTestClock(h.deps.db, start);
  const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
  const subscription = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
  return { clockId, customerId, subscriptionId: subscription.id };
}

const JANUARY = '2026-01-01T00:00:00.000Z';

describe('late usage', () => {
  it('bills usage that arrives after its period was invoiced on the next invoice, re-rated with that period\'s tiers, once', async () => {
    const { clockId, customerId, subscriptionId } = await subscribeOnClock(JANUARY, await makeGraduatedCallsPlan(h, 'late usage'));
    await advanceClock(h, clockId, '2026-01-15T12:00:00.000Z');
    await sendUsage(h, customerId, subscriptionId, 800, '2026-01-15T12:00:00.000Z');
    await advanceClock(h, clockId, '2026-02-01T02:00:00.000Z');
    const [january] = await invoicesOf(subscriptionId);
    expect(january).toMatchObject({ status: 'Open', billing_reason: 'subscription_cycle', total_nanos: (800n * CENT).toString() });

    // 1,000 calls of January 20 arrive after January was invoiced: accepted, flagged late.
    const late = await expectJson<{ accepted_count: number; late_count: number }>(
      await h.request('POST', '/v1/events/batch', {
        body: { events: Array.from({ length: 1000 }, (_, i) => ({ id: `late-${subscriptionId}-${i}`, event_type: 'api_calls', customer_id: customerId, subscription_id: subscriptionId, timestamp: '2026-01-20T00:00:00Z', properties: {} })) },
      }),
    );
    expect(late).toMatchObject({ accepted_count: 1000, late_count: 1000 });

    await advanceClock(h, clockId, '2026-02-10T00:00:00.000Z');
    await sendUsage(h, customerId, subscriptionId, 10, '2026-02-10T00:00:00.000Z');
    await advanceClock(h, clockId, '2026-03-01T02:00:00.000Z');
    const invoices = await invoicesOf(subscriptionId);
    expect(invoices.map((i) => [i.billing_reason, i.period_start, i.status])).toEqual([
      ['subscription_cycle', JANUARY, 'Open'],
      ['subscription_cycle', '2026-02-01T00:00:00.000Z', 'Open'],
    ]);
    const adjustment = invoices[1]!.line_items.find((line) => line.period_start === JANUARY)!;
    // January re-rated with its 1,800 calls: 1,000 × 0.01 + 800 × 0.005 = 14.00, of which 8.00 was billed.
    expect(adjustment).toMatchObject({
      kind: 'usage',
      quantity: '1000',
      amount_nanos: (600n * CENT).toString(),
      period_start: JANUARY,
      period_end: '2026-02-01T00:00:00.000Z',
      description: expect.stringContaining('late usage for 2026-01-01 – 2026-02-01'),
      detail: expect.objectContaining({
        adjustment: expect.objectContaining({ reason: 'late_usage', billed_quantity: '800', rated_quantity: '1800', rated_amount_nanos: (1400n * CENT).toString() }),
      }),
    });
    expect(BigInt(invoices[1]!.total_nanos)).toBe(600n * CENT + 10n * CENT);
    expect(billedUsage(invoices, subscriptionId, JANUARY)).toBe(1800n);

    // Nothing arrived late since: March bills no adjustment, and January stays billed once.
    await advanceClock(h, clockId, '2026-04-01T02:00:00.000Z');
    const after = await invoicesOf(subscriptionId);
    expect(after).toHaveLength(3);
    expect(after[2]!.line_items.filter((line) => line.period_start !== '2026-03-01T00:00:00.000Z')).toEqual([]);
    expect(billedUsage(after, subscriptionId, JANUARY)).toBe(1800n);
  });

  it("puts an ended subscription's late usage on a correction invoice", async () => {
    const { clockId, customerId, subscriptionId } = await subscribeOnClock(JANUARY, await makeGraduatedCallsPlan(h, 'late usage'));
    await advanceClock(h, clockId, '2026-01-10T00:00:00.000Z');
    await sendUsage(h, customerId, subscriptionId, 100, '2026-01-10T00:00:00.000Z');
    await expectJson(await h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/cancel`));
    await advanceClock(h, clockId, '2026-02-01T02:00:00.000Z');
    expect((await h.deps.db.subscription.findUniqueOrThrow({ where: { id: subscriptionId } })).status).toBe('Expired');

    await sendUsage(h, customerId, subscriptionId, 50, '2026-01-31T23:00:00.000Z');
    await advanceClock(h, clockId, '2026-02-02T00:00:00.000Z');
    const invoices = await allInvoicesOf(customerId);
    expect(invoices.map((i) => [i.billing_reason, i.status])).toEqual([
      ['subscription_final', 'Open'],
      ['late_usage_correction', 'Open'],
    ]);
    expect(invoices[1]!.line_items).toEqual([expect.objectContaining({ kind: 'usage', quantity: '50', amount_nanos: (50n * CENT).toString(), period_start: JANUARY })]);
    expect(billedUsage(invoices, subscriptionId, JANUARY)).toBe(150n);
    // The advance's workflow, not its activity, started the correction invoice's workflow: its child (issue 29).
    const advanceRun = h.deps.temporal.client.workflow.getHandle(testClockAdvanceWorkflowId(clockId));
    expect(await childStartsOf(advanceRun)).toEqual([invoiceWorkflowId(invoices[1]!.id)]);
    expect((await h.deps.temporal.client.workflow.getHandle(invoiceWorkflowId(invoices[1]!.id)).describe()).parentExecution?.workflowId).toBe(testClockAdvanceWorkflowId(clockId));
    await captureHistory(advanceRun, 'late-usage-correction-invoice-workflow-started-as-child');

    // A later run finds nothing left to correct.
    await advanceClock(h, clockId, '2026-02-03T00:00:00.000Z');
    expect(await allInvoicesOf(customerId)).toHaveLength(2);
  });

  it("asks a chargeable correction invoice's finalize of its workflow, started by the advance with the request, and waits for the answer", async () => {
    const { clockId, customerId, subscriptionId } = await subscribeOnClock(JANUARY, await makeGraduatedCallsPlan(h, 'late usage charged'));
    await advanceClock(h, clockId, '2026-01-10T00:00:00.000Z');
    await expectJson(await h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/cancel`));
    await advanceClock(h, clockId, '2026-02-01T02:00:00.000Z');
    // A card on file from now on: the correction invoice is charged when it is finalized (the processor refuses the card here).
    await attachCard(h, customerId);
    await sendUsage(h, customerId, subscriptionId, 40, '2026-01-31T23:00:00.000Z');
    await advanceClock(h, clockId, '2026-02-02T00:00:00.000Z');

    const invoices = await allInvoicesOf(customerId);
    expect(invoices.map((i) => [i.billing_reason, i.status])).toEqual([
      ['subscription_final', 'Open'],
      ['late_usage_correction', 'Open'],
    ]);
    const correction = invoices[1]!;
    expect(billedUsage(invoices, subscriptionId, JANUARY)).toBe(40n);
    // Charged within the finalize the advance waited for: the clock was ready after it.
    expect(await paymentsOf(h, correction.id)).toMatchObject([{ source: 'auto_charge', status: 'Failed', attempted_at: '2026-02-02T00:00:00.000Z' }]);
    const advanceRun = h.deps.temporal.client.workflow.getHandle(testClockAdvanceWorkflowId(clockId));
    const invoiceRun = h.deps.temporal.client.workflow.getHandle(invoiceWorkflowId(correction.id));
    expect(await childStartsOf(advanceRun)).toEqual([invoiceRun.workflowId]);
    expect((await invoiceRun.describe()).parentExecution?.workflowId).toBe(advanceRun.workflowId);
    const [started] = (await invoiceRun.fetchHistory()).events ?? [];
    const input = JSON.parse(Buffer.from(started!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!.data!).toString('utf8')) as unknown;
    expect(input).toMatchObject({ invoiceId: correction.id, status: 'Draft', finalize: { replyTo: advanceRun.workflowId, command: { reason: 'period_closed', at: '2026-02-02T00:00:00.000Z' } } });
    const advanceEvents = (await advanceRun.fetchHistory()).events ?? [];
    expect(advanceEvents.flatMap((e) => e.workflowExecutionSignaledEventAttributes?.signalName ?? [])).toEqual(['finalizeAnswered']);
    await captureHistory(advanceRun, 'late-usage-correction-finalize-asked-with-invoice-workflow-start');
    await captureHistory(invoiceRun, 'late-usage-correction-finalized-on-request-of-a-test-clock-advance');
    // The refused charge opened the correction's dunning schedule: not left running for other tests.
    await h.deps.temporal.client.workflow.getHandle(dunningWorkflowId(correction.id)).terminate('test done').catch(() => undefined);
  });

  it('bills every event sent while the period closes, on its invoice or as late usage, exactly once', async () => {
    const planId = await makeGraduatedCallsPlan(h, 'late usage');
    const clockId = await makeTestClock(h.deps.db, JANUARY);
    const subscriptions: { customerId: string; subscriptionId: string }[] = [];
    for (let i = 0; i < 12; i += 1) {
      const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
      const subscription = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
      subscriptions.push({ customerId, subscriptionId: subscription.id });
    }
    await advanceClock(h, clockId, '2026-01-31T23:00:00.000Z');
    // Events dated in January keep arriving, one at a time from 4 senders, while the clock moves
    // past the period end and every subscription closes January.
    let sending = true;
    const accepted = new Map<string, number>();
    const senders = Array.from({ length: 4 }, async (_, sender) => {
      for (let n = 0; sending; n += 1) {
        const { customerId, subscriptionId } = subscriptions[(n + sender) % subscriptions.length]!;
        const res = await h.request('POST', '/v1/events', {
          body: { id: `race-${sender}-${n}-${subscriptionId}`, event_type: 'api_calls', customer_id: customerId, subscription_id: subscriptionId, timestamp: '2026-01-31T22:00:00Z', properties: {} },
        });
        const body = await expectJson<{ accepted: boolean }>(res);
        if (body.accepted) accepted.set(subscriptionId, (accepted.get(subscriptionId) ?? 0) + 1);
      }
    });
    await advanceClock(h, clockId, '2026-02-01T02:00:00.000Z');
    sending = false;
    await Promise.all(senders);
    await advanceClock(h, clockId, '2026-03-01T02:00:00.000Z');

    for (const { customerId, subscriptionId } of subscriptions) {
      const invoices = await invoicesOf(subscriptionId);
      const stored = await h.deps.db.usageEvent.count({ where: { customerId, subscriptionId } });
      expect(stored).toBe(accepted.get(subscriptionId) ?? 0);
      expect(billedUsage(invoices, subscriptionId, JANUARY)).toBe(BigInt(stored));
      expect(invoices.filter((i) => i.billing_reason === 'subscription_cycle' && i.period_start === JANUARY)).toHaveLength(1);
    }
    expect([...accepted.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it('bills an event whose ingestion had read the open period when the close committed (held mid-statement across the close)', async () => {
    const { clockId, customerId, subscriptionId } = await subscribeOnClock(JANUARY, await makeGraduatedCallsPlan(h, 'late usage'));
    await advanceClock(h, clockId, '2026-01-31T23:30:00.000Z');
    await sendUsage(h, customerId, subscriptionId, 3, '2026-01-31T23:00:00.000Z');
    // Every insert into usage_events takes the table's writer lock (shared) in its statement: held
    // exclusively here, it stops the next ingestion statement after it has begun, snapshot taken.
    const holder = await h.deps.pool.connect();
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await holder.query('COMMIT');
    };
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT pg_advisory_xact_lock('usage_events'::regclass::oid::bigint)`);
      const held = h.request('POST', '/v1/events', {
        body: { id: `held-${subscriptionId}`, event_type: 'api_calls', customer_id: customerId, subscription_id: subscriptionId, timestamp: '2026-01-31T23:10:00Z', properties: {} },
      });
      const ingesting = await eventually(async () => {
        const { rows } = await holder.query<{ pid: number }>(`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND NOT granted LIMIT 1`);
        expect(rows).toHaveLength(1);
        return rows[0]!.pid;
      });
      // The period closes meanwhile; the held statement goes on once the close committed (or, when
      // the close waits for the statement's subscription lock, once that is seen).
      const advance = advanceClock(h, clockId, '2026-02-01T02:00:00.000Z');
      await eventually(async () => {
        const closed = await h.deps.db.subscriptionPeriodClose.count({ where: { subscriptionId } });
        const { rows } = await holder.query(`SELECT 1 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, [ingesting]);
        expect(closed + rows.length).toBeGreaterThan(0);
      });
      await release();
      expect(await expectJson<{ accepted: boolean }>(await held)).toMatchObject({ accepted: true });
      await advance;
    } finally {
      await release();
      holder.release();
    }
    await advanceClock(h, clockId, '2026-03-01T02:00:00.000Z');
    expect(billedUsage(await invoicesOf(subscriptionId), subscriptionId, JANUARY)).toBe(4n);
  });

  it('bills the late usage of ended subscriptions on no test clock in the daily run (the late-usage-corrections schedule)', async () => {
    const planId = await makeGraduatedCallsPlan(h, 'late usage');
    const skuId = (await h.deps.db.sku.findFirstOrThrow({ where: { planId } })).id;
    const customerId = await makeCustomer(h.deps.db);
    // A subscription that ended at the start of today (UTC), its last month invoiced with 100 calls.
    const end = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000);
    const start = new Date(end.getTime() - 30 * 86_400_000);
    const subscriptionId = newId();
    await h.deps.db.subscription.create({
      data: { id: subscriptionId, customerId, planId, currency: 'USD', status: 'Expired', periodStart: start, periodEnd: end, billingAnchor: start, workflowStartedAt: start },
    });
    await h.deps.db.subscriptionPhase.create({ data: { id: newId(), subscriptionId, planId, startsAt: start } });
    const invoiceId = newId();
    const period = { periodStart: start, periodEnd: end };
    await h.deps.db.invoice.create({ data: { id: invoiceId, customerId, subscriptionId, currency: 'USD', billingReason: 'subscription_final', ...period, subtotalNanos: (100n * CENT).toString(), totalNanos: (100n * CENT).toString() } });
    await h.deps.db.invoiceLineItem.create({
      data: { id: newId(), invoiceId, kind: 'usage', description: 'API calls', skuId, planId, subscriptionId, quantity: '100', amountNanos: (100n * CENT).toString(), ...period },
    });
    await h.deps.db.invoice.update({ where: { id: invoiceId }, data: { status: 'Open', invoiceNumber: `LATE-${invoiceId.slice(-8)}`, finalizedAt: end } });
    await sendUsage(h, customerId, subscriptionId, 100, new Date(start.getTime() + 86_400_000).toISOString());
    await h.deps.db.$executeRaw`INSERT INTO subscription_period_closes (subscription_id, period_start, period_end, invoice_id, accounted_seq)
      VALUES (${subscriptionId}::uuid, ${start}, ${end}, ${invoiceId}::uuid, COALESCE(pg_sequence_last_value('usage_events_seq_seq'::regclass), 0))`;
    await sendUsage(h, customerId, subscriptionId, 25, new Date(end.getTime() - 3_600_000).toISOString());

    const schedule = h.deps.temporal.client.schedule.getHandle(LATE_USAGE_CORRECTIONS_SCHEDULE_ID);
    expect((await schedule.describe()).action).toMatchObject({ type: 'startWorkflow', workflowType: 'lateUsageCorrectionsWorkflow' });
    const runs = (await schedule.describe()).info.recentActions.length;
    await schedule.trigger();
    const run = await eventually(async () => {
      const actions = (await schedule.describe()).info.recentActions;
      expect(actions.length).toBeGreaterThan(runs);
      return h.deps.temporal.client.workflow.getHandle<() => Promise<LateUsageCorrectionsSummary>>(actions[actions.length - 1]!.action.workflow.workflowId);
    });
    const summary = await run.result();
    await captureHistory(run, 'bills-ended-subscription-late-usage');
    expect(summary.failed).toEqual([]);
    expect(summary.invoices).toHaveLength(1);
    const all = await allInvoicesOf(customerId);
    expect(all.map((i) => [i.billing_reason, i.status])).toEqual([
      ['subscription_final', 'Open'],
      ['late_usage_correction', 'Open'],
    ]);
    const correction = all[1];
    expect(correction).toMatchObject({ id: summary.invoices[0], status: 'Open', total_nanos: (25n * CENT).toString() });
    expect(billedUsage(await allInvoicesOf(customerId), subscriptionId, start.toISOString())).toBe(125n);
    // The run, not its activity, started the correction invoice's workflow: its child (issue 29).
    expect(await childStartsOf(run)).toContain(invoiceWorkflowId(correction!.id));
    expect((await h.deps.temporal.client.workflow.getHandle(invoiceWorkflowId(correction!.id)).describe()).parentExecution?.workflowId).toBe(run.workflowId);
    await captureHistory(run, 'correction-invoice-workflow-started-as-child');
  });

  it('opens no second invoice when a period close runs again after its invoice was finalized', async () => {
    const { clockId, customerId, subscriptionId } = await subscribeOnClock(JANUARY, await makeGraduatedCallsPlan(h, 'late usage'));
    await advanceClock(h, clockId, '2026-01-15T00:00:00.000Z');
    await sendUsage(h, customerId, subscriptionId, 10, '2026-01-15T00:00:00.000Z');
    await advanceClock(h, clockId, '2026-02-01T02:00:00.000Z');
    // Late usage is waiting for January; a close of January replayed now (a worker killed after the
    // commit, its activity retried) bills nothing: no second January invoice.
    await sendUsage(h, customerId, subscriptionId, 5, '2026-01-16T00:00:00.000Z');
    const again = await closeSubscriptionPeriod(
      h.deps.db,
      { subscriptionId, period: { start: new Date(JANUARY), end: new Date('2026-02-01T00:00:00.000Z') }, reason: 'subscription_cycle' },
      { roll: false },
    );
    expect(again.billed.invoiceId).toBeNull();
    const invoices = await invoicesOf(subscriptionId);
    expect(invoices.map((i) => i.billing_reason)).toEqual(['subscription_cycle']);
    // The database refuses a second close record for the period, whoever writes it.
    await expect(
      h.deps.db.$executeRaw`INSERT INTO subscription_period_closes (subscription_id, period_start, period_end, accounted_seq) VALUES (${subscriptionId}::uuid, ${new Date(JANUARY)}, ${new Date('2026-02-01T00:00:00.000Z')}, 0)`,
    ).rejects.toThrow(/unique|duplicate/i);
    await advanceClock(h, clockId, '2026-03-01T02:00:00.000Z');
    expect(billedUsage(await invoicesOf(subscriptionId), subscriptionId, JANUARY)).toBe(15n);
  });
});
