/**
 * Test clocks (sandbox time, as in Stripe Billing and Kill Bill). Customers created on a clock and
 * their subscriptions live on its frozen time. Advancing a clock moves every subscription workflow
 * on it through the new time, running exactly the code real subscriptions run.
 *
 * An advance is asynchronous, as in Stripe: the request sets the clock's new time and status
 * `advancing` and starts the clock's advance workflow (`testClockAdvanceWorkflow`, one id per
 * clock), then answers at once. The workflow drives the workflows in lockstep (by signals, from
 * batch children; its activities plan the drive and write its progress: the clock time every
 * workflow has reached, subscriptions caught up of total, to the clock's row), and a last activity
 * sets `ready` with the `test_clock.ready` event (or
 * `internal_failure` with `test_clock.internal_failure` when the drive failed for good, the reason
 * shown as the advance's `error`, audited and logged; advancing again is the operator's retry).
 *
 * Lockstep: the workflows are taken together from one instant where any of them has work (a period
 * end, an invoice's grace end, a progressive check) to the next, so what happens at an earlier
 * instant on one subscription (billing into a consolidated Draft) always precedes what happens
 * later on another (finalizing that Draft). At the last step, a subscription with nothing due before
 * a later time is not woken only to move its clock when nothing else on the clock could act on it;
 * commands sent to it afterwards carry the clock's time (`atClockTime`). One advance runs at a time per clock: while the clock
 * is `advancing` and its advance workflow runs, another request is 409 test_clock_advancing; an
 * `advancing` clock whose workflow is gone (terminated by an operator) is taken over by the next
 * request. Advancing to the clock's current time again drives the workflows to it once more. The
 * dunning workflows of the clock's invoices are driven with its subscriptions, including those a
 * step starts (a payment that fails at a period's finalization). Once every workflow has caught up,
 * the deferred revenue of the clock's customers is recognized up to the new time
 * (src/services/ledger/recognition.ts).
 */
import { lockstepIdle, lockstepNextMs, lockstepSubscriptionsDone } from '../../core/lockstep.js';
import { subscriptionIdsOnClock } from '../../db/subscriptions.js';
import {
  beginAdvance,
  customersOnClockCount,
  deleteTestClockRow,
  finishAdvance,
  findTestClock,
  insertTestClock,
  listTestClockRows,
  lockClockForUpdate,
  readyClockTimeOfSubscription,
  recordAdvanceProgress,
  type TestClockRow,
} from '../../db/test-clocks.js';
import type { PageQuery } from '../../db/pages.js';
import type { Db } from '../../db/client.js';
import type { ServiceDeps } from '../deps.js';
import { toPage, type Page } from '../pagination.js';
import { newId } from '../../ids.js';
import type {
  BillingErrorState,
  SubscriptionCommand,
  TestClockAdvanceInput,
  TestClockAdvanceResult,
  TestClockDrivePlan,
  TestClockDriveProgress,
} from '../../temporal/messages.js';
import {
  advanceWorkflowRunning as advanceRunning,
  clockDrivenWorkflow,
  clockDrivenWorkflowId,
  nextWakeOf,
  startAdvanceWorkflow,
  type ClockDrivenWorkflow,
} from '../../temporal/workflows/test-clock-advance.js';
import { customersWithEnabledAlertsOnClock } from '../../db/spend-alerts.js';
import { activeContractIdsOnClock } from '../../db/contracts.js';
import { recordAudit, type Actor } from '../audit.js';
import { billingErrorView, toBillingErrorView } from '../failures/billing-errors.js';
import type { Logger } from '../../logger.js';
import { conflict, DomainError, notFound } from '../../errors.js';
import type { TestClockView } from '../../schemas/subscriptions.js';
import { dunningInvoiceIdsOnClock } from '../payments/dunning.js';
import { enqueueEvent } from '../outbox.js';
import { reconcileSubscriptionWorkflows, type WorkflowStartDeps } from './workflow-starts.js';
import { recognizeRevenueDue } from '../ledger/recognition.js';

