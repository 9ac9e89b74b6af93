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
 *   npx tsx bench/webhooks.ts
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres (server to create the bench database on)
 *   BENCH_EVENTS=1000 BENCH_ENDPOINTS=3 BENCH_BASELINE_WORKFLOWS=1000 BENCH_PACED_EVENTS=200 BENCH_RESULTS=<file>
 */
import { spawn, type ChildProcess } from 'node:child_process';
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

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000);
const ENDPOINTS = Number(process.env.BENCH_ENDPOINTS ?? 3);
const BASELINE_WORKFLOWS = Number(process.env.BENCH_BASELINE_WORKFLOWS ?? 1_000);
const PACED_EVENTS = Number(process.env.BENCH_PACED_EVENTS ?? 200);
const WRITERS = 8;
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
  writeReportFile(RESULTS_FILE, lines, log);
}

runBenchmark(main, log);
