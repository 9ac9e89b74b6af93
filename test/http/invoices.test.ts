/**
 * Invoices over HTTP: listing and reading them, Draft edits (manual lines, credits, tax) and the one
 * display rounding. Invoices are built directly with the invoice repository (insertLines,
 * recomputeTotals) and service (finalizeInvoice), so these tests do not depend on billing.
 */
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import type { Actor } from '../../src/services/audit.js';
import { insertLines, recomputeTotals } from '../../src/db/invoices.js';
import { finalizeInvoice } from '../../src/services/invoicing/invoices.js';
import { applyTax, flatRateTax, zeroTax } from '../../src/services/billing/tax.js';
import { makeCustomer } from '../support/fixtures.js';
import { expectJson, expectPage, type Harness, useHarness } from '../support/harness.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';

const h = useHarness();
/** The same app with the flat-rate adapter at 20%. */
const taxed = useHarness({}, () => new Date(), flatRateTax(2000));

const ADMIN: Actor = { type: 'admin', id: 'test-admin' };

interface LineBody {
  id: string;
  kind: string;
  description: string;
  quantity: string;
  unit_amount_nanos: string | null;
  amount_nanos: string;
  amount: string;
  is_tax: boolean;
  detail: unknown;
}

interface InvoiceBody {
  id: string;
  status: string;
  invoice_number: string | null;
  customer_id: string;
  currency: string;
  subtotal_nanos: string;
  tax_nanos: string;
  credits_applied_nanos: string;
  total_nanos: string;
  credited_nanos: string;
  amount_due_nanos: string;
  subtotal: string;
  tax: string;
  total: string;
  amount_due: string;
  tax_adapter: string | null;
  line_items: LineBody[];
}


interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}


/** A Draft with fee lines of the given amounts (raw units). */
async function makeDraft(customerId: string, amounts: bigint[], currency = 'USD'): Promise<string> {
  const id = newId();
  await h.deps.db.$transaction(async (tx) => {
    await tx.invoice.create({ data: { id, customerId, currency, billingReason: 'manual' } });
    await insertLines(
      tx,
      id,
      amounts.map((amountNanos, i) => ({ kind: 'fee' as const, description: `Fee ${i + 1}`, amountNanos })),
    );
    await recomputeTotals(tx, id);
  });
  return id;
}

async function finalize(id: string): Promise<void> {
  await finalizeInvoice(h.deps.db, id, { actor: ADMIN, at: new Date(), applyTax: (tx, invoice) => applyTax(tx, invoice, zeroTax) });
}

const getInvoice = (id: string, harness = h) => harness.request('GET', `/admin/v1/invoices/${id}`);
const list = (query: string) => h.request('GET', `/admin/v1/invoices?${query}`);

/** Everything an edit could change: the row, its lines and its audit trail. */
async function snapshot(id: string) {
  const db = h.deps.db;
  const [invoice, lines, audit] = await Promise.all([
    db.invoice.findUniqueOrThrow({ where: { id } }),
    db.invoiceLineItem.findMany({ where: { invoiceId: id }, orderBy: { id: 'asc' } }),
    db.auditLogEntry.count({ where: { entityId: id } }),
  ]);
  return { invoice, lines, audit };
}

