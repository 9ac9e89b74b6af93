/**
 * The gateway to Temporal: the only way the services reach it. A gateway is the client, its
 * connection and the subscription task queue (the other queues derive from it, task-queues.ts); each
 * workflow's module (src/temporal/workflows/<workflow>.ts) knows that workflow's ids, task queue,
 * search attributes, starts, signals, updates and queries, and src/temporal/schedules.ts the
 * periodic jobs. Services hold a gateway in ServiceDeps.temporal and never import the SDK or
 * workflow code; the workflows' types reach them through src/temporal/messages.ts.
 */
import { isGrpcServiceError, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import type { TemporalHandle } from './client.js';

export interface TemporalGateway extends TemporalHandle {
  /** The subscription task queue (TEMPORAL_TASK_QUEUE); invoices, webhooks and test clocks run on queues named after it. */
  taskQueue: string;
}

/** The gateway of a connected handle, set once in a composition root. */
export const temporalGateway = (handle: TemporalHandle, taskQueue: string): TemporalGateway => ({ client: handle.client, connection: handle.connection, taskQueue });

/** Whether an error (or one it carries) is a gRPC service error of Temporal's, with its status code. */
export { isGrpcServiceError };

/** Reachability: the health check's ping of the namespace, and the API's check before it writes what a workflow must follow. */
export { checkTemporalReachable, pingTemporal } from './client.js';

/** Runs a call addressed to one workflow: `ifGone` when no such workflow exists. */
export async function unlessWorkflowGone<T>(call: () => Promise<T>, ifGone: T): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return ifGone;
    throw err;
  }
}

/** Runs a start: true when it started a run, false when the workflow id was taken (by a running or, per its reuse policy, an ended run). */
export async function startedUnlessTaken(start: () => Promise<unknown>): Promise<boolean> {
  try {
    await start();
    return true;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
}

export type WorkflowRunState = 'missing' | 'running' | 'closed';

/** Whether a workflow id has a running run, only ended ones, or none. */
export function workflowRunState(gateway: TemporalGateway, workflowId: string): Promise<WorkflowRunState> {
  return unlessWorkflowGone(
    async (): Promise<WorkflowRunState> => ((await gateway.client.workflow.getHandle(workflowId).describe()).status.name === 'RUNNING' ? 'running' : 'closed'),
    'missing',
  );
}
