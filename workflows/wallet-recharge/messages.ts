/**
 * Messages of the wallet auto-recharge workflow (./index.ts): its input and result, the operator's
 * retry, the settled signal, its id.
 */
import { defineSignal, defineUpdate } from '@temporalio/workflow';
import type { SubscriptionCommand } from '../shared/messages.js';

/** One auto-recharge of a wallet: charges the Pending top-up its threshold crossing recorded. */
export interface WalletRechargeInput {
  topUpId: string;
}

/** What became of the top-up: Succeeded, Failed, or Pending (the processor's notification decides). */
export interface WalletRechargeResult {
  topUpId: string;
  status: 'Pending' | 'Succeeded' | 'Failed';
}

/**
 * An operator's retry of the auto-recharge step that failed with a billing_error (recording the
 * top-up Failed): clears it, and answers once the step ran again (done, or failed again with a new
 * billing_error).
 */
export const retryWalletTopUpUpdate = defineUpdate<WalletRechargeResult | null, [SubscriptionCommand]>('retryWalletTopUp');

/** The processor settled a top-up whose workflow holds a billing_error: the hold ends with this status. */
export const walletTopUpSettledSignal = defineSignal<[{ status: 'Succeeded' | 'Failed' }]>('walletTopUpSettled');

export const walletRechargeWorkflowId = (topUpId: string): string => `wallet-recharge:${topUpId}`;
