/**
 * Temporal Schedules of the periodic jobs (visible in the Temporal UI): each is created once, its
 * workflow started on the worker's task queue, never two runs at once. The worker creates them all
 * at start (ensurePeriodicSchedules).
 */
import { ScheduleAlreadyRunning, type ScheduleSpec } from '@temporalio/client';
import { CONTRACT_RECONCILE_SCHEDULE_ID } from '../../workflows/contract-reconcile/messages.js';
import { DUNNING_CHECK_SCHEDULE_ID } from '../../workflows/dunning-check/messages.js';
import { LATE_USAGE_CORRECTIONS_SCHEDULE_ID } from '../../workflows/late-usage-corrections/messages.js';
import { REVENUE_RECOGNITION_SCHEDULE_ID } from '../../workflows/revenue-recognition/messages.js';
import { USAGE_EVENT_RETENTION_SCHEDULE_ID } from '../../workflows/usage-event-retention/messages.js';
import type { TemporalGateway } from './gateway.js';

export interface PeriodicJob {
  scheduleId: string;
  workflowType: string;
  spec: ScheduleSpec;
  description: string;
}

/** check_due_attempts (SPEC §3): daily, re-drives overdue dunning retries whose workflow is not running. */
export const DUNNING_CHECK_JOB: PeriodicJob = {
  scheduleId: DUNNING_CHECK_SCHEDULE_ID,
  workflowType: 'dunningCheckWorkflow',
  spec: { calendars: [{ hour: 3, minute: 0 }] },
  description: 'check_due_attempts: re-drives overdue dunning retries whose workflow is not running',
};

/** Hourly: contracts whose workflow start was lost (a process died after the commit) get one. */
export const CONTRACT_RECONCILE_JOB: PeriodicJob = {
  scheduleId: CONTRACT_RECONCILE_SCHEDULE_ID,
  workflowType: 'contractReconcileWorkflow',
  spec: { intervals: [{ every: '1 hour' }] },
  description: 'starts the workflows of contracts that have work left but no workflow (lost after the commit)',
};

/** Daily: deferred revenue recognized month by month for customers on no test clock. */
export const REVENUE_RECOGNITION_JOB: PeriodicJob = {
  scheduleId: REVENUE_RECOGNITION_SCHEDULE_ID,
  workflowType: 'revenueRecognitionWorkflow',
  // Steps fall on UTC month starts at midnight: posted a few minutes after, dated at the step.
  spec: { calendars: [{ hour: 0, minute: 10 }] },
  description: 'posts the ratable revenue recognition steps due up to now for customers on no test clock',
};

/** Daily: the late usage of ended subscriptions on no test clock, billed on correction invoices. */
export const LATE_USAGE_CORRECTIONS_JOB: PeriodicJob = {
  scheduleId: LATE_USAGE_CORRECTIONS_SCHEDULE_ID,
  workflowType: 'lateUsageCorrectionsWorkflow',
  spec: { calendars: [{ hour: 0, minute: 20 }] },
  description: 'bills the late usage of ended subscriptions on no test clock on correction invoices',
};

/**
 * Daily: raw usage events older than USAGE_EVENT_RETENTION_DAYS in final, rolled-up periods are
 * deleted (every customer, test-clock customers in their clock's time); a run with the retention
 * off deletes nothing. Not run at a worker's start: nothing is owed that a day's wait would delay.
 */
export const USAGE_EVENT_RETENTION_JOB: PeriodicJob = {
  scheduleId: USAGE_EVENT_RETENTION_SCHEDULE_ID,
  workflowType: 'usageEventRetentionWorkflow',
  spec: { calendars: [{ hour: 1, minute: 30 }] },
  description: 'deletes raw usage events older than USAGE_EVENT_RETENTION_DAYS whose periods are closed, final and rolled up',
};

/**
 * Creates the job's schedule unless it exists; with `runNow` it also runs it at once (a worker
 * starting after downtime catches up without waiting for the next slot).
 */
export async function ensureSchedule(gateway: TemporalGateway, job: PeriodicJob, options: { runNow?: boolean } = {}): Promise<void> {
  try {
    await gateway.client.schedule.create({
      scheduleId: job.scheduleId,
      spec: job.spec,
      action: { type: 'startWorkflow', workflowType: job.workflowType, taskQueue: gateway.taskQueue, args: [] },
      policies: { overlap: 'SKIP' },
      memo: { description: job.description },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  if (options.runNow) await gateway.client.schedule.getHandle(job.scheduleId).trigger();
}

/**
 * Every periodic job's schedule; with `runNow` the reconciler, recognition and late-usage jobs also
 * run at once (the dunning check waits for its slot: the dunning workflows run on their own; so
 * does the usage event retention).
 */
export async function ensurePeriodicSchedules(gateway: TemporalGateway, options: { runNow?: boolean } = {}): Promise<void> {
  for (const job of [DUNNING_CHECK_JOB, USAGE_EVENT_RETENTION_JOB]) await ensureSchedule(gateway, job);
  for (const job of [CONTRACT_RECONCILE_JOB, REVENUE_RECOGNITION_JOB, LATE_USAGE_CORRECTIONS_JOB]) await ensureSchedule(gateway, job, options);
}
