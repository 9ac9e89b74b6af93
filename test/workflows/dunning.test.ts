/**
 * Collection and dunning end to end through the API, PostgreSQL, the Temporal server and the real
 * `stripe` SDK against stripe-mock, on test clocks. stripe-mock answers every confirmation with
 * `requires_payment_method` (a refused payment method), so every charge the engine makes fails;
 * successes come as signed processor notifications about the PaymentIntents the engine created.
 */
import type { WorkflowUpdateHandle } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import { type DunningState, dunningWorkflowId, retryDunningUpdate } from '../../workflows/dunning/messages.js';
import { DUNNING_CHECK_SCHEDULE_ID, type DunningCheckSummary } from '../../workflows/dunning-check/messages.js';
import { invoiceWorkflowId } from '../../workflows/invoice/messages.js';
import { processorEventWorkflowId } from '../../workflows/processor-event/messages.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { advanceClock } from '../support/clock-usage.js';
import { activityAttempts, injectOverflow, withCorruptClockTime, withOverflow } from '../support/faults.js';
import { captureHistory, childStartsOf } from '../support/histories.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { expectJson, expectPage, useHarness } from '../support/harness.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { attachCard, dunningOf, eventually, intentEvent, notify, outboxOf, paymentsOf, type DunningView } from '../support/payments.js';
import { invoicesOf } from '../support/invoices.js';
import { billingErrorTrail, firstTimes, holdBillingErrorRecording, retryAccepted } from './hold-window.js';

const h = useHarness();

interface Invoice {
  id: string;
  status: string;
  total_nanos: string;
  paid_by: { actor_id: string } | null;
}

const advance = (clockId: string, to: string) => advanceClock(h, clockId, to);
const subscription = async (id: string) => expectJson<{ status: string }>(await h.request('GET', `/v1/subscriptions/${id}`));
const invoice = async (id: string) => expectJson<Invoice>(await h.request('GET', `/admin/v1/invoices/${id}`));

/** A customer with a card on file, subscribed on a clock at 2026-01-01; its January invoice is finalized at 2026-02-01T01:00Z. */
async function subscribedWithCard() {
  const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
  const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
  const card = await attachCard(h, customerId);
  expect(card).toMatchObject({ is_default: true, brand: 'visa', last4: '4242', status: 'attached' });
  const planId = await makePlan(h.deps.db);
  const sub = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
  return { clockId, customerId, subscriptionId: sub.id };
}

/** Advances to the January invoice's finalization: the auto-charge fails and dunning starts. */
async function failFirstCharge(clockId: string, subscriptionId: string) {
  await advance(clockId, '2026-02-01T01:00:00.000Z');
  const invoices = (await invoicesOf<Invoice>(h, `subscription_id=${subscriptionId}`));
  expect(invoices.map((i) => i.status)).toEqual(['Open']);
  return invoices[0]!;
}

