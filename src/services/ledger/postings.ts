/**
 * The ledger postings of the billing flows, each called inside the transaction of the state change
 * it records, so the ledger never disagrees with invoices, payments and wallets. Every journal has a
 * business key (`<kind>:<source id>`): posting the same event again writes nothing.
 *
 * | event | debit | credit |
 * |---|---|---|
 * | invoice finalized | accounts_receivable (total) | revenue (lines earned), deferred_revenue (lines whose period ends later), tax_payable |
 * | wallet drawdown at finalization | wallet, promotional_credit | accounts_receivable |
 * | payment collected | cash | accounts_receivable |
 * | credit note | revenue, tax_payable (its pro-rata share of the invoice's tax) | accounts_receivable (amount due reduction + refund), customer_credit (credit to the customer's balance), cash (out of band) |
 * | refund | accounts_receivable | cash |
 * | customer balance applied at finalization | customer_credit | accounts_receivable |
 * | void | every journal of the invoice reversed |
 * | wallet top-up (paid) | cash | wallet |
 * | promotional grant | promotional_expense | promotional_credit |
 * | promotional expiry | promotional_credit | promotional_expense |
 * | deferred revenue recognized | deferred_revenue | revenue |
 */
import {
  allocationTotal,
  creditNoteJournal,
  creditNoteTaxShare,
  invoiceFinalizedJournal,
  paymentCollectedJournal,
  recognitionJournal,
  recognitionSteps,
  refundJournal,
  reversalOf,
  splitInvoiceLines,
  type CreditAllocation,
  type JournalDraft,
} from '../../core/index.js';
import type { DbClient } from '../../db/client.js';
import { deferredLinesDue, insertJournal, journalExists, postingLinesOf, unreversedJournalsOfInvoice } from '../../db/ledger.js';
import { fromDecimal } from '../../db/money.js';
import type { InvoiceRow } from '../../db/invoices.js';

export interface PostingContext {
  customerId: string;
  currency: string;
  sourceType: string;
  sourceId: string;
  invoiceId: string | null;
  description: string;
  at: Date;
  reversesJournalId?: string;
}

/** Writes a journal (once per business key); an event that moves nothing writes none. Returns its id. */
export async function post(tx: DbClient, draft: JournalDraft, context: PostingContext, businessKey = `${draft.kind}:${context.sourceId}`): Promise<string | null> {
  if (draft.entries.length === 0) return null;
  const { id } = await insertJournal(tx, {
    customerId: context.customerId,
    currency: context.currency,
    kind: draft.kind,
    businessKey,
    sourceType: context.sourceType,
    sourceId: context.sourceId,
    invoiceId: context.invoiceId,
    reversesJournalId: context.reversesJournalId ?? null,
    description: context.description,
    effectiveAt: context.at,
    entries: draft.entries,
  });
  return id;
}

const invoiceContext = (invoice: InvoiceRow, description: string, at: Date): PostingContext => ({
  customerId: invoice.customerId,
  currency: invoice.currency,
  sourceType: 'invoice',
  sourceId: invoice.id,
  invoiceId: invoice.id,
  description,
  at,
});

/**
 * Invoice finalized. A credit invoice (negative total) posts nothing itself: its credit is applied
 * as credit notes on earlier invoices, and those post it.
 */
export async function postInvoiceFinalized(tx: DbClient, invoice: InvoiceRow, at: Date): Promise<void> {
  if (fromDecimal(invoice.totalNanos) < 0n) return;
  const split = splitInvoiceLines(await postingLinesOf(tx, invoice.id), at);
  await post(tx, invoiceFinalizedJournal(split), invoiceContext(invoice, `invoice ${invoice.invoiceNumber ?? invoice.id} finalized`, at));
}

/**
 * Whether the ledger holds the invoice's finalization. Invoices finalized before the ledger existed
 * stay outside it: their later payments, credit notes and refunds post nothing (they would leave
 * receivable the ledger never recorded).
 */
const ledgerHolds = async (tx: DbClient, invoiceId: string): Promise<boolean> => (await journalExists(tx, `invoice_finalized:${invoiceId}`)) !== null;

