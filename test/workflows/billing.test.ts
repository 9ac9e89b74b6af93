/**
 * Invoicing end to end through the API, PostgreSQL and the Temporal server: subscriptions on test
 * clocks are billed period after period by their workflows; invoices move through their own.
 */
import { describe, expect, it } from 'vitest';
import { invoiceWorkflowId } from '../../workflows/invoice/messages.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { testClockAdvanceWorkflowId } from '../../workflows/test-clock-advance/messages.js';
import { advanceClock, sendUsage, waitForClockReady, type TestClockBody } from '../support/clock-usage.js';
import { eventually, outboxOf } from '../support/payments.js';
import { captureHistory } from '../support/histories.js';
import { activityAttempts } from '../support/faults.js';
import { makeCustomer, makePlan, makeTestClock, type CustomerOptions, type PlanOptions } from '../support/fixtures.js';
import { expectJson, expectPage, useHarness } from '../support/harness.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { invoicesOf as readInvoices } from '../support/invoices.js';

const h = useHarness();

interface Line {
  kind: string;
  description: string;
  quantity: string;
  amount_nanos: string;
  sku_id: string | null;
  customer_id: string | null;
  customer_name: string | null;
}
interface Invoice {
  id: string;
  status: string;
  invoice_number: string | null;
  customer_id: string;
  currency: string;
  total_nanos: string;
  total: string;
  billing_reason: string;
  period_start: string;
  finalized_at: string | null;
  subscription_id: string | null;
  line_items: Line[];
}


const advance = (clockId: string, to: string) => advanceClock(h, clockId, to);
const invoicesOf = async (subscriptionId: string) =>
  readInvoices<Invoice>(h, `subscription_id=${subscriptionId}`);
const invoiceNumber = (invoice: Invoice) => Number(invoice.invoice_number!.slice(4));


async function subscribeOnClock(start: string, plan: PlanOptions = {}, customer: CustomerOptions = {}, extra: Record<string, unknown> = {}) {
  const clockId = await makeTestClock(h.deps.db, start);
  const customerId = await makeCustomer(h.deps.db, { testClockId: clockId, ...customer });
  const planId = await makePlan(h.deps.db, plan);
  const subscription = await expectJson<{ id: string; status: string }>(
    await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: plan.currency ?? 'USD', ...extra } }),
    201,
  );
  return { clockId, customerId, planId, subscriptionId: subscription.id };
}

