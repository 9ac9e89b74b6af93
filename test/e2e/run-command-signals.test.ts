/**
 * The run command under any supervisor: SIGINT or SIGTERM to its whole process group (Ctrl+C, container
 * runtimes, service managers), SIGTERM to the `npm start` process alone, and SIGKILL of it each stop
 * the whole stack and leave no process and no bound port, RUN_COMMAND_SIGNAL_ROUNDS times each (2 by default to keep the suite short; 5 for an acceptance run).
 * Also: a killed worker or API is restarted (supervision) and the service keeps answering.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/dev/paths.js';
import { freePort, portInUse } from '../../src/dev/processes.js';

const ROUNDS = Number(process.env.RUN_COMMAND_SIGNAL_ROUNDS ?? 2);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface Stack {
  npm: ChildProcess;
  output: () => string;
  ports: number[];
  apiPort: number;
  dataDir: string;
  /** The run command's own process (node running scripts/dev.ts), which its reaper names. */
  runCommandPid: number;
}

const scratch: string[] = [];
afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

async function until(condition: () => boolean | Promise<boolean>, what: string, output: () => string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}; output:\n${output().slice(-3_000)}`);
}

/** `npm start` as the leader of its own process group, as a service manager or a terminal runs it. */
async function startStack(dataDir: string): Promise<Stack> {
  const ports = { api: await freePort(), pg: await freePort(), temporal: await freePort(), ui: await freePort(), stripeMock: await freePort() };
  const npm = spawn(NPM, ['start', '--silent'], {
    cwd: PROJECT_ROOT,
    detached: true,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      BILLING_DATA_DIR: dataDir,
      PORT: String(ports.api),
      EMBEDDED_PG_PORT: String(ports.pg),
      TEMPORAL_DEV_PORT: String(ports.temporal),
      TEMPORAL_UI_PORT: String(ports.ui),
      STRIPE_MOCK_PORT: String(ports.stripeMock),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  npm.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const stack = { npm, output: () => output, ports: Object.values(ports), apiPort: ports.api, dataDir, runCommandPid: 0 };
  await until(() => output.includes('Billing engine is running.'), 'the stack to start', stack.output);
  stack.runCommandPid = pidOf(/^\d+\s+\d+\s+node --import tsx scripts\/dev\.ts/, stack) ?? 0;
  expect(stack.runCommandPid).toBeGreaterThan(0);
  return stack;
}

/** Processes of the stack: its process group, anything naming its data folder, and its reaper. */
function leftovers(stack: Stack): string[] {
  const ps = spawnSync('ps', ['-eo', 'pid=,pgid=,args='], { encoding: 'utf8' });
  return ps.stdout
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => {
      const [, pgid] = line.split(/\s+/);
      return Number(pgid) === stack.npm.pid || line.includes(stack.dataDir) || line.endsWith(`--for=${stack.runCommandPid}`);
    });
}

async function boundPorts(stack: Stack): Promise<number[]> {
  const bound: number[] = [];
  for (const port of stack.ports) if (await portInUse(port)) bound.push(port);
  return bound;
}

async function expectNothingLeft(stack: Stack, what: string): Promise<void> {
  await until(async () => leftovers(stack).length === 0 && (await boundPorts(stack)).length === 0, `nothing left after ${what}`, stack.output, 60_000)
    .catch(async (err: Error) => {
      throw new Error(`${err.message}\nleft: ${JSON.stringify(leftovers(stack))}, ports: ${JSON.stringify(await boundPorts(stack))}`);
    });
}

const pidOf = (pattern: RegExp, stack: Stack): number | undefined => {
  const ps = spawnSync('ps', ['-eo', 'pid=,pgid=,args='], { encoding: 'utf8' });
  const line = ps.stdout.split('\n').map((l) => l.trim()).find((l) => Number(l.split(/\s+/)[1]) === stack.npm.pid && pattern.test(l));
  return line ? Number(line.split(/\s+/)[0]) : undefined;
};

const healthy = async (stack: Stack): Promise<boolean> => {
  try {
    return (await fetch(`http://127.0.0.1:${stack.apiPort}/health`)).status === 200;
  } catch {
    return false;
  }
};

const scenarios: [string, (stack: Stack) => void][] = [
  ['SIGINT to the process group', (s) => process.kill(-s.npm.pid!, 'SIGINT')],
  ['SIGTERM to the process group', (s) => process.kill(-s.npm.pid!, 'SIGTERM')],
  ['SIGTERM to the npm start process alone', (s) => s.npm.kill('SIGTERM')],
  ['SIGKILL of the npm start process', (s) => s.npm.kill('SIGKILL')],
];

describe('npm start under a supervisor', () => {
  it('restarts a killed worker and API and keeps answering; stops on SIGTERM with nothing left', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'billing-supervise-'));
    scratch.push(dataDir);
    const stack = await startStack(dataDir);
    for (const [name, pattern] of [['worker', /src\/worker\.ts/], ['api', /src\/main\.ts/]] as const) {
      const pid = pidOf(pattern, stack);
      expect(pid, `${name} process`).toBeDefined();
      process.kill(pid!, 'SIGKILL');
      await until(() => stack.output().includes(`${name} exited unexpectedly (SIGKILL)`), `${name} restart`, stack.output);
      await until(() => (pidOf(pattern, stack) ?? pid) !== pid, `a new ${name} process`, stack.output);
    }
    await until(() => healthy(stack), 'health after the restarts', stack.output);
    stack.npm.kill('SIGTERM');
    await expectNothingLeft(stack, 'SIGTERM');
  }, 300_000);

  it.each(scenarios)(`%s stops everything, ${ROUNDS} times`, async (name, signal) => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'billing-signals-'));
    scratch.push(dataDir);
    for (let round = 1; round <= ROUNDS; round += 1) {
      const stack = await startStack(dataDir);
      expect(await healthy(stack)).toBe(true);
      signal(stack);
      await expectNothingLeft(stack, `${name} (round ${round})`);
    }
  }, ROUNDS * 240_000);
});
