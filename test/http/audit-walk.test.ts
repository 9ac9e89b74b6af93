/**
 * The audit trail covers every mutating operation (issue 16): this walks every POST, PUT, PATCH and
 * DELETE the app publishes in /openapi.json, sends each a valid request (seeding what it needs
 * through the API first), and reads back through GET /admin/v1/audit-log?request_id=… what that one
 * call wrote. Each call must write at least one entry naming the caller (actor type and id) and the
 * request id, with the resource before and after: `before` null only on a creation (a 201, or a
 * `*.created` entry of something made along the way), `after` null only on a deletion (a DELETE). The walk iterates the document, so a new mutating route fails
 * it until it has a valid request here (REQUESTS) and writes its entry, or is in EXCLUDED with a
 * reason. The actions seen must be at least 25 distinct ones, each listed in the catalogue of docs/audit-trail.md.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntryView } from '../../src/schemas/audit.js';
import { autoChargeOf, eventually, intentEvent, notify } from '../support/payments.js';
import { makePlan } from '../support/fixtures.js';
import { advanceClock } from '../support/clock-usage.js';
import { withOverflow } from '../support/faults.js';
import { expectJson, expectPage, type RequestOptions, useHarness } from '../support/harness.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { emitEvent, startTestRelay } from '../support/webhooks.js';
import type { OutboxRelay } from '../../src/services/webhooks/relay.js';
import { processorEventWorkflowId } from '../../workflows/processor-event/messages.js';
import { newId } from '../../src/ids.js';

const h = useHarness();
let relay: OutboxRelay;
beforeAll(async () => {
  relay = startTestRelay(h);
});
afterAll(async () => {
  await relay?.stop();
});

const units = (n: bigint) => (n * UNIT).toString();
const MUTATING = ['post', 'put', 'patch', 'delete'];

/**
 * Mutating routes that have no business writing an audit entry, each with the reason. Keep it short:
 * anything that changes a resource an operator cares about belongs in the trail.
 */
const EXCLUDED: Record<string, string> = {
  // Usage ingestion: the events table is itself append-only and keeps each event with its sender;
  // an audit entry per event would double the hot path's writes for nothing an auditor reads.
  'POST /v1/events': 'usage ingestion (append-only events table)',
  'POST /v1/events/batch': 'usage ingestion (append-only events table)',
  // A pure computation over the request body: nothing is written.
  'POST /admin/v1/rating/preview': 'read-only preview',
  // The processor's notification is only received (stored, deduplicated) here; what it changes is
  // applied by its workflow and audited there with actor system/payment-processor (no request id).
  'POST /v1/webhooks/processor': 'receipt of a processor notification; applied and audited by its workflow',
  // The hosted page's HTML form (not JSON), answered with a 303: its entries (invoice.checkout_started,
  // payment.attempted, actor the invoice's customer) are checked by test/http/documents.test.ts and test/browser.
  'POST /hosted/invoices/{token}/pay': "the hosted page's form, audited and checked in the documents and browser tests",
  // The customer portal's HTML forms (303 answers, session token in the path): their entries
  // (payment_method.attached, subscription.cancelled, portal_session.revoked, actor customer) are
  // checked by test/http/portal.test.ts and test/browser/portal.test.ts.
  'POST /portal/{token}/payment-method': "the portal's form, audited and checked in the portal and browser tests",
  'POST /portal/{token}/subscriptions/{id}/cancel': "the portal's form, audited and checked in the portal and browser tests",
  'POST /portal/{token}/sign-out': "the portal's form, audited and checked in the portal and browser tests",
  // A check answers from the balances; with reserve: true it holds a quantity for seconds, which a
  // usage event commits: request-path traffic like usage ingestion, not an operator's change.
  'POST /v1/entitlements/check': 'a balance check (and short-lived reservation) on the request path, like usage ingestion',
};

type Caller = 'admin' | 'api_key' | { customer: string };

/** One valid call of a route: its concrete path, body and caller. */
interface Call {
  path: string;
  body?: unknown;
  as?: Caller;
}

interface Created {
  id: string;
}

const post = async <T = Created>(path: string, body?: unknown, status = 201, as: RequestOptions['as'] = 'admin'): Promise<T> =>
  expectJson<T>(await h.request('POST', path, { ...(body === undefined ? {} : { body }), as }), status);

let seq = 0;
const tag = () => `${Date.now().toString(36)}-${(seq += 1)}`;

async function customer(): Promise<string> {
  const t = tag();
  return (await post('/admin/v1/customers', { display_name: `Walk ${t}`, email: `walk-${t}@audit.test`, currency: 'USD', account_type: 'Organization' })).id;
}

async function customerWithCard(): Promise<string> {
  const id = await customer();
  await post(`/admin/v1/customers/${id}/payment-methods`, { processor_payment_method_id: 'pm_card_visa' });
  return id;
}

