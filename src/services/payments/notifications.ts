/**
 * Processor notifications (POST /v1/webhooks/processor, SPEC §4 rule 3). The request only verifies
 * the signature (the SDK's constructEvent over the raw body, 300 s tolerance), stores the event once
 * by its id and starts the event's workflow (`processor-event:<event id>`); applying it happens
 * there, through the invoice's workflow while the invoice is Draft or Open (asked by a request the
 * invoice's workflow answers). A replayed notification
 * is acknowledged and changes nothing; types the engine does not handle and objects it does not know
 * are acknowledged, stored as ignored and logged.
 *
 * Handled: payment_intent.succeeded (the payment collected the invoice, resolving its dunning),
 * invoice.paid and invoice.payment_succeeded (the processor's invoice for ours, named by its
 * metadata.invoice_id or by a PaymentIntent of ours, was paid: the payment it names, or one recorded
 * from its amount_paid, collects ours), payment_intent.payment_failed and invoice.payment_failed (the
 * payment failed: dunning starts), payment_intent.canceled, charge.refunded (refunds made at the
 * processor are recorded with their credit notes), setup_intent.succeeded (a card saved on the processor's page the customer
 * portal opened, naming our customer in metadata.customer_id and its processor customer: attached as the default payment
 * method, outcome `payment_method_attached`). A notification that changes nothing says why in
 * its outcome: a failure about an invoice already paid is `ignored_invoice_already_paid`.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { FollowUp, PaymentAnswer } from '../../temporal/messages.js';
import { minorUnitsToRaw } from '../../core/index.js';
import { DomainError } from '../../errors.js';
import {
  findPaymentByIntent,
  findPaymentByRequest,
  findProcessorCustomerId,
  findProcessorEvent,
  insertPayment,
  insertProcessorEvent,
  invoiceState,
  markProcessorEventProcessed,
  type DbClient,
} from '../../db/payments.js';
import { UUID_PATTERN } from '../../ids.js';
import { InvalidSignatureError, MalformedNotificationError, type ProcessorNotification } from '../../processor/index.js';
import { startProcessorEventWorkflow } from '../../temporal/workflows/processor-event.js';
import { lockInvoice } from '../../db/invoices.js';
import { invoiceNow } from '../invoicing/invoices.js';
import { recordInvoiceFailure, recordPaymentUpdate, type PaymentUpdate } from './collection.js';
import type { ServiceDeps } from '../deps.js';
import { askedPaymentResult, askInvoicePayment } from './invoice-payments.js';
import { syncProcessorRefunds } from './refunds.js';
import { applyTopUpNotification, releaseHeldRecharge, topUpOfNotification } from '../wallets/wallets.js';
import { PROCESSOR_ACTOR } from '../audit.js';
import { attachPaymentMethod } from './payment-methods.js';

export const HANDLED_NOTIFICATIONS: ReadonlySet<string> = new Set([
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
  'invoice.paid',
  'invoice.payment_succeeded',
  'invoice.payment_failed',
  'charge.refunded',
  'setup_intent.succeeded',
]);

/** What a notification the payment could not take (see recordPaymentUpdate) is recorded as. */
const EXPECTED_STATUS = { succeeded: 'Succeeded', failed: 'Failed', canceled: 'Canceled' } as const;

export interface NotificationReceipt {
  received: true;
  event_id: string;
  type: string;
  /** queued: its workflow applies it; ignored: not a type or object the engine handles; duplicate: seen before. */
  action: 'queued' | 'ignored' | 'duplicate';
}

interface Target {
  invoiceId: string;
  paymentId: string | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);
const idOf = (value: unknown): string | null => text(value) ?? (value !== null && typeof value === 'object' ? text((value as { id?: unknown }).id) : null);
const metadataInvoiceId = (object: Record<string, unknown>): string | null => {
  const metadata = object.metadata;
  const id = metadata !== null && typeof metadata === 'object' ? text((metadata as Record<string, unknown>).invoice_id) : null;
  return id && UUID_PATTERN.test(id) ? id : null;
};

