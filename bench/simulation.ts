/**
 * Simulation benchmark: one price simulation over BENCH_SUBSCRIPTIONS subscriptions × BENCH_PERIODS
 * closed monthly periods, through the real API process (`src/main.ts`) and worker process
 * (`src/worker.ts`) on a fresh database, with a Temporal CLI dev server and its file-backed store.
 *
 * Seeded with SQL bulk inserts (unnest of arrays, a transaction per 1,000 subscriptions, the guard
 * triggers off while seeding): a plan with a Flat 49.00 fee and a PerUnit 0.01 SKU on `api_calls`;
 * one customer per subscription; for each subscription its phase, and for each of its periods the
 * period close, a Paid invoice with its two lines (fee, usage) and one usage event carrying the
 * period's quantity; then one rollup pass, as ingestion would have run long before. The simulation reprices `api_calls` to 0.012 over the last BENCH_PERIODS
 * periods of every subscription on the plan.
 *
 * Measured: POST /admin/v1/simulations → GET shows `completed` (polled every POLL_MS), the worker's
 * and PostgreSQL's CPU meanwhile, the workflow's runs (continue-as-new) and their largest history,
 * and the CSV download. Checked: every (subscription, period) has its result, and the totals equal
 * what was seeded (actual) and what the candidate must give; invoices are untouched.
 * Target (issue 28): 10,000 subscriptions × 12 periods in ≤ 120 s. Writes bench/results/simulation.md.
 *
 *   npx tsx bench/simulation.ts
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres (server to create the bench database on)
 *   BENCH_SUBSCRIPTIONS=10000 BENCH_PERIODS=12 BENCH_RESULTS=<file> BENCH_LOG_DIR=<folder>
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import pg from 'pg';
import { stopProcess, waitFor } from '../src/dev/processes.js';
import { newId } from '../src/ids.js';
import { runRollupPass } from '../src/services/metering/usage.js';
import { connectTemporal } from '../src/temporal/client.js';
import { simulationWorkflowId } from '../workflows/simulation/messages.js';
import { sampleCpu } from './metering/load.js';
import { Columns, insertSeeding } from './support/columns.js';
import { Teardown } from './support/lifecycle.js';
import { apiClient, benchServices, startProcess } from './support/project-processes.js';
import { environmentLines, loadLine, runBenchmark, verdict, writeReport } from './support/report.js';
import { ONE_UNIT as UNIT } from '../src/core/index.js';

const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 10_000);
const PERIODS = Number(process.env.BENCH_PERIODS ?? 12);
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const RESULTS_FILE = process.env.BENCH_RESULTS ? path.resolve(process.env.BENCH_RESULTS) : fileURLToPath(new URL('./results/simulation.md', import.meta.url));
const TASK_QUEUE = 'bench-simulation';
const TARGET_SECONDS = 120;
const POLL_MS = 1_000;
const BATCH = 1_000;
const FEE = 49n * UNIT;
const PRICE = UNIT / 100n;
const CANDIDATE_PRICE = (UNIT * 12n) / 1000n;
/** The first seeded period; the subscriptions' current period follows the last. */
const FIRST_PERIOD = Date.UTC(2025, 0, 1);

const log = (line: string) => process.stdout.write(`[bench:simulation] ${line}\n`);
const fmt = (n: number | bigint) => n.toLocaleString('en-US');

const periodStart = (p: number): Date => new Date(Date.UTC(2025, p, 1));
/** The seeded quantity of subscription i in period p. */
const quantityOf = (i: number, p: number): bigint => BigInt(100 + ((i * 7 + p * 13) % 1900));

interface Seeded {
  actual: bigint;
  candidate: bigint;
  invoices: number;
  events: number;
}

