/**
 * Dunning schedules (SPEC §2, §3): reading them, the retries the dunning workflow makes, and the
 * daily safety net (check_due_attempts) that re-drives Active schedules whose retry is overdue but
 * whose workflow is not running. The retries themselves charge through the invoice's workflow
 * (collection.ts records their outcome, the notices and the schedule's progress).
 */
import type { PageQuery } from '../../db/pages.js';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { ensureSchedule } from '../../temporal/schedules.js';
import {
  activeDunningOnClock,
  findDunningByInvoice,
  invoiceState,
  listDunningSchedules,
  lockDunningByInvoice,
  overdueDunningSchedules,
  testClockTime,
  toDunningRecord,
  unprocessedProcessorEvents,
  updateDunningSchedule,
  type DunningScheduleRecord,
  type DunningStatus,
} from '../../db/payments.js';
import type { Db } from '../../db/client.js';
import type { DunningSchedule } from '../../generated/prisma/client.js';
import { DomainError, notFound } from '../../errors.js';
import type { BillingErrorView } from '../../schemas/common.js';
import {
  DUNNING_CHECK_SCHEDULE_ID,
  dunningWorkflowId,
  retryDunningUpdate,
  type DunningCheckSummary,
  type DunningState,
  type FailedRunItem,
  type SubscriptionCommand,
} from '../../../workflows/messages.js';
import { billingErrorView, retryHeldStep } from '../failures/billing-errors.js';
import { runItem } from '../failures/run-items.js';
import { engineActor, recordAudit } from '../audit.js';
import { toPage } from '../pagination.js';
import { closeDunning, startDunningWorkflow } from './collection.js';
import type { PaymentDeps } from './deps.js';
import { runInvoicePayment } from './invoice-payments.js';
import { startEventWorkflow } from './notifications.js';

/** A schedule as the API shows it: with the billing_error its workflow holds for an operator. */
export type DunningScheduleView = DunningScheduleRecord & { billing_error: BillingErrorView };

const toDunningView = (row: DunningSchedule): DunningScheduleView => ({ ...toDunningRecord(row), billing_error: billingErrorView(row.billingError) });

export async function listDunning(
  db: Db,
  filter: { status?: DunningStatus | undefined; customer_id?: string | undefined; subscription_id?: string | undefined },
  page: PageQuery,
) {
  return toPage(await listDunningSchedules(db, filter, page), page.limit, toDunningView);
}

async function findInvoiceDunning(db: Db, invoiceId: string): Promise<DunningSchedule> {
  const schedule = await findDunningByInvoice(db, invoiceId);
  if (!schedule) {
    if (!(await invoiceState(db, invoiceId))) throw notFound('invoice', invoiceId);
    throw notFound('dunning_schedule', invoiceId);
  }
  return schedule;
}

export async function getInvoiceDunning(db: Db, invoiceId: string): Promise<DunningScheduleView> {
  return toDunningView(await findInvoiceDunning(db, invoiceId));
}

/**
 * An operator's retry of the dunning retry that left the schedule with a billing_error (README,
 * "Failures"): the workflow clears it and runs the retry again; answered once it ran (with a new
 * billing_error when it failed again). 409 no_billing_error when there is nothing to retry.
 */
export async function retryDunning(deps: { db: Db; client: Client }, invoiceId: string, command: SubscriptionCommand): Promise<DunningScheduleView> {
  const schedule = await findInvoiceDunning(deps.db, invoiceId);
  const held = { entity: 'dunning_schedule' as const, what: `the dunning schedule of invoice ${invoiceId}`, billingError: schedule.billingError };
  await retryHeldStep(deps.client, held, dunningWorkflowId(invoiceId), retryDunningUpdate, command);
  return getInvoiceDunning(deps.db, invoiceId);
}

const stateOf = (schedule: { status: DunningStatus; attemptCount: number }): DunningState => ({ status: schedule.status, attemptCount: schedule.attemptCount });

/**
 * Retry `attempt` of the invoice's schedule, at `at` (its business time): a charge through the
 * invoice's workflow. Idempotent: a retry already made, or a schedule already closed, is answered
 * with the schedule's state.
 */
export async function runDunningAttempt(deps: PaymentDeps, input: { invoiceId: string; attempt: number; at: string }): Promise<DunningState> {
  const schedule = await findDunningByInvoice(deps.db, input.invoiceId);
  if (!schedule) return { status: 'Resolved', attemptCount: 0 };
  if (schedule.status !== 'Active' || schedule.attemptCount >= input.attempt) return stateOf(schedule);
  const invoice = (await invoiceState(deps.db, input.invoiceId))!;
  if (invoice.status === 'Open') {
    try {
      await runInvoicePayment(deps, input.invoiceId, {
        kind: 'charge',
        actor: engineActor(),
        requestKey: `dunning:${input.attempt}`,
        source: 'dunning',
        dunningAttempt: input.attempt,
        at: input.at,
      });
    } catch (err) {
      // Paid or voided meanwhile: closed below from the invoice's state.
      if (!(err instanceof DomainError && err.kind === 'invalid_transition')) throw err;
    }
  }
  const after = (await invoiceState(deps.db, input.invoiceId))!;
  if (after.status === 'Paid' || after.status === 'Void') await closeDunning(deps, input.invoiceId, after.status === 'Paid' ? 'paid_manually' : 'voided', new Date(input.at));
  return stateOf((await findDunningByInvoice(deps.db, input.invoiceId))!);
}