describe('GET /admin/v1/invoices', () => {
  it('filters by customer, status and subscription and pages newest first', async () => {
    const customer = await makeCustomer(h.deps.db);
    const other = await makeCustomer(h.deps.db);
    const first = await makeDraft(customer, [10n * UNIT]);
    const second = await makeDraft(customer, [20n * UNIT]);
    const third = await makeDraft(customer, [30n * UNIT]);
    await makeDraft(other, [40n * UNIT]);
    await finalize(second);

    const all = await expectPage<InvoiceBody>(await list(`customer_id=${customer}`));
    expect(all.data.map((i) => i.id)).toEqual([third, second, first]);
    expect(all).toMatchObject({ has_more: false, next_cursor: null });

    const drafts = await expectPage<InvoiceBody>(await list(`customer_id=${customer}&status=Draft`));
    expect(drafts.data.map((i) => [i.id, i.status, i.invoice_number])).toEqual([
      [third, 'Draft', null],
      [first, 'Draft', null],
    ]);
    const open = await expectPage<InvoiceBody>(await list(`customer_id=${customer}&status=Open`));
    expect(open.data).toHaveLength(1);
    expect(open.data[0]).toMatchObject({ id: second, status: 'Open', total_nanos: (20n * UNIT).toString() });
    expect(open.data[0]!.invoice_number).toMatch(/^INV-\d{6}$/);

    const page1 = await expectPage<InvoiceBody>(await list(`customer_id=${customer}&limit=2`));
    expect(page1.data.map((i) => i.id)).toEqual([third, second]);
    expect(page1).toMatchObject({ has_more: true, next_cursor: second });
    const page2 = await expectPage<InvoiceBody>(await list(`customer_id=${customer}&limit=2&starting_after=${page1.next_cursor}`));
    expect(page2.data.map((i) => i.id)).toEqual([first]);
    expect(page2).toMatchObject({ has_more: false, next_cursor: null });

    const bySubscription = await expectPage<InvoiceBody>(await list(`customer_id=${customer}&subscription_id=${newId()}`));
    expect(bySubscription.data).toEqual([]);
  });

  it('finds an invoice by its number', async () => {
    const customer = await makeCustomer(h.deps.db);
    const numbered = await makeDraft(customer, [10n * UNIT]);
    const other = await makeDraft(customer, [20n * UNIT]);
    await finalize(numbered);
    await finalize(other);
    const { invoice_number: number } = await expectJson<InvoiceBody>(await getInvoice(numbered), 200);
    expect(number).toMatch(/^INV-\d{6}$/);

    const found = await expectPage<InvoiceBody>(await list(`invoice_number=${number}`));
    expect(found.data.map((i) => [i.id, i.invoice_number])).toEqual([[numbered, number]]);
    // The number combines with the other filters; an unknown number is an empty list, not an error.
    expect((await expectPage<InvoiceBody>(await list(`invoice_number=${number}&status=Draft`))).data).toEqual([]);
    expect((await expectPage<InvoiceBody>(await list('invoice_number=INV-999999'))).data).toEqual([]);
    expect((await expectJson<ErrorBody>(await list('invoice_number='), 400)).error.code).toBe('validation_failed');
  });

  it('rejects an unknown status and a malformed customer id', async () => {
    for (const query of ['status=Pending', 'customer_id=nope', 'limit=0']) {
      expect((await expectJson<ErrorBody>(await list(query), 400)).error.code, query).toBe('validation_failed');
    }
  });
});

