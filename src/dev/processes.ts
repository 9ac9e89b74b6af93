import { type ChildProcess } from 'node:child_process';
import net from 'node:net';

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
