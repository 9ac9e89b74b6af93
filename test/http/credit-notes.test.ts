/**
 * Credit notes over HTTP against finalized invoices built directly with the invoice service: full
 * and partial notes, the remaining-amount guard under concurrency, gapless CN numbers, the outbox
 * event and audit entry written with them, and append-only storage.
 */
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import type { Actor } from '../../src/services/audit.js';
import { insertLines, recomputeTotals } from '../../src/db/invoices.js';
import { finalizeInvoice, markInvoicePaid, voidInvoice } from '../../src/services/invoicing/invoices.js';
import { applyTax, zeroTax } from '../../src/services/billing/tax.js';
import { dunningWorkflowId } from '../../workflows/dunning/messages.js';
import { processorEventWorkflowId } from '../../workflows/processor-event/messages.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { makeCustomer, makePlan } from '../support/fixtures.js';
import { expectJson, expectPage, terminatedAfterAll, useHarness } from '../support/harness.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { expectLedgerMatchesDocuments, ledgerBalances } from '../support/ledger.js';
import { attachCard, autoChargeOf, intentEvent, notify, paymentsOf } from '../support/payments.js';
import { pdfText } from '../support/documents.js';
import { postCreditNote } from '../../src/services/ledger/postings.js';

const h = useHarness();
const cleanup = terminatedAfterAll(h);

const ADMIN: Actor = { type: 'admin', id: 'test-admin' };

interface CreditNoteBody {
  id: string;
  number: string;
  credit_note_number: string;
  invoice_id: string;
  customer_id: string;
  currency: string;
  amount_nanos: string;
  amount: string;
  due_reduction_nanos: string;
  refund_amount_nanos: string;
  credit_amount_nanos: string;
  out_of_band_amount_nanos: string;
  reason: string;
  memo: string | null;
  created_at: string;
}

interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}


/** A Draft with one fee line of `amount` raw units (of a new customer unless one is given). */
async function makeDraft(amount: bigint, currency = 'USD', customer?: string): Promise<{ id: string; customerId: string }> {
  const customerId = customer ?? (await makeCustomer(h.deps.db, { currency }));
  const id = newId();
  await h.deps.db.$transaction(async (tx) => {
    await tx.invoice.create({ data: { id, customerId, currency, billingReason: 'manual' } });
    await insertLines(tx, id, [{ kind: 'fee', description: 'Annual licence', amountNanos: amount }]);
    await recomputeTotals(tx, id);
  });
  return { id, customerId };
}

async function makeOpenInvoice(amount: bigint, currency = 'USD', customer?: string) {
  const draft = await makeDraft(amount, currency, customer);
  await finalizeInvoice(h.deps.db, draft.id, { actor: ADMIN, at: new Date(), applyTax: (tx, invoice) => applyTax(tx, invoice, zeroTax) });
  return draft;
}

const issue = (invoiceId: string, body: Record<string, unknown>) => h.request('POST', `/admin/v1/invoices/${invoiceId}/credit-notes`, { body });
const sequenceOf = (number: string) => Number(number.slice('CN-'.length));
const credited = async (invoiceId: string) => (await h.deps.db.invoice.findUniqueOrThrow({ where: { id: invoiceId } })).creditedNanos.toFixed(0);
const counter = async () => (await h.deps.db.documentCounter.findUniqueOrThrow({ where: { name: 'credit_note' } })).value;