describe('POST /admin/v1/invoices/:id/pay', () => {
  const openInvoice = async () => {
    const id = await makeDraft(await makeCustomer(h.deps.db), [10n * UNIT]);
    expect(await expectJson<InvoiceBody>(await h.request('POST', `/admin/v1/invoices/${id}/finalize`))).toMatchObject({ status: 'Open' });
    return id;
  };
  const paidBy = async (id: string) => (await h.deps.db.invoice.findUniqueOrThrow({ where: { id } })).paidByActorId;

  it('records the authenticated caller as who paid when the body names no one', async () => {
    const id = await openInvoice();
    const paid = await expectJson<InvoiceBody & { paid_by: unknown }>(await h.request('POST', `/admin/v1/invoices/${id}/pay`));
    expect(paid).toMatchObject({ status: 'Paid', paid_by: { actor_id: 'test-admin', actor_name: null } });
    expect(await paidBy(id)).toBe('test-admin');

    const empty = await openInvoice();
    expect(await expectJson(await h.request('POST', `/admin/v1/invoices/${empty}/pay`, { body: {}, as: 'api_key' }))).toMatchObject({
      status: 'Paid',
      paid_by: { actor_id: expect.any(String), actor_name: null },
    });
    expect(await paidBy(empty)).not.toBe('test-admin');
  });

  it('still records actor_id and actor_name when given, and refuses unknown fields', async () => {
    const id = await openInvoice();
    expect((await expectJson<ErrorBody>(await h.request('POST', `/admin/v1/invoices/${id}/pay`, { body: { amount: '1' } }), 400)).error.code).toBe('validation_failed');
    const paid = await expectJson(await h.request('POST', `/admin/v1/invoices/${id}/pay`, { body: { actor_id: 'clerk-7', actor_name: 'Front desk' } }));
    expect(paid).toMatchObject({ status: 'Paid', paid_by: { actor_id: 'clerk-7', actor_name: 'Front desk', reference: null } });
  });

  it('stores a reference on the invoice, in its view and its audit entry', async () => {
    const id = await openInvoice();
    const paid = await expectJson(await h.request('POST', `/admin/v1/invoices/${id}/pay`, { body: { reference: 'check 10442', amount_nanos: (10n * UNIT).toString() } }));
    expect(paid).toMatchObject({ status: 'Paid', paid_by: { actor_id: 'test-admin', actor_name: null, reference: 'check 10442' } });
    expect(await expectJson(await h.request('GET', `/admin/v1/invoices/${id}`))).toMatchObject({ paid_by: { reference: 'check 10442' } });
    expect((await h.deps.db.invoice.findUniqueOrThrow({ where: { id } })).paidReference).toBe('check 10442');
    const audit = await h.deps.db.auditLogEntry.findMany({ where: { entityId: id, action: 'invoice.paid' } });
    expect(audit.map((a) => a.after)).toEqual([{ status: 'Paid', paid_by: { actor_id: 'test-admin', actor_name: null, reference: 'check 10442' } }]);
  });

  it('refuses an amount other than the amount due with 422 payment_amount_mismatch, leaving the invoice Open', async () => {
    const id = await openInvoice();
    for (const amount of [(10n * UNIT - 1n).toString(), (10n * UNIT + 1n).toString(), '0']) {
      const refused = await expectJson<ErrorBody>(await h.request('POST', `/admin/v1/invoices/${id}/pay`, { body: { amount_nanos: amount, reference: 'wire 1' } }), 422);
      expect(refused.error, amount).toMatchObject({ code: 'payment_amount_mismatch', details: { amount_nanos: amount, amount_due_nanos: (10n * UNIT).toString() } });
    }
    const open = await h.deps.db.invoice.findUniqueOrThrow({ where: { id } });
    expect([open.status, open.paidReference, open.paidByActorId]).toEqual(['Open', null, null]);
    expect(await expectJson(await h.request('POST', `/admin/v1/invoices/${id}/pay`, { body: { amount_nanos: (10n * UNIT).toString() } }))).toMatchObject({ status: 'Paid' });
  });

  it('bounds the reference and the amount at the door (400)', async () => {
    const id = await openInvoice();
    for (const body of [{ reference: '' }, { reference: 'x'.repeat(201) }, { reference: 'line\nbreak' }, { amount_nanos: '-1' }, { amount_nanos: '1.5' }, { amount_nanos: '1'.repeat(39) }]) {
      expect((await expectJson<ErrorBody>(await h.request('POST', `/admin/v1/invoices/${id}/pay`, { body }), 400)).error.code, JSON.stringify(body)).toBe('validation_failed');
    }
    expect(await expectJson(await h.request('POST', `/admin/v1/invoices/${id}/pay`, { body: { reference: 'r'.repeat(200) } }))).toMatchObject({ paid_by: { reference: 'r'.repeat(200) } });
  });
});

