/**
 * Credit notes: money given back against a finalized (Open or Paid) invoice, in full or in parts.
 * The invoice itself stays immutable; only its `credited_nanos` and `due_reduced_nanos` move (the
 * immutability triggers allow exactly that), and credit notes are append-only in the database.
 *
 * A note's amount is allocated, never stranded (core allocateCreditNote): reduction of the amount
 * due, refund through the processor (src/services/payments/credit-notes.ts makes it), credit to the
 * customer's balance (spent by its next invoices in the currency), out of band. Each part is bounded
 * and a request beyond a bound is refused with the bound named.
 *
 * Issuing one is a single transaction: lock the invoice row (concurrent credit notes of one invoice
 * are serialised, so together they never exceed its bounds), allocate within what remains (net of
 * notes reserved by refunds waiting for the processor), take the next gapless CN-###### number,
 * insert the note, raise credited_nanos and due_reduced_nanos, post the journal, put the credit on
 * the customer's balance, and write the outbox event and the audit entry.
 */
import type { PageQuery } from '../../db/pages.js';
import { allocateCreditNote, toDisplay, type AllocationViolation, type CreditAllocation, type CreditCapacity } from '../../core/index.js';
import type { Db, DbClient } from '../../db/client.js';
import { findCreditNote, insertCreditNote, listCreditNoteRows, type CreditNoteRow } from '../../db/credit-notes.js';
import { amountDueOf, findInvoice, invoiceClockTime, lockInvoice, nextDocumentNumber, updateInvoice, type InvoiceRow } from '../../db/invoices.js';
import { fromDecimal } from '../../db/money.js';
import { pendingCreditNoteReservations, succeededPayments } from '../../db/payments.js';
import { newId } from '../../ids.js';
import { recordAudit, type Actor } from '../audit.js';
import { DomainError, invalidTransition, notFound, validation } from '../../errors.js';
import { enqueueEvent } from '../outbox.js';
import { toPage, type Page } from '../pagination.js';
import { postCreditNote } from '../ledger/postings.js';
import { creditCustomerBalance } from '../wallets/customer-balance.js';
import type { CreditNoteReason, CreditNoteView } from '../../schemas/invoicing.js';

export interface IssueCreditNoteInput {
  amountNanos: bigint;
  reason: CreditNoteReason;
  memo?: string | null;
  /** The credit invoice (negative total) whose credit this note applies, when there is one. */
  sourceInvoiceId?: string;
  /** The parts the caller named (undefined: not named; see core allocateCreditNote for the default). */
  refundAmountNanos?: bigint | undefined;
  creditAmountNanos?: bigint | undefined;
  outOfBandAmountNanos?: bigint | undefined;
  /**
   * The refund whose money this note's refund part is: reserved for it (a Pending refund) or already
   * made at the processor. Its refund bound was checked when the money was reserved; this module
   * never moves money itself, so a refund part without it is refused.
   */
  refundId?: string;
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
    credit_note_number: note.number,
    invoice_id: note.invoiceId,
    customer_id: note.customerId,
    currency: note.currency,
    amount_nanos: amount.toString(),
    amount: toDisplay(amount, note.currency).text,
    due_reduction_nanos: note.dueReductionNanos.toFixed(0),
    refund_amount_nanos: note.refundAmountNanos.toFixed(0),
    credit_amount_nanos: note.creditAmountNanos.toFixed(0),
    out_of_band_amount_nanos: note.outOfBandAmountNanos.toFixed(0),
    // Only issueCreditNote writes credit notes, and it takes the reason from CREDIT_NOTE_REASONS.
    reason: note.reason as CreditNoteReason,
    memo: note.memo,
    source_invoice_id: note.sourceInvoiceId,
    created_at: note.createdAt.toISOString(),
  };
}

/**
 * What a credit note on the locked invoice may take: what is left to credit, what is still due (0
 * unless Open) and what processor payments collected and have not refunded, each net of the notes
 * reserved by refunds waiting for the processor (but `exceptRefundId`'s own).
 */
export async function creditCapacityOf(tx: DbClient, invoice: InvoiceRow, exceptRefundId?: string): Promise<CreditCapacity> {
  const reservations = (await pendingCreditNoteReservations(tx, invoice.id)).filter((r) => r.refundId !== exceptRefundId);
  const reservedAmount = reservations.reduce((sum, r) => sum + BigInt(r.request.amount_nanos), 0n);
  const reservedDue = reservations.reduce((sum, r) => sum + BigInt(r.request.due_reduction_nanos), 0n);
  const refundable = (await succeededPayments(tx, invoice.id)).reduce((sum, p) => sum + fromDecimal(p.amountNanos) - fromDecimal(p.refundedNanos), 0n);
  const due = invoice.status === 'Open' ? amountDueOf(invoice) : 0n;
  return {
    remaining: fromDecimal(invoice.totalNanos) - fromDecimal(invoice.creditedNanos) - reservedAmount,
    amountDue: due - reservedDue,
    refundable,
  };
}

