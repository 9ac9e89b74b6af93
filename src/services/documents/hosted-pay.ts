/**
 * Paying from the hosted invoice page (issue 30): what the page offers the payer, and its Pay action.
 *
 * - With a default payment method on file, the payer may charge it: a charge of source `hosted_page`
 *   through the invoice's workflow, exactly as POST /admin/v1/invoices/:id/payment-intents charges
 *   (payment row before the processor call, its idempotency key, Paid / dunning / ledger / webhooks).
 * - Any payer may pay on the processor's checkout page: a checkout session for the amount due whose
 *   PaymentIntent carries `metadata.invoice_id`; the processor's payment_intent.succeeded about it
 *   collects the invoice like any PaymentIntent made outside the engine (a payment of source
 *   `processor`, docs/payments.md).
 */
import { toMinorUnits } from '../../core/index.js';
import { findInvoice } from '../../db/invoices.js';
import { findDefaultPaymentMethod, findProcessorCustomerId, latestPayment } from '../../db/payments.js';
import { DomainError, invalidTransition, notFound } from '../../errors.js';
import { ProcessorRejectedError, ProcessorUnavailableError, type CheckoutSession } from '../../processor/index.js';
import { recordAudit, type Actor } from '../audit.js';
import type { ServiceDeps } from '../deps.js';
import { amountDueOf } from '../invoicing/invoices.js';
import { runInvoicePayment } from '../payments/invoice-payments.js';

/** What the hosted page offers and tells the payer about paying. */
export interface HostedPayState {
  /** Open with something left to pay. */
  payable: boolean;
  /** The payer's default payment method, when it has one. */
  card: { brand: string | null; last4: string | null } | null;
  /** The invoice's latest payment attempt, while it is Open. */
  lastAttempt: { status: string; failureMessage: string | null } | null;
}

export async function hostedPayState(db: ServiceDeps['db'], invoiceId: string): Promise<HostedPayState> {
  const invoice = await findInvoice(db, invoiceId);
  if (!invoice) throw notFound('invoice', invoiceId);
  const payable = invoice.status === 'Open' && toMinorUnits(amountDueOf(invoice), invoice.currency) > 0n;
  const method = payable ? await findDefaultPaymentMethod(db, invoice.customerId) : null;
  const last = invoice.status === 'Open' ? await latestPayment(db, invoiceId) : null;
  return {
    payable,
    card: method ? { brand: method.brand, last4: method.last4 } : null,
    lastAttempt: last ? { status: last.status, failureMessage: last.failureMessage } : null,
  };
}

export type HostedPayRequest = {
  method: 'card_on_file' | 'checkout';
  /** Derived from the submitted form (its token), so a form sent twice pays once. */
  requestKey: string;
  requestId: string;
  /** Where the processor's checkout page sends the payer back (the hosted page). */
  successUrl: string;
  cancelUrl: string;
};

export type HostedPayOutcome = { kind: 'charged'; paymentStatus: string | null } | { kind: 'checkout'; url: string };

/** The processor's refusal or outage as the API's errors (422 checkout_rejected, 503 payment_processor_unavailable). */
async function checkoutCall(work: () => Promise<CheckoutSession>): Promise<CheckoutSession> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ProcessorRejectedError) throw new DomainError('unprocessable', 'checkout_rejected', `the payment processor refused the checkout: ${err.message}`);
    if (err instanceof ProcessorUnavailableError) throw new DomainError('unavailable', 'payment_processor_unavailable', err.message);
    throw err;
  }
}

/** The payer acting through the hosted link, for the audit trail: the customer the invoice is addressed to. */
const payerActor = (customerId: string): Actor => ({ type: 'customer', id: customerId });

export async function payHostedInvoice(deps: ServiceDeps, invoiceId: string, request: HostedPayRequest): Promise<HostedPayOutcome> {
  const invoice = await findInvoice(deps.db, invoiceId);
  if (!invoice) throw notFound('invoice', invoiceId);
  if (invoice.status !== 'Open') throw invalidTransition('invoice', invoice.status, 'pay');
  const actor = payerActor(invoice.customerId);
  if (request.method === 'card_on_file') {
    const result = await runInvoicePayment(deps, invoiceId, {
      kind: 'charge',
      actor,
      requestId: request.requestId,
      requestKey: `hosted_page:${request.requestKey}`,
      source: 'hosted_page',
    });
    return { kind: 'charged', paymentStatus: result.paymentStatus };
  }
  const minor = toMinorUnits(amountDueOf(invoice), invoice.currency);
  if (minor <= 0n) throw new DomainError('unprocessable', 'nothing_to_charge', `invoice ${invoiceId} has nothing left to pay`);
  const description = `Invoice ${invoice.invoiceNumber ?? invoiceId}`;
  const session = await checkoutCall(async () =>
    deps.processor.createCheckoutSession({
      amountMinor: minor,
      currency: invoice.currency,
      processorCustomerId: await findProcessorCustomerId(deps.db, invoice.customerId),
      description,
      metadata: { invoice_id: invoiceId },
      successUrl: request.successUrl,
      cancelUrl: request.cancelUrl,
      idempotencyKey: `hosted-checkout:${invoiceId}:${request.requestKey}`,
    }),
  );
  await recordAudit(deps.db, {
    action: 'invoice.checkout_started',
    actor,
    entityType: 'invoice',
    entityId: invoiceId,
    customerId: invoice.customerId,
    after: { checkout_session_id: session.id, amount_minor: minor.toString(), currency: invoice.currency },
    requestId: request.requestId,
  });
  return { kind: 'checkout', url: session.url };
}