describe('GET /admin/v1/invoices/:id and /v1/invoices/:id', () => {
  it('returns the invoice with its lines, money as strings', async () => {
    const customer = await makeCustomer(h.deps.db);
    const id = await makeDraft(customer, [49n * UNIT, 1_500_000_000n]);
    const invoice = await expectJson<InvoiceBody>(await getInvoice(id), 200);
    expect(invoice).toMatchObject({
      id,
      status: 'Draft',
      invoice_number: null,
      customer_id: customer,
      currency: 'USD',
      subtotal_nanos: '49001500000000',
      tax_nanos: '0',
      credits_applied_nanos: '0',
      total_nanos: '49001500000000',
      credited_nanos: '0',
      // A Draft shows what finalizing it would leave to pay.
      amount_due_nanos: '49001500000000',
      subtotal: '49.00',
      total: '49.00',
      amount_due: '49.00',
    });
    expect(invoice.line_items.map((l) => [l.kind, l.description, l.amount_nanos, l.amount, l.is_tax])).toEqual([
      ['fee', 'Fee 1', '49000000000000', '49.00', false],
      ['fee', 'Fee 2', '1500000000', '0.00', false],
    ]);
  });

  it('is 404 for an unknown invoice and 400 for a malformed id', async () => {
    const missing = await expectJson<ErrorBody>(await getInvoice(newId()), 404);
    expect(missing.error.code).toBe('invoice_not_found');
    expect((await expectJson<ErrorBody>(await getInvoice('INV-000001'), 400)).error.code).toBe('validation_failed');
  });

  it('shows a customer token its own invoices only', async () => {
    const owner = await makeCustomer(h.deps.db);
    const stranger = await makeCustomer(h.deps.db);
    const id = await makeDraft(owner, [5n * UNIT]);

    const own = await expectJson<InvoiceBody>(await h.request('GET', `/v1/invoices/${id}`, { as: { customer: owner } }), 200);
    expect(own).toMatchObject({ id, customer_id: owner, total: '5.00' });
    const foreign = await expectJson<ErrorBody>(await h.request('GET', `/v1/invoices/${id}`, { as: { customer: stranger } }), 404);
    expect(foreign.error.code).toBe('invoice_not_found');
    expect((await h.request('GET', `/v1/invoices/${id}`)).status).toBe(200);

    expect((await h.request('GET', `/admin/v1/invoices/${id}`, { as: { customer: owner } })).status).toBe(403);
    expect((await h.request('GET', `/admin/v1/invoices?customer_id=${owner}`, { as: { customer: owner } })).status).toBe(403);
    expect((await h.request('GET', `/v1/invoices/${id}`, { as: 'none' })).status).toBe(401);
  });
});

describe('POST /admin/v1/invoices/:id/line-items', () => {
  it('adds manual lines and adjustments to a Draft with exact totals', async () => {
    const customer = await makeCustomer(h.deps.db);
    const id = await makeDraft(customer, [100n * UNIT]);

    const withLine = await expectJson<InvoiceBody>(
      await h.request('POST', `/admin/v1/invoices/${id}/line-items`, {
        body: { description: 'Onboarding', amount_nanos: '25500000000000', quantity: '3', unit_amount_nanos: '8500000000000' },
      }),
      201,
    );
    expect(withLine).toMatchObject({ subtotal_nanos: '125500000000000', total_nanos: '125500000000000', total: '125.50' });
    expect(withLine.line_items[1]).toMatchObject({
      kind: 'manual',
      description: 'Onboarding',
      quantity: '3',
      unit_amount_nanos: '8500000000000',
      amount_nanos: '25500000000000',
      is_tax: false,
    });

    const adjusted = await expectJson<InvoiceBody>(
      await h.request('POST', `/admin/v1/invoices/${id}/line-items`, { body: { description: 'Goodwill discount', amount_nanos: '-5250000000001' } }),
      201,
    );
    expect(adjusted).toMatchObject({ subtotal_nanos: '120249999999999', total_nanos: '120249999999999', total: '120.25' });
    expect(adjusted.line_items[2]).toMatchObject({ kind: 'manual', quantity: '1', unit_amount_nanos: null, amount_nanos: '-5250000000001' });

    const audit = await h.deps.db.auditLogEntry.findMany({ where: { entityId: id }, orderBy: { id: 'asc' } });
    expect(audit.map((a) => [a.action, a.actorType, a.actorId])).toEqual([
      ['invoice.line_item_added', 'admin', 'test-admin'],
      ['invoice.line_item_added', 'admin', 'test-admin'],
    ]);
    expect(audit[1]!.before).toMatchObject({ total_nanos: '125500000000000' });
    expect(audit[1]!.after).toMatchObject({ total_nanos: '120249999999999', kind: 'manual', amount_nanos: '-5250000000001', line_item_id: adjusted.line_items[2]!.id });
  });

  it('refuses an amount that is not quantity × unit amount, and an adjustment below zero', async () => {
    const id = await makeDraft(await makeCustomer(h.deps.db), [10n * UNIT]);
    const before = await snapshot(id);

    const mismatch = await expectJson<ErrorBody>(
      await h.request('POST', `/admin/v1/invoices/${id}/line-items`, {
        body: { description: 'Seats', amount_nanos: '2000000000000', quantity: '2.5', unit_amount_nanos: '1000000000000' },
      }),
      422,
    );
    expect(mismatch.error).toMatchObject({ code: 'line_amount_mismatch', details: { expected_amount_nanos: '2500000000000' } });

    const negative = await expectJson<ErrorBody>(
      await h.request('POST', `/admin/v1/invoices/${id}/line-items`, { body: { description: 'Too generous', amount_nanos: '-10000000000001' } }),
      422,
    );
    expect(negative.error.code).toBe('negative_invoice_total');
    expect(await snapshot(id)).toEqual(before);
  });

  it.each([
    ['a zero quantity', { description: 'x', amount_nanos: '0', quantity: '0' }],
    ['a negative quantity', { description: 'x', amount_nanos: '1', quantity: '-1' }],
    ['a quantity in exponent notation', { description: 'x', amount_nanos: '1', quantity: '1e3' }],
    ['a quantity of 100 digits', { description: 'x', amount_nanos: '1', quantity: '9'.repeat(100) }],
    ['a number instead of a money string', { description: 'x', amount_nanos: 5 }],
    ['an empty description', { description: '  ', amount_nanos: '1' }],
    ['an unknown field', { description: 'x', amount_nanos: '1', kind: 'tax' }],
  ])('is 400 for %s', async (_case, body) => {
    const id = await makeDraft(await makeCustomer(h.deps.db), [UNIT]);
    expect((await expectJson<ErrorBody>(await h.request('POST', `/admin/v1/invoices/${id}/line-items`, { body }), 400)).error.code).toBe('validation_failed');
  });

  it('is 404 for an unknown invoice', async () => {
    const res = await h.request('POST', `/admin/v1/invoices/${newId()}/line-items`, { body: { description: 'x', amount_nanos: '1' } });
    expect((await expectJson<ErrorBody>(res, 404)).error.code).toBe('invoice_not_found');
  });
});

