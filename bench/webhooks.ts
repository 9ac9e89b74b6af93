/**
 * Webhook delivery benchmark: BENCH_EVENTS outbox events (written as services write them, one
 * transaction each) fanned out to BENCH_ENDPOINTS endpoints whose receivers run on 127.0.0.1 in
 * this process and check every signature. The system under test is the real worker process
 * (`node --import tsx src/worker.ts`: its outbox relay and the delivery workflows) on a fresh
 * database and a Temporal dev server (in memory, as the tests use it).
 *
 * Measured: deliveries per second (first commit to last receipt) for a burst of events, end-to-end
 * latency (each event's commit to its receipt at each endpoint) for the burst and for events offered
 * at a steady rate of half the burst's capacity (BENCH_PACED_EVENTS of them), and, in the same run, the dev
 * server's own rate of starting and completing empty workflows (32 starts in flight, a worker in
 * this process), before and after the deliveries. Target (the issue): deliveries/s ≥ 0.5 × that
 * empty-workflow rate. Writes bench/results/webhooks.md.
 *
 * Scenario `waiting` (BENCH_SCENARIO=waiting, issue 31 point 6): BENCH_DEAD_ENDPOINTS endpoints
 * whose receivers are gone (every attempt a refused connection) with BENCH_WAITING deliveries waiting
 * on their open circuits, and one healthy endpoint. Measured: the worker's CPU over
 * BENCH_WAIT_SECONDS while only the waiting deliveries exist (the circuits open, probe and re-open
 * meanwhile), then the latency of BENCH_HEALTHY_EVENTS events offered to the healthy endpoint at
 * BENCH_HEALTHY_RATE per second, against the same offer before any delivery waited. Targets: worker ≤ 10% of a core while waiting; healthy p99 ≤ 2 s.
 * Writes its own section of bench/results/webhooks.md.
 *
 *   npx tsx bench/webhooks.ts
 *   BENCH_SCENARIO=waiting BENCH_DEAD_ENDPOINTS=50 BENCH_WAITING=5000 BENCH_WAIT_SECONDS=150 npx tsx bench/webhooks.ts
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres (server to create the bench database on)
 *   BENCH_EVENTS=1000 BENCH_ENDPOINTS=3 BENCH_BASELINE_WORKFLOWS=1000 BENCH_PACED_EVENTS=200 BENCH_RESULTS=<file>
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { createDb } from '../src/db/client.js';
import { insertEndpoint } from '../src/db/webhooks.js';
import { PROJECT_ROOT } from '../src/dev/paths.js';
import { freePort, stopProcess, waitFor } from '../src/dev/processes.js';
import { startTemporalDevServer } from '../src/dev/temporal-dev-server.js';
import { ensureTool, TEMPORAL_CLI } from '../src/dev/tools.js';
import { newId } from '../src/ids.js';
import { enqueueEvent } from '../src/services/outbox.js';
import { newWebhookSecret, verifyWebhookSignature } from '../src/services/webhooks/signature.js';
import { postmasterPid, sampleCpu, type CpuShare } from './metering/load.js';
import { environmentLines, loadLine, runBenchmark, verdict, writeReport as writeReportFile } from './support/report.js';
import { START_CONCURRENCY, workflowRate, type WorkflowRate } from './support/workflow-rate.js';
import { benchDatabase, Teardown } from './support/lifecycle.js';
import { registerDeadEndpoints, waitUntilSettled, writeWaitingDeliveries } from './support/dead-endpoints.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000);
const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 3);
const BASELINE_WORKFLOWS = Number(process.env.BENCH_BASELINE_WORKFLOWS ?? 1_000);
const PACED_EVENTS = Number(process.env.BENCH_PACED_EVENTS ?? 200);
const WRITERS = 8;
const SCENARIO = process.env.BENCH_SCENARIO ?? 'burst';
const DEAD_ENDPOINTS = Number(process.env.BENCH_DEAD_ENDPOINTS ?? 50);
const WAITING = Number(process.env.BENCH_WAITING ?? 5_000);
const WAIT_SECONDS = Number(process.env.BENCH_WAIT_SECONDS ?? 150);
const HEALTHY_EVENTS = Number(process.env.BENCH_HEALTHY_EVENTS ?? 150);
const HEALTHY_RATE = Number(process.env.BENCH_HEALTHY_RATE ?? 5);
const WAITING_TARGETS = { workerCores: 0.1, healthyP99Ms: 2_000 };
/** The waiting scenario's section of the results file: the burst scenario's report keeps it, and the other way round. */
const WAITING_SECTION = '## Waiting on dead endpoints';
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const RESULTS_FILE = process.env.BENCH_RESULTS ? path.resolve(process.env.BENCH_RESULTS) : fileURLToPath(new URL('./results/webhooks.md', import.meta.url));
const TASK_QUEUE = 'bench';
const TARGET_RATIO = 0.5;

