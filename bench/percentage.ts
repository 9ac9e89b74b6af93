/**
 * Percentage pricing at the period close: the one statement that sums the per-event fees of every
 * Percentage SKU of a plan (src/db/metering/percentage-fees.ts), over one customer's month of
 * BENCH_EVENTS payment events, against the database's own floor for reading them: three plain
 * sums of usage_numeric(amount) in one pass over the same events (one per SKU, no fee arithmetic).
 * Three SKUs (2.9% + 0.30 with a minimum and a maximum, 1.5%, 0.5% + 0.10) are summed by one
 * statement, as a close does.
 * Target: the fee statement within 3 × that floor (the exact per-event fee and its clamps are what
 * it adds: the events are read once, never one round trip per event).
 * Writes bench/results/percentage.md (BENCH_RESULTS elsewhere); exits 1 when the target is missed.
 *
 *   npx tsx bench/percentage.ts
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres BENCH_EVENTS=200000 BENCH_RUNS=5
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb } from '../src/db/client.js';
import { percentageFeeSums, type PercentageFeeSpec } from '../src/db/metering/percentage-fees.js';
import { newId } from '../src/ids.js';
import { ONE_UNIT } from '../src/core/index.js';
import { benchDatabase, Teardown } from './support/lifecycle.js';
import { endRun, environmentLines, loadLine, verdict, writeReport } from './support/report.js';

const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const RESULTS = process.env.BENCH_RESULTS ?? path.join(path.dirname(fileURLToPath(import.meta.url)), 'results/percentage.md');
const TARGET_RATIO = 3;
const CENT = ONE_UNIT / 100n;

const log = (line: string): void => {
  process.stdout.write(`[percentage] ${line}\n`);
};

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function timed(run: () => Promise<unknown>): Promise<number[]> {
  await run(); // warm the cache and the plan
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return times;
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg();
  const teardown = new Teardown(log);
  try {
    const databaseUrl = await benchDatabase(SERVER_URL, 'percentage', teardown);
    const { db, pool } = createDb(databaseUrl, 2);
    teardown.push(() => pool.end());
    const customerId = newId();
    await db.customer.create({ data: { id: customerId, displayName: 'Bench payments', email: 'bench@example.com', accountType: 'Organization', billingCurrency: 'USD' } });
    // Amounts 0.01 … 2,000.00 spread over January; a few without an amount or negative (not charged).
    await pool.query(
      `INSERT INTO usage_events (id, event_type, customer_id, subscription_id, occurred_at, properties)
       SELECT 'pay-' || g, 'payment', $1::uuid, NULL, '2026-01-01T00:00:00Z'::timestamptz + (g % 2678400) * interval '1 second',
              CASE WHEN g % 97 = 0 THEN '{"note": "refund"}'::jsonb
                   WHEN g % 89 = 0 THEN jsonb_build_object('amount', -((g % 5000) + 1) / 100.0)
                   ELSE jsonb_build_object('amount', ((g * 7919) % 200000 + 1) / 100.0) END
       FROM generate_series(1, $2::int) g`,
      [customerId, EVENTS],
    );
    await pool.query('ANALYZE usage_events');
    log(`${EVENTS} payment events stored`);

    const specs: PercentageFeeSpec[] = [
      { skuId: 'cards', eventType: 'payment', property: 'amount', basisPoints: 290, feeNanos: 30n * CENT, minimumNanos: 50n * CENT, maximumNanos: 10n * ONE_UNIT },
      { skuId: 'wallets', eventType: 'payment', property: 'amount', basisPoints: 150, feeNanos: 0n, minimumNanos: null, maximumNanos: null },
      { skuId: 'bank', eventType: 'payment', property: 'amount', basisPoints: 50, feeNanos: 10n * CENT, minimumNanos: null, maximumNanos: 5n * ONE_UNIT },
    ];
    const scope = { customerId, subscriptionId: newId() };
    const from = new Date('2026-01-01T00:00:00Z');
    const to = new Date('2026-02-01T00:00:00Z');
    let sums = new Map<string, string>();
    const feeTimes = await timed(async () => {
      sums = await percentageFeeSums(db, specs, scope, from, to);
    });
    const plainTimes = await timed(() =>
      pool.query(
        `SELECT sum(v)::text, sum(v) FILTER (WHERE v > 1)::text, sum(v) FILTER (WHERE v > 2)::text
         FROM (SELECT usage_numeric(e.properties -> 'amount') AS v FROM usage_events e
               WHERE e.customer_id = $1::uuid AND (e.subscription_id = $2::uuid OR e.subscription_id IS NULL)
                 AND e.event_type = 'payment' AND e.occurred_at >= $3 AND e.occurred_at < $4 OFFSET 0) x`,
        [customerId, scope.subscriptionId, from, to],
      ),
    );
    const fee = median(feeTimes);
    const plain = median(plainTimes);
    const ratio = fee / plain;
    const met = ratio <= TARGET_RATIO;
    const lines = [
      '# Percentage pricing benchmark',
      '',
      ...environmentLines('PostgreSQL 15 of the machine (`BENCH_DATABASE_URL`), a fresh migrated database'),
      loadLine(loadBefore),
      `- command: \`npx tsx bench/percentage.ts\` (BENCH_EVENTS=${EVENTS}, median of ${RUNS} runs after one warm-up)`,
      '',
      '| statement | median ms | runs (ms) |',
      '|---|---:|---|',
      `| Percentage fees of 3 SKUs, one statement (${EVENTS} events) | ${fee.toFixed(1)} | ${feeTimes.map((t) => t.toFixed(1)).join(', ')} |`,
      `| 3 plain sums of the amounts, one pass (the floor) | ${plain.toFixed(1)} | ${plainTimes.map((t) => t.toFixed(1)).join(', ')} |`,
      '',
      `- fee statement / plain sum: ${ratio.toFixed(2)} × — target ≤ ${TARGET_RATIO} ×: ${verdict(met, `${ratio.toFixed(2)} × > ${TARGET_RATIO} ×`)}`,
      `- sums (fee × 10^4, raw units): ${[...sums].map(([sku, value]) => `${sku} ${value}`).join(', ')}`,
      '',
    ];
    writeReport(RESULTS, lines, log);
  } finally {
    await teardown.run();
  }
}

main().then(
  () => process.exit(endRun()),
  (err: unknown) => {
    log(`failed: ${(err as Error).stack ?? String(err)}`);
    process.exit(1);
  },
);
