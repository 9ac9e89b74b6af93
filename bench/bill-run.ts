/**
 * Bill-run benchmark: BENCH_SUBSCRIPTIONS subscriptions (a Flat fee and a PerUnit usage SKU, usage
 * already ingested) on one test clock, then ONE advance over the period end and the invoice grace
 * period. The system under test is what `npm start` runs: the real API process (`src/main.ts`) and
 * worker process (`src/worker.ts`) on a fresh database, and a Temporal CLI dev server with its
 * file-backed store. Everything is driven through the HTTP API, as a user would.
 *
 * Measured: subscriptions closed (period rolled), invoiced (invoice written) and finalized (invoice
 * Open) per second from the advance's start, p50/p99 per subscription (advance start → its invoice
 * Open, sampled every POLL_MS), CPU per process, and Temporal actions per subscription-period counted
 * from histories (activities, local activities, timers, updates, signals, workflow starts), for a
 * sample of BENCH_HISTORY_SAMPLE subscriptions. In the same run, the baseline: BENCH_SUBSCRIPTIONS
 * no-op workflows with one no-op activity each on the same Temporal server (32 starts in flight).
 * Targets (the issue): rate ≥ 0.75 × baseline; ≤ 5 Temporal actions per subscription-period outside
 * test-clock mode; every subscription invoiced with no error. Writes bench/results/bill-run.md.
 *
 *   npx tsx bench/bill-run.ts
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres (server to create the bench database on)
 *   BENCH_SUBSCRIPTIONS=1000 BENCH_EVENTS_PER_SUBSCRIPTION=20 BENCH_HISTORY_SAMPLE=50 BENCH_RESULTS=<file>
 *
 * Beside waiting webhook deliveries (issue 31 point 6): BENCH_WAITING_DELIVERIES=5000 (with
 * BENCH_DEAD_ENDPOINTS=50) registers that many endpoints whose receivers are gone and writes events
 * for that many deliveries to them before the measured advance, waits until every one is parked on
 * its open circuit (or between attempts), and then runs the same advance; the report goes to
 * bench/results/bill-run-waiting-deliveries.md and compares its ratio with the plain run's figures (bill-run.json beside bill-run.md: a run
 * without them, back to back on the same machine): the target is the same rate, within 15%.
 * Besides the report, the run's key figures go to a JSON file beside it (same name, .json).
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import pg from 'pg';
import { stopProcess, waitFor } from '../src/dev/processes.js';
import { connectTemporal } from '../src/temporal/client.js';
import { createDb } from '../src/db/client.js';
import { loadWorkerCapacity } from '../src/config.js';
import { invoiceWorkflowId } from '../workflows/invoice/messages.js';
import { subscriptionWorkflowId } from '../workflows/subscription/messages.js';
import { percentile, sampleCpu, type CpuShare } from './metering/load.js';
import { environmentLines, loadLine, readFigures, runBenchmark, verdict, writeFigures, writeReport as writeReportFile } from './support/report.js';
import { START_CONCURRENCY, workflowRate, type WorkflowRate } from './support/workflow-rate.js';
import { Teardown } from './support/lifecycle.js';
import { registerDeadEndpoints, waitUntilSettled, writeWaitingDeliveries, type DeadEndpoints, type DeliveryCounts } from './support/dead-endpoints.js';
import { apiClient, benchServices, startProcess } from './support/project-processes.js';

const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 1_000);
const EVENTS_PER_SUBSCRIPTION = Number(process.env.BENCH_EVENTS_PER_SUBSCRIPTION ?? 20);
const HISTORY_SAMPLE = Number(process.env.BENCH_HISTORY_SAMPLE ?? 50);
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const WAITING_DELIVERIES = Number(process.env.BENCH_WAITING_DELIVERIES ?? 0);
const DEAD_ENDPOINTS = Number(process.env.BENCH_DEAD_ENDPOINTS ?? 50);
const PLAIN_RESULTS_FILE = fileURLToPath(new URL('./results/bill-run.md', import.meta.url));
const RESULTS_FILE = process.env.BENCH_RESULTS
  ? path.resolve(process.env.BENCH_RESULTS)
  : WAITING_DELIVERIES > 0
    ? fileURLToPath(new URL('./results/bill-run-waiting-deliveries.md', import.meta.url))
    : PLAIN_RESULTS_FILE;
const TASK_QUEUE = 'bench-bill-run';
const SETUP_CONCURRENCY = 16;
const POLL_MS = 250;
const TARGET_RATIO = 0.75;
/** Beside waiting deliveries: the ratio within this share of the run without them. */
const WAITING_TOLERANCE = 0.15;
const TARGET_ACTIONS = 5;
const CLOCK_START = '2026-01-01T00:00:00Z';
const USAGE_AT = '2026-01-15T12:00:00Z';
/** One monthly period end plus the default invoice grace period (an hour). */
const ADVANCE_TO = '2026-02-01T01:00:00Z';