/** The invoice (and payment) a notification is about, or null when the engine does not know it. */
async function resolveTarget(db: DbClient | ServiceDeps['db'], type: string, object: Record<string, unknown>): Promise<Target | null> {
  const intentId = type.startsWith('payment_intent.') ? idOf(object.id) : idOf(object.payment_intent);
  const payment = intentId ? await findPaymentByIntent(db, intentId) : null;
  if (payment) return { invoiceId: payment.invoiceId, paymentId: payment.id };
  // A refund needs the payment it gives back; the others may name our invoice in their metadata.
  if (type === 'charge.refunded') return null;
  const invoiceId = metadataInvoiceId(object);
  if (!invoiceId) return null;
  return (await invoiceState(db, invoiceId)) ? { invoiceId, paymentId: null } : null;
}

const metadataTopUpId = (object: Record<string, unknown>): string | null => {
  const metadata = object.metadata;
  const id = metadata !== null && typeof metadata === 'object' ? text((metadata as Record<string, unknown>).wallet_top_up_id) : null;
  return id && UUID_PATTERN.test(id) ? id : null;
};

/** The wallet top-up a PaymentIntent notification is about, if any. */
async function resolveTopUp(deps: ServiceDeps, type: string, object: Record<string, unknown>) {
  if (!type.startsWith('payment_intent.')) return null;
  return topUpOfNotification(deps.db, idOf(object.id), metadataTopUpId(object));
}

/**
 * The customer a setup_intent.succeeded is about: the one its metadata.customer_id names, when the
 * SetupIntent's processor customer is that customer's (a SetupIntent of someone else's cannot name ours).
 */
async function resolveSetupCustomer(db: ServiceDeps['db'], type: string, object: Record<string, unknown>): Promise<string | null> {
  if (type !== 'setup_intent.succeeded') return null;
  const metadata = object.metadata;
  const customerId = metadata !== null && typeof metadata === 'object' ? text((metadata as Record<string, unknown>).customer_id) : null;
  const processorCustomerId = idOf(object.customer);
  if (!customerId || !UUID_PATTERN.test(customerId) || !processorCustomerId) return null;
  return (await findProcessorCustomerId(db, customerId)) === processorCustomerId ? customerId : null;
}

/** Attaches the payment method a SetupIntent saved as its customer's default and marks the event processed; null when it is about none. */
async function applySetupEvent(deps: ServiceDeps, eventId: string, type: string, object: Record<string, unknown>): Promise<string | null> {
  const customerId = await resolveSetupCustomer(deps.db, type, object);
  if (!customerId) return null;
  const paymentMethodId = idOf(object.payment_method);
  let outcome = 'ignored_unknown_object';
  if (paymentMethodId) {
    try {
      await attachPaymentMethod(deps, customerId, { processor_payment_method_id: paymentMethodId, set_default: true }, { actor: PROCESSOR_ACTOR, requestId: `processor-event:${eventId}` });
      outcome = 'payment_method_attached';
    } catch (err) {
      // Refused by the processor, or the customer was closed meanwhile: nothing to retry.
      if (!(err instanceof DomainError && (err.kind === 'unprocessable' || err.kind === 'invalid_transition'))) throw err;
      outcome = 'ignored_payment_method_rejected';
    }
  }
  await markProcessorEventProcessed(deps.db, eventId, outcome, new Date());
  return outcome;
}

/** Applies a notification about a wallet top-up and marks it processed; null when it is about none. */
async function applyTopUpEvent(deps: ServiceDeps, eventId: string, type: string, object: Record<string, unknown>): Promise<string | null> {
  const topUp = await resolveTopUp(deps, type, object);
  if (!topUp) return null;
  const outcome = await applyTopUpNotification({ ...deps, clock: () => new Date() }, topUp, type, idOf(object.id), failureOf(object, 'payment_failed').message);
  // A top-up its workflow held on a billing_error: settled now, the hold ends.
  if (topUp.billingError !== null) await releaseHeldRecharge(deps, topUp.id);
  await markProcessorEventProcessed(deps.db, eventId, outcome, new Date());
  return outcome;
}

