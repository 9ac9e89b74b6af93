/**
 * Refunds of collected invoices, each issued with its credit note. A refund goes back on one
 * succeeded payment of the invoice, in whole minor units of its currency, never more than that
 * payment collected minus what it already gave back (a database check enforces it too). The credit
 * note that records it allocates its amount (core allocateCreditNote): the refund part is the refund,
 * and a note asked for through the credit note route may also put a part on the customer's balance,
 * settle one out of band or reduce the amount due.
 *
 * Sequence (no processor call inside a transaction): lock the invoice, allocate the note within its
 * bounds and reserve it with a Pending refund row (the payment's refunded amount rises; the note's
 * whole allocation counts against the invoice's bounds while it is Pending), call the processor
 * (idempotency key refund:<refund id>), then issue the note as reserved with the processor's answer,
 * or release the reservation when it refused.
 */
import { minorUnitsToRaw, settledCreditable, toMinorUnits } from '../../core/index.js';
import { addRefunded, findPayment, findRefund, insertRefund, succeededPayments, toRefundRecord, updateRefund, type DbClient, type Payment, type RefundRecord } from '../../db/payments.js';
import { fromDecimal } from '../../db/money.js';
import { DomainError, invalidTransition, notFound, validation } from '../../errors.js';
import { ProcessorRejectedError, ProcessorUnavailableError, type RefundRequest } from '../../processor/index.js';
import { PROCESSOR_ACTOR, recordAudit, type Actor } from '../audit.js';
import type { CreditNoteReason, CreditNoteView } from '../../schemas/invoicing.js';
import { allocateOrRefuse, creditCapacityOf, creditInvoice, issueCreditNote } from '../invoicing/credit-notes.js';
import { lockInvoice } from '../../db/invoices.js';
import { invoiceNow } from '../invoicing/invoices.js';
import type { ServiceDeps } from '../deps.js';
import { postRefund } from '../ledger/postings.js';

export interface RefundInput {
  /** Default: everything the payment has left to give back (within what the invoice has left to credit). */
  amountNanos?: bigint;
  reason: CreditNoteReason;
  /** Default: the newest succeeded payment with money left. */
  paymentId?: string;
}

export interface AllocatedCreditNoteInput {
  amountNanos: bigint;
  reason: CreditNoteReason;
  memo?: string | null;
  refundAmountNanos?: bigint | undefined;
  creditAmountNanos?: bigint | undefined;
  outOfBandAmountNanos?: bigint | undefined;
}

interface Context {
  actor: Actor;
  requestId?: string;
}

const PROCESSOR_REASON: Record<CreditNoteReason, RefundRequest['reason']> = {
  duplicate: 'duplicate',
  fraudulent: 'fraudulent',
  order_change: 'requested_by_customer',
  product_unsatisfactory: 'requested_by_customer',
  other: 'requested_by_customer',
};

const left = (payment: Payment): bigint => payment.amountMinor - payment.refundedMinor;

/** Whole minor units in `raw`, rounded down (never a refund above the bound). */
const minorFloor = (raw: bigint, currency: string): bigint => (raw > 0n ? raw / minorUnitsToRaw(1n, currency) : 0n);

/**
 * A credit note (POST /admin/v1/invoices/:id/credit-notes): with a refund part it is issued with its
 * refund through the processor; otherwise in one transaction by the invoicing service.
 */
export async function issueAllocatedCreditNote(deps: ServiceDeps, invoiceId: string, input: AllocatedCreditNoteInput, context: Context & { at: Date }): Promise<CreditNoteView> {
  if (input.amountNanos <= 0n) throw validation('amount_nanos', 'must be greater than zero');
  if ((input.refundAmountNanos ?? 0n) === 0n) return issueCreditNote(deps.db, invoiceId, input, context);
  return (await refundWithCreditNote(deps, invoiceId, { kind: 'credit_note', note: input }, context)).note;
}