describe('credit lines and credit notes on an invoice', () => {
  it('names them apart: credit_lines_nanos (= credits_applied_nanos) and credit_notes_nanos (= credited_nanos), with display strings', async () => {
    const id = await makeDraft(await makeCustomer(h.deps.db), [100n * UNIT]);
    await expectJson(await h.request('POST', `/admin/v1/invoices/${id}/credits`, { body: { amount_nanos: (30n * UNIT).toString(), description: 'Loyalty credit' } }), 201);
    const draft = await expectJson<InvoiceBody>(await h.request('GET', `/admin/v1/invoices/${id}`));
    expect(draft).toMatchObject({ credits_applied_nanos: (30n * UNIT).toString(), credit_lines_nanos: (30n * UNIT).toString(), credit_lines: '30.00', credit_notes_nanos: '0', credit_notes: '0.00' });
    await expectJson(await h.request('POST', `/admin/v1/invoices/${id}/finalize`));
    const note = { amount_nanos: (12_500_000_000_000n).toString(), reason: 'other' };
    await expectJson(await h.request('POST', `/admin/v1/invoices/${id}/credit-notes`, { body: note }), 201);
    const credited = await expectJson<InvoiceBody>(await h.request('GET', `/admin/v1/invoices/${id}`));
    expect(credited).toMatchObject({
      total_nanos: (70n * UNIT).toString(),
      credits_applied_nanos: (30n * UNIT).toString(),
      credit_lines_nanos: (30n * UNIT).toString(),
      credit_lines: '30.00',
      credited_nanos: '12500000000000',
      credit_notes_nanos: '12500000000000',
      credited: '12.50',
      credit_notes: '12.50',
    });
    const listed = await expectPage<InvoiceBody>(await h.request('GET', `/admin/v1/invoices?customer_id=${credited.customer_id}`));
    expect(listed.data[0]).toMatchObject({ credit_lines_nanos: (30n * UNIT).toString(), credit_notes_nanos: '12500000000000' });
  });
});

