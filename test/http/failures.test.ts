/**
 * Issue 18 regressions at the API: usage quantities bounded at the door for every sender, a dropped
 * database connection answered with 503 (the process survives and recovers), subscriptions created
 * with their workflow started after the commit (503 at once when Temporal is down; a reconciler for
 * a start that did not happen), and concurrent pays of one invoice: one 200, the others 409, one run.
 */
import { Client, Connection } from '@temporalio/client';
import { describe, expect, inject, it } from 'vitest';
import { createDb, withPooledClient } from '../../src/db/client.js';
import { freePort } from '../../src/dev/processes.js';
import { newId } from '../../src/ids.js';
import { isDependencyUnavailable } from '../../src/services/availability.js';
import { classifyFailure } from '../../src/services/failures/taxonomy.js';
import { reconcileSubscriptionWorkflows } from '../../src/services/subscriptions/workflow-starts.js';
import { invoiceWorkflowId } from '../../workflows/invoice/messages.js';
import { subscriptionStateQuery, subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { testClockAdvanceWorkflowId } from '../../workflows/test-clock-advance/messages.js';
import { advanceClock } from '../support/clock-usage.js';
import { eventually } from '../support/payments.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { createHarness, expectJson, useHarness } from '../support/harness.js';

const h = useHarness();

interface ErrorBody {
  error: { code: string; details?: { issues?: { path: string; message: string }[] } };
}

const event = (customerId: string, properties: Record<string, unknown>) => ({
  id: `door-${newId()}`,
  event_type: 'api_calls',
  customer_id: customerId,
  timestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  properties,
});

describe('usage quantities at the door', () => {
  it.each([
    ['a 31-digit quantity', { quantity: '1000000000000000000000000000000' }, 'quantity', /18 digits/],
    ['a 31-digit quantity another meter may sum', { tokens: '-1000000000000000000000000000000' }, 'tokens', /18 digits/],
    ['more than 12 decimals', { tokens: '0.0000000000001' }, 'tokens', /12 decimal/],
  ])('refuses %s from every sender, single or batch', async (_name, properties, path, message) => {
    const customerId = await makeCustomer(h.deps.db);
    for (const as of [{ customer: customerId }, 'admin', 'api_key'] as const) {
      const res = await h.request('POST', '/v1/events', { body: event(customerId, properties), as });
      const body = (await res.json()) as ErrorBody;
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(body.error.code).toBe('validation_failed');
      expect(body.error.details?.issues).toEqual([expect.objectContaining({ path: `properties.${path}`, message: expect.stringMatching(message) })]);
      const batch = await h.request('POST', '/v1/events/batch', { body: { events: [event(customerId, { quantity: '2' }), event(customerId, properties)] }, as });
      expect(batch.status).toBe(400);
      expect(((await batch.json()) as ErrorBody).error.details?.issues?.map((i) => i.path)).toEqual([`events.1.properties.${path}`]);
    }
    expect(await h.deps.db.usageEvent.count({ where: { customerId } })).toBe(0);
  });

  it.each([
    ['a negative decimal string', { quantity: '-5000' }, 'quantity'],
    ['a negative number', { quantity: -5 }, 'quantity'],
    ['a negative property another meter may sum', { tokens: -1 }, 'tokens'],
  ])('refuses %s from a customer token (single, batch, CloudEvent), accepts it from admin credentials as a correction', async (_name, properties, path) => {
    const customerId = await makeCustomer(h.deps.db);
    const as = { customer: customerId };
    const single = await h.request('POST', '/v1/events', { body: event(customerId, properties), as });
    const body = (await single.json()) as ErrorBody;
    expect(single.status, JSON.stringify(body)).toBe(400);
    expect(body.error.details?.issues).toEqual([expect.objectContaining({ path: `properties.${path}`, message: expect.stringMatching(/negative/) })]);
    const batch = await h.request('POST', '/v1/events/batch', { body: { events: [event(customerId, { quantity: '2' }), event(customerId, properties)] }, as });
    expect(batch.status).toBe(400);
    expect(((await batch.json()) as ErrorBody).error.details?.issues?.map((i) => i.path)).toEqual([`events.1.properties.${path}`]);
    const cloudEvent = { specversion: '1.0', id: `ce-${newId()}`, source: '/test', type: 'api_calls', subject: customerId, data: properties };
    const ce = await h.request('POST', '/v1/events', { rawBody: JSON.stringify(cloudEvent), headers: { 'content-type': 'application/cloudevents+json' }, as });
    expect(ce.status).toBe(400);
    expect(((await ce.json()) as ErrorBody).error.details?.issues?.map((i) => i.path)).toEqual([`data.${path}`]);
    expect(await h.deps.db.usageEvent.count({ where: { customerId } })).toBe(0);

    for (const admin of ['admin', 'api_key'] as const) {
      const res = await h.request('POST', '/v1/events', { body: event(customerId, properties), as: admin });
      expect([200, 201, 202], await res.clone().text()).toContain(res.status);
    }
    expect(await h.deps.db.usageEvent.count({ where: { customerId } })).toBe(2);
  });

  it('accepts quantities within the bounds from a customer token', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const res = await h.request('POST', '/v1/events', { body: event(customerId, { quantity: '999999999999999999.000000000001', tokens: 0 }), as: { customer: customerId } });
    expect([200, 201, 202], await res.clone().text()).toContain(res.status);
  });
});