export type TestClockStatus = 'ready' | 'advancing' | 'internal_failure';

const toView = (row: TestClockRow): TestClockView => ({
  id: row.id,
  name: row.name,
  frozen_time: row.frozenTime.toISOString(),
  status: row.status as TestClockStatus,
  created_at: row.createdAt.toISOString(),
  advance:
    row.advanceStartedAt === null
      ? null
      : {
          simulated_time: (row.simulatedTime ?? row.frozenTime).toISOString(),
          subscriptions_done: row.advanceSubscriptionsDone,
          subscriptions_total: row.advanceSubscriptionsTotal,
          started_at: row.advanceStartedAt.toISOString(),
          finished_at: row.advanceFinishedAt?.toISOString() ?? null,
          error: billingErrorView(row.advanceError),
        },
});

/** A clock row as the API shows it (the operator views list advances with it). */
export const testClockView = toView;

const advancing = () => conflict('test_clock_advancing', 'the test clock is being advanced by another request; retry when it is ready');

export async function createTestClock(deps: ServiceDeps, input: { name: string; frozen_time: string }, actor: Actor, requestId: string): Promise<TestClockView> {
  const row = await deps.db.$transaction(async (tx) => {
    const clock = await insertTestClock(tx, { id: newId(), name: input.name, frozenTime: new Date(input.frozen_time) });
    await recordAudit(tx, { action: 'test_clock.created', actor, entityType: 'test_clock', entityId: clock.id, after: toView(clock), requestId });
    return clock;
  });
  return toView(row);
}

export async function getTestClock(deps: ServiceDeps, id: string): Promise<TestClockView> {
  const row = await findTestClock(deps.db, id);
  if (!row) throw notFound('test_clock', id);
  return toView(row);
}

/**
 * Deletes a clock nothing lives on: a clock with customers (closed ones too: their invoices and
 * subscriptions keep its time) is 409 test_clock_has_customers, an advancing one 409
 * test_clock_advancing. Audited as test_clock.deleted. The row is locked first, so a customer
 * created on the clock concurrently either commits before (and is counted) or finds no clock.
 */
export async function deleteTestClock(deps: ServiceDeps, id: string, actor: Actor, requestId: string): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const clock = await lockClockForUpdate(tx, id);
    if (!clock) throw notFound('test_clock', id);
    if (clock.status === 'advancing') throw advancing();
    const customers = await customersOnClockCount(tx, id);
    if (customers > 0) {
      throw conflict('test_clock_has_customers', `the test clock has ${customers} customer(s) on it; only a clock without customers can be deleted`, { customers });
    }
    await deleteTestClockRow(tx, id);
    await recordAudit(tx, { action: 'test_clock.deleted', actor, entityType: 'test_clock', entityId: id, before: toView(clock), requestId });
  });
}

/** Whether the clock's advance workflow is running (Temporal reached within the API's deadline, else 503). */
async function advanceWorkflowRunning(deps: ServiceDeps, id: string): Promise<boolean> {
  try {
    return await advanceRunning(deps.temporal, id);
  } catch (err) {
    throw new DomainError('unavailable', 'service_unavailable', `Temporal could not be reached: ${(err as Error).message}`);
  }
}

/**
 * Moves the clock forward (or re-drives it at its current time): sets its time and status
 * `advancing`, starts its advance workflow and answers at once; GET shows the progress.
 */
