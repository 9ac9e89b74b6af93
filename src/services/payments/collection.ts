/**
 * Collecting invoices through the payment processor (SPEC §3, §4 rules 3-4).
 *
 * Every attempt is a payment row written before the processor is called (with an idempotency key
 * made of the invoice id and the attempt number, so a retried activity never charges twice), then
 * the processor's answer is recorded:
 * - succeeded → the payment Succeeded with `payment.succeeded`, the invoice Paid with `invoice.paid`,
 *   and its dunning schedule, if any, Resolved (its subscriptions back to Active);
 * - refused (a declined card, `requires_payment_method`) → the payment Failed with `payment.failed`;
 *   a first failure starts the invoice's dunning schedule (its subscriptions Active → PastDue with
 *   `subscription.past_due`), a failed retry advances the schedule (Exhausted after the last one);
 * - `requires_capture` → authorised, waiting for a capture;
 * - anything else (processing, requires_action) → pending until a processor notification decides.
 * These functions run inside the invoice's workflow (its activities), which serialises them per
 * invoice; they make no processor call inside a database transaction.
 */
import { minorUnitsToRaw, toMinorUnits, type DunningNotice } from '../../core/index.js';
import {
  findAuthorizedPayment,
  findDefaultPaymentMethod,
  findDunningByInvoice,
  findInvoiceRow,
  findPayment,
  invoiceState,
  findPaymentByRequest,
  findPaymentMethod,
  findProcessorCustomerId,
  insertPayment,
  lockPayment,
  trialingSubscriptionIds,
  updatePayment,
  type DbClient,
  type DunningSchedule,
  type Payment,
  type PaymentStatus,
} from '../../db/payments.js';
import type { Invoice } from '../../generated/prisma/client.js';
import { conflict, DomainError, notFound } from '../../errors.js';
import { ProcessorRejectedError, ProcessorUnavailableError, type IntentOutcome, type IntentResult } from '../../processor/index.js';
import type { CaptureInvoicePaymentCommand, ChargeInvoiceCommand, InvoiceOutcome, InvoicePaymentResult } from '../../temporal/messages.js';
import { followUp, type FollowUpDeps } from '../follow-ups.js';
import { PROCESSOR_ACTOR, recordAudit, type Actor } from '../audit.js';
import { lockInvoice } from '../../db/invoices.js';
import { amountDueOf, invoiceNow, markInvoicePaid } from '../invoicing/invoices.js';
import { enqueueEvent } from '../outbox.js';
import type { ServiceDeps } from '../deps.js';
import { closeDunning, dunningScheduleDaysOf, openDunningIfNone, progressDunning, startDunningWorkflow, tellSubscriptions } from './dunning.js';

/** The processor's answer about one payment, as recorded. */
export interface PaymentUpdate {
  outcome: IntentOutcome;
  processorStatus: string | null;
  paymentIntentId: string | null;
  failure: { code: string; message: string } | null;
}

/** What must happen outside the transaction once an outcome is recorded. */
interface Effects {
  /** The invoice's subscriptions go PastDue. */
  pastDue: boolean;
  /** A new schedule whose workflow must start. */
  startDunning: DunningSchedule | null;
  /** The payment collected the invoice. */
  collected: boolean;
}

const NO_EFFECTS: Effects = { pastDue: false, startDunning: null, collected: false };

const STATUS_OF: Record<IntentOutcome, PaymentStatus> = {
  succeeded: 'Succeeded',
  requires_capture: 'RequiresCapture',
  failed: 'Failed',
  canceled: 'Canceled',
  pending: 'Pending',
};

/**
 * Moves a payment may make. A Failed payment can still succeed (the processor may collect the same
 * intent later, e.g. after the customer updated the card); Succeeded and Canceled are final.
 */
const NEXT: Record<PaymentStatus, readonly PaymentStatus[]> = {
  Pending: ['RequiresCapture', 'Succeeded', 'Failed', 'Canceled'],
  RequiresCapture: ['Succeeded', 'Failed', 'Canceled'],
  Failed: ['Succeeded'],
  Succeeded: [],
  Canceled: [],
};

export async function invoiceOutcome(db: DbClient | ServiceDeps['db'], invoiceId: string): Promise<InvoiceOutcome> {
  const invoice = await invoiceState(db, invoiceId);
  if (!invoice) throw notFound('invoice', invoiceId);
  return { status: invoice.status, invoiceNumber: invoice.invoiceNumber };
}

