/**
 * Periodic revenue recognition (src/services/ledger/recognition.ts), with the real API, PostgreSQL,
 * Temporal server and worker:
 * - on a test clock, every advance recognizes its customers' deferred revenue up to the new time: an
 *   annual fee billed in advance moves from deferred revenue to revenue month by month (not once a
 *   year at the period close), each step dated at its month start, the trial balance at zero;
 * - in real time, the Temporal Schedule `ledger-revenue-recognition` runs it for customers on no
 *   test clock, up to now; a second run writes nothing.
 */
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import { insertLines, recomputeTotals } from '../../src/db/invoices.js';
import { applyTax, zeroTax } from '../../src/services/billing/tax.js';
import { finalizeInvoice } from '../../src/services/invoicing/invoices.js';
import { REVENUE_RECOGNITION_SCHEDULE_ID, type RevenueRecognitionSummary } from '../../workflows/revenue-recognition/messages.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { advanceClock } from '../support/clock-usage.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { captureHistory } from '../support/histories.js';
import { eventually } from '../support/payments.js';
import { expectJson, expectPage, terminatedAfterAll, useHarness } from '../support/harness.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';

const h = useHarness();
const cleanup = terminatedAfterAll(h);

const DAY_MS = 86_400_000;

async function balances(customerId: string, asOf?: string): Promise<Record<string, bigint>> {
  const body = await expectJson<{ accounts: { kind: string; balance_nanos: string }[] }>(
    await h.request('GET', `/admin/v1/customers/${customerId}/ledger/accounts${asOf ? `?as_of=${asOf}` : ''}`),
  );
  return Object.fromEntries(body.accounts.map((a) => [a.kind, BigInt(a.balance_nanos)]));
}

async function trialDifference(customerId: string): Promise<string[]> {
  const trial = await expectJson<{ currencies: { difference_nanos: string }[] }>(await h.request('GET', `/admin/v1/ledger/trial-balance?customer_id=${customerId}`));
  return trial.currencies.map((c) => c.difference_nanos);
}

const recognitionEntries = async (customerId: string) =>
  (
    await expectPage<{ journal_kind: string; effective_at: string; amount_nanos: string }>(
      await h.request('GET', `/admin/v1/customers/${customerId}/ledger/entries?account=revenue&limit=100`),
    )
  )
    .data.filter((e) => e.journal_kind === 'revenue_recognition')
    // Lists come newest first: the steps in the order they were earned.
    .sort((a, b) => a.effective_at.localeCompare(b.effective_at));

/** The first instant of the UTC month after `ms`. */
const nextMonthStart = (ms: number): number => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
};

describe('revenue recognition on a test clock', () => {
  it('an annual fee billed in advance is recognized month by month as the clock advances, each step at its month start', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    // 365.00 a year: one whole unit earned per day of the service period [2026-01-01, 2027-01-01).
    const fee = 365n * UNIT;
    const planId = await makePlan(h.deps.db, { cadence: 'Annual', flatNanos: fee });
    const subscription = await expectJson<{ id: string; period_end: string }>(
      await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }),
      201,
    );
    cleanup.push(subscriptionWorkflowId(subscription.id));
    expect(subscription.period_end).toBe('2027-01-01T00:00:00.000Z');

    // Billed on demand and finalized on January 15th: the whole year's fee is deferred.
    await advanceClock(h, clockId, '2026-01-15T00:00:00.000Z');
    const draft = await expectJson<{ id: string }>(await h.request('POST', `/admin/v1/subscriptions/${subscription.id}/bill`), 201);
    const invoice = await expectJson<{ total_nanos: string }>(await h.request('POST', `/admin/v1/invoices/${draft.id}/finalize`));
    expect(invoice.total_nanos).toBe(fee.toString());
    expect(await balances(customerId)).toMatchObject({ accounts_receivable: fee, deferred_revenue: fee });
    expect((await balances(customerId)).revenue ?? 0n).toBe(0n);

    // Month by month: at each month start the days of the month that ended are earned (fee / 365 per day).
    const months = ['2026-02-01', '2026-03-01', '2026-04-01', '2026-05-01'];
    let previous = Date.UTC(2026, 0, 1);
    let earned = 0n;
    for (const month of months) {
      const at = Date.parse(`${month}T00:00:00.000Z`);
      const monthEarned = (fee * BigInt((at - previous) / DAY_MS)) / 365n;
      const before = await balances(customerId);
      await advanceClock(h, clockId, `${month}T00:00:00.000Z`);
      const after = await balances(customerId);
      earned += monthEarned;
      expect([after.revenue, after.deferred_revenue], month).toEqual([earned, fee - earned]);
      expect([after.revenue! - (before.revenue ?? 0n), before.deferred_revenue! - after.deferred_revenue!], month).toEqual([monthEarned, monthEarned]);
      expect(await trialDifference(customerId)).toEqual(['0']);
      previous = at;
    }
    // 31 + 28 + 31 + 30 days.
    expect(earned).toBe(120n * UNIT);

    // Each step is dated at its month start: balances as of a date count the steps up to it.
    const steps = await recognitionEntries(customerId);
    expect(steps.map((e) => [e.effective_at, BigInt(e.amount_nanos)])).toEqual([
      ['2026-02-01T00:00:00.000Z', 31n * UNIT],
      ['2026-03-01T00:00:00.000Z', 28n * UNIT],
      ['2026-04-01T00:00:00.000Z', 31n * UNIT],
      ['2026-05-01T00:00:00.000Z', 30n * UNIT],
    ]);
    expect(await balances(customerId, '2026-03-15T00:00:00.000Z')).toMatchObject({ revenue: 59n * UNIT, deferred_revenue: 306n * UNIT });

    // Advancing again to the same time, or within the month, posts nothing new.
    await advanceClock(h, clockId, '2026-05-01T00:00:00.000Z');
    await advanceClock(h, clockId, '2026-05-20T00:00:00.000Z');
    expect(await recognitionEntries(customerId)).toHaveLength(4);
    expect(await balances(customerId)).toMatchObject({ revenue: 120n * UNIT, deferred_revenue: 245n * UNIT });
  }, 300_000);
});

