/**
 * Upcoming invoice benchmark: GET /v1/subscriptions/:id/upcoming-invoice of a subscription with
 * BENCH_EVENTS (1,000,000) usage events in its current period, through the real API process
 * (src/main.ts) over loopback on a fresh PostgreSQL database. The preview runs the period close and
 * finalization's amounts in a transaction it rolls back (see docs/api.md "Upcoming invoice").
 *
 * The subscription: a Flat fee, API calls per unit read through a meter (Sum of `calls`, filtered
 * on `region`) and storage graduated in two tiers (the event type's default aggregator), under a
 * 10% contract discount. Events are seeded with one SQL INSERT … SELECT FROM generate_series and
 * rolled up (runRollupPass) until the cursors reach the last event, as the product's scheduled
 * passes would; the events of the last hour are left to the raw tail the reads add.
 *
 * Then one client, back to back after a warm-up, BENCH_REQUESTS requests with a customer token (the
 * latency includes reading the JSON body). Target (issue 28): p99 ≤ 100 ms. Writes
 * bench/results/upcoming-invoice.md; MISSED and exit code 1 when the target is missed.
 *
 *   npx tsx bench/upcoming-invoice.ts
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres (server to create the bench database on)
 *   BENCH_EVENTS=1000000 BENCH_REQUESTS=300 BENCH_KEEP_DB=1 BENCH_RESULTS=<file>
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createDb } from '../src/db/client.js';
import { issueToken } from '../src/dev/secrets.js';
import { newId } from '../src/ids.js';
import { percentile } from './metering/load.js';
import { describeServer, startStack } from './metering/stack.js';
import { benchSubscription, rollUpAll } from './support/period-usage.js';
import { environmentLines, loadLine, runBenchmark, verdict, writeReport } from './support/report.js';
import { ONE_UNIT as UNIT } from '../src/core/index.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const STORAGE_EVENTS = 1_000;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const WARMUP = 10;
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const RESULTS_FILE = process.env.BENCH_RESULTS ? path.resolve(process.env.BENCH_RESULTS) : fileURLToPath(new URL('./results/upcoming-invoice.md', import.meta.url));
const TARGET_P99_MS = 100;
const DAY = 86_400_000;

const log = (line: string) => process.stdout.write(`[bench:upcoming-invoice] ${line}\n`);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => `${n.toFixed(1)} ms`;

interface Upcoming {
  invoice: { total_nanos: string; line_items: { description: string; quantity: string; amount_nanos: string }[] } | null;
}

async function main(): Promise<void> {
  log(`${fmt(EVENTS)} events in the period, ${REQUESTS} requests`);
  const loadBefore = os.loadavg();
  const stack = await startStack({ serverUrl: SERVER_URL, keepDatabase: process.env.BENCH_KEEP_DB === '1', log, name: 'upcoming' });
  const { db, pool } = createDb(stack.databaseUrl, 4);
  try {
    const server = await describeServer(stack.databaseUrl);
    const now = Date.now();
    const periodStart = new Date(now - 20 * DAY);
    const periodEnd = new Date(now + 10 * DAY);

    // Fixtures straight in the database: the preview needs the rows, not the subscription workflow.
    const { customerId, planId, subscriptionId } = await benchSubscription(db, { start: periodStart, end: periodEnd });
    await db.sku.createMany({
      data: [
        { id: newId(), planId, name: 'Platform fee', pricingModel: 'Flat', unitAmountNanos: (49n * UNIT).toString(), currency: 'USD' },
        { id: newId(), planId, name: 'API calls', pricingModel: 'PerUnit', unitAmountNanos: (UNIT / 1000n).toString(), meterEventType: 'api_calls', currency: 'USD' },
        {
          id: newId(),
          planId,
          name: 'Storage',
          pricingModel: 'Graduated',
          unitAmountNanos: '0',
          meterEventType: 'storage_gb',
          currency: 'USD',
          tiers: [
            { up_to: '500', unit_amount_nanos: (UNIT / 2n).toString() },
            { up_to: null, unit_amount_nanos: (UNIT / 5n).toString() },
          ],
        },
      ],
    });
    const admin = { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' };
    const post = async (route: string, body: unknown) => {
      const res = await fetch(`${stack.baseUrl}${route}`, { method: 'POST', headers: admin, body: JSON.stringify(body) });
      if (res.status !== 201) throw new Error(`POST ${route}: ${res.status} ${await res.text()}`);
      return (await res.json()) as { id: string };
    };
    await post('/admin/v1/meters', { name: 'Calls', event_type: 'api_calls', aggregation: 'Sum', property: 'calls', filters: [{ property: 'region', operator: 'In', value: ['eu', 'us'] }] });
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const contract = await post('/admin/v1/contracts', {
      customer_id: customerId,
      name: 'Bench contract',
      start_date: day(periodStart.getTime() - 40 * DAY),
      end_date: day(periodEnd.getTime() + 400 * DAY),
      discount_bps: 1000,
      terms: [{ phase: 1, start_date: day(periodStart.getTime() - 40 * DAY), end_date: day(periodEnd.getTime() + 400 * DAY), committed_amount_nanos: '0', description: 'only' }],
    });
    await post(`/admin/v1/contracts/${contract.id}/subscriptions`, { subscription_id: subscriptionId, adoption_type: 'PLG' });

    // The events: spread evenly over the period so far, the last ones a minute ago.
    log('seeding events');
    const spanMs = now - 60_000 - periodStart.getTime();
    const seed = async (count: number, eventType: string, properties: string) => {
      await pool.query(
        `INSERT INTO usage_events (id, event_type, customer_id, subscription_id, occurred_at, properties)
         SELECT $1 || g, $2, $3::uuid, $4::uuid, $5::timestamptz + (g * $6::double precision / $7) * interval '1 millisecond', ${properties}
         FROM generate_series(1, $7::int) g`,
        [`${eventType}-`, eventType, customerId, subscriptionId, periodStart.toISOString(), spanMs, count],
      );
    };
    const seeded = performance.now();
    await seed(EVENTS, 'api_calls', `jsonb_build_object('calls', 1 + g % 3, 'region', CASE WHEN g % 2 = 0 THEN 'eu' ELSE 'us' END)`);
    await seed(STORAGE_EVENTS, 'storage_gb', `jsonb_build_object('quantity', 1)`);
    await pool.query('ANALYZE usage_events');
    log(`seeded in ${((performance.now() - seeded) / 1000).toFixed(1)} s; rolling up`);
    const rollupSeconds = await rollUpAll(pool, log);

    const customerToken = await issueToken(stack.secrets.jwt_secret, { sub: customerId, scope: 'customer' }, 3600);
    const url = `${stack.baseUrl}/v1/subscriptions/${subscriptionId}/upcoming-invoice`;
    const headers = { authorization: `Bearer ${customerToken}` };
    const once = async (): Promise<[number, Upcoming]> => {
      const started = performance.now();
      const res = await fetch(url, { headers });
      const body = (await res.json()) as Upcoming;
      const elapsed = performance.now() - started;
      if (res.status !== 200) throw new Error(`upcoming invoice: ${res.status} ${JSON.stringify(body)}`);
      return [elapsed, body];
    };
    const [, check] = await once();
    const calls = check.invoice?.line_items.find((line) => line.description.endsWith('API calls'));
    const expectedCalls = (BigInt(EVENTS) / 3n) * 6n + [0n, 2n, 5n][EVENTS % 3]!; // Σ (1 + g mod 3) for g = 1..EVENTS
    if (calls?.quantity !== expectedCalls.toString()) throw new Error(`API calls quantity ${calls?.quantity}, expected ${expectedCalls}`);
    log(`upcoming invoice: total ${check.invoice!.total_nanos} raw units; ${check.invoice!.line_items.map((l) => `${l.description} × ${l.quantity}`).join('; ')}`);
    for (let i = 0; i < WARMUP; i += 1) await once();
    const latencies: number[] = [];
    const started = performance.now();
    for (let i = 0; i < REQUESTS; i += 1) latencies.push((await once())[0]);
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const [p50, p90, p99, max] = [percentile(latencies, 50), percentile(latencies, 90), percentile(latencies, 99), latencies.at(-1)!];
    log(`p50 ${ms(p50)}, p90 ${ms(p90)}, p99 ${ms(p99)}, max ${ms(max)} over ${REQUESTS} requests in ${seconds.toFixed(1)} s`);
    // Baseline in the same run: reading the subscription itself (one short statement), which shows
    // what one round trip through the API and PostgreSQL costs on the machine at this moment.
    const baseline: number[] = [];
    for (let i = 0; i < REQUESTS; i += 1) {
      const started = performance.now();
      const res = await fetch(`${stack.baseUrl}/v1/subscriptions/${subscriptionId}`, { headers });
      await res.arrayBuffer();
      baseline.push(performance.now() - started);
    }
    baseline.sort((a, b) => a - b);
    const [b50, b99] = [percentile(baseline, 50), percentile(baseline, 99)];
    log(`baseline GET /v1/subscriptions/:id: p50 ${ms(b50)}, p99 ${ms(b99)}`);
    const rowsLeft = await pool.query<{ invoices: string; audit: string }>('SELECT (SELECT count(*) FROM invoices)::text AS invoices, (SELECT count(*) FROM audit_log)::text AS audit');

    const lines = [
      '# Upcoming invoice benchmark',
      '',
      ...environmentLines('PostgreSQL and the API process on the same machine'),
      `- server: ${server}`,
      loadLine(loadBefore),
      `- command: \`npx tsx bench/upcoming-invoice.ts\` (BENCH_EVENTS=${EVENTS}, BENCH_REQUESTS=${REQUESTS})`,
      '',
      `One subscription, ${fmt(EVENTS)} \`api_calls\` events (a meter: Sum of \`calls\` filtered on \`region\`) and ${fmt(STORAGE_EVENTS)} \`storage_gb\` events`,
      '(graduated, two tiers) in its current period, a Flat fee and a 10% contract discount; the events seeded by SQL and rolled up',
      `(${rollupSeconds.toFixed(1)} s). One client, back to back after ${WARMUP} warm-up requests, with a customer token through the real API process;`,
      'each request runs the period close and finalization amounts in a transaction it rolls back.',
      '',
      '| requests | p50 | p90 | p99 | max | target |',
      '|---:|---:|---:|---:|---:|---|',
      `| ${REQUESTS} | ${ms(p50)} | ${ms(p90)} | ${ms(p99)} | ${ms(max)} | p99 ≤ ${TARGET_P99_MS} ms: ${verdict(p99 <= TARGET_P99_MS, `p99 ${ms(p99)} > ${TARGET_P99_MS} ms`)} |`,
      '',
      `Baseline in the same run, GET /v1/subscriptions/:id (one short statement) ${REQUESTS} times: p50 ${ms(b50)}, p99 ${ms(b99)}.`,
      '',
      `Rows after the run: ${rowsLeft.rows[0]!.invoices} invoices, ${rowsLeft.rows[0]!.audit} audit entries (the previews wrote none).`,
      `The preview: total ${check.invoice!.total_nanos} raw units; ${check.invoice!.line_items.map((l) => `${l.description} × ${l.quantity} = ${l.amount_nanos}`).join('; ')}.`,
      '',
    ];
    writeReport(RESULTS_FILE, lines, log);
  } finally {
    await db.$disconnect();
    await pool.end();
    await stack.stop();
  }
}

runBenchmark(main, log);
