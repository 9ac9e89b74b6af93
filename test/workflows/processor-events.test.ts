/**
 * Processor notifications whose application fails for good (docs/failures.md), through the API,
 * PostgreSQL, the Temporal server with the real worker and stripe-mock: a deterministic failure (an
 * injected numeric overflow, SQLSTATE 22003) is never retried, the notification shows it as its
 * billing_error in GET /admin/v1/processor-events, the workflow audits it, other notifications are
 * applied, the daily dunning check leaves it alone, and an operator's retry after the cause is fixed
 * applies it. Also the list's filters and pagination.
 */
import type { WorkflowUpdateHandle } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { unprocessedProcessorEvents } from '../../src/db/payments.js';
import type { AuditEntryView } from '../../src/schemas/audit.js';
import type { ProcessorEventView } from '../../src/services/payments/processor-events.js';
import { dunningWorkflowId } from '../../workflows/dunning/messages.js';
import { processorEventWorkflowId, retryProcessorEventUpdate } from '../../workflows/processor-event/messages.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { activityAttempts, injectOverflow, withOverflow } from '../support/faults.js';
import { makeCustomer, makePlan } from '../support/fixtures.js';
import { captureHistory } from '../support/histories.js';
import { expectJson, expectPage, terminatedAfterAll, useHarness } from '../support/harness.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { attachCard, autoChargeOf, eventId, eventually, intentEvent, notify, paymentsOf } from '../support/payments.js';
import { billingErrorTrail, firstTimes, holdBillingErrorRecording, retryAccepted } from './hold-window.js';

const h = useHarness();
const cleanup = terminatedAfterAll(h);

const eventOf = async (id: string) => expectJson<ProcessorEventView>(await h.request('GET', `/admin/v1/processor-events/${id}`));
const eventsWhere = async (query: string) => expectPage<ProcessorEventView>(await h.request('GET', `/admin/v1/processor-events?${query}`));
const auditOf = async (id: string) => (await expectPage<AuditEntryView>(await h.request('GET', `/admin/v1/audit-log?entity_type=processor_event&entity_id=${id}`))).data;

/** A Paid 49.00 invoice: its auto-charge (refused by stripe-mock) collected by a payment_intent.succeeded notification. */
async function paidInvoice() {
  const customerId = await makeCustomer(h.deps.db);
  await attachCard(h, customerId);
  const sub = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: await makePlan(h.deps.db), currency: 'USD' } }), 201);
  cleanup.push(subscriptionWorkflowId(sub.id));
  const draft = await expectJson<{ id: string }>(await h.request('POST', `/admin/v1/subscriptions/${sub.id}/bill`), 201);
  cleanup.push(dunningWorkflowId(draft.id));
  expect((await expectJson<{ status: string }>(await h.request('POST', `/admin/v1/invoices/${draft.id}/finalize`))).status).toBe('Open');
  const charge = await autoChargeOf(h, draft.id);
  const receipt = await expectJson<{ event_id: string }>(await notify(h, intentEvent('payment_intent.succeeded', charge!)));
  expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(receipt.event_id)).result()).toBe('payment_succeeded');
  return { invoiceId: draft.id, payment: charge! };
}

/** charge.refunded about a refund of 15.00 made at the processor on the payment: applied here, the invoice being Paid. */
const refundedAtProcessor = (payment: { processor_payment_intent_id: string | null }, chargeId: string) => ({
  id: eventId(),
  object: 'event',
  type: 'charge.refunded',
  data: { object: { id: chargeId, object: 'charge', payment_intent: payment.processor_payment_intent_id, amount_refunded: 1500, refunds: { data: [{ id: `re_${chargeId}` }] } } },
});

