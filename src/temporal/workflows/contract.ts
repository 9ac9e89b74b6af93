/**
 * The contract workflow (`contract:<id>`, on the subscription task queue): its start, the change
 * signal an amendment sends, and an operator's retry of its held step.
 */
import type { SubscriptionCommand } from '../../../workflows/shared/messages.js';
import { contractChangedSignal, contractWorkflowId, type ContractWorkflowInput, retryContractUpdate } from '../../../workflows/contract/messages.js';
import { unlessWorkflowGone, workflowRunState, type TemporalGateway, type WorkflowRunState } from '../gateway.js';
import { workflowSearchAttributes } from '../search-attributes.js';
import { runUpdate } from '../updates.js';

/** Starts the contract's workflow unless it runs already (USE_EXISTING). */
export async function startContractWorkflow(gateway: TemporalGateway, input: ContractWorkflowInput, about: { customerId: string; testClockId: string | null }): Promise<void> {
  await gateway.client.workflow.start('contractWorkflow', {
    workflowId: contractWorkflowId(input.contractId),
    taskQueue: gateway.taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    memo: { customer_id: about.customerId },
    typedSearchAttributes: workflowSearchAttributes({ customerId: about.customerId, testClockId: about.testClockId }),
  });
}

/** Whether the contract's workflow runs, has ended, or was never started. */
export const contractWorkflowState = (gateway: TemporalGateway, contractId: string): Promise<WorkflowRunState> => workflowRunState(gateway, contractWorkflowId(contractId));

/** Tells the contract's workflow its contract changed (it re-reads it); an ended workflow needs nothing. */
export async function signalContractChanged(gateway: TemporalGateway, contractId: string): Promise<void> {
  await unlessWorkflowGone(() => gateway.client.workflow.getHandle(contractWorkflowId(contractId)).signal(contractChangedSignal), undefined);
}

/** An operator's retry of the held step (docs/failures.md). */
export async function retryContractStep(gateway: TemporalGateway, contractId: string, command: SubscriptionCommand): Promise<void> {
  await runUpdate('contract', () => gateway.client.workflow.getHandle(contractWorkflowId(contractId)).executeUpdate(retryContractUpdate, { args: [command] }));
}