async function plan(): Promise<string> {
  const id = (await post('/admin/v1/catalog/plans', { name: `Walk ${tag()}`, billing_cadence: 'Monthly' })).id;
  await post('/admin/v1/catalog/skus', { plan_id: id, name: 'Base fee', pricing_model: 'Flat', unit_amount_nanos: units(49n), currency: 'USD' });
  await post('/admin/v1/catalog/skus', { plan_id: id, name: 'API calls', pricing_model: 'PerUnit', unit_amount_nanos: '10000000000', meter_event_type: 'api_calls', currency: 'USD' });
  return id;
}

async function subscription(customerId?: string, testClockId?: string): Promise<{ id: string; customerId: string }> {
  let owner = customerId;
  if (!owner) {
    owner = testClockId
      ? (await post('/admin/v1/customers', { display_name: `Walk ${tag()}`, email: 'clock@audit.test', currency: 'USD', account_type: 'Organization', test_clock_id: testClockId })).id
      : await customer();
  }
  const id = (await post('/v1/subscriptions', { customer_id: owner, plan_id: await plan(), currency: 'USD' })).id;
  return { id, customerId: owner };
}

async function draftInvoice(customerId?: string): Promise<string> {
  return (await post(`/admin/v1/subscriptions/${(await subscription(customerId)).id}/bill`)).id;
}

async function openInvoice(customerId?: string): Promise<string> {
  const id = await draftInvoice(customerId);
  await post(`/admin/v1/invoices/${id}/finalize`, undefined, 200);
  return id;
}

async function contract(activate = false): Promise<Created & { customerId: string }> {
  const customerId = await customer();
  const made = await post('/admin/v1/contracts', {
    activate,
    customer_id: customerId,
    name: `Walk ${tag()}`,
    start_date: '2030-01-01',
    end_date: '2031-01-01',
    terms: [{ phase: 1, start_date: '2030-01-01', end_date: '2031-01-01', committed_amount_nanos: units(1000n), description: 'walk' }],
  });
  return { ...made, customerId };
}

const activeContract = () => contract(true);

const wallet = (customerId: string) => `/admin/v1/customers/${customerId}/wallets/USD`;

const feature = () => post('/admin/v1/catalog/features', { key: `walk_${(seq += 1)}_${Date.now().toString(36)}`, name: 'Walk feature', kind: 'Boolean' });

const meteredFeature = () => post('/admin/v1/catalog/features', { key: `walk_m_${(seq += 1)}_${Date.now().toString(36)}`, name: 'Walk metered', kind: 'Metered', meter_event_type: 'api_calls' });

/**
 * A valid request for each mutating route, keyed `METHOD /path/{param}` as the document names it.
 * Each seeds its own resources, so the calls do not depend on each other's order.
 */
