/**
 * Issue 29: the subscription workflow, not its activities, drives the invoice workflows of its
 * period closes and bill-nows (patch `subscription-runs-invoice-follow-ups`). The invoice workflow is
 * the subscription workflow's child; a finalize it asks for rides on that child's start, or on a
 * `finalizeRequest` signal when the invoice workflow runs already, and is answered by a
 * `finalizeAnswered` signal back, as the histories show.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { invoiceWorkflowId, type InvoiceWorkflowInput } from '../../workflows/invoice/messages.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { advanceClock } from '../support/clock-usage.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { expectJson, useHarness } from '../support/harness.js';
import { captureHistory, withoutClockSteps } from '../support/histories.js';
import { invoicesOf } from '../support/invoices.js';
import { attachCard, paymentsOf } from '../support/payments.js';

const h = useHarness();

interface Invoice {
  id: string;
  status: string;
  billing_reason: string;
  total_nanos: string;
}

const handleOf = (workflowId: string) => h.deps.temporal.client.workflow.getHandle(workflowId);

async function eventsOf(handle: WorkflowHandle) {
  return (await handle.fetchHistory()).events ?? [];
}

/** The invoice workflow's start input, as its history recorded it. */
async function startInputOf(handle: WorkflowHandle): Promise<InvoiceWorkflowInput> {
  const [started] = await eventsOf(handle);
  const payload = started?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0]?.data;
  return JSON.parse(Buffer.from(payload!).toString('utf8')) as InvoiceWorkflowInput;
}

describe('the subscription workflow drives its invoice workflows', () => {
  it('starts them as its children, asks their finalize with the start or by a signal, and waits for the answer', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const planId = await makePlan(h.deps.db, { flatNanos: 49n * UNIT });
    const subscribe = async (card: boolean) => {
      const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
      if (card) await attachCard(h, customerId);
      const { id } = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
      return id;
    };
    // Charged at finalize (a card on file: the processor refuses it here, so dunning starts); billed on demand
    // first, then charged; never charged (no card).
    const [charged, billedEarly, lean] = [await subscribe(true), await subscribe(true), await subscribe(false)];

    await advanceClock(h, clockId, '2026-01-10T00:00:00.000Z');
    const early = await expectJson<Invoice>(await h.request('POST', `/admin/v1/subscriptions/${billedEarly}/bill`), 201);
    const earlyWorkflow = handleOf(invoiceWorkflowId(early.id));
    expect((await earlyWorkflow.describe()).parentExecution?.workflowId).toBe(subscriptionWorkflowId(billedEarly));
    expect(await startInputOf(earlyWorkflow)).toEqual({ invoiceId: early.id, status: 'Draft' });

    // Past the period end and its grace hour: every period is closed and its Draft finalized.
    await advanceClock(h, clockId, '2026-02-01T01:00:00.000Z');

    // Charged: the finalize rode on the invoice workflow's start, the subscription's child.
    const [chargedInvoice] = await invoicesOf<Invoice>(h, `subscription_id=${charged}`);
    expect(chargedInvoice).toMatchObject({ status: 'Open', billing_reason: 'subscription_cycle', total_nanos: (49n * UNIT).toString() });
    // Charged within the finalize the subscription waited for: the advance answered after it.
    expect(await paymentsOf(h, chargedInvoice!.id)).toMatchObject([{ source: 'auto_charge', status: 'Failed', attempted_at: '2026-02-01T01:00:00.000Z' }]);
    const chargedWorkflow = handleOf(invoiceWorkflowId(chargedInvoice!.id));
    const chargedSubscription = handleOf(subscriptionWorkflowId(charged));
    expect((await chargedWorkflow.describe()).parentExecution?.workflowId).toBe(chargedSubscription.workflowId);
    expect(await startInputOf(chargedWorkflow)).toMatchObject({ invoiceId: chargedInvoice!.id, status: 'Draft', finalize: { replyTo: chargedSubscription.workflowId, command: { reason: 'period_closed', at: '2026-02-01T01:00:00.000Z' } } });
    const chargedInvoiceEvents = await eventsOf(chargedWorkflow);
    // The failed charge's follow-up (the subscription goes PastDue), then the answer.
    expect(chargedInvoiceEvents.flatMap((e) => e.signalExternalWorkflowExecutionInitiatedEventAttributes?.signalName ?? [])).toEqual(['paymentOutcome', 'finalizeAnswered']);
    const chargedEvents = await eventsOf(chargedSubscription);
    expect(chargedEvents.flatMap((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId ?? [])).toEqual([chargedWorkflow.workflowId]);
    // Besides the test clock's steps (clockAdvance).
    expect(withoutClockSteps(chargedEvents.flatMap((e) => e.workflowExecutionSignaledEventAttributes?.signalName ?? []))).toEqual(['paymentOutcome', 'finalizeAnswered']);
    // No update reached either workflow from an activity.
    expect(chargedInvoiceEvents.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes)).toEqual([]);

    // Billed early: its invoice workflow ran already, so the finalize was asked by a signal.
    const earlyInvoices = await invoicesOf<Invoice>(h, `subscription_id=${billedEarly}`);
    expect(earlyInvoices.map((i) => [i.id, i.status])).toEqual([[early.id, 'Open']]);
    expect(await paymentsOf(h, early.id)).toMatchObject([{ source: 'auto_charge', attempted_at: '2026-02-01T01:00:00.000Z' }]);
    const earlyEvents = await eventsOf(handleOf(subscriptionWorkflowId(billedEarly)));
    // Found running by the period close's activity: no second start is tried.
    expect(earlyEvents.flatMap((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId ?? [])).toEqual([earlyWorkflow.workflowId]);
    expect(earlyEvents.filter((e) => e.startChildWorkflowExecutionFailedEventAttributes)).toEqual([]);
    expect(withoutClockSteps(earlyEvents.flatMap((e) => e.signalExternalWorkflowExecutionInitiatedEventAttributes?.signalName ?? []))).toEqual(['finalizeRequest']);
    expect(withoutClockSteps(earlyEvents.flatMap((e) => e.workflowExecutionSignaledEventAttributes?.signalName ?? []))).toEqual(['paymentOutcome', 'finalizeAnswered']);
    expect((await eventsOf(earlyWorkflow)).flatMap((e) => e.workflowExecutionSignaledEventAttributes?.signalName ?? [])).toEqual(['finalizeRequest']);

    // No card: finalized by the period close itself, then its workflow started lean as the subscription's child.
    const [leanInvoice] = await invoicesOf<Invoice>(h, `subscription_id=${lean}`);
    expect(leanInvoice).toMatchObject({ status: 'Open', billing_reason: 'subscription_cycle' });
    const leanWorkflow = handleOf(invoiceWorkflowId(leanInvoice!.id));
    expect((await leanWorkflow.describe()).parentExecution?.workflowId).toBe(subscriptionWorkflowId(lean));
    expect(await startInputOf(leanWorkflow)).toEqual({ invoiceId: leanInvoice!.id, status: 'Open', lean: true });

    await captureHistory(chargedWorkflow, 'finalized-on-request-with-start-then-charged');
    await captureHistory(chargedSubscription, 'period-close-finalize-asked-with-invoice-workflow-start');
    await captureHistory(earlyWorkflow, 'billed-now-by-subscription-finalized-on-request-signal');
    await captureHistory(handleOf(subscriptionWorkflowId(billedEarly)), 'billed-now-then-finalize-asked-by-signal');
    await Promise.all([charged, billedEarly, lean].map((id) => handleOf(subscriptionWorkflowId(id)).terminate('test done')));
  }, 180_000);
});