async function seed(pool: pg.Pool, plan: { id: string; feeSku: string; callsSku: string }): Promise<Seeded> {
  const started = performance.now();
  let actual = 0n;
  let candidate = 0n;
  let invoiceNumber = 0;
  const now = new Date();
  for (let first = 0; first < SUBSCRIPTIONS; first += BATCH) {
    const customers = new Columns('customers', [['id', 'uuid'], ['display_name', 'text'], ['email', 'text'], ['account_type', '"AccountType"'], ['billing_currency', 'text'], ['updated_at', 'timestamptz']]);
    const subscriptions = new Columns('subscriptions', [
      ['id', 'uuid'], ['customer_id', 'uuid'], ['plan_id', 'uuid'], ['currency', 'text'], ['status', '"SubscriptionStatus"'],
      ['period_start', 'timestamptz'], ['period_end', 'timestamptz'], ['billing_anchor', 'timestamptz'], ['closed_through', 'timestamptz'],
      ['workflow_started_at', 'timestamptz'], ['updated_at', 'timestamptz'],
    ]);
    const phases = new Columns('subscription_phases', [['id', 'uuid'], ['subscription_id', 'uuid'], ['plan_id', 'uuid'], ['starts_at', 'timestamptz']]);
    const closes = new Columns('subscription_period_closes', [['subscription_id', 'uuid'], ['period_start', 'timestamptz'], ['period_end', 'timestamptz'], ['invoice_id', 'uuid'], ['accounted_seq', 'bigint']]);
    const invoices = new Columns('invoices', [
      ['id', 'uuid'], ['customer_id', 'uuid'], ['subscription_id', 'uuid'], ['currency', 'text'], ['status', '"InvoiceStatus"'], ['invoice_number', 'text'],
      ['billing_reason', 'text'], ['period_start', 'timestamptz'], ['period_end', 'timestamptz'], ['subtotal_nanos', 'numeric'], ['total_nanos', 'numeric'],
      ['finalized_at', 'timestamptz'], ['paid_at', 'timestamptz'], ['updated_at', 'timestamptz'],
    ]);
    const lines = new Columns('invoice_line_items', [
      ['id', 'uuid'], ['invoice_id', 'uuid'], ['kind', 'text'], ['description', 'text'], ['sku_id', 'uuid'], ['plan_id', 'uuid'], ['subscription_id', 'uuid'],
      ['quantity', 'text'], ['unit_amount_nanos', 'numeric'], ['amount_nanos', 'numeric'], ['period_start', 'timestamptz'], ['period_end', 'timestamptz'],
    ]);
    const events = new Columns('usage_events', [['id', 'text'], ['event_type', 'text'], ['customer_id', 'uuid'], ['subscription_id', 'uuid'], ['occurred_at', 'timestamptz'], ['properties', 'jsonb']]);
    for (let i = first; i < Math.min(first + BATCH, SUBSCRIPTIONS); i += 1) {
      const customerId = newId();
      const subscriptionId = newId();
      customers.push(customerId, `Bench ${i}`, `bench${i}@example.com`, 'Organization', 'USD', now);
      subscriptions.push(subscriptionId, customerId, plan.id, 'USD', 'Active', periodStart(PERIODS), periodStart(PERIODS + 1), new Date(FIRST_PERIOD), periodStart(PERIODS), now, now);
      phases.push(newId(), subscriptionId, plan.id, new Date(FIRST_PERIOD));
      for (let p = 0; p < PERIODS; p += 1) {
        const start = periodStart(p);
        const end = periodStart(p + 1);
        const quantity = quantityOf(i, p);
        const usage = quantity * PRICE;
        const invoiceId = newId();
        invoiceNumber += 1;
        actual += FEE + usage;
        candidate += FEE + quantity * CANDIDATE_PRICE;
        closes.push(subscriptionId, start, end, invoiceId, '0');
        invoices.push(invoiceId, customerId, subscriptionId, 'USD', 'Paid', `BENCH-${String(invoiceNumber).padStart(7, '0')}`, 'subscription_cycle', start, end, (FEE + usage).toString(), (FEE + usage).toString(), end, end, now);
        lines.push(newId(), invoiceId, 'fee', 'Bench · Base fee', plan.feeSku, plan.id, subscriptionId, '1', FEE.toString(), FEE.toString(), start, end);
        lines.push(newId(), invoiceId, 'usage', 'Bench · API calls', plan.callsSku, plan.id, subscriptionId, quantity.toString(), PRICE.toString(), usage.toString(), start, end);
        events.push(`bench-${subscriptionId}-${p}`, 'api_calls', customerId, subscriptionId, new Date(start.getTime() + 10 * 86_400_000), JSON.stringify({ quantity: Number(quantity) }));
      }
    }
    // Seeding only: the guard triggers (invoice status moves, frozen lines) are off in this transaction.
    await insertSeeding(pool, [customers, subscriptions, phases, invoices, lines, closes, events]);
    log(`seeded ${fmt(Math.min(first + BATCH, SUBSCRIPTIONS))}/${fmt(SUBSCRIPTIONS)} subscriptions (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  await pool.query('VACUUM (ANALYZE)');
  return { actual, candidate, invoices: invoiceNumber, events: invoiceNumber };
}

interface SimulationBody {
  id: string;
  status: string;
  progress: { subscriptions_total: number | null; subscriptions_done: number; periods_done: number };
  totals: { currency: string; customers: number; actual_nanos: string; candidate_nanos: string; customers_paying_more: number }[];
  results_csv_url: string;
  error: unknown;
}

const billingFingerprint = async (pool: pg.Pool): Promise<string> =>
  JSON.stringify((await pool.query(`SELECT count(*) AS invoices, sum(total_nanos)::text AS total, max(updated_at) AS updated, (SELECT count(*) FROM invoice_line_items) AS lines, (SELECT count(*) FROM audit_log WHERE entity_type <> 'simulation') AS audit FROM invoices`)).rows[0]);

async function main(): Promise<void> {
  const loadBefore = os.loadavg();
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const teardown = new Teardown(log);
  try {
    const { databaseUrl, temporalServer, pgPid, apiKey, port, env } = await benchServices({ serverUrl: SERVER_URL, name: 'simulation', taskQueue: TASK_QUEUE, teardown, log });
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    teardown.push(() => pool.end());
    const api = await startProcess('src/main.ts', env, 'api listening');
    teardown.push(() => stopProcess(api));
    const base = `http://127.0.0.1:${port}`;
    await waitFor('API health', async () => {
      if ((await fetch(`${base}/health`)).status !== 200) throw new Error('not healthy');
    }, 60_000);
    const call = apiClient(base, apiKey);
    const { body: plan } = await call<{ id: string }>('POST', '/admin/v1/catalog/plans', { name: 'Bench', billing_cadence: 'Monthly' });
    const { body: fee } = await call<{ id: string }>('POST', '/admin/v1/catalog/skus', { plan_id: plan.id, name: 'Base fee', pricing_model: 'Flat', unit_amount_nanos: FEE.toString(), currency: 'USD' });
    const { body: calls } = await call<{ id: string }>('POST', '/admin/v1/catalog/skus', { plan_id: plan.id, name: 'API calls', pricing_model: 'PerUnit', unit_amount_nanos: PRICE.toString(), meter_event_type: 'api_calls', currency: 'USD' });
    // Seeded before the worker starts: the subscriptions' workflows are marked started, so nothing bills them.
    const seeded = await seed(pool, { id: plan.id, feeSku: fee.id, callsSku: calls.id });
    log(`seeded ${fmt(SUBSCRIPTIONS)} subscriptions × ${PERIODS} periods: ${fmt(seeded.invoices)} invoices, ${fmt(seeded.events)} usage events`);
    // The events of closed periods were rolled up long ago in a running system (a pass follows every ingestion).
    const rollupStarted = performance.now();
    await runRollupPass({ pool });
    log(`rollup pass over the seeded events: ${((performance.now() - rollupStarted) / 1000).toFixed(1)} s`);
    const worker = await startProcess('src/worker.ts', env, 'worker ready');
    teardown.push(() => stopProcess(worker));
    const before = await billingFingerprint(pool);

    const cpuWorker = sampleCpu(worker.pid!, pgPid);
    const cpuTemporal = sampleCpu(temporalServer.process.pid!, pgPid);
    const started = Date.now();
    const { body: simulation } = await call<SimulationBody>(
      'POST',
      '/admin/v1/simulations',
      {
        candidate: { kind: 'price_changes', plan_id: plan.id, price_changes: [{ sku_id: calls.id, unit_amount_nanos: CANDIDATE_PRICE.toString() }] },
        scope: { kind: 'plan', plan_id: plan.id },
        range: { last_periods: PERIODS },
      },
      [202],
    );
    let last = simulation;
    const progressLog = setInterval(() => log(`simulation ${last.status}: ${fmt(last.progress.subscriptions_done)}/${fmt(last.progress.subscriptions_total ?? 0)} subscriptions, ${fmt(last.progress.periods_done)} periods`), 5_000);
    try {
      await waitFor('simulation finished', async () => {
        last = (await call<SimulationBody>('GET', `/admin/v1/simulations/${simulation.id}`)).body;
        if (last.status === 'running') throw new Error(`${last.progress.periods_done} periods done`);
      }, 3_600_000, POLL_MS);
    } finally {
      clearInterval(progressLog);
    }
    const seconds = (Date.now() - started) / 1000;
    const cpu = { worker: cpuWorker(), temporal: cpuTemporal() };
    log(`simulation ${last.status} after ${seconds.toFixed(1)} s`);

    const csvStarted = Date.now();
    const { body: csv } = await call<string>('GET', last.results_csv_url);
    const csvSeconds = (Date.now() - csvStarted) / 1000;
    const csvRows = csv.trimEnd().split('\r\n').length - 1;
    const after = await billingFingerprint(pool);

    const temporal = await connectTemporal(temporalServer.address, 'default');
    teardown.push(() => temporal.connection.close());
    let runs = 0;
    let largestHistory = 0;
    for await (const execution of temporal.client.workflow.list({ query: `WorkflowId = '${simulationWorkflowId(simulation.id)}'` })) {
      runs += 1;
      largestHistory = Math.max(largestHistory, execution.historyLength);
    }

    const usd = last.totals.find((t) => t.currency === 'USD');
    const periods = SUBSCRIPTIONS * PERIODS;
    // Cores' worth over the run, as milliseconds of CPU per period: what the run costs whatever else the machine ran.
    const perPeriodMs = (cores: number): string => ((cores * seconds * 1000) / periods).toFixed(3);
    const complete = last.status === 'completed' && last.progress.periods_done === periods && csvRows === periods;
    const exact = usd?.actual_nanos === seeded.actual.toString() && usd.candidate_nanos === seeded.candidate.toString() && usd.customers === SUBSCRIPTIONS;
    const lines = [
      '# Simulation benchmark',
      '',
      ...environmentLines('PostgreSQL, the Temporal dev server, the API and the worker all run on it'),
      `- command: \`npx tsx bench/simulation.ts\` (BENCH_SUBSCRIPTIONS=${SUBSCRIPTIONS}, BENCH_PERIODS=${PERIODS})`,
      "- system under test: the API process (`src/main.ts`) and the worker process (`src/worker.ts`), logs at info; Temporal CLI dev server with its file-backed store (as `npm start` runs it); the machine's PostgreSQL",
      loadLine(loadBefore),
      '',
      '## Results',
      '',
      '| measure | figure | target | verdict |',
      '|---|---:|---|---|',
      `| ${fmt(SUBSCRIPTIONS)} subscriptions × ${PERIODS} periods re-rated (POST → GET shows completed) | **${seconds.toFixed(1)} s** (${fmt(Math.round(periods / seconds))} periods/s) | ≤ ${TARGET_SECONDS} s | ${verdict(seconds <= TARGET_SECONDS, `${(seconds - TARGET_SECONDS).toFixed(1)} s over`)} |`,
      `| every (subscription, period) has its result, status completed | ${fmt(last.progress.periods_done)} results, CSV ${fmt(csvRows)} rows, ${last.status} | ${fmt(periods)} | ${verdict(complete, `${last.status}, ${last.progress.periods_done} results`)} |`,
      `| totals equal the seeded actual and the candidate's exact amount | actual ${usd?.actual_nanos ?? '—'}, candidate ${usd?.candidate_nanos ?? '—'} (raw units) | exact | ${verdict(exact, 'totals differ')} |`,
      `| billing untouched (invoices, lines, their totals, billing's audit entries) | ${before === after ? 'unchanged' : 'changed'} | unchanged | ${verdict(before === after, 'billing changed')} |`,
      `| workflow runs (continue-as-new) and the largest history | ${runs} runs, at most ${largestHistory} events | — | informational |`,
      `| results CSV download | ${csvSeconds.toFixed(1)} s, ${fmt(csv.length)} bytes | — | informational |`,
      '',
      `CPU during the simulation (cores' worth; this machine has ${os.cpus().length}): worker ${cpu.worker.api.toFixed(2)}, Temporal dev server ${cpu.temporal.api.toFixed(2)}, PostgreSQL ${cpu.worker.postgres.toFixed(2)}, whole machine ${cpu.worker.machine.toFixed(2)}.`,
      `CPU per re-rated period: worker ${perPeriodMs(cpu.worker.api)} ms, PostgreSQL ${perPeriodMs(cpu.worker.postgres)} ms, Temporal dev server ${perPeriodMs(cpu.temporal.api)} ms.`,
      '',
      '## What is measured',
      '',
      `- Setup (not measured): a Monthly plan with a Flat 49.00 fee and a PerUnit 0.01 SKU on \`api_calls\`; ${fmt(SUBSCRIPTIONS)} customers with one subscription each, each with ${PERIODS} closed periods (2025), a Paid invoice per period (fee and usage lines) and one usage event per period with its quantity (100–1,999), seeded with SQL, then rolled up by one rollup pass (as ingestion's scheduled pass would have done).`,
      '- The measured run: POST /admin/v1/simulations repricing `api_calls` to 0.012 over the last 12 periods of every subscription on the plan, then GET every second until the status leaves `running`. The simulation workflow counts the scope, re-rates 100 subscriptions per batch activity (each period through the period close\'s rating: phases, proration basis, contract terms; the meter reads of all the batch\'s periods coalesced into a few statements) and continues as new every 40 batches.',
      '- Figures move by up to ±25% between runs on this shared 2-core VM (other work ran on it: see the load line).',
      '',
    ];
    writeReport(RESULTS_FILE, lines, log);
  } finally {
    await teardown.run();
  }
}

runBenchmark(main, log);
