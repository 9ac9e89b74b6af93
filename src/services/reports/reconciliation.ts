/**
 * Reconciliation (GET /admin/v1/reconciliation?customer_id=): whether every accepted event was
 * billed once and every amount is accounted for, for one customer, at any time.
 *
 * - Usage: each closed period of each of the customer's subscriptions is rated again, whole, from
 *   its accepted events (as its close rates it) and compared, SKU by SKU, with the usage quantities
 *   every invoice carried for it (its own invoice, progressive invoices, late-usage adjustment
 *   lines). A difference is `late_usage_pending` while late events wait for the next close (or the
 *   correction run), `draft` while the period's own Draft waits for its grace end, else a
 *   `discrepancy`. A period whose raw events the retention dropped is listed in `pruned_periods`
 *   instead: it cannot be rated again from its events.
 * - Money, per currency: invoiced (finalized), paid, refunded, credited (and how: to the customer's
 *   balance, out of band), applied from wallets and from the customer balance, the balance left,
 *   the open invoices and their amount due, and the receivable the ledger holds. The receivable
 *   must equal the open amount due and never be negative.
 */
import { prismaReader, type Db } from '../../db/client.js';
import { findCustomer } from '../../db/customers.js';
import { prunedBeforeOf } from '../../db/metering/retention.js';
import { closedPeriodsOfCustomer, moneyTotalsOfCustomer } from '../../db/reconciliation.js';
import { findSubscription } from '../../db/subscriptions.js';
import { notFound } from '../../errors.js';
import type { ReconciliationView } from '../../schemas/reports.js';
import { usageOfClosedPeriod } from '../billing/billing.js';

export async function reconcileCustomer(db: Db, customerId: string, now: Date): Promise<ReconciliationView> {
  if (!(await findCustomer(db, customerId))) throw notFound('customer', customerId);
  const money = await moneyTotalsOfCustomer(db, customerId);
  const closes = await closedPeriodsOfCustomer(db, customerId);
  const subscriptionIds = [...new Set(closes.map((close) => close.subscriptionId))];
  // A period the retention dropped raw events of cannot be rated again whole (its rollups hold what
  // meters read, not the raw edges, windows and percentage fees a rating reads): it is listed apart.
  const dropped = (prunedBefore: Map<string, Date>, close: (typeof closes)[number]) => {
    const before = prunedBefore.get(close.subscriptionId);
    return before !== undefined && close.periodStart < before;
  };
  const droppedBefore = await prunedBeforeOf(prismaReader(db), subscriptionIds);
  const usage: (ReconciliationView['usage'][number] & { close: (typeof closes)[number] })[] = [];
  for (const close of closes.filter((c) => !dropped(droppedBefore, c))) {
    const subscription = await findSubscription(db, close.subscriptionId);
    if (!subscription) continue;
    const period = { start: close.periodStart, end: close.periodEnd };
    const { lines, pending } = await usageOfClosedPeriod(db, subscription, period);
    for (const line of lines) {
      const unbilled = line.unbilledQuantity;
      usage.push({
        close,
        subscription_id: subscription.id,
        period_start: period.start.toISOString(),
        period_end: period.end.toISOString(),
        sku_id: line.skuId,
        meter_event_type: line.meterEventType,
        accepted_quantity: line.ratedQuantity,
        billed_quantity: line.billedQuantity,
        unbilled_quantity: unbilled,
        state: unbilled === '0' && line.ratedAmount === line.billedAmount ? 'billed' : (pending ?? 'discrepancy'),
      });
    }
  }
  // Read again after the ratings: a period the retention reached meanwhile was rated short.
  const droppedAfter = await prunedBeforeOf(prismaReader(db), subscriptionIds);
  const pruned = closes.filter((close) => dropped(droppedAfter, close));
  const checked = usage.filter((u) => !dropped(droppedAfter, u.close)).map(({ close: _close, ...line }) => line);
  const currencies = money.map((m) => ({
    currency: m.currency,
    invoiced_nanos: m.invoiced.toString(),
    paid_nanos: m.paid.toString(),
    refunded_nanos: m.refunded.toString(),
    credited_nanos: m.credited.toString(),
    credited_to_balance_nanos: m.creditedToBalance.toString(),
    credited_out_of_band_nanos: m.creditedOutOfBand.toString(),
    wallet_applied_nanos: m.walletApplied.toString(),
    customer_balance_applied_nanos: m.customerBalanceApplied.toString(),
    customer_balance_nanos: m.customerBalance.toString(),
    open_invoices: m.openInvoices,
    open_amount_due_nanos: m.openAmountDue.toString(),
    receivable_nanos: m.receivable.toString(),
    receivable_matches_open_amount_due: m.receivable === m.openAmountDue,
    receivable_not_negative: m.receivable >= 0n,
  }));
  const balanced = currencies.every((c) => c.receivable_matches_open_amount_due && c.receivable_not_negative) && checked.every((u) => u.state !== 'discrepancy');
  return {
    customer_id: customerId,
    as_of: now.toISOString(),
    balanced,
    currencies,
    usage: checked,
    pruned_periods: pruned.map((close) => ({ subscription_id: close.subscriptionId, period_start: close.periodStart.toISOString(), period_end: close.periodEnd.toISOString() })),
  };
}
