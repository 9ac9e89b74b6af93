/**
 * Task queues. Invoice workflows and their activities run on a queue of their own: activities of the
 * subscription queue call updates on invoice workflows and wait for them, so sharing one queue's
 * slots could leave every slot waiting on work that has no slot to run in.
 */
export const invoiceTaskQueue = (taskQueue: string): string => `${taskQueue}-invoices`;

/**
 * Webhook deliveries run on a queue of their own: their attempts wait on receivers (up to the
 * delivery timeout each), which must never take the slots billing work runs in.
 */
export const webhookTaskQueue = (taskQueue: string): string => `${taskQueue}-webhooks`;
