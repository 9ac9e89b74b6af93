/**
 * Test clock repository: clock rows, their row locks (an advance request takes the row FOR UPDATE;
 * whatever reads "now" from a clock for a write takes it FOR SHARE), and the status and progress of
 * the clock's latest advance (written by the advance workflow's activities).
 */
import { Prisma, type TestClock } from '../generated/prisma/client.js';
import type { DbClient } from './client.js';
import { NEWEST_FIRST, pageWhere, type PageQuery } from './pages.js';

export type TestClockRow = TestClock;

export function insertTestClock(tx: DbClient, clock: { id: string; name: string; frozenTime: Date }): Promise<TestClockRow> {
  return tx.testClock.create({ data: clock });
}

export function findTestClock(tx: DbClient, id: string): Promise<TestClockRow | null> {
  return tx.testClock.findUnique({ where: { id } });
}

export async function testClockExists(tx: DbClient, id: string): Promise<boolean> {
  return (await tx.testClock.findUnique({ where: { id }, select: { id: true } })) !== null;
}

/** A clock known to exist (locked in this transaction). */
export function getTestClock(tx: DbClient, id: string): Promise<TestClockRow> {
  return tx.testClock.findUniqueOrThrow({ where: { id } });
}

export function setFrozenTime(tx: DbClient, id: string, frozenTime: Date): Promise<TestClockRow> {
  return tx.testClock.update({ where: { id }, data: { frozenTime } });
}

/** Locks the clock row for an advance request and returns it; undefined when it does not exist. */
export async function lockClockForUpdate(tx: DbClient, id: string): Promise<TestClockRow | undefined> {
  const [current] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM test_clocks WHERE id = ${id}::uuid FOR UPDATE`;
  return current ? getTestClock(tx, id) : undefined;
}

/** How many customers live on the clock (closed ones included). */
export const customersOnClockCount = (tx: DbClient, id: string): Promise<number> => tx.customer.count({ where: { testClockId: id } });

/** Deletes the clock's row (the caller checked nothing refers to it). */
export async function deleteTestClockRow(tx: DbClient, id: string): Promise<void> {
  await tx.testClock.delete({ where: { id } });
}

/** Reads the clock's time under a share lock (an advance waits for this transaction); undefined when it does not exist. */
export async function lockClockShared(tx: DbClient, id: string): Promise<Date | undefined> {
  const [clock] = await tx.$queryRaw<{ frozen_time: Date }[]>`SELECT frozen_time FROM test_clocks WHERE id = ${id}::uuid FOR SHARE`;
  return clock?.frozen_time;
}

/** An advance taking the clock: its new time, status advancing and fresh progress (in the transaction holding the row lock). */
export function beginAdvance(tx: DbClient, id: string, input: { frozenTime: Date; simulatedTime: Date; startedAt: Date }): Promise<TestClockRow> {
  return tx.testClock.update({
    where: { id },
    data: {
      frozenTime: input.frozenTime,
      status: 'advancing',
      simulatedTime: input.simulatedTime,
      advanceSubscriptionsTotal: 0,
      advanceSubscriptionsDone: 0,
      advanceStartedAt: input.startedAt,
      advanceFinishedAt: null,
      advanceError: Prisma.DbNull,
    },
  });
}

/** One page of clocks, newest first: up to `limit + 1` rows. */
export function listTestClockRows(tx: DbClient, page: PageQuery): Promise<TestClockRow[]> {
  return tx.testClock.findMany({ where: pageWhere(page), orderBy: NEWEST_FIRST, take: page.limit + 1 });
}

/** Progress of the advance started at `startedAt` (a later advance's row is left alone). */
export async function recordAdvanceProgress(
  tx: DbClient,
  id: string,
  startedAt: Date,
  progress: { simulatedTime: Date; subscriptionsTotal: number; subscriptionsDone: number },
): Promise<void> {
  await tx.testClock.updateMany({
    where: { id, status: 'advancing', advanceStartedAt: startedAt },
    data: { simulatedTime: progress.simulatedTime, advanceSubscriptionsTotal: progress.subscriptionsTotal, advanceSubscriptionsDone: progress.subscriptionsDone },
  });
}

/**
 * Ends the advance started at `startedAt` as ready or internal_failure (with its error when known);
 * null when that advance is no longer the clock's current one.
 */
export async function finishAdvance(
  tx: DbClient,
  id: string,
  startedAt: Date,
  outcome: { status: 'ready' | 'internal_failure'; finishedAt: Date; error?: Prisma.InputJsonValue },
): Promise<TestClockRow | null> {
  const { count } = await tx.testClock.updateMany({
    where: { id, status: 'advancing', advanceStartedAt: startedAt },
    data: { status: outcome.status, advanceFinishedAt: outcome.finishedAt, advanceError: outcome.error ?? Prisma.DbNull },
  });
  return count === 0 ? null : getTestClock(tx, id);
}

/** The time of the test clock a subscription lives on when that clock is `ready`; null when it is on none or its clock is being advanced. */
export async function readyClockTimeOfSubscription(tx: DbClient, subscriptionId: string): Promise<Date | null> {
  const row = await tx.subscription.findUnique({ where: { id: subscriptionId }, select: { testClock: { select: { frozenTime: true, status: true } } } });
  return row?.testClock?.status === 'ready' ? row.testClock.frozenTime : null;
}

/** Clocks being advanced, then those whose latest advance started most recently: up to `limit`. */
export function listClocksByAdvance(tx: DbClient, limit: number): Promise<TestClockRow[]> {
  return tx.testClock.findMany({
    where: { advanceStartedAt: { not: null } },
    orderBy: [{ status: 'asc' }, { advanceStartedAt: 'desc' }],
    take: limit,
  });
}
