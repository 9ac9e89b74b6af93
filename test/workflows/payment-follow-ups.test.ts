/**
 * Issue 29: the dunning and processor-event workflows, not their activities, ask the invoice workflow
 * for a payment (patches `dunning-asks-invoice-charge`, `processor-event-asks-invoice-workflow`,
 * `invoice-answers-payment-requests`). A workflow cannot send the `invoicePayment` update, so a
 * retry's charge or a notification is a `paymentRequest` (by signal, or carried by the invoice
 * workflow's start when it does not run) answered by a `paymentAnswered` signal, as the histories
 * show; the money moves as before. stripe-mock refuses every charge; successes come as notifications.
 */
import type { WorkflowHandle } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { dunningWorkflowId } from '../../workflows/dunning/messages.js';
import { invoiceWorkflowId, type InvoiceWorkflowInput } from '../../workflows/invoice/messages.js';
import { processorEventWorkflowId } from '../../workflows/processor-event/messages.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { advanceClock } from '../support/clock-usage.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { expectJson, useHarness } from '../support/harness.js';
import { captureHistory, withoutClockSteps } from '../support/histories.js';
import { invoicesOf } from '../support/invoices.js';
import { attachCard, dunningOf, eventually, intentEvent, notify, outboxOf, paymentsOf } from '../support/payments.js';

const h = useHarness();