/** A refund (POST /admin/v1/invoices/:id/refunds): its credit note is the refund alone. */
export async function refundInvoice(deps: ServiceDeps, invoiceId: string, input: RefundInput, context: Context): Promise<RefundRecord> {
  return (await refundWithCreditNote(deps, invoiceId, { kind: 'refund', refund: input }, context)).refund;
}

type RefundAsk = { kind: 'refund'; refund: RefundInput } | { kind: 'credit_note'; note: AllocatedCreditNoteInput };

async function refundWithCreditNote(deps: ServiceDeps, invoiceId: string, ask: RefundAsk, context: Context): Promise<{ refund: RefundRecord; note: CreditNoteView }> {
  const reserved = await deps.db.$transaction(async (tx) => {
    const invoice = await lockInvoice(tx, invoiceId);
    const currency = invoice.currency;
    if (ask.kind === 'refund' && invoice.status !== 'Paid') throw invalidTransition('invoice', invoice.status, 'refund');
    if (ask.kind === 'credit_note' && invoice.status !== 'Open' && invoice.status !== 'Paid') throw invalidTransition('invoice', invoice.status, 'issue a credit note for');
    const payments = await succeededPayments(tx, invoiceId);
    if (ask.kind === 'refund' && payments.length === 0) throw new DomainError('unprocessable', 'nothing_to_refund', `invoice ${invoiceId} was not collected through the processor`);
    const paymentId = ask.kind === 'refund' ? ask.refund.paymentId : undefined;
    const payment = paymentId ? payments.find((p) => p.id === paymentId) : payments.find((p) => left(p) > 0n && p.processorPaymentIntentId);
    if (paymentId && !payment) throw notFound('payment', paymentId);
    if (ask.kind === 'refund') {
      if (!payment || !payment.processorPaymentIntentId) {
        throw new DomainError('unprocessable', 'nothing_to_refund', `invoice ${invoiceId} has no collected payment with money left to refund`);
      }
    }
    const capacity = await creditCapacityOf(tx, invoice);
    const refundableMinor = payment?.processorPaymentIntentId ? left(payment) : 0n;

    let note: AllocatedCreditNoteInput;
    if (ask.kind === 'refund') {
      const creditable = minorFloor(settledCreditable(capacity), currency);
      const limit = refundableMinor < creditable ? refundableMinor : creditable;
      let minor = limit;
      if (ask.refund.amountNanos !== undefined) {
        minor = toMinorUnits(ask.refund.amountNanos, currency);
        if (minorUnitsToRaw(minor, currency) !== ask.refund.amountNanos) {
          throw new DomainError('unprocessable', 'refund_not_whole_minor_units', `a refund is a whole number of ${currency} minor units`, { field: 'amount_nanos' });
        }
      }
      if (minor <= 0n || minor > limit) {
        throw new DomainError('unprocessable', 'refund_exceeds_payment', 'the refund exceeds what the payment collected and has not given back yet', {
          refundable_nanos: minorUnitsToRaw(limit, currency).toString(),
        });
      }
      const amount = minorUnitsToRaw(minor, currency);
      note = { amountNanos: amount, refundAmountNanos: amount, reason: ask.refund.reason };
    } else {
      note = ask.note;
      const refund = note.refundAmountNanos ?? 0n;
      if (minorUnitsToRaw(toMinorUnits(refund, currency), currency) !== refund) {
        throw new DomainError('unprocessable', 'refund_not_whole_minor_units', `a refund is a whole number of ${currency} minor units`, { field: 'refund_amount_nanos' });
      }
    }
    const allocation = allocateOrRefuse(note, { ...capacity, refundable: minorUnitsToRaw(refundableMinor, currency) });
    // allocateOrRefuse refused a refund above what the payment has left, so there is one.
    const refunding = payment!;
    const amountNanos = allocation.refund;
    const refund = await insertRefund(tx, {
      paymentId: refunding.id,
      invoiceId,
      amountNanos,
      amountMinor: toMinorUnits(amountNanos, currency),
      currency,
      status: 'Pending',
      reason: note.reason,
      source: 'api',
      creditNoteRequest: {
        amount_nanos: note.amountNanos.toString(),
        due_reduction_nanos: allocation.dueReduction.toString(),
        credit_amount_nanos: allocation.credit.toString(),
        out_of_band_amount_nanos: allocation.outOfBand.toString(),
        reason: note.reason,
        memo: note.memo ?? null,
      },
      createdAt: await invoiceNow(tx, invoiceId, new Date()),
    });
    await addRefunded(tx, refunding.id, amountNanos, refund.amountMinor);
    await recordAudit(tx, {
      action: 'refund.requested',
      actor: context.actor,
      entityType: 'refund',
      entityId: refund.id,
      customerId: invoice.customerId,
      after: { invoice_id: invoiceId, payment_id: refunding.id, amount_nanos: amountNanos, reason: note.reason, credit_note_amount_nanos: note.amountNanos.toString() },
      ...(context.requestId ? { requestId: context.requestId } : {}),
    });
    return { refund, intentId: refunding.processorPaymentIntentId!, note, allocation };
  });

  const { refund, note, allocation } = reserved;
  let answer: Awaited<ReturnType<ServiceDeps['processor']['refund']>>;
  try {
    answer = await deps.processor.refund({
      paymentIntentId: reserved.intentId,
      amountMinor: refund.amountMinor,
      reason: PROCESSOR_REASON[note.reason],
      metadata: { invoice_id: invoiceId, refund_id: refund.id },
      idempotencyKey: `refund:${refund.id}`,
    });
  } catch (err) {
    if (!(err instanceof ProcessorRejectedError || err instanceof ProcessorUnavailableError)) throw err;
    // Refused, or no answer: released, so the amount can be refunded again. A refund the processor
    // made despite a lost answer comes back as a charge.refunded notification and is recorded then.
    await failRefund(deps, refund.id, refund.paymentId, err.message, context.actor, context.requestId);
    if (err instanceof ProcessorUnavailableError) throw new DomainError('unavailable', 'payment_processor_unavailable', err.message);
    throw new DomainError('unprocessable', 'refund_rejected', `the processor refused the refund: ${err.message}`, { processor_code: err.code });
  }
  if (answer.outcome === 'failed') {
    await failRefund(deps, refund.id, refund.paymentId, answer.failureMessage ?? 'the refund failed', context.actor, context.requestId);
    throw new DomainError('unprocessable', 'refund_rejected', `the processor refused the refund: ${answer.failureMessage ?? 'failed'}`);
  }
  const at = await invoiceNow(deps.db, invoiceId, new Date());
  return deps.db.$transaction(async (tx) => {
    const issued = await creditInvoice(
      tx,
      invoiceId,
      {
        amountNanos: note.amountNanos,
        reason: note.reason,
        memo: note.memo ?? `refund ${answer.id}`,
        refundAmountNanos: allocation.refund,
        creditAmountNanos: allocation.credit,
        outOfBandAmountNanos: allocation.outOfBand,
        refundId: refund.id,
      },
      { actor: context.actor, at },
    );
    const done = await updateRefund(tx, refund.id, { status: answer.outcome === 'succeeded' ? 'Succeeded' : 'Pending', processorRefundId: answer.id, creditNoteId: issued.id });
    await postRefund(tx, { id: refund.id, invoiceId, customerId: issued.customer_id, currency: issued.currency, amount: fromDecimal(refund.amountNanos) }, at);
    await recordAudit(tx, {
      action: 'refund.issued',
      actor: context.actor,
      entityType: 'refund',
      entityId: refund.id,
      customerId: issued.customer_id,
      before: { status: refund.status, amount_nanos: refund.amountNanos.toFixed(0) },
      after: { status: done.status, processor_refund_id: answer.id, credit_note_id: issued.id, amount_nanos: done.amountNanos.toFixed(0) },
      ...(context.requestId ? { requestId: context.requestId } : {}),
    });
    return { refund: toRefundRecord(done), note: issued };
  });
}

