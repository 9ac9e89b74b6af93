/**
 * The webhook delivery workflow (`webhook:<event id>:<endpoint id>`, on the webhooks task queue):
 * one per delivery of an event to an endpoint, started by the outbox relay and by a resend.
 */
import { circuitReadySignal, type WebhookDeliveryInput, webhookDeliveryWorkflowId } from '../../../workflows/webhook-delivery/messages.js';
import { startedUnlessTaken, unlessWorkflowGone, workflowRunState, type TemporalGateway } from '../gateway.js';

export { PARKED_RECHECK_MS } from '../../../workflows/webhook-delivery/messages.js';
import { webhookTaskQueue } from '../task-queues.js';

/** The delivery's workflow id, as the delivery log shows it. */
export const deliveryWorkflowId = (delivery: { eventId: string; endpointId: string }): string => webhookDeliveryWorkflowId(delivery.eventId, delivery.endpointId);

/**
 * Starts the delivery's workflow. `again` is a resend: the id of a finished delivery may run once
 * more; otherwise an id that ever ran is refused. Returns false when the workflow already existed.
 */
export function startDeliveryWorkflowRun(gateway: TemporalGateway, input: WebhookDeliveryInput, again: boolean): Promise<boolean> {
  return startedUnlessTaken(() =>
    gateway.client.workflow.start('webhookDeliveryWorkflow', {
      workflowId: deliveryWorkflowId(input),
      taskQueue: webhookTaskQueue(gateway.taskQueue),
      args: [input],
      workflowIdReusePolicy: again ? 'ALLOW_DUPLICATE' : 'REJECT_DUPLICATE',
      workflowIdConflictPolicy: 'FAIL',
      memo: { event_type: input.eventType, delivery_id: input.deliveryId },
    }),
  );
}

/** Whether the delivery's workflow is running (the delivery is under way). */
export async function deliveryWorkflowRunning(gateway: TemporalGateway, delivery: { eventId: string; endpointId: string }): Promise<boolean> {
  return (await workflowRunState(gateway, deliveryWorkflowId(delivery))) === 'running';
}

/** Wakes a parked delivery: its endpoint's circuit lets it through. False when its workflow is gone (it ended). */
export function signalCircuitReady(gateway: TemporalGateway, delivery: { eventId: string; endpointId: string }): Promise<boolean> {
  return unlessWorkflowGone(async () => {
    await gateway.client.workflow.getHandle(deliveryWorkflowId(delivery)).signal(circuitReadySignal);
    return true;
  }, false);
}