describe('POST /admin/v1/invoices/:id/credit-notes', () => {
  it('credits an Open invoice in full, with its event and audit entry in the same transaction', async () => {
    const { id, customerId } = await makeOpenInvoice(100n * UNIT);
    const note = await expectJson<CreditNoteBody>(await issue(id, { amount_nanos: '100000000000000', reason: 'duplicate', memo: 'Charged twice' }), 201);
    expect(note).toMatchObject({
      invoice_id: id,
      customer_id: customerId,
      currency: 'USD',
      amount_nanos: '100000000000000',
      amount: '100.00',
      reason: 'duplicate',
      memo: 'Charged twice',
    });
    expect(note.number).toMatch(/^CN-\d{6}$/);
    // Named like an invoice's invoice_number too; `number` stays (SPEC's field).
    expect(note.credit_note_number).toBe(note.number);
    expect((await expectJson<{ number: string; credit_note_number: string }>(await h.request('GET', `/admin/v1/credit-notes/${note.id}`))).credit_note_number).toBe(note.number);

    const invoice = await expectJson<{ status: string; credited_nanos: string; amount_due_nanos: string; amount_due: string }>(
      await h.request('GET', `/admin/v1/invoices/${id}`),
      200,
    );
    expect(invoice).toMatchObject({ status: 'Open', credited_nanos: '100000000000000', amount_due_nanos: '0', amount_due: '0.00' });

    const events = await h.deps.db.outboxEvent.findMany({ where: { aggregateId: id, type: 'credit_note.issued' } });
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({
      type: 'credit_note.issued',
      data: {
        credit_note_id: note.id,
        invoice_id: id,
        customer_id: customerId,
        number: note.number,
        credit_note_number: note.number,
        amount_nanos: '100000000000000',
        currency: 'USD',
        reason: 'duplicate',
      },
    });
    const audit = await h.deps.db.auditLogEntry.findMany({ where: { entityId: note.id } });
    expect(audit.map((a) => [a.action, a.entityType, a.actorType, a.customerId])).toEqual([['credit_note.issued', 'credit_note', 'admin', customerId]]);
    expect(audit[0]!.before).toEqual({ invoice_id: id, invoice_credited_nanos: '0' });
    expect(audit[0]!.after).toMatchObject({ number: note.number, amount_nanos: '100000000000000', invoice_credited_nanos: '100000000000000' });

    const more = await expectJson<ErrorBody>(await issue(id, { amount_nanos: '1', reason: 'other' }), 422);
    expect(more.error).toMatchObject({ code: 'credit_note_exceeds_remaining', details: { remaining_nanos: '0' } });
  });

  it('issues partial notes with consecutive numbers until nothing remains', async () => {
    const { id } = await makeOpenInvoice(100n * UNIT);
    const first = await expectJson<CreditNoteBody>(await issue(id, { amount_nanos: '30000000000000', reason: 'order_change' }), 201);
    const second = await expectJson<CreditNoteBody>(await issue(id, { amount_nanos: '50000000000000', reason: 'product_unsatisfactory' }), 201);
    expect(sequenceOf(second.number)).toBe(sequenceOf(first.number) + 1);
    expect(first.memo).toBeNull();

    const numberBefore = await counter();
    const third = await expectJson<ErrorBody>(await issue(id, { amount_nanos: '20000000000001', reason: 'other' }), 422);
    expect(third.error).toMatchObject({ code: 'credit_note_exceeds_remaining', details: { remaining_nanos: '20000000000000' } });
    expect(await counter()).toBe(numberBefore);
    expect(await credited(id)).toBe('80000000000000');

    const last = await expectJson<CreditNoteBody>(await issue(id, { amount_nanos: '20000000000000', reason: 'other' }), 201);
    expect(sequenceOf(last.number)).toBe(sequenceOf(second.number) + 1);
    expect(await credited(id)).toBe('100000000000000');

    const listed = await expectPage<CreditNoteBody>(await h.request('GET', `/admin/v1/invoices/${id}/credit-notes`), 200);
    expect(listed.data).toEqual([last, second, first]);
    expect(listed.has_more).toBe(false);
    const paged = await expectPage<CreditNoteBody>(
      await h.request('GET', `/admin/v1/invoices/${id}/credit-notes?limit=2`),
      200,
    );
    expect(paged).toEqual({ data: [last, second], has_more: true, next_cursor: second.id });
    expect(await expectJson<CreditNoteBody>(await h.request('GET', `/admin/v1/credit-notes/${second.id}`), 200)).toEqual(second);
  });

  it('credits a Paid invoice', async () => {
    const { id } = await makeOpenInvoice(40n * UNIT);
    await markInvoicePaid(h.deps.db, id, { actor: ADMIN, paidBy: { actorId: 'ops-1', actorName: 'Ops' }, at: new Date() });
    const note = await expectJson<CreditNoteBody>(await issue(id, { amount_nanos: '15000000000000', reason: 'product_unsatisfactory' }), 201);
    expect(note.amount).toBe('15.00');
    expect(await credited(id)).toBe('15000000000000');
  });

  it('refuses Draft and Void invoices without consuming a number', async () => {
    const draft = await makeDraft(10n * UNIT);
    const voided = await makeOpenInvoice(10n * UNIT);
    await voidInvoice(h.deps.db, voided.id, { actor: ADMIN, at: new Date() });
    const numberBefore = await counter();
    for (const [invoiceId, from] of [
      [draft.id, 'Draft'],
      [voided.id, 'Void'],
    ] as const) {
      const error = await expectJson<ErrorBody>(await issue(invoiceId, { amount_nanos: '1000000000000', reason: 'other' }), 409);
      expect(error.error).toMatchObject({ code: 'invalid_state_transition', details: { entity: 'invoice', from } });
      expect(await h.deps.db.creditNote.count({ where: { invoiceId } })).toBe(0);
      expect(await credited(invoiceId)).toBe('0');
    }
    expect(await counter()).toBe(numberBefore);
  });

  it('serialises concurrent notes: of 12 notes of 10% each exactly 10 succeed, numbered without gaps', async () => {
    const { id } = await makeOpenInvoice(100n * UNIT);
    const responses = await Promise.all(Array.from({ length: 12 }, () => issue(id, { amount_nanos: '10000000000000', reason: 'other' })));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 422)).toHaveLength(2);

    const notes = await h.deps.db.creditNote.findMany({ where: { invoiceId: id } });
    expect(notes).toHaveLength(10);
    const sequence = notes.map((n) => sequenceOf(n.number)).sort((a, b) => a - b);
    expect(sequence).toEqual(Array.from({ length: 10 }, (_, i) => sequence[0]! + i));
    expect(await credited(id)).toBe('100000000000000');
    expect(notes.reduce((sum, n) => sum + BigInt(n.amountNanos.toFixed(0)), 0n)).toBe(100n * UNIT);
    expect(await h.deps.db.outboxEvent.count({ where: { aggregateId: id, type: 'credit_note.issued' } })).toBe(10);

    const eleventh = await expectJson<ErrorBody>(await issue(id, { amount_nanos: '10000000000000', reason: 'other' }), 422);
    expect(eleventh.error).toMatchObject({ code: 'credit_note_exceeds_remaining', details: { remaining_nanos: '0' } });
  });

  it('shows amounts in the currency of the invoice', async () => {
    const { id } = await makeOpenInvoice(1_000n * UNIT, 'JPY');
    const note = await expectJson<CreditNoteBody>(await issue(id, { amount_nanos: '250500000000000', reason: 'other' }), 201);
    expect(note).toMatchObject({ currency: 'JPY', amount: '250' });
  });

  it.each([
    ['a zero amount', { amount_nanos: '0', reason: 'other' }],
    ['a negative amount', { amount_nanos: '-1000000000000', reason: 'other' }],
    ['an unknown reason', { amount_nanos: '1000000000000', reason: 'changed_mind' }],
    ['a missing reason', { amount_nanos: '1000000000000' }],
    ['an unknown field', { amount_nanos: '1000000000000', reason: 'other', number: 'CN-000001' }],
  ])('is 400 for %s', async (_case, body) => {
    const { id } = await makeOpenInvoice(10n * UNIT);
    expect((await expectJson<ErrorBody>(await issue(id, body), 400)).error.code).toBe('validation_failed');
    expect(await h.deps.db.creditNote.count({ where: { invoiceId: id } })).toBe(0);
  });

  it('is 404 for an unknown invoice or credit note, 403 for a customer token', async () => {
    expect((await expectJson<ErrorBody>(await issue(newId(), { amount_nanos: '1', reason: 'other' }), 404)).error.code).toBe('invoice_not_found');
    expect((await expectJson<ErrorBody>(await h.request('GET', `/admin/v1/invoices/${newId()}/credit-notes`), 404)).error.code).toBe('invoice_not_found');
    expect((await expectJson<ErrorBody>(await h.request('GET', `/admin/v1/credit-notes/${newId()}`), 404)).error.code).toBe('credit_note_not_found');
    const { id, customerId } = await makeOpenInvoice(10n * UNIT);
    const res = await h.request('POST', `/admin/v1/invoices/${id}/credit-notes`, { body: { amount_nanos: '1', reason: 'other' }, as: { customer: customerId } });
    expect(res.status).toBe(403);
  });
});