/** Why a payment failed or was canceled, as recorded from the processor's answer (nulls when it did not). */
export async function paymentFailureOf(db: DbClient | ServiceDeps['db'], paymentId: string): Promise<{ code: string | null; message: string | null }> {
  const payment = await findPayment(db, paymentId);
  return { code: payment?.failureCode ?? null, message: payment?.failureMessage ?? null };
}

const amountDue = (invoice: Invoice): bigint => amountDueOf(invoice);

/** Whether finalizing the invoice would charge it: its payer (the customer it is addressed to) has a default payment method. */
export async function autoChargeable(db: ServiceDeps['db'], invoiceId: string): Promise<boolean> {
  const invoice = await findInvoiceRow(db, invoiceId);
  return invoice !== null && (await payerChargeable(db, invoice.customerId));
}

/** Whether an invoice addressed to this payer would be charged when finalized (it has a default payment method). */
export async function payerChargeable(db: ServiceDeps['db'], payerId: string): Promise<boolean> {
  return (await findDefaultPaymentMethod(db, payerId)) !== null;
}

/**
 * Charges an Open invoice: the given payment method, else the payer's default (the invoice is
 * addressed to its payer, after bill-to and consolidation). Without one, an auto-charge leaves the
 * invoice to the manual flow and a dunning retry counts as failed.
 */
export async function chargeInvoice(deps: ServiceDeps, invoiceId: string, command: ChargeInvoiceCommand): Promise<InvoicePaymentResult> {
  type Prepared = { kind: 'skip' } | { kind: 'effects'; effects: Effects } | { kind: 'done'; payment: Payment } | { kind: 'call'; payment: Payment; invoice: Invoice };
  const prepared = await deps.db.$transaction(async (tx): Promise<Prepared> => {
    const invoice = await lockInvoice(tx, invoiceId);
    const existing = await findPaymentByRequest(tx, invoiceId, command.requestKey);
    // A retried request: its payment exists; only one whose processor call never answered is called again.
    if (existing) return existing.processorPaymentIntentId || existing.status !== 'Pending' ? { kind: 'done', payment: existing } : { kind: 'call', payment: existing, invoice };
    if (invoice.status !== 'Open') return { kind: 'skip' };
    const method = command.paymentMethodId ? await findPaymentMethod(tx, command.paymentMethodId) : await findDefaultPaymentMethod(tx, invoice.customerId);
    if (command.paymentMethodId && (!method || method.customerId !== invoice.customerId || method.detachedAt)) {
      throw notFound('payment_method', command.paymentMethodId);
    }
    const at = command.at ? new Date(command.at) : command.source === 'auto_charge' && invoice.finalizedAt ? invoice.finalizedAt : await invoiceNow(tx, invoiceId, new Date());
    if (!method) {
      if (command.source === 'on_demand' || command.source === 'hosted_page') {
        throw new DomainError('unprocessable', 'no_payment_method', `customer ${invoice.customerId} has no payment method on file`, { customer_id: invoice.customerId });
      }
      if (command.dunningAttempt !== undefined) return { kind: 'effects', effects: await recordFailureWithoutPayment(tx, invoice, command.dunningAttempt, at) };
      return { kind: 'skip' };
    }
    const minor = toMinorUnits(amountDue(invoice), invoice.currency);
    if (minor <= 0n) {
      if (command.source === 'on_demand' || command.source === 'hosted_page') throw new DomainError('unprocessable', 'nothing_to_charge', `invoice ${invoiceId} has nothing left to pay`);
      return { kind: 'skip' };
    }
    const payment = await insertPayment(tx, {
      invoiceId,
      customerId: invoice.customerId,
      paymentMethodId: method.id,
      requestKey: command.requestKey,
      source: command.source,
      dunningAttempt: command.dunningAttempt ?? null,
      status: 'Pending',
      captureMethod: command.captureMethod ?? 'automatic',
      amountNanos: amountDue(invoice),
      amountMinor: minor,
      currency: invoice.currency,
      attemptedAt: at,
    });
    await recordAudit(tx, {
      action: 'payment.attempted',
      actor: command.actor,
      entityType: 'payment',
      entityId: payment.id,
      customerId: invoice.customerId,
      after: { invoice_id: invoiceId, attempt: payment.attempt, source: command.source, dunning_attempt: command.dunningAttempt ?? null, amount_nanos: payment.amountNanos.toFixed(0) },
      ...(command.requestId ? { requestId: command.requestId } : {}),
    });
    return { kind: 'call', payment, invoice };
  });

  if (prepared.kind === 'skip') return { invoice: await invoiceOutcome(deps.db, invoiceId), paymentId: null, paymentStatus: null };
  if (prepared.kind === 'effects') {
    await applyEffects(deps, invoiceId, prepared.effects);
    return { invoice: await invoiceOutcome(deps.db, invoiceId), paymentId: null, paymentStatus: null };
  }
  if (prepared.kind === 'done') {
    // The first run recorded the answer; finishing what it may not have (invoice Paid, schedule) is idempotent.
    const done = prepared.payment;
    await settleAfter(deps, done, await recordedEffects(deps.db, done), done.attemptedAt);
    return { invoice: await invoiceOutcome(deps.db, invoiceId), paymentId: done.id, paymentStatus: done.status };
  }

  const { payment, invoice } = prepared;
  const method = payment.paymentMethodId ? await findPaymentMethod(deps.db, payment.paymentMethodId) : null;
  const processorCustomerId = await findProcessorCustomerId(deps.db, invoice.customerId);
  let answer: PaymentUpdate;
  if (!method || !processorCustomerId) {
    answer = { outcome: 'failed', processorStatus: null, paymentIntentId: null, failure: { message: 'the payment method is no longer on file', code: 'payment_method_unavailable' } };
  } else {
    answer = await processorCall(() =>
      deps.processor.createPaymentIntent({
        amountMinor: payment.amountMinor,
        currency: payment.currency,
        processorCustomerId,
        processorPaymentMethodId: method.processorPaymentMethodId,
        captureMethod: payment.captureMethod === 'manual' ? 'manual' : 'automatic',
        metadata: { invoice_id: invoiceId, payment_id: payment.id, attempt: String(payment.attempt) },
        idempotencyKey: `invoice:${invoiceId}:attempt:${payment.attempt}`,
        description: `Invoice ${invoice.invoiceNumber ?? invoiceId}`,
      }),
    );
  }
  const recorded = await recordPaymentUpdate(deps, payment.id, answer, payment.attemptedAt, PROCESSOR_ACTOR);
  return { invoice: await invoiceOutcome(deps.db, invoiceId), paymentId: payment.id, paymentStatus: recorded.status };
}

