/**
 * The dunning workflow (`dunning:<invoice id>`, on the subscription task queue): one per dunning
 * schedule, started at an invoice's first failed payment (and again by the daily check when its
 * retry is overdue), told when the schedule closes, retried by an operator when a retry is held.
 */
import type { SubscriptionCommand } from '../../../workflows/shared/messages.js';
import { dunningClosedSignal, type DunningState, dunningWorkflowId, type DunningWorkflowInput, retryDunningUpdate } from '../../../workflows/dunning/messages.js';
import { unlessWorkflowGone, workflowRunState, type TemporalGateway } from '../gateway.js';
import { workflowSearchAttributes } from '../search-attributes.js';
import { runUpdate } from '../updates.js';

/** Starts (or, for a re-driven schedule, restarts) the dunning workflow of a schedule; a running one is kept. */
export async function startDunningWorkflowRun(gateway: TemporalGateway, input: DunningWorkflowInput, about: { customerId: string; testClockId: string | null }): Promise<void> {
  await gateway.client.workflow.start('dunningWorkflow', {
    workflowId: dunningWorkflowId(input.invoiceId),
    taskQueue: gateway.taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    typedSearchAttributes: workflowSearchAttributes({ customerId: about.customerId, testClockId: about.testClockId }),
  });
}

/** Whether the invoice's dunning workflow is running. */
export async function dunningWorkflowRunning(gateway: TemporalGateway, invoiceId: string): Promise<boolean> {
  return (await workflowRunState(gateway, dunningWorkflowId(invoiceId))) === 'running';
}

/** Tells the dunning workflow its schedule closed; an ended workflow needs nothing. */
export async function signalDunningClosed(gateway: TemporalGateway, invoiceId: string, state: DunningState): Promise<void> {
  await unlessWorkflowGone(() => gateway.client.workflow.getHandle(dunningWorkflowId(invoiceId)).signal(dunningClosedSignal, state), undefined);
}

/** An operator's retry of the held dunning retry (docs/failures.md). */
export async function retryDunningStep(gateway: TemporalGateway, invoiceId: string, command: SubscriptionCommand): Promise<void> {
  await runUpdate('dunning_schedule', () => gateway.client.workflow.getHandle(dunningWorkflowId(invoiceId)).executeUpdate(retryDunningUpdate, { args: [command] }));
}