describe('POST /admin/v1/invoices/:id/credits', () => {
  it('applies credits as negative lines up to the invoice amount, never beyond', async () => {
    const customer = await makeCustomer(h.deps.db);
    const id = await makeDraft(customer, [100n * UNIT]);
    const credit = (amount: string) => h.request('POST', `/admin/v1/invoices/${id}/credits`, { body: { amount_nanos: amount, description: 'Loyalty credit' } });

    const first = await expectJson<InvoiceBody>(await credit('30000000000000'), 201);
    expect(first).toMatchObject({ subtotal_nanos: '100000000000000', credits_applied_nanos: '30000000000000', total_nanos: '70000000000000', total: '70.00' });
    expect(first.line_items[1]).toMatchObject({ kind: 'credit', description: 'Loyalty credit', amount_nanos: '-30000000000000', amount: '-30.00', is_tax: false });

    const exceeding = await expectJson<ErrorBody>(await credit('70000000000001'), 422);
    expect(exceeding.error).toMatchObject({ code: 'credit_exceeds_invoice', details: { available_nanos: '70000000000000' } });

    const rest = await expectJson<InvoiceBody>(await credit('70000000000000'), 201);
    expect(rest).toMatchObject({ credits_applied_nanos: '100000000000000', total_nanos: '0', total: '0.00' });
    const beyond = await expectJson<ErrorBody>(await credit('1'), 422);
    expect(beyond.error).toMatchObject({ code: 'credit_exceeds_invoice', details: { available_nanos: '0' } });

    const audit = await h.deps.db.auditLogEntry.findMany({ where: { entityId: id }, orderBy: { id: 'asc' } });
    expect(audit.map((a) => a.action)).toEqual(['invoice.credit_applied', 'invoice.credit_applied']);
    expect(audit[0]!.after).toMatchObject({ credits_applied_nanos: '30000000000000', amount_nanos: '-30000000000000' });
  });

  it.each([['0'], ['-1'], ['1.5']])('is 400 for the amount %s', async (amount) => {
    const id = await makeDraft(await makeCustomer(h.deps.db), [UNIT]);
    const res = await h.request('POST', `/admin/v1/invoices/${id}/credits`, { body: { amount_nanos: amount, description: 'x' } });
    expect((await expectJson<ErrorBody>(res, 400)).error.code).toBe('validation_failed');
  });
});

describe('Draft-only edits on a finalized invoice', () => {
  it('answers 409 and changes nothing', async () => {
    const id = await makeDraft(await makeCustomer(h.deps.db), [10n * UNIT]);
    await finalize(id);
    const before = await snapshot(id);

    const attempts: [string, Harness, unknown][] = [
      ['line-items', h, { description: 'Late fee', amount_nanos: '1000000000000' }],
      ['credits', h, { amount_nanos: '1000000000000', description: 'Credit' }],
      ['calculate-tax', taxed, undefined],
    ];
    for (const [operation, harness, body] of attempts) {
      const res = await harness.request('POST', `/admin/v1/invoices/${id}/${operation}`, body === undefined ? {} : { body });
      const error = await expectJson<ErrorBody>(res, 409);
      expect(error.error, operation).toMatchObject({ code: 'invalid_state_transition', details: { entity: 'invoice', from: 'Open' } });
    }
    expect(await snapshot(id)).toEqual(before);
  });
});

