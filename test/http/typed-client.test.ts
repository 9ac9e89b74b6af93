/**
 * The README's five-minute tour through the typed client (client/: openapi-typescript types of the
 * OpenAPI document, requests by openapi-fetch), against the real app, PostgreSQL and the Temporal
 * worker: a test clock, a customer on it, a plan with a monthly fee and a usage price, a
 * subscription, three usage events, a month and the grace hour later the invoice billed 49.03.
 * Every path, body and answer below is typed from the document: a route or field renamed in the API
 * without regenerating the client fails the typecheck.
 */
import { describe, expect, it } from 'vitest';
import { createBillingClient } from '../../client/index.js';
import { ONE_UNIT } from '../../src/core/index.js';
import { useHarness } from '../support/harness.js';

const h = useHarness();

/** The client over the app in process (no socket), with the admin token the API would print. */
const billing = () => createBillingClient({ baseUrl: 'http://billing.test', token: h.adminToken, fetch: async (request) => h.app.fetch(request) });

/** The answer's data, failing the test with the error envelope when there is none. */
function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  expect(result.error, `${result.response.status} ${JSON.stringify(result.error)}`).toBeUndefined();
  return result.data as T;
}

describe('the typed client', () => {
  it("drives the README's tour end to end", async () => {
    const api = billing();
    const clock = ok(await api.POST('/admin/v1/test-clocks', { body: { name: 'tour', frozen_time: '2026-01-01T00:00:00Z' } }));
    const customer = ok(
      await api.POST('/admin/v1/customers', {
        body: { display_name: 'Acme', email: 'ap@acme.test', currency: 'USD', account_type: 'Organization', test_clock_id: clock.id },
      }),
    );
    const plan = ok(await api.POST('/admin/v1/catalog/plans', { body: { name: 'Pro', billing_cadence: 'Monthly' } }));
    ok(await api.POST('/admin/v1/catalog/skus', { body: { plan_id: plan.id, name: 'Base fee', pricing_model: 'Flat', unit_amount_nanos: '49000000000000', currency: 'USD' } }));
    ok(
      await api.POST('/admin/v1/catalog/skus', {
        body: { plan_id: plan.id, name: 'API calls', pricing_model: 'PerUnit', unit_amount_nanos: '10000000000', meter_event_type: 'api_calls', currency: 'USD' },
      }),
    );
    const subscription = ok(await api.POST('/v1/subscriptions', { body: { customer_id: customer.id, plan_id: plan.id } }));
    for (const i of [1, 2, 3]) {
      const event = ok(
        await api.POST('/v1/events', { body: { id: `${subscription.id}-${i}`, event_type: 'api_calls', customer_id: customer.id, subscription_id: subscription.id, properties: {} } }),
      );
      expect(event).toMatchObject({ accepted: true, billable: true, late: false });
    }

    const advancing = ok(await api.POST('/admin/v1/test-clocks/{id}/advance', { params: { path: { id: clock.id } }, body: { frozen_time: '2026-02-01T01:00:00Z' } }));
    expect(advancing.status).toBe('advancing');
    await expect
      .poll(async () => ok(await api.GET('/admin/v1/test-clocks/{id}', { params: { path: { id: clock.id } } })).status, { timeout: 60_000, interval: 200 })
      .toBe('ready');

    const invoices = ok(await api.GET('/admin/v1/invoices', { params: { query: { customer_id: customer.id } } }));
    expect(invoices).toHaveLength(1);
    const [invoice] = invoices;
    expect(invoice).toMatchObject({ status: 'Open', currency: 'USD', period_start: '2026-01-01T00:00:00.000Z', period_end: '2026-02-01T00:00:00.000Z' });
    expect(invoice!.invoice_number).toMatch(/^INV-\d+$/);
    // 49.00 and three calls at 0.01: money stays decimal-integer strings of raw units.
    expect(invoice!.total_nanos).toBe(((4900n + 3n) * (ONE_UNIT / 100n)).toString());
  });

  it('answers an error as the typed envelope, with a code of the registry', async () => {
    const result = await billing().GET('/admin/v1/invoices/{id}', { params: { path: { id: '00000000-0000-7000-8000-000000000000' } } });
    expect(result.response.status).toBe(404);
    expect(result.error?.error.code).toBe('invoice_not_found');
  });
});
