/**
 * The system under test, started for real: a fresh database on a PostgreSQL server (migrated with
 * `prisma migrate deploy`), a Temporal dev server (the API checks Temporal at start), and the API
 * process itself (`node --import tsx src/main.ts`) with the rate limiter raised out of the way.
 * Everything listens on 127.0.0.1 and is torn down by stop(), in reverse order.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { PROJECT_ROOT } from '../../src/dev/paths.js';
import { freePort, stopProcess, waitFor } from '../../src/dev/processes.js';
import { apiKeyHash, generateSecrets, issueToken, type DevSecrets } from '../../src/dev/secrets.js';
import { startTemporalDevServer } from '../../src/dev/temporal-dev-server.js';
import { ensureTool, TEMPORAL_CLI } from '../../src/dev/tools.js';
import { benchDatabase, Teardown } from '../support/lifecycle.js';

export interface Stack {
  databaseUrl: string;
  baseUrl: string;
  secrets: DevSecrets;
  adminToken: string;
  api: ChildProcess;
  stop(): Promise<void>;
}

export interface StackOptions {
  serverUrl: string;
  keepDatabase: boolean;
  log: (line: string) => void;
  /** Names the bench database (billing_bench_<name>_<time>); default metering. */
  name?: string;
}

export async function startStack(options: StackOptions): Promise<Stack> {
  const teardown = new Teardown(options.log);
  const stop = () => teardown.run();
  try {
    options.log('bench database: creating and migrating');
    const databaseUrl = await benchDatabase(options.serverUrl, options.name ?? 'metering', teardown, { keep: options.keepDatabase });

    const temporal = await startTemporalDevServer({
      binary: await ensureTool(TEMPORAL_CLI, options.log),
      port: await freePort(),
      uiPort: 0,
      namespace: 'default',
      headless: true,
    });
    teardown.push(temporal.stop);
    options.log(`temporal dev server on ${temporal.address}`);

    const secrets = generateSecrets();
    const port = await freePort();
    let stderr = '';
    // BENCH_API_NODE_ARGS passes flags to the API's node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
    const nodeArgs = (process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const api = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/main.ts'], {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        DATABASE_URL: databaseUrl,
        TEMPORAL_ADDRESS: temporal.address,
        JWT_SECRET: secrets.jwt_secret,
        API_KEY_HASH: apiKeyHash(secrets.api_key),
        PROCESSOR_WEBHOOK_SECRET: secrets.processor_webhook_secret,
        HOSTED_LINK_SECRET: secrets.hosted_link_secret,
        // Production mode needs a processor key; the benchmarks never charge, so the processor is an unreachable address.
        PROCESSOR_SECRET_KEY: 'sk_test_bench',
        PROCESSOR_API_BASE: 'http://127.0.0.1:9',
        PORT: String(port),
        RATE_LIMIT_RPS: '1000000000',
        RATE_LIMIT_BURST: '1000000000',
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
        API_PROCESSES: process.env.BENCH_API_PROCESSES ?? '1',
      },
      // Request logs are written as in production, to a sink nobody reads.
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    api.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4_000)));
    teardown.push(() => stopProcess(api));
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitFor(
      'the API',
      async () => {
        if (api.exitCode !== null) throw new Error(`the API exited with ${api.exitCode}: ${stderr}`);
        const res = await fetch(`${baseUrl}/health`);
        if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
      },
      60_000,
      250,
    );
    options.log(`API (pid ${api.pid}) on ${baseUrl}`);
    const adminToken = await issueToken(secrets.jwt_secret, { sub: 'bench-admin', scope: 'admin' }, 8 * 3600);
    return { databaseUrl, baseUrl, secrets, adminToken, api, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Server facts for the report. */
export async function describeServer(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const version = (await client.query<{ v: string }>('SELECT split_part(version(), \' on \', 1) AS v')).rows[0]!.v;
    const settings = await client.query<{ name: string; value: string }>(
      "SELECT name, current_setting(name) AS value FROM pg_settings WHERE name IN ('shared_buffers', 'synchronous_commit', 'fsync', 'max_wal_size', 'wal_level') ORDER BY name",
    );
    return `${version} (${settings.rows.map((s) => `${s.name}=${s.value}`).join(', ')})`;
  } finally {
    await client.end();
  }
}