export async function advanceTestClock(deps: ServiceDeps, id: string, frozenTime: string, actor: Actor, requestId: string): Promise<TestClockView> {
  const target = new Date(frozenTime);
  const current = await findTestClock(deps.db, id);
  if (!current) throw notFound('test_clock', id);
  // An advancing clock whose workflow is gone (terminated, or its start was lost) is taken over.
  const staleSince = current.status === 'advancing' ? ((await advanceWorkflowRunning(deps, id)) ? null : current.advanceStartedAt) : undefined;
  if (staleSince === null) throw advancing();
  const startedAt = deps.clock();
  const { clock, from } = await deps.db.$transaction(async (tx) => {
    const previous = await lockClockForUpdate(tx, id);
    if (!previous) throw notFound('test_clock', id);
    if (previous.status === 'advancing' && (staleSince === undefined || previous.advanceStartedAt?.getTime() !== staleSince?.getTime())) throw advancing();
    if (target.getTime() < previous.frozenTime.getTime()) {
      throw new DomainError('unprocessable', 'test_clock_cannot_go_back', `frozen_time must not be before ${previous.frozenTime.toISOString()}`, { field: 'frozen_time' });
    }
    const clock = await beginAdvance(tx, id, { frozenTime: target, simulatedTime: previous.frozenTime, startedAt });
    await recordAudit(tx, {
      action: 'test_clock.advanced',
      actor,
      entityType: 'test_clock',
      entityId: id,
      before: { frozen_time: previous.frozenTime.toISOString(), status: previous.status },
      after: { frozen_time: target.toISOString(), status: clock.status },
      requestId,
    });
    return { clock, from: previous.frozenTime };
  });
  const input: TestClockAdvanceInput = { clockId: id, from: from.toISOString(), to: target.toISOString(), startedAt: startedAt.toISOString(), drive: deps.settings.testClockDrive ?? 'activity' };
  try {
    await startAdvanceWorkflow(deps.temporal, input);
  } catch (err) {
    await finishAdvance(deps.db, id, startedAt, { status: 'internal_failure', finishedAt: deps.clock() }).catch(() => null);
    throw new DomainError('unavailable', 'service_unavailable', `Temporal could not be reached: ${(err as Error).message}`);
  }
  return toView(clock);
}

/** What the advance workflow's activities need: the subscription workflow starts' deps and the grace period. */
export type TestClockDriveDeps = WorkflowStartDeps & { settings: Pick<ServiceDeps['settings'], 'invoiceGraceMs'> };

export interface DriveProgress {
  simulatedTime: Date;
  subscriptionsTotal: number;
  subscriptionsDone: number;
}

/**
 * The drive of advances recorded before the advance workflow drove the workflows itself (patch
 * test-clock-advance-driven-by-workflow; their `driveTestClock` activity): every workflow of the
 * clock to the advance's time, in lockstep, by the `advanceTestClock` update, its progress written
 * to the clock's row (and handed to `onProgress`, the activity's heartbeat). Driving again what was
 * driven already changes nothing, so a retried activity resumes. The workflow's own drive
 * (workflows/test-clock-advance/lockstep.ts) keeps its lockstep, second pass and idle rule.
 */
export async function driveTestClock(
  deps: TestClockDriveDeps,
  input: TestClockAdvanceInput,
  options: { onProgress?: (progress: DriveProgress) => void; signal?: AbortSignal } = {},
): Promise<TestClockAdvanceResult> {
  const { clockId } = input;
  const startedAt = new Date(input.startedAt);
  if (!(await findTestClock(deps.db, clockId))) throw notFound('test_clock', clockId);
  // A subscription of the clock whose workflow start after commit did not happen gets it first.
  await reconcileSubscriptionWorkflows(deps, { createdBefore: new Date(), testClockId: clockId });
  // Every subscription on the clock that has not expired, and those that expired recently enough that their last invoice's grace may still run.
  const graceHorizon = new Date(Date.parse(input.from) - deps.settings.invoiceGraceMs);
  const subscriptions = (await subscriptionIdsOnClock(deps.db, clockId, graceHorizon)).map((id) => clockDrivenWorkflow(deps.temporal, { kind: 'subscription', id }));
  // Contract workflows of the clock's customers answer the same advance update and next-wake query.
  const contractIds = await activeContractIdsOnClock(deps.db, clockId);
  // So do the spend alert evaluators of its customers (their period-start resets, their evaluations).
  const alertCustomerIds = await customersWithEnabledAlertsOnClock(deps.db, clockId);
  const report = async (progress: DriveProgress) => {
    options.onProgress?.(progress);
    await recordAdvanceProgress(deps.db, clockId, startedAt, progress);
  };
  const steps = await driveInLockstep(
    deps,
    clockId,
    {
      subscriptions,
      others: [
        ...contractIds.map((id) => clockDrivenWorkflow(deps.temporal, { kind: 'contract', id })),
        ...alertCustomerIds.map((id) => clockDrivenWorkflow(deps.temporal, { kind: 'spend-alerts', id })),
      ],
    },
    { from: new Date(input.from), target: new Date(input.to), advanceKey: `clock-advance:${input.startedAt}` },
    report,
    options.signal,
  );
  // Deferred revenue of the clock's customers recognized up to its new time (each step dated at
  // the step), as the daily run does for customers on no clock: not only when a period closes.
  await recognizeRevenueDue(deps, clockId, new Date(input.to));
  deps.logger.info({ testClockId: clockId, frozenTime: input.to, subscriptions: subscriptions.length, steps }, 'test clock driven');
  return { subscriptions: subscriptions.length, steps };
}