/** Verifies, stores once and hands the notification to its workflow. */
export async function receiveNotification(deps: ServiceDeps, rawBody: string, signature: string | undefined, secret: string): Promise<NotificationReceipt> {
  let notification: ProcessorNotification;
  try {
    notification = deps.processor.verifyNotification(rawBody, signature, secret);
  } catch (err) {
    if (err instanceof InvalidSignatureError) throw new DomainError('validation', 'invalid_signature', `processor notification refused: ${err.message}`);
    if (err instanceof MalformedNotificationError) throw new DomainError('validation', 'malformed_notification', `processor notification refused: ${err.message}`);
    throw err;
  }
  const receipt = (action: NotificationReceipt['action']): NotificationReceipt => ({ received: true, event_id: notification.id, type: notification.type, action });
  const handled = HANDLED_NOTIFICATIONS.has(notification.type);
  const target = handled
    ? ((await resolveTarget(deps.db, notification.type, notification.object)) ??
      (await resolveTopUp(deps, notification.type, notification.object)) ??
      (await resolveSetupCustomer(deps.db, notification.type, notification.object)))
    : null;
  const ignored = !handled ? 'ignored_type' : target ? null : 'ignored_unknown_object';
  const stored = await insertProcessorEvent(deps.db, {
    id: notification.id,
    type: notification.type,
    objectId: notification.objectId,
    payload: notification.payload as Prisma.InputJsonValue,
    ...(ignored ? { processed: { at: new Date(), outcome: ignored } } : {}),
  });
  if (ignored) {
    deps.logger.info({ eventId: notification.id, type: notification.type, objectId: notification.objectId, reason: ignored }, 'processor notification ignored');
    return receipt(stored ? 'ignored' : 'duplicate');
  }
  if (!stored) {
    // Seen before: its workflow may not have started (Temporal was down when it first came).
    const existing = await findProcessorEvent(deps.db, notification.id);
    if (existing && !existing.processedAt) await startEventWorkflow(deps, notification.id);
    return receipt('duplicate');
  }
  await startEventWorkflow(deps, notification.id);
  return receipt('queued');
}

/** Hands the notification to its workflow (started once: one that ever ran is not started again). */
export const startEventWorkflow = (deps: Pick<ServiceDeps, 'temporal'>, eventId: string): Promise<void> => startProcessorEventWorkflow(deps.temporal, eventId);

/**
 * The processor-event workflow's first step: a notification about a Draft or Open invoice's payment
 * is applied through the invoice's workflow, asked by the processor-event workflow itself (an
 * `invoice_payment` follow-up collected in `deps`); processNotification then applies the others, and
 * this one when the invoice's workflow had ended. Nothing is written here.
 */
export async function requestNotificationOfInvoice(deps: ServiceDeps & { followUps: FollowUp[] }, eventId: string): Promise<{ asked: boolean }> {
  const event = await findProcessorEvent(deps.db, eventId);
  if (!event || event.processedAt) return { asked: false };
  const object = objectOf(event.payload);
  if ((await resolveTopUp(deps, event.type, object)) || (await resolveSetupCustomer(deps.db, event.type, object))) return { asked: false };
  const target = await resolveTarget(deps.db, event.type, object);
  const invoice = target ? await invoiceState(deps.db, target.invoiceId) : null;
  if (!target || (invoice?.status !== 'Draft' && invoice?.status !== 'Open')) return { asked: false };
  return { asked: await askInvoicePayment(deps, target.invoiceId, { kind: 'notification', eventId }) };
}

/**
 * The processor-event workflow's step that applies the notification, after the invoice's workflow
 * answered the request for it (`asked`: its answer, null when that workflow had ended; absent when
 * nothing was asked): applied there, its outcome is read; refused there (the invoice Paid or voided
 * meanwhile), or about a Paid or Void invoice (a refund, a late answer), a wallet top-up or a
 * saved card, it is applied here; a failure there fails this step as the update's did.
 */
