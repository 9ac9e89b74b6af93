/**
 * One workflow per auto-recharge (id `wallet-recharge:<top-up id>`, so a threshold crossing is
 * charged at most once): the drawdown that crossed the threshold recorded a Pending top-up in its
 * transaction; this charges it through the payment processor (idempotency key per top-up) and
 * records the answer. A processor that cannot be reached is retried on a bounded schedule; a
 * domain refusal is final. Either way a top-up that could not be charged ends Failed, never Pending.
 */
import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { INVALID_TRANSITION, NOT_FOUND, UNPROCESSABLE, type WalletRechargeInput, type WalletRechargeResult } from './messages.js';

const { abandonWalletTopUp } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', nonRetryableErrorTypes: [NOT_FOUND] },
});

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
  try {
    return await chargeWalletTopUp(input.topUpId);
  } catch (err) {
    // Refused for good, or the processor stayed unreachable through every retry: the top-up is
    // recorded Failed with the reason (audited and logged), which lets the next crossing recharge.
    const reason = err instanceof ActivityFailure && err.cause instanceof Error ? err.cause.message : String(err);
    return abandonWalletTopUp(input.topUpId, reason);
  }
}
