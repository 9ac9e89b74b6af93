/**
 * The failure taxonomy end to end (docs/failures.md), through the API, PostgreSQL and the Temporal
 * server with the real worker:
 * - a DETERMINISTIC failure (an invoice line that overflows its column, SQLSTATE 22003 / Prisma
 *   P2020) is never retried: the subscription shows billing_error, an audit entry is written, the
 *   test-clock advance returns, other subscriptions are billed (one whose stored usage nets below
 *   zero bills zero usage), updates are served; an operator's retry runs the step again, and after
 *   the cause is fixed it bills;
 * - a TRANSIENT failure (a serialization failure injected by a trigger) is retried with backoff and
 *   the period is billed with no billing_error;
 * - an invoice move failing deterministically shows billing_error on the invoice and is retried by
 *   POST /admin/v1/invoices/:id/retry;
 * - an operator's retry sent while the billing_error is being recorded (the row may show it before
 *   the workflow hears the recording finished) is accepted, for a subscription and an invoice.
 */
import type { WorkflowUpdateHandle } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { invoiceWorkflowId, retryInvoiceBillingUpdate } from '../../workflows/invoice/messages.js';
import { retrySubscriptionBillingUpdate, subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { newId } from '../../src/ids.js';
import { advanceClock } from '../support/clock-usage.js';
import { activityAttempts, injectOverflow, withOverflow } from '../support/faults.js';
import { captureHistory } from '../support/histories.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { expectJson, expectPage, useHarness } from '../support/harness.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { invoicesOf as readInvoices } from '../support/invoices.js';
import { billingErrorTrail, firstTimes, holdBillingErrorRecording, retryAccepted } from './hold-window.js';

const h = useHarness();

interface BillingError {
  step: string;
  type: string;
  message: string;
  failed_at: string;
}
interface Subscription {
  id: string;
  status: string;
  period_start: string;
  period_end: string;
  billing_error: BillingError | null;
}
interface Invoice {
  id: string;
  status: string;
  total_nanos: string;
  billing_error: BillingError | null;
  line_items: { kind: string; quantity: string }[];
}

const START = '2026-01-01T00:00:00.000Z';
/** Past the first period's end and its invoice's grace (1 h). */
const AFTER_FIRST_PERIOD = '2026-02-01T02:00:00.000Z';

const advance = (clockId: string, to: string) => advanceClock(h, clockId, to);
const subscriptionOf = async (id: string) => expectJson<Subscription>(await h.request('GET', `/v1/subscriptions/${id}`));
const invoicesOf = async (subscriptionId: string) =>
  readInvoices<Invoice>(h, `subscription_id=${subscriptionId}`);

async function subscribe(clockId: string, eventType: string): Promise<{ customerId: string; subscriptionId: string }> {
  const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
  const planId = await makePlan(h.deps.db, { meterEventType: eventType });
  const subscription = await expectJson<Subscription>(
    await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }),
    201,
  );
  return { customerId, subscriptionId: subscription.id };
}

/**
 * Stores a usage event straight into the table, as events accepted before the door bounded
 * quantities were: the API refuses this one now (test/http/failures.test.ts).
 */
async function storeRawEvent(customerId: string, subscriptionId: string, eventType: string, quantity: string): Promise<string> {
  const id = `raw-${newId()}`;
  await h.deps.db.usageEvent.create({
    data: { id, eventType, customerId, subscriptionId, occurredAt: new Date('2026-01-15T00:00:00.000Z'), properties: { quantity } },
  });
  return id;
}

