/**
 * Refunds of collected invoices. A refund goes back on one succeeded payment of a Paid invoice, in
 * whole minor units of its currency, never more than that payment collected minus what it already
 * gave back (a database check enforces it too), nor more than the invoice has left to credit. Each
 * refund is recorded with a credit note (where the money goes back on the invoice) and audit entries.
 *
 * Sequence (no processor call inside a transaction): reserve the amount on the payment with a
 * Pending refund row, call the processor (idempotency key refund:<refund id>), then record its answer
 * with the credit note, or release the reservation when it refused.
 */
import { minorUnitsToRaw, toMinorUnits } from '../../core/index.js';
import { addRefunded, findPayment, findRefund, insertRefund, succeededPayments, toRefundRecord, updateRefund, type DbClient, type Payment, type RefundRecord } from '../../db/payments.js';
import { fromDecimal } from '../../db/money.js';
import { DomainError, invalidTransition, notFound } from '../../errors.js';
import { ProcessorRejectedError, ProcessorUnavailableError, type RefundRequest } from '../../processor/index.js';
import { PROCESSOR_ACTOR, recordAudit, type Actor } from '../audit.js';
import type { CreditNoteReason } from '../../schemas/invoicing.js';
import { creditInvoice } from '../invoicing/credit-notes.js';
import { lockInvoice } from '../../db/invoices.js';
import { invoiceNow } from '../invoicing/invoices.js';
import type { PaymentDeps } from './deps.js';
import { postRefund } from '../ledger/postings.js';

export interface RefundInput {
  /** Default: everything the payment has left to give back. */
  amountNanos?: bigint;
  reason: CreditNoteReason;
  /** Default: the newest succeeded payment with money left. */
  paymentId?: string;
}

const PROCESSOR_REASON: Record<CreditNoteReason, RefundRequest['reason']> = {
  duplicate: 'duplicate',
  fraudulent: 'fraudulent',
  order_change: 'requested_by_customer',
  product_unsatisfactory: 'requested_by_customer',
  other: 'requested_by_customer',
};

const left = (payment: Payment): bigint => payment.amountMinor - payment.refundedMinor;

export async function refundInvoice(deps: PaymentDeps, invoiceId: string, input: RefundInput, context: { actor: Actor; requestId?: string }): Promise<RefundRecord> {
  const reserved = await deps.db.$transaction(async (tx) => {
    const invoice = await lockInvoice(tx, invoiceId);
    if (invoice.status !== 'Paid') throw invalidTransition('invoice', invoice.status, 'refund');
    const payments = await succeededPayments(tx, invoiceId);
    if (payments.length === 0) throw new DomainError('unprocessable', 'nothing_to_refund', `invoice ${invoiceId} was not collected through the processor`);
    const payment = input.paymentId ? payments.find((p) => p.id === input.paymentId) : payments.find((p) => left(p) > 0n);
    if (input.paymentId && !payment) throw notFound('payment', input.paymentId);
    if (!payment || !payment.processorPaymentIntentId) {
      throw new DomainError('unprocessable', 'nothing_to_refund', `invoice ${invoiceId} has no collected payment with money left to refund`);
    }
    const creditable = toMinorUnits(fromDecimal(invoice.totalNanos) - fromDecimal(invoice.creditedNanos), invoice.currency);
    const limit = left(payment) < creditable ? left(payment) : creditable;
    let minor = limit;
    if (input.amountNanos !== undefined) {
      minor = toMinorUnits(input.amountNanos, invoice.currency);
      if (minorUnitsToRaw(minor, invoice.currency) !== input.amountNanos) {
        throw new DomainError('unprocessable', 'refund_not_whole_minor_units', `a refund is a whole number of ${invoice.currency} minor units`, { field: 'amount_nanos' });
      }
    }
    if (minor <= 0n || minor > limit) {
      throw new DomainError('unprocessable', 'refund_exceeds_payment', 'the refund exceeds what the payment collected and has not given back yet', {
        refundable_nanos: minorUnitsToRaw(limit, invoice.currency).toString(),
      });
    }
    const amountNanos = minorUnitsToRaw(minor, invoice.currency);
    const refund = await insertRefund(tx, {
      paymentId: payment.id,
      invoiceId,
      amountNanos,
      amountMinor: minor,
      currency: invoice.currency,
      status: 'Pending',
      reason: input.reason,
      source: 'api',
      createdAt: await invoiceNow(tx, invoiceId, new Date()),
    });
    await addRefunded(tx, payment.id, amountNanos, minor);
    await recordAudit(tx, {
      action: 'refund.requested',
      actor: context.actor,
      entityType: 'refund',
      entityId: refund.id,
      customerId: invoice.customerId,
      after: { invoice_id: invoiceId, payment_id: payment.id, amount_nanos: amountNanos, reason: input.reason },
      ...(context.requestId ? { requestId: context.requestId } : {}),
    });
    return { refund, intentId: payment.processorPaymentIntentId };
  });

  const { refund } = reserved;
  let answer: Awaited<ReturnType<PaymentDeps['processor']['refund']>>;
  try {
    answer = await deps.processor.refund({
      paymentIntentId: reserved.intentId,
      amountMinor: refund.amountMinor,
      reason: PROCESSOR_REASON[input.reason],
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
  const recorded = await deps.db.$transaction(async (tx) => {
    const note = await creditInvoice(tx, invoiceId, { amountNanos: fromDecimal(refund.amountNanos), reason: input.reason, memo: `refund ${answer.id}` }, { actor: context.actor, at });
    const done = await updateRefund(tx, refund.id, { status: answer.outcome === 'succeeded' ? 'Succeeded' : 'Pending', processorRefundId: answer.id, creditNoteId: note.id });
    await postRefund(tx, { id: refund.id, invoiceId, customerId: note.customer_id, currency: note.currency, amount: fromDecimal(refund.amountNanos) }, at);
    await recordAudit(tx, {
      action: 'refund.issued',
      actor: context.actor,
      entityType: 'refund',
      entityId: refund.id,
      customerId: note.customer_id,
      before: { status: refund.status, amount_nanos: refund.amountNanos.toFixed(0) },
      after: { status: done.status, processor_refund_id: answer.id, credit_note_id: note.id, amount_nanos: done.amountNanos.toFixed(0) },
      ...(context.requestId ? { requestId: context.requestId } : {}),
    });
    return done;
  });
  return toRefundRecord(recorded);
}

async function failRefund(deps: PaymentDeps, refundId: string, paymentId: string, message: string, actor: Actor, requestId?: string): Promise<void> {
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
export async function syncProcessorRefunds(deps: PaymentDeps, paymentId: string, charge: Record<string, unknown>, at: Date): Promise<string> {
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
    const creditable = fromDecimal(invoice.totalNanos) - fromDecimal(invoice.creditedNanos);
    const noteAmount = amountNanos < creditable ? amountNanos : creditable;
    if ((invoice.status === 'Paid' || invoice.status === 'Open') && noteAmount > 0n) {
      const note = await creditInvoice(tx, invoice.id, { amountNanos: noteAmount, reason: 'other', memo: `refund made at the processor` }, { actor: PROCESSOR_ACTOR, at });
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
