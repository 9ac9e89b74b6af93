/**
 * The payment processor as the engine sees it: a port with the few operations collection needs,
 * and its errors. src/processor/stripe.ts implements it with the official `stripe` SDK. Amounts
 * cross this boundary in whole minor units of the currency (converted from raw units once, by
 * toMinorUnits in src/core/money.ts); no card data ever does.
 */

/** Stripe's API, the default PROCESSOR_API_BASE. */
export { STRIPE_API_BASE } from '../config.js';

/** What a PaymentIntent's status means for the invoice it collects. */
export type IntentOutcome = 'succeeded' | 'requires_capture' | 'failed' | 'canceled' | 'pending';

export interface IntentResult {
  id: string;
  /** The processor's own status word, kept for operators. */
  processorStatus: string;
  outcome: IntentOutcome;
  failure: { code: string; message: string } | null;
}

export interface CreateIntentRequest {
  amountMinor: bigint;
  currency: string;
  processorCustomerId: string;
  processorPaymentMethodId: string;
  captureMethod: 'automatic' | 'manual';
  /**
   * Carried back by the processor's notifications: `invoice_id` names the invoice it collects,
   * `wallet_top_up_id` the wallet top-up it pays.
   */
  metadata: { invoice_id: string; payment_id: string; attempt: string } | { wallet_top_up_id: string; customer_id: string };
  /** Derived from the invoice id and the attempt (or the top-up id): a retried request never charges twice. */
  idempotencyKey: string;
  description: string;
}

export interface RefundRequest {
  paymentIntentId: string;
  amountMinor: bigint;
  reason: 'duplicate' | 'fraudulent' | 'requested_by_customer';
  metadata: { invoice_id: string; refund_id: string };
  idempotencyKey: string;
}

export interface RefundResult {
  id: string;
  outcome: 'succeeded' | 'pending' | 'failed';
  failureMessage: string | null;
}

/** A hosted checkout page of the processor where a payer pays an amount by card (Stripe Checkout). */
export interface CheckoutSessionRequest {
  amountMinor: bigint;
  currency: string;
  /** The payer's processor customer when it has one (its saved details prefill the page). */
  processorCustomerId: string | null;
  /** Shown on the processor's page, e.g. "Invoice INV-000042". */
  description: string;
  /**
   * Carried by the PaymentIntent the session creates, so the processor's payment_intent.succeeded
   * names the invoice it collects (handled like any PaymentIntent made outside the engine).
   */
  metadata: { invoice_id: string };
  /** Where the processor sends the payer back after paying, and after giving up. */
  successUrl: string;
  cancelUrl: string;
  idempotencyKey: string;
}

export interface CheckoutSession {
  id: string;
  /** The processor's page to send the payer to. */
  url: string;
}

/**
 * A checkout page of the processor where a customer saves a card for later payments without paying
 * (Stripe Checkout in setup mode: the processor makes a SetupIntent and attaches the card it confirms
 * to the customer). The card never passes through the engine.
 */
export interface SetupCheckoutRequest {
  processorCustomerId: string;
  /** The currency the saved card will pay in (the processor offers the payment methods that take it). */
  currency: string;
  /** Carried by the session and its SetupIntent. */
  metadata: { customer_id: string; portal_session_id: string };
  /** Where the processor sends the customer back; `{CHECKOUT_SESSION_ID}` in it becomes the session's id. */
  successUrl: string;
  cancelUrl: string;
  idempotencyKey: string;
}

/** What became of a setup checkout session: its SetupIntent, and the payment method it saved once it succeeded. */
export interface SetupCheckoutOutcome {
  setupIntentId: string | null;
  /** The SetupIntent's status word (`succeeded` once the card is saved); `missing` without one. */
  status: string;
  paymentMethodId: string | null;
  /** The processor customer the session was opened for. */
  processorCustomerId: string | null;
}

/**
 * Where the processor's checkout pages live: the hosted invoice page's form may lead there (its
 * Content-Security-Policy `form-action` names it).
 */
export const PROCESSOR_CHECKOUT_ORIGIN = 'https://checkout.stripe.com';

/** Display details of an attached payment method (never a card number). */
export interface PaymentMethodDetails {
  id: string;
  type: string;
  brand: string | null;
  last4: string | null;
  expMonth: number | null;
  expYear: number | null;
}

/** A verified notification from the processor. */
export interface ProcessorNotification {
  id: string;
  type: string;
  /** The object the notification is about (a PaymentIntent, Charge or Invoice), as the processor sent it. */
  object: Record<string, unknown>;
  objectId: string | null;
  payload: Record<string, unknown>;
}

export interface PaymentProcessor {
  createCustomer(input: { customerId: string; email: string; name: string }, idempotencyKey: string): Promise<string>;
  attachPaymentMethod(processorPaymentMethodId: string, processorCustomerId: string): Promise<PaymentMethodDetails>;
  detachPaymentMethod(processorPaymentMethodId: string): Promise<void>;
  /** Creates and confirms a PaymentIntent off session: the answer says what became of it. */
  createPaymentIntent(request: CreateIntentRequest): Promise<IntentResult>;
  capturePaymentIntent(paymentIntentId: string, idempotencyKey: string): Promise<IntentResult>;
  /** Opens a checkout session for one payment: the payer pays on the processor's page. */
  createCheckoutSession(request: CheckoutSessionRequest): Promise<CheckoutSession>;
  /** Opens a checkout session in setup mode: the customer saves a card on the processor's page. */
  createSetupCheckoutSession(request: SetupCheckoutRequest): Promise<CheckoutSession>;
  /** Reads a setup checkout session back with its SetupIntent. */
  retrieveSetupCheckout(checkoutSessionId: string): Promise<SetupCheckoutOutcome>;
  refund(request: RefundRequest): Promise<RefundResult>;
  /** Verifies the signature header over the raw body; throws InvalidSignatureError. */
  verifyNotification(rawBody: string, signature: string | undefined, secret: string): ProcessorNotification;
}

/** The processor refused the request itself (a declined card, an unknown payment method): retrying cannot help. */
export class ProcessorRejectedError extends Error {
  override readonly name = 'ProcessorRejectedError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The processor could not be reached or failed on its side: the same request may succeed later. */
export class ProcessorUnavailableError extends Error {
  override readonly name = 'ProcessorUnavailableError';
}

/** A notification whose signature is missing, malformed, stale or does not match. */
export class InvalidSignatureError extends Error {
  override readonly name = 'InvalidSignatureError';
}

/**
 * A notification whose signature verifies but whose body is not a notification: not a JSON object, or
 * without a string `id` and `type`, or whose `data.object` is not an object.
 */
export class MalformedNotificationError extends Error {
  override readonly name = 'MalformedNotificationError';
}

/** How long after it was signed a notification is accepted (the processor's own default). */
export const NOTIFICATION_TOLERANCE_SECONDS = 300;

/** What a PaymentIntent status means for collection (see docs/payments.md). */
export function intentOutcome(status: string): IntentOutcome {
  switch (status) {
    case 'succeeded':
      return 'succeeded';
    case 'requires_capture':
      return 'requires_capture';
    case 'canceled':
      return 'canceled';
    // After a confirmation, needing a payment method again means the one given was refused.
    case 'requires_payment_method':
      return 'failed';
    default:
      // processing, requires_action, requires_confirmation: the processor decides later and says so
      // in a notification.
      return 'pending';
  }
}
