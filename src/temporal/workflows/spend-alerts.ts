/**
 * The spend alert evaluator (`spend-alerts:<customer id>`, on the subscription task queue): one per
 * customer with alerts, started by the first signal that the customer's spend changed.
 */
import { spendAlertWorkflowId, type SpendAlertWorkflowInput, spendChangedSignal } from '../../../workflows/spend-alerts/messages.js';
import type { TemporalGateway } from '../gateway.js';
import { workflowSearchAttributes } from '../search-attributes.js';

/** Tells the customer's evaluator to evaluate, starting it when it is not running (signal-with-start). */
export async function signalSpendChanged(gateway: TemporalGateway, input: SpendAlertWorkflowInput, testClockId: string | null): Promise<void> {
  await gateway.client.workflow.signalWithStart('spendAlertWorkflow', {
    workflowId: spendAlertWorkflowId(input.customerId),
    taskQueue: gateway.taskQueue,
    args: [input],
    signal: spendChangedSignal,
    signalArgs: [],
    memo: { customer_id: input.customerId },
    typedSearchAttributes: workflowSearchAttributes({ customerId: input.customerId, testClockId }),
  });
}