const REQUESTS: Record<string, () => Promise<Call>> = {
  'POST /admin/v1/customers': async () => ({
    path: '/admin/v1/customers',
    body: { display_name: `Walk ${tag()}`, email: 'new@audit.test', currency: 'USD', account_type: 'Organization' },
    as: 'api_key',
  }),
  'PATCH /admin/v1/customers/{id}': async () => ({ path: `/admin/v1/customers/${await customer()}`, body: { display_name: `Renamed ${tag()}` } }),
  'POST /admin/v1/customers/{id}/status': async () => ({ path: `/admin/v1/customers/${await customer()}/status`, body: { status: 'Suspended' } }),
  'POST /admin/v1/catalog/products': async () => ({ path: '/admin/v1/catalog/products', body: { name: `Walk ${tag()}`, description: 'walk', tags: ['walk'] } }),
  'POST /admin/v1/catalog/plans': async () => ({ path: '/admin/v1/catalog/plans', body: { name: `Walk ${tag()}`, billing_cadence: 'Annual' } }),
  'POST /admin/v1/catalog/skus': async () => ({
    path: '/admin/v1/catalog/skus',
    body: { plan_id: await plan(), name: 'Seats', pricing_model: 'PerUnit', unit_amount_nanos: units(5n), meter_event_type: 'seats', currency: 'USD' },
  }),
  'POST /admin/v1/catalog/products/{id}/archive': async () => ({
    path: `/admin/v1/catalog/products/${(await post('/admin/v1/catalog/products', { name: `Walk ${tag()}`, description: 'walk', tags: [] })).id}/archive`,
  }),
  'PATCH /admin/v1/catalog/plans/{id}': async () => ({ path: `/admin/v1/catalog/plans/${await plan()}`, body: { metadata: { crm_id: `walk-${seq}` } } }),
  'POST /admin/v1/catalog/plans/{id}/archive': async () => ({ path: `/admin/v1/catalog/plans/${await plan()}/archive` }),
  'POST /admin/v1/catalog/skus/{id}/archive': async () => {
    const sku = await post('/admin/v1/catalog/skus', { plan_id: await plan(), name: 'Extra', pricing_model: 'Flat', unit_amount_nanos: units(3n), currency: 'USD' });
    return { path: `/admin/v1/catalog/skus/${sku.id}/archive` };
  },
  'POST /admin/v1/catalog/plans/{id}/migrations': async () => {
    const planId = await plan();
    const owner = await customer();
    await post('/v1/subscriptions', { customer_id: owner, plan_id: planId, currency: 'USD' });
    // A SKU added to a plan in use opens version 2; the migration moves the subscriber onto it.
    await post('/admin/v1/catalog/skus', { plan_id: planId, name: 'Support', pricing_model: 'Flat', unit_amount_nanos: units(5n), currency: 'USD' });
    return { path: `/admin/v1/catalog/plans/${planId}/migrations`, body: { preview: false } };
  },
  'POST /admin/v1/meters/{id}/archive': async () => ({
    path: `/admin/v1/meters/${(await post('/admin/v1/meters', { name: `Walk ${tag()}`, event_type: `walk_archive_${seq}`, aggregation: 'Count' })).id}/archive`,
  }),
  'POST /admin/v1/meters': async () => ({ path: '/admin/v1/meters', body: { name: `Walk ${tag()}`, event_type: `walk_${seq}`, aggregation: 'Count' } }),
  'POST /admin/v1/test-clocks': async () => ({ path: '/admin/v1/test-clocks', body: { name: `Walk ${tag()}`, frozen_time: '2026-01-01T00:00:00Z' } }),
  'DELETE /admin/v1/test-clocks/{id}': async () => ({
    path: `/admin/v1/test-clocks/${(await post('/admin/v1/test-clocks', { name: `Walk ${tag()}`, frozen_time: '2026-01-01T00:00:00Z' })).id}`,
  }),
  'POST /admin/v1/test-clocks/{id}/advance': async () => {
    const clock = await post('/admin/v1/test-clocks', { name: `Walk ${tag()}`, frozen_time: '2026-01-01T00:00:00Z' });
    return { path: `/admin/v1/test-clocks/${clock.id}/advance`, body: { frozen_time: '2026-01-02T00:00:00Z' } };
  },

  'POST /admin/v1/simulations': async () => {
    const planId = await plan();
    return { path: '/admin/v1/simulations', body: { candidate: { kind: 'plan_version', plan_id: planId, version: 1 }, scope: { kind: 'plan', plan_id: planId }, range: { last_periods: 1 } } };
  },
  'POST /admin/v1/simulations/{id}/cancel': async () => {
    // A running simulation whose workflow is gone (as one that ended just as the cancel came in): a
    // started one over nothing would complete before the walk could cancel it.
    const id = newId();
    const planId = await plan();
    await h.deps.db.simulation.create({
      data: { id, status: 'running', candidate: { kind: 'plan_version', plan_id: planId, version: 1 }, scope: { kind: 'all' }, lastPeriods: 1, requestedBy: 'admin:walk' },
    });
    return { path: `/admin/v1/simulations/${id}/cancel` };
  },

  'POST /admin/v1/catalog/features': async () => ({ path: '/admin/v1/catalog/features', body: { key: `walk_${(seq += 1)}_${Date.now().toString(36)}`, name: 'Walk', kind: 'Boolean' } }),
  'POST /admin/v1/catalog/features/{id}/archive': async () => ({ path: `/admin/v1/catalog/features/${(await feature()).id}/archive` }),
  'POST /admin/v1/catalog/plans/{id}/features': async () => ({ path: `/admin/v1/catalog/plans/${await plan()}/features`, body: { feature_id: (await feature()).id } }),
  'PUT /admin/v1/subscriptions/{id}/features/{feature_id}': async () => ({ path: `/admin/v1/subscriptions/${(await subscription()).id}/features/${(await feature()).id}`, body: { enabled: true } }),
  'DELETE /admin/v1/subscriptions/{id}/features/{feature_id}': async () => {
    const path = `/admin/v1/subscriptions/${(await subscription()).id}/features/${(await feature()).id}`;
    await expectJson(await h.request('PUT', path, { body: { enabled: true } }), 201);
    return { path };
  },
  'PUT /admin/v1/contracts/{id}/features/{feature_id}': async () => ({ path: `/admin/v1/contracts/${(await contract()).id}/features/${(await feature()).id}`, body: { enabled: true } }),
  'DELETE /admin/v1/contracts/{id}/features/{feature_id}': async () => {
    const path = `/admin/v1/contracts/${(await contract()).id}/features/${(await feature()).id}`;
    await expectJson(await h.request('PUT', path, { body: { enabled: true } }), 201);
    return { path };
  },

  'POST /admin/v1/customers/{id}/entitlement-grants': async () => ({
    path: `/admin/v1/customers/${await customer()}/entitlement-grants`,
    body: { feature_id: (await meteredFeature()).id, quantity: '100', recurring: true, rollover_cap: '10' },
  }),
  'POST /admin/v1/customers/{id}/entitlement-grants/{grant_id}/void': async () => {
    const owner = await customer();
    const grant = await post(`/admin/v1/customers/${owner}/entitlement-grants`, { feature_id: (await meteredFeature()).id, quantity: '5' });
    return { path: `/admin/v1/customers/${owner}/entitlement-grants/${grant.id}/void` };
  },
  'POST /admin/v1/customers/{id}/portal-sessions': async () => ({ path: `/admin/v1/customers/${await customer()}/portal-sessions` }),
  'POST /v1/portal-sessions': async () => {
    const owner = await customer();
    return { path: '/v1/portal-sessions', as: { customer: owner } };
  },
  'POST /admin/v1/portal-sessions/{id}/renew': async () => ({ path: `/admin/v1/portal-sessions/${(await post(`/admin/v1/customers/${await customer()}/portal-sessions`)).id}/renew` }),
  'POST /admin/v1/portal-sessions/{id}/revoke': async () => ({ path: `/admin/v1/portal-sessions/${(await post(`/admin/v1/customers/${await customer()}/portal-sessions`)).id}/revoke` }),

  'POST /admin/v1/shadow-billing/attachments': async () => {
    const planId = await plan();
    return { path: '/admin/v1/shadow-billing/attachments', body: { candidate: { plan_id: planId, version: 1 }, scope: { kind: 'plan', plan_id: planId } } };
  },
  'DELETE /admin/v1/shadow-billing/attachments/{id}': async () => {
    const planId = await plan();
    const attachment = await post('/admin/v1/shadow-billing/attachments', { candidate: { plan_id: planId, version: 1 }, scope: { kind: 'plan', plan_id: planId } });
    return { path: `/admin/v1/shadow-billing/attachments/${attachment.id}` };
  },

  'POST /v1/subscriptions': async () => {
    const owner = await customer();
    return { path: '/v1/subscriptions', body: { customer_id: owner, plan_id: await plan(), currency: 'USD' }, as: { customer: owner } };
  },
  'PATCH /admin/v1/subscriptions/{id}': async () => ({ path: `/admin/v1/subscriptions/${(await subscription()).id}`, body: { metadata: { crm_id: `walk-${seq}` } } }),
  'PATCH /admin/v1/invoices/{id}': async () => ({ path: `/admin/v1/invoices/${await draftInvoice()}`, body: { metadata: { po_number: `PO-${seq}` } } }),
  'POST /admin/v1/subscriptions/{id}/bill': async () => ({ path: `/admin/v1/subscriptions/${(await subscription()).id}/bill` }),
  'POST /admin/v1/subscriptions/{id}/change-plan': async () => ({ path: `/admin/v1/subscriptions/${(await subscription()).id}/change-plan`, body: { plan_id: await plan() } }),
  'POST /admin/v1/subscriptions/{id}/pause': async () => ({ path: `/admin/v1/subscriptions/${(await subscription()).id}/pause`, body: { reason: 'walk' } }),
  'POST /admin/v1/subscriptions/{id}/resume': async () => {
    const { id } = await subscription();
    await post(`/admin/v1/subscriptions/${id}/pause`, undefined, 200);
    return { path: `/admin/v1/subscriptions/${id}/resume` };
  },
  'POST /admin/v1/subscriptions/{id}/cancel': async () => ({ path: `/admin/v1/subscriptions/${(await subscription()).id}/cancel`, body: { reason: 'walk' } }),
  'POST /admin/v1/subscriptions/{id}/retry': async () => {
    // A period close that fails deterministically holds the subscription with a billing_error.
    const clock = await post('/admin/v1/test-clocks', { name: `Walk ${tag()}`, frozen_time: '2026-01-01T00:00:00Z' });
    const { id } = await subscription(undefined, clock.id);
    await withOverflow(h.deps.db, { table: 'invoice_line_items', when: `NEW.subscription_id = '${id}'::uuid` }, async () => {
      await advanceClock(h, clock.id, '2026-02-01T02:00:00Z');
    });
    const held = await expectJson<{ billing_error: unknown }>(await h.request('GET', `/v1/subscriptions/${id}`));
    expect(held.billing_error, 'the seeded subscription holds a billing_error').not.toBeNull();
    return { path: `/admin/v1/subscriptions/${id}/retry` };
  },

  'POST /admin/v1/invoices/{id}/dunning/retry': async () => {
    // A dunning retry that fails deterministically holds the schedule with a billing_error.
    const clock = await post('/admin/v1/test-clocks', { name: `Walk ${tag()}`, frozen_time: '2026-01-01T00:00:00Z' });
    const { id, customerId } = await subscription(undefined, clock.id);
    await post(`/admin/v1/customers/${customerId}/payment-methods`, { processor_payment_method_id: 'pm_card_visa' });
    // The invoice is finalized, its auto-charge fails (stripe-mock refuses every charge) and dunning starts.
    await advanceClock(h, clock.id, '2026-02-01T01:00:00Z');
    const [invoice] = (await expectPage<Created>(await h.request('GET', `/admin/v1/invoices?subscription_id=${id}`))).data;
    await withOverflow(h.deps.db, { table: 'dunning_schedules', when: `NEW.invoice_id = '${invoice!.id}'::uuid AND NEW.attempt_count > OLD.attempt_count` }, async () => {
      await advanceClock(h, clock.id, '2026-02-04T01:00:00Z');
    });
    const held = await expectJson<{ billing_error: unknown }>(await h.request('GET', `/admin/v1/invoices/${invoice!.id}/dunning`));
    expect(held.billing_error, 'the seeded dunning schedule holds a billing_error').not.toBeNull();
    return { path: `/admin/v1/invoices/${invoice!.id}/dunning/retry` };
  },

  'POST /admin/v1/processor-events/{id}/retry': async () => {
    // A notification whose application fails deterministically is held with a billing_error: a
    // refund made at the processor on a Paid invoice, whose recording overflows.
    const invoiceId = await openInvoice(await customerWithCard());
    const charge = await autoChargeOf(h, invoiceId);
    const paid = intentEvent('payment_intent.succeeded', charge!);
    await notify(h, paid);
    expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(paid.id)).result()).toBe('payment_succeeded');
    const refunded = {
      id: `evt_walk_${tag()}`,
      object: 'event',
      type: 'charge.refunded',
      data: { object: { id: `ch_walk_${tag()}`, object: 'charge', payment_intent: charge!.processor_payment_intent_id, amount_refunded: 100 } },
    };
    await withOverflow(h.deps.db, { table: 'refunds', when: `NEW.payment_id = '${charge!.id}'::uuid`, on: 'INSERT' }, async () => {
      await notify(h, refunded);
      await eventually(async () => {
        const held = await expectJson<{ billing_error: unknown }>(await h.request('GET', `/admin/v1/processor-events/${refunded.id}`));
        expect(held.billing_error, 'the seeded processor event holds a billing_error').not.toBeNull();
      });
    });
    return { path: `/admin/v1/processor-events/${refunded.id}/retry` };
  },

  'POST /admin/v1/invoices/{id}/line-items': async () => ({ path: `/admin/v1/invoices/${await draftInvoice()}/line-items`, body: { description: 'Setup fee', amount_nanos: units(10n) } }),
  'POST /admin/v1/invoices/{id}/credits': async () => ({ path: `/admin/v1/invoices/${await draftInvoice()}/credits`, body: { amount_nanos: units(5n), description: 'Goodwill' } }),
  'POST /admin/v1/invoices/{id}/calculate-tax': async () => ({ path: `/admin/v1/invoices/${await draftInvoice()}/calculate-tax` }),
  'POST /admin/v1/invoices/{id}/finalize': async () => ({ path: `/admin/v1/invoices/${await draftInvoice()}/finalize` }),
  'POST /admin/v1/invoices/{id}/pay': async () => ({ path: `/admin/v1/invoices/${await openInvoice()}/pay`, body: { actor_id: 'ops-1', actor_name: 'Ops' } }),
  'POST /admin/v1/invoices/{id}/void': async () => ({ path: `/admin/v1/invoices/${await openInvoice()}/void`, body: { reason: 'walk' } }),
  'POST /admin/v1/invoices/{id}/hosted-link': async () => ({ path: `/admin/v1/invoices/${await openInvoice()}/hosted-link` }),
  'POST /admin/v1/invoices/{id}/retry': async () => {
    const id = await draftInvoice();
    await withOverflow(h.deps.db, { table: 'invoices', when: `NEW.id = '${id}'::uuid AND NEW.status = 'Open'` }, async () => {
      expect((await h.request('POST', `/admin/v1/invoices/${id}/finalize`)).status).toBe(422);
    });
    return { path: `/admin/v1/invoices/${id}/retry` };
  },
  'POST /admin/v1/invoices/{id}/credit-notes': async () => ({ path: `/admin/v1/invoices/${await openInvoice()}/credit-notes`, body: { amount_nanos: units(10n), reason: 'other' } }),
  'POST /admin/v1/invoices/{id}/payment-intents': async () => ({ path: `/admin/v1/invoices/${await openInvoice(await customerWithCard())}/payment-intents`, body: { capture_method: 'manual' } }),
  'POST /admin/v1/invoices/{id}/capture': async () => {
    const invoiceId = await openInvoice(await customerWithCard());
    const payment = await post<{ id: string; processor_payment_intent_id: string | null }>(`/admin/v1/invoices/${invoiceId}/payment-intents`, { capture_method: 'manual' });
    // stripe-mock never leaves an intent authorised: the processor's answer is set as it would come.
    await h.deps.db.payment.update({ where: { id: payment.id }, data: { status: 'RequiresCapture', processorStatus: 'requires_capture', processorPaymentIntentId: payment.processor_payment_intent_id ?? `pi_walk_${seq}` } });
    return { path: `/admin/v1/invoices/${invoiceId}/capture` };
  },
  'POST /admin/v1/invoices/{id}/refunds': async () => {
    const invoiceId = await openInvoice(await customerWithCard());
    const charge = await autoChargeOf(h, invoiceId);
    const receipt = await expectJson<{ event_id: string }>(await notify(h, intentEvent('payment_intent.succeeded', charge!)));
    expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(receipt.event_id)).result()).toBe('payment_succeeded');
    return { path: `/admin/v1/invoices/${invoiceId}/refunds`, body: { amount_nanos: units(9n), reason: 'other' } };
  },

  'POST /admin/v1/customers/{id}/payment-methods': async () => ({ path: `/admin/v1/customers/${await customer()}/payment-methods`, body: { processor_payment_method_id: 'pm_card_visa' } }),
  'DELETE /admin/v1/payment-methods/{id}': async () => {
    const method = await post(`/admin/v1/customers/${await customer()}/payment-methods`, { processor_payment_method_id: 'pm_card_visa' });
    return { path: `/admin/v1/payment-methods/${method.id}` };
  },

  'POST /admin/v1/customers/{id}/wallets/{currency}/grants': async () => ({ path: `${wallet(await customer())}/grants`, body: { amount_nanos: units(20n), description: 'welcome credit' } }),
  'POST /admin/v1/customers/{id}/wallets/{currency}/top-ups': async () => ({ path: `${wallet(await customerWithCard())}/top-ups`, body: { amount_nanos: units(50n) } }),
  'POST /admin/v1/customers/{id}/wallets/{currency}/top-ups/{top_up_id}/retry': async () => {
    // An auto-recharge whose top-up cannot be recorded Failed (stripe-mock refuses the charge) holds it with a billing_error.
    const owner = await customerWithCard();
    await post(`${wallet(owner)}/grants`, { amount_nanos: units(100n), description: 'welcome credit' });
    await expectJson(await h.request('PUT', `${wallet(owner)}/auto-recharge`, { body: { threshold_nanos: units(99n), target_nanos: units(100n) } }));
    const invoiceId = await draftInvoice(owner);
    const held = await withOverflow(h.deps.db, { table: 'wallet_top_ups', when: `NEW.customer_id = '${owner}'::uuid AND NEW.status = 'Failed'`, on: 'UPDATE' }, async () => {
      await post(`/admin/v1/invoices/${invoiceId}/finalize`, undefined, 200);
      return eventually(async () => {
        const [topUp] = (await expectPage<{ id: string; billing_error: unknown }>(await h.request('GET', `${wallet(owner)}/top-ups`))).data;
        expect(topUp?.billing_error, 'the seeded top-up holds a billing_error').toBeTruthy();
        return topUp!;
      });
    });
    return { path: `${wallet(owner)}/top-ups/${held.id}/retry` };
  },
  'PUT /admin/v1/customers/{id}/wallets/{currency}/auto-recharge': async () => {
    const owner = await customerWithCard();
    await post(`${wallet(owner)}/grants`, { amount_nanos: units(20n), description: 'welcome credit' });
    return { path: `${wallet(owner)}/auto-recharge`, body: { threshold_nanos: units(10n), target_nanos: units(50n) } };
  },
  'DELETE /admin/v1/customers/{id}/wallets/{currency}/auto-recharge': async () => {
    const owner = await customerWithCard();
    await post(`${wallet(owner)}/grants`, { amount_nanos: units(20n), description: 'welcome credit' });
    await expectJson(await h.request('PUT', `${wallet(owner)}/auto-recharge`, { body: { threshold_nanos: units(10n), target_nanos: units(50n) } }));
    return { path: `${wallet(owner)}/auto-recharge` };
  },

  'POST /admin/v1/customers/{id}/alerts': async () => ({ path: `/admin/v1/customers/${await customer()}/alerts`, body: { alert_type: 'SoftLimit', threshold_nanos: units(100n) } }),
  'DELETE /admin/v1/customers/{id}/alerts/{alert_id}': async () => {
    const owner = await customer();
    const alert = await post(`/admin/v1/customers/${owner}/alerts`, { alert_type: 'HardLimit', threshold_nanos: units(100n) });
    return { path: `/admin/v1/customers/${owner}/alerts/${alert.id}` };
  },
  'POST /admin/v1/customers/{id}/alerts/{alert_id}/reset': async () => {
    const sub = await subscription();
    const alerts = `/admin/v1/customers/${sub.customerId}/alerts`;
    const alert = await post(alerts, { alert_type: 'SoftLimit', threshold_nanos: '1000000000' });
    const events = [1, 2].map((n) => ({ id: `walk-${sub.id}-${n}`, event_type: 'api_calls', customer_id: sub.customerId, subscription_id: sub.id, timestamp: new Date().toISOString(), properties: {} }));
    await expectJson(await h.request('POST', '/v1/events/batch', { body: { events } }));
    await eventually(async () => expect((await expectJson<{ status: string }>(await h.request('GET', `${alerts}/${alert.id}`))).status).toBe('Triggered'), 30_000);
    return { path: `${alerts}/${alert.id}/reset`, body: { threshold_nanos: units(100n) } };
  },

  'POST /admin/v1/contracts': async () => ({
    path: '/admin/v1/contracts',
    body: {
      customer_id: await customer(),
      name: `Walk ${tag()}`,
      start_date: '2030-01-01',
      end_date: '2031-01-01',
      terms: [{ phase: 1, start_date: '2030-01-01', end_date: '2031-01-01', committed_amount_nanos: units(1000n), description: 'walk' }],
    },
  }),
  'POST /admin/v1/contracts/{id}/activate': async () => ({ path: `/admin/v1/contracts/${(await contract()).id}/activate` }),
  'POST /admin/v1/contracts/{id}/amend': async () => ({
    path: `/admin/v1/contracts/${(await activeContract()).id}/amend`,
    body: { reason: 'upsell', new_committed_amount_nanos: units(2000n), effective_date: '2030-07-01' },
  }),
  'POST /admin/v1/contracts/{id}/retry': async () => {
    // A phase true-up that fails deterministically holds the contract with a billing_error.
    const clock = await post('/admin/v1/test-clocks', { name: `Walk ${tag()}`, frozen_time: '2026-01-01T00:00:00Z' });
    const customerId = (await post('/admin/v1/customers', { display_name: `Walk ${tag()}`, email: 'clock@audit.test', currency: 'USD', account_type: 'Organization', test_clock_id: clock.id })).id;
    const { id } = await post('/admin/v1/contracts', {
      activate: true,
      customer_id: customerId,
      name: `Walk ${tag()}`,
      start_date: '2026-01-01',
      end_date: '2027-01-01',
      terms: [
        { phase: 1, start_date: '2026-01-01', end_date: '2026-04-01', committed_amount_nanos: units(10n), description: 'first' },
        { phase: 2, start_date: '2026-04-01', end_date: '2027-01-01', committed_amount_nanos: units(20n), description: 'second' },
      ],
    });
    await withOverflow(h.deps.db, { table: 'contract_terms', when: `NEW.contract_id = '${id}'::uuid AND NEW.trued_up_at IS NOT NULL` }, async () => {
      await advanceClock(h, clock.id, '2026-04-01T01:00:00Z');
    });
    const held = await expectJson<{ billing_error: unknown }>(await h.request('GET', `/admin/v1/contracts/${id}`));
    expect(held.billing_error, 'the seeded contract holds a billing_error').not.toBeNull();
    return { path: `/admin/v1/contracts/${id}/retry` };
  },
  'POST /admin/v1/contracts/{id}/terminate': async () => ({ path: `/admin/v1/contracts/${(await activeContract()).id}/terminate`, body: { reason: 'customer exit' } }),
  'POST /admin/v1/contracts/{id}/subscriptions': async () => {
    const made = await activeContract();
    return { path: `/admin/v1/contracts/${made.id}/subscriptions`, body: { subscription_id: (await subscription(made.customerId)).id, adoption_type: 'PLG' } };
  },

  'POST /admin/v1/webhooks': async () => ({ path: '/admin/v1/webhooks', body: { url: 'http://127.0.0.1:9/walk', events: ['invoice.finalized'], description: 'walk' } }),
  'PATCH /admin/v1/webhooks/{id}': async () => ({ path: `/admin/v1/webhooks/${(await endpoint()).id}`, body: { description: 'renamed' } }),
  'DELETE /admin/v1/webhooks/{id}': async () => ({ path: `/admin/v1/webhooks/${(await endpoint()).id}` }),
  'POST /admin/v1/webhooks/{id}/rotate-secret': async () => ({ path: `/admin/v1/webhooks/${(await endpoint()).id}/rotate-secret` }),
  'POST /admin/v1/webhooks/{id}/enable': async () => {
    const made = await endpoint();
    expect((await h.request('PATCH', `/admin/v1/webhooks/${made.id}`, { body: { enabled: false } })).status).toBe(200);
    return { path: `/admin/v1/webhooks/${made.id}/enable` };
  },
  'POST /admin/v1/webhooks/{id}/deliveries/{delivery_id}/resend': async () => {
    // Nothing listens on port 9: the delivery fails its five attempts (the tests' scaled-down schedule).
    const made = await endpoint(['spend_alert.triggered']);
    const eventId = await emitEvent(h, 'spend_alert.triggered', { alert_type: 'SoftLimit', customer_id: made.id, threshold_nanos: '1' });
    const failed = await eventually(async () => {
      const page = await expectPage<{ id: string; event_id: string; status: string }>(await h.request('GET', `/admin/v1/webhooks/${made.id}/deliveries?limit=200`));
      const delivery = page.data.find((d) => d.event_id === eventId);
      expect(delivery?.status).toBe('Failed');
      return delivery!;
    }, 60_000);
    return { path: `/admin/v1/webhooks/${made.id}/deliveries/${failed.id}/resend` };
  },
};

