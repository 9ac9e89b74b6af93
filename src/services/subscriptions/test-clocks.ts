/**
 * Test clocks (sandbox time, as in Stripe Billing and Kill Bill). Customers created on a clock and
 * their subscriptions live on its frozen time. Advancing a clock moves every subscription workflow
 * on it through the new time and returns once each has processed everything due by then, running
 * exactly the code real subscriptions run.
 *
 * Advances go in lockstep: the workflows are taken together from one instant where any of them has
 * work (a period end, an invoice's grace end, a progressive check) to the next, so what happens at
 * an earlier instant on one subscription (billing into a consolidated Draft) always precedes what
 * happens later on another (finalizing that Draft). One advance runs at a time per clock (a session
 * advisory lock, released even if the process dies); a concurrent one is 409 test_clock_advancing.
 * Advancing to the clock's current time again drives the workflows to it once more, which resumes
 * an advance that was interrupted. The dunning workflows of the clock's invoices are driven with its
 * subscriptions, including those a step starts (a payment that fails at a period's finalization).
 */
import { WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import { subscriptionIdsOnClock } from '../../db/subscriptions.js';
import {
  findTestClock,
  getTestClock as getTestClockRow,
  insertTestClock,
  lockClockForUpdate,
  setFrozenTime,
  testClockExists,
  withAdvanceLock,
  type TestClockRow,
} from '../../db/test-clocks.js';
import type { ServiceDeps } from '../deps.js';
import { newId } from '../../ids.js';
import { advanceClockUpdate, contractWorkflowId, nextWakeQuery, spendAlertWorkflowId, subscriptionWorkflowId } from '../../../workflows/messages.js';
import { customersWithEnabledAlertsOnClock } from '../../db/spend-alerts.js';
import { activeContractIdsOnClock } from '../../db/contracts.js';
import { recordAudit, type Actor } from '../audit.js';
import { conflict, DomainError, notFound } from '../../errors.js';
import type { TestClockView } from '../../schemas/subscriptions.js';
import { dunningWorkflowIdsOnClock } from '../payments/dunning.js';
import { reconcileSubscriptionWorkflows } from './workflow-starts.js';

const toView = (row: TestClockRow, advancing: boolean): TestClockView => ({
  id: row.id,
  name: row.name,
  frozen_time: row.frozenTime.toISOString(),
  status: advancing ? 'advancing' : 'ready',
  created_at: row.createdAt.toISOString(),
});

async function isAdvancing(deps: ServiceDeps, id: string): Promise<boolean> {
  return (await withAdvanceLock(deps.pool, id, async () => false)) ?? true;
}

export async function createTestClock(deps: ServiceDeps, input: { name: string; frozen_time: string }, actor: Actor, requestId: string): Promise<TestClockView> {
  const row = await deps.db.$transaction(async (tx) => {
    const clock = await insertTestClock(tx, { id: newId(), name: input.name, frozenTime: new Date(input.frozen_time) });
    await recordAudit(tx, { action: 'test_clock.created', actor, entityType: 'test_clock', entityId: clock.id, after: toView(clock, false), requestId });
    return clock;
  });
  return toView(row, false);
}

export async function getTestClock(deps: ServiceDeps, id: string): Promise<TestClockView> {
  const row = await findTestClock(deps.db, id);
  if (!row) throw notFound('test_clock', id);
  return toView(row, await isAdvancing(deps, id));
}

/** Moves the clock forward (or re-drives it at its current time) and waits until every subscription on it has caught up. */
export async function advanceTestClock(deps: ServiceDeps, id: string, frozenTime: string, actor: Actor, requestId: string): Promise<TestClockView> {
  const target = new Date(frozenTime);
  const advanced = await withAdvanceLock(deps.pool, id, async () => {
    // A subscription of the clock whose workflow start after commit did not happen gets it first.
    await reconcileSubscriptionWorkflows(deps, { createdBefore: new Date(), testClockId: id });
    const { clock, subscriptionIds } = await moveClock(deps, id, target, actor, requestId);
    // Contract workflows of the clock's customers answer the same advance update and next-wake query.
    const contractIds = await activeContractIdsOnClock(deps.db, id);
    // So do the spend alert evaluators of its customers (their period-start resets, their evaluations).
    const alertCustomerIds = await customersWithEnabledAlertsOnClock(deps.db, id);
    await driveInLockstep(
      deps,
      id,
      [...subscriptionIds.map(subscriptionWorkflowId), ...contractIds.map(contractWorkflowId), ...alertCustomerIds.map(spendAlertWorkflowId)],
      target,
    );
    return clock;
  });
  if (advanced === null) {
    if (!(await testClockExists(deps.db, id))) throw notFound('test_clock', id);
    throw conflict('test_clock_advancing', 'the test clock is being advanced by another request; retry when it is ready');
  }
  return toView(advanced, false);
}

/**
 * Sets the clock's time and lists the subscriptions to drive: every one on the clock that has not
 * expired, and those that expired recently enough that their last invoice's grace may still run.
 */
async function moveClock(deps: ServiceDeps, id: string, target: Date, actor: Actor, requestId: string) {
  return deps.db.$transaction(async (tx) => {
    const previous = await lockClockForUpdate(tx, id);
    if (!previous) throw notFound('test_clock', id);
    if (target.getTime() < previous.getTime()) {
      throw new DomainError('unprocessable', 'test_clock_cannot_go_back', `frozen_time must not be before ${previous.toISOString()}`, { field: 'frozen_time' });
    }
    const clock = target.getTime() === previous.getTime() ? await getTestClockRow(tx, id) : await setFrozenTime(tx, id, target);
    await recordAudit(tx, {
      action: 'test_clock.advanced',
      actor,
      entityType: 'test_clock',
      entityId: id,
      before: { frozen_time: previous.toISOString() },
      after: { frozen_time: target.toISOString() },
      requestId,
    });
    const graceHorizon = new Date(previous.getTime() - deps.settings.invoiceGraceMs);
    return { clock, subscriptionIds: await subscriptionIdsOnClock(tx, id, graceHorizon) };
  });
}

/** Steps every workflow through each instant up to `target` where one of them has something due. */
async function driveInLockstep(deps: ServiceDeps, clockId: string, workflowIds: string[], target: Date): Promise<void> {
  let running = workflowIds.map((workflowId) => deps.temporal.client.workflow.getHandle(workflowId));
  const known = new Set(workflowIds);
  /** Adds the clock's dunning workflows not driven yet; true when the clock has any. */
  const withDunning = async (): Promise<boolean> => {
    const ids = await dunningWorkflowIdsOnClock(deps.db, clockId);
    for (const id of ids.filter((workflowId) => !known.has(workflowId))) {
      known.add(id);
      running.push(deps.temporal.client.workflow.getHandle(id));
    }
    return ids.length > 0;
  };
  const targetMs = target.getTime();
  let reachedMs = Number.NEGATIVE_INFINITY;
  await withDunning();
  while (running.length > 0) {
    const wakes = await Promise.all(running.map((handle) => nextWake(handle)));
    const due = wakes.filter((ms): ms is number => ms !== null && ms > reachedMs && ms < targetMs);
    const stepMs = due.length > 0 ? Math.min(...due) : targetMs;
    const driveAll = async () => {
      const outcomes = await Promise.all(running.map((handle) => driveTo(handle, new Date(stepMs).toISOString())));
      running = running.filter((_handle, i) => outcomes[i]);
    };
    await driveAll();
    // Collection at this step signals subscriptions (PastDue, back to Active) that may already have
    // caught up, and may start dunning workflows: a second pass waits for both.
    if (await withDunning()) await driveAll();
    reachedMs = stepMs;
    if (stepMs === targetMs) return;
  }
}

async function nextWake(handle: WorkflowHandle): Promise<number | null> {
  try {
    const wake = await handle.query(nextWakeQuery);
    return wake === null ? null : Date.parse(wake);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}

/** Advances one workflow to `at` and waits until it caught up; false once the workflow has ended. */
async function driveTo(handle: WorkflowHandle, at: string): Promise<boolean> {
  try {
    // A run that continued as new answers caughtUp=false: the next run takes the same time.
    while (!(await handle.executeUpdate(advanceClockUpdate, { args: [at] })).caughtUp);
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}
