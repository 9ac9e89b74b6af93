/**
 * The window in which a workflow records a failed step as its resource's billing_error (workflows/
 * hold.ts), made reachable deterministically: a trigger on the resource's table makes the write of
 * its billing_error wait for an advisory lock the test holds, so the test sends the operator's retry
 * while the error is being recorded, then lets the recording finish. The retry must be accepted.
 */
import { WorkflowUpdateStage, type WorkflowHandle, type WorkflowUpdateHandle } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import { expect } from 'vitest';
import type { Db } from '../../src/db/client.js';
import { newId } from '../../src/ids.js';
import type { SubscriptionCommand } from '../../workflows/shared/messages.js';
import { eventually } from '../support/payments.js';

export interface RecordingWindow {
  /** Resolves once the workflow's recording of the billing_error waits for the test. */
  reached(): Promise<void>;
  /** Lets the recording finish, and removes the trigger. */
  release(): Promise<void>;
}

/**
 * Holds the recording of a billing_error on the rows of `table` that `when` selects (a PL/pgSQL
 * condition on NEW) until `release`. Clearing a billing_error is never held.
 */
export async function holdBillingErrorRecording(db: Db, table: string, when: string): Promise<RecordingWindow> {
  const key = Number.parseInt(newId().replaceAll('-', '').slice(0, 12), 16);
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let locked!: (pid: number) => void;
  const lockedBy = new Promise<number>((resolve) => {
    locked = resolve;
  });
  const holding = db.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${key})`);
      const [backend] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
      locked(backend!.pid);
      await released;
    },
    { timeout: 120_000, maxWait: 10_000 },
  );
  const pid = await Promise.race([lockedBy, holding.then(() => Promise.reject(new Error('the lock was not held')))]);
  const fn = `held_recording_${newId().replaceAll('-', '')}`;
  await db.$executeRawUnsafe(`
    CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.billing_error IS NOT NULL AND OLD.billing_error IS NULL AND ${when} THEN PERFORM pg_advisory_xact_lock(${key}); END IF;
      RETURN NEW;
    END $$`);
  await db.$executeRawUnsafe(`CREATE TRIGGER ${fn}_trigger BEFORE UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
  return {
    reached: () =>
      eventually(async () => {
        const [waiting] = await db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE ${pid} = ANY(pg_blocking_pids(pid))`);
        expect(waiting!.n).toBeGreaterThan(0);
      }, 60_000),
    release: async () => {
      release();
      await holding;
      await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS ${fn}_trigger ON ${table}`);
      await db.$executeRawUnsafe(`DROP FUNCTION IF EXISTS ${fn}()`);
    },
  };
}

/**
 * A condition (for an injected fault's `when`) that holds the first `times` times it is evaluated
 * only: a sequence of its own, which no rollback resets. The fault then fails the step that many
 * times, and the retry runs it again without the fault (no DDL while the recording is held: it would
 * wait for it). Put it last in the condition, so only the rows the fault aims at count.
 */
export async function firstTimes(db: Db, times = 1): Promise<{ sql: string; drop: () => Promise<void> }> {
  const seq = `first_times_${newId().replaceAll('-', '')}`;
  await db.$executeRawUnsafe(`CREATE SEQUENCE ${seq}`);
  return {
    sql: `nextval('${seq}') <= ${times}`,
    drop: async () => {
      await db.$executeRawUnsafe(`DROP SEQUENCE IF EXISTS ${seq}`);
    },
  };
}

/** The billing_error entries of a resource's audit trail, oldest first: [action, actor type]. */
export async function billingErrorTrail(db: Db, entity: string, entityId: string): Promise<[string, string][]> {
  const entries = await db.auditLogEntry.findMany({
    where: { entityId, action: { in: [`${entity}.billing_error`, `${entity}.billing_retried`] } },
    orderBy: { createdAt: 'asc' },
  });
  return entries.map((entry) => [entry.action, entry.actorType]);
}

export const OPERATOR: SubscriptionCommand = { actor: { type: 'admin', id: 'test-admin' } };

/** Sends the operator's retry straight to the workflow; answers once it was accepted (throws when its validator refused it). */
export function retryAccepted<Result>(handle: WorkflowHandle, update: UpdateDefinition<Result, [SubscriptionCommand]>): Promise<WorkflowUpdateHandle<Result>> {
  return handle.startUpdate(update, { args: [OPERATOR], waitForStage: WorkflowUpdateStage.ACCEPTED });
}
