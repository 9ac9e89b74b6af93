/**
 * Messages of the subscription workflow (./index.ts): its input and state, the state-machine moves and
 * billing commands (updates), the test-clock advance, the payment outcomes it is signalled, its id.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { SubscriptionCommand } from '../shared/messages.js';

export type SubscriptionStatus = 'Trialing' | 'Active' | 'PastDue' | 'Paused' | 'Cancelled' | 'Expired';

export interface SubscriptionSnapshot {
  status: SubscriptionStatus;
  periodStart: string;
  periodEnd: string;
  trialEnd: string | null;
}

/** A billed period whose invoice is finalized once its grace period is over. */
export interface PendingClose {
  periodStart: string;
  periodEnd: string;
  finalizeAt: string;
}

export interface SubscriptionWorkflowInput extends SubscriptionSnapshot {
  subscriptionId: string;
  /** Present for subscriptions on a test clock: their time only moves when the clock advances. */
  testClock: { id: string; now: string } | null;
  /** Progressive billing: how often (ms of subscription time) accrued charges are checked; null = never. */
  progressiveCheckEveryMs: number | null;
  /** Closed periods waiting for their grace period to end (carried across continue-as-new). */
  pendingCloses: PendingClose[];
  /** Rolled periods whose entitlement reset has not run yet (carried across continue-as-new; absent: none). */
  pendingResets?: ClosedPeriod[];
}

/** A period the subscription has rolled past. */
export interface ClosedPeriod {
  start: string;
  end: string;
}

/** Answer of the clock-advance update: caughtUp=false means the run continued as new; ask again. */
export interface ClockAdvanceResult {
  caughtUp: boolean;
  status: SubscriptionStatus;
  /**
   * What the `nextWakeAt` query would answer once caught up, so a test-clock drive needs no query
   * before its next step. Absent in answers recorded before it was added.
   */
  nextWakeAt?: string | null;
}

export const pauseSubscriptionUpdate = defineUpdate<SubscriptionSnapshot, [SubscriptionCommand]>('pauseSubscription');
export const resumeSubscriptionUpdate = defineUpdate<SubscriptionSnapshot, [SubscriptionCommand]>('resumeSubscription');
export const cancelSubscriptionUpdate = defineUpdate<SubscriptionSnapshot, [SubscriptionCommand]>('cancelSubscription');

/**
 * A test-clock step: the clock's time `to` and, from drives that send it, the time the whole advance
 * reaches (`through`), which lets a period close finalize a Draft whose grace ends within the advance.
 */
export const advanceClockUpdate = defineUpdate<ClockAdvanceResult, [to: string, through?: string]>('advanceTestClock');

/**
 * An operator's retry of the step that failed with a billing_error: clears it, and answers once the
 * step ran again (done, or failed again with a new billing_error).
 */
export const retrySubscriptionBillingUpdate = defineUpdate<SubscriptionSnapshot, [SubscriptionCommand]>('retrySubscriptionBilling');

export const subscriptionStateQuery = defineQuery<SubscriptionSnapshot>('subscriptionState');
export const subscriptionWorkflowId = (subscriptionId: string): string => `subscription:${subscriptionId}`;

/** Subscription-level billing commands (bill now, change plan). */
export interface BillNowResult {
  invoiceId: string | null;
  /** True when this call opened the Draft, false when it refreshed one. */
  created: boolean;
}

export interface ChangePlanCommand extends SubscriptionCommand {
  planId: string;
  /**
   * The plan version to move to; absent: the plan's current version. Only the activity reads it
   * (the workflow passes the command through), so older histories replay unchanged.
   */
  planVersion?: number;
}

export const billSubscriptionUpdate = defineUpdate<BillNowResult, [SubscriptionCommand]>('billSubscription');

/**
 * Coterm adoption: realign the subscription's periods to end on its contract's end date (the period
 * in course is cut short and closed, a stub runs to the first aligned boundary).
 */
export const alignToContractUpdate = defineUpdate<SubscriptionSnapshot, [SubscriptionCommand]>('alignToContract');

export const changePlanUpdate = defineUpdate<BillNowResult, [ChangePlanCommand]>('changePlan');

/**
 * To a subscription workflow: one of its invoices' payment failed, or its arrears were settled, or
 * (`paid`, sent to Trialing subscriptions only) one of its invoices was paid, which ends the trial.
 */
export interface PaymentOutcomeSignal {
  invoiceId: string;
  outcome: 'failed' | 'settled' | 'paid';
  /** When it was paid (ISO, the invoice's test-clock time when it has one); sent with `paid`. */
  at?: string;
}

export const paymentOutcomeSignal = defineSignal<[PaymentOutcomeSignal]>('paymentOutcome');

/**
 * To a subscription workflow with a progressive billing threshold: usage was stored for it (sent by
 * ingestion after the events committed, coalesced per process). The run checks whether the accrued
 * charges crossed the threshold, once per burst (debounced, see ./run.ts).
 */
export interface UsageAccruedSignal {
  /** The customer's time when the usage was stored (ISO; its test clock's for a sandbox customer). */
  at: string;
}

export const usageAccruedSignal = defineSignal<[UsageAccruedSignal]>('usageAccrued');
