/**
 * The processor adapter on the official `stripe` SDK. Its API base is configurable
 * (PROCESSOR_API_BASE): Stripe's by default, stripe-mock in tests and in local mode. Nothing here
 * logs: requests and answers may carry customer details, and card data never passes through.
 */
import Stripe from 'stripe';
import {
  intentOutcome,
  InvalidSignatureError,
  MalformedNotificationError,
  NOTIFICATION_TOLERANCE_SECONDS,
  ProcessorRejectedError,
  ProcessorUnavailableError,
  type CheckoutSessionRequest,
  type CreateIntentRequest,
  type IntentResult,
  type PaymentMethodDetails,
  type PaymentProcessor,
  type ProcessorNotification,
  type RefundRequest,
  type RefundResult,
  type SetupCheckoutOutcome,
  type SetupCheckoutRequest,
} from './index.js';

export interface StripeProcessorConfig {
  apiBase: string;
  secretKey: string;
  /** Per request; the SDK's own network retries are off (Temporal retries activities, with the same idempotency key). */
  timeoutMs?: number;
}

/** Minor units as the number the SDK sends; safe because processors cap amounts far below 2^53. */
function amountNumber(minor: bigint): number {
  if (minor <= 0n || minor > BigInt(Number.MAX_SAFE_INTEGER)) throw new ProcessorRejectedError('amount_invalid', `cannot charge ${minor} minor units`);
  return Number(minor);
}

/** SDK errors → the port's: a refusal is final, anything else may pass on a retry. */
function translate(err: unknown): Error {
  if (err instanceof Stripe.errors.StripeCardError) {
    return new ProcessorRejectedError(err.decline_code ?? err.code ?? 'card_declined', err.message);
  }
  if (err instanceof Stripe.errors.StripeInvalidRequestError || err instanceof Stripe.errors.StripeIdempotencyError) {
    return new ProcessorRejectedError(err.code ?? err.type, err.message);
  }
  if (err instanceof Stripe.errors.StripeError) {
    return new ProcessorUnavailableError(`payment processor: ${err.type}${err.statusCode ? ` (${err.statusCode})` : ''}`);
  }
  return err instanceof Error ? err : new Error(String(err));
}

async function call<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw translate(err);
  }
}

/** Where the payer goes for a Checkout Session (payment or setup): its id and URL; a session without one is the processor failing. */
function checkoutLink(session: Stripe.Checkout.Session): { id: string; url: string } {
  if (!session.url) throw new ProcessorUnavailableError('payment processor: the checkout session has no URL');
  return { id: session.id, url: session.url };
}

function toIntentResult(intent: Stripe.PaymentIntent): IntentResult {
  const outcome = intentOutcome(intent.status);
  const error = intent.last_payment_error;
  const failure =
    outcome === 'failed' || outcome === 'canceled'
      ? {
          code: error?.decline_code ?? error?.code ?? (outcome === 'canceled' ? 'canceled' : intent.status),
          message: error?.message ?? (outcome === 'canceled' ? 'the payment was canceled' : 'the payment method was not accepted'),
        }
      : null;
  return { id: intent.id, processorStatus: intent.status, outcome, failure };
}