describe('revenue recognition in real time', () => {
  /** A finalized invoice with one deferred line [start, start + 365 days) of 365.00, finalized a day after its start. */
  async function deferredInvoice(customerId: string, start: number): Promise<void> {
    const id = newId();
    await h.deps.db.$transaction(async (tx) => {
      await tx.invoice.create({ data: { id, customerId, currency: 'USD', billingReason: 'manual' } });
      await insertLines(tx, id, [{ kind: 'fee', description: 'Annual fee in advance', amountNanos: 365n * UNIT, periodStart: new Date(start), periodEnd: new Date(start + 365 * DAY_MS) }]);
      await recomputeTotals(tx, id);
    });
    await finalizeInvoice(h.deps.db, id, {
      actor: { type: 'admin', id: 'test-admin' },
      at: new Date(start + DAY_MS),
      applyTax: (tx, invoice) => applyTax(tx, invoice, zeroTax),
    });
  }

  it('the daily Schedule posts the steps due up to now for customers on no test clock, each at its date, once', async () => {
    const scheduleHandle = h.deps.temporal.client.schedule.getHandle(REVENUE_RECOGNITION_SCHEDULE_ID);
    expect((await scheduleHandle.describe()).action).toMatchObject({ type: 'startWorkflow', workflowType: 'revenueRecognitionWorkflow' });

    // Service began at midnight UTC 70 days ago: two or three month starts have passed since.
    const todayMs = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
    const start = todayMs - 70 * DAY_MS;
    const realTime = await makeCustomer(h.deps.db);
    await deferredInvoice(realTime, start);
    // A customer on a test clock frozen at the same start is left to its clock's advances.
    const onClock = await makeCustomer(h.deps.db, { testClockId: await makeTestClock(h.deps.db, new Date(start).toISOString()) });
    await deferredInvoice(onClock, start);

    // What should be earned, computed by hand: one unit per day up to each month start since the start.
    const expected: [string, bigint][] = [];
    for (let month = nextMonthStart(start), before = start; month <= Date.now(); before = month, month = nextMonthStart(month)) {
      expected.push([new Date(month).toISOString(), BigInt((month - before) / DAY_MS) * UNIT]);
    }
    expect(expected.length).toBeGreaterThanOrEqual(2);
    const earned = expected.reduce((sum, [, amount]) => sum + amount, 0n);

    const runOnce = async (): Promise<RevenueRecognitionSummary> => {
      const before = (await scheduleHandle.describe()).info.recentActions.length;
      await scheduleHandle.trigger();
      const run = await eventually(async () => {
        const actions = (await scheduleHandle.describe()).info.recentActions;
        expect(actions.length).toBeGreaterThan(before);
        return h.deps.temporal.client.workflow.getHandle<() => Promise<RevenueRecognitionSummary>>(actions[actions.length - 1]!.action.workflow.workflowId);
      });
      const summary = await run.result();
      await captureHistory(run, 'recognizes-steps-due-in-real-time');
      return summary;
    };

    const first = await runOnce();
    expect(first.failed).toEqual([]);
    expect(first.journals).toBeGreaterThanOrEqual(expected.length);
    expect((await recognitionEntries(realTime)).map((e) => [e.effective_at, BigInt(e.amount_nanos)])).toEqual(expected);
    expect(await balances(realTime)).toMatchObject({ revenue: earned, deferred_revenue: 365n * UNIT - earned });
    expect(await trialDifference(realTime)).toEqual(['0']);
    // As of the day before the latest step, that step is not counted yet.
    const [lastAt, lastAmount] = expected[expected.length - 1]!;
    expect((await balances(realTime, new Date(Date.parse(lastAt) - DAY_MS).toISOString())).revenue).toBe(earned - lastAmount);
    // Nothing recognized for the customer on the test clock.
    expect(await recognitionEntries(onClock)).toEqual([]);
    expect((await balances(onClock)).deferred_revenue).toBe(365n * UNIT);

    // A second run writes nothing for this customer.
    await runOnce();
    expect(await recognitionEntries(realTime)).toHaveLength(expected.length);
  }, 120_000);
});