/** The last retry's outcome never came (it stayed pending at the processor): the schedule is Exhausted. */
export async function concludeDunning(deps: PaymentDeps, input: { invoiceId: string; at: string }): Promise<DunningState> {
  return deps.db.$transaction(async (tx) => {
    const schedule = await lockDunningByInvoice(tx, input.invoiceId);
    if (!schedule) return { status: 'Resolved', attemptCount: 0 };
    if (schedule.status !== 'Active') return stateOf(schedule);
    const exhausted = await updateDunningSchedule(tx, schedule.id, { status: 'Exhausted', closedReason: 'exhausted', closedAt: new Date(input.at), nextAttemptAt: null });
    await recordAudit(tx, {
      action: 'dunning.exhausted',
      actor: engineActor(),
      entityType: 'dunning_schedule',
      entityId: schedule.id,
      customerId: schedule.customerId,
      before: { status: 'Active' },
      after: { status: 'Exhausted', attempt_count: schedule.attemptCount, reason: 'last retry never settled' },
    });
    return stateOf(exhausted);
  });
}

/** Workflow ids of the Active dunning schedules on a test clock: its advances drive them too. */
export async function dunningWorkflowIdsOnClock(db: Db, testClockId: string): Promise<string[]> {
  return (await activeDunningOnClock(db, testClockId)).map((row) => dunningWorkflowId(row.invoiceId));
}

async function isRunning(client: Client, workflowId: string): Promise<boolean> {
  try {
    return (await client.workflow.getHandle(workflowId).describe()).status.name === 'RUNNING';
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

/** Notifications stored longer than this without being applied get their workflow started again. */
const STALE_NOTIFICATION_MS = 5 * 60_000;
const CHECK_BATCH = 500;

/**
 * check_due_attempts (SPEC §3): every Active schedule whose next retry is due (by its test clock's
 * time when it has one) and whose workflow is not running gets its workflow started again, from the
 * retries it has made; notifications whose workflow never ran are handed to one (not those held on
 * a billing_error: their workflow waits for an operator's retry). A schedule or notification whose
 * re-drive fails deterministically (invalid stored data, a start Temporal refuses) is logged and
 * listed in `failed`, and the others are re-driven; a transient failure fails the run (its activity
 * is retried).
 */
export async function checkDueAttempts(deps: PaymentDeps, now: Date): Promise<DunningCheckSummary> {
  const run = 'daily dunning check';
  const overdue = await overdueDunningSchedules(deps.db, now, CHECK_BATCH);
  const redriven: string[] = [];
  const failed: FailedRunItem[] = [];
  for (const schedule of overdue) {
    const workflowId = dunningWorkflowId(schedule.invoiceId);
    const started = await runItem(deps, failed, { kind: 'dunning_schedule', id: schedule.invoiceId, run }, async () => {
      if (await isRunning(deps.client, workflowId)) return false;
      const clockNow = (await testClockTime(deps.db, schedule.testClockId)) ?? undefined;
      await startDunningWorkflow(deps, schedule, clockNow);
      return true;
    });
    if (started === true) redriven.push(schedule.invoiceId);
  }
  const stale = await unprocessedProcessorEvents(deps.db, new Date(now.getTime() - STALE_NOTIFICATION_MS), CHECK_BATCH);
  let notificationsRedriven = 0;
  for (const event of stale) {
    const handed = await runItem(deps, failed, { kind: 'processor_event', id: event.id, run }, async () => {
      await startEventWorkflow(deps, event.id);
      return true;
    });
    if (handed) notificationsRedriven += 1;
  }
  if (redriven.length > 0 || notificationsRedriven > 0) {
    deps.logger.warn({ redriven, notifications: notificationsRedriven }, 'daily dunning check re-drove schedules and notifications');
  }
  return { overdue: overdue.length, redriven, notificationsRedriven, failed };
}

/** Creates the daily Temporal Schedule of the dunning check once (visible in the Temporal UI). */
export function ensureDunningCheckSchedule(client: Client, taskQueue: string): Promise<void> {
  return ensureSchedule(client, taskQueue, {
    scheduleId: DUNNING_CHECK_SCHEDULE_ID,
    workflowType: 'dunningCheckWorkflow',
    spec: { calendars: [{ hour: 3, minute: 0 }] },
    description: 'check_due_attempts: re-drives overdue dunning retries whose workflow is not running',
  });
}
