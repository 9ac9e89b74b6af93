/**
 * Payments through the API with the real `stripe` SDK against stripe-mock: the processor adapter's
 * every outgoing call, payment methods on file, charges on demand, capture, refunds with credit
 * notes, and processor notifications signed with the SDK's test-header helper (bad signatures,
 * unknown types and objects, replays, ten concurrent copies).
 */
import { inject } from 'vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_PROCESSOR_SECRET_KEY } from '../../src/config.js';
import { InvalidSignatureError, ProcessorRejectedError, ProcessorUnavailableError } from '../../src/processor/index.js';
import { createStripeProcessor } from '../../src/processor/stripe.js';
import { freePort } from '../../src/dev/processes.js';
import { dunningWorkflowId } from '../../workflows/dunning/messages.js';
import { invoiceWorkflowId } from '../../workflows/invoice/messages.js';
import { processorEventWorkflowId } from '../../workflows/processor-event/messages.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { captureHistory } from '../support/histories.js';
import { makeCustomer, makePlan } from '../support/fixtures.js';
import { expectJson, expectPage, terminatedAfterAll, useHarness } from '../support/harness.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { ledgerBalances } from '../support/ledger.js';
import { attachCard, autoChargeOf, dunningOf, eventId, eventually, intentEvent, notify, openInvoiceThroughApi, outboxOf, paymentsOf, signatureFor, type PaymentView } from '../support/payments.js';

const h = useHarness();
const cleanup = terminatedAfterAll(h);

interface Invoice {
  id: string;
  status: string;
  credited_nanos: string;
  amount_due_nanos: string;
}

/** An Open 49.00 invoice of a customer (with a card unless told otherwise) whose auto-charge failed at stripe-mock. */
const openInvoice = (withCard = true) => openInvoiceThroughApi(h, cleanup, withCard);

/** An invoice collected by a payment_intent.succeeded notification about its auto-charge. */
async function paidInvoice() {
  const open = await openInvoice();
  const [charge] = await paymentsOf(h, open.invoiceId);
  const receipt = await expectJson<{ event_id: string }>(await notify(h, intentEvent('payment_intent.succeeded', charge!)));
  expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(receipt.event_id)).result()).toBe('payment_succeeded');
  return { ...open, payment: charge! };
}

