/**
 * What a customer does from the portal (issue 32), always as the session's customer (audit actor
 * `customer`), never on another customer's resources (404 as if they did not exist):
 * - add or replace the card on file: a checkout session in setup mode at the processor (its page
 *   collects the card and confirms a SetupIntent; no card data reaches the engine), whose return is
 *   accepted only for the session the portal opened; the SetupIntent's payment method is then attached
 *   as the customer's default, exactly as POST /admin/v1/customers/:id/payment-methods attaches one;
 * - cancel a subscription at the end of its period, where its plan allows it, through the
 *   subscription's workflow like POST /admin/v1/subscriptions/:id/cancel.
 */
import { findCustomer } from '../../db/customers.js';
import { findPortalSession, setPortalSetupCheckout } from '../../db/portal-sessions.js';
import { DomainError, notFound } from '../../errors.js';
import { ProcessorRejectedError, ProcessorUnavailableError } from '../../processor/index.js';
import { recordAudit, type Actor } from '../audit.js';
import type { ServiceDeps } from '../deps.js';
import { attachPaymentMethod, ensureProcessorCustomer } from '../payments/payment-methods.js';
import { getSubscription, moveSubscription } from '../subscriptions/subscriptions.js';
import { findPlan } from '../../db/catalog.js';
import { PORTAL_CANCELLATION_KEY } from './overview.js';

export interface PortalActor {
  sessionId: string;
  customerId: string;
  requestId: string;
}

const customerActor = (customerId: string): Actor => ({ type: 'customer', id: customerId });

/** The processor's refusal or outage as the API's errors (422 checkout_rejected, 503 payment_processor_unavailable). */
async function processorCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ProcessorRejectedError) throw new DomainError('unprocessable', 'checkout_rejected', `the payment processor refused the checkout: ${err.message}`);
    if (err instanceof ProcessorUnavailableError) throw new DomainError('unavailable', 'payment_processor_unavailable', err.message);
    throw err;
  }
}

/**
 * Opens the processor's page where the customer saves a card; answers its URL. `successUrl` carries
 * `{CHECKOUT_SESSION_ID}`, which the processor fills in. The session is remembered on the portal
 * session: only its return is accepted.
 */
export async function startPaymentMethodSetup(
  deps: ServiceDeps,
  who: PortalActor,
  urls: { successUrl: string; cancelUrl: string; requestKey: string },
): Promise<{ url: string }> {
  const customer = await findCustomer(deps.db, who.customerId);
  if (!customer) throw notFound('customer', who.customerId);
  const processorCustomerId = await ensureProcessorCustomer(deps, customer);
  const session = await processorCall(() =>
    deps.processor.createSetupCheckoutSession({
      processorCustomerId,
      currency: customer.billing_currency,
      metadata: { customer_id: customer.id, portal_session_id: who.sessionId },
      successUrl: urls.successUrl,
      cancelUrl: urls.cancelUrl,
      idempotencyKey: `portal-setup:${who.sessionId}:${urls.requestKey}`,
    }),
  );
  await deps.db.$transaction(async (tx) => {
    await setPortalSetupCheckout(tx, who.sessionId, session.id);
    await recordAudit(tx, {
      action: 'portal.payment_method_setup_started',
      actor: customerActor(customer.id),
      entityType: 'portal_session',
      entityId: who.sessionId,
      customerId: customer.id,
      after: { checkout_session_id: session.id },
      requestId: who.requestId,
    });
  });
  return { url: session.url };
}

export type SetupCompletion = { outcome: 'saved'; brand: string | null; last4: string | null } | { outcome: 'not_completed'; status: string };

/**
 * The customer came back from the processor's page: the checkout session must be the one this portal
 * session opened (anything else is 404: a session id cannot be replayed into another portal), its
 * SetupIntent must have succeeded, and its payment method is attached as the default.
 */
export async function completePaymentMethodSetup(deps: ServiceDeps, who: PortalActor, checkoutSessionId: string): Promise<SetupCompletion> {
  const session = await findPortalSession(deps.db, who.sessionId);
  if (!session || session.customerId !== who.customerId || session.setupCheckoutSessionId !== checkoutSessionId) {
    throw notFound('checkout_session', checkoutSessionId);
  }
  const outcome = await processorCall(() => deps.processor.retrieveSetupCheckout(checkoutSessionId));
  if (outcome.status !== 'succeeded' || !outcome.paymentMethodId) return { outcome: 'not_completed', status: outcome.status };
  const method = await attachPaymentMethod(
    deps,
    who.customerId,
    { processor_payment_method_id: outcome.paymentMethodId, set_default: true },
    { actor: customerActor(who.customerId), requestId: who.requestId },
  );
  await setPortalSetupCheckout(deps.db, who.sessionId, null);
  return { outcome: 'saved', brand: method.brand, last4: method.last4 };
}

/** Cancels at the end of the current period (the period is billed, then the subscription expires); 404 for another customer's. */
export async function cancelAtPeriodEnd(deps: ServiceDeps, who: PortalActor, subscriptionId: string): Promise<void> {
  const subscription = await getSubscription(deps, subscriptionId, who.customerId);
  const plan = await findPlan(deps.db, subscription.plan_id);
  if (plan?.metadata[PORTAL_CANCELLATION_KEY] === 'disabled') {
    throw new DomainError('unprocessable', 'portal_cancellation_disabled', 'this plan cannot be cancelled from the portal: contact the seller');
  }
  await moveSubscription(deps, subscriptionId, 'cancel', { actor: customerActor(who.customerId), requestId: who.requestId, reason: 'cancelled by the customer in the portal' });
}
