import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Logger } from '../logger.js';
import { invoiceTaskQueue, webhookTaskQueue } from './task-queues.js';

export const WORKFLOWS_PATH = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

/** Webhook attempts in flight per worker process, by default. */
const DEFAULT_WEBHOOK_ATTEMPTS = 32;

export interface WorkerParams {
  address: string;
  namespace: string;
  /** The subscription task queue; invoice workflows get its invoice queue (task-queues.ts). */
  taskQueue: string;
  activities: object;
  logger: Logger;
  /**
   * Activities run at once per task queue. Each holds at most one database connection, so the two
   * queues together should not exceed the process's pool, or activities wait for connections.
   */
  maxConcurrentActivities: number;
  /**
   * Webhook attempts (local activities) run at once on the webhooks queue. An attempt holds a
   * database connection only to read the delivery and record the outcome, not while it waits.
   */
  maxConcurrentWebhookAttempts?: number;
  /** A prebuilt bundle (tests reuse one); when absent the workflows are bundled once here. */
  workflowBundle?: WorkerOptions['workflowBundle'];
}

/** The workers of one process: one per task queue (subscriptions, invoices, webhooks), sharing a connection, a bundle and the activities. */
export interface BillingWorkers {
  connection: NativeConnection;
  /** Resolves once every worker has stopped (after shutdown(), or SIGINT/SIGTERM through the runtime). */
  run(): Promise<void>;
  shutdown(): void;
}

export async function createWorkers(params: WorkerParams): Promise<BillingWorkers> {
  const connection = await NativeConnection.connect({ address: params.address });
  const workflowBundle = params.workflowBundle ?? (await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH }));
  const webhooks = webhookTaskQueue(params.taskQueue);
  const queues = [params.taskQueue, invoiceTaskQueue(params.taskQueue), webhooks];
  const workers = await Promise.all(
    queues.map((taskQueue) =>
      Worker.create({
        connection,
        namespace: params.namespace,
        taskQueue,
        activities: params.activities,
        workflowBundle,
        maxConcurrentActivityTaskExecutions: params.maxConcurrentActivities,
        ...(taskQueue === webhooks ? { maxConcurrentLocalActivityExecutions: params.maxConcurrentWebhookAttempts ?? DEFAULT_WEBHOOK_ATTEMPTS } : {}),
      }),
    ),
  );
  params.logger.info({ taskQueues: queues, namespace: params.namespace }, 'worker ready');
  return {
    connection,
    run: async () => {
      await Promise.all(workers.map((worker) => worker.run()));
    },
    shutdown: () => {
      for (const worker of workers) if (worker.getState() === 'RUNNING') worker.shutdown();
    },
  };
}