describe('credit note storage', () => {
  it('is append-only: the database refuses UPDATE and DELETE', async () => {
    const { id } = await makeOpenInvoice(10n * UNIT);
    const note = await expectJson<CreditNoteBody>(await issue(id, { amount_nanos: '5000000000000', reason: 'other' }), 201);
    await expect(h.deps.db.$executeRaw`UPDATE credit_notes SET amount_nanos = 1 WHERE id = ${note.id}::uuid`).rejects.toThrow(/append-only/);
    await expect(h.deps.db.$executeRaw`DELETE FROM credit_notes WHERE id = ${note.id}::uuid`).rejects.toThrow(/append-only/);
    expect((await h.deps.db.creditNote.findUniqueOrThrow({ where: { id: note.id } })).amountNanos.toFixed(0)).toBe('5000000000000');
  });

  it('leaves the credited invoice itself immutable', async () => {
    const { id } = await makeOpenInvoice(10n * UNIT);
    await expectJson(await issue(id, { amount_nanos: '5000000000000', reason: 'other' }), 201);
    await expect(h.deps.db.$executeRaw`UPDATE invoices SET total_nanos = 5000000000000 WHERE id = ${id}::uuid`).rejects.toThrow(/immutable/);
  });
});

// ── Allocation ─────────────────────────────────────────────────────────────────────────────