describe('POST /admin/v1/invoices/:id/calculate-tax', () => {
  it('adds one is_tax line per taxable line at the flat rate, exact, and repeats idempotently', async () => {
    const customer = await makeCustomer(taxed.deps.db);
    const id = await makeDraft(customer, [100n * UNIT, 33_333_333_333_333n]);
    await expectJson(await taxed.request('POST', `/admin/v1/invoices/${id}/credits`, { body: { amount_nanos: '10000000000000', description: 'Credit' } }), 201);

    const key = newId();
    const res = await taxed.request('POST', `/admin/v1/invoices/${id}/calculate-tax`, { headers: { 'idempotency-key': key } });
    const invoice = await expectJson<InvoiceBody>(res, 200);
    // 20% of 100.000000000000 = 20.000000000000; of 33.333333333333 = 6.6666666666666 → 6.666666666667 (HalfEven, per line)
    const taxLines = invoice.line_items.filter((l) => l.is_tax);
    expect(taxLines.map((l) => [l.kind, l.description, l.amount_nanos])).toEqual([
      ['tax', 'Tax 20% on Fee 1', '20000000000000'],
      ['tax', 'Tax 20% on Fee 2', '6666666666667'],
    ]);
    expect(invoice.line_items.filter((l) => !l.is_tax).map((l) => l.kind)).toEqual(['fee', 'fee', 'credit']);
    expect(invoice).toMatchObject({
      subtotal_nanos: '133333333333333',
      tax_nanos: '26666666666667',
      credits_applied_nanos: '10000000000000',
      total_nanos: '150000000000000',
      subtotal: '133.33',
      tax: '26.67',
      total: '150.00',
      tax_adapter: 'flat:2000',
    });

    const replay = await taxed.request('POST', `/admin/v1/invoices/${id}/calculate-tax`, { headers: { 'idempotency-key': key } });
    expect(replay.headers.get('x-idempotency-replayed')).toBe('true');
    expect(await expectJson<InvoiceBody>(replay, 200)).toEqual(invoice);

    const again = await expectJson<InvoiceBody>(await taxed.request('POST', `/admin/v1/invoices/${id}/calculate-tax`), 200);
    expect(again.line_items.filter((l) => l.is_tax).map((l) => l.amount_nanos)).toEqual(['20000000000000', '6666666666667']);
    expect(again.total_nanos).toBe('150000000000000');

    const audit = await taxed.deps.db.auditLogEntry.findMany({ where: { entityId: id, action: 'invoice.tax_calculated' }, orderBy: { id: 'asc' } });
    expect(audit).toHaveLength(2);
    expect(audit[0]!.before).toMatchObject({ tax_nanos: '0', tax_adapter: null });
    expect(audit[0]!.after).toMatchObject({ tax_nanos: '26666666666667', total_nanos: '150000000000000', tax_adapter: 'flat:2000' });
  });

  it('adds no tax for a B2B customer with a tax_id', async () => {
    const customer = await makeCustomer(taxed.deps.db);
    await taxed.deps.db.customer.update({ where: { id: customer }, data: { taxId: 'DE123456789' } });
    const id = await makeDraft(customer, [100n * UNIT]);
    const invoice = await expectJson<InvoiceBody>(await taxed.request('POST', `/admin/v1/invoices/${id}/calculate-tax`), 200);
    expect(invoice.line_items.filter((l) => l.is_tax)).toEqual([]);
    expect(invoice).toMatchObject({ tax_nanos: '0', total_nanos: '100000000000000', tax_adapter: 'flat:2000' });
  });

  it('adds no tax with the default zero-tax adapter', async () => {
    const id = await makeDraft(await makeCustomer(h.deps.db), [100n * UNIT]);
    const invoice = await expectJson<InvoiceBody>(await h.request('POST', `/admin/v1/invoices/${id}/calculate-tax`), 200);
    expect(invoice.line_items.map((l) => l.is_tax)).toEqual([false]);
    expect(invoice).toMatchObject({ tax_nanos: '0', total_nanos: '100000000000000', tax_adapter: 'none' });
  });

  it('is 404 for an unknown invoice', async () => {
    expect((await expectJson<ErrorBody>(await taxed.request('POST', `/admin/v1/invoices/${newId()}/calculate-tax`), 404)).error.code).toBe('invoice_not_found');
  });
});