describe('a processor notification that fails deterministically', () => {
  it('is held as its billing_error (shown, audited by its workflow, left alone by the daily check) while others apply, and an operator retry applies it', async () => {
    const held = await paidInvoice();
    const other = await paidInvoice();
    const heldCharge = `ch_held_${Date.now().toString(36)}`;
    const heldEvent = refundedAtProcessor(held.payment, heldCharge);
    const otherEvent = refundedAtProcessor(other.payment, `ch_other_${Date.now().toString(36)}`);
    const workflow = h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(heldEvent.id));
    const startedAt = new Date(Date.now() - 1000).toISOString();

    // Recording the held payment's refund overflows (as a corrupt stored amount would).
    const removeFault = await injectOverflow(h.deps.db, { table: 'refunds', when: `NEW.payment_id = '${held.payment.id}'::uuid`, on: 'INSERT' });
    try {
      expect(await expectJson(await notify(h, heldEvent))).toMatchObject({ action: 'queued' });
      expect(await expectJson(await notify(h, otherEvent))).toMatchObject({ action: 'queued' });

      const failed = await eventually(async () => {
        const view = await eventOf(heldEvent.id);
        expect(view.status).toBe('billing_error');
        return view;
      });
      expect(failed).toMatchObject({ id: heldEvent.id, type: 'charge.refunded', object_id: heldCharge, processed_at: null, outcome: null });
      expect(failed.billing_error).toMatchObject({ step: 'applyProcessorEvent', type: 'DeterministicFailure' });
      expect(failed.billing_error!.message).toMatch(/overflow/i);
      // Never retried, and the run holds (it no longer fails in Temporal only).
      expect((await activityAttempts(h, workflow.workflowId)).applyProcessorEvent).toEqual([1]);
      expect((await workflow.describe()).status.name).toBe('RUNNING');
      const [recorded] = await auditOf(heldEvent.id);
      expect(recorded).toMatchObject({ action: 'processor_event.billing_error', actor_type: 'workflow', actor_id: workflow.workflowId, request_id: null, before: { billing_error: null } });
      expect(recorded!.after).toMatchObject({ billing_error: { step: 'applyProcessorEvent', type: 'DeterministicFailure' } });
      expect((await paymentsOf(h, held.invoiceId))[0]!.refunds).toEqual([]);

      // The other notification was applied.
      expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(otherEvent.id)).result()).toBe('refund_recorded');
      expect(await eventOf(otherEvent.id)).toMatchObject({ status: 'processed', outcome: 'refund_recorded', billing_error: null, processed_at: expect.any(String) });
      expect((await paymentsOf(h, other.invoiceId))[0]!.refunds).toMatchObject([{ amount_nanos: (15n * UNIT).toString(), source: 'processor' }]);

      // The daily dunning check re-drives notifications left unapplied, but not one held for an operator.
      const stale = (await unprocessedProcessorEvents(h.deps.db, new Date(Date.now() + 3_600_000), 500)).map((row) => row.id);
      expect(stale).not.toContain(heldEvent.id);
    } finally {
      await removeFault();
    }

    // The cause is fixed: the operator's retry applies it and clears the error.
    const retried = await expectJson<ProcessorEventView>(await h.request('POST', `/admin/v1/processor-events/${heldEvent.id}/retry`));
    expect(retried).toMatchObject({ id: heldEvent.id, status: 'processed', outcome: 'refund_recorded', billing_error: null, processed_at: expect.any(String) });
    expect(await workflow.result()).toBe('refund_recorded');
    expect((await activityAttempts(h, workflow.workflowId)).applyProcessorEvent).toEqual([1, 1]);
    expect((await paymentsOf(h, held.invoiceId))[0]!.refunds).toMatchObject([{ amount_nanos: (15n * UNIT).toString(), source: 'processor', status: 'Succeeded' }]);
    const trail = await auditOf(heldEvent.id);
    expect(trail.map((entry) => [entry.action, entry.actor_type, entry.actor_id])).toEqual([
      ['processor_event.billing_retried', 'admin', 'test-admin'],
      ['processor_event.billing_error', 'workflow', workflow.workflowId],
    ]);
    expect(trail[0]).toMatchObject({ request_id: expect.any(String), before: { billing_error: { step: 'applyProcessorEvent' } }, after: { billing_error: null } });

    // Nothing left to retry; an unknown event is a 404.
    const nothing = await h.request('POST', `/admin/v1/processor-events/${heldEvent.id}/retry`);
    expect(nothing.status).toBe(409);
    expect(((await nothing.json()) as { error: { code: string } }).error.code).toBe('no_billing_error');
    const unknown = await h.request('POST', '/admin/v1/processor-events/evt_never_received/retry');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('processor_event_not_found');
    await captureHistory(workflow, 'billing-error-then-operator-retry');

    // The list: by status, type, object and arrival, newest first, paged by event id.
    const mine = `created_gte=${encodeURIComponent(startedAt)}`;
    expect((await eventsWhere(`${mine}&type=charge.refunded`)).data.map((e) => e.id)).toEqual([otherEvent.id, heldEvent.id]);
    expect((await eventsWhere(`${mine}&type=charge.refunded&status=processed`)).data.map((e) => e.id)).toEqual([otherEvent.id, heldEvent.id]);
    expect((await eventsWhere(`created_lt=${encodeURIComponent(startedAt)}&type=charge.refunded`)).data.map((e) => e.id)).not.toContain(heldEvent.id);
    expect((await eventsWhere(`object_id=${heldCharge}`)).data).toMatchObject([{ id: heldEvent.id, status: 'processed', outcome: 'refund_recorded' }]);
    const first = await eventsWhere(`${mine}&type=charge.refunded&limit=1`);
    expect([first.data.map((e) => e.id), first.has_more, first.next_cursor]).toEqual([[otherEvent.id], true, otherEvent.id]);
    const second = await eventsWhere(`${mine}&type=charge.refunded&limit=1&starting_after=${first.next_cursor}`);
    expect([second.data.map((e) => e.id), second.has_more]).toEqual([[heldEvent.id], false]);
  });

  it('accepts an operator retry sent while its billing_error is being recorded, and applies it', async () => {
    const held = await paidInvoice();
    const event = refundedAtProcessor(held.payment, `ch_window_${Date.now().toString(36)}`);
    const workflow = h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(event.id));
    // Recording the refund fails once (an overflow); the write of the event's billing_error waits for the test.
    const once = await firstTimes(h.deps.db);
    const removeFault = await injectOverflow(h.deps.db, { table: 'refunds', when: `NEW.payment_id = '${held.payment.id}'::uuid AND ${once.sql}`, on: 'INSERT' });
    const window = await holdBillingErrorRecording(h.deps.db, 'processor_events', `NEW.id = '${event.id}'`);
    let retry: WorkflowUpdateHandle<string | null> | undefined;
    try {
      expect(await expectJson(await notify(h, event))).toMatchObject({ action: 'queued' });
      await window.reached();
      // The error is being recorded: the retry is accepted (not 409 no_billing_error) and waits for it.
      retry = await retryAccepted(workflow, retryProcessorEventUpdate);
    } finally {
      await window.release();
      await removeFault();
      await once.drop();
    }
    expect(await retry!.result()).toBe('refund_recorded');
    expect(await workflow.result()).toBe('refund_recorded');
    expect(await eventOf(event.id)).toMatchObject({ status: 'processed', outcome: 'refund_recorded', billing_error: null });
    expect((await activityAttempts(h, workflow.workflowId)).applyProcessorEvent).toEqual([1, 1]);
    expect(await billingErrorTrail(h.deps.db, 'processor_event', event.id)).toEqual([
      ['processor_event.billing_error', 'workflow'],
      ['processor_event.billing_retried', 'admin'],
    ]);
  });
});

