/**
 * One workflow per auto-recharge (id `wallet-recharge:<top-up id>`, so a threshold crossing is
 * charged at most once): the drawdown that crossed the threshold recorded a Pending top-up in its
 * transaction; this charges it through the payment processor (idempotency key per top-up) and
 * records the answer. A processor that cannot be reached is retried on a bounded schedule; a
 * domain refusal is final.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { INVALID_TRANSITION, NOT_FOUND, UNPROCESSABLE, type WalletRechargeInput, type WalletRechargeResult } from './messages.js';

const { chargeWalletTopUp } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: {
    initialInterval: '2 seconds',
    maximumInterval: '5 minutes',
    maximumAttempts: 20,
    nonRetryableErrorTypes: [INVALID_TRANSITION, NOT_FOUND, UNPROCESSABLE],
  },
});

export async function walletRechargeWorkflow(input: WalletRechargeInput): Promise<WalletRechargeResult> {
  return chargeWalletTopUp(input.topUpId);
}