describe('the processor adapter against stripe-mock', () => {
  const processor = () => createStripeProcessor({ apiBase: inject('stripeMockUrl'), secretKey: LOCAL_PROCESSOR_SECRET_KEY });

  it('creates customers, attaches and detaches payment methods, charges, captures and refunds', async () => {
    const stripe = processor();
    const customer = await stripe.createCustomer({ customerId: 'c1', email: 'a@example.com', name: 'A' }, 'customer:c1');
    expect(customer).toMatch(/^cus_/);
    expect(await stripe.attachPaymentMethod('pm_card_visa', customer)).toEqual({ id: 'pm_card_visa', type: 'card', brand: 'visa', last4: '4242', expMonth: expect.any(Number), expYear: expect.any(Number) });
    await expect(stripe.detachPaymentMethod('pm_card_visa')).resolves.toBeUndefined();
    const intent = await stripe.createPaymentIntent({
      amountMinor: 4900n,
      currency: 'USD',
      processorCustomerId: customer,
      processorPaymentMethodId: 'pm_card_visa',
      captureMethod: 'automatic',
      metadata: { invoice_id: 'i1', payment_id: 'p1', attempt: '1' },
      idempotencyKey: 'invoice:i1:attempt:1',
      description: 'Invoice INV-000001',
    });
    // stripe-mock answers every confirmation with its fixture: a payment method to provide again, i.e. refused.
    expect(intent).toMatchObject({ id: expect.stringMatching(/^pi_/), processorStatus: 'requires_payment_method', outcome: 'failed', failure: { code: expect.any(String) } });
    expect(await stripe.capturePaymentIntent(intent.id, 'capture:p1')).toMatchObject({ id: intent.id, outcome: 'failed' });
    expect(await stripe.refund({ paymentIntentId: intent.id, amountMinor: 100n, reason: 'requested_by_customer', metadata: { invoice_id: 'i1', refund_id: 'r1' }, idempotencyKey: 'refund:r1' })).toEqual({
      id: expect.stringMatching(/^re_/),
      outcome: 'succeeded',
      failureMessage: null,
    });
  });

  it('reports refusals as final and outages as retryable', async () => {
    await expect(processor().attachPaymentMethod('not a payment method', 'cus_1')).rejects.toBeInstanceOf(ProcessorRejectedError);
    const down = createStripeProcessor({ apiBase: `http://127.0.0.1:${await freePort()}`, secretKey: LOCAL_PROCESSOR_SECRET_KEY, timeoutMs: 2_000 });
    await expect(down.createCustomer({ customerId: 'c1', email: 'a@example.com', name: 'A' }, 'k')).rejects.toBeInstanceOf(ProcessorUnavailableError);
  });

  it('verifies notifications with the SDK: good, wrong secret, stale, tampered, malformed, missing', () => {
    const stripe = processor();
    const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'payment_intent.succeeded', data: { object: { id: 'pi_1', object: 'payment_intent' } } });
    const secret = 'whsec_unit_secret_value';
    expect(stripe.verifyNotification(payload, signatureFor(h, payload, { secret }), secret)).toMatchObject({ id: 'evt_1', type: 'payment_intent.succeeded', objectId: 'pi_1' });
    const now = Math.floor(Date.now() / 1000);
    for (const [signature, body] of [
      [signatureFor(h, payload, { secret: 'whsec_other' }), payload],
      [signatureFor(h, payload, { secret, timestamp: now - 301 }), payload],
      [signatureFor(h, payload, { secret }), payload.replace('pi_1', 'pi_2')],
      ['t=1,v1=deadbeef', payload],
      [undefined, payload],
    ] as const) {
      expect(() => stripe.verifyNotification(body, signature, secret)).toThrow(InvalidSignatureError);
    }
  });
});

describe('payment methods', () => {
  it('attaches, lists, shows in the 360 view, moves the default and detaches', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const first = await attachCard(h, customerId);
    expect(first).toMatchObject({ is_default: true, status: 'attached', brand: 'visa', last4: '4242' });
    expect(await attachCard(h, customerId)).toMatchObject({ id: first.id });
    const second = await expectJson<{ id: string; is_default: boolean }>(
      await h.request('POST', `/admin/v1/customers/${customerId}/payment-methods`, { body: { processor_payment_method_id: 'pm_card_mastercard', set_default: true } }),
      201,
    );
    expect(second.is_default).toBe(true);
    const listed = await expectPage<{ id: string; is_default: boolean }>(await h.request('GET', `/admin/v1/customers/${customerId}/payment-methods`));
    expect(listed.data.map((m) => [m.id, m.is_default])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);
    const view = await expectJson<{ payment_methods: { id: string }[] }>(await h.request('GET', `/admin/v1/customers/${customerId}`));
    expect(view.payment_methods.map((m) => m.id)).toEqual([second.id, first.id]);

    const detached = await expectJson<{ status: string; is_default: boolean }>(await h.request('DELETE', `/admin/v1/payment-methods/${second.id}`));
    expect(detached).toMatchObject({ status: 'detached', is_default: false });
    expect(await expectJson(await h.request('GET', `/admin/v1/payment-methods/${first.id}`))).toMatchObject({ is_default: true });
    expect(await expectJson(await h.request('DELETE', `/admin/v1/payment-methods/${second.id}`))).toMatchObject({ status: 'detached' });
    const audit = await h.deps.db.auditLogEntry.findMany({ where: { customerId, action: { startsWith: 'payment_method.' } }, orderBy: { id: 'asc' } });
    expect(audit.map((a) => a.action)).toEqual(['payment_method.attached', 'payment_method.attached', 'payment_method.detached']);
  });

  it('refuses a payment method the processor rejects (422) and an unknown customer (404)', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const rejected = await h.request('POST', `/admin/v1/customers/${customerId}/payment-methods`, { body: { processor_payment_method_id: 'pm with spaces' } });
    expect(rejected.status).toBe(422);
    expect(await rejected.json()).toMatchObject({ error: { code: 'payment_method_rejected' } });
    const unknown = await h.request('POST', `/admin/v1/customers/01900000-0000-7000-8000-00000000beef/payment-methods`, { body: { processor_payment_method_id: 'pm_card_visa' } });
    expect(unknown.status).toBe(404);
  });
});