async function failRefund(deps: ServiceDeps, refundId: string, paymentId: string, message: string, actor: Actor, requestId?: string): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const refund = await findRefund(tx, refundId);
    if (!refund || refund.status !== 'Pending') return;
    await updateRefund(tx, refundId, { status: 'Failed', failureMessage: message });
    await addRefunded(tx, paymentId, -fromDecimal(refund.amountNanos), -refund.amountMinor);
    await recordAudit(tx, {
      action: 'refund.failed',
      actor,
      entityType: 'refund',
      entityId: refundId,
      before: { status: refund.status },
      after: { status: 'Failed', failure_message: message },
      ...(requestId ? { requestId } : {}),
    });
  });
}

/**
 * charge.refunded: the processor's total refunded on the payment. What exceeds what the engine has
 * recorded was refunded at the processor directly (its dashboard): it is recorded as a refund with
 * its credit note. A notification about refunds the engine made itself changes nothing.
 */
export async function syncProcessorRefunds(deps: ServiceDeps, paymentId: string, charge: Record<string, unknown>, at: Date): Promise<string> {
  const refunded = charge.amount_refunded;
  if (typeof refunded !== 'number' || !Number.isSafeInteger(refunded) || refunded < 0) return 'ignored_malformed';
  return deps.db.$transaction(async (tx: DbClient) => {
    const payment = await findPayment(tx, paymentId);
    if (!payment) return 'ignored_unknown_object';
    const invoice = await lockInvoice(tx, payment.invoiceId);
    const current = (await findPayment(tx, paymentId))!;
    const extra = BigInt(refunded) - current.refundedMinor;
    if (extra <= 0n) return 'refunds_in_sync';
    const capped = extra > left(current) ? left(current) : extra;
    const amountNanos = minorUnitsToRaw(capped, current.currency);
    const refund = await insertRefund(tx, {
      paymentId,
      invoiceId: invoice.id,
      amountNanos,
      amountMinor: capped,
      currency: current.currency,
      status: 'Succeeded',
      reason: 'other',
      source: 'processor',
      processorRefundId: latestRefundId(charge),
      createdAt: at,
    });
    await addRefunded(tx, paymentId, amountNanos, capped);
    await postRefund(tx, { id: refund.id, invoiceId: invoice.id, customerId: invoice.customerId, currency: current.currency, amount: amountNanos }, at);
    // The note gives back what was settled and not given back yet (the refund left the payment).
    const creditable = settledCreditable(await creditCapacityOf(tx, invoice, refund.id));
    const noteAmount = amountNanos < creditable ? amountNanos : creditable;
    if ((invoice.status === 'Paid' || invoice.status === 'Open') && noteAmount > 0n) {
      const note = await creditInvoice(
        tx,
        invoice.id,
        { amountNanos: noteAmount, refundAmountNanos: noteAmount, refundId: refund.id, reason: 'other', memo: `refund made at the processor` },
        { actor: PROCESSOR_ACTOR, at },
      );
      await updateRefund(tx, refund.id, { creditNoteId: note.id });
    }
    await recordAudit(tx, {
      action: 'refund.issued',
      actor: PROCESSOR_ACTOR,
      entityType: 'refund',
      entityId: refund.id,
      customerId: invoice.customerId,
      after: { source: 'processor', payment_id: paymentId, amount_nanos: amountNanos },
    });
    return 'refund_recorded';
  });
}

function latestRefundId(charge: Record<string, unknown>): string | null {
  const refunds = charge.refunds;
  const data = refunds !== null && typeof refunds === 'object' ? (refunds as { data?: unknown }).data : null;
  const first = Array.isArray(data) ? (data[0] as { id?: unknown } | undefined) : undefined;
  return typeof first?.id === 'string' ? first.id : null;
}
