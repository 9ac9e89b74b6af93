/**
 * Message definitions shared by workflows and the API (which must never import workflow code).
 * Timestamps cross the boundary as ISO strings; money as decimal strings.
 */
import { defineQuery, defineUpdate } from '@temporalio/workflow';

export type SubscriptionStatus = 'Trialing' | 'Active' | 'PastDue' | 'Paused' | 'Cancelled' | 'Expired';

export interface ActorRef {
  type: 'admin' | 'customer' | 'api_key' | 'system';
  id: string;
}

export interface SubscriptionCommand {
  actor: ActorRef;
  reason?: string;
  requestId?: string;
  /** Business time of a command the system issues (e.g. a period close), ISO; else the entity's now. */
  at?: string;
}

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
}

/** Answer of the clock-advance update: caughtUp=false means the run continued as new; ask again. */
export interface ClockAdvanceResult {
  caughtUp: boolean;
  status: SubscriptionStatus;
}

/** Failure type of an update rejected because the state machine does not allow it. */
export const INVALID_TRANSITION = 'InvalidTransition';
/** Failure types of activities refused by a domain rule: retrying them can never succeed. */
export const NOT_FOUND = 'NotFound';
export const UNPROCESSABLE = 'Unprocessable';

export const pauseSubscriptionUpdate = defineUpdate<SubscriptionSnapshot, [SubscriptionCommand]>('pauseSubscription');
export const resumeSubscriptionUpdate = defineUpdate<SubscriptionSnapshot, [SubscriptionCommand]>('resumeSubscription');
export const cancelSubscriptionUpdate = defineUpdate<SubscriptionSnapshot, [SubscriptionCommand]>('cancelSubscription');
export const advanceClockUpdate = defineUpdate<ClockAdvanceResult, [string]>('advanceTestClock');
export const subscriptionStateQuery = defineQuery<SubscriptionSnapshot>('subscriptionState');
/** When the workflow next has something to do on its own (ISO), or null: test clocks advance in these steps. */
export const nextWakeQuery = defineQuery<string | null>('nextWakeAt');

export const subscriptionWorkflowId = (subscriptionId: string): string => `subscription:${subscriptionId}`;

export type InvoiceStatus = 'Draft' | 'Open' | 'Paid' | 'Void';

export interface InvoiceWorkflowInput {
  invoiceId: string;
  status: InvoiceStatus;
}

export interface InvoiceOutcome {
  status: InvoiceStatus;
  invoiceNumber: string | null;
}

export interface PayInvoiceCommand extends SubscriptionCommand {
  /** Who paid, as the caller reports it (SPEC: actor_id, actor_name); the audit actor is the caller. */
  paidBy: { actorId: string; actorName: string | null };
}

export const finalizeInvoiceUpdate = defineUpdate<InvoiceOutcome, [SubscriptionCommand]>('finalizeInvoice');
export const payInvoiceUpdate = defineUpdate<InvoiceOutcome, [PayInvoiceCommand]>('payInvoice');
export const voidInvoiceUpdate = defineUpdate<InvoiceOutcome, [SubscriptionCommand]>('voidInvoice');
export const invoiceStateQuery = defineQuery<InvoiceOutcome>('invoiceState');

export const invoiceWorkflowId = (invoiceId: string): string => `invoice:${invoiceId}`;

/** Subscription-level billing commands (bill now, change plan). */
export interface BillNowResult {
  invoiceId: string | null;
  /** True when this call opened the Draft, false when it refreshed one. */
  created: boolean;
}

export interface ChangePlanCommand extends SubscriptionCommand {
  planId: string;
}

export const billSubscriptionUpdate = defineUpdate<BillNowResult, [SubscriptionCommand]>('billSubscription');
export const changePlanUpdate = defineUpdate<BillNowResult, [ChangePlanCommand]>('changePlan');