const log = (line: string) => process.stdout.write(`[bench:webhooks] ${line}\n`);

interface Receiver {
  secret: string;
  /** Receipt time (Date.now()) of each event id. */
  received: Map<string, number>;
  duplicates: number;
  badSignatures: number;
  url: string;
  server: http.Server;
}

async function startReceiver(onReceipt: () => void): Promise<Receiver> {
  const receiver: Receiver = { secret: '', received: new Map(), duplicates: 0, badSignatures: 0, url: '', server: http.createServer() };
  receiver.server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = Date.now();
      const raw = Buffer.concat(chunks);
      if (!verifyWebhookSignature(receiver.secret, raw, String(req.headers['x-billing-signature']))) {
        receiver.badSignatures += 1;
        res.writeHead(400).end();
        return;
      }
      const id = String(req.headers['x-billing-event-id']);
      if (receiver.received.has(id)) receiver.duplicates += 1;
      else receiver.received.set(id, at);
      res.writeHead(200).end();
      onReceipt();
    });
  });
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

type BaselineResult = WorkflowRate;

const EMPTY_WORKFLOW = { module: new URL('./webhooks/empty-workflow.ts', import.meta.url), type: 'emptyWorkflow' };

/** Starts `count` empty workflows, START_CONCURRENCY at a time, and waits until every one completed. */
const emptyWorkflowRate = (address: string, temporalPid: number, pgPid: number, count: number, label: string): Promise<BaselineResult> =>
  workflowRate(address, { temporal: temporalPid, postgres: pgPid }, EMPTY_WORKFLOW, count, label, log);