/** Captures the invoice's authorised payment (capture_method manual). */
export async function captureInvoicePayment(deps: ServiceDeps, invoiceId: string, command: CaptureInvoicePaymentCommand): Promise<InvoicePaymentResult> {
  const payment = await findAuthorizedPayment(deps.db, invoiceId);
  if (!payment || !payment.processorPaymentIntentId) {
    throw conflict('no_payment_to_capture', `invoice ${invoiceId} has no authorised payment waiting for a capture`);
  }
  const intentId = payment.processorPaymentIntentId;
  const answer = await processorCall(() => deps.processor.capturePaymentIntent(intentId, `capture:${payment.id}`));
  await deps.db.$transaction((tx) =>
    recordAudit(tx, {
      action: 'payment.capture_requested',
      actor: command.actor,
      entityType: 'payment',
      entityId: payment.id,
      customerId: payment.customerId,
      before: { status: payment.status, processor_status: payment.processorStatus },
      after: { status: payment.status, processor_status: answer.processorStatus },
      ...(command.requestId ? { requestId: command.requestId } : {}),
    }),
  );
  const at = await invoiceNow(deps.db, invoiceId, new Date());
  const recorded = await recordPaymentUpdate(deps, payment.id, answer, at, command.actor);
  return { invoice: await invoiceOutcome(deps.db, invoiceId), paymentId: payment.id, paymentStatus: recorded.status };
}

/** Runs a processor call: a refusal is the answer (a failed payment); an outage is retried later. */
async function processorCall(work: () => Promise<IntentResult>): Promise<PaymentUpdate> {
  try {
    const result = await work();
    return { outcome: result.outcome, processorStatus: result.processorStatus, paymentIntentId: result.id || null, failure: result.failure };
  } catch (err) {
    if (err instanceof ProcessorRejectedError) return { outcome: 'failed', processorStatus: null, paymentIntentId: null, failure: { code: err.code, message: err.message } };
    if (err instanceof ProcessorUnavailableError) throw new DomainError('unavailable', 'payment_processor_unavailable', err.message);
    throw err;
  }
}

/**
 * Records the processor's answer about a payment (from a call or a notification), with its events,
 * audit entries and dunning bookkeeping in one transaction, then what follows outside it.
 */
