/**
 * The double-entry ledger against the real database: what the database itself refuses (raw SQL),
 * the postings of the invoice flows (finalize, pay, credit note, void, recognition), and the ledger
 * API (accounts and balances as of a date, entries by account, date and source document, trial
 * balance, the 360 view's balances).
 */
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import type { Actor } from '../../src/services/audit.js';
import { insertLines, recomputeTotals, type NewLine } from '../../src/db/invoices.js';
import { finalizeInvoice, markInvoicePaid, voidInvoice } from '../../src/services/invoicing/invoices.js';
import { applyTax, flatRateTax, zeroTax, type TaxAdapter } from '../../src/services/billing/tax.js';
import { post, recognizeDeferredRevenue } from '../../src/services/ledger/postings.js';
import { ONE_UNIT as UNIT, paymentCollectedJournal } from '../../src/core/index.js';
import { makeCustomer } from '../support/fixtures.js';
import { expectJson, expectPage, useHarness } from '../support/harness.js';

const h = useHarness();

const ADMIN: Actor = { type: 'admin', id: 'test-admin' };

interface AccountBody {
  currency: string;
  kind: string;
  debits_nanos: string;
  credits_nanos: string;
  balance_nanos: string;
}
interface EntryBody {
  id: string;
  journal_kind: string;
  business_key: string;
  source_type: string;
  source_id: string;
  invoice_id: string | null;
  reverses_journal_id: string | null;
  account: string;
  side: 'debit' | 'credit';
  amount_nanos: string;
  effective_at: string;
}
interface TrialBody {
  currencies: { currency: string; total_debits_nanos: string; total_credits_nanos: string; difference_nanos: string; accounts: { kind: string }[] }[];
}

async function makeDraft(customerId: string, lines: NewLine[], currency = 'USD'): Promise<string> {
  const id = newId();
  await h.deps.db.$transaction(async (tx) => {
    await tx.invoice.create({ data: { id, customerId, currency, billingReason: 'manual' } });
    await insertLines(tx, id, lines);
    await recomputeTotals(tx, id);
  });
  return id;
}

const finalize = (id: string, at: Date, tax: TaxAdapter = zeroTax) => finalizeInvoice(h.deps.db, id, { actor: ADMIN, at, applyTax: (tx, invoice) => applyTax(tx, invoice, tax) });

async function balances(customerId: string, asOf?: string): Promise<Record<string, bigint>> {
  const body = await expectJson<{ accounts: AccountBody[] }>(await h.request('GET', `/admin/v1/customers/${customerId}/ledger/accounts${asOf ? `?as_of=${asOf}` : ''}`));
  return Object.fromEntries(body.accounts.map((a) => [a.kind, BigInt(a.balance_nanos)]));
}

const journalsOf = (invoiceId: string) => h.deps.db.ledgerJournal.findMany({ where: { invoiceId }, orderBy: { id: 'asc' } });

