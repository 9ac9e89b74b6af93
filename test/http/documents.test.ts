/**
 * Invoice documents over HTTP against the real database and the real invoice workflow: the text of
 * each PDF (extracted with unpdf) checked against the invoice JSON for USD with tax, JPY and KWD,
 * a credit note, a consolidated invoice; stored PDFs byte-identical across requests and a restart;
 * the workflow's activity storing the document after finalization; hosted links without
 * credentials, refused when altered (404) or expired (410).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { insertLines, recomputeTotals, type NewLine } from '../../src/db/invoices.js';
import { newId } from '../../src/ids.js';
import type { Actor } from '../../src/services/audit.js';
import { applyTax, createTaxAdapter } from '../../src/services/billing/tax.js';
import { hostedFormToken, hostedLinkToken } from '../../src/services/documents/hosted-links.js';
import { finalizeInvoice } from '../../src/services/invoicing/invoices.js';
import type { CreditNoteView, InvoiceView } from '../../src/schemas/invoicing.js';
import type { CustomerView } from '../../src/schemas/accounts.js';
import { invoiceWorkflowId } from '../../workflows/invoice/messages.js';
import { enUs, pdfText } from '../support/documents.js';
import { makeTestClock } from '../support/fixtures.js';
import { captureHistory } from '../support/histories.js';
import { createHarness, expectJson, type Harness, useHarness } from '../support/harness.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';

const h = useHarness();

const ADMIN: Actor = { type: 'admin', id: 'test-admin' };
const flatTax = createTaxAdapter('flat', 1000);

async function createCustomer(body: Record<string, unknown>): Promise<CustomerView> {
  return expectJson<CustomerView>(
    await h.request('POST', '/admin/v1/customers', { body: { email: 'ap@payer.example', account_type: 'Organization', ...body } }),
    201,
  );
}

/** A Draft addressed to `customerId` with the given lines, built the way billing builds them. */
async function makeDraft(customerId: string, currency: string, lines: NewLine[], extra: { testClockId?: string } = {}): Promise<string> {
  const id = newId();
  await h.deps.db.$transaction(async (tx) => {
    await tx.invoice.create({
      data: {
        id,
        customerId,
        currency,
        billingReason: 'subscription_cycle',
        periodStart: new Date('2026-01-01T00:00:00Z'),
        periodEnd: new Date('2026-02-01T00:00:00Z'),
        testClockId: extra.testClockId ?? null,
      },
    });
    await insertLines(tx, id, lines);
    await recomputeTotals(tx, id);
  });
  return id;
}

/** Finalizes in the service with the flat 10% tax (the test worker's adapter is zero-tax). */
async function finalizeWithTax(id: string): Promise<void> {
  await finalizeInvoice(h.deps.db, id, { actor: ADMIN, at: new Date(), applyTax: (tx, invoice) => applyTax(tx, invoice, flatTax) });
}

const getInvoice = async (id: string) => expectJson<InvoiceView>(await h.request('GET', `/admin/v1/invoices/${id}`));

