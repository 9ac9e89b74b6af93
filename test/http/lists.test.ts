/**
 * Lists and reads through the real API: newest first with `created_*` ranges and per-resource
 * filters, invoice summaries (lines only on the single GET), the reads that were missing (admin
 * subscriptions, a customer's own invoices, test clocks, credit notes, a customer's usage events),
 * metadata on plans, subscriptions and invoices, and consistent shapes (one customer object, clock
 * time on test-clock objects, a Draft's amount_due, currency taken from the plan).
 */
import { randomUUID } from 'node:crypto';
import { newId } from '../../src/ids.js';
import { describe, expect, it } from 'vitest';
import { expectJson, expectPage, useHarness } from '../support/harness.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';

interface Invoice {
  id: string;
  status: string;
  customer_id: string;
  currency: string;
  total_nanos: string;
  amount_due_nanos: string;
  amount_due: string;
  created_at: string;
  metadata: Record<string, string>;
  line_items?: unknown[];
  line_item_count?: number;
}

interface Subscription {
  id: string;
  customer_id: string;
  plan_id: string;
  status: string;
  currency: string;
  created_at: string;
  metadata: Record<string, string>;
}

const h = useHarness();

const post = async <T>(path: string, body: unknown, status = 201) => expectJson<T>(await h.request('POST', path, { body }), status);
const get = async <T>(path: string, status = 200) => expectJson<T>(await h.request('GET', path), status);
const page = async <T>(path: string, as?: { customer: string }) => expectPage<T>(await h.request('GET', path, as ? { as } : {}));
const ids = (items: { id: string }[]) => items.map((item) => item.id);
const subscribe = (customerId: string, planId: string, extra: Record<string, unknown> = {}) =>
  post<Subscription>('/v1/subscriptions', { customer_id: customerId, plan_id: planId, ...extra });