describe('billing errors', () => {
  it('holds a subscription whose period cannot be billed as billing_error without retrying, keeps everything else going, and bills after an operator fixes the cause and retries', async () => {
    const eventType = `poison_${process.pid}`;
    const clockId = await makeTestClock(h.deps.db, START);
    const poisoned = await subscribe(clockId, eventType);
    const healthy = await subscribe(clockId, eventType);
    const corrected = await subscribe(clockId, eventType);
    await storeRawEvent(poisoned.customerId, poisoned.subscriptionId, eventType, '2');
    await storeRawEvent(healthy.customerId, healthy.subscriptionId, eventType, '7');
    // Stored before the door refused negatives from customers: the period's usage counts as zero, never below.
    await storeRawEvent(corrected.customerId, corrected.subscriptionId, eventType, '-5000');
    // The poisoned subscription's invoice lines overflow their column when inserted (SQLSTATE 22003,
    // what Prisma reports as P2020), as a 31-digit quantity did.
    const dropTrigger = await injectOverflow(h.deps.db, { table: 'invoice_line_items', when: `NEW.subscription_id = '${poisoned.subscriptionId}'::uuid`, on: 'INSERT' });
    try {
      // The advance returns (it used to wait forever behind an activity retried at attempt 15+).
      const started = Date.now();
      await advance(clockId, AFTER_FIRST_PERIOD);
      expect(Date.now() - started).toBeLessThan(30_000);

      const held = await subscriptionOf(poisoned.subscriptionId);
      expect(held).toMatchObject({ status: 'Active', period_end: '2026-02-01T00:00:00.000Z' });
      expect(held.billing_error).toMatchObject({ step: 'closeAndRollSubscriptionPeriod', type: 'DeterministicFailure', failed_at: '2026-02-01T00:00:00.000Z' });
      expect(held.billing_error!.message).toMatch(/overflow|out of range/i);
      // The reason and the failing call, not our source excerpt or a path of the machine that ran it.
      expect(held.billing_error!.message).not.toMatch(/\.ts:\d|\/src\/|→/);
      // Deterministic: one attempt, never retried.
      expect((await activityAttempts(h, subscriptionWorkflowId(poisoned.subscriptionId))).closeAndRollSubscriptionPeriod).toEqual([1]);
      const audit = await h.deps.db.auditLogEntry.findFirstOrThrow({ where: { entityId: poisoned.subscriptionId, action: 'subscription.billing_error' } });
      expect(audit.after).toMatchObject({ billing_error: { step: 'closeAndRollSubscriptionPeriod', type: 'DeterministicFailure' } });

      // Other work continues: the other subscriptions on the clock rolled and their invoices were finalized.
      for (const [other, usageNanos] of [
        [healthy, 7n * (UNIT / 100n)],
        [corrected, 0n],
      ] as const) {
        expect(await subscriptionOf(other.subscriptionId)).toMatchObject({ period_start: '2026-02-01T00:00:00.000Z', billing_error: null });
        const invoices = await invoicesOf(other.subscriptionId);
        expect(invoices.map((invoice) => [invoice.status, invoice.total_nanos])).toEqual([['Open', (49n * UNIT + usageNanos).toString()]]);
      }
      // Updates are served while held: billing on demand fails fast with the same reason (422), not a hang.
      const bill = await h.request('POST', `/admin/v1/subscriptions/${poisoned.subscriptionId}/bill`);
      expect(bill.status).toBe(422);
      expect(((await bill.json()) as { error: { code: string } }).error.code).toBe('billing_failed');
      // Nothing to retry on a subscription without a billing error.
      const nothing = await h.request('POST', `/admin/v1/subscriptions/${healthy.subscriptionId}/retry`);
      expect(nothing.status).toBe(409);
      expect(((await nothing.json()) as { error: { code: string } }).error.code).toBe('no_billing_error');

      // A retry before fixing the cause runs the step again and fails again.
      const again = await expectJson<Subscription>(await h.request('POST', `/admin/v1/subscriptions/${poisoned.subscriptionId}/retry`));
      expect(again.billing_error).toMatchObject({ step: 'closeAndRollSubscriptionPeriod', type: 'DeterministicFailure' });
    } finally {
      await dropTrigger();
    }

    // The operator fixed the cause; the retry bills the period, rolls it and finalizes its invoice.
    const retried = await expectJson<Subscription>(await h.request('POST', `/admin/v1/subscriptions/${poisoned.subscriptionId}/retry`));
    expect(retried.billing_error).toBeNull();
    // Re-driving the clock at its current time waits for everything due (the invoice's grace end).
    await advance(clockId, AFTER_FIRST_PERIOD);
    expect(await subscriptionOf(poisoned.subscriptionId)).toMatchObject({ period_start: '2026-02-01T00:00:00.000Z', billing_error: null });
    const invoices = await invoicesOf(poisoned.subscriptionId);
    expect(invoices.map((invoice) => [invoice.status, invoice.total_nanos])).toEqual([['Open', (49n * UNIT + 2n * (UNIT / 100n)).toString()]]);
    const retries = await h.deps.db.auditLogEntry.findMany({ where: { entityId: poisoned.subscriptionId, action: 'subscription.billing_retried' } });
    expect(retries.map((entry) => [entry.actorType, entry.actorId])).toEqual([
      ['admin', 'test-admin'],
      ['admin', 'test-admin'],
    ]);

    await captureHistory(h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(poisoned.subscriptionId)), 'billing-error-then-operator-retry');
  });

  it('retries a transient failure with backoff and bills the period with no billing_error', async () => {
    const eventType = `flaky_${process.pid}`;
    const clockId = await makeTestClock(h.deps.db, START);
    const { customerId, subscriptionId } = await subscribe(clockId, eventType);
    await storeRawEvent(customerId, subscriptionId, eventType, '3');
    // The first two inserts of this subscription's invoice lines fail with a serialization failure
    // (SQLSTATE 40001), as a conflicting transaction would make them; the sequence counts attempts
    // outside the failing transactions.
    const sequence = `fault_${subscriptionId.replaceAll('-', '')}`;
    await h.deps.db.$executeRawUnsafe(`CREATE SEQUENCE ${sequence}`);
    await h.deps.db.$executeRawUnsafe(`
      CREATE FUNCTION ${sequence}_inject() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.subscription_id = '${subscriptionId}'::uuid AND nextval('${sequence}') <= 2 THEN
          RAISE EXCEPTION 'injected serialization failure' USING ERRCODE = '40001';
        END IF;
        RETURN NEW;
      END $$`);
    await h.deps.db.$executeRawUnsafe(`CREATE TRIGGER ${sequence}_trigger BEFORE INSERT ON invoice_line_items FOR EACH ROW EXECUTE FUNCTION ${sequence}_inject()`);
    try {
      await advance(clockId, AFTER_FIRST_PERIOD);
    } finally {
      await h.deps.db.$executeRawUnsafe(`DROP TRIGGER ${sequence}_trigger ON invoice_line_items`);
      await h.deps.db.$executeRawUnsafe(`DROP FUNCTION ${sequence}_inject()`);
      await h.deps.db.$executeRawUnsafe(`DROP SEQUENCE ${sequence}`);
    }
    expect(await subscriptionOf(subscriptionId)).toMatchObject({ period_start: '2026-02-01T00:00:00.000Z', billing_error: null });
    const invoices = await invoicesOf(subscriptionId);
    expect(invoices.map((invoice) => [invoice.status, invoice.total_nanos])).toEqual([['Open', (49n * UNIT + 3n * (UNIT / 100n)).toString()]]);
    // Retried: the close failed twice, then went through on its third attempt.
    expect((await activityAttempts(h, subscriptionWorkflowId(subscriptionId))).closeAndRollSubscriptionPeriod).toEqual([3]);
    expect(await h.deps.db.auditLogEntry.count({ where: { entityId: subscriptionId, action: 'subscription.billing_error' } })).toBe(0);
  });

  it('shows billing_error on an invoice whose finalization fails deterministically, and finalizes it on an operator retry', async () => {
    const clockId = await makeTestClock(h.deps.db, START);
    const { subscriptionId } = await subscribe(clockId, `inv_${process.pid}`);
    const draft = await expectJson<Invoice>(await h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/bill`), 201);
    // Finalizing this invoice hits a numeric overflow (SQLSTATE 22003, what Prisma reports as P2020).
    await withOverflow(h.deps.db, { table: 'invoices', when: `NEW.id = '${draft.id}'::uuid AND NEW.status = 'Open'`, on: 'UPDATE' }, async () => {
      const refused = await h.request('POST', `/admin/v1/invoices/${draft.id}/finalize`);
      expect(refused.status).toBe(422);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('billing_failed');
      const failed = await expectJson<Invoice>(await h.request('GET', `/admin/v1/invoices/${draft.id}`));
      expect(failed.status).toBe('Draft');
      expect(failed.billing_error).toMatchObject({ step: 'finalizeInvoiceRecord', type: 'DeterministicFailure' });
      expect(failed.billing_error!.message).toMatch(/overflow|out of range/i);
      expect((await activityAttempts(h, invoiceWorkflowId(draft.id))).finalizeInvoiceRecord).toEqual([1]);
      expect(await h.deps.db.auditLogEntry.count({ where: { entityId: draft.id, action: 'invoice.billing_error' } })).toBe(1);
    });
    const finalized = await expectJson<Invoice>(await h.request('POST', `/admin/v1/invoices/${draft.id}/retry`));
    expect(finalized).toMatchObject({ status: 'Open', billing_error: null });
    const nothing = await h.request('POST', `/admin/v1/invoices/${draft.id}/retry`);
    expect(nothing.status).toBe(409);
    await expectJson(await h.request('POST', `/admin/v1/invoices/${draft.id}/pay`, { body: { actor_id: 'ops', actor_name: 'Ops' } }));
    await captureHistory(h.deps.temporal.client.workflow.getHandle(invoiceWorkflowId(draft.id)), 'billing-error-then-operator-retry');
  });

  it('accepts an operator retry of a subscription sent while its billing_error is being recorded, and bills the period', async () => {
    const eventType = `window_${process.pid}`;
    const clockId = await makeTestClock(h.deps.db, START);
    const { customerId, subscriptionId } = await subscribe(clockId, eventType);
    await storeRawEvent(customerId, subscriptionId, eventType, '2');
    const handle = h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId));
    // The period close fails once (an overflowing invoice line); its billing_error's write waits for the test.
    const once = await firstTimes(h.deps.db);
    const removeFault = await injectOverflow(h.deps.db, { table: 'invoice_line_items', when: `NEW.subscription_id = '${subscriptionId}'::uuid AND ${once.sql}`, on: 'INSERT' });
    const window = await holdBillingErrorRecording(h.deps.db, 'subscriptions', `NEW.id = '${subscriptionId}'::uuid`);
    let advancing: Promise<unknown> | undefined;
    let retry: WorkflowUpdateHandle<unknown> | undefined;
    try {
      advancing = advance(clockId, AFTER_FIRST_PERIOD);
      await window.reached();
      // The error is being recorded: the retry is accepted (not 409 no_billing_error) and waits for it.
      retry = await retryAccepted(handle, retrySubscriptionBillingUpdate);
    } finally {
      await window.release();
      await removeFault();
      await once.drop();
    }
    // The retry ran the close again, which billed the period and rolled the subscription.
    expect(await retry!.result()).toMatchObject({ status: 'Active', periodStart: '2026-02-01T00:00:00.000Z' });
    await advancing;
    await advance(clockId, AFTER_FIRST_PERIOD);
    expect(await subscriptionOf(subscriptionId)).toMatchObject({ period_start: '2026-02-01T00:00:00.000Z', billing_error: null });
    const invoices = await invoicesOf(subscriptionId);
    expect(invoices.map((invoice) => [invoice.status, invoice.total_nanos])).toEqual([['Open', (49n * UNIT + 2n * (UNIT / 100n)).toString()]]);
    expect((await activityAttempts(h, handle.workflowId)).closeAndRollSubscriptionPeriod).toEqual([1, 1]);
    expect(await billingErrorTrail(h.deps.db, 'subscription', subscriptionId)).toEqual([
      ['subscription.billing_error', 'workflow'],
      ['subscription.billing_retried', 'admin'],
    ]);
    await captureHistory(handle, 'retry-accepted-while-billing-error-recorded');
  });

  it('accepts an operator retry of an invoice sent while its billing_error is being recorded, and finalizes it', async () => {
    const clockId = await makeTestClock(h.deps.db, START);
    const { subscriptionId } = await subscribe(clockId, `inv_window_${process.pid}`);
    const draft = await expectJson<Invoice>(await h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/bill`), 201);
    const handle = h.deps.temporal.client.workflow.getHandle(invoiceWorkflowId(draft.id));
    // Finalizing fails once (an overflow); the write of the invoice's billing_error waits for the test.
    const once = await firstTimes(h.deps.db);
    const removeFault = await injectOverflow(h.deps.db, { table: 'invoices', when: `NEW.id = '${draft.id}'::uuid AND NEW.status = 'Open' AND ${once.sql}`, on: 'UPDATE' });
    const window = await holdBillingErrorRecording(h.deps.db, 'invoices', `NEW.id = '${draft.id}'::uuid`);
    let finalizing: Promise<Response> | undefined;
    let retry: WorkflowUpdateHandle<unknown> | undefined;
    try {
      finalizing = h.request('POST', `/admin/v1/invoices/${draft.id}/finalize`);
      await window.reached();
      retry = await retryAccepted(handle, retryInvoiceBillingUpdate);
    } finally {
      await window.release();
      await removeFault();
      await once.drop();
    }
    // The finalize failed (answered once its billing_error was recorded); the accepted retry finalized it.
    const refused = await finalizing;
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('billing_failed');
    expect(await retry!.result()).toMatchObject({ status: 'Open' });
    expect(await expectJson<Invoice>(await h.request('GET', `/admin/v1/invoices/${draft.id}`))).toMatchObject({ status: 'Open', billing_error: null });
    expect((await activityAttempts(h, handle.workflowId)).finalizeInvoiceRecord).toEqual([1, 1]);
    expect(await billingErrorTrail(h.deps.db, 'invoice', draft.id)).toEqual([
      ['invoice.billing_error', 'workflow'],
      ['invoice.billing_retried', 'admin'],
    ]);
    await expectJson(await h.request('POST', `/admin/v1/invoices/${draft.id}/pay`, { body: { actor_id: 'ops', actor_name: 'Ops' } }));
    await captureHistory(handle, 'retry-accepted-while-billing-error-recorded');
  });
});
