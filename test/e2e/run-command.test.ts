/**
 * The README's run command, end to end: it brings the service up from nothing, answers /health
 * with both dependencies ok, serves the Temporal UI, keeps its data across a restart, stops every
 * child on SIGTERM, and refuses bad configuration with one clear line.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/dev/paths.js';
import { freePort } from '../../src/dev/processes.js';

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function runCommand(env: NodeJS.ProcessEnv): Running {
  const child = spawn(path.join(PROJECT_ROOT, 'node_modules/.bin/tsx'), ['scripts/dev.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function until(condition: () => boolean, what: string, output: () => string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}; output:\n${output().slice(-3_000)}`);
}

function processesUsing(dataDir: string): string[] {
  const ps = spawnSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' });
  return ps.stdout.split('\n').filter((line) => line.includes(dataDir) && !line.includes('ps -eo'));
}

const scratch: string[] = [];
afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

describe('npm start (scripts/dev.ts)', () => {
  it('starts everything, keeps data across restarts and leaves nothing running after SIGTERM', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'billing-run-'));
    scratch.push(dataDir);
    const ports = { api: await freePort(), pg: await freePort(), temporal: await freePort(), ui: await freePort(), stripeMock: await freePort() };
    const env = {
      BILLING_DATA_DIR: dataDir,
      PORT: String(ports.api),
      EMBEDDED_PG_PORT: String(ports.pg),
      TEMPORAL_DEV_PORT: String(ports.temporal),
      TEMPORAL_UI_PORT: String(ports.ui),
      STRIPE_MOCK_PORT: String(ports.stripeMock),
    };
    const databaseUrl = `postgresql://postgres@127.0.0.1:${ports.pg}/billing`;

    const first = runCommand(env);
    await until(() => first.output().includes('Billing engine is running.'), 'first start', first.output);
    expect(first.output()).toContain(`http://127.0.0.1:${ports.api}/docs/api`);
    expect(first.output()).toMatch(/export BILLING_TOKEN=ey/);
    const health = await fetch(`http://127.0.0.1:${ports.api}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', checks: { database: { status: 'ok' }, temporal: { status: 'ok' } } });
    expect((await fetch(`http://127.0.0.1:${ports.ui}/`)).status).toBe(200);
    // Without PROCESSOR_SECRET_KEY the processor is a stripe-mock the run command started.
    expect(first.output()).toContain(`stripe-mock at http://127.0.0.1:${ports.stripeMock}`);

    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(
      `INSERT INTO audit_log (id, action, actor_type, actor_id, entity_type, entity_id)
       VALUES ('01900000-0000-7000-8000-000000000001', 'test.restart', 'system', 'e2e', 'probe', '01900000-0000-7000-8000-000000000002')`,
    );
    await client.end();

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(processesUsing(dataDir)).toEqual([]);

    const second = runCommand(env);
    await until(() => second.output().includes('Billing engine is running.'), 'second start', second.output);
    expect(second.output()).not.toContain('initialising embedded PostgreSQL');
    const again = new pg.Client({ connectionString: databaseUrl });
    await again.connect();
    const rows = await again.query(`SELECT action FROM audit_log WHERE actor_id = 'e2e'`);
    await again.end();
    expect(rows.rows).toEqual([{ action: 'test.restart' }]);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    expect(processesUsing(dataDir)).toEqual([]);
  }, 240_000);

  it.each([
    ['an unreachable DATABASE_URL', { DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/billing' }, /cannot reach PostgreSQL/],
    ['a malformed DATABASE_URL', { DATABASE_URL: 'mysql://x' }, /DATABASE_URL must be a postgres/],
    ['a malformed API_KEY_HASH', { API_KEY_HASH: 'not-a-hash' }, /API_KEY_HASH must be the SHA-256 hex/],
    ['a short JWT_SECRET', { JWT_SECRET: 'short' }, /JWT_SECRET must be at least 32 characters/],
    ['production without secrets', { NODE_ENV: 'production', JWT_SECRET: '', API_KEY_HASH: '', PROCESSOR_WEBHOOK_SECRET: '' }, /NODE_ENV=production requires JWT_SECRET, API_KEY_HASH, PROCESSOR_WEBHOOK_SECRET/],
  ])('refuses %s with one clear line', async (_name, env, expected) => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'billing-badcfg-'));
    scratch.push(dataDir);
    const run = runCommand({ BILLING_DATA_DIR: dataDir, PORT: String(await freePort()), ...env });
    expect(await run.exited).toBe(1);
    const errorLines = run.output().split('\n').filter((line) => line.includes('error'));
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]).toMatch(expected);
    expect(run.output()).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('refuses an unreachable TEMPORAL_ADDRESS with one clear line', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'billing-badtemporal-'));
    scratch.push(dataDir);
    const run = runCommand({
      BILLING_DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(await freePort()),
      TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
    });
    expect(await run.exited).toBe(1);
    const errorLines = run.output().split('\n').filter((line) => line.includes('error'));
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]).toMatch(/cannot reach Temporal at 127\.0\.0\.1:\d+/);
    expect(processesUsing(dataDir)).toEqual([]);
  }, 90_000);
});