export function createStripeProcessor(config: StripeProcessorConfig): PaymentProcessor {
  const base = new URL(config.apiBase);
  const protocol = base.protocol === 'http:' ? 'http' : 'https';
  const stripe = new Stripe(config.secretKey, {
    host: base.hostname,
    port: base.port || (protocol === 'http' ? 80 : 443),
    protocol,
    maxNetworkRetries: 0,
    timeout: config.timeoutMs ?? 20_000,
    telemetry: false,
  });

  return {
    createCustomer: (input, idempotencyKey) =>
      call(async () => {
        const customer = await stripe.customers.create(
          { email: input.email, name: input.name, metadata: { customer_id: input.customerId } },
          { idempotencyKey },
        );
        return customer.id;
      }),

    attachPaymentMethod: (processorPaymentMethodId, processorCustomerId) =>
      call(async () => {
        const method = await stripe.paymentMethods.attach(processorPaymentMethodId, { customer: processorCustomerId });
        const details: PaymentMethodDetails = {
          id: method.id,
          type: method.type,
          brand: method.card?.brand ?? null,
          last4: method.card?.last4 ?? null,
          expMonth: method.card?.exp_month ?? null,
          expYear: method.card?.exp_year ?? null,
        };
        return details;
      }),

    detachPaymentMethod: (processorPaymentMethodId) =>
      call(async () => {
        await stripe.paymentMethods.detach(processorPaymentMethodId);
      }),

    createPaymentIntent: (request: CreateIntentRequest) =>
      call(async () => {
        try {
          const intent = await stripe.paymentIntents.create(
            {
              amount: amountNumber(request.amountMinor),
              currency: request.currency.toLowerCase(),
              customer: request.processorCustomerId,
              payment_method: request.processorPaymentMethodId,
              capture_method: request.captureMethod,
              confirm: true,
              off_session: true,
              description: request.description,
              metadata: request.metadata,
            },
            { idempotencyKey: request.idempotencyKey },
          );
          return toIntentResult(intent);
        } catch (err) {
          // A declined confirmation is an answer, not an error: the intent it names failed.
          if (err instanceof Stripe.errors.StripeCardError) {
            return {
              id: err.payment_intent?.id ?? '',
              processorStatus: err.payment_intent?.status ?? 'requires_payment_method',
              outcome: 'failed',
              failure: { code: err.decline_code ?? err.code ?? 'card_declined', message: err.message },
            } satisfies IntentResult;
          }
          throw err;
        }
      }),

    capturePaymentIntent: (paymentIntentId, idempotencyKey) =>
      call(async () => toIntentResult(await stripe.paymentIntents.capture(paymentIntentId, {}, { idempotencyKey }))),

    createCheckoutSession: (request: CheckoutSessionRequest) =>
      call(async () => {
        const session = await stripe.checkout.sessions.create(
          {
            mode: 'payment',
            line_items: [
              {
                quantity: 1,
                price_data: { currency: request.currency.toLowerCase(), unit_amount: amountNumber(request.amountMinor), product_data: { name: request.description } },
              },
            ],
            ...(request.processorCustomerId ? { customer: request.processorCustomerId } : {}),
            payment_intent_data: { description: request.description, metadata: request.metadata },
            metadata: request.metadata,
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
          },
          { idempotencyKey: request.idempotencyKey },
        );
        return checkoutLink(session);
      }),

    createSetupCheckoutSession: (request: SetupCheckoutRequest) =>
      call(async () => {
        const session = await stripe.checkout.sessions.create(
          {
            mode: 'setup',
            customer: request.processorCustomerId,
            currency: request.currency.toLowerCase(),
            setup_intent_data: { metadata: request.metadata },
            metadata: request.metadata,
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
          },
          { idempotencyKey: request.idempotencyKey },
        );
        return checkoutLink(session);
      }),

    retrieveSetupCheckout: (checkoutSessionId: string) =>
      call(async (): Promise<SetupCheckoutOutcome> => {
        const session = await stripe.checkout.sessions.retrieve(checkoutSessionId, { expand: ['setup_intent'] });
        const ref = session.setup_intent;
        const intent = typeof ref === 'string' ? await stripe.setupIntents.retrieve(ref) : ref;
        const customer = typeof session.customer === 'string' ? session.customer : (session.customer?.id ?? null);
        if (!intent) return { setupIntentId: null, status: 'missing', paymentMethodId: null, processorCustomerId: customer };
        const method = intent.payment_method;
        return {
          setupIntentId: intent.id,
          status: intent.status,
          paymentMethodId: typeof method === 'string' ? method : (method?.id ?? null),
          processorCustomerId: customer,
        };
      }),

    refund: (request: RefundRequest) =>
      call(async (): Promise<RefundResult> => {
        const refund = await stripe.refunds.create(
          { payment_intent: request.paymentIntentId, amount: amountNumber(request.amountMinor), reason: request.reason, metadata: request.metadata },
          { idempotencyKey: request.idempotencyKey },
        );
        const outcome = refund.status === 'succeeded' ? 'succeeded' : refund.status === 'failed' || refund.status === 'canceled' ? 'failed' : 'pending';
        return { id: refund.id, outcome, failureMessage: outcome === 'failed' ? (refund.failure_reason ?? 'the refund failed') : null };
      }),

    verifyNotification(rawBody: string, signature: string | undefined, secret: string): ProcessorNotification {
      if (!signature) throw new InvalidSignatureError('the Stripe-Signature header is missing');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, secret, NOTIFICATION_TOLERANCE_SECONDS);
      } catch (err) {
        throw new InvalidSignatureError(err instanceof Error ? err.message : 'the signature does not verify');
      }
      const { id, type, object } = notificationShape(event as unknown);
      return { id, type, object, objectId: typeof object.id === 'string' ? object.id : null, payload: event as unknown as Record<string, unknown> };
    },
  };
}

/** Longest event id or type kept (they name a row and a workflow id); the processor's are far shorter. */
const MAX_NOTIFICATION_KEY_LENGTH = 255;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A printable, non-empty string of at most MAX_NOTIFICATION_KEY_LENGTH characters. */
const isKey = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && value.length <= MAX_NOTIFICATION_KEY_LENGTH && !/[\u0000-\u001f\u007f]/.test(value);

/** Whether a parsed JSON value holds a NUL character in a key or string (PostgreSQL cannot store one in jsonb). */
function holdsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (Array.isArray(value)) return value.some(holdsNul);
  if (isObject(value)) return Object.entries(value).some(([key, item]) => key.includes('\u0000') || holdsNul(item));
  return false;
}

/**
 * The parts of a verified notification the engine relies on: a JSON object with a string `id` and
 * `type` and an object `data.object` (absent `data` counts as an empty object). Anything else was
 * signed with our secret but is no notification: MalformedNotificationError (400, not a 500 later).
 */
function notificationShape(event: unknown): { id: string; type: string; object: Record<string, unknown> } {
  if (!isObject(event)) throw new MalformedNotificationError('the notification is not a JSON object');
  if (!isKey(event.id)) throw new MalformedNotificationError(`id must be a string of 1 to ${MAX_NOTIFICATION_KEY_LENGTH} printable characters`);
  if (!isKey(event.type)) throw new MalformedNotificationError(`type must be a string of 1 to ${MAX_NOTIFICATION_KEY_LENGTH} printable characters`);
  const data = event.data ?? {};
  if (!isObject(data)) throw new MalformedNotificationError('data must be an object');
  const object = data.object ?? {};
  if (!isObject(object)) throw new MalformedNotificationError('data.object must be an object');
  if (holdsNul(event)) throw new MalformedNotificationError('the notification holds a NUL character');
  return { id: event.id, type: event.type, object };
}