/** A Draft invoice of the customer, made directly (payments are inserted against it). */
async function draftInvoice(customerId: string): Promise<string> {
  const id = newId();
  await h.deps.db.invoice.create({ data: { id, customerId, currency: 'USD', billingReason: 'manual' } });
  return id;
}
const bill = async (subscriptionId: string) => expectJson<Invoice>(await h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/bill`), 201);

describe('lists are newest first, with created ranges', () => {
  it('pages products newest first; created_gte / created_lt narrow by creation time', async () => {
    const since = new Date(Date.now() - 1).toISOString();
    const made: string[] = [];
    for (const name of ['L1', 'L2', 'L3']) made.push((await post<{ id: string }>('/admin/v1/catalog/products', { name })).id);
    const until = new Date(Date.now() + 1).toISOString();
    const range = `created_gte=${encodeURIComponent(since)}&created_lt=${encodeURIComponent(until)}`;

    const first = await page<{ id: string }>(`/admin/v1/catalog/products?${range}&limit=2`);
    expect(ids(first.data)).toEqual([made[2], made[1]]);
    expect(first).toMatchObject({ has_more: true, next_cursor: made[1] });
    const rest = await page<{ id: string }>(`/admin/v1/catalog/products?${range}&limit=2&starting_after=${first.next_cursor}`);
    expect(ids(rest.data)).toEqual([made[0]]);
    expect(rest.has_more).toBe(false);

    const before = await page<{ id: string }>(`/admin/v1/catalog/products?created_lt=${encodeURIComponent(since)}&limit=200`);
    expect(ids(before.data).filter((id) => made.includes(id))).toEqual([]);
    const refused = await expectJson<{ error: { code: string; details: { issues: { path: string }[] } } }>(
      await h.request('GET', '/admin/v1/catalog/products?created_gte=yesterday'),
      400,
    );
    expect(refused.error.details.issues.map((issue) => issue.path)).toEqual(['created_gte']);
  });

  it('filters subscriptions (admin list) by customer, status, plan and currency, newest first', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const usd = await makePlan(h.deps.db);
    const eur = await makePlan(h.deps.db, { currency: 'EUR' });
    const eurCustomer = await makeCustomer(h.deps.db, { currency: 'EUR' });
    const first = await subscribe(customerId, usd, { currency: 'USD' });
    // currency may be left out: the plan fixes it.
    const second = await subscribe(customerId, usd);
    expect(second.currency).toBe('USD');
    const euro = await subscribe(eurCustomer, eur);
    expect(euro.currency).toBe('EUR');
    expect((await expectJson<{ error: { code: string } }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: usd, currency: 'EUR' } }), 422)).error.code).toBe(
      'currency_mismatch',
    );
    await expectJson(await h.request('POST', `/admin/v1/subscriptions/${first.id}/cancel`));

    expect(ids((await page<Subscription>(`/admin/v1/subscriptions?customer_id=${customerId}`)).data)).toEqual([second.id, first.id]);
    expect(ids((await page<Subscription>(`/admin/v1/subscriptions?customer_id=${customerId}&status=Cancelled`)).data)).toEqual([first.id]);
    expect(ids((await page<Subscription>(`/admin/v1/subscriptions?plan_id=${eur}`)).data)).toEqual([euro.id]);
    const inEur = await page<Subscription>(`/admin/v1/subscriptions?currency=EUR&limit=200`);
    expect(inEur.data.every((s) => s.currency === 'EUR')).toBe(true);
    expect(ids(inEur.data)).toContain(euro.id);
    expect(await get<Subscription>(`/admin/v1/subscriptions/${euro.id}`)).toEqual(await get<Subscription>(`/v1/subscriptions/${euro.id}`));
    expect((await expectJson<{ error: { code: string } }>(await h.request('GET', `/admin/v1/subscriptions/${randomUUID()}`), 404)).error.code).toBe('subscription_not_found');
    // Admin routes stay admin only.
    expect((await h.request('GET', '/admin/v1/subscriptions', { as: { customer: customerId } })).status).toBe(403);
  });
});

describe('invoice lists carry summaries', () => {
  it('lists invoices without line items (line_item_count instead), lines on the single GET; a Draft owes its total', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const planId = await makePlan(h.deps.db, { flatNanos: 49n * UNIT });
    const subscription = await subscribe(customerId, planId);
    const draft = await bill(subscription.id);
    for (let i = 0; i < 40; i += 1) {
      await post(`/admin/v1/invoices/${draft.id}/line-items`, { description: `Manual adjustment number ${i} with a long description`, amount_nanos: UNIT.toString() });
    }
    const whole = await h.request('GET', `/admin/v1/invoices/${draft.id}`);
    const wholeText = await whole.clone().text();
    const invoice = await expectJson<Invoice>(whole);
    const lineCount = invoice.line_items!.length;
    expect(lineCount).toBeGreaterThanOrEqual(41);
    // What finalizing would leave to pay, not 0.
    expect(invoice).toMatchObject({ status: 'Draft', total_nanos: (89n * UNIT).toString(), amount_due_nanos: (89n * UNIT).toString(), amount_due: '89.00' });

    const listed = await h.request('GET', `/admin/v1/invoices?customer_id=${customerId}`);
    const listedText = await listed.clone().text();
    const [summary, ...others] = (await expectPage<Invoice>(listed)).data;
    expect(others).toEqual([]);
    expect(summary).not.toHaveProperty('line_items');
    const { line_items: _lines, ...withoutLines } = invoice;
    expect(summary).toEqual({ ...withoutLines, line_item_count: lineCount });
    // The summary is a small fraction of the whole invoice.
    expect(listedText.length * 5).toBeLessThan(wholeText.length);

    expect(ids((await page<Invoice>(`/admin/v1/invoices?customer_id=${customerId}&currency=EUR`)).data)).toEqual([]);
    expect(ids((await page<Invoice>(`/admin/v1/invoices?customer_id=${customerId}&currency=USD&status=Draft`)).data)).toEqual([draft.id]);
  });

  it('lets a customer token list only its own invoices under /v1, and read only its own', async () => {
    const planId = await makePlan(h.deps.db, { flatNanos: 10n * UNIT });
    const mine = await makeCustomer(h.deps.db);
    const theirs = await makeCustomer(h.deps.db);
    const own = [await bill((await subscribe(mine, planId)).id), await bill((await subscribe(mine, planId)).id)];
    const other = await bill((await subscribe(theirs, planId)).id);

    const listed = await page<Invoice>('/v1/invoices', { customer: mine });
    expect(ids(listed.data)).toEqual([own[1]!.id, own[0]!.id]);
    expect(listed.data.every((invoice) => invoice.customer_id === mine && !('line_items' in invoice))).toBe(true);
    expect(ids((await page<Invoice>('/v1/invoices?limit=1', { customer: mine })).data)).toEqual([own[1]!.id]);

    const notYours = await expectJson<{ error: { code: string } }>(await h.request('GET', `/v1/invoices?customer_id=${theirs}`, { as: { customer: mine } }), 404);
    expect(notYours.error.code).toBe('customer_not_found');
    const hidden = await expectJson<{ error: { code: string } }>(await h.request('GET', `/v1/invoices/${other.id}`, { as: { customer: mine } }), 404);
    expect(hidden.error.code).toBe('invoice_not_found');
    expect((await expectJson<Invoice>(await h.request('GET', `/v1/invoices/${own[0]!.id}`, { as: { customer: mine } }))).line_items!.length).toBeGreaterThan(0);
    // An admin credential lists everyone's.
    expect(ids((await page<Invoice>(`/v1/invoices?customer_id=${theirs}`)).data)).toEqual([other.id]);
  });
});

describe('metadata on plans, subscriptions and invoices', () => {
  it('round-trips on create and update, merged like customers', async () => {
    const plan = await post<{ id: string; metadata: Record<string, string> }>('/admin/v1/catalog/plans', { name: 'Meta', billing_cadence: 'Monthly', metadata: { segment: 'smb' } });
    expect(plan.metadata).toEqual({ segment: 'smb' });
    await post('/admin/v1/catalog/skus', { plan_id: plan.id, name: 'Fee', pricing_model: 'Flat', unit_amount_nanos: (5n * UNIT).toString(), currency: 'USD' });
    expect((await get<{ metadata: Record<string, string> }>(`/admin/v1/catalog/plans/${plan.id}`)).metadata).toEqual({ segment: 'smb' });

    const customerId = await makeCustomer(h.deps.db);
    const subscription = await subscribe(customerId, plan.id, { metadata: { crm: 'opp-1', team: 'a' } });
    expect(subscription.metadata).toEqual({ crm: 'opp-1', team: 'a' });
    const updated = await expectJson<Subscription>(await h.request('PATCH', `/admin/v1/subscriptions/${subscription.id}`, { body: { metadata: { team: null, owner: 'kim' } } }));
    expect(updated.metadata).toEqual({ crm: 'opp-1', owner: 'kim' });
    expect((await get<Subscription>(`/v1/subscriptions/${subscription.id}`)).metadata).toEqual({ crm: 'opp-1', owner: 'kim' });
    expect((await page<Subscription>(`/admin/v1/subscriptions?customer_id=${customerId}`)).data[0]!.metadata).toEqual({ crm: 'opp-1', owner: 'kim' });

    const invoice = await bill(subscription.id);
    expect(invoice.metadata).toEqual({});
    const tagged = await expectJson<Invoice>(await h.request('PATCH', `/admin/v1/invoices/${invoice.id}`, { body: { metadata: { po: 'PO-7' } } }));
    expect(tagged.metadata).toEqual({ po: 'PO-7' });
    expect((await page<Invoice>(`/admin/v1/invoices?customer_id=${customerId}`)).data[0]!.metadata).toEqual({ po: 'PO-7' });
    const audit = await h.deps.db.auditLogEntry.findMany({ where: { entityId: { in: [subscription.id, invoice.id] }, action: { in: ['subscription.updated', 'invoice.updated'] } } });
    expect(audit.map((entry) => [entry.action, entry.after])).toEqual(
      expect.arrayContaining([
        ['subscription.updated', { metadata: { crm: 'opp-1', owner: 'kim' } }],
        ['invoice.updated', { metadata: { po: 'PO-7' } }],
      ]),
    );

    const tooLong = await h.request('PATCH', `/admin/v1/invoices/${invoice.id}`, { body: { metadata: { po: 'x'.repeat(501) } } });
    expect(tooLong.status).toBe(400);
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    expect((await h.request('POST', '/admin/v1/catalog/plans', { body: { name: 'Too many', billing_cadence: 'Monthly', metadata: tooMany } })).status).toBe(400);
    expect((await h.request('PATCH', `/admin/v1/subscriptions/${subscription.id}`, { body: { metadata: { a: 'b' }, status: 'Active' } })).status).toBe(400);
  });
});

describe('consistent shapes', () => {
  it('answers the same customer object from POST, GET and the 360 view', async () => {
    const created = await post<Record<string, unknown>>('/admin/v1/customers', {
      display_name: 'Shape Co',
      email: 'ap@shape.test',
      currency: 'USD',
      account_type: 'Organization',
      metadata: { crm: 'c-1' },
    });
    const view = await get<Record<string, unknown>>(`/admin/v1/customers/${String(created.id)}`);
    expect(view).toMatchObject(created);
    expect(Object.keys(view).filter((key) => !(key in created)).sort()).toEqual(['credit_balances', 'invoices', 'ledger_balances', 'payment_methods', 'recent_audit', 'subscriptions']);
    const listed = await page<Record<string, unknown>>(`/admin/v1/customers?created_gte=${encodeURIComponent(String(created.created_at))}&limit=200`);
    expect(listed.data.find((customer) => customer.id === created.id)).toEqual(created);
  });

  it('dates test-clock objects in clock time: customer, subscription, invoice and credit note', async () => {
    const frozen = '2026-03-01T00:00:00.000Z';
    const clockId = await makeTestClock(h.deps.db, frozen);
    const customer = await post<{ id: string; created_at: string }>('/admin/v1/customers', {
      display_name: 'Clock Co',
      email: 'ap@clock.test',
      currency: 'USD',
      account_type: 'Organization',
      test_clock_id: clockId,
    });
    expect(customer.created_at).toBe(frozen);
    const planId = await makePlan(h.deps.db, { flatNanos: 30n * UNIT });
    const subscription = await subscribe(customer.id, planId);
    expect(subscription.created_at).toBe(frozen);
    const draft = await bill(subscription.id);
    expect(draft.created_at).toBe(frozen);
    const open = await expectJson<Invoice>(await h.request('POST', `/admin/v1/invoices/${draft.id}/finalize`));
    const note = await post<{ id: string; created_at: string }>(`/admin/v1/invoices/${open.id}/credit-notes`, { amount_nanos: UNIT.toString(), reason: 'other' });
    expect(note.created_at).toBe(frozen);

    // created_* ranges follow the same clock time.
    const range = `created_gte=2026-03-01T00:00:00Z&created_lt=2026-03-01T00:00:01Z`;
    expect(ids((await page<Invoice>(`/admin/v1/invoices?customer_id=${customer.id}&${range}`)).data)).toEqual([draft.id]);
    expect(ids((await page<Invoice>(`/admin/v1/invoices?customer_id=${customer.id}&created_gte=2026-03-01T00:00:01Z`)).data)).toEqual([]);
    expect(ids((await page<{ id: string }>(`/admin/v1/subscriptions?test_clock_id=${clockId}&${range}`)).data)).toEqual([subscription.id]);
  });
});

describe('reads that were missing', () => {
  it('lists test clocks and credit notes, newest first', async () => {
    const since = new Date(Date.now() - 1).toISOString();
    const clocks = [
      await post<{ id: string; status: string }>('/admin/v1/test-clocks', { name: 'list A', frozen_time: '2026-01-01T00:00:00Z' }),
      await post<{ id: string; status: string }>('/admin/v1/test-clocks', { name: 'list B', frozen_time: '2026-01-01T00:00:00Z' }),
    ];
    const listed = await page<{ id: string; status: string }>(`/admin/v1/test-clocks?created_gte=${encodeURIComponent(since)}`);
    expect(ids(listed.data)).toEqual([clocks[1]!.id, clocks[0]!.id]);
    expect(listed.data.map((clock) => clock.status)).toEqual(['ready', 'ready']);

    const customerId = await makeCustomer(h.deps.db);
    const planId = await makePlan(h.deps.db, { flatNanos: 20n * UNIT });
    const invoice = await bill((await subscribe(customerId, planId)).id);
    await expectJson(await h.request('POST', `/admin/v1/invoices/${invoice.id}/finalize`));
    const notes = [
      await post<{ id: string }>(`/admin/v1/invoices/${invoice.id}/credit-notes`, { amount_nanos: UNIT.toString(), reason: 'other' }),
      await post<{ id: string }>(`/admin/v1/invoices/${invoice.id}/credit-notes`, { amount_nanos: UNIT.toString(), reason: 'duplicate' }),
    ];
    expect(ids((await page<{ id: string }>(`/admin/v1/credit-notes?customer_id=${customerId}`)).data)).toEqual([notes[1]!.id, notes[0]!.id]);
    expect(ids((await page<{ id: string }>(`/admin/v1/credit-notes?invoice_id=${invoice.id}&reason=other`)).data)).toEqual([notes[0]!.id]);
    expect(ids((await page<{ id: string }>(`/admin/v1/credit-notes?customer_id=${customerId}&currency=EUR`)).data)).toEqual([]);
  });

  it('lists payments of every invoice, newest first, by customer, invoice and status', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const other = await makeCustomer(h.deps.db);
    const invoices = [await draftInvoice(customerId), await draftInvoice(customerId), await draftInvoice(other)];
    const pay = (invoiceId: string, customer: string, attempt: number, status: 'Failed' | 'Succeeded') =>
      h.deps.db.payment.create({
        data: {
          id: newId(),
          invoiceId,
          customerId: customer,
          attempt,
          requestKey: `test:${attempt}`,
          source: 'on_demand',
          status,
          amountNanos: (49n * UNIT).toString(),
          amountMinor: 4900n,
          currency: 'USD',
          attemptedAt: new Date(),
        },
      });
    const failed = await pay(invoices[0]!, customerId, 1, 'Failed');
    const succeeded = await pay(invoices[0]!, customerId, 2, 'Succeeded');
    const second = await pay(invoices[1]!, customerId, 1, 'Succeeded');
    const others = await pay(invoices[2]!, other, 1, 'Succeeded');

    const mine = await page<{ id: string; invoice_id: string; customer_id: string; status: string; amount_nanos: string; refunds: unknown[] }>(
      `/admin/v1/payments?customer_id=${customerId}`,
    );
    expect(mine.data.map((p) => [p.id, p.invoice_id, p.status])).toEqual([
      [second.id, invoices[1], 'Succeeded'],
      [succeeded.id, invoices[0], 'Succeeded'],
      [failed.id, invoices[0], 'Failed'],
    ]);
    expect(mine.data[0]).toMatchObject({ customer_id: customerId, amount_nanos: (49n * UNIT).toString(), refunds: [] });
    expect(ids((await page<{ id: string }>(`/admin/v1/payments?invoice_id=${invoices[0]}`)).data)).toEqual([succeeded.id, failed.id]);
    expect(ids((await page<{ id: string }>(`/admin/v1/payments?customer_id=${customerId}&status=Failed`)).data)).toEqual([failed.id]);
    expect(ids((await page<{ id: string }>(`/admin/v1/payments?customer_id=${other}`)).data)).toEqual([others.id]);

    const first = await h.request('GET', `/admin/v1/payments?customer_id=${customerId}&limit=2`);
    expect(first.headers.get('x-has-more')).toBe('true');
    expect(ids(await expectJson<{ id: string }[]>(first))).toEqual([second.id, succeeded.id]);
    const rest = await page<{ id: string }>(`/admin/v1/payments?customer_id=${customerId}&limit=2&starting_after=${first.headers.get('x-next-cursor')}`);
    expect(ids(rest.data)).toEqual([failed.id]);
    expect(rest.has_more).toBe(false);

    for (const query of ['status=Paid', 'customer_id=nope', 'payment_id=x']) {
      expect((await expectJson<{ error: { code: string } }>(await h.request('GET', `/admin/v1/payments?${query}`), 400)).error.code, query).toBe('validation_failed');
    }
  });

  it("lists a customer's raw usage events newest first, to find a misspelled event_type", async () => {
    const customerId = await makeCustomer(h.deps.db);
    const other = await makeCustomer(h.deps.db);
    const run = randomUUID().slice(0, 8);
    const send = async (id: string, eventType: string, timestamp: string, customer = customerId) =>
      expectJson(await h.request('POST', '/v1/events', { body: { id: `${run}-${id}`, event_type: eventType, customer_id: customer, timestamp, properties: { n: 1 } } }));
    await send('1', 'api_calls', '2026-01-10T00:00:00Z');
    await send('2', 'api_cals', '2026-01-11T00:00:00Z');
    await send('3', 'api_calls', '2026-01-12T00:00:00Z');
    await send('4', 'api_cals', '2026-01-12T00:00:00Z', other);

    type Stored = { id: string; event_type: string; customer_id: string; timestamp: string; properties: Record<string, unknown>; late: boolean; received_at: string };
    const path = `/admin/v1/customers/${customerId}/usage-events`;
    const all = await page<Stored>(path);
    expect(ids(all.data)).toEqual([`${run}-3`, `${run}-2`, `${run}-1`]);
    expect(all.data[1]).toMatchObject({ event_type: 'api_cals', customer_id: customerId, timestamp: '2026-01-11T00:00:00.000Z', properties: { n: 1 }, late: false });

    expect(ids((await page<Stored>(`${path}?event_type=api_cals`)).data)).toEqual([`${run}-2`]);
    expect(ids((await page<Stored>(`${path}?timestamp_gte=2026-01-11T00:00:00Z&timestamp_lt=2026-01-12T00:00:00Z`)).data)).toEqual([`${run}-2`]);
    const first = await page<Stored>(`${path}?limit=2`);
    expect(first).toMatchObject({ has_more: true, next_cursor: `${run}-2` });
    expect(ids((await page<Stored>(`${path}?limit=2&starting_after=${first.next_cursor}`)).data)).toEqual([`${run}-1`]);

    // Another customer's event is no cursor here; an unknown customer is a 404.
    expect((await h.request('GET', `${path}?starting_after=${run}-4`)).status).toBe(400);
    expect((await expectJson<{ error: { code: string } }>(await h.request('GET', `/admin/v1/customers/${randomUUID()}/usage-events`), 404)).error.code).toBe('customer_not_found');
  });
});
