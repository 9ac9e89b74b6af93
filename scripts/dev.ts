/**
 * `npm start`: everything a newcomer needs, with no configuration.
 *   database   DATABASE_URL, else embedded PostgreSQL with data in .data/postgres
 *   schema     prisma migrate deploy
 *   Temporal   TEMPORAL_ADDRESS, else the CLI dev server (state in .data/temporal.db, Web UI :8233)
 *   processes  the worker and the API (PORT, default 3000) as child processes
 * Local ports and folders can be moved with EMBEDDED_PG_PORT (54329), TEMPORAL_DEV_PORT (7233),
 * TEMPORAL_UI_PORT (8233) and BILLING_DATA_DIR (.data).
 * Local mode generates dev secrets once into .data/ and prints how to call the API;
 * NODE_ENV=production requires every secret. SIGINT/SIGTERM stop every child, then Temporal and
 * the embedded database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ConfigError, SECRET_VARIABLES, validatePresent } from '../src/config.js';
import { EmbeddedPostgres, ensureDatabase, withDatabase } from '../src/dev/embedded-postgres.js';
import { DATA_DIR, PROJECT_ROOT } from '../src/dev/paths.js';
import { portInUse, stopProcess, waitFor } from '../src/dev/processes.js';
import { apiKeyHash, issueToken, loadOrCreateDevSecrets } from '../src/dev/secrets.js';
import { startTemporalDevServer, type TemporalDevServer } from '../src/dev/temporal-dev-server.js';
import { ensureTool, TEMPORAL_CLI } from '../src/dev/tools.js';
import { checkDatabase, connectTemporalOrFail, StartupError } from '../src/startup.js';

const EMBEDDED_PG_PORT = Number(process.env.EMBEDDED_PG_PORT ?? 54329);
const TEMPORAL_PORT = Number(process.env.TEMPORAL_DEV_PORT ?? 7233);
const TEMPORAL_UI_PORT = Number(process.env.TEMPORAL_UI_PORT ?? 8233);
const TSX = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');
const PRISMA = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'prisma');

const say = (message: string) => process.stdout.write(`[start] ${message}\n`);

class Stack {
  private readonly stops: { name: string; stop: () => Promise<void> }[] = [];
  push(name: string, stop: () => Promise<void>): void {
    this.stops.push({ name, stop });
  }
  async unwind(): Promise<void> {
    for (const { name, stop } of this.stops.reverse()) {
      say(`stopping ${name}`);
      await stop().catch((err: unknown) => say(`  ${name}: ${(err as Error).message}`));
    }
    this.stops.length = 0;
  }
}

const stack = new Stack();
let shuttingDown = false;

async function shutdown(code: number): Promise<never> {
  if (!shuttingDown) {
    shuttingDown = true;
    await stack.unwind();
  }
  process.exit(code);
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

function startChild(name: string, entry: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(TSX, [entry], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
  child.on('exit', (code, signal) => {
    if (!shuttingDown) {
      say(`${name} exited unexpectedly (${signal ?? code}); stopping everything`);
      void shutdown(1);
    }
  });
  stack.push(name, () => stopProcess(child));
  return child;
}

async function main(): Promise<void> {
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

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
    const serverUrl = await embedded.start();
    stack.push('embedded PostgreSQL', () => embedded.stop());
    env.DATABASE_URL = withDatabase(serverUrl, 'billing');
    await ensureDatabase(env.DATABASE_URL);
  }
  await runPrismaMigrate(env.DATABASE_URL);

  let temporalUi: string | undefined;
  const namespace = env.TEMPORAL_NAMESPACE ?? 'default';
  if (env.TEMPORAL_ADDRESS) {
    await (await connectTemporalOrFail(env.TEMPORAL_ADDRESS, namespace)).connection.close();
    say(`using Temporal at ${env.TEMPORAL_ADDRESS}`);
  } else {
    if (production) throw new ConfigError('NODE_ENV=production requires TEMPORAL_ADDRESS');
    if (await portInUse(TEMPORAL_PORT)) {
      throw new StartupError(`port ${TEMPORAL_PORT} is taken: stop what runs there or set TEMPORAL_ADDRESS to use that Temporal server`);
    }
    const binary = await ensureTool(TEMPORAL_CLI, say);
    say('starting Temporal dev server');
    const server: TemporalDevServer = await startTemporalDevServer({
      binary,
      port: TEMPORAL_PORT,
      uiPort: TEMPORAL_UI_PORT,
      namespace,
      dbFile: path.join(DATA_DIR, 'temporal.db'),
    });
    stack.push('Temporal dev server', server.stop);
    server.process.on('exit', () => {
      if (!shuttingDown) {
        say('Temporal dev server exited unexpectedly; stopping everything');
        void shutdown(1);
      }
    });
    env.TEMPORAL_ADDRESS = server.address;
    temporalUi = server.uiUrl;
  }

  startChild('worker', 'src/worker.ts', env);
  startChild('api', 'src/main.ts', env);
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
    `  Temporal UI    ${temporalUi ?? '(external cluster: see its own UI)'}`,
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
