/**
 * `npm start`: everything a newcomer needs, with no configuration.
 *   database   DATABASE_URL, else embedded PostgreSQL with data in .data/postgres
 *   schema     prisma migrate deploy
 *   Temporal   TEMPORAL_ADDRESS, else the CLI dev server (state in .data/temporal.db, Web UI :8233)
 *   processes  the worker and the API (PORT, default 3000) as child processes
 * Local ports and folders can be moved with EMBEDDED_PG_PORT (54329), TEMPORAL_DEV_PORT (7233),
 * TEMPORAL_UI_PORT (8233) and BILLING_DATA_DIR (.data).
 * Local mode generates dev secrets once into .data/ and prints how to call the API; without
 * PROCESSOR_SECRET_KEY it also runs stripe-mock and points the payment processor at it;
 * NODE_ENV=production requires every secret.
 *
 * Supervision: the worker, the API and the Temporal dev server are restarted with backoff when they
 * exit on their own (src/dev/supervisor.ts); repeated fast failure stops everything with exit code 1.
 * Stopping: SIGINT, SIGTERM or SIGHUP (to this process alone or to its whole process group), or the
 * exit of whoever started it (src/dev/lifeline.ts), stops the API, the worker, Temporal and the
 * embedded database in that order. If this process itself is killed outright, a reaper in its own
 * session (src/dev/reaper.ts) stops them. Children's JSON log lines pass through to stdout unchanged;
 * anything else they print (webpack, the Temporal SDK core) goes to stderr tagged with the child's name.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ConfigError, loadWorkerConfig, SECRET_VARIABLES, validatePresent } from '../src/config.js';
import { EmbeddedPostgres, ensureDatabase, withDatabase } from '../src/dev/embedded-postgres.js';
import { DATA_DIR, PROJECT_ROOT } from '../src/dev/paths.js';
import { onAncestorExit } from '../src/dev/lifeline.js';
import { freePort, portInUse, waitFor } from '../src/dev/processes.js';
import { startReaper } from '../src/dev/reaper.js';
import { apiKeyHash, issueToken, loadOrCreateDevSecrets } from '../src/dev/secrets.js';
import { Supervised } from '../src/dev/supervisor.js';
import { startStripeMock } from '../src/dev/stripe-mock.js';
import { startTemporalDevServer } from '../src/dev/temporal-dev-server.js';
import { ensureTool, STRIPE_MOCK, TEMPORAL_CLI } from '../src/dev/tools.js';
import { checkDatabase, connectTemporalOrFail, StartupError } from '../src/startup.js';
import { temporalSecurityOf } from '../src/temporal/security.js';

const EMBEDDED_PG_PORT = Number(process.env.EMBEDDED_PG_PORT ?? 54329);
const TEMPORAL_PORT = Number(process.env.TEMPORAL_DEV_PORT ?? 7233);
const TEMPORAL_UI_PORT = Number(process.env.TEMPORAL_UI_PORT ?? 8233);
const STRIPE_MOCK_PORT = Number(process.env.STRIPE_MOCK_PORT ?? 12111);
const PRISMA = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'prisma');

const say = (message: string) => process.stdout.write(`[start] ${message}\n`);

class Stack {
  private readonly stops: { name: string; stop: () => Promise<void> }[] = [];
  private readonly supervised: Supervised[] = [];
  push(name: string, stop: () => Promise<void>): void {
    this.stops.push({ name, stop });
  }
  pushSupervised(name: string, supervised: Supervised): void {
    this.supervised.push(supervised);
    this.push(name, () => supervised.stop());
  }
  async unwind(): Promise<void> {
    // First no child restarts any more (a group signal may stop some before their turn), then each stops in turn.
    for (const supervised of this.supervised) supervised.halt();
    for (const { name, stop } of this.stops.reverse()) {
      say(`stopping ${name}`);
      await stop().catch((err: unknown) => say(`  ${name}: ${(err as Error).message}`));
    }
    this.stops.length = 0;
  }
}

const stack = new Stack();
const reaper = startReaper();
let shuttingDown = false;
let stopped: Promise<never> | undefined;

/** Stops the stack once; later calls (a second signal, the parent's exit) wait for the same stop. */
function shutdown(code: number): Promise<never> {
  shuttingDown = true;
  stopped ??= (async () => {
    await stack.unwind();
    reaper.release();
    process.exit(code);
  })();
  return stopped;
}