export async function processNotification(deps: ServiceDeps, eventId: string, asked?: PaymentAnswer | null): Promise<string> {
  try {
    askedPaymentResult(asked ?? null);
  } catch (err) {
    // Paid or voided meanwhile: its workflow has ended, the notification is applied here.
    if (!(err instanceof DomainError && err.kind === 'invalid_transition')) throw err;
  }
  const event = await findProcessorEvent(deps.db, eventId);
  if (!event) return 'unknown_event';
  if (event.processedAt) return event.outcome ?? 'processed';
  const topUpOutcome = await applyTopUpEvent(deps, eventId, event.type, objectOf(event.payload));
  if (topUpOutcome) return topUpOutcome;
  const setupOutcome = await applySetupEvent(deps, eventId, event.type, objectOf(event.payload));
  if (setupOutcome) return setupOutcome;
  const target = await resolveTarget(deps.db, event.type, objectOf(event.payload));
  if (!target) {
    await markProcessorEventProcessed(deps.db, eventId, 'ignored_unknown_object', new Date());
    return 'ignored_unknown_object';
  }
  await applyNotification(deps, eventId);
  return (await findProcessorEvent(deps.db, eventId))?.outcome ?? 'processed';
}

const objectOf = (payload: Prisma.JsonValue): Record<string, unknown> => {
  const data = payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, unknown>).data : null;
  const object = data !== null && typeof data === 'object' ? (data as Record<string, unknown>).object : null;
  return object !== null && typeof object === 'object' ? (object as Record<string, unknown>) : {};
};

function failureOf(object: Record<string, unknown>, fallback: string): { code: string; message: string } {
  const error = object.last_payment_error ?? object.last_finalization_error;
  const fields = error !== null && typeof error === 'object' ? (error as Record<string, unknown>) : {};
  return { code: text(fields.decline_code) ?? text(fields.code) ?? fallback, message: text(fields.message) ?? 'the processor reported the payment as failed' };
}

/** Applies a stored notification (idempotent: once applied it is marked processed). */
export async function applyNotification(deps: ServiceDeps, eventId: string): Promise<void> {
  const event = await findProcessorEvent(deps.db, eventId);
  if (!event || event.processedAt) return;
  const object = objectOf(event.payload);
  if (await applyTopUpEvent(deps, eventId, event.type, object)) return;
  const target = await resolveTarget(deps.db, event.type, object);
  if (!target) {
    await markProcessorEventProcessed(deps.db, eventId, 'ignored_unknown_object', new Date());
    return;
  }
  const at = await invoiceNow(deps.db, target.invoiceId, new Date());
  /** Records the processor's answer about a payment and labels what it did. */
  const record = async (paymentId: string, update: PaymentUpdate & { outcome: keyof typeof EXPECTED_STATUS }) => {
    const payment = await recordPaymentUpdate(deps, paymentId, update, at, PROCESSOR_ACTOR);
    return payment.status === EXPECTED_STATUS[update.outcome] ? `payment_${payment.status.toLowerCase()}` : notTakenOutcome(deps, target.invoiceId, payment.status);
  };
  let outcome: string;
  switch (event.type) {
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed':
    case 'payment_intent.canceled': {
      const paymentId = target.paymentId ?? (await adoptIntent(deps, target.invoiceId, object, at));
      if (!paymentId) {
        outcome = 'ignored_unknown_object';
        break;
      }
      const kind = event.type === 'payment_intent.succeeded' ? 'succeeded' : event.type === 'payment_intent.canceled' ? 'canceled' : 'failed';
      outcome = await record(paymentId, {
        outcome: kind,
        processorStatus: text(object.status),
        paymentIntentId: idOf(object.id),
        failure: kind === 'succeeded' ? null : failureOf(object, kind === 'canceled' ? 'canceled' : 'payment_failed'),
      });
      break;
    }
    case 'invoice.paid':
    case 'invoice.payment_succeeded': {
      // The processor's invoice was paid: our payment it names, or one the processor made, collects ours.
      const paymentId = target.paymentId ?? (await adoptProcessorInvoicePayment(deps, target.invoiceId, object, at));
      if (!paymentId) {
        const status = (await invoiceState(deps.db, target.invoiceId))!.status;
        outcome = status === 'Open' ? 'ignored_amount_unknown' : notTakenInvoiceOutcome(status);
        break;
      }
      outcome = await record(paymentId, { outcome: 'succeeded', processorStatus: null, paymentIntentId: idOf(object.payment_intent), failure: null });
      break;
    }
    case 'invoice.payment_failed': {
      const failure = failureOf(object, 'payment_failed');
      if (target.paymentId) {
        outcome = await record(target.paymentId, { outcome: 'failed', processorStatus: null, paymentIntentId: null, failure });
      } else if (await recordInvoiceFailure(deps, target.invoiceId, failure, at)) {
        outcome = 'invoice_payment_failed';
      } else {
        outcome = notTakenInvoiceOutcome((await invoiceState(deps.db, target.invoiceId))!.status);
      }
      break;
    }
    case 'charge.refunded':
      outcome = await syncProcessorRefunds(deps, target.paymentId!, object, at);
      break;
    default:
      outcome = 'ignored_type';
  }
  await markProcessorEventProcessed(deps.db, eventId, outcome, new Date());
}