describe("a processor notification that fails inside its invoice's workflow", () => {
  it("is held once, as the invoice's billing_error, and the invoice's retry applies it", async () => {
    const customerId = await makeCustomer(h.deps.db);
    await attachCard(h, customerId);
    const sub = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: await makePlan(h.deps.db), currency: 'USD' } }), 201);
    cleanup.push(subscriptionWorkflowId(sub.id));
    const invoice = await expectJson<{ id: string }>(await h.request('POST', `/admin/v1/subscriptions/${sub.id}/bill`), 201);
    cleanup.push(dunningWorkflowId(invoice.id));
    await expectJson(await h.request('POST', `/admin/v1/invoices/${invoice.id}/finalize`));
    const charge = await autoChargeOf(h, invoice.id);
    const event = intentEvent('payment_intent.succeeded', charge!);
    const workflow = h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(event.id));

    // Recording the payment's success overflows: the Open invoice's workflow applies the notification and fails.
    await withOverflow(h.deps.db, { table: 'payments', when: `NEW.id = '${charge!.id}'::uuid AND NEW.status = 'Succeeded'`, on: 'UPDATE' }, async () => {
      expect(await expectJson(await notify(h, event))).toMatchObject({ action: 'queued' });
      // The invoice holds it; the notification's run fails as a refusal (billing_failed) and holds nothing.
      await expect(workflow.result()).rejects.toThrow();
      const held = await expectJson<{ status: string; billing_error: { step: string; type: string } | null }>(await h.request('GET', `/admin/v1/invoices/${invoice.id}`));
      expect(held).toMatchObject({ status: 'Open', billing_error: { step: 'applyPaymentNotification', type: 'DeterministicFailure' } });
      expect(await eventOf(event.id)).toMatchObject({ status: 'pending', billing_error: null, processed_at: null });
      const nothing = await h.request('POST', `/admin/v1/processor-events/${event.id}/retry`);
      expect(((await nothing.json()) as { error: { code: string } }).error.code).toBe('no_billing_error');
    });

    // The invoice's retry applies the notification: Paid, and the notification processed.
    expect(await expectJson(await h.request('POST', `/admin/v1/invoices/${invoice.id}/retry`))).toMatchObject({ status: 'Paid', billing_error: null });
    expect(await eventOf(event.id)).toMatchObject({ status: 'processed', outcome: 'payment_succeeded', billing_error: null });
  });
});