/** Whether a child's line is a JSON object (a pino line), not merely text starting with a brace. */
function isJsonLine(line: string): boolean {
  if (!line.startsWith('{')) return false;
  try {
    return typeof JSON.parse(line) === 'object';
  } catch {
    return false;
  }
}

/** JSON log lines pass through to stdout; other output is tagged with the child's name on stderr. */
function relayOutput(name: string, child: ChildProcess): void {
  const relay = (stream: NodeJS.ReadableStream | null) => {
    if (!stream) return;
    createInterface({ input: stream }).on('line', (line) => {
      if (isJsonLine(line)) process.stdout.write(`${line}\n`);
      else if (line.trim() !== '') process.stderr.write(`[${name}] ${line}\n`);
    });
  };
  relay(child.stdout);
  relay(child.stderr);
}

function supervise(name: string, start: () => Promise<ChildProcess>): Supervised {
  const supervised = new Supervised({
    name,
    start,
    onStarted: (child) => {
      if (child.pid !== undefined) reaper.watch({ name, pid: child.pid });
    },
    log: say,
    onGiveUp: (reason) => {
      say(`${reason}; stopping everything`);
      void shutdown(1);
    },
  });
  stack.pushSupervised(name, supervised);
  return supervised;
}

function runPrismaMigrate(databaseUrl: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(PRISMA, ['migrate', 'deploy'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('exit', (code) => {
      if (code === 0) {
        const applied = /(\d+) migrations? found/.exec(output)?.[1];
        say(`database schema up to date (${applied ?? '?'} migrations)`);
        resolve();
      } else {
        reject(new StartupError(`prisma migrate deploy failed: ${output.trim().split('\n').slice(-6).join(' | ')}`));
      }
    });
  });
}

/** A Node entry point of the project (worker, API) under the tsx loader, supervised. */
function startNodeChild(name: string, entry: string, env: NodeJS.ProcessEnv): Supervised {
  return supervise(name, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    relayOutput(name, child);
    return child;
  });
}

