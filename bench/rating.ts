/**
 * Rating throughput: PerUnit and 10-tier Graduated ratings per second through the public rateSku
 * (validation, parsing and the full RatedLine included; Graduated quantities reach the last tier),
 * against a bare bigint multiply loop as the machine's ceiling. Each case warms up, then runs
 * batches until ~2 s have elapsed. Writes bench/results/rating.md, then exits 1 if any target was
 * missed (so CI or a script can act on it; the results file is written either way).
 *
 *   npx tsx bench/rating.ts
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { ONE_UNIT, rateSku, type SkuPrice } from '../src/core/index.js';

const MEASURE_MS = 2_000;
const WARMUP_MS = 500;
const BATCH = 10_000;
const TARGETS: Record<string, number> = { PerUnit: 2_000_000, 'Graduated (10 tiers)': 500_000 };

interface Result {
  readonly name: string;
  readonly operations: number;
  readonly seconds: number;
  readonly perSecond: number;
}

let sink = 0n;

function run(name: string, batch: (offset: number) => bigint): Result {
  const warmupEnd = performance.now() + WARMUP_MS;
  let offset = 0;
  while (performance.now() < warmupEnd) sink ^= batch((offset += BATCH));
  let operations = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < MEASURE_MS) {
    sink ^= batch((offset += BATCH));
    operations += BATCH;
    elapsed = performance.now() - start;
  }
  const seconds = elapsed / 1000;
  return { name, operations, seconds, perSecond: operations / seconds };
}

const quantities = Array.from({ length: 1024 }, (_, i) => String(i * 977 + 1));
const quantityValues = quantities.map((q) => BigInt(q));
// Above the ninth bound (900,000), so every Graduated rating walks and details all 10 tiers.
const deepQuantities = quantityValues.map((q) => String(q + 900_000n));
const mask = quantities.length - 1;

const perUnit: SkuPrice = {
  sku_id: 'sku_api_calls',
  name: 'API calls',
  pricing_model: 'PerUnit',
  unit_amount_nanos: 100_000_000n, // 0.0001 per call
  currency: 'USD',
};

const graduated: SkuPrice = {
  sku_id: 'sku_tokens',
  name: 'Tokens',
  pricing_model: 'Graduated',
  unit_amount_nanos: 0n,
  currency: 'USD',
  tiers: Array.from({ length: 10 }, (_, i) => ({
    up_to: i === 9 ? null : BigInt((i + 1) * 100_000),
    unit_amount_nanos: ONE_UNIT / BigInt(100 * (i + 1)),
    ...(i % 3 === 1 ? { flat_amount_nanos: ONE_UNIT } : {}),
  })),
};

const results = [
  run('bigint multiply (baseline)', (offset) => {
    let acc = 0n;
    for (let i = 0; i < BATCH; i += 1) acc += (quantityValues[(offset + i) & mask] as bigint) * 100_000_000n;
    return acc;
  }),
  run('PerUnit', (offset) => {
    let acc = 0n;
    for (let i = 0; i < BATCH; i += 1) acc += rateSku(perUnit, quantities[(offset + i) & mask] as string).amount_nanos;
    return acc;
  }),
  run('Graduated (10 tiers)', (offset) => {
    let acc = 0n;
    for (let i = 0; i < BATCH; i += 1) acc += rateSku(graduated, deepQuantities[(offset + i) & mask] as string).amount_nanos;
    return acc;
  }),
];

const cpus = os.cpus();
const machine = `${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores`;
const format = (n: number): string => Math.round(n).toLocaleString('en-US');
const rows = results.map((r) => {
  const target = TARGETS[r.name];
  const verdict = target === undefined ? '—' : `${format(target)} ${r.perSecond >= target ? 'met' : 'MISSED'}`;
  return `| ${r.name} | ${format(r.perSecond)} | ${format(r.operations)} | ${r.seconds.toFixed(2)} | ${verdict} |`;
});
const report = [
  '# Rating benchmark',
  '',
  `- date: ${new Date().toISOString()}`,
  `- node: ${process.version}`,
  `- machine: ${machine}`,
  `- command: \`npx tsx bench/rating.ts\` (warm-up ${WARMUP_MS} ms, then ~${MEASURE_MS / 1000} s per case)`,
  '',
  '| case | ops/s | operations | seconds | target |',
  '|---|---:|---:|---:|---|',
  ...rows,
  '',
].join('\n');

writeFileSync(new URL('./results/rating.md', import.meta.url), report);
console.log(report);
if (sink === -1n) console.log('unreachable');

// A target whose case was renamed away counts as missed too, so a rename cannot hide a regression.
const missed = Object.entries(TARGETS).flatMap(([name, target]) => {
  const result = results.find((r) => r.name === name);
  return result === undefined || result.perSecond < target ? [`${name}: ${result === undefined ? 'not run' : format(result.perSecond)} < ${format(target)} ops/s`] : [];
});
if (missed.length > 0) {
  console.error(`MISSED ${missed.length} target(s):\n  ${missed.join('\n  ')}`);
  process.exitCode = 1;
}
