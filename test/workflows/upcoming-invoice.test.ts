/**
 * The upcoming invoice and the invoice explanation (issue 28, points 1 and 4), on a test clock: a
 * month with a flat fee, per-unit and graduated usage, a contract discount and a credit wallet.
 * The preview writes nothing and touches no workflow; the close at the period end then produces
 * exactly its lines and totals; and the explanation of that invoice traces every amount back to the
 * meter, the events, the tiers and the adjustments, summing to the invoice.
 */
import { expect, it } from 'vitest';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { toDecimal } from '../../src/db/money.js';
import { newId } from '../../src/ids.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { advanceClock, sendUsage } from '../support/clock-usage.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { expectJson, terminatedAfterAll, useHarness } from '../support/harness.js';
import { invoicesOf } from '../support/invoices.js';

const h = useHarness();
const cleanup = terminatedAfterAll(h);

const units = (n: bigint) => (n * UNIT).toString();

interface Line {
  id: string;
  kind: string;
  description: string;
  sku_id: string | null;
  plan_id: string | null;
  subscription_id: string | null;
  quantity: string;
  unit_amount_nanos: string | null;
  amount_nanos: string;
  amount: string;
  is_tax: boolean;
  period_start: string | null;
  period_end: string | null;
  detail: unknown;
}
interface Invoice {
  id: string;
  status: string;
  period_start: string | null;
  subtotal_nanos: string;
  tax_nanos: string;
  credits_applied_nanos: string;
  total_nanos: string;
  wallet_applied_nanos: string;
  customer_balance_applied_nanos: string;
  spend_cap_withheld_nanos: string;
  amount_due_nanos: string;
  line_items: Line[];
}
interface Upcoming {
  subscription_id: string;
  period_start: string;
  period_end: string;
  as_of: string;
  draft_invoice_id: string | null;
  invoice: Invoice | null;
}

/** What an invoice is, leaving out what only exists once it is stored and numbered. */
const amountsOf = (invoice: Invoice) => ({
  totals: {
    subtotal_nanos: invoice.subtotal_nanos,
    tax_nanos: invoice.tax_nanos,
    credits_applied_nanos: invoice.credits_applied_nanos,
    total_nanos: invoice.total_nanos,
    wallet_applied_nanos: invoice.wallet_applied_nanos,
    customer_balance_applied_nanos: invoice.customer_balance_applied_nanos,
    spend_cap_withheld_nanos: invoice.spend_cap_withheld_nanos,
    amount_due_nanos: invoice.amount_due_nanos,
  },
  lines: invoice.line_items
    .map(({ id: _id, ...line }) => line)
    .sort((a, b) => (a.description < b.description ? -1 : a.description > b.description ? 1 : 0)),
});

/** Rows of everything a close or a finalization writes (the customer's, and the outbox's), and its wallet as it stands. */
async function rowCounts(customerId: string): Promise<Record<string, unknown>> {
  const db = h.deps.db;
  return {
    invoices: await db.invoice.count({ where: { customerId } }),
    invoice_lines: await db.invoiceLineItem.count({ where: { invoice: { customerId } } }),
    audit_log: await db.auditLogEntry.count({ where: { customerId } }),
    outbox: await db.outboxEvent.count(),
    period_closes: await db.subscriptionPeriodClose.count(),
    journals: await db.ledgerJournal.count({ where: { customerId } }),
    wallet_transactions: await db.walletTransaction.count({ where: { wallet: { customerId } } }),
    wallet: await expectJson(await h.request('GET', `/admin/v1/customers/${customerId}/wallets/USD`)),
    counters: await db.documentCounter.findMany({ orderBy: { name: 'asc' } }),
  };
}

