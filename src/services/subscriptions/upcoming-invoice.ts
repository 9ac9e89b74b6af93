/**
 * The upcoming invoice (GET /v1/subscriptions/:id/upcoming-invoice): what the current period would
 * be invoiced if it closed now. Not a second implementation: the period close itself runs
 * (closePeriodInTransaction: rating, Draft building, late usage, the ledger's period close) and then
 * what finalization does to the Draft's amounts (settleDraftAmounts: spend cap, tax, customer
 * balance, credit wallet), all in one transaction that is always rolled back. Nothing it wrote
 * survives (no row, no audit entry, no outbox event; the invoice number is never taken) and no
 * workflow is touched: the services it runs reach only the database.
 *
 * The preview takes the locks the close takes (the subscription row, the billing group, its Draft),
 * so it waits for a close or a bill running on the same subscription, and they wait for it.
 */
import type { ServiceDeps } from '../deps.js';
import { findSubscription } from '../../db/subscriptions.js';
import { findTestClock } from '../../db/test-clocks.js';
import { lockInvoiceInBillingGroup } from '../../db/invoices.js';
import { notFound } from '../../errors.js';
import { applyTax } from '../billing/tax.js';
import { loadInvoiceView, settleDraftAmounts } from '../invoicing/invoices.js';
import type { InvoiceView } from '../../schemas/invoicing.js';
import type { UpcomingInvoiceView } from '../../schemas/subscriptions.js';
import { closePeriodInTransaction } from './period-close.js';

/** Carries the preview out of the transaction it rolls back. */
class RolledBack extends Error {
  constructor(readonly preview: { invoice: InvoiceView | null; draftInvoiceId: string | null }) {
    super('upcoming invoice preview rolled back');
  }
}

export async function upcomingInvoice(deps: Pick<ServiceDeps, 'db' | 'tax' | 'clock'>, subscriptionId: string, ownCustomerId?: string): Promise<UpcomingInvoiceView> {
  const { db } = deps;
  const subscription = await findSubscription(db, subscriptionId);
  if (!subscription || (ownCustomerId !== undefined && subscription.customerId !== ownCustomerId)) throw notFound('subscription', subscriptionId);
  const clock = subscription.testClockId === null ? null : await findTestClock(db, subscription.testClockId);
  const asOf = clock?.frozenTime ?? deps.clock();
  const period = { start: subscription.periodStart, end: subscription.periodEnd };
  const reason = subscription.status === 'Cancelled' ? 'subscription_final' : 'subscription_cycle';
  try {
    await db.$transaction(async (tx) => {
      const { billed } = await closePeriodInTransaction(tx, { subscriptionId, period, reason }, { roll: false });
      const draftInvoiceId = billed.invoiceId !== null && !billed.created ? billed.invoiceId : null;
      if (billed.invoiceId === null) throw new RolledBack({ invoice: null, draftInvoiceId });
      const draft = await lockInvoiceInBillingGroup(tx, billed.invoiceId);
      await settleDraftAmounts(tx, draft, { at: asOf, applyTax: (t, invoice, payer) => applyTax(t, invoice, deps.tax, payer) });
      throw new RolledBack({ invoice: await loadInvoiceView(tx, billed.invoiceId), draftInvoiceId });
    });
  } catch (err) {
    if (!(err instanceof RolledBack)) throw err;
    return {
      subscription_id: subscriptionId,
      period_start: period.start.toISOString(),
      period_end: period.end.toISOString(),
      as_of: asOf.toISOString(),
      draft_invoice_id: err.preview.draftInvoiceId,
      invoice: err.preview.invoice,
    };
  }
  throw new Error('unreachable: the upcoming invoice transaction always rolls back');
}
