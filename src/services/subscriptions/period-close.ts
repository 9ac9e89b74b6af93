/**
 * A subscription's period close in one transaction: the period billed to its end into its billing
 * group's Draft (billing/billing.ts), the ledger's period close for the customers it touched (deferred
 * revenue recognized, expired promotional credit written off), and, at a cycle's end, the move into
 * the next period. One unit of work instead of three: a retried activity finds either nothing done
 * or all of it (billing the same difference again adds nothing, the roll is conditional on the
 * period end).
 */
import type { Db } from '../../db/client.js';
import type { SubscriptionSnapshot } from '../../temporal/messages.js';
import type { DbClient } from '../../db/client.js';
import { billInTransaction, type BillingReason, type BilledPeriod } from '../billing/billing.js';
import { recognizeDeferredRevenue } from '../ledger/postings.js';
import { expireWalletCredit } from '../wallets/wallets.js';
import { rollSubscriptionPeriodIn } from './transitions.js';

export interface PeriodClose {
  subscriptionId: string;
  period: { start: Date; end: Date };
  reason: BillingReason;
}

export interface ClosedPeriod {
  billed: BilledPeriod;
  /** The subscription after the roll; null when the close did not roll it. */
  state: SubscriptionSnapshot | null;
}

export async function closeSubscriptionPeriod(db: Db, close: PeriodClose, options: { roll: boolean }): Promise<ClosedPeriod> {
  return db.$transaction((tx) => closePeriodInTransaction(tx, close, options));
}

/** The period close within the caller's transaction (the upcoming invoice runs it in one it rolls back). */
export async function closePeriodInTransaction(tx: DbClient, close: PeriodClose, options: { roll: boolean }): Promise<ClosedPeriod> {
  const billed = await billInTransaction(tx, { subscriptionId: close.subscriptionId, period: close.period, upTo: close.period.end, reason: close.reason });
  await closeLedgerPeriod(tx, { customerIds: billed.customerIds, at: close.period.end });
  const roll = { subscriptionId: close.subscriptionId, expectedPeriodEnd: close.period.end.toISOString() };
  const state = options.roll ? await rollSubscriptionPeriodIn(tx, roll, billed.subscription) : null;
  return { billed, state };
}

/**
 * Period close (called when a subscription's period is billed at its end): deferred revenue of
 * lines whose service period has ended is recognized, and promotional credit that has expired is
 * written off, for the subscription's customer and the invoice's payer, in the period close's transaction.
 */
async function closeLedgerPeriod(tx: DbClient, input: { customerIds: readonly string[]; at: Date }): Promise<void> {
  for (const customerId of new Set(input.customerIds)) {
    await recognizeDeferredRevenue(tx, customerId, input.at);
    await expireWalletCredit(tx, customerId, input.at);
  }
}
