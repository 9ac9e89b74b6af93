/**
 * Cost curves (issue 31 point 4): how the cost of ingestion, usage summaries and bill runs grows
 * with the data, each figure at a small and a large size measured by the repo's own benchmarks.
 *
 * - Ingestion and summaries: bench/metering.ts at 1M events (the standard run) and with 9M more
 *   events preloaded into the measured subscription's period (BENCH_PRELOAD_EVENTS), both reading
 *   every summary afresh (USAGE_SUMMARY_CACHE_MS=0: the cache would hide the growth). Targets: batch
 *   and single-event ingestion at the large size within 15% of the small size's rate; the usage
 *   summary's p99 (8 clients) at 10M events in the period within 25% of its p99 at 1M.
 * - Bill runs: bench/bill-run.ts at 1,000 and 10,000 subscriptions (about an hour and a half in
 *   all on a 2-core machine, so only with BENCH_CURVE_BILL_RUN=1). Target: the rate per subscription
 *   at 10,000 within 15% of the rate at 1,000.
 *
 * Runs the benchmarks one after the other (each writes its own report and a .json of its figures
 * under bench/results/), then writes bench/results/cost-curves.md from the .json files, also from
 * those of earlier runs when a size is not run now. BENCH_CURVE_REPORT_ONLY=1 runs nothing and only
 * writes the report. Exits 1 when a target is missed or a size was never measured.
 *
 *   npx tsx bench/cost-curves.ts                         # the metering sizes, ~15 minutes
 *   BENCH_CURVE_BILL_RUN=1 npx tsx bench/cost-curves.ts  # and the bill-run sizes
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BillRunCurvePoint } from './bill-run.js';
import type { MeteringCurvePoint } from './metering.js';
import { environmentLines, readFigures, runBenchmark, verdict, writeReport } from './support/report.js';

const log = (line: string) => process.stdout.write(`[bench:cost-curves] ${line}\n`);
const results = (name: string) => fileURLToPath(new URL(`./results/${name}`, import.meta.url));
const REPORT_ONLY = process.env.BENCH_CURVE_REPORT_ONLY === '1';
const BILL_RUN = process.env.BENCH_CURVE_BILL_RUN === '1';
const LARGE_PRELOAD = 9_000_000;
const TOLERANCE = { ingestion: 0.15, summaryP99: 0.25, billRun: 0.15 };

interface Run {
  script: string;
  report: string;
  env: Record<string, string>;
}

const METERING: Record<'small' | 'large', Run> = {
  small: { script: 'bench/metering.ts', report: 'metering-curve-1m.md', env: { USAGE_SUMMARY_CACHE_MS: '0' } },
  large: { script: 'bench/metering.ts', report: 'metering-curve-10m.md', env: { USAGE_SUMMARY_CACHE_MS: '0', BENCH_PRELOAD_EVENTS: String(LARGE_PRELOAD) } },
};
const BILL_RUNS: Record<'small' | 'large', Run> = {
  small: { script: 'bench/bill-run.ts', report: 'bill-run-curve-1000.md', env: { BENCH_SUBSCRIPTIONS: '1000' } },
  large: { script: 'bench/bill-run.ts', report: 'bill-run-curve-10000.md', env: { BENCH_SUBSCRIPTIONS: '10000' } },
};

/** Runs one benchmark as a child process (its output passed through); a missed target of its own does not stop the curve. */
function run(r: Run): Promise<void> {
  log(`running ${r.script} (${Object.entries(r.env).map(([k, v]) => `${k}=${v}`).join(' ')})`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', r.script], { stdio: 'inherit', env: { ...process.env, ...r.env, BENCH_RESULTS: results(r.report) } });
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 || code === 1 ? resolve() : reject(new Error(`${r.script} ended with ${signal ?? `exit code ${code}`}`))));
  });
}

const point = <T>(r: Run): T | undefined => readFigures<T>(results(r.report));

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const share = (large: number, small: number) => `${((large / small) * 100).toFixed(0)}%`;

/** How far the large size's figure may be from the small size's: a rate at least this share of it, a latency at most. */
type Bound = { atLeast: number } | { atMost: number };

const percent = (share: number) => `${(share * 100).toFixed(0)}%`;

