/**
 * Credit note repository. Credit notes are append-only (the database refuses updates and deletes);
 * the credited invoice's `credited_nanos` moves through the invoice repository.
 */
import type { CreditNote } from '../generated/prisma/client.js';
import type { DbClient } from './client.js';
import { toDecimal } from './money.js';
import { NEWEST_FIRST, pageWhere, type PageQuery } from './pages.js';

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
  /** Where the amount goes; the parts sum to amountNanos (core allocateCreditNote). */
  allocation: { dueReduction: bigint; refund: bigint; credit: bigint; outOfBand: bigint };
  createdAt: Date;
}

export function insertCreditNote(tx: DbClient, note: NewCreditNote): Promise<CreditNoteRow> {
  const { allocation, ...rest } = note;
  return tx.creditNote.create({
    data: {
      ...rest,
      amountNanos: toDecimal(note.amountNanos),
      dueReductionNanos: toDecimal(allocation.dueReduction),
      refundAmountNanos: toDecimal(allocation.refund),
      creditAmountNanos: toDecimal(allocation.credit),
      outOfBandAmountNanos: toDecimal(allocation.outOfBand),
    },
  });
}

export function findCreditNote(tx: DbClient, id: string): Promise<CreditNoteRow | null> {
  return tx.creditNote.findUnique({ where: { id } });
}

export interface CreditNoteFilter {
  invoiceId?: string | undefined;
  customerId?: string | undefined;
  currency?: string | undefined;
  reason?: string | undefined;
}

/** One page of credit notes, newest first: up to `limit + 1` rows. */
export function listCreditNoteRows(tx: DbClient, filter: CreditNoteFilter, page: PageQuery): Promise<CreditNoteRow[]> {
  return tx.creditNote.findMany({
    where: {
      ...(filter.invoiceId ? { invoiceId: filter.invoiceId } : {}),
      ...(filter.customerId ? { customerId: filter.customerId } : {}),
      ...(filter.currency ? { currency: filter.currency } : {}),
      ...(filter.reason ? { reason: filter.reason } : {}),
      ...pageWhere(page),
    },
    orderBy: NEWEST_FIRST,
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
