/**
 * Dunning (SPEC §2, §3), all of its timing in one place: a schedule opens at an invoice's first
 * failed payment with its retry days (DUNNING_SCHEDULE_DAYS, fixed on the schedule; the due times
 * are core/dunning.ts), each retry made counts (notices, Exhausted after the last), and the schedule
 * is Resolved when the invoice is paid or voided. The dunning workflow makes the retries (each a
 * charge it asks of the invoice's workflow, then settled from the answer); the daily safety net (check_due_attempts) re-drives
 * Active schedules whose retry is overdue but whose workflow is not running. collection.ts records
 * the payments whose outcomes drive these.
 */
import type { PageQuery } from '../../db/pages.js';
import { afterDunningAttempt, DEFAULT_DUNNING_SCHEDULE_DAYS, dunningAttemptDueMs, dunningNotice, type DunningNotice } from '../../core/index.js';
import {
  activeDunningOnClock,
  findDunningByInvoice,
  hasOpenDunning,
  insertDunningSchedule,
  invoiceState,
  invoiceSubscriptionIds,
  listDunningSchedules,
  lockDunningByInvoice,
  overdueDunningSchedules,
  testClockTime,
  toDunningRecord,
  unprocessedProcessorEvents,
  updateDunningSchedule,
  type DbClient,
  type DunningScheduleRecord,
  type DunningStatus,
} from '../../db/payments.js';
import type { Db } from '../../db/client.js';
import { Prisma, type DunningSchedule, type Invoice } from '../../generated/prisma/client.js';
import { DomainError, notFound, validation } from '../../errors.js';
import type { BillingErrorView } from '../../schemas/common.js';
import type { ChargeInvoiceCommand, DunningCheckSummary, DunningState, DunningWorkflowInput, FailedRunItem, FollowUp, PaymentAnswer, PaymentOutcomeSignal, SubscriptionCommand } from '../../temporal/messages.js';
import { dunningWorkflowRunning, retryDunningStep } from '../../temporal/workflows/dunning.js';
import { followUp, type FollowUpDeps } from '../follow-ups.js';
import { processorEventWorkflowRefusal } from '../../temporal/workflows/processor-event.js';
import { billingErrorView, retryHeldStep } from '../failures/billing-errors.js';
import { runItem } from '../failures/run-items.js';
import { engineActor, recordAudit } from '../audit.js';
import type { ServiceDeps } from '../deps.js';
import { toPage } from '../pagination.js';
import { askedPaymentResult, askInvoicePayment } from './invoice-payments.js';

/** The retry days of schedules opened now (DUNNING_SCHEDULE_DAYS; SPEC default 3, 7, 14, 21). */
export const dunningScheduleDaysOf = (deps: Pick<ServiceDeps, 'settings'>): readonly number[] => deps.settings.dunningScheduleDays ?? DEFAULT_DUNNING_SCHEDULE_DAYS;

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
 * An operator's retry of the dunning retry that left the schedule with a billing_error
 * (docs/failures.md): the workflow clears it and runs the retry again; answered once it ran (with a new
 * billing_error when it failed again). 409 no_billing_error when there is nothing to retry.
 */
export async function retryDunning(deps: Pick<ServiceDeps, 'db' | 'temporal'>, invoiceId: string, command: SubscriptionCommand): Promise<DunningScheduleView> {
  const schedule = await findInvoiceDunning(deps.db, invoiceId);
  const held = { entity: 'dunning_schedule' as const, what: `the dunning schedule of invoice ${invoiceId}`, billingError: schedule.billingError };
  await retryHeldStep(held, () => retryDunningStep(deps.temporal, invoiceId, command));
  return getInvoiceDunning(deps.db, invoiceId);
}

const stateOf = (schedule: { status: DunningStatus; attemptCount: number }): DunningState => ({ status: schedule.status, attemptCount: schedule.attemptCount });

