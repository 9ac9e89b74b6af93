/**
 * Runs the follow-ups an activity handed back (./messages.ts) from the workflow that called it:
 * starts as children that outlive it (ParentClosePolicy ABANDON: a dunning schedule or a recharge
 * goes on after the invoice's workflow ends), signals to other workflows. Each is what the gateway
 * does for the API (src/temporal/follow-ups.ts), and as idempotent: a workflow that runs already
 * keeps running, a signal to a workflow that ended needs nothing.
 */
import { getExternalWorkflowHandle, log, ParentClosePolicy, startChild, workflowInfo, WorkflowIdReusePolicy } from '@temporalio/workflow';
import { dunningClosedSignal, dunningWorkflowId } from '../dunning/messages.js';
import { subscriptionTaskQueueOf, workflowSearchAttributes } from '../shared/messages.js';
import { paymentOutcomeSignal, subscriptionWorkflowId } from '../subscription/messages.js';
import { walletRechargeWorkflowId } from '../wallet-recharge/messages.js';
import type { FollowUp } from './messages.js';

/** Runs them in order. */
export async function runFollowUps(followUps: readonly FollowUp[]): Promise<void> {
  for (const followUp of followUps) await run(followUp);
}

function run(followUp: FollowUp): Promise<void> {
  switch (followUp.kind) {
    case 'start_wallet_recharge':
      // Once per top-up, ever (as the gateway's start): an ended recharge is not started again.
      return startUnlessRunning('walletRechargeWorkflow', walletRechargeWorkflowId(followUp.topUpId), [{ topUpId: followUp.topUpId }], { customerId: followUp.customerId }, WorkflowIdReusePolicy.REJECT_DUPLICATE);
    case 'start_dunning':
      // A re-driven schedule starts again after its ended run.
      return startUnlessRunning('dunningWorkflow', dunningWorkflowId(followUp.input.invoiceId), [followUp.input], { customerId: followUp.customerId, testClockId: followUp.testClockId }, WorkflowIdReusePolicy.ALLOW_DUPLICATE);
    case 'payment_outcome':
      return signalUnlessGone(subscriptionWorkflowId(followUp.subscriptionId), () =>
        getExternalWorkflowHandle(subscriptionWorkflowId(followUp.subscriptionId)).signal(paymentOutcomeSignal, followUp.outcome),
      );
    case 'dunning_closed':
      return signalUnlessGone(dunningWorkflowId(followUp.invoiceId), () => getExternalWorkflowHandle(dunningWorkflowId(followUp.invoiceId)).signal(dunningClosedSignal, followUp.state));
  }
}

/** Starts a child on the subscription task queue that outlives this workflow; one that runs already (or, by its reuse policy, ran) is kept. */
async function startUnlessRunning(
  workflowType: string,
  workflowId: string,
  args: unknown[],
  about: { customerId: string; testClockId?: string | null },
  workflowIdReusePolicy: WorkflowIdReusePolicy,
): Promise<void> {
  try {
    await startChild(workflowType, {
      workflowId,
      args,
      taskQueue: subscriptionTaskQueueOf(workflowInfo().taskQueue),
      parentClosePolicy: ParentClosePolicy.ABANDON,
      workflowIdReusePolicy,
      typedSearchAttributes: workflowSearchAttributes(about),
    });
  } catch (err) {
    // @temporalio/common's WorkflowExecutionAlreadyStartedError, known by its name (workflows import only the workflow package).
    if (!(err instanceof Error && err.name === 'WorkflowExecutionAlreadyStartedError')) throw err;
  }
}

/** A signal the target cannot take because it ended (or never ran) is dropped, as the gateway does. */
async function signalUnlessGone(workflowId: string, signal: () => Promise<void>): Promise<void> {
  try {
    await signal();
  } catch (err) {
    log.info('follow-up signal not delivered: the workflow is not running', { workflowId, error: String(err) });
  }
}
