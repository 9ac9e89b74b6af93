/**
 * Test clock repository: clock rows, their row locks (an advance takes the row FOR UPDATE; whatever
 * reads "now" from a clock for a write takes it FOR SHARE), and the session advisory lock one
 * advance holds for its whole run.
 */
import type pg from 'pg';
import type { TestClock } from '../generated/prisma/client.js';
import { withPooledClient, type DbClient } from './client.js';

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

/** Locks the clock row for an advance and returns its time; undefined when it does not exist. */
export async function lockClockForUpdate(tx: DbClient, id: string): Promise<Date | undefined> {
  const [current] = await tx.$queryRaw<{ frozen_time: Date }[]>`SELECT frozen_time FROM test_clocks WHERE id = ${id}::uuid FOR UPDATE`;
  return current?.frozen_time;
}

/** Reads the clock's time under a share lock (an advance waits for this transaction); undefined when it does not exist. */
export async function lockClockShared(tx: DbClient, id: string): Promise<Date | undefined> {
  const [clock] = await tx.$queryRaw<{ frozen_time: Date }[]>`SELECT frozen_time FROM test_clocks WHERE id = ${id}::uuid FOR SHARE`;
  return clock?.frozen_time;
}

/** Key of the session advisory lock an advance holds. */
const advanceLockKey = (id: string) => `test-clock-advance:${id}`;

/**
 * Runs `work` holding the clock's advance lock, a session advisory lock on one pooled connection
 * (released even if the process dies); null when another advance holds it.
 */
export async function withAdvanceLock<T>(pool: pg.Pool, id: string, work: () => Promise<T>): Promise<T | null> {
  return withPooledClient(pool, async (client) => {
    const [row] = (await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', [advanceLockKey(id)])).rows;
    if (!row?.locked) return null;
    try {
      return await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [advanceLockKey(id)]);
    }
  });
}