describe('finalizing the invoice of a customer with a card (SPEC §4: id, status Open, invoice_number)', () => {
  it('answers the invoice as it stands finalized, Open, and charges it after the answer: the outcome on GET and in events', async () => {
    const customerId = await makeCustomer(h.deps.db);
    await attachCard(h, customerId);
    const sub = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: await makePlan(h.deps.db), currency: 'USD' } }), 201);
    cleanup.push(subscriptionWorkflowId(sub.id));
    const draft = await expectJson<{ id: string }>(await h.request('POST', `/admin/v1/subscriptions/${sub.id}/bill`), 201);
    cleanup.push(dunningWorkflowId(draft.id));

    // While no payment can be recorded (the payments table is locked), the finalize still answers:
    // the auto-charge runs after the answer, not within it.
    const locker = await h.deps.pool.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE payments IN EXCLUSIVE MODE');
      const answer = await expectJson<Invoice & { invoice_number: string | null }>(await h.request('POST', `/admin/v1/invoices/${draft.id}/finalize`));
      expect(answer).toMatchObject({ id: draft.id, status: 'Open', invoice_number: expect.stringMatching(/^INV-\d{6}$/), amount_due_nanos: (49n * UNIT).toString() });
      expect(await h.deps.db.payment.count({ where: { invoiceId: draft.id } })).toBe(0);
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
    }

    // Then it is charged (stripe-mock refuses the card): payment.failed, dunning, the invoice still Open.
    const charge = await autoChargeOf(h, draft.id);
    expect(charge).toMatchObject({ attempt: 1, source: 'auto_charge', status: 'Failed', amount: '49.00' });
    await eventually(async () => expect(await dunningOf(h, draft.id)).toMatchObject({ status: 'Active', attempt_count: 1 }));
    expect((await expectJson<Invoice>(await h.request('GET', `/admin/v1/invoices/${draft.id}`))).status).toBe('Open');
    expect(await outboxOf(h, draft.id, ['invoice.finalized', 'payment.failed'])).toMatchObject([{ type: 'invoice.finalized' }, { type: 'payment.failed', data: { payment_id: charge.id } }]);

    // The processor collects it: Paid on GET, with payment.succeeded and invoice.paid.
    const receipt = await expectJson<{ event_id: string }>(await notify(h, intentEvent('payment_intent.succeeded', charge)));
    expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(receipt.event_id)).result()).toBe('payment_succeeded');
    expect((await expectJson<Invoice>(await h.request('GET', `/admin/v1/invoices/${draft.id}`))).status).toBe('Paid');
    expect((await outboxOf(h, draft.id, ['payment.succeeded', 'invoice.paid'])).map((e) => e.type)).toEqual(['payment.succeeded', 'invoice.paid']);
    const workflow = h.deps.temporal.client.workflow.getHandle(invoiceWorkflowId(draft.id));
    expect(await workflow.result()).toMatchObject({ status: 'Paid' });
    await captureHistory(workflow, 'finalized-through-the-api-answered-open-then-charged');
  });
});

