/**
 * Reports benchmark: AR aging and MRR over BENCH_INVOICES invoices (with their ledger journals) and
 * BENCH_SUBSCRIPTIONS subscriptions, through the real API process (src/main.ts) on a fresh
 * PostgreSQL database. The data is seeded with SQL bulk inserts (unnest of arrays, a transaction per
 * 1,000 customers, the guard triggers off while seeding: the journals are built balanced):
 *
 *   - one customer per subscription (10% in EUR), four plans (Monthly 50 and 120, Quarterly 300,
 *     Annual 1,200), subscriptions Active / Trialing / Cancelled / Paused / PastDue, 15% with a plan
 *     change (two phases);
 *   - invoices spread over the ten months before the as-of date, 30-day terms: most paid, some open,
 *     some partly paid, 2% voided; each with the journals the product posts (finalization, payment,
 *     void reversal) on the customer's accounts_receivable, revenue and cash accounts.
 *
 * Then, one client back to back (after a warm-up), BENCH_REQUESTS requests of each report with no
 * filter (every customer; the latency includes reading the whole JSON body) and of AR aging for one
 * customer. Target (the issue): p99 ≤ 500 ms for AR aging and MRR. Writes bench/results/reports.md.
 *
 *   npx tsx bench/reports.ts
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres (server to create the bench database on)
 *   BENCH_INVOICES=100000 BENCH_SUBSCRIPTIONS=10000 BENCH_REQUESTS=100 BENCH_KEEP_DB=1 BENCH_RESULTS=<file>
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { poolReader } from '../src/db/client.js';
import { arAging, ledgerBalancesAsOf, mrrAsOf } from '../src/db/reports.js';
import { newId } from '../src/ids.js';
import { percentile } from './metering/load.js';
import { describeServer, startStack } from './metering/stack.js';
import { Columns, insertSeeding } from './support/columns.js';
import { environmentLines, loadLine, runBenchmark, verdict, writeReport } from './support/report.js';
import { ONE_UNIT as UNIT } from '../src/core/index.js';

const INVOICES = Number(process.env.BENCH_INVOICES ?? 100_000);
const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100);
const WARMUP = 5;
const BATCH_CUSTOMERS = 1_000;
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const RESULTS_FILE = process.env.BENCH_RESULTS ? path.resolve(process.env.BENCH_RESULTS) : fileURLToPath(new URL('./results/reports.md', import.meta.url));
const TARGET_P99_MS = 500;
const AS_OF = '2026-06-30T00:00:00.000Z';
const DAY_MS = 86_400_000;

const log = (line: string) => process.stdout.write(`[bench:reports] ${line}\n`);
const fmt = (n: number) => n.toLocaleString('en-US');

/** Seeded, so every run seeds the same data. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Plan {
  id: string;
  cadence: 'Monthly' | 'Quarterly' | 'Annual';
  fee: bigint;
}

async function seed(pool: pg.Pool, plans: Plan[]): Promise<{ invoices: number; journals: number; entries: number; phases: number }> {
  const rand = random(20261124);
  const asOfMs = Date.parse(AS_OF);
  const invoicesPerCustomer = INVOICES / SUBSCRIPTIONS;
  let invoiceCount = 0;
  let journalCount = 0;
  let entryCount = 0;
  let phaseCount = 0;
  let invoiceNumber = 0;
  const started = performance.now();
  // The receivable items are part of what a posting writes: their trigger fires in replica mode too while seeding.
  await pool.query('ALTER TABLE ledger_entries ENABLE ALWAYS TRIGGER ledger_entries_receivable_items');
  for (let first = 0; first < SUBSCRIPTIONS; first += BATCH_CUSTOMERS) {
    const customers = new Columns('customers', [['id', 'uuid'], ['display_name', 'text'], ['email', 'text'], ['account_type', '"AccountType"'], ['billing_currency', 'text'], ['updated_at', 'timestamptz']]);
    const subscriptions = new Columns('subscriptions', [
      ['id', 'uuid'], ['customer_id', 'uuid'], ['plan_id', 'uuid'], ['currency', 'text'], ['status', '"SubscriptionStatus"'], ['trial_end', 'timestamptz'],
      ['period_start', 'timestamptz'], ['period_end', 'timestamptz'], ['billing_anchor', 'timestamptz'], ['cancelled_at', 'timestamptz'], ['paused_at', 'timestamptz'],
      ['workflow_started_at', 'timestamptz'], ['updated_at', 'timestamptz'],
    ]);
    const phases = new Columns('subscription_phases', [['id', 'uuid'], ['subscription_id', 'uuid'], ['plan_id', 'uuid'], ['starts_at', 'timestamptz'], ['ends_at', 'timestamptz']]);
    const invoices = new Columns('invoices', [
      ['id', 'uuid'], ['customer_id', 'uuid'], ['subscription_id', 'uuid'], ['currency', 'text'], ['status', '"InvoiceStatus"'], ['invoice_number', 'text'],
      ['billing_reason', 'text'], ['subtotal_nanos', 'numeric'], ['total_nanos', 'numeric'], ['due_at', 'timestamptz'], ['finalized_at', 'timestamptz'],
      ['paid_at', 'timestamptz'], ['voided_at', 'timestamptz'], ['updated_at', 'timestamptz'],
    ]);
    const accounts = new Columns('ledger_accounts', [['id', 'uuid'], ['customer_id', 'uuid'], ['currency', 'text'], ['kind', '"LedgerAccountKind"']]);
    const journals = new Columns('ledger_journals', [
      ['id', 'uuid'], ['customer_id', 'uuid'], ['currency', 'text'], ['kind', 'text'], ['business_key', 'text'], ['source_type', 'text'], ['source_id', 'uuid'],
      ['invoice_id', 'uuid'], ['reverses_journal_id', 'uuid'], ['description', 'text'], ['effective_at', 'timestamptz'],
    ]);
    const entries = new Columns('ledger_entries', [['id', 'uuid'], ['journal_id', 'uuid'], ['account_id', 'uuid'], ['side', '"LedgerSide"'], ['amount_nanos', 'numeric'], ['effective_at', 'timestamptz']]);
    const now = new Date();

    for (let n = first; n < Math.min(first + BATCH_CUSTOMERS, SUBSCRIPTIONS); n += 1) {
      const customerId = newId();
      const currency = n % 10 === 9 ? 'EUR' : 'USD';
      customers.push(customerId, `Bench customer ${n}`, `bench+${n}@example.com`, 'Organization', currency, now);
      const account = { ar: newId(), revenue: newId(), cash: newId() };
      accounts.push(account.ar, customerId, currency, 'accounts_receivable');
      accounts.push(account.revenue, customerId, currency, 'revenue');
      accounts.push(account.cash, customerId, currency, 'cash');

      // The subscription: started up to a year before the as-of date.
      const r = rand();
      const plan = r < 0.5 ? plans[0]! : r < 0.7 ? plans[1]! : r < 0.9 ? plans[3]! : plans[2]!;
      const startMs = asOfMs - Math.floor(rand() * 365) * DAY_MS;
      const s = rand();
      const status = s < 0.8 ? 'Active' : s < 0.85 ? 'Trialing' : s < 0.93 ? 'Cancelled' : s < 0.97 ? 'Paused' : 'PastDue';
      const at = (ms: number) => new Date(ms);
      const subscriptionId = newId();
      const trialEnd = status === 'Trialing' ? at(asOfMs + 7 * DAY_MS) : null;
      const stoppedAt = at(Math.min(asOfMs - DAY_MS, startMs + Math.floor(rand() * 200) * DAY_MS));
      subscriptions.push(
        subscriptionId, customerId, plan.id, currency, status, trialEnd, at(startMs), at(startMs + 30 * DAY_MS), at(startMs),
        status === 'Cancelled' ? stoppedAt : null, status === 'Paused' ? stoppedAt : null, now, now,
      );
      if (rand() < 0.15) {
        const changeMs = startMs + Math.floor((asOfMs - startMs) / 2);
        const other = plans[(plans.indexOf(plan) + 1) % plans.length]!;
        phases.push(newId(), subscriptionId, other.id, at(startMs), at(changeMs));
        phases.push(newId(), subscriptionId, plan.id, at(changeMs), null);
      } else {
        phases.push(newId(), subscriptionId, plan.id, at(startMs), null);
      }

      // Its invoices over the ten months before the as-of date, and their journals.
      for (let k = 0; k < invoicesPerCustomer; k += 1) {
        const invoiceId = newId();
        const finalizedMs = asOfMs - (k * 30 + 1 + Math.floor(rand() * 29)) * DAY_MS;
        const total = (BigInt(10 + Math.floor(rand() * 490)) * UNIT);
        const v = rand();
        const voided = v < 0.02;
        const open = !voided && (k < 2 ? v < 0.7 : k < 4 ? v < 0.2 : v < 0.05);
        const partial = open && rand() < 0.25;
        const paidMs = finalizedMs + Math.floor(rand() * 20) * DAY_MS + DAY_MS;
        const status = voided ? 'Void' : open ? 'Open' : 'Paid';
        invoiceNumber += 1;
        invoices.push(
          invoiceId, customerId, subscriptionId, currency, status, `BENCH-${String(invoiceNumber).padStart(7, '0')}`, 'subscription_cycle', total.toString(), total.toString(),
          at(finalizedMs + 30 * DAY_MS), at(finalizedMs), status === 'Paid' ? at(paidMs) : null, voided ? at(paidMs) : null, now,
        );
        const journal = (kind: string, key: string, effectiveMs: number, moves: [string, 'debit' | 'credit', bigint][], reverses: string | null = null) => {
          const id = newId();
          journals.push(id, customerId, currency, kind, key, 'invoice', invoiceId, invoiceId, reverses, `${kind} ${invoiceNumber}`, at(effectiveMs));
          for (const [accountId, side, amount] of moves) entries.push(newId(), id, accountId, side, amount.toString(), at(effectiveMs));
          return id;
        };
        const finalized = journal('invoice_finalized', `invoice_finalized:${invoiceId}`, finalizedMs, [[account.ar, 'debit', total], [account.revenue, 'credit', total]]);
        if (voided) {
          journal('invoice_voided', `reversal:${finalized}`, paidMs, [[account.ar, 'credit', total], [account.revenue, 'debit', total]], finalized);
        } else if (!open || partial) {
          const paid = partial ? total / 3n : total;
          journal('payment_collected', `payment_collected:${invoiceId}`, paidMs, [[account.cash, 'debit', paid], [account.ar, 'credit', paid]]);
        }
      }
    }

    // Seeding only: the database's guard triggers (invoices move Draft → Open → Paid/Void, each journal
    // balances at commit) are off in this transaction; the journals built above balance, and the
    // aging total is checked against the ledger before anything is timed. The trigger that keeps the
    // receivable items with the entries stays on (seed() enables it in every mode).
    await insertSeeding(pool, [customers, subscriptions, phases, invoices, accounts, journals, entries]);
    invoiceCount += invoices.size;
    journalCount += journals.size;
    entryCount += entries.size;
    phaseCount += phases.size;
    const seconds = (performance.now() - started) / 1000;
    log(`seeded ${fmt(first + customers.size)}/${fmt(SUBSCRIPTIONS)} customers and subscriptions, ${fmt(invoiceCount)}/${fmt(INVOICES)} invoices, ${fmt(journalCount)} journals (${seconds.toFixed(0)} s)`);
  }
  await pool.query('ALTER TABLE ledger_entries ENABLE TRIGGER ledger_entries_receivable_items');
  const client = await pool.connect();
  try {
    await client.query('VACUUM (ANALYZE)');
  } finally {
    client.release();
  }
  return { invoices: invoiceCount, journals: journalCount, entries: entryCount, phases: phaseCount };
}

interface Latency {
  label: string;
  path: string;
  p50: number;
  p99: number;
  max: number;
  /** Bytes of the body (a request) or rows read (SQL). */
  size: number;
}