function startWorkerProcess(databaseUrl: string, temporalAddress: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, NODE_ENV: 'development', DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: temporalAddress, TEMPORAL_TASK_QUEUE: TASK_QUEUE, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  return new Promise((resolve, reject) => {
    let ready = { worker: false, relay: false };
    child.once('exit', (code) => reject(new Error(`the worker exited with ${code}: ${stderr}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      ready = { worker: ready.worker || text.includes('worker ready'), relay: ready.relay || text.includes('outbox relay started') };
      if (ready.worker && ready.relay) resolve(child);
    });
  });
}

interface Latency {
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

const latencyOf = (sorted: number[]): Latency => ({ p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), max: sorted[sorted.length - 1]! });

interface Figures {
  baselineBefore: BaselineResult;
  baselineAfter: BaselineResult;
  deliveries: number;
  /** Burst and paced deliveries. */
  total: number;
  seconds: number;
  writeSeconds: number;
  latency: Latency;
  paced: { eventsPerSecond: number; latency: Latency };
  duplicates: number;
  badSignatures: number;
  delivered: number;
  cpu: { worker: CpuShare; temporal: CpuShare };
  loadBefore: number[];
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg();
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const teardown = new Teardown(log);
  try {
    const databaseUrl = await benchDatabase(SERVER_URL, 'webhooks', teardown);
    const temporal = await startTemporalDevServer({ binary: await ensureTool(TEMPORAL_CLI, log), port: await freePort(), uiPort: 0, namespace: 'default', headless: true });
    teardown.push(temporal.stop);
    const pgPid = await postmasterPid(databaseUrl);
    log(`database ${new URL(databaseUrl).pathname.slice(1)}, temporal dev server on ${temporal.address}`);

    const baselineBefore = await emptyWorkflowRate(temporal.address, temporal.process.pid!, pgPid, BASELINE_WORKFLOWS, 'before');

    const { db, pool } = createDb(databaseUrl, WRITERS + 2);
    teardown.push(async () => {
      await db.$disconnect();
      await pool.end();
    });
    const expected = EVENTS * ENDPOINTS;
    let receivedCount = 0;
    const waiters: { count: number; resolve: () => void }[] = [];
    const untilReceived = (count: number) => new Promise<void>((resolve) => (receivedCount >= count ? resolve() : waiters.push({ count, resolve })));
    const receivers: Receiver[] = [];
    for (let i = 0; i < ENDPOINTS; i += 1) {
      const receiver = await startReceiver(() => {
        receivedCount += 1;
        for (const waiter of waiters.filter((w) => receivedCount >= w.count)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      });
      receiver.secret = newWebhookSecret();
      await insertEndpoint(db, { id: newId(), url: receiver.url, description: `bench ${i}`, events: ['*'], secret: receiver.secret });
      receivers.push(receiver);
      teardown.push(() => new Promise<void>((resolve) => {
        receiver.server.close(() => resolve());
        receiver.server.closeAllConnections();
      }));
    }

    const worker = await startWorkerProcess(databaseUrl, temporal.address);
    teardown.push(() => stopProcess(worker));
    log(`worker (pid ${worker.pid}) with its outbox relay is ready; writing ${EVENTS} events for ${ENDPOINTS} endpoints`);

    const workerCpu = sampleCpu(worker.pid!, pgPid);
    const temporalCpu = sampleCpu(temporal.process.pid!, pgPid);
    const committedAt = new Map<string, number>();
    const writeEvent = async (n: number) => {
      const id = await db.$transaction((tx) =>
        enqueueEvent(tx, 'invoice.finalized', newId(), { invoice_id: newId(), customer_id: newId(), invoice_number: `INV-${String(n + 1).padStart(6, '0')}`, total_nanos: '49000000000000', currency: 'USD' }, new Date()),
      );
      committedAt.set(id, Date.now());
      return id;
    };
    const firstCommit = Date.now();
    let written = 0;
    await Promise.all(
      Array.from({ length: WRITERS }, async () => {
        while (written < EVENTS) await writeEvent(written++);
      }),
    );
    const writeSeconds = (Date.now() - firstCommit) / 1000;
    log(`${EVENTS} events committed in ${writeSeconds.toFixed(1)} s; waiting for ${expected} receipts`);
    const progress = setInterval(() => log(`${receivedCount}/${expected} received`), 5000);
    await untilReceived(expected);
    clearInterval(progress);
    const lastReceipt = Math.max(...receivers.flatMap((r) => [...r.received.values()]));
    const seconds = (lastReceipt - firstCommit) / 1000;
    const cpu = { worker: workerCpu(), temporal: temporalCpu() };
    const latencies = receivers.flatMap((r) => [...r.received].map(([id, at]) => at - committedAt.get(id)!)).sort((a, b) => a - b);
    log(`${expected} deliveries in ${seconds.toFixed(1)} s = ${(expected / seconds).toFixed(1)}/s; p99 ${percentile(latencies, 99)} ms`);

    // Latency at a steady offered rate below capacity: event i is written at start + i / rate.
    const pacedRate = expected / seconds / ENDPOINTS / 2;
    log(`offering ${PACED_EVENTS} events at ${pacedRate.toFixed(1)} events/s (half the burst's capacity)`);
    const pacedIds: string[] = [];
    const pacedStart = Date.now();
    const writes: Promise<void>[] = [];
    for (let i = 0; i < PACED_EVENTS; i += 1) {
      const due = pacedStart + (i * 1000) / pacedRate;
      if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      writes.push(writeEvent(EVENTS + i).then((id) => void pacedIds.push(id)));
    }
    await Promise.all(writes);
    await untilReceived(expected + PACED_EVENTS * ENDPOINTS);
    const pacedLatencies = receivers.flatMap((r) => pacedIds.map((id) => r.received.get(id)! - committedAt.get(id)!)).sort((a, b) => a - b);
    log(`paced: p99 ${percentile(pacedLatencies, 99)} ms`);
    // A receipt comes before its attempt is recorded: give the last records a moment to commit.
    const total = expected + PACED_EVENTS * ENDPOINTS;
    const countDelivered = () => db.webhookDelivery.count({ where: { status: 'Delivered' } });
    await waitFor('every delivery recorded as Delivered', async () => {
      if ((await countDelivered()) < total) throw new Error('not yet');
    }, 30_000, 100).catch((err: unknown) => log((err as Error).message));
    const delivered = await countDelivered();
    await stopProcess(worker);

    const baselineAfter = await emptyWorkflowRate(temporal.address, temporal.process.pid!, pgPid, BASELINE_WORKFLOWS, 'after');
    writeReport({
      baselineBefore,
      baselineAfter,
      deliveries: expected,
      total,
      seconds,
      writeSeconds,
      latency: latencyOf(latencies),
      paced: { eventsPerSecond: pacedRate, latency: latencyOf(pacedLatencies) },
      duplicates: receivers.reduce((sum, r) => sum + r.duplicates, 0),
      badSignatures: receivers.reduce((sum, r) => sum + r.badSignatures, 0),
      delivered,
      cpu,
      loadBefore,
    });
  } finally {
    await teardown.run();
  }
}

function writeReport(f: Figures): void {
  const rate = f.deliveries / f.seconds;
  const baseline = (f.baselineBefore.perSecond + f.baselineAfter.perSecond) / 2;
  const ratio = rate / baseline;
  const met = ratio >= TARGET_RATIO;
  const cpus = os.cpus();
  const cores = (share: CpuShare) => share.api.toFixed(2);
  const lines = [
    '# Webhook delivery benchmark',
    '',
    ...environmentLines('PostgreSQL, the Temporal dev server, the worker and the receivers all run on it'),
    `- command: \`npx tsx bench/webhooks.ts\` (BENCH_EVENTS=${EVENTS}, BENCH_ENDPOINTS=${ENDPOINTS}, BENCH_BASELINE_WORKFLOWS=${BASELINE_WORKFLOWS})`,
    '- system under test: the real worker process (`node --import tsx src/worker.ts`, default WEBHOOK_* settings, logs at info) with its outbox relay; Temporal CLI dev server in memory; the machine\'s PostgreSQL',
    loadLine(f.loadBefore),
    '',
    '## Results',
    '',
    '| measure | figure | baseline (same run) | target | verdict |',
    '|---|---:|---|---|---|',
    `| ${EVENTS} events × ${ENDPOINTS} endpoints, burst (events committed in ${f.writeSeconds.toFixed(1)} s by ${WRITERS} writers) | **${rate.toFixed(1)} deliveries/s** (${f.deliveries} in ${f.seconds.toFixed(1)} s, first commit to last receipt) | empty workflows started and completed, ${START_CONCURRENCY} in flight: ${f.baselineBefore.perSecond.toFixed(1)}/s before, ${f.baselineAfter.perSecond.toFixed(1)}/s after, mean ${baseline.toFixed(1)}/s → ratio **${ratio.toFixed(2)}** | ≥ ${TARGET_RATIO} × empty-workflow rate | ${verdict(met, `${((1 - ratio / TARGET_RATIO) * 100).toFixed(0)}% short of the ratio`)} |`,
    `| end to end, commit → receipt, every delivery of the burst | p50 ${f.latency.p50} ms, p90 ${f.latency.p90} ms, p99 ${f.latency.p99} ms, max ${f.latency.max} ms | — | — | informational: in a burst the latency is the queue of deliveries ahead |`,
    `| end to end, commit → receipt, ${PACED_EVENTS} events offered at a steady ${f.paced.eventsPerSecond.toFixed(1)} events/s (half the burst's capacity), ${ENDPOINTS} endpoints | p50 ${f.paced.latency.p50} ms, p90 ${f.paced.latency.p90} ms, **p99 ${f.paced.latency.p99} ms**, max ${f.paced.latency.max} ms | — | — | informational |`,
    `| correctness, both phases | ${f.duplicates} duplicates, ${f.badSignatures} bad signatures, ${f.delivered} of ${f.total} deliveries Delivered | — | 0, 0, all | ${verdict(f.duplicates === 0 && f.badSignatures === 0 && f.delivered === f.total, `${f.duplicates} duplicates, ${f.badSignatures} bad signatures, ${f.delivered} of ${f.total} delivered`)} |`,
    '',
    `CPU during the deliveries (cores' worth; this machine has ${cpus.length}): worker process ${cores(f.cpu.worker)}, Temporal dev server ${cores(f.cpu.temporal)}, PostgreSQL ${f.cpu.worker.postgres.toFixed(2)}, this process (writers, receivers) ${f.cpu.worker.loadGenerator.toFixed(2)}, whole machine ${f.cpu.worker.machine.toFixed(2)}. During the empty-workflow baseline: Temporal dev server ${cores(f.baselineBefore.cpu)} before, ${cores(f.baselineAfter.cpu)} after; machine ${f.baselineBefore.cpu.machine.toFixed(2)} and ${f.baselineAfter.cpu.machine.toFixed(2)}.`,
    '',
    '## What is measured',
    '',
    '- Each event is one transaction of `enqueueEvent` (as a state change writes it); the trigger on `outbox_events` NOTIFYs the relay at commit. The relay claims events in batches, records one delivery per (event, endpoint) with its bytes, starts one `webhookDeliveryWorkflow` per delivery (32 starts in flight) and marks the events dispatched.',
    '- A delivery workflow runs its attempt as a local activity (read the delivery with its endpoint in one query, POST over a keep-alive connection, record a 2xx in one statement that also closes the circuit when it is not closed): one workflow task per delivery when the receiver answers 2xx at once, like the empty workflow, plus the attempt\'s work.',
    '- The baseline runs the same dev server\'s empty workflows from this process (a worker here, 32 starts in flight, each awaited to completion), before and after the deliveries, so both see the same server and machine.',
    '- Figures move by up to ±25% between runs on this shared 2-core VM; compare the ratio to the baseline of the same run.',
    '',
    '## How to run',
    '',
    '```',
    'npx tsx bench/webhooks.ts                                           # 1,000 events × 3 endpoints, about a minute',
    'BENCH_EVENTS=200 BENCH_BASELINE_WORKFLOWS=200 BENCH_RESULTS="$(mktemp)" npx tsx bench/webhooks.ts   # a quick run elsewhere',
    '```',
    '',
  ];
  writeReportFile(RESULTS_FILE, [...lines, ...sectionOf(RESULTS_FILE, WAITING_SECTION)], log);
}

/** The lines of `heading`'s section of an existing report (to the end of the file), or none. */
function sectionOf(file: string, heading: string): string[] {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf(`\n${heading}`);
  return at < 0 ? [] : text.slice(at + 1).split('\n');
}

/** The report with its `heading` section replaced by `section` (or added at its end). */
function withSection(file: string, heading: string, section: string[]): string[] {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Webhook delivery benchmark\n';
  const at = text.indexOf(`\n${heading}`);
  const head = (at < 0 ? text : text.slice(0, at + 1)).replace(/\n*$/, '\n');
  return [...head.split('\n'), ...section];
}

interface HealthyPhase {
  latency: Latency;
  cpu: { worker: CpuShare; temporal: CpuShare };
}

/** Offers BENCH_HEALTHY_EVENTS events to the healthy endpoint at BENCH_HEALTHY_RATE per second; commit → receipt latency. */
async function healthyPhase(
  h: { receiver: Receiver; db: ReturnType<typeof createDb>['db']; worker: number; temporal: number; pgPid: number; offered: number },
  label: string,
): Promise<HealthyPhase> {
  log(`offering ${HEALTHY_EVENTS} events to the healthy endpoint at ${HEALTHY_RATE}/s (${label})`);
  const committedAt = new Map<string, number>();
  const cpu = { worker: sampleCpu(h.worker, h.pgPid), temporal: sampleCpu(h.temporal, h.pgPid) };
  const start = Date.now();
  const writes: Promise<void>[] = [];
  for (let i = 0; i < HEALTHY_EVENTS; i += 1) {
    const due = start + (i * 1000) / HEALTHY_RATE;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    const n = (h.offered += 1);
    writes.push(
      h.db
        .$transaction((tx) => enqueueEvent(tx, 'invoice.finalized', newId(), { invoice_id: newId(), customer_id: newId(), invoice_number: `INV-${String(n).padStart(6, '0')}`, total_nanos: '1', currency: 'USD' }, new Date()))
        .then((id) => void committedAt.set(id, Date.now())),
    );
  }
  await Promise.all(writes);
  await waitFor(`every healthy delivery received (${label})`, async () => {
    if ([...committedAt.keys()].some((id) => !h.receiver.received.has(id))) throw new Error('not yet');
  }, 10 * 60_000, 100);
  const latencies = [...committedAt].map(([id, at]) => h.receiver.received.get(id)! - at).sort((a, b) => a - b);
  log(`healthy (${label}): p99 ${percentile(latencies, 99)} ms`);
  return { latency: latencyOf(latencies), cpu: { worker: cpu.worker(), temporal: cpu.temporal() } };
}

interface WaitingFigures {
  settleSeconds: number;
  parked: number;
  failed: number;
  pending: number;
  attemptsDuringWait: number;
  waitSeconds: number;
  waitCpu: { worker: CpuShare; temporal: CpuShare };
  alone: HealthyPhase;
  withWaiting: HealthyPhase;
  healthyDuplicates: number;
  healthyBadSignatures: number;
  loadBefore: number[];
}

/** Dead endpoints with many deliveries waiting on their open circuits, and a healthy endpoint beside them. */
async function waitingScenario(): Promise<void> {
  const loadBefore = os.loadavg();
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const teardown = new Teardown(log);
  try {
    const databaseUrl = await benchDatabase(SERVER_URL, 'webhooks_waiting', teardown);
    const temporal = await startTemporalDevServer({ binary: await ensureTool(TEMPORAL_CLI, log), port: await freePort(), uiPort: 0, namespace: 'default', headless: true });
    teardown.push(temporal.stop);
    const pgPid = await postmasterPid(databaseUrl);
    const { db, pool } = createDb(databaseUrl, WRITERS + 2);
    teardown.push(async () => {
      await db.$disconnect();
      await pool.end();
    });
    const deadIds = await registerDeadEndpoints(db, DEAD_ENDPOINTS);
    const receiver = await startReceiver(() => undefined);
    receiver.secret = newWebhookSecret();
    teardown.push(() => new Promise<void>((resolve) => {
      receiver.server.close(() => resolve());
      receiver.server.closeAllConnections();
    }));
    await insertEndpoint(db, { id: newId(), url: receiver.url, description: 'healthy', events: ['invoice.finalized'], secret: receiver.secret });
    const worker = await startWorkerProcess(databaseUrl, temporal.address);
    teardown.push(() => stopProcess(worker));
    const healthy = { receiver, db, worker: worker.pid!, temporal: temporal.process.pid!, pgPid, offered: 0 };
    // The same offer to the healthy endpoint before any delivery waits: the machine's own figure, for comparison.
    const alone = await healthyPhase(healthy, 'alone');
    log(`worker (pid ${worker.pid}) ready; ${DEAD_ENDPOINTS} dead endpoints, writing ${WAITING} deliveries to them`);
    const started = Date.now();
    const dead = await writeWaitingDeliveries(db, deadIds, WAITING, WRITERS);
    await waitUntilSettled(dead, log);
    const settleSeconds = (Date.now() - started) / 1000;

    log(`measuring the worker for ${WAIT_SECONDS} s while only the waiting deliveries exist`);
    const attempts0 = await db.webhookAttempt.count();
    const waitCpu = { worker: sampleCpu(worker.pid!, pgPid), temporal: sampleCpu(temporal.process.pid!, pgPid) };
    await new Promise((resolve) => setTimeout(resolve, WAIT_SECONDS * 1000));
    const waitShares = { worker: waitCpu.worker(), temporal: waitCpu.temporal() };
    const attemptsDuringWait = (await db.webhookAttempt.count()) - attempts0;
    const { reached: _reached, ...settled } = await dead.counts();

    const withWaiting = await healthyPhase(healthy, 'with the waiting deliveries');
    await stopProcess(worker);
    const lines = waitingReport({
      settleSeconds,
      ...settled,
      attemptsDuringWait,
      waitSeconds: WAIT_SECONDS,
      waitCpu: waitShares,
      alone,
      withWaiting,
      healthyDuplicates: healthy.receiver.duplicates,
      healthyBadSignatures: healthy.receiver.badSignatures,
      loadBefore,
    });
    writeReportFile(RESULTS_FILE, withSection(RESULTS_FILE, WAITING_SECTION, lines), log);
  } finally {
    await teardown.run();
  }
}

function waitingReport(f: WaitingFigures): string[] {
  const workerMet = f.waitCpu.worker.api <= WAITING_TARGETS.workerCores;
  const p99Met = f.withWaiting.latency.p99 <= WAITING_TARGETS.healthyP99Ms;
  const phase = (p: HealthyPhase) => `p50 ${p.latency.p50} ms, p90 ${p.latency.p90} ms, **p99 ${p.latency.p99} ms**, max ${p.latency.max} ms (worker ${p.cpu.worker.api.toFixed(2)} cores meanwhile)`;
  const full = DEAD_ENDPOINTS >= 50 && WAITING >= 5_000;
  return [
    `${WAITING_SECTION} (issue 31 point 6${full ? '' : ', scaled down'})`,
    '',
    ...environmentLines('PostgreSQL, the Temporal dev server, the worker and the receiver all run on it, and other work shares it'),
    `- command: \`BENCH_SCENARIO=waiting BENCH_DEAD_ENDPOINTS=${DEAD_ENDPOINTS} BENCH_WAITING=${WAITING} BENCH_WAIT_SECONDS=${WAIT_SECONDS} BENCH_HEALTHY_EVENTS=${HEALTHY_EVENTS} BENCH_HEALTHY_RATE=${HEALTHY_RATE} npx tsx bench/webhooks.ts\``,
    '- system under test: the real worker process (default WEBHOOK_* settings: circuits open for 60 s after 5 failures) with its outbox relay and circuit waker; Temporal CLI dev server in memory',
    loadLine(f.loadBefore),
    '',
    '| measure | figure | target | verdict |',
    '|---|---:|---|---|',
    `| ${DEAD_ENDPOINTS} dead endpoints (refused connections), ${f.pending + f.failed} deliveries: settled (all waiting but the probes) | ${f.settleSeconds.toFixed(0)} s; after the CPU window ${f.parked} parked, ${f.pending} Pending (the others between attempts: failed before their circuit opened, or as probes), ${f.failed} Failed | — | informational |`,
    `| worker CPU while only the waiting deliveries exist, over ${f.waitSeconds} s (${(f.waitSeconds / 60).toFixed(1)} breaker windows; ${f.attemptsDuringWait} probe attempts) | **${f.waitCpu.worker.api.toFixed(3)} cores** (Temporal dev server ${f.waitCpu.temporal.api.toFixed(3)}, PostgreSQL ${f.waitCpu.worker.postgres.toFixed(3)}, machine ${f.waitCpu.worker.machine.toFixed(2)}) | ≤ ${WAITING_TARGETS.workerCores} core | ${verdict(workerMet, `${f.waitCpu.worker.api.toFixed(3)} cores`)} |`,
    `| healthy endpoint, ${HEALTHY_EVENTS} events at ${HEALTHY_RATE}/s, commit → receipt, before any delivery waits (this machine's own figure) | ${phase(f.alone)} | — | informational |`,
    `| the same offer while the ${f.pending + f.failed} deliveries wait | ${phase(f.withWaiting)} | p99 ≤ ${WAITING_TARGETS.healthyP99Ms} ms | ${verdict(p99Met, `p99 ${f.withWaiting.latency.p99} ms; ${f.alone.latency.p99} ms before any delivery waited`)} |`,
    `| correctness of the healthy deliveries | ${f.healthyDuplicates} duplicates, ${f.healthyBadSignatures} bad signatures | 0, 0 | ${verdict(f.healthyDuplicates === 0 && f.healthyBadSignatures === 0, 'duplicates or bad signatures')} |`,
    '',
    'A delivery the open circuit refuses parks (its workflow waits for a signal, with no timer of its own but a one-hour safety net); the worker\'s circuit waker looks at the endpoints with parked deliveries once a second, makes the oldest one the probe when a window has passed, and wakes the rest when the circuit closes. So while endpoints are down, the worker\'s cost is one probe per endpoint per window, however many deliveries wait.',
    '',
    'A period close of 1,000 subscriptions beside 5,000 such deliveries is measured by `BENCH_WAITING_DELIVERIES=5000 npx tsx bench/bill-run.ts` against the plain bill run, back to back: bench/results/bill-run-waiting-deliveries.md.',
    '',
  ];
}

runBenchmark(SCENARIO === 'waiting' ? waitingScenario : main, log);
