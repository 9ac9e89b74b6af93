/**
 * Load generation for the metering benchmark: the synthetic events, a keep-alive HTTP driver for
 * batches (bodies built before the clock starts), the raw-PostgreSQL baselines on the same rows,
 * and autocannon runs with a progress line every few seconds.
 */
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';

export const MODELS = ['m-small', 'm-medium', 'm-large', 'm-xl', 'm-code', 'm-embed', 'm-vision', 'm-audio'];
export const REGIONS = ['eu', 'us', 'apac'];

export interface EventShape {
  id: string;
  event_type: string;
  customer_id: string;
  subscription_id: string;
  timestamp: string;
  properties: { tokens: string; model: string; region: string };
}

/** Event n of a run: timestamps spread evenly over [fromMs, toMs), in arrival order. */
export function syntheticEvent(n: number, total: number, target: { prefix: string; eventType: string; customerId: string; subscriptionId: string; fromMs: number; toMs: number }): EventShape {
  return {
    id: `${target.prefix}-${n}`,
    event_type: target.eventType,
    customer_id: target.customerId,
    subscription_id: target.subscriptionId,
    timestamp: new Date(target.fromMs + Math.floor(((target.toMs - target.fromMs) * n) / total)).toISOString(),
    properties: { tokens: `${(n * 7919) % 5000}.${String(n % 100).padStart(2, '0')}`, model: MODELS[n % MODELS.length]!, region: REGIONS[n % REGIONS.length]! },
  };
}

/**
 * Inserts `count` events of the same shape as syntheticEvent (prefix `preload`) straight into
 * usage_events, in statements of `chunk` rows built by PostgreSQL itself (generate_series): the
 * table size a cost curve measures ingestion and summaries at, without sending them through the API.
 */
