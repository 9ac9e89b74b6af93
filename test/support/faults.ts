/**
 * Deterministic failures injected into real work: a trigger that raises a numeric overflow
 * (SQLSTATE 22003, what Prisma reports as P2020) on the rows a condition selects, as a corrupt
 * stored amount or a 31-digit quantity would. No retry can get past it, so the work under test must
 * surface it as a visible error (docs/failures.md). A corrupt test-clock time does the same for
 * work that only reads. And a transient one: the test run's PostgreSQL stopped and started again
 * under running work, which must ride it out on its retries.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { inject } from 'vitest';
import type { Db } from '../../src/db/client.js';
import { EmbeddedPostgres } from '../../src/dev/embedded-postgres.js';
import { newId } from '../../src/ids.js';
import type { Harness } from './harness.js';

export interface OverflowFault {
  table: string;
  /** A PL/pgSQL condition on NEW (and OLD for updates), e.g. `NEW.subscription_id = '…'::uuid`. */
  when: string;
  /** The statements it fires on. */
  on?: 'INSERT' | 'UPDATE' | 'INSERT OR UPDATE';
}

/** Installs the overflow trigger; the answer removes it (idempotent, so a `finally` may call it again). */
export async function injectOverflow(db: Db, fault: OverflowFault): Promise<() => Promise<void>> {
  const fn = `injected_overflow_${newId().replaceAll('-', '')}`;
  await db.$executeRawUnsafe(`
    CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF ${fault.when} THEN RAISE EXCEPTION 'injected numeric field overflow' USING ERRCODE = '22003'; END IF;
      RETURN NEW;
    END $$`);
  await db.$executeRawUnsafe(`CREATE TRIGGER ${fn}_trigger BEFORE ${fault.on ?? 'INSERT OR UPDATE'} ON ${fault.table} FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
  return async () => {
    await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS ${fn}_trigger ON ${fault.table}`);
    await db.$executeRawUnsafe(`DROP FUNCTION IF EXISTS ${fn}()`);
  };
}

/** Runs `work` with the overflow injected, and removes it afterwards whatever happened. */
export async function withOverflow<T>(db: Db, fault: OverflowFault, work: () => Promise<T>): Promise<T> {
  const remove = await injectOverflow(db, fault);
  try {
    return await work();
  } finally {
    await remove();
  }
}

/**
 * Runs `work` with the test clock's stored time corrupt ('infinity', which reads back as an invalid
 * date): every time derived from it fails deterministically (a RangeError), as a damaged row would.
 * The time is restored afterwards whatever happened.
 */
export async function withCorruptClockTime<T>(db: Db, testClockId: string, work: () => Promise<T>): Promise<T> {
  const [clock] = await db.$queryRaw<{ frozen_time: Date }[]>`SELECT frozen_time FROM test_clocks WHERE id = ${testClockId}::uuid`;
  if (!clock) throw new Error(`no test clock ${testClockId}`);
  await db.$executeRaw`UPDATE test_clocks SET frozen_time = 'infinity' WHERE id = ${testClockId}::uuid`;
  try {
    return await work();
  } finally {
    await db.$executeRaw`UPDATE test_clocks SET frozen_time = ${clock.frozen_time} WHERE id = ${testClockId}::uuid`;
  }
}

/** Attempts of each activity type in a workflow's (latest run's) history: a deterministic failure shows one. */
export async function activityAttempts(h: Harness, workflowId: string): Promise<Record<string, number[]>> {
  const history = await h.deps.temporal.client.workflow.getHandle(workflowId).fetchHistory();
  const scheduled = new Map<string, string>();
  const attempts: Record<string, number[]> = {};
  for (const event of history.events ?? []) {
    const type = event.activityTaskScheduledEventAttributes?.activityType?.name;
    if (type) scheduled.set(String(event.eventId), type);
    const started = event.activityTaskStartedEventAttributes;
    if (started) (attempts[scheduled.get(String(started.scheduledEventId))!] ??= []).push(started.attempt ?? 0);
  }
  return attempts;
}

/** Whether the run's PostgreSQL may be restarted: it is the embedded cluster of the global setup, not TEST_DATABASE_URL's server. */
export const canRestartDatabase = (): boolean => inject('databaseCluster') !== null;

/**
 * Stops the run's embedded PostgreSQL cluster (fast shutdown: open connections are terminated,
 * 57P01, as in a real restart), keeps it down for `downMs`, and starts it again; resolves once it
 * accepts connections. Every connection of every process (the worker's, the test's) is lost.
 */
export async function restartDatabase(downMs: number): Promise<{ stoppedAt: number; startedAt: number }> {
  const cluster = inject('databaseCluster');
  if (cluster === null) throw new Error('the run uses TEST_DATABASE_URL: its server is not the tests to restart');
  // The same data folder, port and options as the global setup's: pg_ctl drives the running server.
  const postgres = new EmbeddedPostgres({ ...cluster, ephemeral: true });
  await postgres.stop();
  const stoppedAt = Date.now();
  await delay(downMs);
  await postgres.start();
  return { stoppedAt, startedAt: Date.now() };
}