describe('the database guards the ledger (raw SQL)', () => {
  async function journalFixture() {
    const customerId = await makeCustomer(h.deps.db);
    const cash = newId();
    const revenue = newId();
    await h.deps.pool.query(
      `INSERT INTO ledger_accounts (id, customer_id, currency, kind) VALUES ($1, $3, 'USD', 'cash'), ($2, $3, 'USD', 'revenue')`,
      [cash, revenue, customerId],
    );
    return { customerId, cash, revenue };
  }

  async function writeJournal(customerId: string, entries: [string, 'debit' | 'credit', string][]) {
    const client = await h.deps.pool.connect();
    const journalId = newId();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO ledger_journals (id, customer_id, currency, kind, business_key, source_type, source_id, description, effective_at)
         VALUES ($1, $2, 'USD', 'payment_collected', $3, 'test', $1, 'raw', now())`,
        [journalId, customerId, `raw:${journalId}`],
      );
      for (const [account, side, amount] of entries) {
        await client.query(`INSERT INTO ledger_entries (id, journal_id, account_id, side, amount_nanos, effective_at) VALUES ($1, $2, $3, $4, $5, now())`, [
          newId(),
          journalId,
          account,
          side,
          amount,
        ]);
      }
      await client.query('COMMIT');
      return journalId;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  it('refuses, at commit, a journal whose debits differ from its credits, and one without entries', async () => {
    const { customerId, cash, revenue } = await journalFixture();
    await expect(writeJournal(customerId, [[cash, 'debit', '500'], [revenue, 'credit', '400']])).rejects.toThrow(/does not balance: debits 500 <> credits 400/);
    await expect(writeJournal(customerId, [])).rejects.toThrow(/has no entries/);
    expect(await h.deps.db.ledgerJournal.count({ where: { customerId } })).toBe(0);
    const ok = await writeJournal(customerId, [[cash, 'debit', '500'], [revenue, 'credit', '500']]);
    expect(await h.deps.db.ledgerEntry.count({ where: { journalId: ok } })).toBe(2);
  });

  it('refuses an entry on another customer\'s account and a non-positive amount', async () => {
    const mine = await journalFixture();
    const theirs = await journalFixture();
    await expect(writeJournal(mine.customerId, [[mine.cash, 'debit', '5'], [theirs.revenue, 'credit', '5']])).rejects.toThrow(/another customer or currency/);
    await expect(writeJournal(mine.customerId, [[mine.cash, 'debit', '0'], [mine.revenue, 'credit', '0']])).rejects.toThrow(/ledger_entries_amount_positive/);
  });

  it('refuses UPDATE and DELETE of entries and journals', async () => {
    const { customerId, cash, revenue } = await journalFixture();
    const journalId = await writeJournal(customerId, [[cash, 'debit', '7'], [revenue, 'credit', '7']]);
    await expect(h.deps.pool.query(`UPDATE ledger_entries SET amount_nanos = 8 WHERE journal_id = $1`, [journalId])).rejects.toThrow(/append-only/);
    await expect(h.deps.pool.query(`DELETE FROM ledger_entries WHERE journal_id = $1`, [journalId])).rejects.toThrow(/append-only/);
    await expect(h.deps.pool.query(`UPDATE ledger_journals SET description = 'edited' WHERE id = $1`, [journalId])).rejects.toThrow(/append-only/);
    await expect(h.deps.pool.query(`DELETE FROM ledger_journals WHERE id = $1`, [journalId])).rejects.toThrow(/append-only/);
    const amounts = await h.deps.pool.query(`SELECT amount_nanos::text AS a FROM ledger_entries WHERE journal_id = $1`, [journalId]);
    expect(amounts.rows.map((r: { a: string }) => r.a)).toEqual(['7', '7']);
  });

  it('writes one journal per business key, however often it is posted', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const sourceId = newId();
    const context = { customerId, currency: 'USD', sourceType: 'test', sourceId, invoiceId: null, description: 'twice', at: new Date() };
    const ids = await Promise.all([1, 2, 3].map(() => h.deps.db.$transaction((tx) => post(tx, paymentCollectedJournal(5n), context))));
    expect(new Set(ids).size).toBe(1);
    expect(await h.deps.db.ledgerJournal.count({ where: { sourceId } })).toBe(1);
  });
});

describe('postings of the invoice flows', () => {
  it('finalization posts AR, revenue and deferred revenue once; credit note, payment and recognition move them; the trial balance stays at zero', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const at = new Date('2026-03-01T01:00:00Z');
    const id = await makeDraft(customerId, [
      { kind: 'usage', description: 'February usage', amountNanos: 100n * UNIT, periodStart: new Date('2026-02-01T00:00:00Z'), periodEnd: new Date('2026-03-01T00:00:00Z') },
      { kind: 'fee', description: 'March fee in advance', amountNanos: 50n * UNIT, periodStart: new Date('2026-03-01T00:00:00Z'), periodEnd: new Date('2026-04-01T00:00:00Z') },
    ]);
    await finalize(id, at);
    const again = await finalize(id, at);
    expect(again.alreadyFinalized).toBe(true);
    expect((await journalsOf(id)).map((j) => j.businessKey)).toEqual([`invoice_finalized:${id}`]);
    expect(await balances(customerId)).toMatchObject({ accounts_receivable: 150n * UNIT, revenue: 100n * UNIT, deferred_revenue: 50n * UNIT });

    const note = await expectJson<{ id: string }>(await h.request('POST', `/admin/v1/invoices/${id}/credit-notes`, { body: { amount_nanos: (10n * UNIT).toString(), reason: 'other' } }), 201);
    await markInvoicePaid(h.deps.db, id, { actor: ADMIN, paidBy: { actorId: 'cust', actorName: null }, at: new Date('2026-03-05T00:00:00Z') });
    expect(await balances(customerId)).toMatchObject({ accounts_receivable: 0n, cash: 140n * UNIT, revenue: 90n * UNIT, deferred_revenue: 50n * UNIT });

    // The fee's service period ends on April 1st: recognized then, not before.
    expect(await h.deps.db.$transaction((tx) => recognizeDeferredRevenue(tx, customerId, new Date('2026-03-31T00:00:00Z')))).toBe(0);
    expect(await h.deps.db.$transaction((tx) => recognizeDeferredRevenue(tx, customerId, new Date('2026-04-01T00:00:00Z')))).toBe(1);
    expect(await h.deps.db.$transaction((tx) => recognizeDeferredRevenue(tx, customerId, new Date('2026-05-01T00:00:00Z')))).toBe(0);
    expect(await balances(customerId)).toMatchObject({ revenue: 140n * UNIT, deferred_revenue: 0n });
    // As of March 31st: the payment (March 5th) counts, the credit note (issued today, real time) and the recognition do not.
    expect(await balances(customerId, '2026-03-31T00:00:00Z')).toMatchObject({ revenue: 100n * UNIT, deferred_revenue: 50n * UNIT, cash: 140n * UNIT });
    expect(Object.values(await balances(customerId, '2026-03-01T00:00:00Z')).every((b) => b === 0n)).toBe(true);

    const trial = await expectJson<TrialBody>(await h.request('GET', `/admin/v1/ledger/trial-balance?customer_id=${customerId}`));
    expect(trial.currencies).toHaveLength(1);
    expect(trial.currencies[0]).toMatchObject({ currency: 'USD', total_debits_nanos: (350n * UNIT).toString(), difference_nanos: '0' });

    const byNote = await expectPage<EntryBody>(await h.request('GET', `/admin/v1/customers/${customerId}/ledger/entries?source_id=${note.id}`));
    expect(byNote.data.map((e) => [e.journal_kind, e.account, e.side, e.amount_nanos])).toEqual([
      ['credit_note', 'revenue', 'debit', (10n * UNIT).toString()],
      ['credit_note', 'accounts_receivable', 'credit', (10n * UNIT).toString()],
    ]);
    const cash = await expectPage<EntryBody>(await h.request('GET', `/admin/v1/customers/${customerId}/ledger/entries?account=cash`));
    expect(cash.data.map((e) => [e.journal_kind, e.side, e.amount_nanos])).toEqual([['payment_collected', 'debit', (140n * UNIT).toString()]]);
    const april = await expectPage<EntryBody>(await h.request('GET', `/admin/v1/customers/${customerId}/ledger/entries?from=2026-04-01T00:00:00Z&to=2026-04-02T00:00:00Z`));
    expect(april.data.map((e) => e.journal_kind)).toEqual(['revenue_recognition', 'revenue_recognition']);
    const paged = await expectPage<EntryBody>(await h.request('GET', `/admin/v1/customers/${customerId}/ledger/entries?source_id=${id}&limit=3`));
    expect(paged.has_more).toBe(true);
  });

  it('recognizes a fee billed in advance for a year month by month, prorated by the days of each month', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const id = await makeDraft(customerId, [
      { kind: 'fee', description: 'Annual fee in advance', amountNanos: 365n * UNIT, periodStart: new Date('2026-01-01T00:00:00Z'), periodEnd: new Date('2027-01-01T00:00:00Z') },
    ]);
    await finalize(id, new Date('2026-01-15T00:00:00Z'));
    const atFinalization = await balances(customerId);
    expect([atFinalization.revenue ?? 0n, atFinalization.deferred_revenue]).toEqual([0n, 365n * UNIT]);

    const recognize = (upTo: string) => h.deps.db.$transaction((tx) => recognizeDeferredRevenue(tx, customerId, new Date(upTo)));
    await recognize('2026-04-10T00:00:00Z');
    // January (31 days, the part before the invoice included), February (28) and March (31).
    expect(await balances(customerId)).toMatchObject({ revenue: 90n * UNIT, deferred_revenue: 275n * UNIT });
    expect(await balances(customerId, '2026-03-15T00:00:00Z')).toMatchObject({ revenue: 59n * UNIT, deferred_revenue: 306n * UNIT });
    await recognize('2026-04-10T00:00:00Z');
    expect(await balances(customerId)).toMatchObject({ revenue: 90n * UNIT });

    await recognize('2027-06-01T00:00:00Z');
    expect(await balances(customerId)).toMatchObject({ revenue: 365n * UNIT, deferred_revenue: 0n });
    const steps = await expectPage<EntryBody>(await h.request('GET', `/admin/v1/customers/${customerId}/ledger/entries?account=revenue&limit=50`));
    expect(steps.data).toHaveLength(12);
    expect(steps.data.map((e) => e.effective_at.slice(0, 10)).sort()).toEqual(
      ['2026-02-01', '2026-03-01', '2026-04-01', '2026-05-01', '2026-06-01', '2026-07-01', '2026-08-01', '2026-09-01', '2026-10-01', '2026-11-01', '2026-12-01', '2027-01-01'],
    );
    expect(await recognize('2027-06-01T00:00:00Z')).toBe(0);
  });

  it('a void reverses every journal of the invoice; AR equals the open invoices', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const at = new Date();
    const kept = await makeDraft(customerId, [{ kind: 'fee', description: 'kept', amountNanos: 30n * UNIT }]);
    const voided = await makeDraft(customerId, [{ kind: 'fee', description: 'voided', amountNanos: 70n * UNIT }]);
    await finalize(kept, at);
    await finalize(voided, at);
    await h.request('POST', `/admin/v1/invoices/${voided}/credit-notes`, { body: { amount_nanos: (5n * UNIT).toString(), reason: 'other' } });
    await voidInvoice(h.deps.db, voided, { actor: ADMIN, at });
    const journals = await journalsOf(voided);
    expect(journals.map((j) => j.kind)).toEqual(['invoice_finalized', 'credit_note', 'invoice_voided', 'invoice_voided']);
    expect(new Set(journals.filter((j) => j.reversesJournalId).map((j) => j.reversesJournalId))).toEqual(new Set(journals.slice(0, 2).map((j) => j.id)));
    expect(await balances(customerId)).toMatchObject({ accounts_receivable: 30n * UNIT, revenue: 30n * UNIT });
    const overview = await expectJson<{ ledger_balances: Record<string, string> }>(await h.request('GET', `/admin/v1/customers/${customerId}`));
    expect(overview.ledger_balances).toEqual({ accounts_receivable_nanos: (30n * UNIT).toString(), prepaid_credit_nanos: '0', deferred_revenue_nanos: '0', customer_credit_nanos: '0' });
  });

  it('a credit note on a taxed invoice reverses its share of the tax; a void reverses the rest: tax payable is the tax net of credit notes', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const at = new Date();
    // 10 % flat tax: 100.00 + 10.00 tax = 110.00, and 200.00 + 20.00 tax = 220.00.
    const tenPercent = flatRateTax(1000);
    const credited = await makeDraft(customerId, [{ kind: 'fee', description: 'credited', amountNanos: 100n * UNIT }]);
    const voided = await makeDraft(customerId, [{ kind: 'fee', description: 'voided', amountNanos: 200n * UNIT }]);
    await finalize(credited, at, tenPercent);
    await finalize(voided, at, tenPercent);
    expect(await balances(customerId)).toMatchObject({ accounts_receivable: 330n * UNIT, revenue: 300n * UNIT, tax_payable: 30n * UNIT });

    // 33.00 of 110.00 credited: tax payable keeps the tax of the 77.00 left, 10.00 × 77 / 110 = 7.00.
    const note = await expectJson<{ id: string }>(await h.request('POST', `/admin/v1/invoices/${credited}/credit-notes`, { body: { amount_nanos: (33n * UNIT).toString(), reason: 'other' } }), 201);
    expect(await balances(customerId)).toMatchObject({ accounts_receivable: 297n * UNIT, revenue: 270n * UNIT, tax_payable: 27n * UNIT });
    const byNote = await expectPage<EntryBody>(await h.request('GET', `/admin/v1/customers/${customerId}/ledger/entries?source_id=${note.id}`));
    expect(byNote.data.map((e) => [e.account, e.side, e.amount_nanos]).sort()).toEqual([
      ['accounts_receivable', 'credit', (33n * UNIT).toString()],
      ['revenue', 'debit', (30n * UNIT).toString()],
      ['tax_payable', 'debit', (3n * UNIT).toString()],
    ]);

    // The other invoice partly credited, then voided: its whole tax leaves tax payable.
    await expectJson(await h.request('POST', `/admin/v1/invoices/${voided}/credit-notes`, { body: { amount_nanos: (11n * UNIT).toString(), reason: 'other' } }), 201);
    expect((await balances(customerId)).tax_payable).toBe(26n * UNIT);
    await voidInvoice(h.deps.db, voided, { actor: ADMIN, at });
    expect(await balances(customerId)).toMatchObject({ accounts_receivable: 77n * UNIT, revenue: 70n * UNIT, tax_payable: 7n * UNIT });

    // The rest credited: nothing of the invoice's tax remains payable.
    await expectJson(await h.request('POST', `/admin/v1/invoices/${credited}/credit-notes`, { body: { amount_nanos: (77n * UNIT).toString(), reason: 'other' } }), 201);
    expect(await balances(customerId)).toMatchObject({ accounts_receivable: 0n, revenue: 0n, tax_payable: 0n });
    const trial = await expectJson<TrialBody>(await h.request('GET', `/admin/v1/ledger/trial-balance?customer_id=${customerId}`));
    expect(trial.currencies.map((c) => c.difference_nanos)).toEqual(['0']);
  });

  it('leaves an invoice finalized before the ledger existed outside it: its payment posts nothing', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const legacy = await makeDraft(customerId, [{ kind: 'fee', description: 'before the ledger', amountNanos: 12n * UNIT }]);
    // Finalized the way the engine did before postings existed: no journal.
    await h.deps.db.invoice.update({ where: { id: legacy }, data: { status: 'Open', invoiceNumber: `LEGACY-${legacy}`, finalizedAt: new Date() } });
    await markInvoicePaid(h.deps.db, legacy, { actor: ADMIN, paidBy: { actorId: 'cust', actorName: null }, at: new Date() });
    expect(await journalsOf(legacy)).toEqual([]);
    expect(await balances(customerId)).toEqual({});
  });

  it('the trial balance over every customer sums to zero per currency', async () => {
    const trial = await expectJson<TrialBody>(await h.request('GET', '/admin/v1/ledger/trial-balance'));
    expect(trial.currencies.length).toBeGreaterThan(0);
    for (const currency of trial.currencies) expect(currency.difference_nanos).toBe('0');
  });

  it('refuses unknown filters and a bad as_of with a 400', async () => {
    const customerId = await makeCustomer(h.deps.db);
    expect((await h.request('GET', `/admin/v1/customers/${customerId}/ledger/entries?account=bank`)).status).toBe(400);
    expect((await h.request('GET', `/admin/v1/customers/${customerId}/ledger/accounts?as_of=yesterday`)).status).toBe(400);
    expect((await h.request('GET', `/admin/v1/customers/${customerId}/ledger/accounts?page=2`)).status).toBe(400);
    expect((await h.request('GET', `/admin/v1/customers/${newId()}/ledger/accounts`)).status).toBe(404);
    expect((await h.request('GET', `/admin/v1/customers/${customerId}/ledger/accounts`, { as: { customer: customerId } })).status).toBe(403);
  });
});

