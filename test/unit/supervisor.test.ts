import { spawn } from 'node:child_process';
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

  it('backs off exponentially from 1 s up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map(defaultBackoff)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});
