import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Logger } from '../logger.js';
import { connectionOptions, PLAINTEXT, type TemporalSecurity } from './security.js';
import { sdkLogger } from './sdk-logs.js';
import { invoiceTaskQueue, simulationTaskQueue, testClockTaskQueue, webhookTaskQueue } from './task-queues.js';

export const WORKFLOWS_PATH = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

/** Webhook attempts in flight per worker process, by default. */
const DEFAULT_WEBHOOK_ATTEMPTS = 32;

/** Test-clock advances driven at once per worker process: each waits on the workflows of its clock. */
const TEST_CLOCK_DRIVES = 4;

/** Simulation batches run at once per worker process (each re-rates up to a batch of subscriptions). */
const SIMULATION_BATCHES = 2;

export interface WorkerParams {
  address: string;
  namespace: string;
  /** TLS and credentials of a cluster (src/temporal/security.ts); plaintext when absent. */
  security?: TemporalSecurity;
  /** The subscription task queue; invoice workflows get its invoice queue (task-queues.ts). */
  taskQueue: string;
  activities: object;
  logger: Logger;
  /**
   * Activities run at once per task queue. Each holds at most one database connection, so the two
   * queues together should not exceed the process's pool, or activities wait for connections.
   */
  maxConcurrentActivities: number;
  /** Workflow tasks run at once per task queue (the SDK's default, 40, when absent). */
  maxConcurrentWorkflowTasks?: number;
  /**
   * Webhook attempts (local activities) run at once on the webhooks queue. An attempt holds a
   * database connection only to read the delivery and record the outcome, not while it waits.
   */
  maxConcurrentWebhookAttempts?: number;
  /** A prebuilt bundle (tests reuse one); when absent the workflows are bundled once here. */
  workflowBundle?: WorkerOptions['workflowBundle'];
}

/** The workers of one process: one per task queue (subscriptions, invoices, webhooks, test-clock advances, simulations), sharing a connection, a bundle and the activities. */
export interface BillingWorkers {
  connection: NativeConnection;
  /** Resolves once every worker has stopped (after shutdown(), or SIGINT/SIGTERM through the runtime). */
  run(): Promise<void>;
  shutdown(): void;
}

export async function createWorkers(params: WorkerParams): Promise<BillingWorkers> {
  const connection = await NativeConnection.connect({ address: params.address, ...connectionOptions(params.security ?? PLAINTEXT) });
  // The bundler's lines (webpack) go through the process's pino logger as JSON too.
  const workflowBundle = params.workflowBundle ?? (await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: sdkLogger(params.logger) }));
  const webhooks = webhookTaskQueue(params.taskQueue);
  const testClocks = testClockTaskQueue(params.taskQueue);
  const simulations = simulationTaskQueue(params.taskQueue);
  const queues = [params.taskQueue, invoiceTaskQueue(params.taskQueue), webhooks, testClocks, simulations];
  const activitySlots = (taskQueue: string): number =>
    taskQueue === testClocks ? TEST_CLOCK_DRIVES : taskQueue === simulations ? SIMULATION_BATCHES : params.maxConcurrentActivities;
  const workers = await Promise.all(
    queues.map((taskQueue) =>
      Worker.create({
        connection,
        namespace: params.namespace,
        taskQueue,
        activities: params.activities,
        workflowBundle,
        maxConcurrentActivityTaskExecutions: activitySlots(taskQueue),
        ...(params.maxConcurrentWorkflowTasks === undefined ? {} : { maxConcurrentWorkflowTaskExecutions: params.maxConcurrentWorkflowTasks }),
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