describe('display rounding', () => {
  it('rounds once, HalfEven, to the minor unit at output; exact amounts stay exact', async () => {
    const customer = await makeCustomer(h.deps.db);
    const down = await expectJson<InvoiceBody>(await getInvoice(await makeDraft(customer, [10_005_000_000_000n])), 200);
    expect(down).toMatchObject({ total_nanos: '10005000000000', total: '10.00', subtotal: '10.00' });
    expect(down.line_items[0]!.amount).toBe('10.00');

    const upId = await makeDraft(customer, [10_015_000_000_000n]);
    const up = await expectJson<InvoiceBody>(await getInvoice(upId), 200);
    expect(up).toMatchObject({ total_nanos: '10015000000000', total: '10.02' });

    await finalize(upId);
    const open = await expectJson<InvoiceBody>(await getInvoice(upId), 200);
    expect(open).toMatchObject({ status: 'Open', amount_due_nanos: '10015000000000', amount_due: '10.02' });
  });

  it('rounds the sum, not the lines: two 0.005 lines make 0.01', async () => {
    const invoice = await expectJson<InvoiceBody>(await getInvoice(await makeDraft(await makeCustomer(h.deps.db), [5_000_000_000n, 5_000_000_000n])), 200);
    expect(invoice.line_items.map((l) => l.amount)).toEqual(['0.00', '0.00']);
    expect(invoice).toMatchObject({ total_nanos: '10000000000', total: '0.01' });
  });

  it('shows JPY without decimals', async () => {
    const customer = await makeCustomer(h.deps.db, { currency: 'JPY' });
    const even = await expectJson<InvoiceBody>(await getInvoice(await makeDraft(customer, [1_234_500_000_000_000n], 'JPY')), 200);
    expect(even).toMatchObject({ currency: 'JPY', total: '1234', subtotal: '1234', tax: '0', amount_due: '1234' });
    const odd = await expectJson<InvoiceBody>(await getInvoice(await makeDraft(customer, [1_235_500_000_000_000n], 'JPY')), 200);
    expect(odd.total).toBe('1236');
    expect(odd.line_items[0]!.amount).toBe('1236');
  });
});

describe('GET /v1/invoices/:id/explain', () => {
  interface Explained {
    lines: { line_id: string; kind: string; amount_nanos: string; plan_phases: unknown[]; steps: { step: string }[]; reconciles: boolean; rounding: string | null; tax: { rate_bps: number; taxable_line_id: string; taxable_amount_nanos: string; adapter: string | null; rule: string } | null }[];
    totals: { total_nanos: string; lines_sum_nanos: string };
    rounding: { stage: string; line_ids: string[] }[];
  }

  it('explains tax, credit and manual lines of a Draft, the lines summing to its total; another customer is 404', async () => {
    const customer = await makeCustomer(taxed.deps.db);
    const id = await makeDraft(customer, [100n * UNIT, 33_333_333_333_333n]);
    await expectJson(await taxed.request('POST', `/admin/v1/invoices/${id}/credits`, { body: { amount_nanos: '10000000000000', description: 'Credit' } }), 201);
    const invoice = await expectJson<InvoiceBody>(await taxed.request('POST', `/admin/v1/invoices/${id}/calculate-tax`), 200);

    const explained = await expectJson<Explained>(await taxed.request('GET', `/v1/invoices/${id}/explain`, { as: { customer } }));
    expect(explained.totals).toMatchObject({ total_nanos: invoice.total_nanos, lines_sum_nanos: invoice.total_nanos });
    expect(explained.lines.map((line) => line.kind)).toEqual(invoice.line_items.map((line) => line.kind));
    const fees = explained.lines.filter((line) => line.kind === 'fee');
    const taxes = explained.lines.filter((line) => line.kind === 'tax');
    expect(taxes.map((line) => line.tax)).toEqual([
      expect.objectContaining({ adapter: 'flat:2000', rate_bps: 2000, taxable_line_id: fees[0]!.line_id, taxable_amount_nanos: '100000000000000' }),
      expect.objectContaining({ adapter: 'flat:2000', rate_bps: 2000, taxable_line_id: fees[1]!.line_id, taxable_amount_nanos: '33333333333333' }),
    ]);
    expect(taxes[1]!.amount_nanos).toBe('6666666666667');
    for (const line of explained.lines) {
      expect(line.reconciles).toBe(true);
      expect(line.plan_phases).toEqual([]);
    }
    expect(explained.rounding.find((r) => r.stage === 'tax')!.line_ids.sort()).toEqual(taxes.map((line) => line.line_id).sort());

    await expectJson(await taxed.request('GET', `/v1/invoices/${id}/explain`, { as: { customer: await makeCustomer(taxed.deps.db) } }), 404);
    expect((await expectJson<ErrorBody>(await taxed.request('GET', `/v1/invoices/${newId()}/explain`), 404)).error.code).toBe('invoice_not_found');
  });
});
