/**
 * Temporal Schedules of the periodic jobs (visible in the Temporal UI): each is created once, its
 * workflow started on the worker's task queue, never two runs at once.
 */
import { ScheduleAlreadyRunning, type Client, type ScheduleSpec } from '@temporalio/client';

export interface PeriodicJob {
  scheduleId: string;
  workflowType: string;
  spec: ScheduleSpec;
  description: string;
}

/**
 * Creates the job's schedule unless it exists; with `runNow` it also runs it at once (a worker
 * starting after downtime catches up without waiting for the next slot).
 */
export async function ensureSchedule(client: Client, taskQueue: string, job: PeriodicJob, options: { runNow?: boolean } = {}): Promise<void> {
  try {
    await client.schedule.create({
      scheduleId: job.scheduleId,
      spec: job.spec,
      action: { type: 'startWorkflow', workflowType: job.workflowType, taskQueue, args: [] },
      policies: { overlap: 'SKIP' },
      memo: { description: job.description },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  if (options.runNow) await client.schedule.getHandle(job.scheduleId).trigger();
}
