/**
 * The baseline the workflow benchmarks compare with: how fast the same Temporal server starts and
 * completes trivial workflows, START_CONCURRENCY in flight, each awaited, with a worker in this
 * process. CPU of the server (and PostgreSQL) is sampled over the run.
 */
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Worker } from '@temporalio/worker';
import { connectTemporal } from '../../src/temporal/client.js';
import { sampleCpu, type CpuShare } from '../metering/load.js';

export const START_CONCURRENCY = 32;

export interface WorkflowRate {
  perSecond: number;
  seconds: number;
  cpu: CpuShare;
}

export interface TrivialWorkflow {
  /** The module (URL) exporting the workflow. */
  module: URL;
  type: string;
  activities?: Record<string, () => Promise<void>>;
}

export async function workflowRate(
  address: string,
  pids: { temporal: number; postgres: number },
  workflow: TrivialWorkflow,
  count: number,
  label: string,
  log: (line: string) => void,
): Promise<WorkflowRate> {
  const connection = await NativeConnection.connect({ address });
  const taskQueue = `bench-${workflow.type}-${label}`;
  const worker = await Worker.create({
    connection,
    taskQueue,
    workflowBundle: await bundleWorkflowCode({ workflowsPath: fileURLToPath(workflow.module), logger: new DefaultLogger('WARN') }),
    ...(workflow.activities ? { activities: workflow.activities } : {}),
  });
  const running = worker.run();
  const client = await connectTemporal(address, 'default');
  const cpu = sampleCpu(pids.temporal, pids.postgres);
  const started = performance.now();
  let next = 0;
  let done = 0;
  const progress = setInterval(() => log(`${workflow.type} (${label}): ${done}/${count}`), 5_000);
  try {
    await Promise.all(
      Array.from({ length: Math.min(START_CONCURRENCY, count) }, async () => {
        while (next < count) {
          const n = next++;
          const handle = await client.client.workflow.start(workflow.type, { taskQueue, workflowId: `${taskQueue}-${n}`, args: [] });
          await handle.result();
          done += 1;
        }
      }),
    );
  } finally {
    clearInterval(progress);
  }
  const seconds = (performance.now() - started) / 1000;
  const share = cpu();
  worker.shutdown();
  await running;
  await Promise.all([connection.close(), client.connection.close()]);
  log(`${workflow.type} (${label}): ${count} in ${seconds.toFixed(1)} s = ${(count / seconds).toFixed(1)}/s`);
  return { perSecond: count / seconds, seconds, cpu: share };
}