describe('a dropped database connection', () => {
  it('fails the query it was running with a connection error, and the pool serves the next one', async () => {
    const pending = withPooledClient(h.deps.pool, async (client) => {
      const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const sleeping = client.query('SELECT pg_sleep(30)');
      // Observed at once: it may reject while the terminate below is still awaited.
      sleeping.catch(() => {});
      await h.deps.db.$queryRaw`SELECT pg_terminate_backend(${pid}::int)`;
      return sleeping;
    });
    const err = await pending.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isDependencyUnavailable(err)).toBe(true);
    expect((await h.deps.pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('to a checked-out connection between two queries neither kills the process nor goes back to the pool', async () => {
    const { db, pool } = createDb(inject('databaseUrl'), 1);
    try {
      // Checked out as the driver adapter and the outbox listener do, with nothing of ours listening for 'error'.
      const client = await pool.connect();
      const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      await h.deps.db.$queryRaw`SELECT pg_terminate_backend(${pid}::int)`;
      // The server's "terminating connection" arrives with no query running: an unheard 'error' would be an uncaught exception.
      await eventually(async () => expect((client as unknown as { _queryable: boolean })._queryable).toBe(false));
      client.release();
      expect((await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid).not.toBe(pid);
    } finally {
      await db.$disconnect();
      await pool.end();
    }
  });

  it('between two statements of a transaction fails that transaction as transient, and neither kills the process nor keeps the connection', async () => {
    const { db, pool } = createDb(inject('databaseUrl'), 1);
    try {
      const outcome = await db
        .$transaction(async (tx) => {
          const [row] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
          const pid = row!.pid;
          // The connection sits idle in the transaction while the server drops it: its 'error' has no query to fail.
          await h.deps.db.$queryRaw`SELECT pg_terminate_backend(${pid}::int)`;
          await eventually(async () => {
            const [gone] = await h.deps.db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM pg_stat_activity WHERE pid = ${pid}::int`;
            expect(gone!.n).toBe(0n);
          });
          return tx.$queryRaw`SELECT 1`;
        })
        .then(
          () => new Error('the transaction outlived its connection'),
          (err: unknown) => err,
        );
      expect(classifyFailure(outcome), String(outcome)).toBe('transient');
      // The pool of one replaced the dead connection.
      expect(await db.$queryRaw<{ one: number }[]>`SELECT 1 AS one`).toEqual([{ one: 1 }]);
    } finally {
      await db.$disconnect();
      await pool.end();
    }
  });

  it('takes over a clock left advancing by a terminated advance workflow, and the next advance finishes the work', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    const planId = await makePlan(h.deps.db);
    const subscription = await expectJson<{ id: string }>(
      await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }),
      201,
    );
    // The subscription's row is held, so the drive waits at the period end while an operator terminates its workflow.
    const held = await h.deps.pool.connect();
    try {
      await held.query('BEGIN');
      await held.query('SELECT 1 FROM subscriptions WHERE id = $1 FOR UPDATE', [subscription.id]);
      await expectJson(await h.request('POST', `/admin/v1/test-clocks/${clockId}/advance`, { body: { frozen_time: '2026-02-01T02:00:00Z' } }), 202);
      await h.deps.temporal.client.workflow.getHandle(testClockAdvanceWorkflowId(clockId)).terminate('operator stopped the advance');
    } finally {
      await held.query('COMMIT');
      held.release();
    }
    // Nothing finishes that advance: the clock stays advancing until the next request takes it over.
    expect(await expectJson(await h.request('GET', `/admin/v1/test-clocks/${clockId}`))).toMatchObject({ status: 'advancing', frozen_time: '2026-02-01T02:00:00.000Z' });
    const clock = await advanceClock(h, clockId, '2026-02-01T02:00:00Z');
    expect(clock).toMatchObject({ frozen_time: '2026-02-01T02:00:00.000Z', status: 'ready', advance: { subscriptions_done: 1, subscriptions_total: 1 } });
    expect(await expectJson(await h.request('GET', `/v1/subscriptions/${subscription.id}`))).toMatchObject({ period_start: '2026-02-01T00:00:00.000Z' });
  });

  it('answers 503 when Temporal cannot be reached to start an advance, marks the clock internal_failure, and the next advance succeeds', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const broken = await createHarness();
    const original = broken.deps.temporal;
    const connection = Connection.lazy({ address: `127.0.0.1:${await freePort()}` });
    broken.deps.temporal = { connection, client: new Client({ connection }), taskQueue: original.taskQueue };
    const res = await broken.request('POST', `/admin/v1/test-clocks/${clockId}/advance`, { body: { frozen_time: '2026-01-10T00:00:00Z' } });
    const body = (await res.json()) as ErrorBody;
    expect(res.status, JSON.stringify(body)).toBe(503);
    expect(body.error.code).toBe('service_unavailable');
    await original.connection.close();
    await broken.close();
    expect(await expectJson(await h.request('GET', `/admin/v1/test-clocks/${clockId}`))).toMatchObject({ status: 'internal_failure', frozen_time: '2026-01-10T00:00:00.000Z' });
    expect(await advanceClock(h, clockId, '2026-01-10T00:00:00Z')).toMatchObject({ status: 'ready', frozen_time: '2026-01-10T00:00:00.000Z' });
  });
});

describe('subscription creation and its workflow', () => {
  it('answers 503 within seconds when Temporal cannot be reached, and creates nothing', async () => {
    const broken = await createHarness();
    const original = broken.deps.temporal;
    const connection = Connection.lazy({ address: `127.0.0.1:${await freePort()}` });
    broken.deps.temporal = { connection, client: new Client({ connection }), taskQueue: original.taskQueue };
    const customerId = await makeCustomer(h.deps.db);
    const planId = await makePlan(h.deps.db);
    const started = Date.now();
    const res = await broken.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } });
    const elapsed = Date.now() - started;
    const body = (await res.json()) as ErrorBody;
    expect(res.status, JSON.stringify(body)).toBe(503);
    expect(body.error.code).toBe('service_unavailable');
    expect(elapsed).toBeLessThan(6_000);
    expect(await h.deps.db.subscription.count({ where: { customerId } })).toBe(0);
    expect(await h.deps.db.outboxEvent.count({ where: { type: 'subscription.created', payload: { path: ['data', 'customer_id'], equals: customerId } } })).toBe(0);
    await original.connection.close();
    await broken.close();
  });

  it('records the start after the commit, and the reconciler starts a workflow whose start did not happen', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    const planId = await makePlan(h.deps.db);
    const created = await expectJson<{ id: string }>(
      await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }),
      201,
    );
    expect((await h.deps.db.subscription.findUniqueOrThrow({ where: { id: created.id } })).workflowStartedAt).not.toBeNull();

    // A row committed by a process that died before starting its workflow.
    const orphanId = newId();
    await h.deps.db.subscription.create({
      data: {
        id: orphanId,
        customerId,
        planId,
        currency: 'USD',
        status: 'Active',
        periodStart: new Date('2026-01-01T00:00:00.000Z'),
        periodEnd: new Date('2026-02-01T00:00:00.000Z'),
        billingAnchor: new Date('2026-01-01T00:00:00.000Z'),
        testClockId: clockId,
        phases: { create: { id: newId(), planId, startsAt: new Date('2026-01-01T00:00:00.000Z') } },
      },
    });
    const started = await reconcileSubscriptionWorkflows(h.deps, { createdBefore: new Date(Date.now() + 1000), testClockId: clockId });
    expect(started).toBe(1);
    const handle = h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(orphanId));
    expect(await handle.query(subscriptionStateQuery)).toMatchObject({ status: 'Active', periodEnd: '2026-02-01T00:00:00.000Z' });
    expect((await h.deps.db.subscription.findUniqueOrThrow({ where: { id: orphanId } })).workflowStartedAt).not.toBeNull();
    // Idempotent: nothing is left to start.
    expect(await reconcileSubscriptionWorkflows(h.deps, { createdBefore: new Date(Date.now() + 1000), testClockId: clockId })).toBe(0);
    // And the clock bills both.
    await advanceClock(h, clockId, '2026-02-01T02:00:00Z');
    for (const id of [created.id, orphanId]) {
      expect(await expectJson(await h.request('GET', `/v1/subscriptions/${id}`))).toMatchObject({ period_start: '2026-02-01T00:00:00.000Z' });
    }
  });
});

describe('concurrent pays without an Idempotency-Key', () => {
  it('answer one 200 and 409 for the others, and never start another run of the completed invoice workflow', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const planId = await makePlan(h.deps.db);
    const subscription = await expectJson<{ id: string }>(
      await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }),
      201,
    );
    const periodStart = (await h.deps.db.subscription.findUniqueOrThrow({ where: { id: subscription.id } })).periodStart;
    for (let round = 0; round < 3; round++) {
      // Something not invoiced yet, so each round bills a new Draft.
      await h.deps.db.usageEvent.create({
        data: { id: `pay-${newId()}`, eventType: 'api_calls', customerId, subscriptionId: subscription.id, occurredAt: new Date(periodStart.getTime() + round), properties: {} },
      });
      const draft = await expectJson<{ id: string }>(await h.request('POST', `/admin/v1/subscriptions/${subscription.id}/bill`), 201);
      expect(await expectJson(await h.request('POST', `/admin/v1/invoices/${draft.id}/finalize`))).toMatchObject({ status: 'Open' });
      const payers = Array.from({ length: 12 }, (_, i) => `payer-${i}`);
      const answers = await Promise.all(
        payers.map(async (payer) => {
          const res = await h.request('POST', `/admin/v1/invoices/${draft.id}/pay`, { body: { actor_id: payer, actor_name: payer } });
          return { payer, status: res.status, body: (await res.json()) as { paid_by?: { actor_id: string }; error?: { code: string } } };
        }),
      );
      const winners = answers.filter((a) => a.status === 200);
      expect(winners).toHaveLength(1);
      // The winner's answer names the winner as the payer; everyone else was refused.
      expect(winners[0]!.body.paid_by?.actor_id).toBe(winners[0]!.payer);
      expect(answers.filter((a) => a.status === 409).map((a) => a.body.error?.code)).toEqual(Array(payers.length - 1).fill('invalid_state_transition'));
      // Pays arriving after the workflow completed did not start new runs of it.
      // The invoice turns Paid inside the winning update; the run completes just after, and visibility follows.
      await h.deps.temporal.client.workflow.getHandle(invoiceWorkflowId(draft.id)).result();
      await eventually(async () => {
        const runs = [];
        for await (const run of h.deps.temporal.client.workflow.list({ query: `WorkflowId = '${invoiceWorkflowId(draft.id)}'` })) runs.push(run);
        expect(runs.map((run) => run.status.name)).toEqual(['COMPLETED']);
      });
      // Another pay, now that it is Paid, is refused from the database state.
      const late = await h.request('POST', `/admin/v1/invoices/${draft.id}/pay`, { body: { actor_id: 'late', actor_name: 'late' } });
      expect(late.status).toBe(409);
    }
  });
});