/**
 * What the advance workflow drives (its plan activity): the clock's subscriptions (their workflow
 * starts after commit reconciled first) and its contracts and spend alert evaluators, by workflow
 * id. The same workflows as driveTestClock's.
 */
export async function planTestClockDrive(deps: TestClockDriveDeps, input: TestClockAdvanceInput): Promise<TestClockDrivePlan> {
  const { clockId } = input;
  if (!(await findTestClock(deps.db, clockId))) throw notFound('test_clock', clockId);
  await reconcileSubscriptionWorkflows(deps, { createdBefore: new Date(), testClockId: clockId });
  const graceHorizon = new Date(Date.parse(input.from) - deps.settings.invoiceGraceMs);
  const subscriptions = (await subscriptionIdsOnClock(deps.db, clockId, graceHorizon)).map((id) => clockDrivenWorkflowId({ kind: 'subscription', id }));
  const contracts = (await activeContractIdsOnClock(deps.db, clockId)).map((id) => clockDrivenWorkflowId({ kind: 'contract', id }));
  const alerts = (await customersWithEnabledAlertsOnClock(deps.db, clockId)).map((id) => clockDrivenWorkflowId({ kind: 'spend-alerts', id }));
  return { subscriptions, others: [...contracts, ...alerts] };
}

/** The workflow ids of the clock's dunning workflows (a step's collection starts them). */
export async function dunningWorkflowIdsOnClock(deps: Pick<TestClockDriveDeps, 'db'>, clockId: string): Promise<string[]> {
  return (await dunningInvoiceIdsOnClock(deps.db, clockId)).map((id) => clockDrivenWorkflowId({ kind: 'dunning', id }));
}

/** The next wakes (ms, null for nothing or not running) of clock-driven workflows, by workflow id: their queries, a read. */
export async function nextWakesOf(deps: Pick<TestClockDriveDeps, 'temporal'>, workflowIds: readonly string[]): Promise<Record<string, number | null>> {
  const wakes = await Promise.all(workflowIds.map((id) => nextWakeOf(deps.temporal, id)));
  return Object.fromEntries(workflowIds.map((id, i) => [id, wakes[i]!]));
}

/** An advance's progress on the clock's row (nothing once a later advance took the clock over). */
export async function recordTestClockProgress(deps: Pick<TestClockDriveDeps, 'db'>, clockId: string, startedAt: string, progress: TestClockDriveProgress): Promise<void> {
  await recordAdvanceProgress(deps.db, clockId, new Date(startedAt), { ...progress, simulatedTime: new Date(progress.simulatedTime) });
}

/**
 * Once every workflow caught up: the deferred revenue of the clock's customers recognized up to its
 * new time (as driveTestClock does), and the drive logged.
 */
