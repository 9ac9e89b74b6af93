/**
 * API_PROCESSES: the API as several processes sharing one port (Node cluster), against the test
 * run's PostgreSQL and Temporal. They all answer, and they stop together: on SIGTERM, and when one
 * of them dies.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { LOCAL_PROCESSOR_SECRET_KEY } from '../../src/config.js';
import { apiKeyHash, generateSecrets } from '../../src/dev/secrets.js';
import { PROJECT_ROOT } from '../../src/dev/paths.js';
import { freePort, waitFor } from '../../src/dev/processes.js';

/** Pids of the processes whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        // Field 4 of /proc/<pid>/stat is the parent pid; the command name (field 2) may hold spaces.
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

async function startApi(processes: number) {
  const secrets = generateSecrets();
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: inject('databaseUrl'),
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      JWT_SECRET: secrets.jwt_secret,
      API_KEY_HASH: apiKeyHash(secrets.api_key),
      PROCESSOR_WEBHOOK_SECRET: secrets.processor_webhook_secret,
      HOSTED_LINK_SECRET: secrets.hosted_link_secret,
      // Production requires a processor key; stripe-mock stands in for the processor.
      PROCESSOR_SECRET_KEY: LOCAL_PROCESSOR_SECRET_KEY,
      PROCESSOR_API_BASE: inject('stripeMockUrl'),
      PORT: String(port),
      API_PROCESSES: String(processes),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  await waitFor('the API', async () => {
    if ((await fetch(`${base}/health`)).status !== 200) throw new Error('not healthy yet');
  }, 60_000);
  return { child, base, exited, output: () => output };
}

describe('API_PROCESSES', () => {
  it('runs that many API processes on one port, and SIGTERM stops them all', async () => {
    const api = await startApi(2);
    await waitFor('two API processes', async () => {
      if (childrenOf(api.child.pid!).length !== 2) throw new Error(`${childrenOf(api.child.pid!).length} processes`);
    }, 30_000);
    const workers = childrenOf(api.child.pid!);
    const answers = await Promise.all(Array.from({ length: 20 }, () => fetch(`${api.base}/health`).then((r) => r.status)));
    expect(answers).toEqual(answers.map(() => 200));

    api.child.kill('SIGTERM');
    expect(await api.exited).toBe(0);
    await waitFor('the API processes to exit', async () => {
      if (workers.some(alive)) throw new Error('still running');
    }, 15_000);
  });

  it('stops the other processes and exits with an error when one of them dies', async () => {
    const api = await startApi(2);
    await waitFor('two API processes', async () => {
      if (childrenOf(api.child.pid!).length !== 2) throw new Error('not yet');
    }, 30_000);
    const [victim, survivor] = childrenOf(api.child.pid!);
    process.kill(victim!, 'SIGKILL');
    expect(await api.exited).toBe(1);
    await waitFor('the other API process to exit', async () => {
      if (alive(survivor!)) throw new Error('still running');
    }, 15_000);
    expect(api.output()).toMatch(/an API process exited; stopping the others/);
  });
});