/** Times `once` (which returns how much it read: bytes or rows) back to back after a warm-up. */
async function timed(label: string, once: () => Promise<number>): Promise<Omit<Latency, 'path'>> {
  for (let i = 0; i < WARMUP; i += 1) await once();
  const times: number[] = [];
  let size = 0;
  const progress = setInterval(() => log(`${label}: ${times.length}/${REQUESTS}`), 5_000);
  try {
    for (let i = 0; i < REQUESTS; i += 1) {
      const started = performance.now();
      size = await once();
      times.push(performance.now() - started);
    }
  } finally {
    clearInterval(progress);
  }
  times.sort((a, b) => a - b);
  const result = { label, p50: percentile(times, 50), p99: percentile(times, 99), max: times[times.length - 1]!, size };
  log(`${label}: p50 ${result.p50.toFixed(0)} ms, p99 ${result.p99.toFixed(0)} ms, max ${result.max.toFixed(0)} ms (${fmt(size)} read)`);
  return result;
}

/** A report through the API: request sent → whole body read. */
async function measure(baseUrl: string, token: string, label: string, pathAndQuery: string): Promise<Latency> {
  const result = await timed(label, async () => {
    const res = await fetch(`${baseUrl}${pathAndQuery}`, { headers: { Authorization: `Bearer ${token}` } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${pathAndQuery} answered ${res.status}: ${body.slice(0, 500)}`);
    return body.length;
  });
  return { ...result, path: pathAndQuery };
}

async function main(): Promise<void> {
  log(`reports benchmark: ${fmt(INVOICES)} invoices, ${fmt(SUBSCRIPTIONS)} subscriptions, ${REQUESTS} requests per report`);
  const loadBefore = os.loadavg();
  const stack = await startStack({ serverUrl: SERVER_URL, keepDatabase: process.env.BENCH_KEEP_DB === '1', log, name: 'reports' });
  const pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
  try {
    const server = await describeServer(stack.databaseUrl);
    const plans: Plan[] = [
      { id: newId(), cadence: 'Monthly', fee: 50n * UNIT },
      { id: newId(), cadence: 'Monthly', fee: 120n * UNIT },
      { id: newId(), cadence: 'Annual', fee: 1200n * UNIT },
      { id: newId(), cadence: 'Quarterly', fee: 300n * UNIT },
    ];
    for (const [i, plan] of plans.entries()) {
      await pool.query(`INSERT INTO plans (id, name, billing_cadence) VALUES ($1, $2, $3)`, [plan.id, `Bench plan ${i}`, plan.cadence]);
      for (const currency of ['USD', 'EUR']) {
        await pool.query(`INSERT INTO skus (id, plan_id, name, pricing_model, unit_amount_nanos, currency) VALUES ($1, $2, 'Base fee', 'Flat', $3, $4)`, [newId(), plan.id, plan.fee.toString(), currency]);
        await pool.query(`INSERT INTO skus (id, plan_id, name, pricing_model, unit_amount_nanos, meter_event_type, currency) VALUES ($1, $2, 'API calls', 'PerUnit', 10000000000, 'api_calls', $3)`, [newId(), plan.id, currency]);
      }
    }
    const seedStarted = performance.now();
    const seeded = await seed(pool, plans);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    log(`seeded in ${seedSeconds.toFixed(0)} s: ${fmt(seeded.invoices)} invoices, ${fmt(seeded.journals)} journals, ${fmt(seeded.entries)} entries, ${fmt(seeded.phases)} plan phases`);

    // The figures tie out before they are timed.
    const aging = (await (await fetch(`${stack.baseUrl}/admin/v1/reports/ar-aging?as_of=${AS_OF}`, { headers: { Authorization: `Bearer ${stack.adminToken}` } })).json()) as {
      rows: unknown[];
      totals: { currency: string; total_nanos: string; ledger_accounts_receivable_nanos: string }[];
    };
    for (const t of aging.totals) if (t.total_nanos !== t.ledger_accounts_receivable_nanos) throw new Error(`AR aging ${t.currency} ${t.total_nanos} ≠ ledger ${t.ledger_accounts_receivable_nanos}`);
    const oneCustomer = (await pool.query<{ id: string }>(`SELECT customer_id::text AS id FROM invoices WHERE status = 'Open' LIMIT 1`)).rows[0]!.id;

    const results = [
      await measure(stack.baseUrl, stack.adminToken, 'AR aging, every customer', `/admin/v1/reports/ar-aging?as_of=${AS_OF}`),
      await measure(stack.baseUrl, stack.adminToken, 'MRR, every customer', `/admin/v1/reports/mrr?as_of=${AS_OF}`),
      await measure(stack.baseUrl, stack.adminToken, 'AR aging, one customer', `/admin/v1/reports/ar-aging?as_of=${AS_OF}&customer_id=${oneCustomer}`),
      await measure(stack.baseUrl, stack.adminToken, 'MRR movements (a quarter), every customer', `/admin/v1/reports/mrr-movements?from=2026-03-31T00:00:00Z&to=${AS_OF}`),
      await measure(stack.baseUrl, stack.adminToken, 'AR aging as CSV, every customer', `/admin/v1/reports/ar-aging?as_of=${AS_OF}&format=csv`),
    ];
    // The same reports' SQL alone (run here on the bench's pool, rows read into the repository's rows):
    // what the API adds on top is building, serialising and sending the JSON.
    const read = poolReader(pool);
    const everyone = { customerId: null, currency: null };
    const asOf = new Date(AS_OF);
    const sql = [
      await timed('AR aging SQL', async () => (await Promise.all([arAging(read, asOf, everyone), ledgerBalancesAsOf(read, 'accounts_receivable', asOf, everyone)]))[0].length),
      await timed('MRR SQL', async () => (await mrrAsOf(read, asOf, everyone)).length),
    ];
    const targeted = results.slice(0, 2);
    const met = targeted.every((r) => r.p99 <= TARGET_P99_MS);
    const lines = [
      '# Reports benchmark',
      '',
      ...environmentLines('the API process, PostgreSQL and this benchmark on the same machine'),
      `- PostgreSQL: ${server}`,
      loadLine(loadBefore),
      `- command: \`npx tsx bench/reports.ts\` (BENCH_INVOICES=${INVOICES}, BENCH_SUBSCRIPTIONS=${SUBSCRIPTIONS}, BENCH_REQUESTS=${REQUESTS})`,
      `- data: ${fmt(SUBSCRIPTIONS)} customers and subscriptions (${fmt(seeded.phases)} plan phases), ${fmt(seeded.invoices)} invoices with ${fmt(seeded.journals)} ledger journals and ${fmt(seeded.entries)} entries, seeded with SQL bulk inserts in ${seedSeconds.toFixed(0)} s; reports as of ${AS_OF}; AR aging totals equal the ledger's receivable (${aging.rows.length} customer rows)`,
      `- method: the real API process over loopback, one client back to back, ${WARMUP} warm-up requests then ${REQUESTS} timed requests per report; latency = request sent → whole body read`,
      '',
      '| report | p50 ms | p99 ms | max ms | body bytes | target |',
      '|---|---:|---:|---:|---:|---|',
      ...results.map((r, i) => `| ${r.label} | ${r.p50.toFixed(0)} | ${r.p99.toFixed(0)} | ${r.max.toFixed(0)} | ${fmt(r.size)} | ${i < 2 ? `p99 ≤ ${TARGET_P99_MS} ms ${verdict(r.p99 <= TARGET_P99_MS, `${r.label} p99 ${r.p99.toFixed(0)} ms`)}` : '—'} |`),
      '',
      `Where the time of the two targeted reports goes: their SQL alone, from this process on its own pool (AR aging: the aging query and the ledger's receivable, concurrently), ${REQUESTS} runs each after ${WARMUP} warm-up runs; the rest of the API's latency is building, serialising and sending the body.`,
      '',
      '| SQL of | p50 ms | p99 ms | max ms | rows |',
      '|---|---:|---:|---:|---:|',
      ...sql.map((r) => `| ${r.label.replace(' SQL', '')} | ${r.p50.toFixed(0)} | ${r.p99.toFixed(0)} | ${r.max.toFixed(0)} | ${fmt(r.size)} |`),
      '',
      `Target (AR aging and MRR over ${fmt(INVOICES)} invoices and ${fmt(SUBSCRIPTIONS)} subscriptions, p99 ≤ ${TARGET_P99_MS} ms): ${met ? 'met' : '**MISSED**'}.`,
      '',
    ];
    writeReport(RESULTS_FILE, lines, log);
  } finally {
    await pool.end();
    await stack.stop();
  }
}

runBenchmark(main, log);