/**
 * Retry `attempt` of the invoice's schedule, at `at` (its business time), asked: a charge the dunning
 * workflow asks of the invoice's workflow (an `invoice_payment` follow-up collected in `deps`; the
 * answer goes to runDunningAttempt). Nothing is asked for a retry already made, a schedule already
 * closed or an invoice no longer Open.
 */
export async function requestDunningCharge(deps: ServiceDeps & { followUps: FollowUp[] }, input: { invoiceId: string; attempt: number; at: string }): Promise<{ asked: boolean }> {
  const schedule = await findDunningByInvoice(deps.db, input.invoiceId);
  if (!schedule || schedule.status !== 'Active' || schedule.attemptCount >= input.attempt) return { asked: false };
  if ((await invoiceState(deps.db, input.invoiceId))?.status !== 'Open') return { asked: false };
  const command: ChargeInvoiceCommand = { kind: 'charge', actor: engineActor(), requestKey: `dunning:${input.attempt}`, source: 'dunning', dunningAttempt: input.attempt, at: input.at };
  return { asked: await askInvoicePayment(deps, input.invoiceId, command) };
}

/**
 * Retry `attempt` of the invoice's schedule, at `at`, settled from what its charge came to
 * (`charge`: the invoice workflow's answer, null when that workflow had completed; absent when no
 * charge was asked). The charge counted the retry and sent its notice; a charge that failed is this
 * step's failure, as the update's was (a billing failure the invoice holds too); an invoice paid or
 * voided meanwhile closes the schedule. Idempotent: a retry already made, or a schedule already
 * closed, is answered with the schedule's state.
 */
export async function runDunningAttempt(deps: ServiceDeps, input: { invoiceId: string; attempt: number; at: string; charge?: PaymentAnswer | null }): Promise<DunningState> {
  const schedule = await findDunningByInvoice(deps.db, input.invoiceId);
  if (!schedule) return { status: 'Resolved', attemptCount: 0 };
  try {
    askedPaymentResult(input.charge ?? null);
  } catch (err) {
    // Paid or voided meanwhile: closed below from the invoice's state.
    if (!(err instanceof DomainError && err.kind === 'invalid_transition')) throw err;
  }
  if (schedule.status !== 'Active') return stateOf(schedule);
  const after = (await invoiceState(deps.db, input.invoiceId))!;
  if (after.status === 'Paid' || after.status === 'Void') await closeDunning(deps, input.invoiceId, after.status === 'Paid' ? 'paid_manually' : 'voided', new Date(input.at));
  return stateOf((await findDunningByInvoice(deps.db, input.invoiceId))!);
}

