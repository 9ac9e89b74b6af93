/**
 * What per-dimension-value rollups add to the rollup pass (the asynchronous half of ingestion): the
 * same BENCH_EVENTS events (bench/metering.ts's synthetic events) rolled up from scratch by the 7
 * meters of bench/metering.ts alone, then with the dimension series of its 2 dimensional SKUs
 * (Requests by model, Large-model tokens by region), alternately BENCH_ROUNDS times each, on a fresh
 * database. Informational (no target): prints a table to paste into bench/results/dimension-rollups.md.
 *
 *   npx tsx bench/dimension-rollups.ts   # BENCH_EVENTS=200000 BENCH_ROUNDS=3 BENCH_DATABASE_URL=…
 */
import os from 'node:os';
import { createDb } from '../src/db/client.js';
import { meterSpec, type AggregatorSpec, type GroupedMeterSpec } from '../src/db/metering/aggregators.js';
import { rollUpUsage } from '../src/db/metering/rollups.js';
import { newId } from '../src/ids.js';
import { rawInserts, syntheticEvent, type EventShape } from './metering/load.js';
import { benchDatabase, Teardown } from './support/lifecycle.js';
import { runBenchmark } from './support/report.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const EVENT_TYPE = 'tokens_used';
const DAY = 86_400_000;
const log = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

const meter = (aggregation: string, property: string | null, filters: unknown[] = []) =>
  meterSpec({ id: newId(), eventType: EVENT_TYPE, aggregation: aggregation as never, property, filters }) as AggregatorSpec & { kind: 'meter' };

async function main(): Promise<void> {
  const teardown = new Teardown(log);
  try {
    const databaseUrl = await benchDatabase(SERVER_URL, 'dimension_rollups', teardown);
    const { db, pool } = createDb(databaseUrl, 4);
    teardown.push(async () => {
      await db.$disconnect();
      await pool.end();
    });
    const customerId = newId();
    await db.customer.create({ data: { id: customerId, displayName: 'bench rollups', email: 'bench+rollups@example.com', accountType: 'Organization', billingCurrency: 'USD' } });
    const planId = newId();
    await db.plan.create({ data: { id: planId, name: 'Bench rollups', billingCadence: 'Monthly' } });
    const subscriptionId = newId();
    const now = Date.now();
    const periodStart = new Date(now - 29 * DAY);
    await db.subscription.create({ data: { id: subscriptionId, customerId, planId, currency: 'USD', status: 'Active', periodStart, periodEnd: new Date(now + DAY), billingAnchor: periodStart } });
    const span = { fromMs: periodStart.getTime(), toMs: now - 2 * 60_000 };
    const batches: EventShape[][] = Array.from({ length: Math.ceil(EVENTS / 1000) }, (_, i) =>
      Array.from({ length: Math.min(1000, EVENTS - i * 1000) }, (_, j) => syntheticEvent(i * 1000 + j, EVENTS, { prefix: 'r', eventType: EVENT_TYPE, customerId, subscriptionId, ...span })),
    );
    await rawInserts(pool, batches, 4, log);
    await pool.query('VACUUM ANALYZE usage_events');

    const requests = meter('Count', null);
    const largeTokens = meter('Sum', 'tokens', [{ property: 'model', operator: 'In', value: ['m-large', 'm-xl'] }]);
    const specs = [meter('Sum', 'tokens'), requests, meter('Max', 'tokens'), meter('UniqueCount', 'model'), meter('LATEST', 'tokens'), meter('WEIGHTED_SUM', 'tokens'), largeTokens];
    const groups: GroupedMeterSpec[] = [
      { spec: requests, groupBy: ['model'] },
      { spec: largeTokens, groupBy: ['region'] },
    ];
    const times: Record<'meters' | 'with dimensions', number[]> = { meters: [], 'with dimensions': [] };
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const mode of ['meters', 'with dimensions'] as const) {
        await pool.query('TRUNCATE usage_rollups, usage_rollup_values, usage_dimension_rollups, usage_dimension_rollup_values, usage_rollup_cursors');
        await pool.query('CHECKPOINT');
        const started = performance.now();
        await rollUpUsage(pool, specs, {}, mode === 'meters' ? [] : groups);
        const seconds = (performance.now() - started) / 1000;
        times[mode].push(seconds);
        log(`round ${round + 1}, ${mode}: ${seconds.toFixed(2)} s (${Math.round(EVENTS / seconds).toLocaleString('en-US')} events/s)`);
      }
    }
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
    const [plain, grouped] = [median(times.meters), median(times['with dimensions'])];
    const lines = [
      `| rollup pass from scratch over ${EVENTS.toLocaleString('en-US')} events | median of ${ROUNDS} | every round |`,
      '|---|---:|---|',
      `| 7 meters | ${plain.toFixed(2)} s | ${times.meters.map((t) => t.toFixed(2)).join(', ')} |`,
      `| 7 meters + 2 dimension series | ${grouped.toFixed(2)} s (× ${(grouped / plain).toFixed(2)}) | ${times['with dimensions'].map((t) => t.toFixed(2)).join(', ')} |`,
      '',
      `machine load average after the run: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`,
    ];
    process.stdout.write(`\n${lines.join('\n')}\n`);
  } finally {
    await teardown.run();
  }
}

runBenchmark(main, log);
