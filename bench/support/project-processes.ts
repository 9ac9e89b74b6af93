/**
 * The project's own processes under a benchmark: the API or the worker started under the tsx loader
 * (ready when its log says so), and admin calls to the API under test; and what they run on.
 */
import { type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/dev/paths.js';
import { freePort, startProjectProcess } from '../../src/dev/processes.js';
import { apiKeyHash, generateSecrets } from '../../src/dev/secrets.js';
import { startTemporalDevServer, type TemporalDevServer } from '../../src/dev/temporal-dev-server.js';
import { ensureTool, TEMPORAL_CLI } from '../../src/dev/tools.js';
import { postmasterPid } from '../metering/load.js';
import { benchDatabase, type Teardown } from './lifecycle.js';

/**
 * A project process (API or worker) under the tsx loader; resolves when `readyLine` appears in its log.
 * BENCH_LOG_DIR=<folder> keeps each process's whole output there; BENCH_API_NODE_ARGS and
 * BENCH_WORKER_NODE_ARGS pass flags to that process's node, e.g. "--cpu-prof --cpu-prof-dir=<folder>".
 */
export async function startProcess(entry: string, env: NodeJS.ProcessEnv, readyLine: string): Promise<ChildProcess> {
  const flags = process.env[entry.includes('worker') ? 'BENCH_WORKER_NODE_ARGS' : 'BENCH_API_NODE_ARGS'] ?? '';
  return (await startProjectProcess(entry, env, readyLine, { keepLogIn: process.env.BENCH_LOG_DIR, nodeArgs: flags.split(' ').filter(Boolean) })).child;
}

/** Admin calls to the API under test; any status other than `expect` fails the run with the body. */
export function apiClient(base: string, apiKey: string) {
  return async <T>(method: string, route: string, body?: unknown, expect: number[] = [200, 201]): Promise<{ status: number; body: T }> => {
    const res = await fetch(`${base}${route}`, {
      method,
      headers: { 'x-api-key': apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!expect.includes(res.status)) throw new Error(`${method} ${route} answered ${res.status}: ${text.slice(0, 500)}`);
    // JSON answers parsed, others (a CSV) as their text.
    const json = res.headers.get('content-type')?.includes('json') ?? false;
    return { status: res.status, body: (text ? (json ? JSON.parse(text) : text) : undefined) as T };
  };
}

/** What the API and worker processes of a benchmark run on. */
export interface BenchServices {
  databaseUrl: string;
  temporalServer: TemporalDevServer;
  /** The PostgreSQL server's postmaster (its CPU is sampled). */
  pgPid: number;
  apiKey: string;
  port: number;
  /** The environment of the API and worker processes. */
  env: NodeJS.ProcessEnv;
}

/**
 * A fresh migrated database `billing_bench_<name>_…`, a Temporal CLI dev server with its file-backed
 * store (as `npm start` runs it), and the processes' environment (dev secrets, a free port, no
 * reachable payment processor: nothing is charged), each undone by the teardown.
 */
export async function benchServices(options: { serverUrl: string; name: string; taskQueue: string; teardown: Teardown; log: (line: string) => void }): Promise<BenchServices> {
  const { teardown } = options;
  const databaseUrl = await benchDatabase(options.serverUrl, options.name, teardown);
  const scratch = await mkdtemp(path.join(os.tmpdir(), `billing-bench-${options.name}-`));
  teardown.push(() => rm(scratch, { recursive: true, force: true }));
  const temporalServer = await startTemporalDevServer({
    binary: await ensureTool(TEMPORAL_CLI, options.log),
    port: await freePort(),
    uiPort: 0,
    namespace: 'default',
    headless: true,
    dbFile: path.join(scratch, 'temporal.db'),
  });
  teardown.push(temporalServer.stop);
  const secrets = generateSecrets();
  const port = await freePort();
  const env = {
    NODE_ENV: 'development',
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalServer.address,
    TEMPORAL_TASK_QUEUE: options.taskQueue,
    LOG_LEVEL: 'info',
    JWT_SECRET: secrets.jwt_secret,
    API_KEY_HASH: apiKeyHash(secrets.api_key),
    PROCESSOR_WEBHOOK_SECRET: secrets.processor_webhook_secret,
    HOSTED_LINK_SECRET: secrets.hosted_link_secret,
    // No payment methods are attached, so nothing is charged; the processor is never called.
    PROCESSOR_API_BASE: 'http://127.0.0.1:9',
    PORT: String(port),
    RATE_LIMIT_RPS: '100000',
    RATE_LIMIT_BURST: '100000',
  };
  return { databaseUrl, temporalServer, pgPid: await postmasterPid(databaseUrl), apiKey: secrets.api_key, port, env };
}
