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

/**
 * Temporal refuses a workflow id longer than this (its default `limit.maxIDLength`). A workflow's
 * child start of such an id would fail that workflow's task on every attempt, so a notification
 * whose id cannot name a workflow is refused before its start is asked for.
 */
export const MAX_WORKFLOW_ID_LENGTH = 1000;

/** Why the notification's workflow cannot be started (its id is too long for Temporal), or null. */
export function processorEventWorkflowRefusal(eventId: string): string | null {
  const length = Buffer.byteLength(processorEventWorkflowId(eventId), 'utf8');
  return length > MAX_WORKFLOW_ID_LENGTH ? `WorkflowId length exceeds limit: ${length} bytes, Temporal takes at most ${MAX_WORKFLOW_ID_LENGTH}` : null;
}

/** An operator's retry of the held application of the notification (docs/failures.md). */
export async function retryProcessorEventStep(gateway: TemporalGateway, eventId: string, command: SubscriptionCommand): Promise<void> {
  await runUpdate('processor_event', () => gateway.client.workflow.getHandle(processorEventWorkflowId(eventId)).executeUpdate(retryProcessorEventUpdate, { args: [command] }));
}