/** A notification about an invoice that is no longer Open changed nothing: what it is recorded as. */
const notTakenInvoiceOutcome = (status: string): string =>
  status === 'Paid' ? 'ignored_invoice_already_paid' : status === 'Void' ? 'ignored_invoice_void' : 'ignored_invoice_not_open';

/**
 * A notification its payment could not take (a failure or cancellation after the payment succeeded,
 * a success after it was canceled) changed nothing; it is recorded as such, not as the payment's
 * unchanged status (a failure must not read `payment_succeeded`).
 */
async function notTakenOutcome(deps: ServiceDeps, invoiceId: string, paymentStatus: string): Promise<string> {
  const invoice = (await invoiceState(deps.db, invoiceId))!;
  if (invoice.status === 'Paid' || invoice.status === 'Void') return notTakenInvoiceOutcome(invoice.status);
  return `ignored_payment_already_${paymentStatus.toLowerCase()}`;
}

/**
 * A PaymentIntent made outside the engine (or whose answer was lost) for one of its invoices: recorded
 * as a payment of source `processor`, in the invoice's currency only.
 */
async function adoptIntent(deps: ServiceDeps, invoiceId: string, object: Record<string, unknown>, at: Date): Promise<string | null> {
  const intentId = idOf(object.id);
  if (!intentId) return null;
  return adoptProcessorPayment(deps, invoiceId, { requestKey: `processor:${intentId}`, intentId, amount: object.amount, currency: object.currency, captureMethod: object.capture_method }, at);
}

/**
 * A processor invoice paid for one of ours (invoice.paid, invoice.payment_succeeded) without naming a
 * payment of ours: recorded as a payment of source `processor` of its `amount_paid`, keyed by its
 * PaymentIntent when it names one, else by the processor invoice's id.
 */
async function adoptProcessorInvoicePayment(deps: ServiceDeps, invoiceId: string, object: Record<string, unknown>, at: Date): Promise<string | null> {
  const intentId = idOf(object.payment_intent);
  const processorInvoiceId = idOf(object.id);
  const requestKey = intentId ? `processor:${intentId}` : processorInvoiceId ? `processor-invoice:${processorInvoiceId}` : null;
  if (!requestKey) return null;
  return adoptProcessorPayment(deps, invoiceId, { requestKey, intentId, amount: object.amount_paid, currency: object.currency, captureMethod: 'automatic' }, at);
}

/** Records a payment the processor made for one of our invoices (source `processor`), once per request key; null when its amount or currency does not fit. */
async function adoptProcessorPayment(
  deps: ServiceDeps,
  invoiceId: string,
  made: { requestKey: string; intentId: string | null; amount: unknown; currency: unknown; captureMethod: unknown },
  at: Date,
): Promise<string | null> {
  const { requestKey, intentId, amount, currency } = made;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount <= 0) return null;
  return deps.db.$transaction(async (tx) => {
    const invoice = await lockInvoice(tx, invoiceId);
    if (text(currency)?.toUpperCase() !== invoice.currency) return null;
    const existing = await findPaymentByRequest(tx, invoiceId, requestKey);
    if (existing) return existing.id;
    const minor = BigInt(amount);
    const payment = await insertPayment(tx, {
      invoiceId,
      customerId: invoice.customerId,
      paymentMethodId: null,
      requestKey,
      source: 'processor',
      dunningAttempt: null,
      status: 'Pending',
      captureMethod: text(made.captureMethod) === 'manual' ? 'manual' : 'automatic',
      amountNanos: minorUnitsToRaw(minor, invoice.currency),
      amountMinor: minor,
      currency: invoice.currency,
      attemptedAt: at,
      processorPaymentIntentId: intentId,
    });
    return payment.id;
  });
}