const handleOf = (workflowId: string) => h.deps.temporal.client.workflow.getHandle(workflowId);
const eventsOf = async (handle: WorkflowHandle) => (await handle.fetchHistory()).events ?? [];
// A test clock's steps (and their answers) are the clock's signals, not the payment path's.
const signalsSent = async (handle: WorkflowHandle) => withoutClockSteps((await eventsOf(handle)).flatMap((e) => e.signalExternalWorkflowExecutionInitiatedEventAttributes?.signalName ?? []));
const signalsReceived = async (handle: WorkflowHandle) => withoutClockSteps((await eventsOf(handle)).flatMap((e) => e.workflowExecutionSignaledEventAttributes?.signalName ?? []));
const childrenStarted = async (handle: WorkflowHandle) => (await eventsOf(handle)).flatMap((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowType?.name ?? []);
const updatesAccepted = async (handle: WorkflowHandle) => (await eventsOf(handle)).flatMap((e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name ?? []);

/** A customer with a card, subscribed on a clock at 2026-01-01; advanced past the January close, whose auto-charge fails: dunning starts. */
async function inDunning() {
  const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
  const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
  await attachCard(h, customerId);
  const planId = await makePlan(h.deps.db, { flatNanos: 49n * UNIT });
  const { id: subscriptionId } = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
  await advanceClock(h, clockId, '2026-02-01T01:00:00.000Z');
  const [invoice] = await invoicesOf<{ id: string; status: string }>(h, `subscription_id=${subscriptionId}`);
  expect(invoice).toMatchObject({ status: 'Open' });
  expect(await dunningOf(h, invoice!.id)).toMatchObject({ status: 'Active', retries_made: 0 });
  return { clockId, subscriptionId, invoiceId: invoice!.id };
}

/** Sends the notification twice: the second is a duplicate. Answers its workflow's outcome once it applied it. */
async function notifiedTwice(event: { id: string }) {
  expect(await expectJson(await notify(h, event))).toMatchObject({ action: 'queued' });
  const workflow = handleOf(processorEventWorkflowId(event.id));
  const outcome = await workflow.result();
  expect(await expectJson(await notify(h, event))).toMatchObject({ action: 'duplicate' });
  return { workflow, outcome };
}

describe('the dunning and processor-event workflows ask the invoice workflow for payments', () => {
  it('asks a retry charge and notifications by signal, each answered once; a notification delivered twice is applied once', async () => {
    const { clockId, subscriptionId, invoiceId } = await inDunning();
    const invoiceWorkflow = handleOf(invoiceWorkflowId(invoiceId));
    const dunningWorkflow = handleOf(dunningWorkflowId(invoiceId));
    const [autoCharge] = await paymentsOf(h, invoiceId);

    // The processor confirms the auto-charge's failure, twice: applied once, through the invoice's workflow.
    const failedNotice = await notifiedTwice(intentEvent('payment_intent.payment_failed', autoCharge!));
    expect(await signalsSent(failedNotice.workflow)).toEqual(['paymentRequest']);
    expect(await signalsReceived(failedNotice.workflow)).toEqual(['paymentAnswered']);
    expect((await paymentsOf(h, invoiceId)).map((p) => [p.source, p.status])).toEqual([['auto_charge', 'Failed']]);
    expect(await outboxOf(h, invoiceId, ['payment.failed'])).toHaveLength(1);
    expect(await dunningOf(h, invoiceId)).toMatchObject({ status: 'Active', retries_made: 0, attempt_count: 1 });

    // The first retry: its charge asked of the running invoice workflow by signal, refused at the processor.
    await advanceClock(h, clockId, '2026-02-04T01:00:00.000Z');
    const retry = (await paymentsOf(h, invoiceId)).find((p) => p.dunning_attempt === 1)!;
    expect(retry).toMatchObject({ source: 'dunning', status: 'Failed', amount: '49.00', attempted_at: '2026-02-04T01:00:00.000Z' });
    expect(await dunningOf(h, invoiceId)).toMatchObject({ status: 'Active', retries_made: 1, attempt_count: 2, next_attempt_at: '2026-02-08T01:00:00.000Z' });
    expect((await outboxOf(h, invoiceId, ['payment.failed'])).map((e) => e.data.dunning_notice ?? null)).toEqual([null, 'notify']);
    expect(await signalsSent(dunningWorkflow)).toEqual(['paymentRequest']);
    expect(await signalsReceived(dunningWorkflow)).toEqual(['paymentAnswered']);
    expect(await childrenStarted(dunningWorkflow)).toEqual([]);

    // The processor collects that retry after all, told twice: Paid once, the schedule Resolved.
    const succeeded = await notifiedTwice(intentEvent('payment_intent.succeeded', retry));
    expect(succeeded.outcome).toBe('payment_succeeded');
    expect(await signalsSent(succeeded.workflow)).toEqual(['paymentRequest']);
    expect(await signalsReceived(succeeded.workflow)).toEqual(['paymentAnswered']);
    expect(await invoiceWorkflow.result()).toMatchObject({ status: 'Paid' });
    expect(await dunningWorkflow.result()).toEqual({ status: 'Resolved', attemptCount: 1 });
    expect(await dunningOf(h, invoiceId)).toMatchObject({ status: 'Resolved', retries_made: 1, closed_reason: 'payment_succeeded' });
    expect((await paymentsOf(h, invoiceId)).map((p) => [p.source, p.dunning_attempt, p.status])).toEqual([
      ['auto_charge', null, 'Failed'],
      ['dunning', 1, 'Succeeded'],
    ]);
    expect(await outboxOf(h, invoiceId, ['payment.succeeded', 'invoice.paid'])).toMatchObject([
      { type: 'payment.succeeded', data: { invoice_id: invoiceId, amount_nanos: (49n * UNIT).toString(), payment_id: retry.id } },
      { type: 'invoice.paid', data: { invoice_id: invoiceId } },
    ]);
    await eventually(async () => expect((await expectJson<{ status: string }>(await h.request('GET', `/v1/subscriptions/${subscriptionId}`))).status).toBe('Active'));

    // The invoice workflow took the three requests (notification, retry charge, notification) and
    // answered each; no update reached it (the period close's finalize rode on its start).
    expect((await signalsReceived(invoiceWorkflow)).filter((name) => name === 'paymentRequest')).toHaveLength(3);
    expect((await signalsSent(invoiceWorkflow)).filter((name) => name === 'paymentAnswered')).toHaveLength(3);
    expect(await updatesAccepted(invoiceWorkflow)).toEqual([]);

    await captureHistory(dunningWorkflow, 'retry-charge-asked-by-signal-then-collected');
    await captureHistory(invoiceWorkflow, 'payments-asked-by-dunning-and-processor-events');
    await captureHistory(succeeded.workflow, 'payment-succeeded-asked-of-invoice-workflow');
    // The same runs with the settle's and the application's follow-ups handed back to their workflows (patches dunning-runs-settle-follow-ups, processor-event-runs-follow-ups).
    await captureHistory(dunningWorkflow, 'retry-settled-follow-ups-handed-back');
    await captureHistory(succeeded.workflow, 'applied-follow-ups-handed-back');
    await handleOf(subscriptionWorkflowId(subscriptionId)).terminate('test done');
  }, 240_000);

  it('starts the invoice workflow with the retry charge when it does not run', async () => {
    const { clockId, subscriptionId, invoiceId } = await inDunning();
    // The invoice's workflow stopped (as an operator may terminate one): the retry's request starts it again.
    await handleOf(invoiceWorkflowId(invoiceId)).terminate('stopped by the test');
    const dunningWorkflow = handleOf(dunningWorkflowId(invoiceId));

    await advanceClock(h, clockId, '2026-02-04T01:00:00.000Z');
    expect((await paymentsOf(h, invoiceId)).map((p) => [p.source, p.dunning_attempt, p.status, p.attempted_at])).toEqual([
      ['auto_charge', null, 'Failed', '2026-02-01T01:00:00.000Z'],
      ['dunning', 1, 'Failed', '2026-02-04T01:00:00.000Z'],
    ]);
    expect(await dunningOf(h, invoiceId)).toMatchObject({ status: 'Active', retries_made: 1, attempt_count: 2 });

    // Found (terminated), so the signal went first and was refused; then the child start carried the request.
    expect(await signalsSent(dunningWorkflow)).toEqual(['paymentRequest']);
    const failedSignal = (await eventsOf(dunningWorkflow)).filter((e) => e.signalExternalWorkflowExecutionFailedEventAttributes);
    expect(failedSignal).toHaveLength(1);
    expect(await childrenStarted(dunningWorkflow)).toEqual(['invoiceWorkflow']);
    expect(await signalsReceived(dunningWorkflow)).toEqual(['paymentAnswered']);
    const invoiceWorkflow = handleOf(invoiceWorkflowId(invoiceId));
    expect((await invoiceWorkflow.describe()).parentExecution?.workflowId).toBe(dunningWorkflow.workflowId);
    const [started] = await eventsOf(invoiceWorkflow);
    const input = JSON.parse(Buffer.from(started!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!.data!).toString('utf8')) as InvoiceWorkflowInput;
    expect(input).toMatchObject({ invoiceId, status: 'Open', payment: { replyTo: dunningWorkflow.workflowId, command: { kind: 'charge', source: 'dunning', requestKey: 'dunning:1', dunningAttempt: 1 } } });
    expect(await signalsSent(invoiceWorkflow)).toContain('paymentAnswered');

    await captureHistory(dunningWorkflow, 'retry-charge-asked-with-invoice-workflow-start');
    await captureHistory(invoiceWorkflow, 'started-by-dunning-with-charge-request');
    await Promise.all([dunningWorkflow, invoiceWorkflow, handleOf(subscriptionWorkflowId(subscriptionId))].map((handle) => handle.terminate('test done')));
  }, 240_000);
});
