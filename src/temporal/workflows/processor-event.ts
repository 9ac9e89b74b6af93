/**
 * The processor-event workflow (`processor-event:<event id>`, on the subscription task queue): one
 * per payment processor notification, which it applies; an operator retries its held step.
 */
import type { SubscriptionCommand } from '../../../workflows/shared/messages.js';
import { processorEventWorkflowId, retryProcessorEventUpdate } from '../../../workflows/processor-event/messages.js';
import { startedUnlessTaken, type TemporalGateway } from '../gateway.js';
import { runUpdate } from '../updates.js';

/** Starts the notification's workflow; one that ever ran is not started again. */
export async function startProcessorEventWorkflow(gateway: TemporalGateway, eventId: string): Promise<void> {
  await startedUnlessTaken(() =>
    gateway.client.workflow.start('processorEventWorkflow', {
      workflowId: processorEventWorkflowId(eventId),
      taskQueue: gateway.taskQueue,
      args: [{ eventId }],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    }),
  );
}

/** An operator's retry of the held application of the notification (docs/failures.md). */
export async function retryProcessorEventStep(gateway: TemporalGateway, eventId: string, command: SubscriptionCommand): Promise<void> {
  await runUpdate('processor_event', () => gateway.client.workflow.getHandle(processorEventWorkflowId(eventId)).executeUpdate(retryProcessorEventUpdate, { args: [command] }));
}