/** A row with a figure at both sizes, judged against `bound` (without one: shown for reference). A size not measured misses. */
function sizeRow(what: string, small: number | undefined, large: number | undefined, unit: string, bound?: Bound): string {
  const show = (n: number | undefined) => (n === undefined ? '—' : `${unit === 'ms' ? n.toFixed(1) : fmt(n)} ${unit}`);
  const measured = small !== undefined && large !== undefined;
  const ratio = measured ? share(large, small) : '—';
  if (bound === undefined) return `| ${what} | ${show(small)} | ${show(large)} | ${ratio} | — | informational |`;
  const target = 'atLeast' in bound ? `≥ ${percent(bound.atLeast)}` : `≤ ${percent(bound.atMost)}`;
  const met = measured && ('atLeast' in bound ? large >= small * bound.atLeast : large <= small * bound.atMost);
  return `| ${what} | ${show(small)} | ${show(large)} | ${ratio} | ${target} | ${verdict(met, measured ? `${what}: ${ratio} of the small size's` : `${what}: not measured at both sizes`)} |`;
}

async function main(): Promise<void> {
  if (!REPORT_ONLY) {
    await run(METERING.small);
    await run(METERING.large);
    if (BILL_RUN) {
      await run(BILL_RUNS.small);
      await run(BILL_RUNS.large);
    }
  }
  const m = { small: point<MeteringCurvePoint>(METERING.small), large: point<MeteringCurvePoint>(METERING.large) };
  const b = { small: point<BillRunCurvePoint>(BILL_RUNS.small), large: point<BillRunCurvePoint>(BILL_RUNS.large) };
  const size = (p: MeteringCurvePoint | undefined) => (p ? `${fmt(p.inPeriod)} events in the period (${p.date.slice(0, 16)}Z)` : 'not measured');
  const billSize = (p: BillRunCurvePoint | undefined, n: string) => (p ? `${n} subscriptions (${p.date.slice(0, 16)}Z)` : `${n}: not measured`);
  const lines = [
    '# Cost curves',
    '',
    ...environmentLines('PostgreSQL, the Temporal dev server, the API and the worker all run on it'),
    `- command: \`npx tsx bench/cost-curves.ts\`${BILL_RUN ? ' (BENCH_CURVE_BILL_RUN=1)' : ''}; the sizes' own reports: ${[...Object.values(METERING), ...Object.values(BILL_RUNS)].map((r) => `bench/results/${r.report}`).join(', ')}`,
    `- metering sizes: small ${size(m.small)}; large ${size(m.large)} (${fmt(LARGE_PRELOAD)} of them preloaded through SQL and rolled up before the run); summaries read afresh (USAGE_SUMMARY_CACHE_MS=0) at both sizes`,
    `- bill-run sizes: ${billSize(b.small, '1,000')}; ${billSize(b.large, '10,000')}`,
    '',
    '| measure | small size | large size | large / small | target | verdict |',
    '|---|---:|---:|---:|---|---|',
    sizeRow('batch ingestion (POST /v1/events/batch)', m.small?.batchPerSecond, m.large?.batchPerSecond, 'events/s', { atLeast: 1 - TOLERANCE.ingestion }),
    sizeRow('single events, closed loop (POST /v1/events)', m.small?.singlePerSecond, m.large?.singlePerSecond, 'req/s', { atLeast: 1 - TOLERANCE.ingestion }),
    sizeRow('raw INSERT baseline (the database alone)', m.small?.rawPerSecond, m.large?.rawPerSecond, 'rows/s'),
    sizeRow('usage summary p99, 8 clients, read afresh', m.small?.summaryP99Ms.eight, m.large?.summaryP99Ms.eight, 'ms', { atMost: 1 + TOLERANCE.summaryP99 }),
    sizeRow('usage summary p99, 1 client, read afresh', m.small?.summaryP99Ms.one, m.large?.summaryP99Ms.one, 'ms'),
    sizeRow('bill run, invoices finalized per second', b.small?.perSecond, b.large?.perSecond, '/s', { atLeast: 1 - TOLERANCE.billRun }),
    '',
    'Each size is one run of its benchmark on the same machine; figures move by up to ±25% between runs on this shared 2-core VM, so a curve is read from runs made back to back.',
    '',
  ];
  writeReport(results('cost-curves.md'), lines, log);
}

runBenchmark(main, log);