async function getPdf(path: string, as: Parameters<Harness['request']>[2] = {}, on: Harness = h): Promise<{ bytes: Buffer; sha: string | null; edition: string | null; text: string }> {
  const res = await on.request('GET', path, as);
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  return { bytes, sha: res.headers.get('x-document-sha256'), edition: res.headers.get('x-document-edition'), text: await pdfText(bytes) };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const date = (iso: string | null) => (iso ?? '').slice(0, 10);

/** Every amount of the invoice JSON, as the document must print it (en-US). */
function expectAmounts(text: string, invoice: InvoiceView): void {
  const money = (display: string) => enUs(display, invoice.currency);
  for (const line of invoice.line_items) {
    if (line.kind === 'credit') expect(text).toContain(`Credit applied: ${line.description} ${money(line.amount)}`);
    // The line's row: its description, the quantity and unit price (up to four words), its amount.
    else expect(text).toMatch(new RegExp(`${escape(line.description)}( \\[TAX\\])?(?: \\S+){0,4}? ${escape(money(line.amount))}(?= |$)`));
  }
  expect(text).toContain(`Subtotal ${money(invoice.subtotal)}`);
  expect(text).toMatch(new RegExp(`Tax( \\([^)]*\\))? ${escape(money(invoice.tax))}`));
  expect(text).toContain(`Total ${money(invoice.total)}`);
  expect(text).toContain(`Amount due ${money(invoice.amount_due)}`);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('invoice PDFs', () => {
  it('USD with tax: the draft is marked DRAFT without a number; the issued one shows the parties, number, dates and every amount of the JSON', async () => {
    const payer = await createCustomer({
      display_name: 'Payer',
      legal_name: 'Payer Holdings Inc.',
      currency: 'USD',
      payment_terms_days: 14,
      billing_address: { line1: '500 Market Street', line2: 'Suite 9', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' },
    });
    const id = await makeDraft(payer.id, 'USD', [
      { kind: 'fee', description: 'Pro plan', amountNanos: 49n * UNIT, quantity: '1', unitAmountNanos: 49n * UNIT },
      {
        kind: 'usage',
        description: 'API calls',
        quantity: '15001',
        unitAmountNanos: UNIT / 10n,
        amountNanos: 1_300n * UNIT + 6n * 10n ** 9n,
        detail: {
          pricing_model: 'Graduated',
          list_amount_nanos: String(1_400n * UNIT + 6n * 10n ** 9n),
          tiers: [
            { tier: 0, from: '0', up_to: '10000', quantity: '10000', unit_amount_nanos: String(UNIT / 10n), flat_amount_nanos: '0', amount_nanos: String(1_000n * UNIT) },
            { tier: 1, from: '10000', up_to: null, quantity: '5001', unit_amount_nanos: String(UNIT / 12n), flat_amount_nanos: '0', amount_nanos: String(400n * UNIT + 6n * 10n ** 9n) },
          ],
          adjustments: [{ kind: 'ContractDiscount', basis_points: 714, amount_nanos: String(-100n * UNIT), description: 'Contract discount 7.14%' }],
        },
      },
      { kind: 'manual', description: 'Loyalty discount', amountNanos: -(5n * UNIT + UNIT / 3n) },
    ]);
    await expectJson(await h.request('POST', `/admin/v1/invoices/${id}/credits`, { body: { amount_nanos: String(12n * UNIT), description: 'Goodwill' } }), 201);

    const draft = await getPdf(`/v1/invoices/${id}/pdf`, { as: { customer: payer.id } });
    expect(draft.text).toContain('DRAFT');
    expect(draft.text).not.toMatch(/INV-\d/);
    expect(draft.sha).toBe(sha256(draft.bytes));
    expect(draft.edition, 'a Draft is no stored edition').toBeNull();
    expect(await h.deps.db.document.count({ where: { invoiceId: id } }), 'a Draft is never stored').toBe(0);

    await finalizeWithTax(id);
    const invoice = await getInvoice(id);
    expect(BigInt(invoice.tax_nanos)).toBeGreaterThan(0n);
    const { text } = await getPdf(`/v1/invoices/${id}/pdf`, { as: { customer: payer.id } });
    for (const expected of [
      'Test Seller Ltd', '1 Ledger Lane', 'Tax ID: GB123456789',
      'Payer Holdings Inc.', '500 Market Street', 'Suite 9', 'San Francisco, CA 94105 US', 'ap@payer.example',
      `Invoice number ${invoice.invoice_number}`, `Issue date ${date(invoice.finalized_at)}`, `Due date ${date(invoice.due_at)} (net 14 days)`,
      'Service period 2026-01-01 to 2026-01-31', 'Tier 1: 0 to 10,000 10,000 $0.10 $1,000.00', 'Tier 2: over 10,000 5,001 $0.083333333333 $400.01',
      'Contract discount 7.14% -$100.00', 'Pro plan 1 $49.00 $49.00', `Unpaid, due ${date(invoice.due_at)}`,
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).toMatch(/Tax 10% .*\[TAX\]/);
    expect(text).not.toMatch(/DRAFT|VOID/);
    expectAmounts(text, invoice);
  });

  it('JPY (no decimals) and KWD (three), each amount rounded once like the JSON; the payer tax id printed', async () => {
    for (const [currency, amounts] of [
      ['JPY', [12_345n * UNIT + UNIT / 2n, 999n * UNIT + UNIT / 2n, -(UNIT / 2n)]],
      ['KWD', [1_234n * UNIT + 4_565n * 10n ** 8n, 7n * UNIT + 5n * 10n ** 8n, -(3n * 10n ** 9n)]],
    ] as const) {
      const payer = await createCustomer({ display_name: `${currency} payer`, currency, tax_id: `TAX-${currency}-1` });
      const id = await makeDraft(payer.id, currency, amounts.map((amountNanos, i) => ({ kind: 'manual' as const, description: `${currency} item ${i + 1}`, amountNanos })));
      await finalizeWithTax(id);
      const invoice = await getInvoice(id);
      const { text } = await getPdf(`/v1/invoices/${id}/pdf`);
      expect(text).toContain(`${currency} payer`);
      expect(text).toContain(`Tax ID: TAX-${currency}-1`);
      expect(text).toContain(`Currency ${currency}`);
      expectAmounts(text, invoice);
      if (currency === 'JPY') expect(invoice.total).not.toContain('.');
      else expect(invoice.total).toMatch(/\.\d{3}$/);
    }
  });

  it('a consolidated invoice groups its lines by the child account that incurred them', async () => {
    const parent = await createCustomer({ display_name: 'Group parent', currency: 'KWD' });
    const childA = await createCustomer({ display_name: 'Subsidiary Alpha', currency: 'KWD', account_type: 'Subsidiary', parent_id: parent.id, consolidation: 'ConsolidateToParent' });
    const childB = await createCustomer({ display_name: 'Subsidiary Beta', currency: 'KWD', account_type: 'Subsidiary', parent_id: parent.id, consolidation: 'ConsolidateToParent' });
    const id = await makeDraft(parent.id, 'KWD', [
      { kind: 'fee', description: 'Group platform fee', amountNanos: 100n * UNIT },
      { kind: 'usage', description: 'Alpha storage', amountNanos: 12n * UNIT + 345n * 10n ** 9n, customerId: childA.id, customerName: childA.display_name },
      { kind: 'usage', description: 'Beta storage', amountNanos: 1n * UNIT, customerId: childB.id, customerName: childB.display_name },
      { kind: 'fee', description: 'Alpha seats', amountNanos: 3n * UNIT, customerId: childA.id, customerName: childA.display_name },
    ]);
    await finalizeWithTax(id);
    const invoice = await getInvoice(id);
    const { text } = await getPdf(`/v1/invoices/${id}/pdf`);
    expect(text).toMatch(
      /Group parent Group platform fee 1 KWD 100\.000 Subtotal Group parent KWD 100\.000 Subsidiary Alpha Alpha storage 1 KWD 12\.345 Alpha seats 1 KWD 3\.000 Subtotal Subsidiary Alpha KWD 15\.345 Subsidiary Beta Beta storage 1 KWD 1\.000 Subtotal Subsidiary Beta KWD 1\.000/,
    );
    expectAmounts(text, invoice);
  });

  it('a finalized PDF is stored once with its SHA-256 and served byte-identical, also after a restart; a credit note gets its own PDF and a new edition of the invoice', async () => {
    const payer = await createCustomer({ display_name: 'Stable payer', currency: 'USD' });
    const id = await makeDraft(payer.id, 'USD', [{ kind: 'fee', description: 'Annual licence', amountNanos: 1_200n * UNIT }]);
    await finalizeWithTax(id);
    const first = await getPdf(`/v1/invoices/${id}/pdf`);
    const second = await getPdf(`/v1/invoices/${id}/pdf`, { as: { customer: payer.id } });
    expect(Buffer.compare(first.bytes, second.bytes)).toBe(0);
    expect(first.sha).toBe(sha256(first.bytes));
    expect(first.edition).toBe('open');
    const stored = await h.deps.db.document.findMany({ where: { invoiceId: id } });
    expect(stored.map((d) => [d.edition, d.sha256])).toEqual([['open', first.sha]]);

    const restarted = await createHarness();
    try {
      const after = await getPdf(`/v1/invoices/${id}/pdf`, {}, restarted);
      expect(Buffer.compare(after.bytes, first.bytes)).toBe(0);
    } finally {
      await restarted.close();
    }
    // Documents are immutable in the database itself.
    await expect(h.deps.db.document.updateMany({ where: { invoiceId: id }, data: { sha256: '0'.repeat(64) } })).rejects.toThrow(/append-only/);

    // The payer moves and renames after the invoice was issued: its documents keep what they printed.
    await expectJson(
      await h.request('PATCH', `/admin/v1/customers/${payer.id}`, {
        body: { legal_name: 'Renamed Payer Corp', billing_address: { line1: '9 New Road', city: 'Austin', state: 'TX', postal_code: '73301', country: 'US' } },
      }),
      200,
    );
    const note = await expectJson<CreditNoteView>(
      await h.request('POST', `/admin/v1/invoices/${id}/credit-notes`, { body: { amount_nanos: String(100n * UNIT + UNIT / 200n), reason: 'product_unsatisfactory', memo: 'Outage credit' } }),
      201,
    );
    const invoice = await getInvoice(id);
    const credited = await getPdf(`/v1/invoices/${id}/pdf`);
    expect(credited.sha).not.toBe(first.sha);
    expect(credited.text).toContain(`Credit note ${note.number} (${date(note.created_at)}) ${enUs(`-${note.amount}`, 'USD')}`);
    expectAmounts(credited.text, invoice);
    expect(credited.text).toContain('Stable payer');
    expect(credited.text).not.toMatch(/Renamed Payer Corp|9 New Road/);
    const editions = await h.deps.db.document.findMany({ where: { invoiceId: id }, orderBy: { createdAt: 'asc' } });
    expect(editions.map((d) => d.edition)).toEqual(['open', 'open+cn1']);
    expect(sha256(editions[0]!.content), 'the first edition stays stored as it was').toBe(first.sha);
    const audited = await h.deps.db.auditLogEntry.findMany({ where: { entityId: id, action: 'invoice.document_stored' } });
    expect(audited.map((entry) => (entry.after as { edition: string }).edition).sort()).toEqual(['open', 'open+cn1']);

    const notePdf = await getPdf(`/v1/credit-notes/${note.id}/pdf`, { as: { customer: payer.id } });
    for (const expected of ['Credit note', note.number, `Credits invoice ${invoice.invoice_number}`, `Amount credited ${enUs(note.amount, 'USD')}`, 'Outage credit', 'Stable payer']) {
      expect(notePdf.text).toContain(expected);
    }
    expect(Buffer.compare(notePdf.bytes, (await getPdf(`/v1/credit-notes/${note.id}/pdf`)).bytes)).toBe(0);

    const stranger = await createCustomer({ display_name: 'Stranger', currency: 'USD' });
    for (const path of [`/v1/invoices/${id}/pdf`, `/v1/credit-notes/${note.id}/pdf`]) {
      const res = await h.request('GET', path, { as: { customer: stranger.id } });
      expect(res.status).toBe(404);
    }
    expect((await h.request('GET', `/v1/invoices/${id}/pdf`, { as: 'none' })).status).toBe(401);
  });

  it('the invoice workflow stores the PDF in an activity after finalization, and the VOID edition when voided', async () => {
    const payer = await createCustomer({ display_name: 'Workflow payer', currency: 'JPY' });
    const id = await makeDraft(payer.id, 'JPY', [{ kind: 'fee', description: 'Monthly plan', amountNanos: 9_800n * UNIT }]);
    const finalized = await expectJson<InvoiceView>(await h.request('POST', `/admin/v1/invoices/${id}/finalize`), 200);
    expect(finalized.status).toBe('Open');
    const stored = await waitFor(() => h.deps.db.document.findFirst({ where: { invoiceId: id, edition: 'open' } }));
    const served = await getPdf(`/v1/invoices/${id}/pdf`);
    expect(served.sha).toBe(stored.sha256);
    expect(Buffer.compare(served.bytes, Buffer.from(stored.content))).toBe(0);
    expectAmounts(served.text, await getInvoice(id));

    await expectJson(await h.request('POST', `/admin/v1/invoices/${id}/void`, { body: { reason: 'issued in error' } }), 200);
    await waitFor(() => h.deps.db.document.findFirst({ where: { invoiceId: id, edition: 'void' } }));
    const voided = await getPdf(`/v1/invoices/${id}/pdf`);
    expect(voided.text).toContain('VOID');
    expect(voided.text).toContain('Amount due ¥0');

    // Visible in the workflow: one rendering after finalization, one when it ended Void.
    const handle = h.deps.temporal.client.workflow.getHandle(invoiceWorkflowId(id));
    await handle.result();
    const history = await handle.fetchHistory();
    const rendered = (history.events ?? []).filter((event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'renderInvoiceDocument');
    expect(rendered).toHaveLength(2);
    await captureHistory(handle, 'finalized-document-stored-voided');
  });
});

/** Polls until `read` yields a value (the workflow's activity runs after the update answered). */
async function waitFor<T>(read: () => Promise<T | null>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting for the document');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A /hosted answer for a browser: an HTML page with the status, saying what happened, its code in X-Error-Code. */
async function expectHostedError(res: Response, status: number, code: string, title: string): Promise<string> {
  const html = await res.text();
  expect(res.status, html).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  expect(res.headers.get('x-error-code')).toBe(code);
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
  expect(html).toContain(`<h1>${title}</h1>`);
  expect(html).not.toMatch(/<script/i);
  return html;
}

describe('hosted invoice links', () => {
  it('open the page and the PDF without credentials; an altered link or another invoice id is 404', async () => {
    const payer = await createCustomer({ display_name: 'Hosted payer', currency: 'USD' });
    const id = await makeDraft(payer.id, 'USD', [{ kind: 'fee', description: 'Hosted fee', amountNanos: 77n * UNIT + 7n * 10n ** 9n }]);
    expect((await getInvoice(id)).hosted_invoice_url, 'a Draft has no link').toBeNull();
    await finalizeWithTax(id);
    const invoice = await getInvoice(id);
    const url = invoice.hosted_invoice_url!;
    expect(url).toMatch(/^http:\/\/billing\.test\/hosted\/invoices\/[0-9a-f-]{36}\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect((await getInvoice(id)).hosted_invoice_url, 'the same link on every read').toBe(url);
    const own = await expectJson<InvoiceView>(await h.request('GET', `/v1/invoices/${id}`, { as: { customer: payer.id } }));
    expect(own.hosted_invoice_url).toBe(url);
    const path = new URL(url).pathname;

    const page = await h.request('GET', path, { as: 'none' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    // A public page: no framing, no sniffing, nothing runs or loads but its own inline style.
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp.split('; ')).toEqual(expect.arrayContaining(["default-src 'none'", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self' https://checkout.stripe.com"]));
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    const html = await page.text();
    // The style the policy allows is the page's own (by its hash), and there is no script.
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    expect(csp).toContain(`style-src 'sha256-${createHash('sha256').update(style, 'utf8').digest('base64')}'`);
    expect(html).not.toMatch(/<script/i);
    for (const expected of [invoice.invoice_number!, 'Hosted payer', 'Hosted fee', enUs(invoice.total, 'USD'), enUs(invoice.amount_due, 'USD'), 'Download PDF']) {
      expect(html).toContain(expected);
    }
    const hostedPdf = await getPdf(`${path}/pdf`, { as: 'none' });
    const apiPdf = await getPdf(`/v1/invoices/${id}/pdf`);
    expect(Buffer.compare(hostedPdf.bytes, apiPdf.bytes)).toBe(0);

    const other = await createCustomer({ display_name: 'Other payer', currency: 'USD' });
    const otherId = await makeDraft(other.id, 'USD', [{ kind: 'fee', description: 'Other fee', amountNanos: UNIT }]);
    await finalizeWithTax(otherId);
    const token = path.split('/').pop()!;
    const [, expires = '', signature = ''] = token.split('.');
    for (const tampered of [
      `${otherId}.${expires}.${signature}`,
      `${id}.${Number(expires) + 1}.${signature}`,
      `${id}.${expires}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`,
      `${id}`,
      'not-a-token',
    ]) {
      for (const suffix of ['', '/pdf']) {
        const res = await h.request('GET', `/hosted/invoices/${tampered}${suffix}`, { as: 'none' });
        await expectHostedError(res, 404, 'hosted_link_not_found', 'This invoice link is not valid');
      }
    }
    const otherHtml = await (await h.request('GET', new URL((await getInvoice(otherId)).hosted_invoice_url!).pathname, { as: 'none' })).text();
    expect(otherHtml).toContain('Other fee');
    expect(otherHtml).not.toContain('Hosted fee');
  });

  it('expire HOSTED_LINK_TTL_DAYS after the due date on the invoice clock: 410, and a link signed with another secret is 404', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00Z');
    const payer = await createCustomer({ display_name: 'Sandbox payer', currency: 'USD', payment_terms_days: 10, test_clock_id: clockId });
    const id = await makeDraft(payer.id, 'USD', [{ kind: 'fee', description: 'Sandbox fee', amountNanos: 5n * UNIT }], { testClockId: clockId });
    await finalizeInvoice(h.deps.db, id, { actor: ADMIN, at: new Date('2026-01-01T00:00:00Z'), applyTax: (tx, invoice) => applyTax(tx, invoice, flatTax) });
    const invoice = await getInvoice(id);
    expect(invoice.due_at).toBe('2026-01-11T00:00:00.000Z');
    const path = new URL(invoice.hosted_invoice_url!).pathname;
    expect((await h.request('GET', path, { as: 'none' })).status).toBe(200);

    // 30 days after the due date, in the clock's time (real time is long past it).
    await h.deps.db.testClock.update({ where: { id: clockId }, data: { frozenTime: new Date('2026-02-09T23:59:59Z') } });
    expect((await h.request('GET', path, { as: 'none' })).status).toBe(200);
    await h.deps.db.testClock.update({ where: { id: clockId }, data: { frozenTime: new Date('2026-02-10T00:00:00Z') } });
    for (const suffix of ['', '/pdf']) {
      const html = await expectHostedError(await h.request('GET', `${path}${suffix}`, { as: 'none' }), 410, 'hosted_link_expired', 'This invoice link has expired');
      expect(html).toContain('this one expired on 2026-02-10');
    }

    // The seller renews it: a new link valid HOSTED_LINK_TTL_DAYS from the clock's now; the old one stays expired.
    const renewed = await expectJson<{ hosted_invoice_url: string; expires_at: string }>(await h.request('POST', `/admin/v1/invoices/${id}/hosted-link`), 201);
    expect(renewed.expires_at).toBe('2026-03-12T00:00:00.000Z');
    expect(renewed.hosted_invoice_url).toMatch(/^http:\/\/billing\.test\/hosted\/invoices\//);
    const renewedPath = new URL(renewed.hosted_invoice_url).pathname;
    expect((await h.request('GET', renewedPath, { as: 'none' })).status).toBe(200);
    expect((await h.request('GET', path, { as: 'none' })).status).toBe(410);
    expect(await h.deps.db.auditLogEntry.count({ where: { entityId: id, action: 'invoice.hosted_link_renewed' } })).toBe(1);
    // A Draft has no page to link to; customers cannot renew.
    const draftId = await makeDraft(payer.id, 'USD', [{ kind: 'fee', description: 'Draft fee', amountNanos: UNIT }], { testClockId: clockId });
    expect((await expectJson<{ error: { code: string } }>(await h.request('POST', `/admin/v1/invoices/${draftId}/hosted-link`), 409)).error.code).toBe('invalid_state_transition');
    expect((await h.request('POST', `/admin/v1/invoices/${id}/hosted-link`, { as: { customer: payer.id } })).status).toBe(403);

    const forged = hostedLinkToken('another-secret-of-at-least-32-characters', id, new Date('2030-01-01T00:00:00Z'));
    expect((await h.request('GET', `/hosted/invoices/${forged}`, { as: 'none' })).status).toBe(404);
  });

  it('take the Pay form only from the page itself: another origin, a missing, altered or stale form token is a 403 page', async () => {
    const payer = await createCustomer({ display_name: 'Form payer', currency: 'USD' });
    const id = await makeDraft(payer.id, 'USD', [{ kind: 'fee', description: 'Form fee', amountNanos: 12n * UNIT }]);
    await finalizeWithTax(id);
    const path = new URL((await getInvoice(id)).hosted_invoice_url!).pathname;
    const token = path.split('/').pop()!;
    const html = await (await h.request('GET', path, { as: 'none' })).text();
    // No card on file: one button, to the processor's checkout page; the form posts to the link's /pay.
    expect(html).toContain(`<form class="pay" method="post" action="${token}/pay">`);
    expect(html).toContain('<button type="submit" name="method" value="checkout">Pay $13.20</button>');
    expect(html).not.toContain('card_on_file');
    const formToken = /name="form_token" value="([^"]+)"/.exec(html)![1]!;

    const post = (form: Record<string, string>, headers: Record<string, string> = { origin: 'http://billing.test' }) =>
      h.request('POST', `${path}/pay`, { as: 'none', rawBody: new URLSearchParams(form).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });
    const refused = async (res: Response, reason: string) => expect(await expectHostedError(res, 403, 'hosted_form_refused', 'The payment was not started')).toContain(reason);
    await refused(await post({ form_token: formToken, method: 'checkout' }, { origin: 'https://attacker.example' }), 'sent from another site');
    await refused(await post({ form_token: formToken, method: 'checkout' }, { 'sec-fetch-site': 'cross-site' }), 'sent from another site');
    await refused(await post({ form_token: `${formToken.slice(0, -2)}AA`, method: 'checkout' }), 'did not come from the invoice page');
    await refused(await post({ form_token: hostedFormToken(h.secrets.hosted_link_secret, `${token}x`, new Date()), method: 'checkout' }), 'did not come from the invoice page');
    await refused(await post({ form_token: hostedFormToken(h.secrets.hosted_link_secret, token, new Date(Date.now() - 3_601_000)), method: 'checkout' }), 'more than an hour');
    await expectHostedError(await post({ method: 'checkout' }), 400, 'validation_failed', 'Something went wrong');
    await expectHostedError(await post({ form_token: formToken, method: 'cash' }), 400, 'validation_failed', 'Something went wrong');
    // The card on file, without one: nothing charged, the page says what to do.
    expect(await expectHostedError(await post({ form_token: formToken, method: 'card_on_file' }), 422, 'no_payment_method', 'No payment method on file')).toContain('pay with a card instead');
    expect(await h.deps.db.payment.count({ where: { invoiceId: id } })).toBe(0);
    expect(await h.deps.db.auditLogEntry.count({ where: { entityId: id, action: 'invoice.checkout_started' } })).toBe(0);

    // From the page (same origin, its token): a checkout session at the processor, the browser sent there.
    const checkout = await post({ form_token: formToken, method: 'checkout' }, { origin: 'http://billing.test', 'sec-fetch-site': 'same-origin' });
    expect(checkout.status).toBe(303);
    expect(checkout.headers.get('location')).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    const [started] = await h.deps.db.auditLogEntry.findMany({ where: { entityId: id, action: 'invoice.checkout_started' } });
    expect(started?.after).toMatchObject({ amount_minor: '1320', currency: 'USD', checkout_session_id: expect.stringMatching(/^cs_/) });

    // Paid meanwhile: the form leads back to the page, which says so.
    await expectJson(await h.request('POST', `/admin/v1/invoices/${id}/pay`, { body: {} }));
    const after = await post({ form_token: formToken, method: 'checkout' });
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe(`http://billing.test${path}`);
    const paid = await (await h.request('GET', path, { as: 'none' })).text();
    expect(paid).toMatch(/<p class="notice ok" role="status">Paid on \d{4}-\d{2}-\d{2}\. Thank you\.<\/p>/);
    expect(paid).not.toContain('<form');
  });
});