/** The last retry's outcome never came (it stayed pending at the processor): the schedule is Exhausted. */
export async function concludeDunning(deps: ServiceDeps, input: { invoiceId: string; at: string }): Promise<DunningState> {
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

/** The invoices of the Active dunning schedules on a test clock: its advances drive their workflows too. */
export async function dunningInvoiceIdsOnClock(db: Db, testClockId: string): Promise<string[]> {
  return (await activeDunningOnClock(db, testClockId)).map((row) => row.invoiceId);
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
export async function checkDueAttempts(deps: ServiceDeps, now: Date): Promise<DunningCheckSummary> {
  const run = 'daily dunning check';
  const overdue = await overdueDunningSchedules(deps.db, now, CHECK_BATCH);
  const redriven: string[] = [];
  const failed: FailedRunItem[] = [];
  for (const schedule of overdue) {
    const started = await runItem(deps, failed, { kind: 'dunning_schedule', id: schedule.invoiceId, run }, async () => {
      if (await dunningWorkflowRunning(deps.temporal, schedule.invoiceId)) return false;
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
      const refused = processorEventWorkflowRefusal(event.id);
      if (refused !== null) throw validation('id', refused, 'processor_event_id_too_long');
      await followUp(deps, { kind: 'start_processor_event', eventId: event.id });
      return true;
    });
    if (handed) notificationsRedriven += 1;
  }
  if (redriven.length > 0 || notificationsRedriven > 0) {
    deps.logger.warn({ redriven, notifications: notificationsRedriven }, 'daily dunning check re-drove schedules and notifications');
  }
  return { overdue: overdue.length, redriven, notificationsRedriven, failed };
}

// ── The schedule: opened at the first failure, advanced by each retry, closed when the invoice is settled ──

/**
 * Opens the invoice's dunning schedule at its first failed payment (`at`): the retries fall
 * `scheduleDays` after it (DUNNING_SCHEDULE_DAYS, fixed on the schedule). Null when the invoice is
 * not Open or has a schedule already; the caller starts its workflow after the commit.
 */
export async function openDunningIfNone(tx: DbClient, invoice: Invoice, at: Date, scheduleDays: readonly number[]): Promise<DunningSchedule | null> {
  if (invoice.status !== 'Open') return null;
  const existing = await lockDunningByInvoice(tx, invoice.id);
  if (existing) return null;
  const days = [...scheduleDays];
  const subscriptions = await invoiceSubscriptionIds(tx, invoice.id);
  const schedule = await insertDunningSchedule(tx, {
    invoiceId: invoice.id,
    subscriptionId: invoice.subscriptionId ?? subscriptions[0] ?? null,
    customerId: invoice.customerId,
    scheduleDays: days,
    failedAt: at,
    nextAttemptAt: new Date(dunningAttemptDueMs(at.getTime(), days, 1)),
    testClockId: invoice.testClockId,
  });
  await recordAudit(tx, {
    action: 'dunning.started',
    actor: engineActor(),
    entityType: 'dunning_schedule',
    entityId: schedule.id,
    customerId: invoice.customerId,
    after: { invoice_id: invoice.id, schedule_days: days, next_attempt_at: schedule.nextAttemptAt },
  });
  return schedule;
}

/**
 * Counts retry `attempt` as made (attempt_count, next_attempt_at); when its failure is known, it
 * also sends its notice, and the last one exhausts the schedule. Returns the notice.
 */
export async function progressDunning(tx: DbClient, invoiceId: string, attempt: number, failed: boolean, at: Date): Promise<DunningNotice | null> {
  const schedule = await lockDunningByInvoice(tx, invoiceId);
  if (!schedule || schedule.status !== 'Active') return null;
  const progress = afterDunningAttempt(schedule.failedAt.getTime(), schedule.scheduleDays, attempt);
  const advances = attempt > schedule.attemptCount;
  const exhausted = failed && progress.exhausted;
  if (!advances && !exhausted && !failed) return null;
  await updateDunningSchedule(tx, schedule.id, {
    ...(advances ? { attemptCount: attempt, nextAttemptAt: progress.nextAttemptAtMs === null ? null : new Date(progress.nextAttemptAtMs) } : {}),
    ...(exhausted ? { status: 'Exhausted', closedReason: 'exhausted', closedAt: at, nextAttemptAt: null } : {}),
  });
  const notice = failed ? dunningNotice(attempt, schedule.scheduleDays.length) : null;
  if (notice) {
    await recordAudit(tx, {
      action: 'dunning.notice',
      actor: engineActor(),
      entityType: 'dunning_schedule',
      entityId: schedule.id,
      customerId: schedule.customerId,
      before: { status: schedule.status, attempt_count: schedule.attemptCount, next_attempt_at: schedule.nextAttemptAt },
      after: { invoice_id: invoiceId, dunning_attempt: attempt, notice, status: exhausted ? 'Exhausted' : schedule.status, attempt_count: advances ? attempt : schedule.attemptCount },
    });
  }
  if (exhausted) {
    await recordAudit(tx, {
      action: 'dunning.exhausted',
      actor: engineActor(),
      entityType: 'dunning_schedule',
      entityId: schedule.id,
      customerId: schedule.customerId,
      before: { status: 'Active' },
      after: { status: 'Exhausted', attempt_count: attempt },
    });
  }
  return notice;
}

/**
 * Closes the invoice's dunning schedule when its invoice was collected, paid by hand or voided:
 * Resolved (Exhausted ones too: nothing is owed any more), its workflow told, and each subscription
 * with no other unresolved schedule back to Active. A billing_error the schedule held (a failed
 * retry waiting for an operator) is cleared with it: there is no retry left to make
 * (`dunning_schedule.billing_cleared` audit entry, log line); the workflow holding it ends on the signal.
 */
export async function closeDunning(deps: Pick<ServiceDeps, 'db' | 'logger'> & FollowUpDeps, invoiceId: string, reason: 'payment_succeeded' | 'paid_manually' | 'voided', at: Date): Promise<void> {
  const closed = await deps.db.$transaction(async (tx) => {
    const current = await lockDunningByInvoice(tx, invoiceId);
    if (!current) return null;
    const held = current.billingError;
    if (current.status === 'Resolved' && held === null) return { schedule: current, cleared: null };
    const resolved = await updateDunningSchedule(tx, current.id, {
      ...(current.status === 'Resolved' ? {} : { status: 'Resolved', closedReason: reason, closedAt: at, nextAttemptAt: null }),
      ...(held === null ? {} : { billingError: Prisma.DbNull }),
    });
    if (current.status !== 'Resolved') {
      await recordAudit(tx, {
        action: 'dunning.resolved',
        actor: engineActor(),
        entityType: 'dunning_schedule',
        entityId: current.id,
        customerId: current.customerId,
        before: { status: current.status },
        after: { status: 'Resolved', reason, attempt_count: current.attemptCount },
      });
    }
    if (held !== null) {
      await recordAudit(tx, {
        action: 'dunning_schedule.billing_cleared',
        actor: engineActor(),
        entityType: 'dunning_schedule',
        entityId: current.id,
        customerId: current.customerId,
        before: { billing_error: held },
        after: { billing_error: null, reason },
      });
    }
    return { schedule: resolved, cleared: held };
  });
  if (!closed) return;
  if (closed.cleared !== null) {
    deps.logger.info({ dunningScheduleId: closed.schedule.id, invoiceId, reason, billingError: closed.cleared }, 'dunning schedule closed; its billing_error cleared (no retry left to make)');
  }
  await followUp(deps, { kind: 'dunning_closed', invoiceId, state: { status: 'Resolved', attemptCount: closed.schedule.attemptCount } });
  await tellSubscriptions(deps, invoiceId, 'settled');
}

/**
 * Tells the invoice's subscriptions how its payment ended: `failed` makes them PastDue, `settled`
 * Active again (those with another unresolved schedule stay PastDue).
 */
export async function tellSubscriptions(deps: Pick<ServiceDeps, 'db'> & FollowUpDeps, invoiceId: string, outcome: PaymentOutcomeSignal['outcome']): Promise<void> {
  for (const subscriptionId of await invoiceSubscriptionIds(deps.db, invoiceId)) {
    if (outcome === 'settled' && (await hasOpenDunning(deps.db, subscriptionId, invoiceId))) continue;
    await followUp(deps, { kind: 'payment_outcome', subscriptionId, outcome: { invoiceId, outcome } });
  }
}

/** Starts (or, for a re-driven schedule, restarts) the dunning workflow of a schedule. */
export async function startDunningWorkflow(deps: FollowUpDeps, schedule: DunningSchedule, clockNow?: Date): Promise<void> {
  const input: DunningWorkflowInput = {
    invoiceId: schedule.invoiceId,
    failedAt: schedule.failedAt.toISOString(),
    scheduleDays: schedule.scheduleDays,
    attemptCount: schedule.attemptCount,
    testClock: schedule.testClockId ? { id: schedule.testClockId, now: (clockNow ?? schedule.failedAt).toISOString() } : null,
  };
  await followUp(deps, { kind: 'start_dunning', input, customerId: schedule.customerId, testClockId: schedule.testClockId });
}
