/**
 * The customer portal's scenario (issue 32), shared by its HTTP and browser tests: a customer on a
 * test clock at 2026-03-04 12:00 UTC, on a plan with a 49.00 base fee and API calls whose first 1,000
 * are included (Graduated: 0 up to 1,000, then 0.01), with 300, 500, 400 and 100 calls on the period's
 * first four days; an Open 49.00 invoice of a second, flat-only subscription; and another customer
 * with an invoice and a subscription of its own.
 */
import { ONE_UNIT } from '../../src/core/index.js';
import { toDecimal } from '../../src/db/money.js';
import { newId } from '../../src/ids.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { dunningWorkflowId } from '../../workflows/dunning/messages.js';
import { advanceClock, sendUsage } from './clock-usage.js';
import { makeCustomer, makeTestClock } from './fixtures.js';
import { expectJson, type Harness } from './harness.js';
import { openInvoiceThroughApi } from './payments.js';

export const PORTAL_DAYS = [
  { day: '2026-03-01', calls: 300, total: '300' },
  { day: '2026-03-02', calls: 500, total: '800' },
  { day: '2026-03-03', calls: 400, total: '1200' },
  { day: '2026-03-04', calls: 100, total: '1300' },
];

export interface PortalScenario {
  customerId: string;
  usageSubscriptionId: string;
  flatSubscriptionId: string;
  invoice: { id: string; invoice_number: string };
  other: { customerId: string; subscriptionId: string; invoiceId: string };
}

async function plan(h: Harness, name: string, metered: boolean): Promise<string> {
  const id = newId();
  await h.deps.db.plan.create({ data: { id, name, billingCadence: 'Monthly', trialDays: 0 } });
  await h.deps.db.sku.create({ data: { id: newId(), planId: id, name: 'Base fee', pricingModel: 'Flat', unitAmountNanos: toDecimal(49n * ONE_UNIT), currency: 'USD' } });
  if (metered) {
    await h.deps.db.sku.create({
      data: {
        id: newId(),
        planId: id,
        name: 'API calls',
        pricingModel: 'Graduated',
        unitAmountNanos: toDecimal(0n),
        meterEventType: 'api_calls',
        currency: 'USD',
        tiers: [
          { up_to: '1000', unit_amount_nanos: '0' },
          { up_to: null, unit_amount_nanos: (ONE_UNIT / 100n).toString() },
        ],
      },
    });
  }
  return id;
}

export async function portalScenario(h: Harness, cleanup: string[]): Promise<PortalScenario> {
  const clockId = await makeTestClock(h.deps.db, '2026-03-01T00:00:00.000Z');
  const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
  const subscribe = async (planId: string) => {
    const sub = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
    cleanup.push(subscriptionWorkflowId(sub.id));
    return sub.id;
  };
  const usageSubscriptionId = await subscribe(await plan(h, 'Growth', true));
  const flatSubscriptionId = await subscribe(await plan(h, 'Support', false));
  await advanceClock(h, clockId, '2026-03-04T12:00:00.000Z');
  for (const { day, calls } of PORTAL_DAYS) await sendUsage(h, customerId, usageSubscriptionId, calls, `${day}T08:00:00.000Z`);
  const draft = await expectJson<{ id: string }>(await h.request('POST', `/admin/v1/subscriptions/${flatSubscriptionId}/bill`), 201);
  cleanup.push(dunningWorkflowId(draft.id));
  const invoice = await expectJson<{ id: string; status: string; invoice_number: string }>(await h.request('POST', `/admin/v1/invoices/${draft.id}/finalize`));
  const other = await openInvoiceThroughApi(h, cleanup, false);
  return { customerId, usageSubscriptionId, flatSubscriptionId, invoice: { id: invoice.id, invoice_number: invoice.invoice_number }, other };
}

export interface MintedSession {
  id: string;
  customer_id: string;
  url: string;
  expires_at: string;
  created_by: string;
}

export const mintPortalSession = async (h: Harness, customerId: string, body: Record<string, unknown> = {}): Promise<MintedSession> =>
  expectJson<MintedSession>(await h.request('POST', `/admin/v1/customers/${customerId}/portal-sessions`, { body }), 201);

/** The path of a portal link (the harness's app answers it in process). */
export const portalPath = (url: string): string => new URL(url).pathname;

/** The form token of a rendered portal page. */
export const formTokenOf = (html: string): string => /name="form_token" value="([^"]+)"/.exec(html)![1]!;
