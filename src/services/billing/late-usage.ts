/**
 * Late usage of ended subscriptions: correction invoices.
 *
 * Usage that arrives for a period after its close is billed by the subscription's next period
 * close, as prior-period adjustment lines (billing.ts, lateUsageLines). A subscription that has
 * ended (Expired) has no next close: its late usage goes on a correction invoice instead
 * (billing_reason `late_usage_correction`), one per subscription and run, addressed to its payer and
 * finalized at once. Runs daily (the `late-usage-corrections` Temporal Schedule) for subscriptions
 * on no test clock, and at the end of every test-clock advance for the clock's subscriptions.
 */
import type { Db } from '../../db/client.js';
import { getCustomer } from '../../db/customers.js';
import { findDraftOfGroup, insertDraft, insertLines, lockBillingGroup, recomputeTotals, type InvoiceRow } from '../../db/invoices.js';
import { endedSubscriptionsWithLateUsage } from '../../db/period-closes.js';
import { findSubscription, lockSubscription } from '../../db/subscriptions.js';
import { newId } from '../../ids.js';
import { engineActor, recordAudit } from '../audit.js';
import { lateUsageLines, lockedDraft, onBehalfOf, payerOf } from './billing.js';

export interface LateUsageCorrection {
  subscriptionId: string;
  invoiceId: string;
  lines: number;
}

/** Ended subscriptions (of one test clock, of none when null) whose late usage is not billed yet. */
export function subscriptionsOwingLateUsage(db: Db, testClockId: string | null): Promise<string[]> {
  return endedSubscriptionsWithLateUsage(db, testClockId);
}

/**
 * Bills an ended subscription's late usage onto a Draft of its payer (a new correction Draft, or the
 * Draft already open for the same payer, currency and span); null when there is nothing to bill
 * (or the subscription is not Expired any more). The caller finalizes it.
 */
export async function billLateUsageCorrection(db: Db, subscriptionId: string, at: Date): Promise<LateUsageCorrection | null> {
  return db.$transaction(async (tx) => {
    if (!(await lockSubscription(tx, subscriptionId))) return null;
    const subscription = await findSubscription(tx, subscriptionId);
    if (!subscription || subscription.status !== 'Expired') return null;
    const customer = await getCustomer(tx, subscription.customerId);
    const payerId = await payerOf(tx, customer);
    const lines = await lateUsageLines(tx, subscription, null, onBehalfOf(customer, payerId));
    if (lines.length === 0) return null;
    const starts = lines.map((line) => line.periodStart!.getTime());
    const ends = lines.map((line) => line.periodEnd!.getTime());
    const group = { customerId: payerId, currency: subscription.currency, periodStart: new Date(Math.min(...starts)), periodEnd: new Date(Math.max(...ends)) };
    await lockBillingGroup(tx, group);
    const draft = await lockedDraft(tx, await findDraftOfGroup(tx, group));
    const invoiceId = draft?.id ?? newId();
    let totals: InvoiceRow;
    if (draft) {
      await insertLines(tx, invoiceId, lines);
      totals = await recomputeTotals(tx, invoiceId);
    } else {
      totals = await insertDraft(
        tx,
        {
          id: invoiceId,
          ...group,
          subscriptionId: subscription.id,
          billingReason: 'late_usage_correction',
          testClockId: subscription.testClockId,
          ...(subscription.testClockId === null ? {} : { createdAt: at }),
        },
        lines,
      );
    }
    await recordAudit(tx, {
      action: draft ? 'invoice.billed' : 'invoice.created',
      actor: engineActor(),
      entityType: 'invoice',
      entityId: invoiceId,
      customerId: payerId,
      before: null,
      after: { status: totals.status, billing_reason: totals.billingReason, billed_subscription_id: subscription.id, late_usage_lines: lines.length, total_nanos: totals.totalNanos.toFixed(0) },
    });
    return { subscriptionId, invoiceId, lines: lines.length };
  });
}