describe('auto-charge and dunning on a test clock', () => {
  it('fails the auto-charge, goes PastDue, retries at +3/+7/+14/+21 days with their notices and ends Exhausted', async () => {
    const { clockId, customerId, subscriptionId } = await subscribedWithCard();
    const open = await failFirstCharge(clockId, subscriptionId);
    expect(open.total_nanos).toBe((49n * UNIT).toString());

    const [charge] = await paymentsOf(h, open.id);
    expect(charge).toMatchObject({ attempt: 1, source: 'auto_charge', status: 'Failed', amount: '49.00', dunning_attempt: null, attempted_at: '2026-02-01T01:00:00.000Z' });
    expect(charge!.processor_payment_intent_id).toMatch(/^pi_/);
    expect((await subscription(subscriptionId)).status).toBe('PastDue');
    expect(await dunningOf(h, open.id)).toMatchObject({ status: 'Active', attempt_count: 1, retries_made: 0, next_attempt_at: '2026-02-04T01:00:00.000Z', subscription_id: subscriptionId });
    expect(await outboxOf(h, subscriptionId, ['subscription.past_due'])).toEqual([
      { type: 'subscription.past_due', data: { subscription_id: subscriptionId, customer_id: customerId }, occurredAt: '2026-02-01T01:00:00.000Z' },
    ]);
    expect((await outboxOf(h, open.id, ['payment.failed'])).map((e) => e.data)).toEqual([
      { invoice_id: open.id, payment_id: charge!.id, failure_code: expect.any(String) },
    ]);

    const steps: [string, number, string | null, string, string][] = [
      ['2026-02-04T01:00:00.000Z', 1, '2026-02-08T01:00:00.000Z', 'Active', 'notify'],
      ['2026-02-08T01:00:00.000Z', 2, '2026-02-15T01:00:00.000Z', 'Active', 'escalate'],
      ['2026-02-15T01:00:00.000Z', 3, '2026-02-22T01:00:00.000Z', 'Active', 'warn_suspension'],
      ['2026-02-22T01:00:00.000Z', 4, null, 'Exhausted', 'suspend'],
    ];
    // One second before each retry nothing has happened yet; at its time it has.
    for (const [at, attempt, next, status] of steps) {
      await advance(clockId, new Date(Date.parse(at) - 1000).toISOString());
      // attempt_count is the attempt the schedule is at (SPEC §2: 1 to 4), retries_made what was made.
      expect(await dunningOf(h, open.id)).toMatchObject({ attempt_count: attempt, retries_made: attempt - 1 });
      await advance(clockId, at);
      expect(await dunningOf(h, open.id)).toMatchObject({ attempt_count: Math.min(attempt + 1, 4), retries_made: attempt, next_attempt_at: next, status });
    }
    const payments = await paymentsOf(h, open.id);
    expect(payments.map((p) => [p.attempt, p.source, p.dunning_attempt, p.status, p.attempted_at])).toEqual([
      [1, 'auto_charge', null, 'Failed', '2026-02-01T01:00:00.000Z'],
      ...steps.map(([at, attempt], i) => [i + 2, 'dunning', attempt, 'Failed', at]),
    ]);
    const failed = await outboxOf(h, open.id, ['payment.failed']);
    expect(failed.slice(1).map((e) => [e.data.dunning_attempt, e.data.dunning_notice, e.occurredAt])).toEqual(steps.map(([at, attempt, , , notice]) => [attempt, notice, at]));
    expect(await dunningOf(h, open.id)).toMatchObject({ status: 'Exhausted', closed_reason: 'exhausted' });
    // Exhausted: the subscription stays PastDue for an admin, and the invoice Open.
    expect((await subscription(subscriptionId)).status).toBe('PastDue');
    expect((await invoice(open.id)).status).toBe('Open');
    const dunningHandle = h.deps.temporal.client.workflow.getHandle(dunningWorkflowId(open.id));
    expect(await dunningHandle.result()).toEqual({ status: 'Exhausted', attemptCount: 4 });
    await captureHistory(dunningHandle, 'four-retries-exhausted');
    // The audit trail names the workflows that made these changes on their own, without a request id:
    // the subscription's (its period close finalized the invoice, whose auto-charge failed and started
    // the schedule), then the dunning workflow's retries.
    const trail = await expectPage<{ action: string; actor_type: string; actor_id: string; request_id: string | null }>(
      await h.request('GET', `/admin/v1/audit-log?entity_type=dunning_schedule&customer_id=${customerId}&limit=50`),
    );
    expect(trail.data.map((e) => [e.action, e.actor_type, e.actor_id, e.request_id]).reverse()).toEqual([
      ['dunning.started', 'workflow', subscriptionWorkflowId(subscriptionId), null],
      ...steps.map(() => ['dunning.notice', 'workflow', dunningWorkflowId(open.id), null]),
      ['dunning.exhausted', 'workflow', dunningWorkflowId(open.id), null],
    ]);

    const exhausted = await expectPage<DunningView>(await h.request('GET', `/admin/v1/dunning-schedules?status=Exhausted&subscription_id=${subscriptionId}`));
    expect(exhausted.data.map((d) => d.invoice_id)).toEqual([open.id]);
    // The admin action the SPEC names: pausing a PastDue subscription is allowed.
    expect((await expectJson<{ status: string }>(await h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/pause`))).status).toBe('Paused');
    await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId)).terminate('test done');
  });

  it('resolves when the retry at +7 days is collected: Resolved, Active, Paid, payment.succeeded', async () => {
    const { clockId, subscriptionId } = await subscribedWithCard();
    const open = await failFirstCharge(clockId, subscriptionId);
    await advance(clockId, '2026-02-04T01:00:00.000Z');
    await advance(clockId, '2026-02-08T01:00:00.000Z');
    const retry = (await paymentsOf(h, open.id)).find((p) => p.dunning_attempt === 2)!;
    expect(retry).toMatchObject({ attempt: 3, status: 'Failed', attempted_at: '2026-02-08T01:00:00.000Z' });
    expect(await dunningOf(h, open.id)).toMatchObject({ retries_made: 2, status: 'Active' });

    // The processor collects the +7 day retry's PaymentIntent after all (the customer fixed the card).
    const receipt = await expectJson<{ event_id: string; action: string }>(await notify(h, intentEvent('payment_intent.succeeded', retry)));
    expect(receipt.action).toBe('queued');
    const eventWorkflow = h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(receipt.event_id));
    expect(await eventWorkflow.result()).toBe('payment_succeeded');

    expect(await invoice(open.id)).toMatchObject({ status: 'Paid', paid_by: { actor_id: 'payment-processor' } });
    expect(await dunningOf(h, open.id)).toMatchObject({ status: 'Resolved', attempt_count: 3, retries_made: 2, next_attempt_at: null, closed_reason: 'payment_succeeded' });
    await eventually(async () => expect((await subscription(subscriptionId)).status).toBe('Active'));
    expect((await paymentsOf(h, open.id)).find((p) => p.id === retry.id)!.status).toBe('Succeeded');
    expect(await outboxOf(h, open.id, ['payment.succeeded', 'invoice.paid'])).toMatchObject([
      { type: 'payment.succeeded', data: { invoice_id: open.id, amount_nanos: (49n * UNIT).toString(), payment_id: retry.id } },
      { type: 'invoice.paid', data: { invoice_id: open.id } },
    ]);
    const dunningHandle = h.deps.temporal.client.workflow.getHandle(dunningWorkflowId(open.id));
    expect(await dunningHandle.result()).toEqual({ status: 'Resolved', attemptCount: 2 });
    await captureHistory(dunningHandle, 'resolved-after-second-retry');
    await captureHistory(eventWorkflow, 'payment-intent-succeeded');
    // Resolved: later advances make no more retries.
    await advance(clockId, '2026-03-01T00:00:00.000Z');
    expect((await paymentsOf(h, open.id)).filter((p) => p.source === 'dunning')).toHaveLength(2);
    await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId)).terminate('test done');
  });

  it('resolves when payment_intent.succeeded about the auto-charge arrives by webhook during dunning', async () => {
    const { clockId, subscriptionId } = await subscribedWithCard();
    const open = await failFirstCharge(clockId, subscriptionId);
    await advance(clockId, '2026-02-05T00:00:00.000Z');
    expect(await dunningOf(h, open.id)).toMatchObject({ status: 'Active', retries_made: 1, next_attempt_at: '2026-02-08T01:00:00.000Z' });
    const [autoCharge] = await paymentsOf(h, open.id);

    const receipt = await expectJson<{ event_id: string }>(await notify(h, intentEvent('payment_intent.succeeded', autoCharge!)));
    expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(receipt.event_id)).result()).toBe('payment_succeeded');
    expect((await invoice(open.id)).status).toBe('Paid');
    expect(await dunningOf(h, open.id)).toMatchObject({ status: 'Resolved', retries_made: 1, closed_reason: 'payment_succeeded' });
    await eventually(async () => expect((await subscription(subscriptionId)).status).toBe('Active'));
    expect((await paymentsOf(h, open.id)).map((p) => [p.source, p.status])).toEqual([
      ['auto_charge', 'Succeeded'],
      ['dunning', 'Failed'],
    ]);
    // The invoice's workflow collected it and ended; its history shows the auto-charge after finalization.
    const invoiceHandle = h.deps.temporal.client.workflow.getHandle(invoiceWorkflowId(open.id));
    expect(await invoiceHandle.result()).toMatchObject({ status: 'Paid' });
    await captureHistory(invoiceHandle, 'auto-charged-failed-then-collected-by-notification');
    await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId)).terminate('test done');
  });

  it('closes the schedule when an invoice in dunning is paid by hand or voided', async () => {
    for (const [move, body, reason, invoiceStatus] of [
      ['pay', { actor_id: 'ops-1', actor_name: 'Ops' }, 'paid_manually', 'Paid'],
      ['void', { reason: 'written off' }, 'voided', 'Void'],
    ] as const) {
      const { clockId, subscriptionId } = await subscribedWithCard();
      const open = await failFirstCharge(clockId, subscriptionId);
      expect((await expectJson<Invoice>(await h.request('POST', `/admin/v1/invoices/${open.id}/${move}`, { body }))).status).toBe(invoiceStatus);
      expect(await dunningOf(h, open.id)).toMatchObject({ status: 'Resolved', closed_reason: reason, next_attempt_at: null });
      await eventually(async () => expect((await subscription(subscriptionId)).status).toBe('Active'));
      const dunningWorkflow = h.deps.temporal.client.workflow.getHandle(dunningWorkflowId(open.id));
      expect(await dunningWorkflow.result()).toEqual({ status: 'Resolved', attemptCount: 0 });
      // The invoice's workflow ran what its moves called for: after the failed charge it told the
      // subscription (PastDue) and started the dunning workflow (its child, which outlives it); after
      // the move it told the dunning workflow and the subscription (Active again). It was started by the
      // subscription's period close with the finalize request, which it answered after the charge.
      const invoiceWorkflow = h.deps.temporal.client.workflow.getHandle(invoiceWorkflowId(open.id));
      expect((await dunningWorkflow.describe()).parentExecution?.workflowId).toBe(invoiceWorkflow.workflowId);
      expect(await invoiceWorkflow.result()).toMatchObject({ status: invoiceStatus });
      const { events } = await invoiceWorkflow.fetchHistory();
      expect((events ?? []).flatMap((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowType?.name ?? [])).toEqual(['dunningWorkflow']);
      expect((events ?? []).flatMap((e) => e.signalExternalWorkflowExecutionInitiatedEventAttributes?.signalName ?? [])).toEqual(['paymentOutcome', 'finalizeAnswered', 'dunningClosed', 'paymentOutcome']);
      if (move === 'pay') await captureHistory(invoiceWorkflow, 'charge-failed-dunning-started-then-paid-by-hand');
      await advance(clockId, '2026-02-10T00:00:00.000Z');
      expect((await paymentsOf(h, open.id)).map((p) => p.source)).toEqual(['auto_charge']);
      await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId)).terminate('test done');
    }
  });

  it("holds a retry that fails deterministically as the schedule's billing_error, lets other schedules retry, and runs it again on an operator's retry", async () => {
    const held = await subscribedWithCard();
    const other = await subscribedWithCard();
    const heldInvoice = await failFirstCharge(held.clockId, held.subscriptionId);
    const otherInvoice = await failFirstCharge(other.clockId, other.subscriptionId);
    const schedule = await dunningOf(h, heldInvoice.id);
    const workflow = h.deps.temporal.client.workflow.getHandle(dunningWorkflowId(heldInvoice.id));
    // Recording the held schedule's first retry overflows (as a corrupt stored row would).
    await withOverflow(h.deps.db, { table: 'dunning_schedules', when: `NEW.id = '${schedule.id}'::uuid AND NEW.attempt_count > OLD.attempt_count`, on: 'UPDATE' }, async () => {
      // Neither advance waits on the held schedule.
      await advance(held.clockId, '2026-02-04T01:00:00.000Z');
      await advance(other.clockId, '2026-02-04T01:00:00.000Z');
      const failed = await dunningOf(h, heldInvoice.id);
      expect(failed).toMatchObject({ status: 'Active', retries_made: 0, billing_error: { step: 'runDunningAttempt', failed_at: '2026-02-04T01:00:00.000Z' } });
      expect(failed.billing_error!.message).toMatch(/overflow/i);
      const audit = await h.deps.db.auditLogEntry.findFirstOrThrow({ where: { entityId: schedule.id, action: 'dunning_schedule.billing_error' } });
      expect([audit.actorType, audit.actorId]).toEqual(['workflow', workflow.workflowId]);
      expect((await workflow.describe()).status.name).toBe('RUNNING');
      // The other customer's schedule made its retry.
      expect(await dunningOf(h, otherInvoice.id)).toMatchObject({ status: 'Active', retries_made: 1, billing_error: null });
    });

    // The cause is fixed: the operator's retry makes the held retry and clears the error.
    const retried = await expectJson<DunningView>(await h.request('POST', `/admin/v1/invoices/${heldInvoice.id}/dunning/retry`));
    expect(retried).toMatchObject({ status: 'Active', retries_made: 1, next_attempt_at: '2026-02-08T01:00:00.000Z', billing_error: null });
    expect((await paymentsOf(h, heldInvoice.id)).map((p) => [p.source, p.dunning_attempt])).toEqual([
      ['auto_charge', null],
      ['dunning', 1],
    ]);
    const retries = await h.deps.db.auditLogEntry.findMany({ where: { entityId: schedule.id, action: 'dunning_schedule.billing_retried' } });
    expect(retries.map((entry) => [entry.actorType, entry.actorId])).toEqual([['admin', 'test-admin']]);
    const nothing = await h.request('POST', `/admin/v1/invoices/${heldInvoice.id}/dunning/retry`);
    expect(nothing.status).toBe(409);
    expect(((await nothing.json()) as { error: { code: string } }).error.code).toBe('no_billing_error');
    await captureHistory(workflow, 'billing-error-then-operator-retry');
    for (const { subscriptionId } of [held, other]) await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId)).terminate('test done');
  });

  it("accepts an operator retry sent while the schedule's billing_error is being recorded, and makes the held retry", async () => {
    const { clockId, subscriptionId } = await subscribedWithCard();
    const open = await failFirstCharge(clockId, subscriptionId);
    const schedule = await dunningOf(h, open.id);
    const workflow = h.deps.temporal.client.workflow.getHandle(dunningWorkflowId(open.id));
    // The first retry fails once (an overflow); the write of the schedule's billing_error waits for the test.
    const once = await firstTimes(h.deps.db);
    const removeFault = await injectOverflow(h.deps.db, {
      table: 'dunning_schedules',
      when: `NEW.id = '${schedule.id}'::uuid AND NEW.attempt_count > OLD.attempt_count AND ${once.sql}`,
      on: 'UPDATE',
    });
    const window = await holdBillingErrorRecording(h.deps.db, 'dunning_schedules', `NEW.id = '${schedule.id}'::uuid`);
    let advancing: Promise<unknown> | undefined;
    let retry: WorkflowUpdateHandle<DunningState> | undefined;
    try {
      advancing = advance(clockId, '2026-02-04T01:00:00.000Z');
      await window.reached();
      // The error is being recorded: the retry is accepted (not 409 no_billing_error) and waits for it.
      retry = await retryAccepted(workflow, retryDunningUpdate);
    } finally {
      await window.release();
      await removeFault();
      await once.drop();
    }
    expect(await retry!.result()).toEqual({ status: 'Active', attemptCount: 1 });
    await advancing;
    expect(await dunningOf(h, open.id)).toMatchObject({ status: 'Active', retries_made: 1, next_attempt_at: '2026-02-08T01:00:00.000Z', billing_error: null });
    expect((await paymentsOf(h, open.id)).map((p) => [p.source, p.dunning_attempt])).toEqual([
      ['auto_charge', null],
      ['dunning', 1],
    ]);
    expect(await billingErrorTrail(h.deps.db, 'dunning_schedule', schedule.id)).toEqual([
      ['dunning_schedule.billing_error', 'workflow'],
      ['dunning_schedule.billing_retried', 'admin'],
    ]);
    await captureHistory(workflow, 'retry-accepted-while-billing-error-recorded');
    await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId)).terminate('test done');
  });

  it('clears the billing_error of a held schedule when its invoice is paid or voided, and its workflow ends Resolved', async () => {
    for (const close of ['pay', 'void'] as const) {
      const { clockId, subscriptionId } = await subscribedWithCard();
      const open = await failFirstCharge(clockId, subscriptionId);
      const schedule = await dunningOf(h, open.id);
      const workflow = h.deps.temporal.client.workflow.getHandle(dunningWorkflowId(open.id));
      await withOverflow(h.deps.db, { table: 'dunning_schedules', when: `NEW.id = '${schedule.id}'::uuid AND NEW.attempt_count > OLD.attempt_count`, on: 'UPDATE' }, async () => {
        await advance(clockId, '2026-02-04T01:00:00.000Z');
      });
      expect(await dunningOf(h, open.id)).toMatchObject({ status: 'Active', billing_error: { step: 'runDunningAttempt' } });
      const payments = (await paymentsOf(h, open.id)).length;

      // Paid by hand (or voided) while the failed retry waits for an operator: nothing is left to retry.
      const body = close === 'pay' ? { actor_id: 'ops-1', actor_name: 'Ops' } : { reason: 'written off' };
      expect((await expectJson<Invoice>(await h.request('POST', `/admin/v1/invoices/${open.id}/${close}`, { body }))).status).toBe(close === 'pay' ? 'Paid' : 'Void');
      expect(await dunningOf(h, open.id)).toMatchObject({ status: 'Resolved', closed_reason: close === 'pay' ? 'paid_manually' : 'voided', billing_error: null });
      const cleared = await h.deps.db.auditLogEntry.findMany({ where: { entityId: schedule.id, action: 'dunning_schedule.billing_cleared' } });
      expect(cleared.map((entry) => [entry.actorType, (entry.before as { billing_error: { step: string } }).billing_error.step, entry.after])).toEqual([
        ['workflow', 'runDunningAttempt', { billing_error: null, reason: close === 'pay' ? 'paid_manually' : 'voided' }],
      ]);
      // The held workflow saw the schedule closed and ended; no retry was made.
      expect(await workflow.result()).toEqual({ status: 'Resolved', attemptCount: 0 });
      expect(await paymentsOf(h, open.id)).toHaveLength(payments);
      const nothing = await h.request('POST', `/admin/v1/invoices/${open.id}/dunning/retry`);
      expect(nothing.status).toBe(409);
      expect(((await nothing.json()) as { error: { code: string } }).error.code).toBe('no_billing_error');
      if (close === 'pay') await captureHistory(workflow, 'billing-error-then-invoice-paid');
      await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId)).terminate('test done');
    }
  });

  it('keeps the manual flow for a customer without a payment method', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    const sub = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: await makePlan(h.deps.db), currency: 'USD' } }), 201);
    const open = await failFirstCharge(clockId, sub.id);
    expect(await paymentsOf(h, open.id)).toEqual([]);
    expect((await subscription(sub.id)).status).toBe('Active');
    expect((await h.request('GET', `/admin/v1/invoices/${open.id}/dunning`)).status).toBe(404);
    await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(sub.id)).terminate('test done');
  });
});

describe('the daily dunning check (check_due_attempts)', () => {
  it('is a Temporal Schedule that re-drives an overdue schedule whose workflow is not running', async () => {
    const scheduleHandle = h.deps.temporal.client.schedule.getHandle(DUNNING_CHECK_SCHEDULE_ID);
    const description = await scheduleHandle.describe();
    expect(description.action).toMatchObject({ type: 'startWorkflow', workflowType: 'dunningCheckWorkflow' });
    expect(description.spec.calendars).toMatchObject([{ hour: [{ start: 3, end: 3, step: 1 }] }]);

    const { clockId, subscriptionId } = await subscribedWithCard();
    const open = await failFirstCharge(clockId, subscriptionId);
    // The schedule's workflow is lost (terminated), and its first retry becomes overdue.
    await h.deps.temporal.client.workflow.getHandle(dunningWorkflowId(open.id)).terminate('simulated loss');
    await advance(clockId, '2026-02-05T00:00:00.000Z');
    expect(await dunningOf(h, open.id)).toMatchObject({ status: 'Active', retries_made: 0, next_attempt_at: '2026-02-04T01:00:00.000Z' });

    const before = (await scheduleHandle.describe()).info.recentActions.length;
    await scheduleHandle.trigger();
    const run = await eventually(async () => {
      const actions = (await scheduleHandle.describe()).info.recentActions;
      expect(actions.length).toBeGreaterThan(before);
      return h.deps.temporal.client.workflow.getHandle(actions[actions.length - 1]!.action.workflow.workflowId);
    });
    expect((await run.result()).redriven).toContain(open.id);
    // Re-driven from where it stopped, at the clock's time: the overdue retry is made.
    await eventually(async () => expect(await dunningOf(h, open.id)).toMatchObject({ retries_made: 1, next_attempt_at: '2026-02-08T01:00:00.000Z' }));
    // The check, not its activity, started the schedule's workflow again: its child, which outlives it (issue 29).
    expect(await childStartsOf(run)).toContain(dunningWorkflowId(open.id));
    expect((await h.deps.temporal.client.workflow.getHandle(dunningWorkflowId(open.id)).describe()).parentExecution?.workflowId).toBe(run.workflowId);
    await captureHistory(run, 'redrives-overdue-schedule-as-child');
    await h.deps.temporal.client.workflow.getHandle(dunningWorkflowId(open.id)).terminate('test done');
    await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId)).terminate('test done');
  });

  it('re-drives the other overdue schedules when one fails deterministically, and names it in the summary', async () => {
    const healthy = await subscribedWithCard();
    const poisoned = await subscribedWithCard();
    const healthyInvoice = await failFirstCharge(healthy.clockId, healthy.subscriptionId);
    const poisonedInvoice = await failFirstCharge(poisoned.clockId, poisoned.subscriptionId);
    // Both schedules' workflows are lost; the healthy one's first retry becomes overdue.
    for (const { id } of [healthyInvoice, poisonedInvoice]) await h.deps.temporal.client.workflow.getHandle(dunningWorkflowId(id)).terminate('simulated loss');
    await advance(healthy.clockId, '2026-02-05T00:00:00.000Z');

    // The poisoned schedule's clock time is corrupt: its retry counts as overdue, but re-driving it fails on every attempt.
    const run = await withCorruptClockTime(h.deps.db, poisoned.clockId, async () => {
      const handle = await h.deps.temporal.client.workflow.start('dunningCheckWorkflow', { taskQueue: h.deps.temporal.taskQueue, workflowId: `dunning-check-test-${newId()}` });
      const summary = (await handle.result()) as DunningCheckSummary;
      expect(summary.redriven).toContain(healthyInvoice.id);
      expect(summary.redriven).not.toContain(poisonedInvoice.id);
      expect(summary.failed).toContainEqual({ kind: 'dunning_schedule', id: poisonedInvoice.id, message: expect.stringMatching(/invalid time value/i) });
      return handle;
    });
    // The run completed in one attempt of its activity, and the healthy schedule made its overdue retry.
    expect((await run.describe()).status.name).toBe('COMPLETED');
    expect(await activityAttempts(h, run.workflowId)).toEqual({ checkDueDunningAttempts: [1] });
    await eventually(async () => expect(await dunningOf(h, healthyInvoice.id)).toMatchObject({ retries_made: 1, next_attempt_at: '2026-02-08T01:00:00.000Z' }));
    expect(await dunningOf(h, poisonedInvoice.id)).toMatchObject({ status: 'Active', retries_made: 0 });
    await expect(h.deps.temporal.client.workflow.getHandle(dunningWorkflowId(poisonedInvoice.id)).describe()).resolves.toMatchObject({ status: { name: 'TERMINATED' } });
    await captureHistory(run, 'one-schedule-failed-others-redriven');
    await h.deps.temporal.client.workflow.getHandle(dunningWorkflowId(healthyInvoice.id)).terminate('test done');
    for (const { subscriptionId } of [healthy, poisoned]) await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId)).terminate('test done');
  });

  it('hands the other stale notifications to their workflows when one cannot be, and names it in the summary', async () => {
    // Stored ten minutes ago and never applied (their workflow start was lost): both are stale.
    const receivedAt = new Date(Date.now() - 10 * 60_000);
    const healthy = `evt_${newId()}`;
    // Temporal refuses a workflow id longer than its limit (1,000 bytes by default): this one's workflow can never start.
    const poisoned = `evt_${'x'.repeat(1_100)}`;
    const payload = (id: string) => ({ id, type: 'customer.created', data: { object: { id: 'cus_unknown', object: 'customer' } } });
    await h.deps.db.processorEvent.createMany({ data: [healthy, poisoned].map((id) => ({ id, type: 'customer.created', payload: payload(id), receivedAt })) });
    try {
      const run = await h.deps.temporal.client.workflow.start('dunningCheckWorkflow', { taskQueue: h.deps.temporal.taskQueue, workflowId: `dunning-check-test-${newId()}` });
      const summary = (await run.result()) as DunningCheckSummary;
      // Refused before its start is asked of the check workflow (a child start Temporal refuses would fail that workflow's task on every attempt).
      expect(summary.failed).toContainEqual({ kind: 'processor_event', id: poisoned, message: expect.stringMatching(/WorkflowId length exceeds limit/) });
      expect(summary.failed.map((item) => item.id)).not.toContain(healthy);
      expect(summary.notificationsRedriven).toBeGreaterThanOrEqual(1);
      // One attempt of the run's activity: the refused start was not retried, and did not stop the run.
      expect(await activityAttempts(h, run.workflowId)).toEqual({ checkDueDunningAttempts: [1] });
      await eventually(async () => expect(await h.deps.db.processorEvent.findUniqueOrThrow({ where: { id: healthy } })).toMatchObject({ processedAt: expect.any(Date) }));
      // Handed to its workflow by the check workflow: a child that outlives it.
      const children = await childStartsOf(run);
      expect(children).toContain(processorEventWorkflowId(healthy));
      expect(children).not.toContain(processorEventWorkflowId(poisoned));
      expect((await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(healthy)).describe()).parentExecution?.workflowId).toBe(run.workflowId);
      await captureHistory(run, 'hands-stale-notification-to-child-workflow');
      expect(await h.deps.db.processorEvent.findUniqueOrThrow({ where: { id: poisoned } })).toMatchObject({ processedAt: null, billingError: null });
    } finally {
      // Not left for the next runs of the check (other tests) to trip over.
      await h.deps.db.processorEvent.update({ where: { id: poisoned }, data: { processedAt: new Date(), outcome: 'test_done' } });
    }
  });
});
