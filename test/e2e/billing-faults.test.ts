/**
 * Every accepted event billed exactly once, every cent accounted for, under faults (ARCHITECTURE.md,
 * "Money invariants"): 30 subscriptions of a Graduated usage plan on one test clock, driven by a
 * worker process of this test (`src/worker.ts` on a database and task queue of its own, as in
 * scale-out: the test run's in-process worker polls another queue, so the process killed here is the
 * only one billing them). While four senders keep sending single events dated in late January, the
 * clock moves past the period end and the invoices' grace; once the first invoices appear the worker
 * is killed (SIGKILL) and a fresh one started, and once the advance's drive runs again on it
 * PostgreSQL is stopped for a few seconds. Two more periods bill what arrived late. Then, for every
 * subscription:
 * - conservation: January's usage billed over all its invoices (adjustment lines included) equals
 *   the events stored with a January timestamp, which equals the events the API confirmed stored;
 * - the reconciliation shows every period billed, the receivable equal to the open amount due and
 *   not negative, balanced;
 * - exactly one regular invoice per period, none held with a billing_error;
 * and overall: invoice numbers distinct and gapless (1..the counter), every ledger journal balanced.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LOCAL_PROCESSOR_SECRET_KEY } from '../../src/config.js';
import { dropDatabase, ensureDatabase, migrateDatabase, withDatabase } from '../../src/dev/embedded-postgres.js';
import { startProjectProcess, stopProcess, type ProjectProcess } from '../../src/dev/processes.js';
import { apiKeyHash, generateSecrets } from '../../src/dev/secrets.js';
import { testClockAdvanceWorkflowId } from '../../workflows/test-clock-advance/messages.js';
import { advanceClock, sendUsage, waitForClockReady } from '../support/clock-usage.js';
import { canRestartDatabase, restartDatabase } from '../support/faults.js';
import { createHarness, expectJson, type Harness } from '../support/harness.js';
import { invoicesOf } from '../support/invoices.js';
import { billedUsage, makeGraduatedCallsPlan } from '../support/usage-billing.js';

const SUBSCRIPTIONS = 30;
const SENDERS = 4;
/** How long PostgreSQL stays down: activities and requests that meet it fail several times. */
const DOWN_MS = 3_000;
const JANUARY = '2026-01-01T00:00:00.000Z';
const FEBRUARY = '2026-02-01T00:00:00.000Z';
const MARCH = '2026-03-01T00:00:00.000Z';
/** Usage sent before the faults: some subscriptions stay in the first tier, others cross it. */
const initialUsageOf = (i: number) => 200 + 70 * i;

interface Line {
  kind: string;
  quantity: string;
  subscription_id: string | null;
  period_start: string | null;
}
interface Invoice {
  id: string;
  status: string;
  billing_reason: string;
  invoice_number: string | null;
  period_start: string | null;
  line_items: Line[];
}
interface Reconciliation {
  balanced: boolean;
  currencies: { currency: string; receivable_matches_open_amount_due: boolean; receivable_not_negative: boolean }[];
  usage: { subscription_id: string; period_start: string; accepted_quantity: string; billed_quantity: string; state: string }[];
}
interface Party {
  customerId: string;
  subscriptionId: string;
}

/** A worker process (`src/worker.ts` under the tsx loader), answered once it logs that it is ready. */
const startWorker = (env: NodeJS.ProcessEnv): Promise<ProjectProcess> => startProjectProcess('src/worker.ts', env, 'worker ready');

/** Kills the process at once (no shutdown: tasks and transactions in flight are cut off) and waits until it is gone. */
async function killNow(worker: ProjectProcess): Promise<void> {
  const gone = worker.exited.catch(() => undefined);
  worker.child.kill('SIGKILL');
  await gone;
}

/** `work`, failing at once should the worker process die meanwhile. */
const whileAlive = <T>(worker: ProjectProcess, work: Promise<T>): Promise<T> => Promise.race([work, worker.exited]);

/** Polls `check` (every 20 ms) until it answers true. */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await delay(20);
  }
}