async function main(): Promise<void> {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (!shuttingDown) say(`${signal} received; stopping`);
      void shutdown(0);
    });
  }
  onAncestorExit((why) => {
    say(`${why}; stopping`);
    void shutdown(0);
  });

  const production = process.env.NODE_ENV === 'production';
  validatePresent(process.env);
  const env: NodeJS.ProcessEnv = { ...process.env };

  const missingSecrets = SECRET_VARIABLES.filter((name) => !env[name]);
  let devSecrets: Awaited<ReturnType<typeof loadOrCreateDevSecrets>> | undefined;
  if (missingSecrets.length > 0) {
    if (production) throw new ConfigError(`NODE_ENV=production requires ${missingSecrets.join(', ')}`);
    devSecrets = await loadOrCreateDevSecrets(DATA_DIR);
    env.JWT_SECRET ??= devSecrets.jwt_secret;
    env.API_KEY_HASH ??= apiKeyHash(devSecrets.api_key);
    env.PROCESSOR_WEBHOOK_SECRET ??= devSecrets.processor_webhook_secret;
    env.HOSTED_LINK_SECRET ??= devSecrets.hosted_link_secret;
  }

  if (env.DATABASE_URL) {
    await ensureDatabase(env.DATABASE_URL).catch((err: Error) => {
      throw new StartupError(`cannot reach PostgreSQL at DATABASE_URL: ${err.message}`);
    });
    await checkDatabase(env.DATABASE_URL);
    say('using PostgreSQL from DATABASE_URL');
  } else {
    if (production) throw new ConfigError('NODE_ENV=production requires DATABASE_URL');
    const embedded = new EmbeddedPostgres({ dataDir: path.join(DATA_DIR, 'postgres'), port: EMBEDDED_PG_PORT, log: say });
    reaper.watch({ name: 'embedded PostgreSQL', postgresDataDir: path.join(DATA_DIR, 'postgres') });
    const serverUrl = await embedded.start();
    stack.push('embedded PostgreSQL', () => embedded.stop());
    env.DATABASE_URL = withDatabase(serverUrl, 'billing');
    await ensureDatabase(env.DATABASE_URL);
  }
  await runPrismaMigrate(env.DATABASE_URL);

  let temporalUi: string | undefined;
  const namespace = env.TEMPORAL_NAMESPACE ?? 'default';
  if (env.TEMPORAL_ADDRESS) {
    const security = temporalSecurityOf(loadWorkerConfig(env));
    await (await connectTemporalOrFail(env.TEMPORAL_ADDRESS, namespace, security)).connection.close();
    say(`using Temporal at ${env.TEMPORAL_ADDRESS}`);
  } else {
    if (production) throw new ConfigError('NODE_ENV=production requires TEMPORAL_ADDRESS');
    if (await portInUse(TEMPORAL_PORT)) {
      throw new StartupError(`port ${TEMPORAL_PORT} is taken: stop what runs there or set TEMPORAL_ADDRESS to use that Temporal server`);
    }
    const binary = await ensureTool(TEMPORAL_CLI, say);
    say('starting Temporal dev server');
    const options = { binary, port: TEMPORAL_PORT, uiPort: TEMPORAL_UI_PORT, namespace, dbFile: path.join(DATA_DIR, 'temporal.db') };
    await supervise('Temporal dev server', async () => (await startTemporalDevServer(options)).process).start();
    env.TEMPORAL_ADDRESS = `127.0.0.1:${TEMPORAL_PORT}`;
    temporalUi = `http://127.0.0.1:${TEMPORAL_UI_PORT}`;
    // The operator views link resources to their workflows in this UI.
    env.TEMPORAL_UI_URL ??= temporalUi;
  }

  let processorNote = `payment processor at ${env.PROCESSOR_API_BASE ?? 'https://api.stripe.com'}`;
  if (!env.PROCESSOR_SECRET_KEY) {
    if (production) throw new ConfigError('NODE_ENV=production requires PROCESSOR_SECRET_KEY');
    // No processor account configured: collection runs against stripe-mock with the default test key.
    if (await portInUse(STRIPE_MOCK_PORT)) {
      throw new StartupError(`port ${STRIPE_MOCK_PORT} is taken: stop what runs there, set STRIPE_MOCK_PORT, or set PROCESSOR_SECRET_KEY to use a real processor`);
    }
    const mock = await startStripeMock(await ensureTool(STRIPE_MOCK, say), STRIPE_MOCK_PORT, await freePort());
    stack.push('stripe-mock', mock.stop);
    reaper.watch({ name: 'stripe-mock', pid: mock.pid });
    env.PROCESSOR_API_BASE = mock.url;
    processorNote = `payment processor: stripe-mock at ${mock.url} (set PROCESSOR_SECRET_KEY for a real one)`;
  }

  await startNodeChild('worker', 'src/worker.ts', env).start();
  await startNodeChild('api', 'src/main.ts', env).start();
  const port = Number(env.PORT ?? 3000);
  const base = `http://127.0.0.1:${port}`;
  await waitFor('API', async () => {
    const res = await fetch(`${base}/health`);
    if (res.status !== 200) throw new Error(`health ${res.status}: ${await res.text()}`);
  }, 120_000, 300);

  const lines = [
    '',
    'Billing engine is running.',
    `  API            ${base}`,
    `  API reference  ${base}/docs/api   (OpenAPI: ${base}/openapi.json)`,
    `  Health         ${base}/health`,
    `  Operator views ${base}/admin   (sign in with the admin API key)`,
    `  Temporal UI    ${temporalUi ?? '(external cluster: see its own UI)'}`,
    `  Payments       ${processorNote}`,
  ];
  if (devSecrets) {
    const adminToken = await issueToken(env.JWT_SECRET!, { sub: 'local-admin', scope: 'admin' }, 8 * 3600);
    lines.push(
      '',
      `Local dev credentials (generated once into ${path.relative(PROJECT_ROOT, path.join(DATA_DIR, 'dev-secrets.json'))}):`,
      `  export BILLING_TOKEN=${adminToken}   # admin JWT, valid 8 h`,
      `  export BILLING_API_KEY=${devSecrets.api_key}`,
      '',
      'Try:',
      `  curl -H "Authorization: Bearer $BILLING_TOKEN" ${base}/admin/v1/customers`,
      `  curl -H "X-API-Key: $BILLING_API_KEY" ${base}/admin/v1/catalog/plans`,
    );
  }
  lines.push('', 'Press Ctrl+C to stop everything.', '');
  process.stdout.write(lines.join('\n'));
}

main().catch(async (err: unknown) => {
  const message = err instanceof ConfigError || err instanceof StartupError ? err.message : ((err as Error).stack ?? String(err));
  process.stderr.write(`[start] error: ${message}\n`);
  await shutdown(1);
});
