/**
 * The wallet auto-recharge workflow (`wallet-recharge:<top-up id>`, on the subscription task queue):
 * one per Pending auto-recharge, told when the processor settled a held top-up, retried by an
 * operator when its step is held.
 */
import type { SubscriptionCommand } from '../../../workflows/shared/messages.js';
import { retryWalletTopUpUpdate, walletRechargeWorkflowId, walletTopUpSettledSignal } from '../../../workflows/wallet-recharge/messages.js';
import { startedUnlessTaken, unlessWorkflowGone, type TemporalGateway } from '../gateway.js';
import { workflowSearchAttributes } from '../search-attributes.js';
import { runUpdate } from '../updates.js';

/** Starts the top-up's workflow; false when one was started for it already. */
export function startWalletRechargeWorkflow(gateway: TemporalGateway, topUpId: string, customerId: string): Promise<boolean> {
  return startedUnlessTaken(() =>
    gateway.client.workflow.start('walletRechargeWorkflow', {
      workflowId: walletRechargeWorkflowId(topUpId),
      taskQueue: gateway.taskQueue,
      args: [{ topUpId }],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: workflowSearchAttributes({ customerId }),
    }),
  );
}

/** Tells the workflow of a held top-up that the processor settled it; an ended workflow needs nothing. */
export async function signalTopUpSettled(gateway: TemporalGateway, topUpId: string, status: 'Succeeded' | 'Failed'): Promise<void> {
  await unlessWorkflowGone(() => gateway.client.workflow.getHandle(walletRechargeWorkflowId(topUpId)).signal(walletTopUpSettledSignal, { status }), undefined);
}

/** An operator's retry of the held recharge step (docs/failures.md). */
export async function retryWalletRechargeStep(gateway: TemporalGateway, topUpId: string, command: SubscriptionCommand): Promise<void> {
  await runUpdate('wallet_top_up', () => gateway.client.workflow.getHandle(walletRechargeWorkflowId(topUpId)).executeUpdate(retryWalletTopUpUpdate, { args: [command] }));
}