describe('GET /admin/v1/processor-events', () => {
  it('filters by status (pending, processed, billing_error), answers 404 for an unknown id and 400 for bad filters', async () => {
    const startedAt = new Date().toISOString();
    // An ignored notification is processed at once; one stored while its workflow could not start waits (pending).
    const ignored = { id: eventId(), object: 'event', type: 'customer.created', data: { object: { id: `cus_${Date.now().toString(36)}`, object: 'customer' } } };
    expect(await expectJson(await notify(h, ignored))).toMatchObject({ action: 'ignored' });
    const pending = eventId();
    await h.deps.db.processorEvent.create({ data: { id: pending, type: 'payment_intent.succeeded', objectId: 'pi_pending', payload: {} } });
    const held = eventId();
    const error = { step: 'processProcessorEvent', type: 'DeterministicFailure', message: 'numeric field overflow', failed_at: new Date().toISOString() };
    await h.deps.db.processorEvent.create({ data: { id: held, type: 'payment_intent.succeeded', objectId: 'pi_held', payload: {}, billingError: error } });
    try {
      const mine = `created_gte=${encodeURIComponent(startedAt)}`;
      expect((await eventsWhere(`${mine}&status=pending`)).data.map((e) => e.id)).toEqual([pending]);
      expect((await eventsWhere(`${mine}&status=billing_error`)).data.map((e) => e.id)).toEqual([held]);
      expect((await eventsWhere(`${mine}&status=processed`)).data).toMatchObject([{ id: ignored.id, status: 'processed', outcome: 'ignored_type', billing_error: null }]);
      expect(await eventOf(held)).toMatchObject({ status: 'billing_error', billing_error: error, processed_at: null });
      expect(await eventOf(pending)).toMatchObject({ status: 'pending', billing_error: null, outcome: null });
      // The daily check would hand the pending one to a workflow, never the held one.
      const stale = (await unprocessedProcessorEvents(h.deps.db, new Date(Date.now() + 3_600_000), 500)).map((row) => row.id);
      expect([stale.includes(pending), stale.includes(held)]).toEqual([true, false]);
    } finally {
      await h.deps.db.processorEvent.deleteMany({ where: { id: { in: [pending, held] } } });
    }

    const missing = await h.request('GET', '/admin/v1/processor-events/evt_never_received');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('processor_event_not_found');
    for (const [query, field] of [
      ['status=failed', 'status'],
      ['created_gte=yesterday', 'created_gte'],
      ['starting_after=evt_never_received', 'starting_after'],
      ['colour=red', 'colour'],
    ] as const) {
      const res = await h.request('GET', `/admin/v1/processor-events?${query}`);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect([res.status, body.error.code], query).toEqual([400, 'validation_failed']);
      expect(body.error.message).toContain(field);
    }
    expect((await h.request('GET', '/admin/v1/processor-events', { as: { customer: await makeCustomer(h.deps.db) } })).status).toBe(403);
  });
});