describe('billing under a killed worker and a PostgreSQL restart', () => {
  let h: Harness;
  let databaseUrl: string;
  let taskQueue: string;
  let workerEnv: NodeJS.ProcessEnv;
  const workers: ProjectProcess[] = [];
  const cleanup: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    if (!canRestartDatabase()) return;
    // A database and task queue of their own on the run's PostgreSQL and Temporal server: only the
    // worker processes of this test bill its subscriptions, and its invoice numbers are all its own.
    databaseUrl = withDatabase(inject('databaseUrl'), `billing_faults_${Date.now().toString(36)}`);
    await ensureDatabase(databaseUrl);
    cleanup.push(() => dropDatabase(databaseUrl));
    migrateDatabase(databaseUrl);
    taskQueue = `faults-${randomUUID().slice(0, 8)}`;
    const secrets = generateSecrets();
    workerEnv = {
      NODE_ENV: 'development',
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_TASK_QUEUE: taskQueue,
      INVOICE_GRACE_PERIOD_SECONDS: String(inject('invoiceGraceMs') / 1000),
      LOG_LEVEL: 'info',
      WORKER_DB_POOL_SIZE: '20',
      JWT_SECRET: secrets.jwt_secret,
      API_KEY_HASH: apiKeyHash(secrets.api_key),
      PROCESSOR_WEBHOOK_SECRET: secrets.processor_webhook_secret,
      HOSTED_LINK_SECRET: secrets.hosted_link_secret,
      PROCESSOR_SECRET_KEY: LOCAL_PROCESSOR_SECRET_KEY,
      PROCESSOR_API_BASE: inject('stripeMockUrl'),
    };
    workers.push(await startWorker(workerEnv));
    // The API in process, on that database, starting its workflows on that task queue.
    h = await createHarness({ temporalTaskQueue: taskQueue }, undefined, undefined, databaseUrl);
  }, 180_000);

  afterAll(async () => {
    if (h) {
      // Every workflow of this test's task queues (subscriptions, invoices, the clock's advances, deliveries).
      const queues = ['', '-invoices', '-webhooks', '-test-clocks'].map((suffix) => `'${taskQueue}${suffix}'`).join(', ');
      for await (const execution of h.deps.temporal.client.workflow.list({ query: `TaskQueue IN (${queues}) AND ExecutionStatus = 'Running'` })) {
        await h.deps.temporal.client.workflow.getHandle(execution.workflowId, execution.runId).terminate('test done').catch(() => undefined);
      }
    }
    await Promise.allSettled(workers.map((worker) => stopProcess(worker.child)));
    await h?.close();
    for (const step of cleanup.reverse()) await step().catch(() => undefined);
  });

  it.skipIf(!canRestartDatabase())('bills every accepted event exactly once, with every cent accounted for', async () => {
    const planId = await makeGraduatedCallsPlan(h, 'billing under faults');
    const clock = await expectJson<{ id: string }>(await h.request('POST', '/admin/v1/test-clocks', { body: { name: 'billing faults', frozen_time: JANUARY } }), 201);
    const parties: Party[] = [];
    for (let i = 0; i < SUBSCRIPTIONS; i += 1) {
      const customer = await expectJson<{ id: string }>(
        await h.request('POST', '/admin/v1/customers', {
          body: { display_name: `Faults ${i}`, email: `faults-${i}@example.com`, currency: 'USD', account_type: 'Organization', test_clock_id: clock.id },
        }),
        201,
      );
      const subscription = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customer.id, plan_id: planId, currency: 'USD' } }), 201);
      parties.push({ customerId: customer.id, subscriptionId: subscription.id });
    }
    const subscriptionIds = parties.map((p) => p.subscriptionId);

    await advanceClock(h, clock.id, '2026-01-15T12:00:00.000Z');
    for (const [i, { customerId, subscriptionId }] of parties.entries()) await sendUsage(h, customerId, subscriptionId, initialUsageOf(i), '2026-01-15T12:00:00.000Z');
    await advanceClock(h, clock.id, '2026-01-31T23:00:00.000Z');

    // Four senders, one event at a time, each dated in late January, to the subscriptions in turn.
    // An event is counted once the API confirmed it stored: a 200 accepted, or a 200 duplicate of an
    // id whose earlier attempt got no answer but a 503 (that attempt stored it after all).
    let sending = true;
    const confirmed = new Map<string, number>();
    const tally = { accepted: 0, afterUnavailable: 0, unavailable: 0 };
    const unexpected: string[] = [];
    const run = randomUUID().slice(0, 8);
    const senders = Array.from({ length: SENDERS }, async (_, sender) => {
      for (let n = 0; sending; n += 1) {
        const k = n * SENDERS + sender;
        const { customerId, subscriptionId } = parties[k % parties.length]!;
        // Spread over January 20 to 31, 22:00 (before the clock's time, never in its future).
        const timestamp = new Date(Date.parse('2026-01-20T00:00:00.000Z') + ((k * 7_919_000) % (11 * 86_400_000 + 22 * 3_600_000))).toISOString();
        const event = { id: `faults-${run}-${sender}-${n}`, event_type: 'api_calls', customer_id: customerId, subscription_id: subscriptionId, timestamp, properties: {} };
        for (let attempt = 1; ; attempt += 1) {
          const res = await h.request('POST', '/v1/events', { body: event });
          if (res.status === 503) {
            tally.unavailable += 1;
            // Back off a little while the database is away (pacing, not synchronisation).
            await delay(50);
            continue;
          }
          const text = await res.text();
          const body = res.status === 200 ? (JSON.parse(text) as { accepted: boolean; duplicate: boolean }) : null;
          if (body?.accepted || (body?.duplicate && attempt > 1)) {
            confirmed.set(subscriptionId, (confirmed.get(subscriptionId) ?? 0) + 1);
            tally[body.accepted ? 'accepted' : 'afterUnavailable'] += 1;
          } else {
            unexpected.push(`${event.id} attempt ${attempt}: ${res.status} ${text}`);
          }
          break;
        }
      }
    });
    const stopSenders = async () => {
      sending = false;
      await Promise.all(senders);
    };

    try {
      await expectJson(await h.request('POST', `/admin/v1/test-clocks/${clock.id}/advance`, { body: { frozen_time: '2026-02-01T02:00:00.000Z' } }), 202);
      // The worker dies (SIGKILL) once January's closes are under way, and a fresh one takes over.
      const killed = workers[0]!;
      await whileAlive(killed, until('January invoices to appear', async () => (await h.deps.db.invoice.count({ where: { subscriptionId: { in: subscriptionIds } } })) > 0));
      await killNow(killed);
      const invoicesAtKill = await h.deps.db.invoice.count({ where: { subscriptionId: { in: subscriptionIds } } });
      const fresh = await startWorker(workerEnv);
      workers.push(fresh);

      // The drive of the advance was cut off with the worker: once its retry runs on the fresh
      // worker (after the heartbeat timeout), PostgreSQL goes away for a few seconds.
      const advance = h.deps.temporal.client.workflow.getHandle(testClockAdvanceWorkflowId(clock.id));
      await whileAlive(
        fresh,
        until('the advance to drive again on the fresh worker', async () =>
          ((await advance.describe()).raw.pendingActivities ?? []).some((activity) => activity.activityType?.name === 'driveTestClock' && (activity.attempt ?? 0) >= 2),
        ),
      );
      const outage = await whileAlive(fresh, restartDatabase(DOWN_MS));
      expect(outage.startedAt - outage.stoppedAt).toBeGreaterThanOrEqual(DOWN_MS);
      const ready = await whileAlive(fresh, waitForClockReady(h, clock.id));
      expect(ready).toMatchObject({ status: 'ready', frozen_time: '2026-02-01T02:00:00.000Z' });
      // Both faults met the advance's work: the kill came with January's closes under way, the
      // outage before the advance had finished.
      expect(invoicesAtKill).toBeLessThan(SUBSCRIPTIONS);
      const finishedAfterOutage = Date.parse(ready.advance!.finished_at!) - outage.stoppedAt;
      expect(Date.parse(ready.advance!.finished_at!)).toBeGreaterThan(outage.startedAt);
      console.info(
        `billing-faults: worker ${killed.child.pid} killed at ${invoicesAtKill}/${SUBSCRIPTIONS} January invoices; PostgreSQL down ${outage.startedAt - outage.stoppedAt} ms; advance finished ${finishedAfterOutage} ms after the stop`,
      );
    } finally {
      await stopSenders();
    }
    console.info(`billing-faults: senders ${JSON.stringify(tally)}`);
    expect(unexpected).toEqual([]);
    expect(tally.accepted).toBeGreaterThan(0);

    // Late January usage that arrived after January's invoice goes on February's, as adjustments.
    await whileAlive(workers[1]!, advanceClock(h, clock.id, '2026-03-01T02:00:00.000Z'));
    await whileAlive(workers[1]!, advanceClock(h, clock.id, '2026-04-01T02:00:00.000Z'));

    const numbers: string[] = [];
    let billedLate = 0n;
    for (const [i, { customerId, subscriptionId }] of parties.entries()) {
      const invoices = await invoicesOf<Invoice>(h, `subscription_id=${subscriptionId}`);
      numbers.push(...invoices.map((invoice) => invoice.invoice_number!));
      // Conservation: what the API confirmed = what the database stored = what January's invoices billed.
      const stored = await h.deps.db.usageEvent.count({ where: { subscriptionId, occurredAt: { gte: new Date(JANUARY), lt: new Date(FEBRUARY) } } });
      expect(stored, subscriptionId).toBe(initialUsageOf(i) + (confirmed.get(subscriptionId) ?? 0));
      expect(billedUsage(invoices, subscriptionId, JANUARY), subscriptionId).toBe(BigInt(stored));
      billedLate += billedUsage(invoices.filter((invoice) => invoice.period_start !== JANUARY), subscriptionId, JANUARY);

      // One regular invoice per period, each finalized.
      expect(invoices.map((invoice) => [invoice.billing_reason, invoice.period_start, invoice.status])).toEqual([
        ['subscription_cycle', JANUARY, 'Open'],
        ['subscription_cycle', FEBRUARY, 'Open'],
        ['subscription_cycle', MARCH, 'Open'],
      ]);

      const reconciliation = await expectJson<Reconciliation>(await h.request('GET', `/admin/v1/reconciliation?customer_id=${customerId}`));
      expect(reconciliation.usage.filter((row) => row.state !== 'billed'), JSON.stringify(reconciliation.usage)).toEqual([]);
      expect(reconciliation.usage.find((row) => row.period_start === JANUARY), JSON.stringify(reconciliation.usage)).toMatchObject({
        accepted_quantity: String(stored),
        billed_quantity: String(stored),
      });
      expect(reconciliation.currencies.length).toBeGreaterThan(0);
      for (const currency of reconciliation.currencies) {
        expect(currency, JSON.stringify(currency)).toMatchObject({ receivable_matches_open_amount_due: true, receivable_not_negative: true });
      }
      expect(reconciliation.balanced).toBe(true);
    }

    // Events kept arriving after January's invoices: some were billed as prior-period adjustments.
    expect(billedLate).toBeGreaterThan(0n);

    // None held with a billing_error.
    const subscriptions = await h.deps.db.subscription.findMany({ where: { id: { in: subscriptionIds } }, select: { id: true, billingError: true } });
    expect(subscriptions.filter((s) => s.billingError !== null)).toEqual([]);
    const invoiceRows = await h.deps.db.invoice.findMany({ where: { subscriptionId: { in: subscriptionIds } }, select: { id: true, billingError: true } });
    expect(invoiceRows).toHaveLength(3 * SUBSCRIPTIONS);
    expect(invoiceRows.filter((i) => i.billingError !== null)).toEqual([]);

    // Invoice numbers: distinct, and every number the counter gave out is on an invoice (this database holds only this test's).
    expect(new Set(numbers).size).toBe(numbers.length);
    const counter = await h.deps.db.documentCounter.findUniqueOrThrow({ where: { name: 'invoice' } });
    const given = (await h.deps.db.invoice.findMany({ where: { invoiceNumber: { startsWith: 'INV-' } }, select: { invoiceNumber: true } }))
      .map((i) => Number(i.invoiceNumber!.slice(4)))
      .sort((a, b) => a - b);
    expect(given).toEqual(Array.from({ length: Number(counter.value) }, (_, i) => i + 1));
    expect(given).toHaveLength(numbers.length);

    // Every journal balances, and so does the ledger in every currency.
    const unbalanced = await h.deps.db.$queryRaw<{ journal_id: string }[]>`
      SELECT journal_id FROM ledger_entries GROUP BY journal_id
      HAVING sum(CASE side WHEN 'debit' THEN amount_nanos ELSE -amount_nanos END) <> 0`;
    expect(unbalanced).toEqual([]);
    const trial = await expectJson<{ currencies: { currency: string; difference_nanos: string }[] }>(await h.request('GET', '/admin/v1/ledger/trial-balance'));
    expect(trial.currencies.length).toBeGreaterThan(0);
    expect(trial.currencies.map((c) => [c.currency, c.difference_nanos])).toEqual(trial.currencies.map((c) => [c.currency, '0']));
  }, 300_000);
});
