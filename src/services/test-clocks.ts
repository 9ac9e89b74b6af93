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
 * an advance that was interrupted.
 */
import { WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import type { TestClock } from '../generated/prisma/client.js';
import type { AppDeps } from '../http/context.js';
import { newId } from '../ids.js';
import { advanceClockUpdate, nextWakeQuery, subscriptionWorkflowId } from '../../workflows/messages.js';
import { recordAudit, type Actor } from './audit.js';
import { conflict, DomainError, notFound } from './errors.js';

export interface TestClockView {
  id: string;
  name: string;
  frozen_time: string;
  status: 'ready' | 'advancing';
  created_at: string;
}

const toView = (row: TestClock, advancing: boolean): TestClockView => ({
  id: row.id,
  name: row.name,
  frozen_time: row.frozenTime.toISOString(),
  status: advancing ? 'advancing' : 'ready',
  created_at: row.createdAt.toISOString(),
});

/** Key of the session advisory lock an advance holds. */
const advanceLockKey = (id: string) => `test-clock-advance:${id}`;

/** Runs `work` holding the clock's advance lock; null when another advance holds it. */
async function withAdvanceLock<T>(deps: AppDeps, id: string, work: () => Promise<T>): Promise<T | null> {
  const client = await deps.pool.connect();
  try {
    const [row] = (await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', [advanceLockKey(id)])).rows;
    if (!row?.locked) return null;
    try {
      return await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [advanceLockKey(id)]);
    }
  } finally {
    client.release();
  }
}

async function isAdvancing(deps: AppDeps, id: string): Promise<boolean> {
  return (await withAdvanceLock(deps, id, async () => false)) ?? true;
}

export async function createTestClock(deps: AppDeps, input: { name: string; frozen_time: string }, actor: Actor, requestId: string): Promise<TestClockView> {
  const row = await deps.db.$transaction(async (tx) => {
    const clock = await tx.testClock.create({ data: { id: newId(), name: input.name, frozenTime: new Date(input.frozen_time) } });
    await recordAudit(tx, { action: 'test_clock.created', actor, entityType: 'test_clock', entityId: clock.id, after: toView(clock, false), requestId });
    return clock;
  });
  return toView(row, false);
}

export async function getTestClock(deps: AppDeps, id: string): Promise<TestClockView> {
  const row = await deps.db.testClock.findUnique({ where: { id } });
  if (!row) throw notFound('test_clock', id);
  return toView(row, await isAdvancing(deps, id));
}

/** Moves the clock forward (or re-drives it at its current time) and waits until every subscription on it has caught up. */
export async function advanceTestClock(deps: AppDeps, id: string, frozenTime: string, actor: Actor, requestId: string): Promise<TestClockView> {
  const target = new Date(frozenTime);
  const advanced = await withAdvanceLock(deps, id, async () => {
    const { clock, subscriptionIds } = await moveClock(deps, id, target, actor, requestId);
    await driveInLockstep(deps, subscriptionIds, target);
    return clock;
  });
  if (advanced === null) {
    if (!(await deps.db.testClock.findUnique({ where: { id }, select: { id: true } }))) throw notFound('test_clock', id);
    throw conflict('test_clock_advancing', 'the test clock is being advanced by another request; retry when it is ready');
  }
  return toView(advanced, false);
}

/**
 * Sets the clock's time and lists the subscriptions to drive: every one on the clock that has not
 * expired, and those that expired recently enough that their last invoice's grace may still run.
 */
async function moveClock(deps: AppDeps, id: string, target: Date, actor: Actor, requestId: string) {
  return deps.db.$transaction(async (tx) => {
    const [current] = await tx.$queryRaw<{ frozen_time: Date }[]>`SELECT frozen_time FROM test_clocks WHERE id = ${id}::uuid FOR UPDATE`;
    if (!current) throw notFound('test_clock', id);
    const previous = current.frozen_time;
    if (target.getTime() < previous.getTime()) {
      throw new DomainError('unprocessable', 'test_clock_cannot_go_back', `frozen_time must not be before ${previous.toISOString()}`, { field: 'frozen_time' });
    }
    const clock = target.getTime() === previous.getTime() ? await tx.testClock.findUniqueOrThrow({ where: { id } }) : await tx.testClock.update({ where: { id }, data: { frozenTime: target } });
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
    const subscriptions = await tx.subscription.findMany({
      where: { testClockId: id, OR: [{ status: { not: 'Expired' } }, { periodEnd: { gte: graceHorizon } }] },
      select: { id: true },
      orderBy: { id: 'asc' },
    });
    return { clock, subscriptionIds: subscriptions.map((s) => s.id) };
  });
}

/** Steps every workflow through each instant up to `target` where one of them has something due. */
async function driveInLockstep(deps: AppDeps, subscriptionIds: string[], target: Date): Promise<void> {
  let running = subscriptionIds.map((id) => deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(id)));
  const targetMs = target.getTime();
  let reachedMs = Number.NEGATIVE_INFINITY;
  while (running.length > 0) {
    const wakes = await Promise.all(running.map((handle) => nextWake(handle)));
    const due = wakes.filter((ms): ms is number => ms !== null && ms > reachedMs && ms < targetMs);
    const stepMs = due.length > 0 ? Math.min(...due) : targetMs;
    const outcomes = await Promise.all(running.map((handle) => driveTo(handle, new Date(stepMs).toISOString())));
    running = running.filter((_handle, i) => outcomes[i]);
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