async function endpoint(events = ['invoice.finalized']): Promise<Created> {
  return post('/admin/v1/webhooks', { url: 'http://127.0.0.1:9/walk', events, description: 'walk' });
}

interface Operation {
  method: string;
  path: string;
}

const routeOf = (op: Operation) => `${op.method} ${op.path}`;

/** The actor the trail must name for a caller. */
function expectedActor(as: Caller | undefined): { actor_type: string; actor_id?: string } {
  if (as === undefined || as === 'admin') return { actor_type: 'admin', actor_id: 'test-admin' };
  if (as === 'api_key') return { actor_type: 'api_key' };
  return { actor_type: 'customer', actor_id: as.customer };
}

/** The actions the audit trail's catalogue (docs/audit-trail.md) lists. */
function catalogue(): Set<string> {
  const section = readFileSync(new URL('../../docs/audit-trail.md', import.meta.url), 'utf8');
  return new Set([...section.matchAll(/`([a-z_]+\.[a-z_]+)`/g)].map((m) => m[1]!));
}

describe('every mutating route writes an audit entry', () => {
  it('walks the OpenAPI document: each call is audited with its actor, request id and before/after state; 25+ distinct actions, all in the docs/audit-trail.md catalogue', async () => {
    const doc = (await (await h.request('GET', '/openapi.json', { as: 'none' })).json()) as { paths: Record<string, Record<string, unknown>> };
    const operations: Operation[] = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path })))
      .filter((op) => MUTATING.includes(op.method.toLowerCase()));
    expect(operations.length).toBeGreaterThan(40);

    const problems: string[] = [];
    const actions = new Set<string>();
    let walked = 0;
    for (const op of operations) {
      const route = routeOf(op);
      if (route in EXCLUDED) continue;
      const request = REQUESTS[route];
      if (!request) {
        problems.push(`${route} has no valid request in the audit walk: add one to REQUESTS (test/http/audit-walk.test.ts) so it is checked, or to EXCLUDED with the reason`);
        continue;
      }
      let call: Call;
      try {
        call = await request();
      } catch (err) {
        problems.push(`${route}: seeding its request failed: ${(err as Error).message}`);
        continue;
      }
      const res = await h.request(op.method, call.path, { ...(call.body === undefined ? {} : { body: call.body }), as: call.as ?? 'admin' });
      if (res.status >= 300) {
        problems.push(`${route} answered ${res.status} to the walk's valid request: ${await res.text()}`);
        continue;
      }
      await res.arrayBuffer();
      walked += 1;
      const requestId = res.headers.get('x-request-id')!;
      const entries = (await expectPage<AuditEntryView>(await h.request('GET', `/admin/v1/audit-log?request_id=${encodeURIComponent(requestId)}&limit=100`))).data;
      if (entries.length === 0) {
        problems.push(`${route} wrote no audit entry`);
        continue;
      }
      const actor = expectedActor(call.as);
      for (const entry of entries) {
        actions.add(entry.action);
        const label = `${route} (${entry.action})`;
        if (entry.actor_type !== actor.actor_type || (actor.actor_id !== undefined && entry.actor_id !== actor.actor_id) || !entry.actor_id) {
          problems.push(`${label}: actor ${entry.actor_type}/${entry.actor_id}, expected ${actor.actor_type}/${actor.actor_id ?? '<key id>'}`);
        }
        if (entry.request_id !== requestId) problems.push(`${label}: request id ${entry.request_id}, expected ${requestId}`);
        // A creation: the call's own resource (201), or one it made along the way (a plan change's proration Draft).
        const creation = res.status === 201 || entry.action.endsWith('.created');
        if (entry.before === null && !creation) problems.push(`${label}: no before state, yet it created nothing (answered ${res.status})`);
        if (entry.after === null && op.method !== 'DELETE') problems.push(`${label}: no after state, yet the call deleted nothing`);
      }
      if (op.method === 'DELETE' && !entries.some((e) => e.before !== null)) problems.push(`${route} deleted something but no entry keeps its before state`);
    }
    expect(problems).toEqual([]);
    expect(walked).toBe(operations.length - Object.keys(EXCLUDED).filter((route) => operations.some((op) => routeOf(op) === route)).length);
    expect(actions.size, [...actions].sort().join(', ')).toBeGreaterThanOrEqual(25);
    if (process.env.AUDIT_WALK_REPORT) console.log(`walked ${walked} of ${operations.length} routes, ${actions.size} distinct actions`);
    const listed = catalogue();
    expect([...actions].filter((action) => !listed.has(action)), 'actions missing from the catalogue in docs/audit-trail.md').toEqual([]);
  }, 600_000);

  it('keeps the exclusion list to routes the document still publishes', async () => {
    const doc = (await (await h.request('GET', '/openapi.json', { as: 'none' })).json()) as { paths: Record<string, Record<string, unknown>> };
    const published = new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`)));
    expect(Object.keys(EXCLUDED).filter((route) => !published.has(route))).toEqual([]);
    expect(Object.keys(REQUESTS).filter((route) => !published.has(route))).toEqual([]);
  });
});