/** The 422 of a refused allocation: its code names the bound; details name the field, the bound's figure and max_nanos. */
function allocationRefused(violation: AllocationViolation, capacity: CreditCapacity): DomainError {
  const remaining = capacity.remaining > 0n ? capacity.remaining : 0n;
  const due = capacity.amountDue > 0n ? (capacity.amountDue < remaining ? capacity.amountDue : remaining) : 0n;
  const message = `${violation.field}: ${violation.message}`;
  const details = { field: violation.field, bound: violation.bound, max_nanos: violation.limit.toString() };
  switch (violation.bound) {
    case 'remaining':
      return new DomainError('unprocessable', 'credit_note_exceeds_remaining', message, { ...details, remaining_nanos: remaining.toString() });
    case 'amount_due':
      return new DomainError('unprocessable', 'credit_note_exceeds_amount_due', message, { ...details, amount_due_nanos: due.toString() });
    case 'refundable':
      return new DomainError('unprocessable', 'credit_note_exceeds_refundable', message, { ...details, refundable_nanos: violation.limit.toString() });
    case 'settled':
      return new DomainError('unprocessable', 'credit_note_exceeds_settled', message, { ...details, settled_creditable_nanos: (remaining - due).toString() });
    case 'parts_within_amount':
      return new DomainError('unprocessable', 'credit_note_allocation_exceeds_amount', message, details);
  }
}

/** Allocates the note within the capacity, or throws the 422 naming the bound and the field. */
export function allocateOrRefuse(input: Pick<IssueCreditNoteInput, 'amountNanos' | 'refundAmountNanos' | 'creditAmountNanos' | 'outOfBandAmountNanos'>, capacity: CreditCapacity): CreditAllocation {
  const result = allocateCreditNote(
    { amount: input.amountNanos, refund: input.refundAmountNanos, credit: input.creditAmountNanos, outOfBand: input.outOfBandAmountNanos },
    capacity,
  );
  if (result.ok) return result.allocation;
  throw allocationRefused(result.violation, capacity);
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
  const invoice = await lockInvoice(tx, invoiceId);
  if (invoice.status !== 'Open' && invoice.status !== 'Paid') throw invalidTransition('invoice', invoice.status, 'issue a credit note for');
  const capacity = await creditCapacityOf(tx, invoice, input.refundId);
  const refund = input.refundAmountNanos ?? 0n;
  if (refund > 0n && input.refundId === undefined) throw new Error('a credit note refunds only through the payments service, which reserves the refund first');
  // The refund's money is reserved or gone already: its own bound was checked then.
  const allocation = allocateOrRefuse(input, input.refundId === undefined ? capacity : { ...capacity, refundable: capacity.refundable > refund ? capacity.refundable : refund });
  const credited = fromDecimal(invoice.creditedNanos);
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
    allocation,
    createdAt: context.at,
  });
  const creditedAfter = credited + input.amountNanos;
  const dueReducedAfter = fromDecimal(invoice.dueReducedNanos) + allocation.dueReduction;
  await updateInvoice(tx, invoiceId, { creditedNanos: creditedAfter, dueReducedNanos: dueReducedAfter });
  const journalId = await postCreditNote(
    tx,
    { id: note.id, number, invoiceId, customerId: note.customerId, currency: note.currency, allocation },
    { total: fromDecimal(invoice.totalNanos), tax: fromDecimal(invoice.taxNanos), creditedBefore: credited },
    context.at,
  );
  const balanceAfter =
    allocation.credit > 0n
      ? await creditCustomerBalance(
          tx,
          { customerId: note.customerId, currency: note.currency, amount: allocation.credit, creditNoteId: note.id, number, invoiceId, journalId },
          context.at,
        )
      : null;
  const view = toCreditNoteView(note);
  const allocationFields = {
    due_reduction_nanos: view.due_reduction_nanos,
    refund_amount_nanos: view.refund_amount_nanos,
    credit_amount_nanos: view.credit_amount_nanos,
    out_of_band_amount_nanos: view.out_of_band_amount_nanos,
  };
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
      credit_note_number: number,
      amount_nanos: input.amountNanos.toString(),
      ...allocationFields,
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
      ...allocationFields,
      reason: note.reason,
      invoice_credited_nanos: creditedAfter.toString(),
      ...(balanceAfter !== null ? { customer_balance_nanos: balanceAfter.toString() } : {}),
    },
    ...(context.requestId ? { requestId: context.requestId } : {}),
  });
  return view;
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
