/**
 * Credit notes over HTTP against finalized invoices built directly with the invoice service: full
 * and partial notes, the remaining-amount guard under concurrency, gapless CN numbers, the outbox
 * event and audit entry written with them, and append-only storage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import type { Actor } from '../../src/services/audit.js';
import { insertLines, recomputeTotals } from '../../src/db/invoices.js';
import { finalizeInvoice, markInvoicePaid, voidInvoice } from '../../src/services/invoicing/invoices.js';
import { applyTax, zeroTax } from '../../src/services/billing/tax.js';
import { makeCustomer } from '../support/fixtures.js';
import { createHarness, expectJson, expectPage, type Harness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const UNIT = 1_000_000_000_000n;
const ADMIN: Actor = { type: 'admin', id: 'test-admin' };

interface CreditNoteBody {
  id: string;
  number: string;
  invoice_id: string;
  customer_id: string;
  currency: string;
  amount_nanos: string;
  amount: string;
  reason: string;
  memo: string | null;
  created_at: string;
}

interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}


/** A Draft with one fee line of `amount` raw units. */
async function makeDraft(amount: bigint, currency = 'USD'): Promise<{ id: string; customerId: string }> {
  const customerId = await makeCustomer(h.deps.db, { currency });
  const id = newId();
  await h.deps.db.$transaction(async (tx) => {
    await tx.invoice.create({ data: { id, customerId, currency, billingReason: 'manual' } });
    await insertLines(tx, id, [{ kind: 'fee', description: 'Annual licence', amountNanos: amount }]);
    await recomputeTotals(tx, id);
  });
  return { id, customerId };
}

async function makeOpenInvoice(amount: bigint, currency = 'USD') {
  const draft = await makeDraft(amount, currency);
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