export async function recognizeAfterDrive(deps: TestClockDriveDeps, input: TestClockAdvanceInput, driven: Omit<TestClockAdvanceResult, 'error'>): Promise<void> {
  await recognizeRevenueDue(deps, input.clockId, new Date(input.to));
  deps.logger.info({ testClockId: input.clockId, frozenTime: input.to, subscriptions: driven.subscriptions, steps: driven.steps }, 'test clock driven');
}

/** How an advance ended: `ready`, or `internal_failure` with the failure of its drive when there was one. */
export type AdvanceOutcome = { status: 'ready' } | { status: 'internal_failure'; error?: BillingErrorState | undefined };

/**
 * Ends the advance with its event and audit entry (by `actor`, the advance workflow), in one
 * transaction, and logs it; nothing when a later advance took the clock over meanwhile.
 */
export async function finishTestClockAdvance(
  deps: { db: Db; logger: Logger },
  input: TestClockAdvanceInput,
  outcome: AdvanceOutcome,
  finishedAt: Date,
  actor: Actor,
): Promise<TestClockView | null> {
  const { status } = outcome;
  const error = outcome.status === 'internal_failure' && outcome.error ? toBillingErrorView(outcome.error) : undefined;
  const view = await deps.db.$transaction(async (tx) => {
    const row = await finishAdvance(tx, input.clockId, new Date(input.startedAt), { status, finishedAt, ...(error ? { error } : {}) });
    if (!row) return null;
    const finished = toView(row);
    await enqueueEvent(
      tx,
      status === 'ready' ? 'test_clock.ready' : 'test_clock.internal_failure',
      row.id,
      { test_clock_id: row.id, frozen_time: finished.frozen_time, status, subscriptions_done: finished.advance?.subscriptions_done ?? 0, subscriptions_total: finished.advance?.subscriptions_total ?? 0 },
      row.frozenTime,
    );
    await recordAudit(tx, { action: `test_clock.${status}`, actor, entityType: 'test_clock', entityId: row.id, before: { status: 'advancing' }, after: finished });
    return finished;
  });
  if (view?.status === 'ready') deps.logger.info({ testClockId: view.id, status: view.status, frozenTime: view.frozen_time, advance: view.advance }, 'test clock advance finished');
  else if (view) deps.logger.error({ testClockId: view.id, status: view.status, frozenTime: view.frozen_time, advance: view.advance }, 'test clock advance failed; advance the clock again to retry');
  return view;
}

/**
 * Steps every workflow through each instant up to `target` where one of them has something due,
 * reporting after each step the instant reached and how many subscriptions have nothing left
 * before the target (or ended). Returns the number of steps.
 *
 * A subscription's advance answer carries its next wake, so only workflows whose wake is unknown
 * (the first step, other kinds of workflows, dunning workflows just found) are queried for it. A
 * step with dunning workflows queries them all again: their signals may move a subscription after
 * it answered.
 */
