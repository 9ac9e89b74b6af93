/**
 * Messages of the dunning workflow (./index.ts): its input and state, the closing signal, the
 * test-clock advance, the operator's retry, its id.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { SubscriptionCommand } from '../shared/messages.js';

export type DunningStatus = 'Active' | 'Resolved' | 'Exhausted';

export interface DunningWorkflowInput {
  invoiceId: string;
  /** When the payment failed (ISO): retries are due the schedule's days after it. */
  failedAt: string;
  scheduleDays: number[];
  /** Retries already made (a re-driven schedule continues where it stopped). */
  attemptCount: number;
  testClock: { id: string; now: string } | null;
}

export interface DunningState {
  status: DunningStatus;
  attemptCount: number;
}

/** The schedule was closed from outside its workflow (payment collected, invoice paid or voided). */
export const dunningClosedSignal = defineSignal<[DunningState]>('dunningClosed');

export const dunningStateQuery = defineQuery<DunningState>('dunningState');

/** The test-clock advance of a dunning workflow: the same update name the test clock sends to subscriptions. */
export const advanceDunningClockUpdate = defineUpdate<{ caughtUp: boolean }, [string]>('advanceTestClock');

/**
 * An operator's retry of the dunning retry that failed with a billing_error: clears it, and answers
 * once it ran again (done, or failed again with a new billing_error).
 */
export const retryDunningUpdate = defineUpdate<DunningState, [SubscriptionCommand]>('retryDunning');

export const dunningWorkflowId = (invoiceId: string): string => `dunning:${invoiceId}`;
