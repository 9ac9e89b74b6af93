/**
 * Credit notes: money given back against a finalized (Open or Paid) invoice, in full or in parts.
 * The invoice itself stays immutable; only its `credited_nanos` moves (the immutability trigger
 * allows exactly that), and credit notes are append-only in the database.
 *
 * Issuing one is a single transaction: lock the invoice row (concurrent credit notes of one invoice
 * are serialised, so together they never exceed its total), check what remains, take the next
 * gapless CN-###### number, insert the note, raise credited_nanos, and write the outbox event and
 * the audit entry.
 */
import type { PageQuery } from '../../db/pages.js';
import { toDisplay } from '../../core/index.js';
import type { Db, DbClient } from '../../db/client.js';
import { findCreditNote, insertCreditNote, listCreditNoteRows, type CreditNoteRow } from '../../db/credit-notes.js';
import { findInvoice, invoiceClockTime, lockInvoice, nextDocumentNumber, updateInvoice } from '../../db/invoices.js';
import { fromDecimal } from '../../db/money.js';
import { newId } from '../../ids.js';
import { recordAudit, type Actor } from '../audit.js';
import { DomainError, invalidTransition, notFound, validation } from '../../errors.js';
import { enqueueEvent } from '../outbox.js';
import { toPage, type Page } from '../pagination.js';
import { postCreditNote } from '../ledger/postings.js';
import type { CreditNoteReason, CreditNoteView } from '../../schemas/invoicing.js';

export interface IssueCreditNoteInput {
  amountNanos: bigint;
  reason: CreditNoteReason;
  memo?: string | null;
  /** The credit invoice (negative total) whose credit this note applies, when there is one. */
  sourceInvoiceId?: string;
}

export interface IssueContext {
  actor: Actor;
  at: Date;
  requestId?: string;
}

export const creditNoteNumber = (n: bigint): string => `CN-${n.toString().padStart(6, '0')}`;

export function toCreditNoteView(note: CreditNoteRow): CreditNoteView {
  const amount = fromDecimal(note.amountNanos);
  return {
    id: note.id,
    number: note.number,
    invoice_id: note.invoiceId,
    customer_id: note.customerId,
    currency: note.currency,
    amount_nanos: amount.toString(),
    amount: toDisplay(amount, note.currency).text,
    // Only issueCreditNote writes credit notes, and it takes the reason from CREDIT_NOTE_REASONS.
    reason: note.reason as CreditNoteReason,
    memo: note.memo,
    source_invoice_id: note.sourceInvoiceId,
    created_at: note.createdAt.toISOString(),
  };
}

export async function issueCreditNote(db: Db, invoiceId: string, input: IssueCreditNoteInput, context: IssueContext): Promise<CreditNoteView> {
  if (input.amountNanos <= 0n) throw validation('amount_nanos', 'must be greater than zero');
  return db.$transaction(async (tx) => {
    // An invoice on a test clock lives on the clock's time.
    return creditInvoice(tx, invoiceId, input, { ...context, at: (await invoiceClockTime(tx, invoiceId)) ?? context.at });
  });
}

/** Issues a credit note inside the caller's transaction (see issueCreditNote). */
export async function creditInvoice(tx: DbClient, invoiceId: string, input: IssueCreditNoteInput, context: IssueContext): Promise<CreditNoteView> {
  {
    const invoice = await lockInvoice(tx, invoiceId);
    if (invoice.status !== 'Open' && invoice.status !== 'Paid') throw invalidTransition('invoice', invoice.status, 'issue a credit note for');
    const credited = fromDecimal(invoice.creditedNanos);
    const remaining = fromDecimal(invoice.totalNanos) - credited;
    if (input.amountNanos > remaining) {
      throw new DomainError('unprocessable', 'credit_note_exceeds_remaining', `at most ${remaining} raw units of the invoice remain to be credited`, {
        remaining_nanos: remaining.toString(),
      });
    }
    const number = creditNoteNumber(await nextDocumentNumber(tx, 'credit_note'));
    const note = await insertCreditNote(tx, {
      id: newId(),
      number,
      invoiceId,
      customerId: invoice.customerId,
      currency: invoice.currency,
      amountNanos: input.amountNanos,
      reason: input.reason,
      memo: input.memo ?? null,
      sourceInvoiceId: input.sourceInvoiceId ?? null,
      createdAt: context.at,
    });
    const creditedAfter = credited + input.amountNanos;
    await updateInvoice(tx, invoiceId, { creditedNanos: creditedAfter });
    await postCreditNote(
      tx,
      { id: note.id, number, invoiceId, customerId: note.customerId, currency: note.currency, amount: input.amountNanos },
      { total: fromDecimal(invoice.totalNanos), tax: fromDecimal(invoice.taxNanos), creditedBefore: credited },
      context.at,
    );
    // The invoice is the aggregate, so consumers see its credit notes in order with its other events.
    await enqueueEvent(
      tx,
      'credit_note.issued',
      invoiceId,
      {
        credit_note_id: note.id,
        invoice_id: invoiceId,
        customer_id: note.customerId,
        number,
        amount_nanos: input.amountNanos.toString(),
        currency: note.currency,
        reason: note.reason,
      },
      context.at,
    );
    await recordAudit(tx, {
      action: 'credit_note.issued',
      actor: context.actor,
      entityType: 'credit_note',
      entityId: note.id,
      customerId: note.customerId,
      before: { invoice_id: invoiceId, invoice_credited_nanos: credited.toString() },
      after: {
        invoice_id: invoiceId,
        number,
        amount_nanos: input.amountNanos.toString(),
        reason: note.reason,
        invoice_credited_nanos: creditedAfter.toString(),
      },
      ...(context.requestId ? { requestId: context.requestId } : {}),
    });
    return toCreditNoteView(note);
  }
}

/** The invoice's credit notes, newest first, paged like every list. */
export async function listCreditNotes(db: Db, invoiceId: string, page: PageQuery): Promise<CreditNoteRow[]> {
  if (!(await findInvoice(db, invoiceId))) throw notFound('invoice', invoiceId);
  return listCreditNoteRows(db, { invoiceId }, page);
}

export interface CreditNoteListQuery extends PageQuery {
  customer_id?: string | undefined;
  invoice_id?: string | undefined;
  currency?: string | undefined;
  reason?: string | undefined;
}

/** Every credit note, newest first, narrowed by the filters given. */
export async function listAllCreditNotes(db: Db, query: CreditNoteListQuery): Promise<Page<CreditNoteView>> {
  const { customer_id, invoice_id, currency, reason, ...page } = query;
  const rows = await listCreditNoteRows(db, { customerId: customer_id, invoiceId: invoice_id, currency, reason }, page);
  return toPage(rows, page.limit, toCreditNoteView);
}

export async function getCreditNote(db: Db, id: string): Promise<CreditNoteView> {
  const note = await findCreditNote(db, id);
  if (!note) throw notFound('credit_note', id);
  return toCreditNoteView(note);
}