const log = (line: string) => process.stdout.write(`[bench:bill-run] ${line}\n`);

/** Runs `count` jobs with `concurrency` in flight, logging progress every few seconds. */
async function inParallel(label: string, count: number, concurrency: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  let done = 0;
  const progress = setInterval(() => log(`${label}: ${done}/${count}`), 5_000);
  try {
    await Promise.all(
      Array.from({ length: Math.min(concurrency, count) }, async () => {
        while (next < count) {
          await job(next++);
          done += 1;
        }
      }),
    );
  } finally {
    clearInterval(progress);
  }
}

type BaselineResult = WorkflowRate;

const NOOP_WORKFLOW = { module: new URL('./bill-run/noop-workflow.ts', import.meta.url), type: 'noopActivityWorkflow', activities: { noop: async () => {} } };

/** `count` no-op workflows with one no-op activity each, started START_CONCURRENCY at a time, each awaited. */
const baselineRate = (address: string, temporalPid: number, pgPid: number, count: number, label: string): Promise<BaselineResult> =>
  workflowRate(address, { temporal: temporalPid, postgres: pgPid }, NOOP_WORKFLOW, count, label, log);

interface Progress {
  closed: number;
  invoiced: number;
  finalized: number;
}

/** Temporal actions a history records: what a Temporal Cloud bill counts, and the server's round trips. */
const ACTION_EVENTS: Record<string, string> = {
  EVENT_TYPE_ACTIVITY_TASK_SCHEDULED: 'activities',
  EVENT_TYPE_MARKER_RECORDED: 'local activities',
  EVENT_TYPE_TIMER_STARTED: 'timers',
  EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED: 'updates',
  EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED: 'signals',
  EVENT_TYPE_WORKFLOW_EXECUTION_STARTED: 'workflow starts',
  EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED: 'child workflow starts',
  EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED: 'signals sent',
  EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES: 'search attribute upserts',
};

/** A history event as its JSON form names it (only the fields the classification reads). */
interface HistoryEvent {
  eventType: string;
  eventTime: string;
  markerRecordedEventAttributes?: { markerName?: string };
  upsertWorkflowSearchAttributesEventAttributes?: { searchAttributes?: { indexedFields?: Record<string, unknown> } };
  workflowExecutionUpdateAcceptedEventAttributes?: { acceptedRequest?: { input?: { name?: string } } };
  workflowExecutionSignaledEventAttributes?: { signalName?: string };
  signalExternalWorkflowExecutionInitiatedEventAttributes?: { signalName?: string };
  activityTaskScheduledEventAttributes?: { activityType?: { name?: string } };
  workflowExecutionStartedEventAttributes?: { parentWorkflowExecution?: { workflowId?: string } };
}

/** What a recorded `patched()` call adds: its marker and the SDK's TemporalChangeVersion upsert, once per run and patch. */
const ONCE_PER_RUN = 'patch markers and their TemporalChangeVersion upserts (once per workflow run)';
/** A test clock's step (the `advanceTestClock` update, or the `clockAdvance` signal the advance workflow sends): in real time the same wake is one timer. */
const CLOCK_UPDATES = 'test-clock steps (one timer each in real time)';
/** The `clockAdvanced` answer to a test clock's step signal: nothing in real time. */
const CLOCK_ANSWERS = 'test-clock step answers (none in real time)';

