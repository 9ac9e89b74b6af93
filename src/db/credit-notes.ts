/**
 * Credit note repository. Credit notes are append-only (the database refuses updates and deletes);
 * the credited invoice's `credited_nanos` moves through the invoice repository.
 */
import type { CreditNote } from '../generated/prisma/client.js';
import type { DbClient } from './client.js';
import { toDecimal } from './money.js';

export type CreditNoteRow = CreditNote;

export interface NewCreditNote {
  id: string;
  number: string;
  invoiceId: string;
  customerId: string;
  currency: string;
  amountNanos: bigint;
  reason: string;
  memo: string | null;
  sourceInvoiceId: string | null;
  createdAt: Date;
}

export function insertCreditNote(tx: DbClient, note: NewCreditNote): Promise<CreditNoteRow> {
  return tx.creditNote.create({ data: { ...note, amountNanos: toDecimal(note.amountNanos) } });
}

export function findCreditNote(tx: DbClient, id: string): Promise<CreditNoteRow | null> {
  return tx.creditNote.findUnique({ where: { id } });
}

/** One page of an invoice's credit notes in issue order (UUIDv7 ids): up to `limit + 1` rows. */
export function listCreditNotesOf(tx: DbClient, invoiceId: string, page: { limit: number; starting_after?: string | undefined }): Promise<CreditNoteRow[]> {
  return tx.creditNote.findMany({
    where: { invoiceId, ...(page.starting_after ? { id: { gt: page.starting_after } } : {}) },
    orderBy: { id: 'asc' },
    take: page.limit + 1,
  });
}

/** Every credit note of an invoice, in issue order. */
export function creditNotesOf(tx: DbClient, invoiceId: string): Promise<CreditNoteRow[]> {
  return tx.creditNote.findMany({ where: { invoiceId }, orderBy: { id: 'asc' } });
}

/** The credit notes that apply a credit invoice's credit to other invoices, with those invoices' numbers. */
export function creditNotesFromSource(tx: DbClient, sourceInvoiceId: string): Promise<(CreditNoteRow & { invoice: { invoiceNumber: string | null } })[]> {
  return tx.creditNote.findMany({ where: { sourceInvoiceId }, orderBy: { id: 'asc' }, include: { invoice: { select: { invoiceNumber: true } } } });
}
