/**
 * One workflow per auto-recharge (id `wallet-recharge:<top-up id>`, so a threshold crossing is
 * charged at most once): the drawdown that crossed the threshold recorded a Pending top-up in its
 * transaction; this charges it through the payment processor (idempotency key per top-up) and
 * records the answer. A processor that cannot be reached is retried on a bounded schedule; a
 * domain refusal is final. Either way a top-up that could not be charged ends Failed, never Pending.
 *
 * Recording it Failed can itself fail for good (deterministically, or past its retry schedule):
 * that no longer fails the workflow, leaving the top-up Pending with nothing to show for it (patch
 * WALLET_RECHARGE_BILLING_ERRORS). It is recorded as the top-up's billing_error (row, audit entry,
 * log line) and the workflow holds until an operator's `retryWalletTopUp` update, which clears it
 * and runs the step again, or until the processor settles the top-up meanwhile (patch
 * WALLET_RECHARGE_SETTLED_ENDS_HOLD: `walletTopUpSettled` signal).
 */
import { ActivityFailure, allHandlersFinished, condition, patched, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { OperatorHold } from '../hold.js';
import { ACTIVITY_RETRY, INVALID_TRANSITION, NOT_FOUND, UNPROCESSABLE } from '../shared/messages.js';
import { retryWalletTopUpUpdate, walletTopUpSettledSignal, type WalletRechargeInput, type WalletRechargeResult } from './messages.js';

const { abandonWalletTopUp } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', nonRetryableErrorTypes: [NOT_FOUND] },
});

/** Under WALLET_RECHARGE_BILLING_ERRORS: recording the top-up Failed retries a transient failure on the bounded schedule. */
const bounded = proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: ACTIVITY_RETRY });

const { chargeWalletTopUp } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: {
    initialInterval: '2 seconds',
    maximumInterval: '5 minutes',
    maximumAttempts: 20,
    nonRetryableErrorTypes: [INVALID_TRANSITION, NOT_FOUND, UNPROCESSABLE],
  },
});

/**
 * Changes to the released workflow, each behind `patched(id)` (docs/versioning.md):
 * recording the top-up Failed that fails for good is held as the top-up's billing_error instead of
 * failing the run.
 */
export const WALLET_RECHARGE_BILLING_ERRORS = 'wallet-recharge-billing-errors';
/**
 * The processor settled the top-up (a late notification) while its failed step is held: the hold
 * ends with the settled status (the settling cleared the billing_error).
 */
export const WALLET_RECHARGE_SETTLED_ENDS_HOLD = 'wallet-recharge-settled-ends-hold';

export async function walletRechargeWorkflow(input: WalletRechargeInput): Promise<WalletRechargeResult> {
  // The failed step held for an operator (only under WALLET_RECHARGE_BILLING_ERRORS); released with
  // the billing_error held while it is being recorded. Its steps: those attempted after the charge.
  const hold = new OperatorHold({ entity: 'wallet_top_up', id: input.topUpId, what: `wallet top-up ${input.topUpId}`, activities: bounded, heldWhileRecording: true });
  let result: WalletRechargeResult | null = null;
  hold.registerRetry(retryWalletTopUpUpdate, () => result);

  setHandler(walletTopUpSettledSignal, ({ status }) => {
    if (hold.error !== null && result === null && patched(WALLET_RECHARGE_SETTLED_ENDS_HOLD)) {
      result = { topUpId: input.topUpId, status };
      hold.release();
    }
  });

  try {
    return await chargeWalletTopUp(input.topUpId);
  } catch (err) {
    // Refused for good, or the processor stayed unreachable through every retry: the top-up is
    // recorded Failed with the reason (audited and logged), which lets the next crossing recharge.
    const reason = err instanceof ActivityFailure && err.cause instanceof Error ? err.cause.message : String(err);
    if (!patched(WALLET_RECHARGE_BILLING_ERRORS)) return abandonWalletTopUp(input.topUpId, reason);
    const failures = {
      holds: (abandonErr: unknown): abandonErr is ActivityFailure => abandonErr instanceof ActivityFailure,
      at: () => new Date().toISOString(),
      message: 'wallet top-up could not be recorded Failed; holding for an operator retry',
      fields: { topUpId: input.topUpId },
    };
    while (result === null) {
      await hold.attempt(async () => {
        result = await bounded.abandonWalletTopUp(input.topUpId, reason);
      }, failures);
      // Held until an operator retries; the loop then records the top-up Failed again.
      await hold.released();
    }
    await condition(allHandlersFinished);
    return result;
  }
}