interface InvoiceBody {
  id: string;
  status: string;
  total_nanos: string;
  credited_nanos: string;
  due_reduced_nanos: string;
  wallet_applied_nanos: string;
  customer_balance_applied_nanos: string;
  amount_due_nanos: string;
}

interface AgingBody {
  rows: { customer_id: string; currency: string; current_nanos: string; days_1_30_nanos: string; total_nanos: string; open_invoices: number }[];
}

const cents = (n: bigint) => (n * UNIT) / 100n;
const invoiceOf = async (id: string) => expectJson<InvoiceBody>(await h.request('GET', `/admin/v1/invoices/${id}`), 200);
const overviewOf = async (customerId: string) =>
  expectJson<{ credit_balances: { currency: string; balance_nanos: string }[]; ledger_balances: { accounts_receivable_nanos: string; customer_credit_nanos: string } }>(
    await h.request('GET', `/admin/v1/customers/${customerId}`),
    200,
  );
const agingOf = async (customerId: string) => expectJson<AgingBody>(await h.request('GET', `/admin/v1/reports/ar-aging?customer_id=${customerId}`), 200);
const allocationOf = (note: CreditNoteBody) => [note.due_reduction_nanos, note.refund_amount_nanos, note.credit_amount_nanos, note.out_of_band_amount_nanos];
const paid = (id: string) => markInvoicePaid(h.deps.db, id, { actor: ADMIN, paidBy: { actorId: 'ops-1', actorName: 'Ops' }, at: new Date() });

/**
 * The issue's invoice: 119.50, of which 50.00 came from the wallet at finalization and 10.00 was
 * credited off the amount due (59.50 still due).
 */
async function issueScenario() {
  const customerId = await makeCustomer(h.deps.db);
  await expectJson(await h.request('POST', `/admin/v1/customers/${customerId}/wallets/USD/grants`, { body: { amount_nanos: cents(5000n).toString() } }), 201);
  const { id } = await makeOpenInvoice(cents(11950n), 'USD', customerId);
  const first = await expectJson<CreditNoteBody>(await issue(id, { amount_nanos: cents(1000n).toString(), reason: 'other' }), 201);
  expect(allocationOf(first)).toEqual([cents(1000n).toString(), '0', '0', '0']);
  expect(await invoiceOf(id)).toMatchObject({ wallet_applied_nanos: cents(5000n).toString(), credited_nanos: cents(1000n).toString(), amount_due_nanos: cents(5950n).toString() });
  expect(await invoiceOf(id)).toMatchObject({ wallet_applied: '50.00', credited: '10.00', amount_due: '59.50' });
  return { id, customerId };
}