/** The kind an event counts as, or undefined when it is no action. */
function actionKind(event: HistoryEvent): string | undefined {
  if (event.markerRecordedEventAttributes?.markerName === 'core_patch') return ONCE_PER_RUN;
  const upserted = Object.keys(event.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields ?? {});
  if (upserted.length === 1 && upserted[0] === 'TemporalChangeVersion') return ONCE_PER_RUN;
  if (event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === 'advanceTestClock') return CLOCK_UPDATES;
  if (event.workflowExecutionSignaledEventAttributes?.signalName === 'clockAdvance') return CLOCK_UPDATES;
  if (event.signalExternalWorkflowExecutionInitiatedEventAttributes?.signalName === 'clockAdvanced') return CLOCK_ANSWERS;
  // A child's start is one action (Temporal Cloud counts a child workflow start once): the parent's
  // StartChildWorkflowExecutionInitiated counts it (its parent is a sampled subscription), not the child's first event too.
  if (event.workflowExecutionStartedEventAttributes?.parentWorkflowExecution?.workflowId !== undefined) return undefined;
  return ACTION_EVENTS[event.eventType];
}

/** The events of every run of the id (continue-as-new chains). */
async function historyEvents(client: Awaited<ReturnType<typeof connectTemporal>>['client'], workflowId: string): Promise<HistoryEvent[]> {
  const events: HistoryEvent[] = [];
  for await (const execution of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    const history = await client.workflow.getHandle(workflowId, execution.runId).fetchHistory();
    events.push(...(JSON.parse(historyToJSON(history)) as { events: HistoryEvent[] }).events);
  }
  return events;
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg();
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const teardown = new Teardown(log);
  try {
    const { databaseUrl, temporalServer, pgPid, apiKey, port, env } = await benchServices({ serverUrl: SERVER_URL, name: 'bill_run', taskQueue: TASK_QUEUE, teardown, log });
    log(`database ${new URL(databaseUrl).pathname.slice(1)}, Temporal dev server (file-backed) on ${temporalServer.address}`);

    const baselineBefore = await baselineRate(temporalServer.address, temporalServer.process.pid!, pgPid, SUBSCRIPTIONS, 'before');

    const worker = await startProcess('src/worker.ts', env, 'worker ready');
    teardown.push(() => stopProcess(worker));
    const api = await startProcess('src/main.ts', env, 'api listening');
    teardown.push(() => stopProcess(api));
    const base = `http://127.0.0.1:${port}`;
    await waitFor('API health', async () => {
      if ((await fetch(`${base}/health`)).status !== 200) throw new Error('not healthy');
    }, 60_000);
    const call = apiClient(base, apiKey);

    // Catalog, clock, customers and subscriptions, usage: the state a bill run starts from.
    const plan = (await call<{ id: string }>('POST', '/admin/v1/catalog/plans', { name: 'Bench', billing_cadence: 'Monthly' })).body;
    await call('POST', '/admin/v1/catalog/skus', { plan_id: plan.id, name: 'Base fee', pricing_model: 'Flat', unit_amount_nanos: '49000000000000', currency: 'USD' });
    await call('POST', '/admin/v1/catalog/skus', { plan_id: plan.id, name: 'API calls', pricing_model: 'PerUnit', unit_amount_nanos: '10000000000', meter_event_type: 'api_calls', currency: 'USD' });
    const clock = (await call<{ id: string }>('POST', '/admin/v1/test-clocks', { name: 'bill run', frozen_time: CLOCK_START })).body;
    const subscriptions: { id: string; customerId: string }[] = [];
    await inParallel('subscriptions created', SUBSCRIPTIONS, SETUP_CONCURRENCY, async (i) => {
      const customer = (await call<{ id: string }>('POST', '/admin/v1/customers', { display_name: `Bench ${i}`, email: `bench${i}@example.com`, currency: 'USD', account_type: 'Organization', test_clock_id: clock.id })).body;
      const subscription = (await call<{ id: string }>('POST', '/v1/subscriptions', { customer_id: customer.id, plan_id: plan.id, currency: 'USD' })).body;
      subscriptions.push({ id: subscription.id, customerId: customer.id });
    });
    await advanceClock(call, clock.id, USAGE_AT);
    await inParallel('usage ingested (subscriptions)', subscriptions.length, SETUP_CONCURRENCY, async (i) => {
      const { id, customerId } = subscriptions[i]!;
      const events = Array.from({ length: EVENTS_PER_SUBSCRIPTION }, (_, n) => ({ id: `bench-${id}-${n}`, event_type: 'api_calls', customer_id: customerId, subscription_id: id, timestamp: USAGE_AT, properties: {} }));
      await call('POST', '/v1/events/batch', { events }, [200, 201, 202]);
    });

    const waiting = WAITING_DELIVERIES > 0 ? await waitingDeliveries(databaseUrl, teardown) : undefined;

    // The measured bill run: one advance over the period end and the grace period.
    const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    teardown.push(() => db.end());
    const finalizedAt = new Map<string, number>();
    const timeline: (Progress & { ms: number })[] = [];
    const advanceStart = Date.now();
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const { rows } = await db.query<{ subscription_id: string; status: string }>(`SELECT subscription_id, status FROM invoices WHERE subscription_id IS NOT NULL`);
        const { rows: rolled } = await db.query<{ closed: string }>(`SELECT count(*) AS closed FROM subscriptions WHERE period_start >= $1`, [new Date('2026-02-01T00:00:00Z')]);
        const now = Date.now();
        for (const row of rows) if (row.status !== 'Draft' && !finalizedAt.has(row.subscription_id)) finalizedAt.set(row.subscription_id, now - advanceStart);
        timeline.push({ ms: now - advanceStart, closed: Number(rolled[0]!.closed), invoiced: rows.length, finalized: finalizedAt.size });
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    })();
    const cpuWorker = sampleCpu(worker.pid!, pgPid);
    const cpuApi = sampleCpu(api.pid!, pgPid);
    const cpuTemporal = sampleCpu(temporalServer.process.pid!, pgPid);
    const progressLog = setInterval(() => {
      const last = timeline[timeline.length - 1];
      if (last) log(`advance: ${last.closed} closed, ${last.invoiced} invoiced, ${last.finalized} finalized of ${SUBSCRIPTIONS}`);
    }, 5_000);
    let advanceError: string | undefined;
    try {
      await advanceClock(call, clock.id, ADVANCE_TO);
    } catch (err) {
      advanceError = (err as Error).message;
      log(`advance failed: ${advanceError}`);
    }
    const advanceSeconds = (Date.now() - advanceStart) / 1000;
    await waitFor('every invoice finalized', async () => {
      if (finalizedAt.size < SUBSCRIPTIONS) throw new Error(`${finalizedAt.size}/${SUBSCRIPTIONS} finalized`);
    }, 120_000, POLL_MS).catch((err: unknown) => log((err as Error).message));
    polling = false;
    await poller;
    clearInterval(progressLog);
    const cpu = { worker: cpuWorker(), api: cpuApi(), temporal: cpuTemporal() };
    const final = timeline[timeline.length - 1]!;
    const firstAt = (key: keyof Progress) => (timeline.find((t) => t[key] >= SUBSCRIPTIONS)?.ms ?? Number.NaN) / 1000;
    const perSubscription = [...finalizedAt.values()].sort((a, b) => a - b);
    log(`advance answered after ${advanceSeconds.toFixed(1)} s; ${final.finalized}/${SUBSCRIPTIONS} finalized`);

    // Temporal actions per subscription-period, from the histories of a sample.
    const temporalClient = await connectTemporal(temporalServer.address, 'default');
    teardown.push(() => temporalClient.connection.close());
    const actions: Record<string, number> = {};
    const sample = subscriptions.slice(0, Math.min(HISTORY_SAMPLE, subscriptions.length));
    /** Sampled periods whose Draft the test-clock close finalized in the same step (no grace-end step). */
    let finalizedInStep = 0;
    for (const subscription of sample) {
      const { rows } = await db.query<{ id: string }>(`SELECT id FROM invoices WHERE subscription_id = $1`, [subscription.id]);
      const ids = [subscriptionWorkflowId(subscription.id), ...rows.map((r) => invoiceWorkflowId(r.id))];
      let graceEndStep = false;
      for (const workflowId of ids) {
        for (const event of await historyEvents(temporalClient.client, workflowId)) {
          if (Date.parse(event.eventTime) < advanceStart) continue;
          const kind = actionKind(event);
          if (kind) actions[kind] = (actions[kind] ?? 0) + 1;
          if (event.activityTaskScheduledEventAttributes?.activityType?.name === 'finalizePeriodInvoice') graceEndStep = true;
        }
      }
      if (rows.length > 0 && !graceEndStep) finalizedInStep += 1;
    }
    const perPeriod = Object.fromEntries(Object.entries(actions).map(([kind, count]) => [kind, count / sample.length]));
    const actionsPerPeriod = Object.values(perPeriod).reduce((sum, n) => sum + n, 0);
    // Outside test-clock mode each clock step is a timer instead (same count) and has no answer; a Draft that the
    // test-clock close finalized in the same step waits for its grace end in real time (one timer and
    // the finalizePeriodInvoice activity more); and a run lives for many periods (it continues as new
    // only when the server suggests it), so its once-per-run patch markers vanish from the per-period
    // figure; this bench's runs each cover one period.
    const steadyPerPeriod = actionsPerPeriod - (perPeriod[ONCE_PER_RUN] ?? 0) - (perPeriod[CLOCK_ANSWERS] ?? 0) + (2 * finalizedInStep) / sample.length;
    log(`Temporal actions per subscription-period (sample of ${sample.length}): ${actionsPerPeriod.toFixed(1)}, ${steadyPerPeriod.toFixed(1)} in a run's steady state outside test-clock mode`);

    await stopProcess(api);
    await stopProcess(worker);
    const baselineAfter = await baselineRate(temporalServer.address, temporalServer.process.pid!, pgPid, SUBSCRIPTIONS, 'after');
    writeReport({
      baselineBefore,
      baselineAfter,
      advanceSeconds,
      advanceError,
      final,
      allClosedS: firstAt('closed'),
      allInvoicedS: firstAt('invoiced'),
      allFinalizedS: firstAt('finalized'),
      p50: percentile(perSubscription, 50),
      p99: percentile(perSubscription, 99),
      cpu,
      perPeriod,
      actionsPerPeriod,
      steadyPerPeriod,
      sampled: sample.length,
      loadBefore,
      waiting: waiting ? { ...waiting, during: await waiting.dead.counts() } : undefined,
    });
  } finally {
    await teardown.run();
  }
}