async function driveInLockstep(
  deps: TestClockDriveDeps,
  clockId: string,
  workflows: { subscriptions: ClockDrivenWorkflow[]; others: ClockDrivenWorkflow[] },
  span: { from: Date; target: Date; advanceKey: string },
  report: (progress: DriveProgress) => Promise<void>,
  signal?: AbortSignal,
): Promise<number> {
  const subscriptionIds = new Set(workflows.subscriptions.map((workflow) => workflow.key));
  let running = [...workflows.subscriptions, ...workflows.others];
  const known = new Set(running.map((workflow) => workflow.key));
  /** Next wakes (ms, or null for nothing left) from the workflows' last advance answers. */
  const answered = new Map<string, number | null>();
  /** Adds the clock's dunning workflows not driven yet; true when the clock has any. */
  const withDunning = async (): Promise<boolean> => {
    const dunning = (await dunningInvoiceIdsOnClock(deps.db, clockId)).map((id) => clockDrivenWorkflow(deps.temporal, { kind: 'dunning', id }));
    for (const workflow of dunning.filter((found) => !known.has(found.key))) {
      known.add(workflow.key);
      running.push(workflow);
    }
    return dunning.length > 0;
  };
  const targetMs = span.target.getTime();
  const total = subscriptionIds.size;
  const doneOf = (wakes: (number | null)[]) => lockstepSubscriptionsDone(total, wakes, running.map((handle) => subscriptionIds.has(handle.key)), targetMs);
  let reachedMs = Number.NEGATIVE_INFINITY;
  let steps = 0;
  // Only subscriptions on their own (no contract, spend alert or dunning workflow that could act on
  // them at a later step) may be left where they are at the last step (see `idle` below).
  let alone = !(await withDunning()) && workflows.others.length === 0;
  await report({ simulatedTime: span.from, subscriptionsTotal: total, subscriptionsDone: 0 });
  while (running.length > 0) {
    signal?.throwIfAborted();
    const wakes = await Promise.all(running.map((handle) => (answered.has(handle.key) ? answered.get(handle.key)! : handle.nextWake())));
    if (steps > 0) await report({ simulatedTime: new Date(reachedMs), subscriptionsTotal: total, subscriptionsDone: doneOf(wakes) });
    const stepMs = lockstepNextMs(wakes, reachedMs, targetMs);
    /**
     * At the last step, a subscription whose answer says nothing is due before a later time is not
     * woken only to move its clock (one update and one workflow task less per subscription and
     * advance): the commands sent to it later carry the clock's time (`atClockTime`), and the next
     * advance moves it on. A run holding a billing error or ended answers null and is driven as before.
     */
    const idle = (handle: ClockDrivenWorkflow, pass: number): boolean =>
      lockstepIdle({ alone, pass, stepMs, targetMs }, subscriptionIds.has(handle.key), answered.get(handle.key));
    const driveAll = async (pass: number) => {
      const at = new Date(stepMs).toISOString();
      const outcomes = await Promise.all(
        running.map((handle) => {
          if (!idle(handle, pass)) return handle.driveTo(at, span.target.toISOString(), `${span.advanceKey}:${at}:${pass}`);
          return { running: true, nextWakeAt: new Date(answered.get(handle.key)!).toISOString() };
        }),
      );
      running.forEach((handle, i) => {
        const wake = outcomes[i]!.nextWakeAt;
        if (wake === undefined) answered.delete(handle.key);
        else answered.set(handle.key, wake === null ? null : Date.parse(wake));
      });
      running = running.filter((_handle, i) => outcomes[i]!.running);
    };
    await driveAll(1);
    // Collection at this step signals subscriptions (PastDue, back to Active) that may already have
    // caught up, and may start dunning workflows: a second pass waits for both.
    if (await withDunning()) {
      alone = false;
      await driveAll(2);
      answered.clear();
    }
    reachedMs = stepMs;
    steps += 1;
    if (stepMs === targetMs) break;
  }
  await report({ simulatedTime: span.target, subscriptionsTotal: total, subscriptionsDone: total });
  return steps;
}

/**
 * A command to a subscription's workflow with its test clock's time (`at`) while the clock is ready
 * (the run catches up to it first, see `idle` in driveInLockstep); as it is for a subscription on no
 * clock, or while an advance drives the run to its steps.
 */
export async function atClockTime<C extends SubscriptionCommand>(db: Db, subscriptionId: string, command: C): Promise<C> {
  const at = await readyClockTimeOfSubscription(db, subscriptionId);
  return at === null ? command : { ...command, at: at.toISOString() };
}

/** Test clocks, newest first, each with its status. */
export async function listTestClocks(deps: ServiceDeps, page: PageQuery): Promise<Page<TestClockView>> {
  const rows = await listTestClockRows(deps.db, page);
  const views: TestClockView[] = [];
  for (const row of rows) views.push(toView(row));
  return toPage(views, page.limit, (view) => view);
}
