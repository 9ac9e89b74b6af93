/**
 * Payment helpers for integration tests: payment methods through the API (the processor is
 * stripe-mock), processor notifications signed with the SDK's own test-header helper, and waiting
 * for what workflows do after a request has answered.
 */
import Stripe from 'stripe';
import { expect } from 'vitest';
import { dunningWorkflowId } from '../../workflows/dunning/messages.js';
import { processorEventWorkflowId } from '../../workflows/processor-event/messages.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { makeCustomer, makePlan } from './fixtures.js';
import { expectJson, expectPage, type Harness } from './harness.js';

export interface PaymentView {
  id: string;
  invoice_id: string;
  attempt: number;
  source: string;
  dunning_attempt: number | null;
  status: string;
  amount_nanos: string;
  amount: string;
  refunded_nanos: string;
  processor_payment_intent_id: string | null;
  failure_code: string | null;
  attempted_at: string;
  settled_at: string | null;
  created_at: string;
  refunds: { id: string; amount_nanos: string; status: string; credit_note_id: string | null; source: string; created_at: string }[];
}

export interface DunningView {
  id: string;
  subscription_id: string | null;
  invoice_id: string;
  attempt_count: number;
  retries_made: number;
  next_attempt_at: string | null;
  status: string;
  closed_reason: string | null;
  failed_at: string;
  closed_at: string | null;
  created_at: string;
  updated_at: string;
  billing_error: { step: string; type: string; message: string; failed_at: string } | null;
}

export async function attachCard(h: Harness, customerId: string, processorPaymentMethodId = 'pm_card_visa') {
  return expectJson<{ id: string; is_default: boolean; brand: string | null; last4: string | null; status: string; created_at: string }>(
    await h.request('POST', `/admin/v1/customers/${customerId}/payment-methods`, { body: { processor_payment_method_id: processorPaymentMethodId } }),
    201,
  );
}

/** An invoice's payments in attempt order (the list is newest first). */
export const paymentsOf = async (h: Harness, invoiceId: string) =>
  (await expectPage<PaymentView>(await h.request('GET', `/admin/v1/invoices/${invoiceId}/payments?limit=200`))).data.reverse();

export const dunningOf = async (h: Harness, invoiceId: string) => expectJson<DunningView>(await h.request('GET', `/admin/v1/invoices/${invoiceId}/dunning`));

let eventSeq = 0;

/** A processor event id that no other test run shares. */
export const eventId = () => `evt_test_${process.pid}_${Date.now().toString(36)}_${(eventSeq += 1)}`;

/** A processor event about a PaymentIntent the engine created (its id and metadata invoice_id). */
export function intentEvent(type: string, payment: { invoice_id: string; processor_payment_intent_id: string | null; id: string }, extra: Record<string, unknown> = {}) {
  return {
    id: eventId(),
    object: 'event',
    type,
    api_version: '2025-01-27',
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: payment.processor_payment_intent_id,
        object: 'payment_intent',
        metadata: { invoice_id: payment.invoice_id, payment_id: payment.id },
        status: type === 'payment_intent.succeeded' ? 'succeeded' : type === 'payment_intent.canceled' ? 'canceled' : 'requires_payment_method',
        ...(type === 'payment_intent.payment_failed' ? { last_payment_error: { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' } } : {}),
        ...extra,
      },
    },
  };
}

export interface SignOptions {
  secret?: string;
  /** Seconds since the epoch the signature claims (default now). */
  timestamp?: number;
}

export function signatureFor(h: Harness, payload: string, options: SignOptions = {}): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? h.secrets.processor_webhook_secret,
    ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
  });
}

/** Posts a notification signed like the processor signs it, without credentials. */
export async function notify(h: Harness, event: object, options: SignOptions = {}): Promise<Response> {
  const payload = JSON.stringify(event);
  return h.request('POST', '/v1/webhooks/processor', { rawBody: payload, as: 'none', headers: { 'stripe-signature': signatureFor(h, payload, options) } });
}

/** Waits (polling, bounded) until `check` passes: for effects a workflow applies after the request answered. */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * The auto-charge of an invoice finalized through the API, once its outcome is recorded: the API
 * answers the finalized invoice first, and its workflow charges it right after.
 */
export async function autoChargeOf(h: Harness, invoiceId: string): Promise<PaymentView> {
  return eventually(async () => {
    const charge = (await paymentsOf(h, invoiceId)).find((p) => p.source === 'auto_charge');
    expect(charge?.status ?? 'none').not.toMatch(/^(none|Pending)$/);
    return charge!;
  });
}

/**
 * An Open 49.00 invoice finalized through the API for a new customer, with a card on file (its
 * auto-charge refused by stripe-mock, recorded) or without; its workflows pushed to `cleanup`.
 */
export async function openInvoiceThroughApi(h: Harness, cleanup: string[], withCard = true): Promise<{ customerId: string; subscriptionId: string; invoiceId: string }> {
  const customerId = await makeCustomer(h.deps.db);
  if (withCard) await attachCard(h, customerId);
  const sub = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: await makePlan(h.deps.db), currency: 'USD' } }), 201);
  cleanup.push(subscriptionWorkflowId(sub.id));
  const draft = await expectJson<{ id: string }>(await h.request('POST', `/admin/v1/subscriptions/${sub.id}/bill`), 201);
  cleanup.push(dunningWorkflowId(draft.id));
  const invoice = await expectJson<{ status: string }>(await h.request('POST', `/admin/v1/invoices/${draft.id}/finalize`));
  expect(invoice.status).toBe('Open');
  if (withCard) await autoChargeOf(h, draft.id);
  return { customerId, subscriptionId: sub.id, invoiceId: draft.id };
}

/** The outbox events of one aggregate, of the given types, in order. */
export async function outboxOf(h: Harness, aggregateId: string, types: string[]) {
  const rows = await h.deps.db.outboxEvent.findMany({ where: { aggregateId, type: { in: types } }, orderBy: { id: 'asc' } });
  return rows.map((row) => ({ type: row.type, data: (row.payload as { data: Record<string, unknown> }).data, occurredAt: row.occurredAt.toISOString() }));
}

export function expectStatus<T extends { status: string }>(value: T, status: string): T {
  expect(value.status).toBe(status);
  return value;
}

/**
 * The processor collects a wallet top-up whose confirmation stripe-mock refused: a signed
 * payment_intent.succeeded about its PaymentIntent, applied by its processor-event workflow, whose
 * outcome (`top_up_succeeded`) is returned.
 */
export async function collectTopUp(h: Harness, topUp: { id: string; processor_payment_intent_id: string | null }): Promise<string> {
  const event = {
    id: eventId(),
    object: 'event',
    type: 'payment_intent.succeeded',
    api_version: '2025-01-27',
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: topUp.processor_payment_intent_id, object: 'payment_intent', status: 'succeeded', metadata: { wallet_top_up_id: topUp.id } } },
  };
  const receipt = await expectJson<{ action: string; event_id: string }>(await notify(h, event));
  expect(receipt.action).toBe('queued');
  return h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(receipt.event_id)).result();
}