/** Payment collected (processor or recorded by hand) for what was left to pay. */
export async function postPaymentCollected(tx: DbClient, invoice: InvoiceRow, amount: bigint, at: Date): Promise<void> {
  if (amount <= 0n || !(await ledgerHolds(tx, invoice.id))) return;
  await post(tx, paymentCollectedJournal(amount), invoiceContext(invoice, `payment of invoice ${invoice.invoiceNumber ?? invoice.id}`, at));
}

/**
 * Credit note: revenue goes down by its amount, tax payable by its share of the invoice's tax (core
 * creditNoteTaxShare: the notes of an invoice reverse its whole tax once they credit its whole
 * total); the money goes where its allocation says (core creditNoteJournal). Returns the journal's
 * id (null for an invoice the ledger does not hold).
 */
export async function postCreditNote(
  tx: DbClient,
  note: { id: string; number: string; invoiceId: string; customerId: string; currency: string; allocation: CreditAllocation },
  invoice: { total: bigint; tax: bigint; creditedBefore: bigint },
  at: Date,
): Promise<string | null> {
  if (!(await ledgerHolds(tx, note.invoiceId))) return null;
  const tax = creditNoteTaxShare(invoice, invoice.creditedBefore, allocationTotal(note.allocation));
  return post(tx, creditNoteJournal(note.allocation, tax), {
    customerId: note.customerId,
    currency: note.currency,
    sourceType: 'credit_note',
    sourceId: note.id,
    invoiceId: note.invoiceId,
    description: `credit note ${note.number}`,
    at,
  });
}

export async function postRefund(tx: DbClient, refund: { id: string; invoiceId: string; customerId: string; currency: string; amount: bigint }, at: Date): Promise<void> {
  if (!(await ledgerHolds(tx, refund.invoiceId))) return;
  await post(tx, refundJournal(refund.amount), {
    customerId: refund.customerId,
    currency: refund.currency,
    sourceType: 'refund',
    sourceId: refund.id,
    invoiceId: refund.invoiceId,
    description: `refund of invoice ${refund.invoiceId}`,
    at,
  });
}

/** Void: reverses every journal of the invoice not reversed yet (finalization, drawdown, credit notes, recognition), newest first. */
export async function postInvoiceVoided(tx: DbClient, invoice: InvoiceRow, at: Date): Promise<void> {
  const journals = await unreversedJournalsOfInvoice(tx, invoice.id);
  for (const journal of journals.reverse()) {
    await post(tx, reversalOf(journal.entries, 'invoice_voided'), {
      ...invoiceContext(invoice, `void of invoice ${invoice.invoiceNumber ?? invoice.id}: reverses ${journal.kind}`, at),
      reversesJournalId: journal.id,
    }, `reversal:${journal.id}`);
  }
}

/**
 * Recognition: each deferred line of the customer's finalized invoices is earned ratably over its
 * service period (core recognitionSteps: at each UTC month start inside it, and at its end), up to
 * `upTo`. One journal per step (`revenue_recognition:<line>:<step>`), dated at the step, or at the
 * finalization for the part of the period served before the invoice existed; steps already posted
 * (or a whole-line recognition of an earlier version) are not posted again.
 */
export async function recognizeDeferredRevenue(tx: DbClient, customerId: string, upTo: Date): Promise<number> {
  let posted = 0;
  for (const line of await deferredLinesDue(tx, customerId, upTo)) {
    const amount = fromDecimal(line.amount);
    let recognized = fromDecimal(line.recognized);
    let cumulative = 0n;
    for (const step of recognitionSteps(amount, line.period_start.getTime(), line.period_end.getTime(), upTo.getTime())) {
      cumulative += step.amount;
      // What this step adds beyond what earlier journals of the line already carried.
      const due = cumulative - recognized;
      if (amount > 0n ? due <= 0n : due >= 0n) continue;
      const stepAt = new Date(step.atMs);
      const at = stepAt > line.finalized_at ? stepAt : line.finalized_at;
      const id = await post(
        tx,
        recognitionJournal(due),
        {
          customerId,
          currency: line.currency.trim(),
          sourceType: 'invoice_line',
          sourceId: line.line_id,
          invoiceId: line.invoice_id,
          description: `revenue of the service period to ${stepAt.toISOString()}`,
          at,
        },
        `revenue_recognition:${line.line_id}:${stepAt.toISOString()}`,
      );
      if (id !== null) posted += 1;
      recognized = cumulative;
    }
  }
  return posted;
}
