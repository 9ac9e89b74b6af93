import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { defaultBackoff, Supervised } from '../../src/dev/supervisor.js';

/** A real child process that exits with `code` after `afterMs`. */
const exitingChild = (code: number, afterMs: number) => async () =>
  spawn(process.execPath, ['-e', `setTimeout(() => process.exit(${code}), ${afterMs})`], { stdio: 'ignore' });

function supervised(start: ReturnType<typeof exitingChild>, fastFailureMs: number) {
  const log: string[] = [];
  let gaveUp: ((reason: string) => void) | undefined;
  const givenUp = new Promise<string>((resolve) => (gaveUp = resolve));
  const starts: number[] = [];
  const s = new Supervised({
    name: 'child',
    start: async () => {
      starts.push(Date.now());
      return start();
    },
    log: (m) => log.push(m),
    onGiveUp: (reason) => gaveUp!(reason),
    backoffMs: () => 10,
    fastFailureMs,
    giveUpAfter: 3,
  });
  return { s, log, givenUp, starts };
}

describe('run-command supervision', () => {
  it('restarts a child that exits, logging each restart, and gives up after repeated fast failure', async () => {
    const { s, log, givenUp, starts } = supervised(exitingChild(3, 0), 60_000);
    await s.start();
    expect(await givenUp).toMatch(/child exited \(code 3\) 3 times in a row/);
    expect(starts).toHaveLength(3);
    expect(log).toHaveLength(2);
    expect(log[0]).toMatch(/child exited unexpectedly \(code 3\) after \d+ s; restart 1 in 10 ms/);
    await s.stop();
  });

  it('keeps restarting a child that runs for a while before each failure', async () => {
    const { s, log, starts } = supervised(exitingChild(1, 150), 100);
    await s.start();
    while (starts.length < 6) await new Promise((r) => setTimeout(r, 20));
    await s.stop();
    expect(log.length).toBeGreaterThanOrEqual(5);
    expect(s.restartCount).toBeGreaterThanOrEqual(5);
  });

  it('stops the current child and cancels a pending restart', async () => {
    const { s, starts } = supervised(async () => spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }), 60_000);
    await s.start();
    await s.stop();
    await new Promise((r) => setTimeout(r, 50));
    expect(starts).toHaveLength(1);
  });

  it('after halt, a child that exits on its own (a group signal reached it first) is not restarted', async () => {
    let child: ReturnType<typeof spawn> | undefined;
    const { s, starts, log } = supervised(async () => (child = await exitingChild(0, 100)()), 60_000);
    await s.start();
    s.halt();
    // The supervisor's own exit listener was registered first, so it has decided by the time this one runs.
    await once(child!, 'exit');
    expect(log).toEqual([]);
    expect(starts).toHaveLength(1);
    await s.stop();
  });

  it('stop waits for an instance still starting and stops it too', async () => {
    let child: ReturnType<typeof spawn> | undefined;
    let ready!: () => void;
    const readiness = new Promise<void>((r) => (ready = r));
    const { s } = supervised(async () => {
      child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      await readiness;
      return child;
    }, 60_000);
    const started = s.start();
    const stopped = s.stop();
    ready();
    await Promise.all([started, stopped]);
    expect(child!.exitCode !== null || child!.signalCode !== null).toBe(true);
  });

  it('backs off exponentially from 1 s up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(defaultBackoff)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});