describe('credit note allocation', () => {
  it('the issue: 100.00 on 119.50 with 50.00 from the wallet and 10.00 credited is refused beyond the amount due; an allocation that fits is accepted and the receivable stays ≥ 0', async () => {
    const { id, customerId } = await issueScenario();
    const numberBefore = await counter();

    // 10.00 to the balance leaves 90.00 to reduce an amount due of 59.50.
    const overDue = await expectJson<ErrorBody>(await issue(id, { amount_nanos: cents(10000n).toString(), credit_amount_nanos: cents(1000n).toString(), reason: 'other' }), 422);
    expect(overDue.error).toMatchObject({
      code: 'credit_note_exceeds_amount_due',
      details: { field: 'amount_nanos', bound: 'amount_due', amount_due_nanos: cents(5950n).toString(), max_nanos: cents(6950n).toString() },
    });
    // No processor payment: nothing to refund.
    const overRefund = await expectJson<ErrorBody>(await issue(id, { amount_nanos: cents(10000n).toString(), refund_amount_nanos: cents(4050n).toString(), reason: 'other' }), 422);
    expect(overRefund.error).toMatchObject({ code: 'credit_note_exceeds_refundable', details: { field: 'refund_amount_nanos', refundable_nanos: '0' } });
    // The wallet settled 50.00: no more than that goes back to the customer.
    const overSettled = await expectJson<ErrorBody>(await issue(id, { amount_nanos: cents(10000n).toString(), credit_amount_nanos: cents(5001n).toString(), reason: 'other' }), 422);
    expect(overSettled.error).toMatchObject({ code: 'credit_note_exceeds_settled', details: { field: 'credit_amount_nanos', settled_creditable_nanos: cents(5000n).toString() } });
    const overRemaining = await expectJson<ErrorBody>(await issue(id, { amount_nanos: cents(10951n).toString(), reason: 'other' }), 422);
    expect(overRemaining.error).toMatchObject({ code: 'credit_note_exceeds_remaining', details: { field: 'amount_nanos', remaining_nanos: cents(10950n).toString() } });
    expect(await counter()).toBe(numberBefore);
    expect(await invoiceOf(id)).toMatchObject({ credited_nanos: cents(1000n).toString(), amount_due_nanos: cents(5950n).toString() });

    // The default: 59.50 off the amount due, the 40.50 the wallet had settled onto the customer's balance.
    const note = await expectJson<CreditNoteBody>(await issue(id, { amount_nanos: cents(10000n).toString(), reason: 'other' }), 201);
    expect(allocationOf(note)).toEqual([cents(5950n).toString(), '0', cents(4050n).toString(), '0']);
    expect(await expectJson<CreditNoteBody>(await h.request('GET', `/admin/v1/credit-notes/${note.id}`), 200)).toEqual(note);
    expect(await invoiceOf(id)).toMatchObject({ status: 'Open', credited_nanos: cents(11000n).toString(), due_reduced_nanos: cents(6950n).toString(), amount_due_nanos: '0' });

    const overview = await overviewOf(customerId);
    expect(overview.ledger_balances).toMatchObject({ accounts_receivable_nanos: '0', customer_credit_nanos: cents(4050n).toString() });
    expect(overview.credit_balances).toEqual([{ currency: 'USD', balance_nanos: cents(4050n).toString() }]);
    const balance = await expectLedgerMatchesDocuments(h, customerId);
    expect(balance('accounts_receivable')).toBe(0n);
    expect((await agingOf(customerId)).rows).toEqual([]);
  });

  it('puts a credit note on a Paid invoice on the customer balance, applied automatically to the next invoice in that currency only', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const { id } = await makeOpenInvoice(40n * UNIT, 'USD', customerId);
    await paid(id);
    const note = await expectJson<CreditNoteBody>(await issue(id, { amount_nanos: (15n * UNIT).toString(), reason: 'product_unsatisfactory' }), 201);
    expect(allocationOf(note)).toEqual(['0', '0', (15n * UNIT).toString(), '0']);
    // Nothing was due: reducing it is refused.
    const overDue = await expectJson<ErrorBody>(await issue(id, { amount_nanos: (5n * UNIT).toString(), credit_amount_nanos: '0', reason: 'other' }), 422);
    expect(overDue.error).toMatchObject({ code: 'credit_note_exceeds_amount_due', details: { field: 'amount_nanos', amount_due_nanos: '0' } });
    expect((await overviewOf(customerId)).credit_balances).toEqual([{ currency: 'USD', balance_nanos: (15n * UNIT).toString() }]);

    // Another currency does not touch it.
    const eur = await makeOpenInvoice(30n * UNIT, 'EUR', customerId);
    expect(await invoiceOf(eur.id)).toMatchObject({ customer_balance_applied_nanos: '0', amount_due_nanos: (30n * UNIT).toString() });

    // The next USD invoice consumes it at finalization.
    const next = await makeOpenInvoice(10n * UNIT, 'USD', customerId);
    expect(await invoiceOf(next.id)).toMatchObject({ status: 'Paid', customer_balance_applied_nanos: (10n * UNIT).toString(), amount_due_nanos: '0' });
    const after = await makeOpenInvoice(20n * UNIT, 'USD', customerId);
    expect(await invoiceOf(after.id)).toMatchObject({ status: 'Open', customer_balance_applied_nanos: (5n * UNIT).toString(), amount_due_nanos: (15n * UNIT).toString() });
    expect((await overviewOf(customerId)).credit_balances).toEqual([{ currency: 'USD', balance_nanos: '0' }]);
    const history = await h.deps.db.customerBalanceTransaction.findMany({ where: { balance: { customerId } }, orderBy: { id: 'asc' } });
    expect(history.map((t) => [t.kind, t.amountNanos.toFixed(0), t.balanceAfterNanos.toFixed(0)])).toEqual([
      ['credit_note', (15n * UNIT).toString(), (15n * UNIT).toString()],
      ['applied', (-10n * UNIT).toString(), (5n * UNIT).toString()],
      ['applied', (-5n * UNIT).toString(), '0'],
    ]);
    const balance = await expectLedgerMatchesDocuments(h, customerId);
    expect(balance('customer_credit')).toBe(0n);

    // The invoice document adds up: total, customer balance applied, amount due.
    const pdf = await h.request('GET', `/v1/invoices/${after.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(await pdfText(new Uint8Array(await pdf.arrayBuffer()))).toContain('Total $20.00 Customer credit balance applied -$5.00 Amount due $15.00');

    // Voiding the invoice that consumed 5.00 gives it back.
    await voidInvoice(h.deps.db, after.id, { actor: ADMIN, at: new Date() });
    expect((await overviewOf(customerId)).credit_balances).toEqual([{ currency: 'USD', balance_nanos: (5n * UNIT).toString() }]);
    expect((await ledgerBalances(h, customerId))('customer_credit')).toBe(5n * UNIT);
  });

  it("a void takes back what the invoice's credit notes put on the balance, and is refused once the customer spent it", async () => {
    const customerId = await makeCustomer(h.deps.db);
    await expectJson(await h.request('POST', `/admin/v1/customers/${customerId}/wallets/USD/grants`, { body: { amount_nanos: (50n * UNIT).toString() } }), 201);
    const first = await makeOpenInvoice(100n * UNIT, 'USD', customerId);
    // 50.00 due after the wallet: 80.00 credits 50.00 off the amount due and 30.00 onto the balance.
    const note = await expectJson<CreditNoteBody>(await issue(first.id, { amount_nanos: (80n * UNIT).toString(), reason: 'other' }), 201);
    expect(allocationOf(note)).toEqual([(50n * UNIT).toString(), '0', (30n * UNIT).toString(), '0']);
    const spender = await makeOpenInvoice(20n * UNIT, 'USD', customerId);
    expect(await invoiceOf(spender.id)).toMatchObject({ status: 'Paid', customer_balance_applied_nanos: (20n * UNIT).toString() });
    await expect(voidInvoice(h.deps.db, first.id, { actor: ADMIN, at: new Date() })).rejects.toMatchObject({ code: 'customer_credit_spent' });
    expect(await invoiceOf(first.id)).toMatchObject({ status: 'Open' });

    // Another customer, credit not spent: the void takes it back with the rest.
    const other = await makeCustomer(h.deps.db);
    await expectJson(await h.request('POST', `/admin/v1/customers/${other}/wallets/USD/grants`, { body: { amount_nanos: (50n * UNIT).toString() } }), 201);
    const invoice = await makeOpenInvoice(100n * UNIT, 'USD', other);
    await expectJson(await issue(invoice.id, { amount_nanos: (80n * UNIT).toString(), reason: 'other' }), 201);
    await voidInvoice(h.deps.db, invoice.id, { actor: ADMIN, at: new Date() });
    expect((await overviewOf(other)).credit_balances).toEqual([{ currency: 'USD', balance_nanos: '0' }]);
    const balance = await expectLedgerMatchesDocuments(h, other);
    expect(balance('customer_credit')).toBe(0n);
    expect(balance('promotional_credit')).toBe(50n * UNIT);
  });

  it('records an out-of-band part and refuses parts that exceed the amount', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const { id } = await makeOpenInvoice(40n * UNIT, 'USD', customerId);
    await paid(id);
    const tooMuch = await expectJson<ErrorBody>(
      await issue(id, { amount_nanos: (10n * UNIT).toString(), out_of_band_amount_nanos: (6n * UNIT).toString(), credit_amount_nanos: (5n * UNIT).toString(), reason: 'other' }),
      422,
    );
    expect(tooMuch.error).toMatchObject({ code: 'credit_note_allocation_exceeds_amount', details: { field: 'out_of_band_amount_nanos' } });
    const note = await expectJson<CreditNoteBody>(
      await issue(id, { amount_nanos: (10n * UNIT).toString(), out_of_band_amount_nanos: (6n * UNIT).toString(), credit_amount_nanos: (4n * UNIT).toString(), reason: 'other' }),
      201,
    );
    expect(allocationOf(note)).toEqual(['0', '0', (4n * UNIT).toString(), (6n * UNIT).toString()]);
    const balance = await expectLedgerMatchesDocuments(h, customerId);
    // Cash: 40.00 collected, 6.00 given back outside the service.
    expect(balance('cash')).toBe(34n * UNIT);
    expect(balance('customer_credit')).toBe(4n * UNIT);
    const negative = await expectJson<ErrorBody>(await issue(id, { amount_nanos: UNIT.toString(), credit_amount_nanos: '-1', reason: 'other' }), 400);
    expect(negative.error.code).toBe('validation_failed');
  });

  it('refunds a Paid invoice through the processor (stripe-mock) with the note, within what the payment collected', async () => {
    const customerId = await makeCustomer(h.deps.db);
    await attachCard(h, customerId);
    const sub = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: await makePlan(h.deps.db), currency: 'USD' } }), 201);
    cleanup.push(subscriptionWorkflowId(sub.id));
    const draft = await expectJson<{ id: string }>(await h.request('POST', `/admin/v1/subscriptions/${sub.id}/bill`), 201);
    cleanup.push(dunningWorkflowId(draft.id));
    const open = await expectJson<InvoiceBody>(await h.request('POST', `/admin/v1/invoices/${draft.id}/finalize`));
    // Finalize answers Open; the workflow charges right after.
    const charge = await autoChargeOf(h, draft.id);
    const receipt = await expectJson<{ event_id: string }>(await notify(h, intentEvent('payment_intent.succeeded', charge!)));
    expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(receipt.event_id)).result()).toBe('payment_succeeded');
    const total = BigInt(open.total_nanos);
    expect(await invoiceOf(draft.id)).toMatchObject({ status: 'Paid' });

    const notWhole = await expectJson<ErrorBody>(await issue(draft.id, { amount_nanos: '1', refund_amount_nanos: '1', reason: 'other' }), 422);
    expect(notWhole.error).toMatchObject({ code: 'refund_not_whole_minor_units', details: { field: 'refund_amount_nanos' } });
    const tooMuch = await expectJson<ErrorBody>(await issue(draft.id, { amount_nanos: (total + UNIT).toString(), refund_amount_nanos: (total + UNIT).toString(), reason: 'other' }), 422);
    expect(tooMuch.error.code).toBe('credit_note_exceeds_remaining');

    const note = await expectJson<CreditNoteBody>(
      await issue(draft.id, { amount_nanos: (15n * UNIT).toString(), refund_amount_nanos: (10n * UNIT).toString(), credit_amount_nanos: (5n * UNIT).toString(), reason: 'product_unsatisfactory' }),
      201,
    );
    expect(allocationOf(note)).toEqual(['0', (10n * UNIT).toString(), (5n * UNIT).toString(), '0']);
    const [payment] = await paymentsOf(h, draft.id);
    expect(payment).toMatchObject({ refunded_nanos: (10n * UNIT).toString() });
    expect(payment!.refunds).toMatchObject([{ amount_nanos: (10n * UNIT).toString(), status: 'Succeeded', credit_note_id: note.id, source: 'api' }]);

    // What the payment has left: total − 10.00, but only total − 15.00 was settled and not given back.
    const overRefund = await expectJson<ErrorBody>(await issue(draft.id, { amount_nanos: (total - 10n * UNIT).toString(), refund_amount_nanos: (total - 10n * UNIT).toString(), reason: 'other' }), 422);
    expect(overRefund.error).toMatchObject({ code: 'credit_note_exceeds_remaining', details: { remaining_nanos: (total - 15n * UNIT).toString() } });

    const balance = await expectLedgerMatchesDocuments(h, customerId);
    expect(balance('accounts_receivable')).toBe(0n);
    expect(balance('cash')).toBe(total - 10n * UNIT);
    expect(balance('customer_credit')).toBe(5n * UNIT);
  });
});

describe('AR aging with credit notes', () => {
  it('counts only the invoices still owed, and no amount is negative', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const a = await makeOpenInvoice(30n * UNIT, 'USD', customerId);
    const b = await makeOpenInvoice(20n * UNIT, 'USD', customerId);
    const settled = await makeOpenInvoice(40n * UNIT, 'USD', customerId);
    await paid(settled.id);
    // A credit note on the Paid invoice goes to the balance; one on an Open invoice reduces its due.
    await expectJson(await issue(settled.id, { amount_nanos: (25n * UNIT).toString(), reason: 'other' }), 201);
    await expectJson(await issue(b.id, { amount_nanos: (5n * UNIT).toString(), reason: 'other' }), 201);
    // An Open invoice credited in full is no longer owed.
    const credited = await makeOpenInvoice(12n * UNIT, 'USD', customerId);
    await expectJson(await issue(credited.id, { amount_nanos: (12n * UNIT).toString(), reason: 'other' }), 201);

    const aging = await agingOf(customerId);
    expect(aging.rows).toHaveLength(1);
    expect(aging.rows[0]).toMatchObject({ currency: 'USD', open_invoices: 2, current_nanos: (45n * UNIT).toString(), total_nanos: (45n * UNIT).toString() });
    expect((await overviewOf(customerId)).ledger_balances.accounts_receivable_nanos).toBe((45n * UNIT).toString());
    expect(a.id).not.toBe(b.id);
    await expectLedgerMatchesDocuments(h, customerId);
  });

  it('neither ages nor counts a receivable a credit note issued before allocation left negative', async () => {
    const customerId = await makeCustomer(h.deps.db);
    await makeOpenInvoice(30n * UNIT, 'USD', customerId);
    await makeOpenInvoice(20n * UNIT, 'USD', customerId);
    const settled = await makeOpenInvoice(40n * UNIT, 'USD', customerId);
    await paid(settled.id);
    // Before allocation, every note credited accounts receivable, also on a Paid invoice.
    await h.deps.db.$transaction((tx) =>
      postCreditNote(
        tx,
        { id: newId(), number: 'CN-LEGACY', invoiceId: settled.id, customerId, currency: 'USD', allocation: { dueReduction: 25n * UNIT, refund: 0n, credit: 0n, outOfBand: 0n } },
        { total: 40n * UNIT, tax: 0n, creditedBefore: 0n },
        new Date(),
      ),
    );
    const aging = await agingOf(customerId);
    expect(aging.rows).toHaveLength(1);
    expect(aging.rows[0]).toMatchObject({ open_invoices: 2, current_nanos: (50n * UNIT).toString(), total_nanos: (50n * UNIT).toString() });
  });
});
