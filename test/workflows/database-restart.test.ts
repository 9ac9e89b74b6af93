/**
 * A PostgreSQL restart is transient (docs/failures.md): the run's embedded cluster is stopped
 * (fast shutdown: every connection terminated under its queries) and started again.
 * - The transactions it interrupted give their pooled connections back: a pool of two serves
 *   transactions again once the database is back.
 * - Stopped for a few seconds while a test-clock advance closes the periods of 60 subscriptions:
 *   every activity that met the outage retries once the database is back; no subscription or
 *   invoice is held with a billing_error, the advance ends ready, and each subscription has exactly
 *   one invoice for the period, finalized, and has rolled into the next period.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { isGrpcServiceError, WorkflowNotFoundError } from '@temporalio/client';
import { describe, expect, inject, it } from 'vitest';
import { createDb } from '../../src/db/client.js';
import { classifyFailure } from '../../src/services/failures/taxonomy.js';
import { advanceClock, waitForClockReady } from '../support/clock-usage.js';
import { activityAttempts, canRestartDatabase, restartDatabase } from '../support/faults.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { expectJson, useHarness } from '../support/harness.js';
import { eventually } from '../support/payments.js';
import { invoiceWorkflowId } from '../../workflows/invoice/messages.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';

const h = useHarness();

const SUBSCRIPTIONS = 60;
const GRPC_NOT_FOUND = 5;
/** How long PostgreSQL stays down: several attempts of the activities it hits fail meanwhile. */
const DOWN_MS = 4_000;

describe('a PostgreSQL restart', () => {
  it.skipIf(!canRestartDatabase())('gives back the pooled connection of every transaction it interrupted', async () => {
    const { db, pool } = createDb(inject('databaseUrl'), 2);
    const marker = `interrupted-${process.pid}-${Date.now()}`;
    try {
      // Both connections of the pool inside a transaction, each waiting on the server.
      const interrupted = [1, 2].map((n) =>
        db
          .$transaction(async (tx) => tx.$queryRawUnsafe(`SELECT pg_sleep(60), '${marker}-${n}'`))
          .then(
            () => new Error('the transaction outlived the restart'),
            (err: unknown) => err,
          ),
      );
      await eventually(async () => {
        const [running] = await h.deps.db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM pg_stat_activity WHERE query LIKE ${`%'${marker}-%`} AND pid <> pg_backend_pid()`;
        expect(running!.n).toBe(2n);
      });
      await restartDatabase(1_000);
      for (const err of await Promise.all(interrupted)) expect(classifyFailure(err), String(err)).toBe('transient');
      // Neither dead connection is still counted as checked out: a transaction gets one at once.
      expect(pool.totalCount - pool.idleCount).toBe(0);
      expect(await db.$transaction(async (tx) => tx.$queryRaw<{ one: number }[]>`SELECT 1 AS one`, { maxWait: 5_000 })).toEqual([{ one: 1 }]);
    } finally {
      await db.$disconnect();
      // A leaked connection would keep end() waiting for ever.
      expect(await Promise.race([pool.end().then(() => 'ended'), delay(5_000, 'still waiting for a checked-out connection')])).toBe('ended');
    }
  }, 60_000);

  it.skipIf(!canRestartDatabase())(
    'during a period close holds none of 60 subscriptions: every step that met the outage is retried, each subscription gets exactly one invoice for the period',
    async () => {
      const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
      const planId = await makePlan(h.deps.db);
      const subscriptionIds: string[] = [];
      for (let i = 0; i < SUBSCRIPTIONS; i += 1) {
        const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
        const subscription = await expectJson<{ id: string }>(
          await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }),
          201,
        );
        subscriptionIds.push(subscription.id);
      }
      // Every workflow is up and at the clock's time before the advance.
      await advanceClock(h, clockId, '2026-01-01T00:00:00.000Z');
      const periodInvoices = () => h.deps.db.invoice.count({ where: { subscriptionId: { in: subscriptionIds }, periodStart: new Date('2026-01-01T00:00:00.000Z') } });

      // Past the period end and the invoices' grace: the close, the roll and the finalization of 60 subscriptions.
      await expectJson(await h.request('POST', `/admin/v1/test-clocks/${clockId}/advance`, { body: { frozen_time: '2026-02-01T01:00:01.000Z' } }), 202);
      // The database goes away once the closes are under way, with most of them still to run, at a
      // moment when the worker holds transactions open: those lose their connection between two queries.
      const started = await eventually(async () => {
        const count = await periodInvoices();
        expect(count).toBeGreaterThan(0);
        const [open] = await h.deps.db.$queryRaw<{ n: bigint }[]>`
          SELECT count(*) AS n FROM pg_stat_activity
          WHERE datname = current_database() AND xact_start IS NOT NULL AND pid <> pg_backend_pid()`;
        expect(open!.n).toBeGreaterThanOrEqual(2n);
        return count;
      }, 60_000);
      expect(started).toBeLessThan(SUBSCRIPTIONS);
      const outage = await restartDatabase(DOWN_MS);
      expect(outage.startedAt - outage.stoppedAt).toBeGreaterThanOrEqual(DOWN_MS);

      const clock = await waitForClockReady(h, clockId);
      expect(clock).toMatchObject({ frozen_time: '2026-02-01T01:00:01.000Z', status: 'ready', advance: { subscriptions_done: SUBSCRIPTIONS, subscriptions_total: SUBSCRIPTIONS } });

      // None held: no billing_error on any subscription or invoice.
      const subscriptions = await h.deps.db.subscription.findMany({ where: { id: { in: subscriptionIds } }, select: { id: true, billingError: true, periodStart: true, status: true } });
      expect(subscriptions.filter((s) => s.billingError !== null)).toEqual([]);
      const invoices = await h.deps.db.invoice.findMany({ where: { subscriptionId: { in: subscriptionIds } }, select: { id: true, subscriptionId: true, periodStart: true, status: true, billingError: true, invoiceNumber: true } });
      expect(invoices.filter((i) => i.billingError !== null)).toEqual([]);

      // Exactly one invoice per subscription for January, finalized (numbered, Open); each subscription rolled into February.
      const january = invoices.filter((i) => i.periodStart?.toISOString() === '2026-01-01T00:00:00.000Z');
      expect(january.map((i) => i.subscriptionId).sort()).toEqual([...subscriptionIds].sort());
      expect(new Set(january.map((i) => i.status))).toEqual(new Set(['Open']));
      expect(new Set(january.map((i) => i.invoiceNumber)).size).toBe(SUBSCRIPTIONS);
      expect(subscriptions.map((s) => [s.status, s.periodStart.toISOString()])).toEqual(subscriptionIds.map(() => ['Active', '2026-02-01T00:00:00.000Z']));

      // The outage was met: some activity of these workflows failed and was attempted again (an
      // invoice finalized by its period's close has no workflow of its own).
      const retried: string[] = [];
      for (const workflowId of [...subscriptionIds.map(subscriptionWorkflowId), ...january.map((i) => invoiceWorkflowId(i.id))]) {
        const attempts = await activityAttempts(h, workflowId).catch((err: unknown) => {
          if (err instanceof WorkflowNotFoundError || (isGrpcServiceError(err) && err.code === GRPC_NOT_FOUND)) return {};
          throw err;
        });
        if (Object.values(attempts).some((list) => list.some((attempt) => attempt > 1))) retried.push(workflowId);
      }
      expect(retried.length).toBeGreaterThan(0);
    },
    300_000,
  );
});