it('previews the period close without writing anything, then the close produces exactly it, and its explanation sums to it', async () => {
  const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
  const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
  const otherCustomerId = await makeCustomer(h.deps.db, { testClockId: clockId });
  // 49.00 a month, 0.01 per API call, and storage graduated: the first 100 GB at 0.50, the rest at 0.20.
  const planId = await makePlan(h.deps.db);
  await h.deps.db.sku.create({
    data: {
      id: newId(),
      planId,
      name: 'Storage',
      pricingModel: 'Graduated',
      unitAmountNanos: toDecimal(0n),
      meterEventType: 'storage_gb',
      currency: 'USD',
      tiers: [
        { up_to: '100', unit_amount_nanos: (UNIT / 2n).toString() },
        { up_to: null, unit_amount_nanos: (UNIT / 5n).toString() },
      ],
    },
  });
  const subscription = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
  cleanup.push(subscriptionWorkflowId(subscription.id));
  // 10% off everything under the customer's contract, and 20.00 on its credit wallet.
  const contract = await expectJson<{ id: string }>(
    await h.request('POST', '/admin/v1/contracts', {
      body: {
        customer_id: customerId,
        name: 'Ten percent',
        start_date: '2026-01-01',
        end_date: '2027-01-01',
        discount_bps: 1000,
        terms: [{ phase: 1, start_date: '2026-01-01', end_date: '2027-01-01', committed_amount_nanos: '0', description: 'only' }],
      },
    }),
    201,
  );
  await expectJson(await h.request('POST', `/admin/v1/contracts/${contract.id}/subscriptions`, { body: { subscription_id: subscription.id, adoption_type: 'PLG' } }), 201);
  await expectJson(await h.request('POST', `/admin/v1/customers/${customerId}/wallets/USD/grants`, { body: { amount_nanos: units(20n) } }), 201);

  await advanceClock(h, clockId, '2026-01-15T00:00:00.000Z');
  await sendUsage(h, customerId, subscription.id, 1500, '2026-01-10T00:00:00.000Z');
  await sendUsage(h, customerId, subscription.id, 1000, '2026-01-14T12:00:00.000Z');
  await sendUsage(h, customerId, subscription.id, 150, '2026-01-12T00:00:00.000Z', 'storage_gb');

  const path = `/v1/subscriptions/${subscription.id}/upcoming-invoice`;
  const workflow = h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscription.id));
  const historyBefore = (await workflow.describe()).historyLength;
  const before = await rowCounts(customerId);
  const upcoming = await expectJson<Upcoming>(await h.request('GET', path, { as: { customer: customerId } }));
  // An admin credential reads the same; another customer's token finds no such subscription.
  const asAdmin = await expectJson<Upcoming>(await h.request('GET', path));
  await expectJson(await h.request('GET', path, { as: { customer: otherCustomerId } }), 404);
  expect(await rowCounts(customerId)).toEqual(before);
  expect((await workflow.describe()).historyLength).toBe(historyBefore);
  expect(amountsOf(asAdmin.invoice!)).toEqual(amountsOf(upcoming.invoice!));

  expect(upcoming).toMatchObject({
    subscription_id: subscription.id,
    period_start: '2026-01-01T00:00:00.000Z',
    period_end: '2026-02-01T00:00:00.000Z',
    as_of: '2026-01-15T00:00:00.000Z',
    draft_invoice_id: null,
  });
  // 49.00 + 2,500 × 0.01 + (100 × 0.50 + 50 × 0.20) = 134.00, 10% off = 120.60; the wallet's 20.00 leaves 100.60.
  const invoice = upcoming.invoice!;
  expect(invoice).toMatchObject({ status: 'Draft', total_nanos: ((12060n * UNIT) / 100n).toString(), wallet_applied_nanos: units(20n), amount_due_nanos: ((10060n * UNIT) / 100n).toString() });
  const storage = invoice.line_items.find((line) => line.description.endsWith('Storage'))!;
  expect(storage).toMatchObject({ quantity: '150', amount_nanos: units(54n) });
  expect((storage.detail as { tiers: { quantity: string; amount_nanos: string }[] }).tiers).toMatchObject([
    { quantity: '100', amount_nanos: units(50n) },
    { quantity: '50', amount_nanos: units(10n) },
  ]);
  expect(await h.deps.db.invoice.count({ where: { id: invoice.id } })).toBe(0);

  // Past the period end and its grace: the close bills January and finalizes it.
  await advanceClock(h, clockId, '2026-02-01T01:00:01.000Z');
  const january = (await invoicesOf<Invoice>(h, `customer_id=${customerId}`)).find((i) => i.period_start === '2026-01-01T00:00:00.000Z')!;
  expect(january.status).toBe('Open');
  expect(amountsOf(january)).toEqual(amountsOf(invoice));

  // The explanation traces every amount of the finalized invoice and sums to it.
  const explain = await expectJson<Explanation>(await h.request('GET', `/v1/invoices/${january.id}/explain`, { as: { customer: customerId } }));
  await expectJson(await h.request('GET', `/v1/invoices/${january.id}/explain`, { as: { customer: otherCustomerId } }), 404);
  expect(explain.invoice_id).toBe(january.id);
  expect(explain.lines.map((line) => line.line_id).sort()).toEqual(january.line_items.map((line) => line.id).sort());
  expect(explain.lines.reduce((sum, line) => sum + BigInt(line.amount_nanos), 0n).toString()).toBe(january.total_nanos);
  expect(explain.totals).toMatchObject({ total_nanos: january.total_nanos, lines_sum_nanos: january.total_nanos, amount_due_nanos: january.amount_due_nanos });
  const calls = explain.lines.find((line) => line.description.endsWith('API calls'))!;
  expect(calls.usage).toEqual([
    expect.objectContaining({
      meter: expect.objectContaining({ meter_id: null, event_type: 'api_calls', aggregation: 'Sum', filters: [] }),
      window: { from: '2026-01-01T00:00:00.000Z', to: '2026-02-01T00:00:00.000Z' },
      event_count: 2500,
      first_event: expect.objectContaining({ occurred_at: '2026-01-10T00:00:00.000Z' }),
      last_event: expect.objectContaining({ occurred_at: '2026-01-14T12:00:00.000Z' }),
      aggregate: '2500',
    }),
  ]);
  expect(calls.adjustments).toEqual([expect.objectContaining({ kind: 'ContractDiscount', basis_points: 1000, amount_nanos: (-25n * UNIT / 10n).toString() })]);
  const storageExplained = explain.lines.find((line) => line.description.endsWith('Storage'))!;
  expect(storageExplained.tiers.map((tier) => tier.amount_nanos)).toEqual([units(50n), units(10n)]);
  expect(storageExplained.steps.at(-1)).toMatchObject({ amount_nanos: units(54n) });
  expect(explain.rounding.length).toBeGreaterThan(0);

  // The hosted invoice page links a readable version.
  const hosted = new URL((await expectJson<{ hosted_invoice_url: string }>(await h.request('GET', `/admin/v1/invoices/${january.id}`))).hosted_invoice_url).pathname;
  const page = await (await h.request('GET', hosted, { as: 'none' })).text();
  expect(page).toContain('How was this calculated?');
  const explained = await h.request('GET', `${hosted}/explain`, { as: 'none' });
  expect(explained.status).toBe(200);
  const readable = await explained.text();
  expect(readable).toContain('2500 events');
  expect(readable).toContain('Tier 2: 50 units above 100');
});