export async function recordPaymentUpdate(deps: ServiceDeps, paymentId: string, update: PaymentUpdate, at: Date, actor: Actor): Promise<Payment> {
  const { payment, effects } = await deps.db.$transaction(async (tx) => {
    const current = await lockPayment(tx, paymentId);
    if (!current) throw notFound('payment', paymentId);
    const status = STATUS_OF[update.outcome];
    if (status === current.status || !NEXT[current.status].includes(status)) {
      // Nothing new (a repeated answer) or a move the payment cannot make (a late failure after success).
      if (current.dunningAttempt !== null && status === 'Pending') await progressDunning(tx, current.invoiceId, current.dunningAttempt, false, at);
      return { payment: current, effects: await recordedEffects(tx, current) };
    }
    const terminal = status === 'Succeeded' || status === 'Failed' || status === 'Canceled';
    const payment = await updatePayment(tx, paymentId, {
      status,
      processorStatus: update.processorStatus ?? current.processorStatus,
      ...(update.paymentIntentId && !current.processorPaymentIntentId ? { processorPaymentIntentId: update.paymentIntentId } : {}),
      failureCode: update.failure?.code ?? (status === 'Succeeded' ? null : current.failureCode),
      failureMessage: update.failure?.message ?? (status === 'Succeeded' ? null : current.failureMessage),
      ...(terminal ? { settledAt: at } : {}),
    });
    const audit = (action: string, after: Record<string, unknown>) =>
      recordAudit(tx, { action, actor, entityType: 'payment', entityId: paymentId, customerId: payment.customerId, before: { status: current.status }, after: { status, ...after } });
    let effects: Effects = NO_EFFECTS;
    switch (status) {
      case 'Succeeded':
        await enqueueEvent(tx, 'payment.succeeded', payment.invoiceId, {
          invoice_id: payment.invoiceId,
          payment_id: payment.id,
          amount_nanos: minorUnitsToRaw(payment.amountMinor, payment.currency).toString(),
          currency: payment.currency,
        }, at);
        await audit('payment.succeeded', { amount_nanos: payment.amountNanos.toFixed(0), processor_payment_intent_id: payment.processorPaymentIntentId });
        // A retry that collected the invoice counts as made, like one that failed.
        if (payment.dunningAttempt !== null) await progressDunning(tx, payment.invoiceId, payment.dunningAttempt, false, at);
        effects = { ...NO_EFFECTS, collected: true };
        break;
      case 'Failed': {
        const dunning = await failureDunning(tx, payment, at, dunningScheduleDaysOf(deps));
        await enqueueEvent(tx, 'payment.failed', payment.invoiceId, {
          invoice_id: payment.invoiceId,
          payment_id: payment.id,
          failure_code: payment.failureCode,
          ...(payment.dunningAttempt !== null ? { dunning_attempt: payment.dunningAttempt, dunning_notice: dunning.notice } : {}),
        }, at);
        await audit('payment.failed', { failure_code: payment.failureCode, failure_message: payment.failureMessage, dunning_attempt: payment.dunningAttempt });
        effects = dunning.effects;
        break;
      }
      case 'Canceled':
        // Nobody collects a canceled intent; as a dunning retry it counts as made.
        if (payment.dunningAttempt !== null) await progressDunning(tx, payment.invoiceId, payment.dunningAttempt, true, at);
        await audit('payment.canceled', { failure_code: payment.failureCode });
        break;
      case 'RequiresCapture':
        await audit('payment.authorized', { processor_payment_intent_id: payment.processorPaymentIntentId });
        break;
      case 'Pending':
        if (payment.dunningAttempt !== null) await progressDunning(tx, payment.invoiceId, payment.dunningAttempt, false, at);
        break;
    }
    return { payment, effects };
  });
  await settleAfter(deps, payment, effects, at);
  return payment;
}

/**
 * What followed an answer recorded earlier, to finish it again (idempotent) when the run that
 * recorded it stopped before its effects: a success pays the invoice, a first failure makes the
 * subscriptions PastDue and starts the dunning workflow while its schedule is still untouched.
 */
async function recordedEffects(db: DbClient | ServiceDeps['db'], payment: Payment): Promise<Effects> {
  if (payment.status === 'Succeeded') return { ...NO_EFFECTS, collected: true };
  if (payment.status !== 'Failed' || payment.dunningAttempt !== null) return NO_EFFECTS;
  const schedule = await findDunningByInvoice(db, payment.invoiceId);
  return schedule && schedule.status === 'Active' && schedule.attemptCount === 0 ? { pastDue: true, startDunning: schedule, collected: false } : NO_EFFECTS;
}

/** A failed payment: the first failure of an Open invoice starts its dunning; a failed retry advances it. */
async function failureDunning(tx: DbClient, payment: Payment, at: Date, scheduleDays: readonly number[]): Promise<{ effects: Effects; notice: DunningNotice | null }> {
  if (payment.dunningAttempt !== null) {
    return { effects: NO_EFFECTS, notice: await progressDunning(tx, payment.invoiceId, payment.dunningAttempt, true, at) };
  }
  const invoice = (await findInvoiceRow(tx, payment.invoiceId))!;
  return { effects: await startDunningIfNone(tx, invoice, at, scheduleDays), notice: null };
}

