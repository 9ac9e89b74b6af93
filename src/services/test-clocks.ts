/**
 * Test clocks (sandbox time, as in Stripe Billing and Kill Bill). Customers created on a clock and
 * their subscriptions live on its frozen time. Advancing a clock sends the new time to every
 * subscription workflow on it and returns once each has processed everything due by then, running
 * exactly the code real subscriptions run.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import type { TestClock } from '../generated/prisma/client.js';
import type { AppDeps } from '../http/context.js';
import { newId } from '../ids.js';
import { advanceClockUpdate, subscriptionWorkflowId } from '../../workflows/messages.js';
import { recordAudit, type Actor } from './audit.js';
import { DomainError, notFound } from './errors.js';

export interface TestClockView {
  id: string;
  name: string;
  frozen_time: string;
  status: 'ready';
  created_at: string;
}

const toView = (row: TestClock): TestClockView => ({
  id: row.id,
  name: row.name,
  frozen_time: row.frozenTime.toISOString(),
  status: 'ready',
  created_at: row.createdAt.toISOString(),
});

export async function createTestClock(deps: AppDeps, input: { name: string; frozen_time: string }, actor: Actor, requestId: string): Promise<TestClockView> {
  const row = await deps.db.$transaction(async (tx) => {
    const clock = await tx.testClock.create({ data: { id: newId(), name: input.name, frozenTime: new Date(input.frozen_time) } });
    await recordAudit(tx, { action: 'test_clock.created', actor, entityType: 'test_clock', entityId: clock.id, after: toView(clock), requestId });
    return clock;
  });
  return toView(row);
}

export async function getTestClock(deps: AppDeps, id: string): Promise<TestClockView> {
  const row = await deps.db.testClock.findUnique({ where: { id } });
  if (!row) throw notFound('test_clock', id);
  return toView(row);
}

/** Moves the clock forward and waits until every subscription on it has caught up. */
export async function advanceTestClock(deps: AppDeps, id: string, frozenTime: string, actor: Actor, requestId: string): Promise<TestClockView> {
  const target = new Date(frozenTime);
  const { clock, subscriptionIds } = await deps.db.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ frozen_time: Date }[]>`SELECT frozen_time FROM test_clocks WHERE id = ${id}::uuid FOR UPDATE`;
    const current = locked[0];
    if (!current) throw notFound('test_clock', id);
    if (target.getTime() <= current.frozen_time.getTime()) {
      throw new DomainError('unprocessable', 'test_clock_cannot_go_back', `frozen_time must be after ${current.frozen_time.toISOString()}`, {
        field: 'frozen_time',
      });
    }
    const updated = await tx.testClock.update({ where: { id }, data: { frozenTime: target } });
    await recordAudit(tx, {
      action: 'test_clock.advanced',
      actor,
      entityType: 'test_clock',
      entityId: id,
      before: { frozen_time: current.frozen_time.toISOString() },
      after: { frozen_time: target.toISOString() },
      requestId,
    });
    const subscriptions = await tx.subscription.findMany({ where: { testClockId: id, status: { not: 'Expired' } }, select: { id: true } });
    return { clock: updated, subscriptionIds: subscriptions.map((s) => s.id) };
  });

  await Promise.all(
    subscriptionIds.map(async (subscriptionId) => {
      const handle = deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId));
      try {
        // A run that continued as new answers caughtUp=false: the next run takes the same time.
        while (!(await handle.executeUpdate(advanceClockUpdate, { args: [target.toISOString()] })).caughtUp);
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
    }),
  );
  return toView(clock);
}