interface Explanation {
  invoice_id: string;
  totals: Record<string, string>;
  lines: {
    line_id: string;
    description: string;
    amount_nanos: string;
    usage: unknown[];
    tiers: { amount_nanos: string }[];
    adjustments: unknown[];
    steps: { amount_nanos: string }[];
  }[];
  rounding: unknown[];
}

it('has no upcoming invoice during a trial, and an unknown subscription is 404', async () => {
  const clockId = await makeTestClock(h.deps.db, '2026-03-01T00:00:00.000Z');
  const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
  const planId = await makePlan(h.deps.db, { trialDays: 14 });
  const subscription = await expectJson<{ id: string; status: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
  cleanup.push(subscriptionWorkflowId(subscription.id));
  expect(subscription.status).toBe('Trialing');
  const upcoming = await expectJson<Upcoming>(await h.request('GET', `/v1/subscriptions/${subscription.id}/upcoming-invoice`, { as: { customer: customerId } }));
  expect(upcoming).toMatchObject({ subscription_id: subscription.id, as_of: '2026-03-01T00:00:00.000Z', draft_invoice_id: null, invoice: null });
  const unknown = await expectJson<{ error: { code: string } }>(await h.request('GET', `/v1/subscriptions/${newId()}/upcoming-invoice`), 404);
  expect(unknown.error.code).toBe('subscription_not_found');
});