describe('charges on demand, capture and refunds', () => {
  it('charges an Open invoice on demand through the processor, and refuses without a payment method or a payment to capture', async () => {
    const noCard = await openInvoice(false);
    const refused = await h.request('POST', `/admin/v1/invoices/${noCard.invoiceId}/payment-intents`);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ error: { code: 'no_payment_method' } });

    const { invoiceId } = await openInvoice();
    const payment = await expectJson<PaymentView>(await h.request('POST', `/admin/v1/invoices/${invoiceId}/payment-intents`, { body: { capture_method: 'manual' } }), 201);
    expect(payment).toMatchObject({ source: 'on_demand', attempt: 2, status: 'Failed', amount: '49.00', amount_nanos: (49n * UNIT).toString() });
    const capture = await h.request('POST', `/admin/v1/invoices/${invoiceId}/capture`);
    expect(capture.status).toBe(409);
    expect(await capture.json()).toMatchObject({ error: { code: 'no_payment_to_capture' } });
    expect((await paymentsOf(h, invoiceId)).map((p) => [p.attempt, p.source])).toEqual([
      [1, 'auto_charge'],
      [2, 'on_demand'],
    ]);
  });

  it('refunds a Paid invoice in parts with credit notes, never more than was paid', async () => {
    const { customerId, invoiceId, payment } = await paidInvoice();
    const refund = (body?: object) => h.request('POST', `/admin/v1/invoices/${invoiceId}/refunds`, body ? { body } : {});
    const expectError = async (res: Response, status: number, code: string) => {
      expect(res.status).toBe(status);
      expect(await res.json()).toMatchObject({ error: { code } });
    };
    const part = await expectJson<{ status: string; amount_nanos: string; credit_note_id: string; source: string }>(await refund({ amount_nanos: (10n * UNIT).toString(), reason: 'product_unsatisfactory' }), 201);
    expect(part).toMatchObject({ status: 'Succeeded', amount_nanos: (10n * UNIT).toString(), source: 'api', credit_note_id: expect.any(String) });
    expect((await expectJson<Invoice>(await h.request('GET', `/admin/v1/invoices/${invoiceId}`))).credited_nanos).toBe((10n * UNIT).toString());
    await expectError(await refund({ amount_nanos: '1' }), 422, 'refund_not_whole_minor_units');
    await expectError(await refund({ amount_nanos: (40n * UNIT).toString() }), 422, 'refund_exceeds_payment');
    const rest = await expectJson<{ amount_nanos: string }>(await refund(), 201);
    expect(rest.amount_nanos).toBe((39n * UNIT).toString());
    await expectError(await refund(), 422, 'nothing_to_refund');

    const [paid] = await paymentsOf(h, invoiceId);
    expect(paid).toMatchObject({ id: payment.id, refunded_nanos: (49n * UNIT).toString() });
    expect(paid!.refunds.map((r) => [r.amount_nanos, r.status])).toEqual([
      [(10n * UNIT).toString(), 'Succeeded'],
      [(39n * UNIT).toString(), 'Succeeded'],
    ]);
    expect((await outboxOf(h, invoiceId, ['credit_note.issued'])).map((e) => e.data.amount_nanos)).toEqual([(10n * UNIT).toString(), (39n * UNIT).toString()]);
    expect(await h.deps.db.auditLogEntry.count({ where: { entityType: 'refund', action: 'refund.issued', entityId: { in: paid!.refunds.map((r) => r.id) } } })).toBe(2);
    // The ledger: the cash collected went back, nothing is owed, the credit notes took back what was billed.
    const balance = await ledgerBalances(h, customerId);
    expect([balance('cash'), balance('accounts_receivable'), balance('revenue') + balance('deferred_revenue') + balance('tax_payable')]).toEqual([0n, 0n, 0n]);

    // The processor's charge.refunded about these refunds adds nothing.
    const charge = { id: eventId(), object: 'event', type: 'charge.refunded', data: { object: { id: 'ch_1', object: 'charge', payment_intent: payment.processor_payment_intent_id, amount_refunded: 4900 } } };
    const receipt = await expectJson<{ event_id: string }>(await notify(h, charge));
    expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(receipt.event_id)).result()).toBe('refunds_in_sync');
    expect((await paymentsOf(h, invoiceId))[0]!.refunds).toHaveLength(2);
  });

  it('records a refund made at the processor (charge.refunded) with its credit note', async () => {
    const { invoiceId, payment } = await paidInvoice();
    const charge = { id: eventId(), object: 'event', type: 'charge.refunded', data: { object: { id: 'ch_2', object: 'charge', payment_intent: payment.processor_payment_intent_id, amount_refunded: 1500, refunds: { data: [{ id: `re_dash_${Date.now()}` }] } } } };
    const receipt = await expectJson<{ event_id: string }>(await notify(h, charge));
    expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(receipt.event_id)).result()).toBe('refund_recorded');
    const [paid] = await paymentsOf(h, invoiceId);
    expect(paid!.refunds).toMatchObject([{ amount_nanos: (15n * UNIT).toString(), source: 'processor', status: 'Succeeded', credit_note_id: expect.any(String) }]);
    expect((await expectJson<Invoice>(await h.request('GET', `/admin/v1/invoices/${invoiceId}`))).credited_nanos).toBe((15n * UNIT).toString());
  });

  it('refuses to refund an invoice that is not Paid', async () => {
    const { invoiceId } = await openInvoice();
    const res = await h.request('POST', `/admin/v1/invoices/${invoiceId}/refunds`);
    expect(res.status).toBe(409);
  });
});