/** Advances the clock (the API answers 202 at once) and polls it until it is caught up; an internal_failure ends the wait. */
async function advanceClock(call: ReturnType<typeof apiClient>, clockId: string, to: string): Promise<void> {
  const started = Date.now();
  await call('POST', `/admin/v1/test-clocks/${clockId}/advance`, { frozen_time: to }, [202]);
  let failed: string | undefined;
  await waitFor(`test clock ready at ${to}`, async () => {
    const { body } = await call<{ status: string }>('GET', `/admin/v1/test-clocks/${clockId}`);
    if (body.status === 'internal_failure') failed = JSON.stringify(body);
    else if (body.status !== 'ready') throw new Error(`clock ${body.status}`);
  }, 3_600_000, POLL_MS);
  if (failed) throw new Error(`the advance failed: ${failed}`);
  log(`clock advanced to ${to} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

interface Figures {
  baselineBefore: BaselineResult;
  baselineAfter: BaselineResult;
  advanceSeconds: number;
  advanceError: string | undefined;
  final: Progress;
  allClosedS: number;
  allInvoicedS: number;
  allFinalizedS: number;
  p50: number;
  p99: number;
  cpu: { worker: CpuShare; api: CpuShare; temporal: CpuShare };
  perPeriod: Record<string, number>;
  actionsPerPeriod: number;
  steadyPerPeriod: number;
  sampled: number;
  loadBefore: number[];
  waiting: { dead: DeadEndpoints; settled: DeliveryCounts; settleSeconds: number; during: DeliveryCounts } | undefined;
}

/** BENCH_WAITING_DELIVERIES deliveries parked on BENCH_DEAD_ENDPOINTS dead endpoints, written through the worker's relay. */
async function waitingDeliveries(databaseUrl: string, teardown: Teardown): Promise<Omit<NonNullable<Figures['waiting']>, 'during'>> {
  const { db, pool } = createDb(databaseUrl, 10);
  teardown.push(async () => {
    await db.$disconnect();
    await pool.end();
  });
  const started = Date.now();
  const ids = await registerDeadEndpoints(db, DEAD_ENDPOINTS);
  log(`${DEAD_ENDPOINTS} dead endpoints; writing ${WAITING_DELIVERIES} deliveries to them`);
  const dead = await writeWaitingDeliveries(db, ids, WAITING_DELIVERIES, 8);
  const settled = await waitUntilSettled(dead, log);
  return { dead, settled, settleSeconds: (Date.now() - started) / 1000 };
}

/** The report's lines on the deliveries that waited during the advance, and the comparison with a run without them. */
function waitingLines(f: Figures, ratio: number): string[] {
  const w = f.waiting;
  if (!w) return [];
  const recorded = readFigures<BillRunCurvePoint>(PLAIN_RESULTS_FILE);
  const plain = recorded !== undefined && recorded.waitingDeliveries === 0 ? recorded.ratio : undefined;
  const met = plain !== undefined && ratio >= plain * (1 - WAITING_TOLERANCE);
  return [
    `| deliveries waiting on ${DEAD_ENDPOINTS} dead endpoints (receivers gone: refused connections) | ${w.dead.total} written, settled after ${w.settleSeconds.toFixed(0)} s (${w.settled.parked} parked); when the advance ended ${w.during.parked} parked, ${w.during.pending} Pending, ${w.during.failed} Failed | — | informational |`,
    `| rate vs. baseline beside them, against the run without them (bench/results/bill-run.md, back to back) | **${ratio.toFixed(2)}×** against ${plain === undefined ? 'no recorded run' : `${plain.toFixed(2)}×`} | ≥ ${((1 - WAITING_TOLERANCE) * 100).toFixed(0)}% of it | ${verdict(met, plain === undefined ? 'no run without them to compare with' : `${((ratio / plain) * 100).toFixed(0)}% of it`)} |`,
  ];
}

function writeReport(f: Figures): void {
  const rate = f.final.finalized / f.allFinalizedS;
  const baseline = (f.baselineBefore.perSecond + f.baselineAfter.perSecond) / 2;
  const ratio = rate / baseline;
  const cpus = os.cpus();
  // The worker process reads the same variables from the environment it inherits.
  const capacity = loadWorkerCapacity(process.env);
  const perSecond = (count: number, seconds: number) => (Number.isFinite(seconds) ? `${(count / seconds).toFixed(1)}/s (all ${count} after ${seconds.toFixed(1)} s)` : `not all (${count})`);
  const lines = [
    f.waiting ? `# Bill-run benchmark beside ${f.waiting.dead.total} webhook deliveries waiting on dead endpoints` : '# Bill-run benchmark',
    '',
    ...environmentLines('PostgreSQL, the Temporal dev server, the API and the worker all run on it'),
    `- command: \`npx tsx bench/bill-run.ts\` (BENCH_SUBSCRIPTIONS=${SUBSCRIPTIONS}, BENCH_EVENTS_PER_SUBSCRIPTION=${EVENTS_PER_SUBSCRIPTION}, BENCH_HISTORY_SAMPLE=${f.sampled}${f.waiting ? `, BENCH_WAITING_DELIVERIES=${WAITING_DELIVERIES}, BENCH_DEAD_ENDPOINTS=${DEAD_ENDPOINTS}` : ''})`,
    `- worker capacity (docs/configuration.md): WORKER_DB_POOL_SIZE=${capacity.dbPoolSize}, WORKER_ACTIVITY_SLOTS=${capacity.activitySlots}, WORKER_WORKFLOW_TASK_SLOTS=${capacity.workflowTaskSlots}`,
    '- system under test: the API process (`src/main.ts`) and the worker process (`src/worker.ts`), logs at info; Temporal CLI dev server with its file-backed store (as `npm start` runs it); the machine\'s PostgreSQL',
    loadLine(f.loadBefore),
    '',
    '## Results',
    '',
    '| measure | figure | target | verdict |',
    '|---|---:|---|---|',
    `| one advance over the period end + grace (${SUBSCRIPTIONS} subscriptions) | answered after ${f.advanceSeconds.toFixed(1)} s${f.advanceError ? `, **error: ${f.advanceError.slice(0, 200)}**` : ', no error'} | no error | ${verdict(!f.advanceError && f.final.finalized === SUBSCRIPTIONS, `${f.final.finalized} finalized`)} |`,
    `| periods closed | ${perSecond(f.final.closed, f.allClosedS)} | — | — |`,
    `| invoices written | ${perSecond(f.final.invoiced, f.allInvoicedS)} | — | — |`,
    `| invoices finalized (Open) | **${perSecond(f.final.finalized, f.allFinalizedS)}** | — | — |`,
    `| per subscription, advance start → invoice Open | p50 ${(f.p50 / 1000).toFixed(1)} s, p99 ${(f.p99 / 1000).toFixed(1)} s | — | informational |`,
    `| rate vs. baseline (no-op workflow + one no-op activity, ${START_CONCURRENCY} in flight: ${f.baselineBefore.perSecond.toFixed(1)}/s before, ${f.baselineAfter.perSecond.toFixed(1)}/s after, mean ${baseline.toFixed(1)}/s) | **${ratio.toFixed(2)}×** | ≥ ${TARGET_RATIO}× | ${verdict(ratio >= TARGET_RATIO, `${((1 - ratio / TARGET_RATIO) * 100).toFixed(0)}% short`)} |`,
    ...waitingLines(f, ratio),
    `| Temporal actions per subscription-period as recorded (test-clock mode, first period of each run, sample of ${f.sampled}) | ${f.actionsPerPeriod.toFixed(1)}: ${Object.entries(f.perPeriod).map(([kind, n]) => `${kind} ${n.toFixed(1)}`).join(', ')} | — | informational |`,
    `| Temporal actions per subscription-period outside test-clock mode (clock steps counted as the timers they stand for, their answers left out; a Draft finalized by the close in the same test-clock step counted with the grace-end timer and activity it waits for in real time; once-per-run patch markers left out) | **${f.steadyPerPeriod.toFixed(1)}** | ≤ ${TARGET_ACTIONS} | ${verdict(f.steadyPerPeriod <= TARGET_ACTIONS, `${(f.steadyPerPeriod - TARGET_ACTIONS).toFixed(1)} over`)} |`,
    '',
    `CPU during the advance (cores' worth; this machine has ${cpus.length}): worker ${f.cpu.worker.api.toFixed(2)}, API ${f.cpu.api.api.toFixed(2)}, Temporal dev server ${f.cpu.temporal.api.toFixed(2)}, PostgreSQL ${f.cpu.worker.postgres.toFixed(2)}, whole machine ${f.cpu.worker.machine.toFixed(2)}.`,
    '',
    '## What is measured',
    '',
    '- Setup (not measured): a Monthly plan with a Flat 49.00 fee and a PerUnit 0.01 SKU on `api_calls`, one test clock, one customer and subscription per index on it, the clock advanced to mid-period and each subscription\'s usage posted in one batch.',
    '- The measured advance moves the clock from mid-January to 2026-02-01T01:00:00Z: every subscription closes its period, writes its invoice, and finalizes it after the grace period. The bench polls PostgreSQL every 250 ms for periods rolled, invoices written and invoices Open; per-subscription times have that resolution.',
    '- Temporal actions are the history events of the sampled subscriptions\' workflows and their invoice workflows (where one exists) written after the advance started: activities scheduled, markers, timers, updates accepted, signals, workflow starts (a child workflow\'s once, where its parent starts it, as Temporal Cloud counts it), search attribute upserts. A test clock\'s step (the `clockAdvance` signal the advance workflow sends, or the `advanceTestClock` update of advances recorded before it drove the workflows itself) stands for the timer the same wake is in real time (one each), and the `clockAdvanced` answer signal a step is answered with stands for nothing, so the count outside test-clock mode is the same with timers in their place and without the answers, plus, for a Draft the test-clock close finalized in the same step (no `finalizePeriodInvoice` in the history), the grace-end timer and the `finalizePeriodInvoice` activity a real-time run needs. At the advance\'s last step a subscription with nothing due is not sent a step at all (it stands for no timer). Each `patched()` call a run makes records a marker and a TemporalChangeVersion upsert once per run; a subscription\'s run lasts many periods (it continues as new when the server suggests it, at 4,096 events by default), while this bench\'s runs each cover one period, so the steady-state figure leaves those out.',
    '- Figures move by up to ±25% between runs on this shared 2-core VM; compare the ratio to the baseline of the same run.',
    '',
  ];
  writeReportFile(RESULTS_FILE, lines, log);
  const point: BillRunCurvePoint = { date: new Date().toISOString(), subscriptions: SUBSCRIPTIONS, perSecond: rate, baselinePerSecond: baseline, ratio, waitingDeliveries: f.waiting?.dead.total ?? 0 };
  writeFigures(RESULTS_FILE, point, log);
}

/** The figures a cost curve compares across sizes (bench/cost-curves.ts reads them). */
export interface BillRunCurvePoint {
  date: string;
  subscriptions: number;
  /** Invoices finalized per second. */
  perSecond: number;
  baselinePerSecond: number;
  ratio: number;
  waitingDeliveries: number;
}

runBenchmark(main, log);