export async function preloadEvents(
  pool: pg.Pool,
  count: number,
  target: { eventType: string; customerId: string; subscriptionId: string; fromMs: number; toMs: number },
  log: (line: string) => void,
  chunk = 500_000,
): Promise<number> {
  const started = performance.now();
  for (let first = 0; first < count; first += chunk) {
    const last = Math.min(count, first + chunk) - 1;
    await pool.query(
      `INSERT INTO usage_events (id, event_type, customer_id, subscription_id, occurred_at, properties)
       SELECT 'preload-' || g, $1, $2::uuid, $3::uuid,
              to_timestamp(0) + (($4::bigint + ($5::bigint - $4::bigint) * g / $6::bigint) * interval '1 millisecond'),
              jsonb_build_object('tokens', ((g * 7919) % 5000)::text || '.' || lpad((g % 100)::text, 2, '0'),
                                 'model', ($7::text[])[1 + g % cardinality($7::text[])],
                                 'region', ($8::text[])[1 + g % cardinality($8::text[])])
       FROM generate_series($9::bigint, $10::bigint) AS g`,
      [target.eventType, target.customerId, target.subscriptionId, target.fromMs, target.toMs, count, MODELS, REGIONS, first, last],
    );
    log(`preloaded ${(last + 1).toLocaleString('en-US')} of ${count.toLocaleString('en-US')} events`);
  }
  await pool.query('ANALYZE usage_events');
  return (performance.now() - started) / 1000;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export interface ThroughputResult {
  events: number;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** Runs `jobs` with `concurrency` workers, reporting progress; each job returns how many events it carried. */
async function drive(
  label: string,
  count: number,
  concurrency: number,
  eventsPerJob: number,
  job: (index: number) => Promise<void>,
  log: (line: string) => void,
): Promise<ThroughputResult> {
  const latencies: number[] = [];
  let next = 0;
  let done = 0;
  const started = performance.now();
  let lastReport = started;
  const worker = async () => {
    for (let index = next++; index < count; index = next++) {
      const t0 = performance.now();
      await job(index);
      const now = performance.now();
      latencies.push(now - t0);
      done += 1;
      if (now - lastReport > 3_000) {
        lastReport = now;
        const events = done * eventsPerJob;
        log(`[${label}] ${events.toLocaleString('en-US')}/${(count * eventsPerJob).toLocaleString('en-US')} events, ${Math.round(events / ((now - started) / 1000)).toLocaleString('en-US')}/s`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const events = count * eventsPerJob;
  return { events, seconds, perSecond: events / seconds, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99) };
}

/** POSTs prepared batch bodies with keep-alive connections; every batch must be stored whole. */
export async function postBatches(baseUrl: string, apiKey: string, bodies: Buffer[], eventsPerBatch: number, concurrency: number, log: (line: string) => void): Promise<ThroughputResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const url = new URL('/v1/events/batch', baseUrl);
  const post = (body: Buffer) =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(
        url,
        { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.length, 'x-api-key': apiKey } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            if (res.statusCode !== 200) return reject(new Error(`batch answered ${res.statusCode}: ${text.slice(0, 500)}`));
            const { accepted_count } = JSON.parse(text) as { accepted_count: number };
            return accepted_count === eventsPerBatch ? resolve() : reject(new Error(`batch stored ${accepted_count} of ${eventsPerBatch} events`));
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  try {
    return await drive('batch API', bodies.length, concurrency, eventsPerBatch, (i) => post(bodies[i]!), log);
  } finally {
    agent.destroy();
  }
}

/**
 * The PostgreSQL baseline: the same rows inserted straight into usage_events (same indexes and
 * triggers), batches of the same size, the same concurrency, one multi-row INSERT per batch. The
 * pool is the caller's, so its connections outlive the CPU sampling of the phase.
 */
export async function rawInserts(pool: pg.Pool, batches: EventShape[][], concurrency: number, log: (line: string) => void): Promise<ThroughputResult> {
  return drive(
    'raw INSERT',
    batches.length,
    concurrency,
    batches[0]!.length,
    async (i) => {
      const rows = batches[i]!;
      await pool.query(
        `INSERT INTO usage_events (id, event_type, customer_id, subscription_id, occurred_at, properties)
         SELECT * FROM unnest($1::text[], $2::text[], $3::uuid[], $4::uuid[], $5::timestamptz[], $6::jsonb[])`,
        [
          rows.map((r) => r.id),
          rows.map((r) => r.event_type),
          rows.map((r) => r.customer_id),
          rows.map((r) => r.subscription_id),
          rows.map((r) => r.timestamp),
          rows.map((r) => JSON.stringify(r.properties)),
        ],
      );
    },
    log,
  );
}

/** Single-row INSERT … ON CONFLICT DO NOTHING from `connections` clients for `seconds`: the database's ceiling for one event per commit. */
export async function rawSingleInserts(databaseUrl: string, make: (n: number) => EventShape, connections: number, seconds: number): Promise<{ perSecond: number; p99Ms: number }> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: connections });
  const latencies: number[] = [];
  let n = 0;
  const deadline = performance.now() + seconds * 1000;
  try {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < deadline) {
          const e = make(n++);
          const t0 = performance.now();
          await pool.query(
            `INSERT INTO usage_events (id, event_type, customer_id, subscription_id, occurred_at, properties) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
            [e.id, e.event_type, e.customer_id, e.subscription_id, e.timestamp, JSON.stringify(e.properties)],
          );
          latencies.push(performance.now() - t0);
        }
      }),
    );
  } finally {
    await pool.end();
  }
  latencies.sort((a, b) => a - b);
  return { perSecond: latencies.length / seconds, p99Ms: percentile(latencies, 99) };
}

export interface HttpLoadResult {
  /** Open loop only: how late the generator itself sent requests (p99), part of the latencies. */
  sendLagP99Ms?: number;
  requestsPerSecond: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

/** An autocannon run with a progress line every 5 s. */
export async function cannon(label: string, options: autocannon.Options, log: (line: string) => void): Promise<HttpLoadResult> {
  let seconds = 0;
  let sinceReport = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (err, done) => (err ? reject(err) : resolve(done)));
    instance.on('response', () => (sinceReport += 1));
    instance.on('tick', () => {
      seconds += 1;
      if (seconds % 5 === 0) {
        log(`[${label}] ${seconds}/${options.duration}s, ${Math.round(sinceReport / 5).toLocaleString('en-US')} req/s`);
        sinceReport = 0;
      }
    });
  });
  return {
    requestsPerSecond: result.requests.total / result.duration,
    requests: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export interface CpuShare {
  /** Cores' worth of CPU used over the interval (1.0 = one core busy all the time). */
  api: number;
  /** The PostgreSQL server under test: its postmaster and every process it started. */
  postgres: number;
  loadGenerator: number;
  machine: number;
}

const CLOCK_TICKS = 100;

function stat(pid: number): { ppid: number; ticks: number } | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

/** CPU ticks of the postmaster and its children, by pid. */
/** CPU ticks of a process and its children (PostgreSQL's backends, the API's cluster processes). */
function familyTicks(parentPid: number): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const s = stat(pid);
    if (s && (pid === parentPid || s.ppid === parentPid)) ticks.set(pid, s.ticks);
  }
  return ticks;
}

/** Ticks a family used since `before` (processes that exited meanwhile are missed). */
function ticksSince(parentPid: number, before: Map<number, number>): number {
  let used = 0;
  for (const [pid, ticks] of familyTicks(parentPid)) used += ticks - (before.get(pid) ?? 0);
  return used;
}

function machineTicks(): { busy: number; total: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = cpu[3]! + cpu[4]!;
  const total = cpu.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/**
 * Starts measuring where the CPU goes (Linux /proc); call the result to stop. PostgreSQL processes
 * that exit during the interval (short connections) are missed, so its share is a lower bound.
 */
export function sampleCpu(apiPid: number, postmasterPid: number): () => CpuShare {
  const started = performance.now();
  const api0 = familyTicks(apiPid);
  const pg0 = familyTicks(postmasterPid);
  const self0 = process.cpuUsage();
  const machine0 = machineTicks();
  return () => {
    const seconds = (performance.now() - started) / 1000;
    const self = process.cpuUsage(self0);
    const machine = machineTicks();
    const cores = os.cpus().length;
    return {
      api: ticksSince(apiPid, api0) / CLOCK_TICKS / seconds,
      postgres: ticksSince(postmasterPid, pg0) / CLOCK_TICKS / seconds,
      loadGenerator: (self.user + self.system) / 1e6 / seconds,
      machine: ((machine.busy - machine0.busy) / (machine.total - machine0.total)) * cores,
    };
  };
}

/** The pid of the postmaster serving `databaseUrl` (the parent of a backend). */
export async function postmasterPid(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const backend = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    return stat(backend)!.ppid;
  } finally {
    await client.end();
  }
}

/**
 * An open-loop load at a fixed rate: request i is due at start + i / rate whether or not earlier
 * ones have answered, and its latency counts from when it was due (so a stall delays and counts
 * every request behind it, with no coordinated omission). Keep-alive connections, at most
 * `connections` at once; requests beyond that wait for a connection inside the measured latency.
 */
export async function openLoop(
  label: string,
  options: { url: string; headers: (n: number) => Record<string, string>; body: (n: number) => string; rate: number; seconds: number; connections: number },
  log: (line: string) => void,
): Promise<HttpLoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const url = new URL(options.url);
  const total = Math.round(options.rate * options.seconds);
  const latencies: number[] = [];
  const lags: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let sent = 0;
  const send = (n: number, due: number) =>
    new Promise<void>((resolve) => {
      lags.push(performance.now() - due);
      const body = Buffer.from(options.body(n));
      const req = http.request(url, { method: 'POST', agent, headers: { ...options.headers(n), 'content-length': body.length } }, (res) => {
        res.resume();
        res.on('end', () => {
          latencies.push(performance.now() - due);
          if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode >= 300) non2xx += 1;
          resolve();
        });
      });
      req.on('error', () => {
        errors += 1;
        resolve();
      });
      req.end(body);
    });
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  let lastReport = started;
  while (sent < total) {
    const now = performance.now();
    while (sent < total && started + (sent * 1000) / options.rate <= now) {
      inFlight.push(send(sent, started + (sent * 1000) / options.rate));
      sent += 1;
    }
    if (now - lastReport >= 5_000) {
      lastReport = now;
      log(`[${label}] ${Math.round((now - started) / 1000)}/${options.seconds}s, ${latencies.length.toLocaleString('en-US')} answered`);
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(inFlight);
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  lags.sort((a, b) => a - b);
  return {
    sendLagP99Ms: percentile(lags, 99),
    requestsPerSecond: (latencies.length - non2xx) / seconds,
    requests: latencies.length,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    non2xx,
    errors,
  };
}