describe('processor notifications', () => {
  const webhook = (rawBody: string, headers: Record<string, string>) => h.request('POST', '/v1/webhooks/processor', { rawBody, as: 'none', headers });

  it('answers every bad signature 400 in the error envelope and stores nothing', async () => {
    const event = { id: eventId(), object: 'event', type: 'payment_intent.succeeded', data: { object: { id: 'pi_unknown', object: 'payment_intent' } } };
    const payload = JSON.stringify(event);
    const now = Math.floor(Date.now() / 1000);
    const cases: [string, string, Record<string, string>][] = [
      ['missing', payload, {}],
      ['malformed', payload, { 'stripe-signature': 'not-a-signature' }],
      ['empty', payload, { 'stripe-signature': '' }],
      ['wrong secret', payload, { 'stripe-signature': signatureFor(h, payload, { secret: 'whsec_someone_else' }) }],
      ['stale', payload, { 'stripe-signature': signatureFor(h, payload, { timestamp: now - 600 }) }],
      ['tampered', payload.replace('pi_unknown', 'pi_tampered'), { 'stripe-signature': signatureFor(h, payload) }],
      ['unknown scheme', payload, { 'stripe-signature': signatureFor(h, payload).replace('v1=', 'v0=') }],
    ];
    for (const [name, body, headers] of cases) {
      const res = await webhook(body, headers);
      const answer = (await res.json()) as { error: { code: string; request_id: string } };
      expect(res.status, name).toBe(400);
      expect(answer.error, name).toMatchObject({ code: 'invalid_signature', request_id: res.headers.get('x-request-id') });
    }
    expect(await h.deps.db.processorEvent.count({ where: { id: event.id } })).toBe(0);
  });

  it('acknowledges and ignores types it does not handle and objects it does not know', async () => {
    const other = { id: eventId(), object: 'event', type: 'customer.created', data: { object: { id: 'cus_1', object: 'customer' } } };
    expect(await expectJson(await notify(h, other))).toEqual({ received: true, event_id: other.id, type: 'customer.created', action: 'ignored' });
    const unknown = intentEvent('payment_intent.succeeded', { id: 'p', invoice_id: 'not-ours', processor_payment_intent_id: 'pi_not_ours' });
    expect(await expectJson(await notify(h, unknown))).toMatchObject({ action: 'ignored' });
    const stored = await h.deps.db.processorEvent.findMany({ where: { id: { in: [other.id, unknown.id] } }, orderBy: { id: 'asc' } });
    expect(stored.map((e) => e.outcome).sort()).toEqual(['ignored_type', 'ignored_unknown_object']);
    // A replay of an ignored notification is a duplicate.
    expect(await expectJson(await notify(h, other))).toMatchObject({ action: 'duplicate' });
  });

  it('applies the same notification sent ten times concurrently once', async () => {
    const { invoiceId, subscriptionId } = await openInvoice();
    const [charge] = await paymentsOf(h, invoiceId);
    const event = intentEvent('payment_intent.succeeded', charge!);
    const payload = JSON.stringify(event);
    const signature = signatureFor(h, payload);
    const answers = await Promise.all(Array.from({ length: 10 }, () => webhook(payload, { 'stripe-signature': signature })));
    const bodies = await Promise.all(answers.map((res) => res.json() as Promise<{ action: string }>));
    expect(answers.map((res) => res.status)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(bodies.map((b) => b.action).sort()).toEqual(['duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'duplicate', 'queued']);
    expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(event.id)).result()).toBe('payment_succeeded');
    // And once more after it was applied.
    expect(await expectJson(await webhook(payload, { 'stripe-signature': signature }))).toMatchObject({ action: 'duplicate' });
    expect(await outboxOf(h, invoiceId, ['payment.succeeded', 'invoice.paid'])).toMatchObject([{ type: 'payment.succeeded' }, { type: 'invoice.paid' }]);
    expect(await h.deps.db.auditLogEntry.count({ where: { entityId: charge!.id, action: 'payment.succeeded' } })).toBe(1);
    expect(await dunningOf(h, invoiceId)).toMatchObject({ status: 'Resolved', closed_reason: 'payment_succeeded' });
    await eventually(async () => expect((await expectJson<{ status: string }>(await h.request('GET', `/v1/subscriptions/${subscriptionId}`))).status).toBe('Active'));
  });

  it('collects the invoice named by invoice.paid (from its amount_paid) and by invoice.payment_succeeded (through our PaymentIntent)', async () => {
    // invoice.paid naming our invoice by its metadata, paid at the processor outside our payments.
    const first = await openInvoice();
    const paidEvent = {
      id: eventId(),
      object: 'event',
      type: 'invoice.paid',
      data: { object: { id: `in_${Date.now()}`, object: 'invoice', status: 'paid', amount_paid: 4900, currency: 'usd', metadata: { invoice_id: first.invoiceId } } },
    };
    const paid = await expectJson<{ event_id: string; action: string }>(await notify(h, paidEvent));
    expect(paid.action).toBe('queued');
    expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(paid.event_id)).result()).toBe('payment_succeeded');
    expect((await expectJson<Invoice>(await h.request('GET', `/admin/v1/invoices/${first.invoiceId}`))).status).toBe('Paid');
    expect((await paymentsOf(h, first.invoiceId)).map((p) => [p.source, p.status, p.amount])).toEqual([
      ['auto_charge', 'Failed', '49.00'],
      ['processor', 'Succeeded', '49.00'],
    ]);
    expect(await dunningOf(h, first.invoiceId)).toMatchObject({ status: 'Resolved', closed_reason: 'payment_succeeded' });
    await eventually(async () => expect((await expectJson<{ status: string }>(await h.request('GET', `/v1/subscriptions/${first.subscriptionId}`))).status).toBe('Active'));
    // Sent again, it changes nothing.
    expect(await expectJson(await notify(h, paidEvent))).toMatchObject({ action: 'duplicate' });

    // invoice.payment_succeeded naming the PaymentIntent of our auto-charge.
    const second = await openInvoice();
    const charge = await autoChargeOf(h, second.invoiceId);
    const succeeded = {
      id: eventId(),
      object: 'event',
      type: 'invoice.payment_succeeded',
      data: { object: { id: `in_${Date.now()}_2`, object: 'invoice', status: 'paid', amount_paid: 4900, currency: 'usd', payment_intent: charge.processor_payment_intent_id } },
    };
    const receipt = await expectJson<{ event_id: string }>(await notify(h, succeeded));
    expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(receipt.event_id)).result()).toBe('payment_succeeded');
    expect((await paymentsOf(h, second.invoiceId)).map((p) => [p.id, p.status])).toEqual([[charge.id, 'Succeeded']]);
    expect((await outboxOf(h, second.invoiceId, ['payment.succeeded', 'invoice.paid'])).map((e) => e.type)).toEqual(['payment.succeeded', 'invoice.paid']);
  });

  it('records a failure notified about an invoice already paid as ignored_invoice_already_paid, changing nothing', async () => {
    const { invoiceId, payment } = await paidInvoice();
    const failures = [
      intentEvent('payment_intent.payment_failed', payment),
      { id: eventId(), object: 'event', type: 'invoice.payment_failed', data: { object: { id: 'in_late', object: 'invoice', metadata: { invoice_id: invoiceId } } } },
    ];
    for (const event of failures) {
      const receipt = await expectJson<{ event_id: string }>(await notify(h, event));
      expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(receipt.event_id)).result(), event.type).toBe('ignored_invoice_already_paid');
      expect(await expectJson(await h.request('GET', `/admin/v1/processor-events/${receipt.event_id}`)), event.type).toMatchObject({ status: 'processed', outcome: 'ignored_invoice_already_paid' });
    }
    expect((await expectJson<Invoice>(await h.request('GET', `/admin/v1/invoices/${invoiceId}`))).status).toBe('Paid');
    expect((await paymentsOf(h, invoiceId)).map((p) => p.status)).toEqual(['Succeeded']);
    // Only the auto-charge's own failure, from before the invoice was collected.
    expect(await outboxOf(h, invoiceId, ['payment.failed'])).toHaveLength(1);
  });

  it('answers a validly signed notification that is not one 400 malformed_notification and stores nothing', async () => {
    const id = eventId();
    const cases: [string, unknown][] = [
      ['no type', { id, object: 'event', data: { object: {} } }],
      ['numeric id', { id: 42, object: 'event', type: 'payment_intent.succeeded', data: { object: {} } }],
      ['array id', { id: [id], object: 'event', type: 'payment_intent.succeeded', data: { object: {} } }],
      ['data not an object', { id, object: 'event', type: 'payment_intent.succeeded', data: 'pi_1' }],
      ['data.object an array', { id, object: 'event', type: 'payment_intent.succeeded', data: { object: [] } }],
    ];
    for (const [name, event] of cases) {
      const res = await notify(h, event as object);
      expect(res.status, name).toBe(400);
      expect(await res.json(), name).toMatchObject({ error: { code: 'malformed_notification', request_id: res.headers.get('x-request-id') } });
    }
    // Text PostgreSQL cannot store (a NUL character) is refused with every JSON body, before the route reads it.
    const nul = await notify(h, { id, object: 'event', type: 'payment_intent.succeeded', data: { object: { id: 'pi_\u0000' } } });
    expect(nul.status).toBe(400);
    expect(await nul.json()).toMatchObject({ error: { code: 'validation_failed' } });
    // A body that is not a JSON object is refused by the route's schema before its signature is read.
    expect((await notify(h, [{ id, type: 'payment_intent.succeeded' }])).status).toBe(400);
    expect(await h.deps.db.processorEvent.count({ where: { id } })).toBe(0);
  });

  it('starts dunning on invoice.payment_failed about an invoice the engine knows', async () => {
    const { invoiceId, subscriptionId } = await openInvoice(false);
    const event = { id: eventId(), object: 'event', type: 'invoice.payment_failed', data: { object: { id: 'in_1', object: 'invoice', metadata: { invoice_id: invoiceId } } } };
    const receipt = await expectJson<{ event_id: string; action: string }>(await notify(h, event));
    expect(receipt.action).toBe('queued');
    expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(receipt.event_id)).result()).toBe('invoice_payment_failed');
    expect(await dunningOf(h, invoiceId)).toMatchObject({ status: 'Active', attempt_count: 1, retries_made: 0 });
    expect((await outboxOf(h, invoiceId, ['payment.failed'])).map((e) => e.data)).toEqual([{ invoice_id: invoiceId, payment_id: null, failure_code: 'payment_failed' }]);
    await eventually(async () => expect((await expectJson<{ status: string }>(await h.request('GET', `/v1/subscriptions/${subscriptionId}`))).status).toBe('PastDue'));
    expect(await outboxOf(h, subscriptionId, ['subscription.past_due'])).toHaveLength(1);
  });
});
