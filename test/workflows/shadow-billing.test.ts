/**
 * Shadow billing (docs/shadow-billing.md) through the API, the subscription workflow and the real
 * worker on a test clock: a cheaper candidate attached to one subscription is rated at each of its
 * period closes with exact deltas; a candidate that cannot rate (another currency) records failed
 * rows and billing goes on; detached, no close is shadowed any more. Customers see nothing of it:
 * 404 on its routes, nothing in invoice JSON, PDFs or hosted pages.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ONE_UNIT } from '../../src/core/index.js';
import { toDecimal } from '../../src/db/money.js';
import type { ShadowAttachmentView, ShadowVarianceView } from '../../src/schemas/shadow-billing.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { advanceClock, sendUsage } from '../support/clock-usage.js';
import { pdfText } from '../support/documents.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { captureHistory } from '../support/histories.js';
import { expectJson, useHarness } from '../support/harness.js';

const h = useHarness();
const units = (n: number): string => (BigInt(n) * ONE_UNIT).toString();

let clockId: string;
let planId: string;
let cheaperId: string;
let cheaperName: string;
let a: { customer: string; subscription: string };
let b: { customer: string; subscription: string };

async function shadowRows() {
  const rows = await h.deps.db.shadowBillingResult.findMany({ orderBy: [{ attachmentId: 'asc' }, { subscriptionId: 'asc' }, { periodStart: 'asc' }] });
  return rows.map((r) => ({
    attachment: r.attachmentId,
    subscription: r.subscriptionId,
    period: r.periodStart.toISOString().slice(0, 10),
    invoice: r.invoiceId,
    status: r.status,
    actual: r.actualNanos?.toFixed(0) ?? null,
    shadow: r.shadowNanos?.toFixed(0) ?? null,
    delta: r.deltaNanos?.toFixed(0) ?? null,
    error: (r.error as { type: string } | null)?.type ?? null,
  }));
}

const invoiceOf = async (subscriptionId: string, start: string): Promise<string> =>
  (await h.deps.db.subscriptionPeriodClose.findUniqueOrThrow({ where: { subscriptionId_periodStart: { subscriptionId, periodStart: new Date(start) } } })).invoiceId!;

beforeAll(async () => {
  // Two customers on a plan of 49.00 a month plus 0.01 per API call; the candidate: 39.00 plus 0.005 per call.
  clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
  planId = await makePlan(h.deps.db);
  cheaperId = await makePlan(h.deps.db, { flatNanos: 39n * ONE_UNIT });
  await h.deps.db.sku.updateMany({ where: { planId: cheaperId, pricingModel: 'PerUnit' }, data: { unitAmountNanos: toDecimal(ONE_UNIT / 200n) } });
  cheaperName = (await h.deps.db.plan.findUniqueOrThrow({ where: { id: cheaperId } })).name;
  const subscribe = async () => {
    const customer = await makeCustomer(h.deps.db, { testClockId: clockId });
    const body = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customer, plan_id: planId, currency: 'USD' } }), 201);
    return { customer, subscription: body.id };
  };
  a = await subscribe();
  b = await subscribe();
}, 120_000);

describe('shadow billing', () => {
  it('rates every covered close with the candidate, exact deltas per invoice; failures recorded, billing unaffected; detached: no more', async () => {
    const cheaper = await expectJson<ShadowAttachmentView>(
      await h.request('POST', '/admin/v1/shadow-billing/attachments', { body: { candidate: { plan_id: cheaperId, version: 1 }, scope: { kind: 'subscriptions', subscription_ids: [a.subscription] } } }),
      201,
    );
    expect(cheaper).toMatchObject({ candidate: { plan_id: cheaperId, version: 1 }, currency: 'USD', status: 'attached', detached_at: null });
    // A candidate in another currency on the whole plan: it cannot rate these subscriptions' periods.
    const euroPlan = await makePlan(h.deps.db, { currency: 'EUR' });
    const euro = await expectJson<ShadowAttachmentView>(
      await h.request('POST', '/admin/v1/shadow-billing/attachments', { body: { candidate: { plan_id: euroPlan, version: 1 }, scope: { kind: 'plan', plan_id: planId } } }),
      201,
    );

    await sendUsage(h, a.customer, a.subscription, 1000, '2026-01-01T00:00:00.000Z');
    await sendUsage(h, b.customer, b.subscription, 500, '2026-01-01T00:00:00.000Z');
    await advanceClock(h, clockId, '2026-02-01T01:00:00.000Z');
    await sendUsage(h, a.customer, a.subscription, 2000, '2026-02-01T00:30:00.000Z');
    await advanceClock(h, clockId, '2026-03-01T01:00:00.000Z');

    // A, January: billed 49 + 10.00, the candidate 39 + 5.00; February: 49 + 20.00 against 39 + 10.00.
    const [aJan, aFeb, bJan, bFeb] = await Promise.all([
      invoiceOf(a.subscription, '2026-01-01T00:00:00.000Z'),
      invoiceOf(a.subscription, '2026-02-01T00:00:00.000Z'),
      invoiceOf(b.subscription, '2026-01-01T00:00:00.000Z'),
      invoiceOf(b.subscription, '2026-02-01T00:00:00.000Z'),
    ]);
    const rated = (period: string, invoice: string, actual: number, shadow: number) => ({
      attachment: cheaper.id, subscription: a.subscription, period, invoice, status: 'rated', actual: units(actual), shadow: units(shadow), delta: units(shadow - actual), error: null,
    });
    const failed = (who: typeof a, period: string, invoice: string) => ({
      attachment: euro.id, subscription: who.subscription, period, invoice, status: 'failed', actual: null, shadow: null, delta: null, error: 'currency_mismatch',
    });
    const expected = [
      rated('2026-01-01', aJan, 59, 44),
      rated('2026-02-01', aFeb, 69, 49),
      ...[failed(a, '2026-01-01', aJan), failed(a, '2026-02-01', aFeb), failed(b, '2026-01-01', bJan), failed(b, '2026-02-01', bFeb)].sort((x, y) =>
        `${x.subscription}${x.period}` < `${y.subscription}${y.period}` ? -1 : 1,
      ),
    ].sort((x, y) => (x.attachment === y.attachment ? 0 : x.attachment < y.attachment ? -1 : 1));
    expect(await shadowRows()).toEqual(expected);
    // The candidate's lines are kept beside the totals.
    const february = await h.deps.db.shadowBillingResult.findUniqueOrThrow({
      where: { attachmentId_subscriptionId_periodStart: { attachmentId: cheaper.id, subscriptionId: a.subscription, periodStart: new Date('2026-02-01T00:00:00.000Z') } },
    });
    expect((february.lines as { kind: string; quantity: string; amount_nanos: string }[]).map((l) => [l.kind, l.quantity, l.amount_nanos]).sort()).toEqual(
      [['fee', '1', units(39)], ['usage', '2000', units(10)]].sort(),
    );
    // Billing went on as without a shadow: every period closed and its invoice finalized with what the plan bills.
    const totals = await h.deps.db.invoice.findMany({ where: { id: { in: [aJan, aFeb, bJan, bFeb] } }, select: { id: true, status: true, subtotalNanos: true } });
    expect(Object.fromEntries(totals.map((i) => [i.id, [i.status, i.subtotalNanos.toFixed(0)]]))).toEqual({
      [aJan]: ['Open', units(59)],
      [aFeb]: ['Open', units(69)],
      [bJan]: ['Open', units(54)],
      [bFeb]: ['Open', units(49)],
    });

    // The variance of the cheaper candidate, per customer and in total, as JSON and CSV.
    const range = 'from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z';
    const variance = await expectJson<ShadowVarianceView>(await h.request('GET', `/admin/v1/shadow-billing/variance?${range}&attachment_id=${cheaper.id}`));
    const figures = { currency: 'USD', periods: 2, failed_periods: 0, actual_nanos: units(128), shadow_nanos: units(93), delta_nanos: units(-35) };
    expect(variance).toEqual({
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-03-01T00:00:00.000Z',
      customers: [{ customer_id: a.customer, ...figures }],
      totals: [{ customers: 1, ...figures }],
    });
    const csv = await h.request('GET', `/admin/v1/shadow-billing/variance?${range}&attachment_id=${cheaper.id}&format=csv`);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(await csv.text()).toBe(
      ['customer_id,currency,periods,failed_periods,actual_nanos,shadow_nanos,delta_nanos', `${a.customer},USD,2,0,${units(128)},${units(93)},${units(-35)}`, `total,USD,2,0,${units(128)},${units(93)},${units(-35)}`]
        .map((line) => `${line}\r\n`)
        .join(''),
    );
    // Every attachment: the failed ratings are counted, not summed; February alone narrows the range.
    const all = await expectJson<ShadowVarianceView>(await h.request('GET', `/admin/v1/shadow-billing/variance?${range}`));
    expect(all.totals).toEqual([{ customers: 2, currency: 'USD', periods: 2, failed_periods: 4, actual_nanos: units(128), shadow_nanos: units(93), delta_nanos: units(-35) }]);
    const feb = await expectJson<ShadowVarianceView>(await h.request('GET', `/admin/v1/shadow-billing/variance?from=2026-02-01T00:00:00Z&to=2026-03-01T00:00:00Z&attachment_id=${cheaper.id}`));
    expect(feb.totals).toMatchObject([{ periods: 1, actual_nanos: units(69), shadow_nanos: units(49), delta_nanos: units(-20) }]);

    // Nothing of it is visible to the customer: its routes do not exist for a customer token, and the
    // invoice JSON, PDF and hosted page name neither the shadow nor the candidate.
    for (const [method, path] of [
      ['GET', `/admin/v1/shadow-billing/variance?${range}`],
      ['GET', '/admin/v1/shadow-billing/attachments'],
      ['GET', `/admin/v1/shadow-billing/attachments/${cheaper.id}`],
      ['DELETE', `/admin/v1/shadow-billing/attachments/${cheaper.id}`],
    ] as const) {
      const res = await h.request(method, path, { as: { customer: a.customer } });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
    for (const invoice of [aJan, aFeb]) {
      const json = await h.request('GET', `/v1/invoices/${invoice}`, { as: { customer: a.customer } });
      expect(json.status).toBe(200);
      const body = await json.text();
      expect(body).not.toMatch(/shadow/i);
      expect(body).not.toContain(cheaperName);
      expect(body).not.toContain(units(44));
      const pdf = await h.request('GET', `/v1/invoices/${invoice}/pdf`, { as: { customer: a.customer } });
      expect(pdf.status).toBe(200);
      const text = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
      expect(text).toContain('49.00');
      expect(text).not.toMatch(/shadow/i);
      expect(text).not.toContain(cheaperName);
      const hosted = new URL((JSON.parse(body) as { hosted_invoice_url: string }).hosted_invoice_url).pathname;
      const page = await h.request('GET', hosted, { as: 'none' });
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('49.00');
      expect(html).not.toMatch(/shadow/i);
      expect(html).not.toContain(cheaperName);
    }

    // Detached (audited), no close is shadowed any more: March closes and bills, no new row.
    for (const attachment of [cheaper, euro]) {
      const detached = await expectJson<ShadowAttachmentView>(await h.request('DELETE', `/admin/v1/shadow-billing/attachments/${attachment.id}`));
      expect(detached.status).toBe('detached');
      expect(detached.detached_at).not.toBeNull();
    }
    const listed = await expectJson<ShadowAttachmentView[]>(await h.request('GET', '/admin/v1/shadow-billing/attachments?status=attached'));
    expect(listed.filter((x) => x.id === cheaper.id || x.id === euro.id)).toEqual([]);
    const audit = await h.deps.db.auditLogEntry.findMany({ where: { entityId: cheaper.id }, orderBy: { id: 'asc' } });
    expect(audit.map((entry) => entry.action)).toEqual(['shadow_billing.attached', 'shadow_billing.detached']);
    await sendUsage(h, a.customer, a.subscription, 100, '2026-03-01T01:00:00.000Z');
    await advanceClock(h, clockId, '2026-04-01T01:00:00.000Z');
    const aMar = await invoiceOf(a.subscription, '2026-03-01T00:00:00.000Z');
    expect((await h.deps.db.invoice.findUniqueOrThrow({ where: { id: aMar } })).subtotalNanos.toFixed(0)).toBe(units(50));
    expect(await shadowRows()).toEqual(expected);

    await captureHistory(h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(a.subscription)), 'shadow-billing-rated-at-two-closes-then-detached');
  });

  it('refuses what it cannot attach with the documented errors', async () => {
    const attach = (body: unknown) => h.request('POST', '/admin/v1/shadow-billing/attachments', { body });
    const missing = '01900000-0000-7000-8000-000000000000';
    const codeOf = async (res: Response, status: number) => (await expectJson<{ error: { code: string } }>(res, status)).error.code;
    expect(await codeOf(await attach({ candidate: { plan_id: missing, version: 1 }, scope: { kind: 'plan', plan_id: planId } }), 404)).toBe('plan_not_found');
    expect(await codeOf(await attach({ candidate: { plan_id: cheaperId, version: 9 }, scope: { kind: 'plan', plan_id: planId } }), 404)).toBe('plan_version_not_found');
    expect(await codeOf(await attach({ candidate: { plan_id: cheaperId, version: 1 }, scope: { kind: 'subscriptions', subscription_ids: [missing] } }), 404)).toBe('subscription_not_found');
    const euroPlan = await makePlan(h.deps.db, { currency: 'EUR' });
    expect(await codeOf(await attach({ candidate: { plan_id: euroPlan, version: 1 }, scope: { kind: 'subscriptions', subscription_ids: [a.subscription] } }), 422)).toBe('currency_mismatch');
    expect(await codeOf(await attach({ candidate: { plan_id: cheaperId, version: 1 }, scope: { kind: 'subscriptions', subscription_ids: [a.subscription, a.subscription] } }), 400)).toBe('validation_failed');
    expect(await codeOf(await h.request('DELETE', `/admin/v1/shadow-billing/attachments/${missing}`), 404)).toBe('shadow_attachment_not_found');
    expect(await codeOf(await h.request('GET', '/admin/v1/shadow-billing/variance?from=2026-03-01T00:00:00Z&to=2026-01-01T00:00:00Z'), 400)).toBe('validation_failed');
  });
});
