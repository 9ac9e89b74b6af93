/**
 * The run command's reaper: a small process in its own session that outlives the run command. The run
 * command tells it, over its stdin, which processes it started (in start order); when that pipe closes
 * without a final "release" (the run command died, even by SIGKILL, or its whole process group was
 * killed), the reaper stops them in reverse order: SIGTERM (SIGINT for PostgreSQL, its fast shutdown),
 * then SIGKILL after a grace period. A clean stop of the run command releases it and it exits quietly.
 *
 * Run as a program (`node --import tsx src/dev/reaper.ts`); startReaper() is the run command's side.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** One process to stop: by pid, or PostgreSQL by its data folder (its postmaster.pid names the pid). */
export type ReapTarget =
  | { name: string; pid: number; signal?: NodeJS.Signals }
  | { name: string; postgresDataDir: string };

type Message = ReapTarget | { release: true };

const GRACE_MS = 10_000;
const POLL_MS = 100;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

async function stop(pid: number, signal: NodeJS.Signals): Promise<void> {
  if (!alive(pid)) return;
  try {
    process.kill(pid, signal);
  } catch {
    return;
  }
  const deadline = Date.now() + GRACE_MS;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, POLL_MS));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
}

async function reap(targets: ReapTarget[]): Promise<void> {
  for (const target of [...targets].reverse()) {
    if ('pid' in target) await stop(target.pid, target.signal ?? 'SIGTERM');
    else {
      const pid = postmasterPid(target.postgresDataDir);
      if (pid !== undefined) await stop(pid, 'SIGINT');
    }
  }
}

function runReaper(): void {
  // The run command's group signals must not reach the reaper (it has its own session), and neither
  // may a terminal hang-up.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => {});
  const targets = new Map<string, ReapTarget>();
  let released = false;
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    const message = JSON.parse(line) as Message;
    if ('release' in message) released = true;
    else {
      // A restarted child replaces its earlier registration but keeps its place in the stop order.
      targets.set(message.name, message);
    }
  });
  lines.on('close', () => {
    if (released) process.exit(0);
    void reap([...targets.values()]).finally(() => process.exit(0));
  });
}

export interface Reaper {
  watch(target: ReapTarget): void;
  /** The run command stopped everything itself: the reaper exits without acting. */
  release(): void;
}

/** Starts the reaper in its own session; it acts only if this process dies without release(). */
export function startReaper(): Reaper {
  // The run command's pid in the arguments tells operators (and tests) whose reaper this is.
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), `--for=${process.pid}`], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    env: { ...process.env, BILLING_REAPER: '1' },
  });
  child.unref();
  const send = (message: Message) => {
    if (child.stdin?.writable) child.stdin.write(`${JSON.stringify(message)}\n`);
  };
  child.stdin?.on('error', () => {});
  return {
    watch: (target) => send(target),
    release: () => {
      send({ release: true });
      child.stdin?.end();
    },
  };
}

if (process.env.BILLING_REAPER === '1' && process.argv[1] === fileURLToPath(import.meta.url)) runReaper();
