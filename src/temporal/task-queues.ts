import { TASK_QUEUE_SUFFIXES } from '../../workflows/shared/messages.js';

/**
 * Task queues. Invoice workflows and their activities run on a queue of their own: activities of the
 * subscription queue call updates on invoice workflows and wait for them, so sharing one queue's
 * slots could leave every slot waiting on work that has no slot to run in.
 */
export const invoiceTaskQueue = (taskQueue: string): string => `${taskQueue}${TASK_QUEUE_SUFFIXES.invoices}`;

/**
 * Webhook deliveries run on a queue of their own: their attempts wait on receivers (up to the
 * delivery timeout each), which must never take the slots billing work runs in.
 */
export const webhookTaskQueue = (taskQueue: string): string => `${taskQueue}${TASK_QUEUE_SUFFIXES.webhooks}`;

/**
 * Id reuse of invoice workflows: a run that completed (the invoice is Paid or Void) is never
 * followed by another, so an update-with-start racing the completion is refused instead of starting
 * a new run; only a run that failed or was terminated may be started again.
 */
export const INVOICE_WORKFLOW_REUSE_POLICY = 'ALLOW_DUPLICATE_FAILED_ONLY' as const;

/**
 * Test-clock advances run on a queue of their own: an advance's activity waits on the updates of
 * every workflow on the clock, whose activities must never wait for the slots it holds.
 */
export const testClockTaskQueue = (taskQueue: string): string => `${taskQueue}${TASK_QUEUE_SUFFIXES.testClocks}`;

/**
 * Price simulations run on a queue of their own, with few activity slots: their batches read much
 * and bill nothing, and must never take the slots (nor the database connections) billing runs on.
 */
export const simulationTaskQueue = (taskQueue: string): string => `${taskQueue}${TASK_QUEUE_SUFFIXES.simulations}`;