describe('billing periods on a test clock', () => {
  it('bills three months of usage into three invoices with consecutive numbers, takes payment, issues a credit note and prorates a plan change', async () => {
    const { clockId, customerId, subscriptionId } = await subscribeOnClock('2026-01-01T00:00:00.000Z');

    const usage = [
      { calls: 1000, at: '2026-01-15T12:00:00.000Z', close: '2026-02-01T00:00:00.000Z', total: 59n * UNIT },
      { calls: 2500, at: '2026-02-10T12:00:00.000Z', close: '2026-03-01T00:00:00.000Z', total: 74n * UNIT },
      { calls: 333, at: '2026-03-31T23:00:00.000Z', close: '2026-04-01T00:00:00.000Z', total: 5233n * (UNIT / 100n) },
    ];
    for (const period of usage) {
      await advance(clockId, period.at);
      await sendUsage(h, customerId, subscriptionId, period.calls, period.at);
      await advance(clockId, period.close);
    }
    // Each period's invoice stays a Draft for the grace period (an hour) after its period ends.
    expect((await invoicesOf(subscriptionId)).map((i) => i.status)).toEqual(['Open', 'Open', 'Draft']);
    await advance(clockId, '2026-04-01T01:00:00.000Z');

    const invoices = await invoicesOf(subscriptionId);
    expect(invoices.map((i) => [i.status, i.total_nanos, i.billing_reason])).toEqual(
      usage.map((p) => ['Open', p.total.toString(), 'subscription_cycle']),
    );
    expect(invoices.map((i) => i.total)).toEqual(['59.00', '74.00', '52.33']);
    expect(invoices.map((i) => i.finalized_at)).toEqual(['2026-02-01T01:00:00.000Z', '2026-03-01T01:00:00.000Z', '2026-04-01T01:00:00.000Z']);
    const numbers = invoices.map(invoiceNumber);
    expect(numbers).toEqual([numbers[0], numbers[0]! + 1, numbers[0]! + 2]);
    expect(invoices[1]!.line_items.map((l) => [l.kind, l.quantity, l.amount_nanos])).toEqual([
      ['fee', '1', (49n * UNIT).toString()],
      ['usage', '2500', (25n * UNIT).toString()],
    ]);

    for (const invoice of invoices) {
      const paid = await expectJson<Invoice>(await h.request('POST', `/admin/v1/invoices/${invoice.id}/pay`, { body: { actor_id: 'ops-1', actor_name: 'Ops' } }));
      expect(paid.status).toBe('Paid');
    }
    const subscription = await h.deps.db.subscription.findUniqueOrThrow({ where: { id: subscriptionId } });
    expect(subscription.chargedThroughDate?.toISOString()).toBe('2026-04-01T00:00:00.000Z');
    expect(subscription.periodStart.toISOString()).toBe('2026-04-01T00:00:00.000Z');

    const creditNote = await expectJson<{ id: string; number: string; amount_nanos: string; created_at: string }>(
      await h.request('POST', `/admin/v1/invoices/${invoices[2]!.id}/credit-notes`, { body: { amount_nanos: (233n * (UNIT / 100n)).toString(), reason: 'product_unsatisfactory' } }),
      201,
    );
    expect(creditNote).toMatchObject({ number: expect.stringMatching(/^CN-\d{6}$/), amount_nanos: (233n * (UNIT / 100n)).toString(), created_at: '2026-04-01T01:00:00.000Z' });
    const credited = await expectJson<Invoice & { credited_nanos: string }>(await h.request('GET', `/admin/v1/invoices/${invoices[2]!.id}`));
    expect(credited).toMatchObject({ status: 'Paid', total: '52.33', credited_nanos: (233n * (UNIT / 100n)).toString() });
    const issued = await h.deps.db.outboxEvent.findMany({ where: { aggregateId: invoices[2]!.id, type: 'credit_note.issued' } });
    expect(issued.map((e) => e.payload)).toMatchObject([{ data: { credit_note_id: creditNote.id, amount_nanos: creditNote.amount_nanos } }]);

    // April: the 49.00 fee is invoiced on day 1, then on April 11 the customer moves to a 99.00 plan:
    // 10 of 30 days were used on the old plan, 20 remain on the new one.
    await advance(clockId, '2026-04-01T06:00:00.000Z');
    const april = await expectJson<Invoice>(await h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/bill`), 201);
    expect(april.total_nanos).toBe((49n * UNIT).toString());
    await expectJson(await h.request('POST', `/admin/v1/invoices/${april.id}/finalize`));
    await advance(clockId, '2026-04-11T00:00:00.000Z');
    const premiumPlan = await makePlan(h.deps.db, { flatNanos: 99n * UNIT });
    const change = await expectJson<{ subscription: { plan_id: string }; invoice: Invoice }>(
      await h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/change-plan`, { body: { plan_id: premiumPlan } }),
    );
    expect(change.subscription.plan_id).toBe(premiumPlan);
    const fees = change.invoice.line_items.filter((l) => l.kind === 'fee').map((l) => l.amount_nanos);
    expect(fees).toEqual(['-32666666666667', (66n * UNIT).toString()]);
    expect(change.invoice).toMatchObject({ status: 'Draft', billing_reason: 'plan_change', total_nanos: '33333333333333', total: '33.33' });
    const finalized = await expectJson<Invoice>(await h.request('POST', `/admin/v1/invoices/${change.invoice.id}/finalize`));
    expect(invoiceNumber(finalized)).toBe(numbers[0]! + 4);

    await captureHistory(h.deps.temporal.client.workflow.getHandle(invoiceWorkflowId(invoices[0]!.id)), 'period-invoice-finalized-paid');
    await advance(clockId, '2026-05-01T00:00:00.000Z');
    const subscriptionHandle = h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId));
    await expectJson(await h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/cancel`));
    await advance(clockId, '2026-06-01T01:00:00.000Z');
    await subscriptionHandle.result();
    const may = (await invoicesOf(subscriptionId)).find((i) => i.period_start === '2026-05-01T00:00:00.000Z');
    expect(may).toMatchObject({ status: 'Open', billing_reason: 'subscription_final', total: '99.00' });
    await captureHistory(subscriptionHandle, 'four-periods-billed-plan-change-cancelled');

    const events = await h.deps.db.outboxEvent.findMany({ where: { aggregateId: { in: invoices.map((i) => i.id) } }, orderBy: { id: 'asc' } });
    expect(events.filter((e) => e.type === 'invoice.finalized')).toHaveLength(3);
    expect(events.filter((e) => e.type === 'invoice.paid')).toHaveLength(3);
    expect(events.find((e) => e.type === 'invoice.finalized')!.payload).toMatchObject({
      data: { invoice_id: invoices[0]!.id, customer_id: customerId, invoice_number: invoices[0]!.invoice_number, total_nanos: (59n * UNIT).toString(), currency: 'USD' },
    });
  });

  it('never creates two invoices for one period, and refuses invalid invoice moves', async () => {
    const { clockId, subscriptionId } = await subscribeOnClock('2026-07-01T00:00:00.000Z');
    await advance(clockId, '2026-07-05T00:00:00.000Z');
    const first = await expectJson<Invoice>(await h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/bill`), 201);
    const second = await expectJson<Invoice>(await h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/bill`), 200);
    expect(second.id).toBe(first.id);
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/bill`)));
    expect(concurrent.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await h.deps.db.invoice.count({ where: { subscriptionId } })).toBe(1);

    const pay = (id: string) => h.request('POST', `/admin/v1/invoices/${id}/pay`, { body: { actor_id: 'a', actor_name: 'A' } });
    const expectInvalid = async (res: Response, from: string) => {
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ error: { code: 'invalid_state_transition', details: { from } } });
    };
    await expectInvalid(await pay(first.id), 'Draft');
    await expectInvalid(await h.request('POST', `/admin/v1/invoices/${first.id}/void`), 'Draft');
    await expectJson(await h.request('POST', `/admin/v1/invoices/${first.id}/finalize`));
    await expectInvalid(await h.request('POST', `/admin/v1/invoices/${first.id}/finalize`), 'Open');
    await expectJson(await pay(first.id));
    await expectInvalid(await h.request('POST', `/admin/v1/invoices/${first.id}/void`), 'Paid');
    await expect(
      h.deps.db.$executeRaw`UPDATE invoices SET total_nanos = 1 WHERE id = ${first.id}::uuid`,
    ).rejects.toThrow(/immutable/);
    await expect(h.deps.db.$executeRaw`DELETE FROM invoice_line_items WHERE invoice_id = ${first.id}::uuid`).rejects.toThrow(/immutable/);

    // The period's remaining usage goes on a new Draft at period end; nothing is billed twice.
    await advance(clockId, '2026-08-01T00:00:00.000Z');
    const all = await invoicesOf(subscriptionId);
    expect(all).toHaveLength(1);
    const voidable = await expectJson<Invoice>(await h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/bill`), 201);
    await expectJson(await h.request('POST', `/admin/v1/invoices/${voidable.id}/finalize`));
    expect((await expectJson<Invoice>(await h.request('POST', `/admin/v1/invoices/${voidable.id}/void`, { body: { reason: 'duplicate' } }))).status).toBe('Void');
    await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId)).terminate('test done');
  });

  it('finalizes the Draft when accrued charges reach the progressive threshold and bills the rest at period end', async () => {
    const { clockId, customerId, subscriptionId } = await subscribeOnClock(
      '2026-01-01T00:00:00.000Z',
      { flatNanos: null },
      {},
      { progressive_threshold_nanos: (5n * UNIT).toString() },
    );
    await advance(clockId, '2026-01-02T10:00:00.000Z');
    await sendUsage(h, customerId, subscriptionId, 600, '2026-01-02T10:00:00.000Z');
    await advance(clockId, '2026-01-04T00:00:00.000Z');
    let invoices = await invoicesOf(subscriptionId);
    expect(invoices.map((i) => [i.status, i.billing_reason, i.total_nanos])).toEqual([['Open', 'threshold', (6n * UNIT).toString()]]);

    await advance(clockId, '2026-01-20T10:00:00.000Z');
    await sendUsage(h, customerId, subscriptionId, 100, '2026-01-20T10:00:00.000Z');
    await advance(clockId, '2026-02-01T01:00:00.000Z');
    invoices = (await invoicesOf(subscriptionId)).filter((i) => i.period_start === '2026-01-01T00:00:00.000Z');
    expect(invoices.map((i) => [i.status, i.total_nanos])).toEqual([
      ['Open', (6n * UNIT).toString()],
      ['Open', (1n * UNIT).toString()],
    ]);
    expect(invoices[1]!.line_items.map((l) => l.quantity)).toEqual(['100']);
    const handle = h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId));
    await captureHistory(handle, 'progressive-threshold-then-period-close');
    await handle.terminate('test done');
  });
});

const subscribe = async (customerId: string, planId: string, currency = 'USD') =>
  (await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency } }), 201)).id;
const stop = (...subscriptionIds: string[]) =>
  Promise.all(subscriptionIds.map((id) => h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(id)).terminate('test done')));

describe('who receives the invoice', () => {
  it("consolidates a parent's and its consolidating subsidiaries' charges on one invoice per currency, naming the subsidiary on its lines", async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const parentId = await makeCustomer(h.deps.db, { testClockId: clockId });
    const childId = await makeCustomer(h.deps.db, { testClockId: clockId, parentId, consolidateToParent: true });
    const grandchildId = await makeCustomer(h.deps.db, { testClockId: clockId, parentId: childId, consolidateToParent: true });
    const standaloneChildId = await makeCustomer(h.deps.db, { testClockId: clockId, parentId });
    const usd = await makePlan(h.deps.db);
    const eur = await makePlan(h.deps.db, { currency: 'EUR', flatNanos: 20n * UNIT });
    const subs = [
      await subscribe(parentId, usd),
      await subscribe(childId, usd),
      await subscribe(grandchildId, usd),
      await subscribe(childId, eur, 'EUR'),
      await subscribe(standaloneChildId, usd),
    ];
    await advance(clockId, '2026-01-10T00:00:00.000Z');
    await sendUsage(h, childId, subs[1]!, 200, '2026-01-10T00:00:00.000Z');
    await advance(clockId, '2026-02-01T01:00:00.000Z');

    const toParent = (await readInvoices<Invoice>(h, `customer_id=${parentId}`));
    expect(toParent.map((i) => [i.currency, i.status, i.total]).sort()).toEqual([
      ['EUR', 'Open', '20.00'],
      ['USD', 'Open', '149.00'],
    ]);
    const usdInvoice = toParent.find((i) => i.currency === 'USD')!;
    // One invoice for three subscriptions: it belongs to none of them alone.
    expect(usdInvoice.subscription_id).toBeNull();
    const byCustomer = (customerId: string | null) => usdInvoice.line_items.filter((l) => l.customer_id === customerId).map((l) => [l.kind, l.amount_nanos]);
    expect(byCustomer(null)).toEqual([['fee', (49n * UNIT).toString()], ['usage', '0']]);
    expect(byCustomer(childId)).toEqual([['fee', (49n * UNIT).toString()], ['usage', (2n * UNIT).toString()]]);
    expect(byCustomer(grandchildId)).toEqual([['fee', (49n * UNIT).toString()], ['usage', '0']]);
    expect(usdInvoice.line_items.filter((l) => l.customer_id === childId).every((l) => l.customer_name?.startsWith('Customer '))).toBe(true);
    // Listing by subscription finds the consolidated invoice through its lines.
    expect((await invoicesOf(subs[2]!)).map((i) => i.id)).toEqual([usdInvoice.id]);
    // A standalone subsidiary gets its own invoice.
    const own = (await readInvoices<Invoice>(h, `customer_id=${standaloneChildId}`));
    expect(own.map((i) => [i.subscription_id, i.total])).toEqual([[subs[4], '49.00']]);
    await stop(...subs);
  });

  it('sends the invoice to bill_to', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const payerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId, billToId: payerId });
    const sub = await subscribe(customerId, await makePlan(h.deps.db));
    await advance(clockId, '2026-02-01T01:00:00.000Z');
    const invoices = (await readInvoices<Invoice>(h, `customer_id=${payerId}`));
    expect(invoices.map((i) => [i.status, i.subscription_id, i.total])).toEqual([['Open', sub, '49.00']]);
    expect(invoices[0]!.line_items.every((l) => l.customer_id === customerId)).toBe(true);
    expect((await readInvoices<Invoice>(h, `customer_id=${customerId}`))).toEqual([]);
    await stop(sub);
  });
});

describe('grace period, late usage and timestamps', () => {
  /** The invoice's line ids (a rewrite gives new ones) and the audit actions recorded on it, oldest first. */
  async function linesAndAudit(invoiceId: string) {
    const invoice = await expectJson<{ line_items: { id: string; kind: string }[] }>(await h.request('GET', `/admin/v1/invoices/${invoiceId}`));
    const audit = await expectPage<{ action: string }>(await h.request('GET', `/admin/v1/audit-log?entity_id=${invoiceId}&limit=100`));
    return {
      lineIds: invoice.line_items.filter((l) => l.kind !== 'tax').map((l) => l.id).sort(),
      actions: audit.data.map((e) => e.action).reverse(),
    };
  }

  /** 100 calls in January, then the clock just past the period end (00:30), inside the grace period (1 h). */
  async function closedJanuaryWithUsage() {
    const { clockId, customerId, subscriptionId } = await subscribeOnClock('2026-01-01T00:00:00.000Z');
    await advance(clockId, '2026-01-20T00:00:00.000Z');
    await sendUsage(h, customerId, subscriptionId, 100, '2026-01-20T00:00:00.000Z');
    await advance(clockId, '2026-02-01T00:30:00.000Z');
    const [draft] = await invoicesOf(subscriptionId);
    const closed = await linesAndAudit(draft!.id);
    expect(closed.actions).toEqual(['invoice.created']);
    return { clockId, customerId, subscriptionId, draft: draft!, closed };
  }

  it('bills usage that arrives late but within the grace period on the closed period\'s invoice', async () => {
    const { clockId, customerId, subscriptionId, draft, closed } = await closedJanuaryWithUsage();
    // Sent after the period closed, stamped inside it.
    await sendUsage(h, customerId, subscriptionId, 300, '2026-01-31T23:00:00.000Z');
    await advance(clockId, '2026-02-01T01:00:00.000Z');
    const [invoice] = await invoicesOf(subscriptionId);
    expect(invoice).toMatchObject({ id: draft.id, status: 'Open', total: '53.00' });
    // The late usage was billed at grace end: the usage line rewritten, audited as invoice.billed.
    const finalized = await linesAndAudit(draft.id);
    expect(finalized.lineIds).not.toEqual(closed.lineIds);
    expect(finalized.actions).toEqual(['invoice.created', 'invoice.billed', 'invoice.finalized']);
    await stop(subscriptionId);
  });

  it('finalizes the Draft as it is at grace end when no usage arrived late: its lines are not rewritten and no refresh is audited', async () => {
    const { clockId, subscriptionId, draft, closed } = await closedJanuaryWithUsage();
    await advance(clockId, '2026-02-01T01:00:00.000Z');
    const [invoice] = await invoicesOf(subscriptionId);
    expect(invoice).toMatchObject({ id: draft.id, status: 'Open', total: '50.00' });
    const finalized = await linesAndAudit(draft.id);
    expect(finalized.lineIds).toEqual(closed.lineIds);
    expect(finalized.actions).toEqual(['invoice.created', 'invoice.finalized']);
    await stop(subscriptionId);
  });

  it('finalizes a lone subscription\'s Draft with its period close when the advance passes the grace end; one that shares its Draft waits for the grace end', async () => {
    // Alone: its customer pays for itself, has no other subscription, no card (nothing charged).
    const alone = await subscribeOnClock('2026-01-01T00:00:00.000Z');
    await advance(alone.clockId, '2026-01-20T00:00:00.000Z');
    await sendUsage(h, alone.customerId, alone.subscriptionId, 100, '2026-01-20T00:00:00.000Z');
    // Sharing: two subscriptions of one customer bill into one Draft per period.
    const shared = await subscribeOnClock('2026-01-01T00:00:00.000Z');
    const second = await subscribe(shared.customerId, await makePlan(h.deps.db, { flatNanos: 10n * UNIT }));
    await advance(alone.clockId, '2026-02-01T01:00:00.000Z');
    await advance(shared.clockId, '2026-02-01T01:00:00.000Z');

    const [invoice] = await invoicesOf(alone.subscriptionId);
    expect(invoice).toMatchObject({ status: 'Open', total: '50.00', finalized_at: '2026-02-01T01:00:00.000Z' });
    // One activity for the period: closed, rolled and finalized; the clock never stepped it to the grace end.
    const aloneId = subscriptionWorkflowId(alone.subscriptionId);
    expect(Object.keys(await activityAttempts(h, aloneId))).toEqual(['closeAndRollSubscriptionPeriod']);
    expect(await linesAndAudit(invoice!.id)).toMatchObject({ actions: ['invoice.created', 'invoice.finalized'] });

    const consolidated = await readInvoices<Invoice>(h, `customer_id=${shared.customerId}`);
    expect(consolidated).toHaveLength(1);
    expect(consolidated[0]).toMatchObject({ status: 'Open', total: '59.00', finalized_at: '2026-02-01T01:00:00.000Z' });
    expect(Object.keys(await activityAttempts(h, subscriptionWorkflowId(shared.subscriptionId))).sort()).toEqual(['closeAndRollSubscriptionPeriod', 'finalizePeriodInvoice']);
    // Nothing was due for it at the advance's last step (its next period end is in March): the
    // clock's two advances sent it two updates, the first advance's and the period end's.
    const history = await h.deps.temporal.client.workflow.getHandle(aloneId).fetchHistory();
    const updates = (history.events ?? []).filter((event) => event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === 'advanceTestClock');
    expect(updates).toHaveLength(2);
    // A command sent afterwards carries the clock's time: the cancellation is dated at it, not at the period end.
    const cancelled = await expectJson<{ status: string; cancelled_at: string }>(await h.request('POST', `/admin/v1/subscriptions/${alone.subscriptionId}/cancel`), 200);
    expect(cancelled).toMatchObject({ status: 'Cancelled', cancelled_at: '2026-02-01T01:00:00.000Z' });
    await captureHistory(h.deps.temporal.client.workflow.getHandle(aloneId), 'idle-at-the-last-step-then-cancelled-at-clock-time');
    await stop(alone.subscriptionId, shared.subscriptionId, second);
  });

  it('dates each invoice by its own period when one advance crosses several periods', async () => {
    const { clockId, subscriptionId } = await subscribeOnClock('2026-01-01T00:00:00.000Z');
    await advance(clockId, '2026-05-15T00:00:00.000Z');
    const invoices = await invoicesOf(subscriptionId);
    expect(invoices.map((i) => [i.period_start, i.finalized_at])).toEqual([
      ['2026-01-01T00:00:00.000Z', '2026-02-01T01:00:00.000Z'],
      ['2026-02-01T00:00:00.000Z', '2026-03-01T01:00:00.000Z'],
      ['2026-03-01T00:00:00.000Z', '2026-04-01T01:00:00.000Z'],
      ['2026-04-01T00:00:00.000Z', '2026-05-01T01:00:00.000Z'],
    ]);
    const numbers = invoices.map(invoiceNumber);
    expect(numbers).toEqual([numbers[0], numbers[0]! + 1, numbers[0]! + 2, numbers[0]! + 3]);
    await stop(subscriptionId);
  });
});

describe('plan changes', () => {
  it('turns a downgrade after the fee was invoiced into a credit invoice applied as a credit note', async () => {
    const { clockId, subscriptionId } = await subscribeOnClock('2026-04-01T00:00:00.000Z');
    const april = await expectJson<Invoice>(await h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/bill`), 201);
    await expectJson(await h.request('POST', `/admin/v1/invoices/${april.id}/finalize`));
    await advance(clockId, '2026-04-11T00:00:00.000Z');
    const basic = await makePlan(h.deps.db, { flatNanos: 19n * UNIT });
    const change = await expectJson<{ invoice: Invoice }>(
      await h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/change-plan`, { body: { plan_id: basic } }),
    );
    // 20 of 30 days come back on the old plan (32.67) and 20 days of the new one are charged (12.67).
    expect(change.invoice.line_items.filter((l) => l.kind === 'fee').map((l) => l.amount_nanos)).toEqual(['-32666666666667', '12666666666667']);
    expect(change.invoice.total_nanos).toBe('-20000000000000');
    const credit = await expectJson<Invoice & { amount_due: string }>(await h.request('POST', `/admin/v1/invoices/${change.invoice.id}/finalize`));
    expect(credit).toMatchObject({ status: 'Paid', total: '-20.00', amount_due: '0.00' });
    expect(credit.invoice_number).toMatch(/^INV-\d{6}$/);
    const notes = await expectPage<{ amount_nanos: string; reason: string; source_invoice_id: string }>(
      await h.request('GET', `/admin/v1/invoices/${april.id}/credit-notes`),
    );
    expect(notes.data).toMatchObject([{ amount_nanos: '20000000000000', reason: 'order_change', source_invoice_id: change.invoice.id }]);
    const reread = await expectJson<Invoice & { amount_due: string }>(await h.request('GET', `/admin/v1/invoices/${april.id}`));
    expect(reread).toMatchObject({ status: 'Open', total: '49.00', amount_due: '29.00' });
    // Closing April bills nothing more: the credit and the new plan's days already count as billed.
    await advance(clockId, '2026-05-01T01:00:00.000Z');
    const april30 = (await invoicesOf(subscriptionId)).filter((i) => i.period_start === '2026-04-01T00:00:00.000Z');
    expect(april30.map((i) => i.id).sort()).toEqual([april.id, change.invoice.id].sort());
    await stop(subscriptionId);
  });

  it('answers a refused plan change with the domain error, not a 5xx, and changes nothing', async () => {
    const { subscriptionId, planId } = await subscribeOnClock('2026-04-01T00:00:00.000Z');
    const changeTo = (plan_id: string) => h.request('POST', `/admin/v1/subscriptions/${subscriptionId}/change-plan`, { body: { plan_id } });
    const cases: [string, number, string][] = [
      ['01900000-0000-7000-8000-00000000beef', 404, 'plan_not_found'],
      [planId, 422, 'same_plan'],
      [await makePlan(h.deps.db, { currency: 'EUR' }), 422, 'currency_mismatch'],
    ];
    for (const [plan, status, code] of cases) {
      const res = await changeTo(plan);
      expect(res.status, code).toBe(status);
      expect(await res.json()).toMatchObject({ error: { code } });
    }
    expect((await h.deps.db.subscription.findUniqueOrThrow({ where: { id: subscriptionId } })).planId).toBe(planId);
    expect(await h.deps.db.subscriptionPhase.count({ where: { subscriptionId } })).toBe(1);
    await stop(subscriptionId);
  });
});

describe('test clocks through the API', () => {
  it('creates a clock, attaches a customer, advances, re-drives, refuses going back and a concurrent advance', async () => {
    const clock = await expectJson<{ id: string; status: string; frozen_time: string }>(
      await h.request('POST', '/admin/v1/test-clocks', { body: { name: 'sandbox', frozen_time: '2026-01-01T00:00:00Z' } }),
      201,
    );
    expect(clock).toMatchObject({ status: 'ready', frozen_time: '2026-01-01T00:00:00.000Z' });
    const customer = await expectJson<{ id: string; test_clock_id: string }>(
      await h.request('POST', '/admin/v1/customers', {
        body: { display_name: 'Sandbox Co', email: 'ops@sandbox.test', currency: 'USD', account_type: 'Organization', test_clock_id: clock.id },
      }),
      201,
    );
    expect(customer.test_clock_id).toBe(clock.id);
    const sub = await expectJson<{ id: string; period_start: string; test_clock_id: string }>(
      await h.request('POST', '/v1/subscriptions', { body: { customer_id: customer.id, plan_id: await makePlan(h.deps.db), currency: 'USD' } }),
      201,
    );
    expect(sub).toMatchObject({ period_start: '2026-01-01T00:00:00.000Z', test_clock_id: clock.id });

    // 202 at once: the clock has its new time and is advancing from its old one.
    const accepted = await expectJson<TestClockBody>(
      await h.request('POST', `/admin/v1/test-clocks/${clock.id}/advance`, { body: { frozen_time: '2026-02-01T01:00:00Z' } }),
      202,
    );
    expect(accepted).toMatchObject({
      frozen_time: '2026-02-01T01:00:00.000Z',
      status: 'advancing',
      advance: { simulated_time: '2026-01-01T00:00:00.000Z', subscriptions_done: 0, subscriptions_total: 0, finished_at: null },
    });
    const advanced = await waitForClockReady(h, clock.id);
    expect(advanced).toMatchObject({
      frozen_time: '2026-02-01T01:00:00.000Z',
      status: 'ready',
      advance: { simulated_time: '2026-02-01T01:00:00.000Z', subscriptions_done: 1, subscriptions_total: 1, started_at: accepted.advance!.started_at },
    });
    expect(advanced.advance!.finished_at).not.toBeNull();
    expect((await invoicesOf(sub.id)).map((i) => i.status)).toEqual(['Open']);
    expect(await outboxOf(h, clock.id, ['test_clock.ready'])).toEqual([
      {
        type: 'test_clock.ready',
        data: { test_clock_id: clock.id, frozen_time: '2026-02-01T01:00:00.000Z', status: 'ready', subscriptions_done: 1, subscriptions_total: 1 },
        occurredAt: '2026-02-01T01:00:00.000Z',
      },
    ]);
    // The advance ran as a workflow of its own, visible in the Temporal UI under the clock's id.
    const advanceWorkflow = h.deps.temporal.client.workflow.getHandle(testClockAdvanceWorkflowId(clock.id));
    // The clock is ready once the run's last activity committed; the run completes right after it.
    await advanceWorkflow.result();
    expect(await advanceWorkflow.describe()).toMatchObject({ type: 'testClockAdvanceWorkflow', status: { name: 'COMPLETED' } });
    await captureHistory(advanceWorkflow, 'one-subscription-billed-then-ready');
    // The same time again re-drives the subscriptions and changes nothing.
    expect(await advance(clock.id, '2026-02-01T01:00:00Z')).toMatchObject({ frozen_time: '2026-02-01T01:00:00.000Z', status: 'ready' });
    expect(await invoicesOf(sub.id)).toHaveLength(1);
    const back = await h.request('POST', `/admin/v1/test-clocks/${clock.id}/advance`, { body: { frozen_time: '2026-01-15T00:00:00Z' } });
    expect(back.status).toBe(422);
    expect(await back.json()).toMatchObject({ error: { code: 'test_clock_cannot_go_back' } });

    // The subscription's row is held: the advance waits at the period end, and a second one is refused meanwhile.
    const holder = await h.deps.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM subscriptions WHERE id = $1 FOR UPDATE', [sub.id]);
      await expectJson(await h.request('POST', `/admin/v1/test-clocks/${clock.id}/advance`, { body: { frozen_time: '2026-03-01T00:30:00Z' } }), 202);
      const busy = await h.request('POST', `/admin/v1/test-clocks/${clock.id}/advance`, { body: { frozen_time: '2026-03-02T00:00:00Z' } });
      expect(busy.status).toBe(409);
      expect(await busy.json()).toMatchObject({ error: { code: 'test_clock_advancing' } });
      // The drive has listed the clock's subscription and waits on it.
      await eventually(async () =>
        expect(await expectJson(await h.request('GET', `/admin/v1/test-clocks/${clock.id}`))).toMatchObject({
          status: 'advancing',
          frozen_time: '2026-03-01T00:30:00.000Z',
          advance: { subscriptions_done: 0, subscriptions_total: 1, finished_at: null },
        }),
      );
    } finally {
      await holder.query('COMMIT');
      holder.release();
    }
    expect(await waitForClockReady(h, clock.id)).toMatchObject({ status: 'ready', advance: { simulated_time: '2026-03-01T00:30:00.000Z', subscriptions_done: 1 } });
    expect(await expectJson(await h.request('GET', `/v1/subscriptions/${sub.id}`))).toMatchObject({ period_start: '2026-03-01T00:00:00.000Z' });
    expect(await outboxOf(h, clock.id, ['test_clock.ready'])).toHaveLength(3);
    await stop(sub.id);
  });
});

describe('paying', () => {
  it("records who paid as reported, and the authenticated caller as the audit actor", async () => {
    const { clockId, subscriptionId } = await subscribeOnClock('2026-01-01T00:00:00.000Z');
    await advance(clockId, '2026-02-01T01:00:00.000Z');
    const [invoice] = await invoicesOf(subscriptionId);
    const paid = await expectJson<Invoice & { paid_by: unknown; paid_at: string }>(
      await h.request('POST', `/admin/v1/invoices/${invoice!.id}/pay`, { body: { actor_id: 'cashier-7', actor_name: 'Front desk' } }),
    );
    expect(paid).toMatchObject({ status: 'Paid', paid_by: { actor_id: 'cashier-7', actor_name: 'Front desk' }, paid_at: '2026-02-01T01:00:00.000Z' });
    const audit = await h.deps.db.auditLogEntry.findFirstOrThrow({ where: { entityId: invoice!.id, action: 'invoice.paid' } });
    expect([audit.actorType, audit.actorId]).toEqual(['admin', 'test-admin']);
    expect(audit.after).toMatchObject({ paid_by: { actor_id: 'cashier-7', actor_name: 'Front desk' } });
    await stop(subscriptionId);
  });
});

describe('finalize concurrency', () => {
  it('gives 50 concurrently finalized Drafts 50 distinct consecutive numbers', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const planId = await makePlan(h.deps.db);
    const ids: string[] = [];
    const subscriptions: string[] = [];
    // One customer each: subscriptions of one customer and period would share one Draft.
    for (let i = 0; i < 50; i += 1) {
      const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
      subscriptions.push(await subscribe(customerId, planId));
      ids.push((await expectJson<Invoice>(await h.request('POST', `/admin/v1/subscriptions/${subscriptions[i]}/bill`), 201)).id);
    }
    const results = await Promise.all(ids.map((id) => h.request('POST', `/admin/v1/invoices/${id}/finalize`)));
    const bodies = await Promise.all(results.map((r) => r.json() as Promise<Invoice>));
    expect(results.map((r) => r.status)).toEqual(ids.map(() => 200));
    const numbers = bodies.map(invoiceNumber).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(50);
    expect(numbers[49]! - numbers[0]!).toBe(49);
    // Every number the counter gave out is on an invoice (of this or any earlier test file): no gap.
    const counter = await h.deps.db.documentCounter.findUniqueOrThrow({ where: { name: 'invoice' } });
    const given = new Set((await h.deps.db.invoice.findMany({ where: { invoiceNumber: { startsWith: 'INV-' } }, select: { invoiceNumber: true } })).map((i) => Number(i.invoiceNumber!.slice(4))));
    const missing = Array.from({ length: Number(counter.value) }, (_, i) => i + 1).filter((n) => !given.has(n));
    expect(missing).toEqual([]);
    await stop(...subscriptions);
  });
});
