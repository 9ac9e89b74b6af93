import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PROJECT_ROOT } from './paths.js';

/**
 * Ports handed out by freePort: below Linux's default ephemeral range (32768-60999), which the
 * kernel gives every outgoing connection. A port taken from the ephemeral range can be claimed by a
 * loopback connection (to PostgreSQL, Temporal, ...) between being picked and being listened on.
 */
const PICK_FROM = 20_000;
const PICK_TO = 32_768;

const listenable = (port: number): Promise<number | undefined> =>
  new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as net.AddressInfo;
      server.close(() => resolve(bound));
    });
  });

/** A port free right now on 127.0.0.1, picked at random outside the ephemeral range when one is. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = await listenable(PICK_FROM + Math.floor(Math.random() * (PICK_TO - PICK_FROM)));
    if (port !== undefined) return port;
  }
  const any = await listenable(0);
  if (any === undefined) throw new Error('no free port on 127.0.0.1');
  return any;
}

export function portInUse(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Polls `probe` until it resolves or the deadline passes; the last error explains a timeout. */
export async function waitFor(what: string, probe: () => Promise<unknown>, timeoutMs: number, intervalMs = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      await probe();
      return;
    } catch (err) {
      lastError = err;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`${what} did not become ready within ${timeoutMs} ms: ${(lastError as Error | undefined)?.message ?? 'no answer'}`);
}

/** SIGTERM, then SIGKILL after a grace period; resolves when the process has exited. */
export function stopProcess(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** One of the project's own processes (the API or the worker) started by `startProjectProcess`. */
export interface ProjectProcess {
  child: ChildProcess;
  /** Rejects when the process exits, its last output in the error; never resolves. */
  exited: Promise<never>;
}

/**
 * Starts a project entry point (`src/worker.ts`, `src/main.ts`) under the tsx loader with `env` over
 * this process's environment; resolves once `readyLine` appears in its output, rejects if it exits
 * first. `keepLogIn` (a folder) keeps the process's whole output there, e.g. to find a 500's cause.
 */
export function startProjectProcess(entry: string, env: NodeJS.ProcessEnv, readyLine: string, options: { keepLogIn?: string; nodeArgs?: readonly string[] } = {}): Promise<ProjectProcess> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', entry], { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const keep = options.keepLogIn ? createWriteStream(path.join(options.keepLogIn, `${path.basename(entry, '.ts')}.log`), { flags: 'a' }) : null;
  let output = '';
  const collect = (chunk: Buffer) => {
    keep?.write(chunk);
    output = (output + chunk.toString()).slice(-8_000);
  };
  child.stderr!.on('data', collect);
  const exited = new Promise<never>((_, reject) => child.once('exit', (code, signal) => reject(new Error(`${entry} (${child.pid}) exited (${code ?? signal}): ${output}`))));
  // Awaited only while the process is expected to live.
  exited.catch(() => undefined);
  return new Promise((resolve, reject) => {
    exited.catch(reject);
    child.stdout!.on('data', (chunk: Buffer) => {
      collect(chunk);
      if (output.includes(readyLine)) resolve({ child, exited });
    });
  });
}