/** The invoice's dunning starts at its first failure, unless it is not Open or one runs already. */
async function startDunningIfNone(tx: DbClient, invoice: Invoice, at: Date, scheduleDays: readonly number[]): Promise<Effects> {
  const schedule = await openDunningIfNone(tx, invoice, at, scheduleDays);
  return schedule ? { pastDue: true, startDunning: schedule, collected: false } : NO_EFFECTS;
}

/** A dunning retry that could not even be attempted (no payment method left): it counts as failed. */
async function recordFailureWithoutPayment(tx: DbClient, invoice: Invoice, attempt: number, at: Date): Promise<Effects> {
  const notice = await progressDunning(tx, invoice.id, attempt, true, at);
  if (notice) {
    await enqueueEvent(tx, 'payment.failed', invoice.id, {
      invoice_id: invoice.id,
      payment_id: null,
      failure_code: 'no_payment_method',
      dunning_attempt: attempt,
      dunning_notice: notice,
    }, at);
  }
  return NO_EFFECTS;
}

/**
 * A failure the processor reported for an invoice without naming a payment of ours (an
 * invoice.payment_failed notification): payment.failed, and dunning if none runs yet.
 */
export async function recordInvoiceFailure(deps: ServiceDeps, invoiceId: string, failure: { code: string; message: string }, at: Date): Promise<boolean> {
  const effects = await deps.db.$transaction(async (tx) => {
    const invoice = await lockInvoice(tx, invoiceId);
    if (invoice.status !== 'Open') return null;
    const started = await startDunningIfNone(tx, invoice, at, dunningScheduleDaysOf(deps));
    await enqueueEvent(tx, 'payment.failed', invoiceId, { invoice_id: invoiceId, payment_id: null, failure_code: failure.code }, at);
    await recordAudit(tx, {
      action: 'payment.failed',
      actor: PROCESSOR_ACTOR,
      entityType: 'invoice',
      entityId: invoiceId,
      customerId: invoice.customerId,
      before: { status: invoice.status },
      after: { status: invoice.status, failure_code: failure.code, failure_message: failure.message },
    });
    return started;
  });
  if (!effects) return false;
  await applyEffects(deps, invoiceId, effects);
  return true;
}

/** What follows a recorded answer, outside the transaction; every step is idempotent. */
async function settleAfter(deps: ServiceDeps, payment: Payment, effects: Effects, at: Date): Promise<void> {
  if (effects.collected) {
    const invoice = (await invoiceState(deps.db, payment.invoiceId))!;
    if (invoice.status === 'Open') {
      await markInvoicePaid(deps.db, payment.invoiceId, {
        actor: PROCESSOR_ACTOR,
        paidBy: { actorId: 'payment-processor', actorName: payment.processorPaymentIntentId ? `payment ${payment.processorPaymentIntentId}` : 'payment processor' },
        at,
      });
    } else if (invoice.status === 'Void') {
      deps.logger.warn({ invoiceId: payment.invoiceId, paymentId: payment.id }, 'a payment succeeded for a Void invoice; refund it');
    }
    await closeDunning(deps, payment.invoiceId, 'payment_succeeded', at);
    if (invoice.status !== 'Void' && invoice.status !== 'Draft') await endTrialsPaidBy(deps, payment.invoiceId, at);
    return;
  }
  await applyEffects(deps, payment.invoiceId, effects);
}

/**
 * An invoice was paid (a payment collected it, or it was paid by hand): its Trialing subscriptions
 * become Active (SPEC §3 "Trialing: trial ends or payment succeeds"), each through its workflow (the
 * `paid` payment outcome, at the payment's time). Idempotent: a subscription that is no longer
 * Trialing is not told again.
 */
export async function endTrialsPaidBy(deps: Pick<ServiceDeps, 'db'> & FollowUpDeps, invoiceId: string, at: Date): Promise<void> {
  const subscriptionIds = await trialingSubscriptionIds(deps.db, invoiceId);
  await followUp(deps, ...subscriptionIds.map((subscriptionId) => ({ kind: 'payment_outcome' as const, subscriptionId, outcome: { invoiceId, outcome: 'paid' as const, at: at.toISOString() } })));
}

async function applyEffects(deps: ServiceDeps, invoiceId: string, effects: Effects): Promise<void> {
  if (effects.pastDue) await tellSubscriptions(deps, invoiceId, 'failed');
  if (effects.startDunning) await startDunningWorkflow(deps, effects.startDunning);
}
