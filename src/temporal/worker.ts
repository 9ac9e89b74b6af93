import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Logger } from '../logger.js';

export const WORKFLOWS_PATH = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

export interface WorkerParams {
  address: string;
  namespace: string;
  taskQueue: string;
  activities: object;
  logger: Logger;
  /** A prebuilt bundle (tests reuse one); when absent the worker bundles workflows/ itself. */
  workflowBundle?: WorkerOptions['workflowBundle'];
}

export async function createWorker(params: WorkerParams): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: params.address });
  const worker = await Worker.create({
    connection,
    namespace: params.namespace,
    taskQueue: params.taskQueue,
    activities: params.activities,
    ...(params.workflowBundle ? { workflowBundle: params.workflowBundle } : { workflowsPath: WORKFLOWS_PATH }),
  });
  params.logger.info({ taskQueue: params.taskQueue, namespace: params.namespace }, 'worker ready');
  return { worker, connection };
}
