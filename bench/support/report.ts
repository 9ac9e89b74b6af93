/** What every benchmark report opens with, and how a benchmark run ends. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { Teardown } from './lifecycle.js';

/** "- date", "- machine" (with what runs on it) and "- node" lines of a report header. */
export function environmentLines(whatRunsOnIt: string): string[] {
  const cpus = os.cpus();
  return [
    `- date: ${new Date().toISOString()}`,
    `- machine: ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB (a shared VM); ${whatRunsOnIt}`,
    `- node: ${process.version}`,
  ];
}

/** The machine's load average before the run (taken at its start) and now. */
export const loadLine = (loadBefore: number[]): string =>
  `- machine load average before the run: ${loadBefore.map((l) => l.toFixed(2)).join(', ')} (1, 5, 15 min); after: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`;

export function writeReport(file: string, lines: string[], log: (line: string) => void): void {
  writeFileSync(file, lines.join('\n'));
  log(`report written to ${file}`);
}

/** Where a report's key figures are kept: beside it, the same name with .json (what bench/cost-curves.ts compares). */
const figuresFile = (report: string): string => `${report.replace(/\.md$/, '')}.json`;

export function writeFigures(report: string, figures: object, log: (line: string) => void): void {
  const file = figuresFile(report);
  writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
  log(`figures written to ${file}`);
}

/** The figures a run of the report's benchmark kept, or undefined when none did. */
export function readFigures<T>(report: string): T | undefined {
  const file = figuresFile(report);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
}

/** The targets this run missed, by how much (verdict). */
const missedTargets: string[] = [];

/**
 * A target's verdict for a report: `met`, or `**MISSED** (by how much)`; a missed target also makes
 * the run end loudly (endRun: the MISSED lines on stderr and exit code 1), so a regression is seen
 * the day it lands.
 */
export function verdict(met: boolean, missedBy: string): string {
  if (met) return 'met';
  missedTargets.push(missedBy);
  return `**MISSED** (${missedBy})`;
}

/** The exit code of a run that finished: 1 after listing the targets it missed, else 0. */
export function endRun(): 0 | 1 {
  if (missedTargets.length === 0) return 0;
  process.stderr.write(`MISSED ${missedTargets.length} target(s):\n  ${missedTargets.join('\n  ')}\n`);
  return 1;
}

/**
 * Runs the benchmark and exits: 0 when it finished and met its targets, 1 when it missed one (see
 * verdict) or failed (after logging why), 130 when SIGINT or SIGTERM stopped it (after undoing what
 * it had started).
 */
export function runBenchmark(main: () => Promise<void>, log: (line: string) => void): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      stopping = true;
      log(`${signal}: stopping what the run started`);
      void Teardown.runAll().finally(() => process.exit(130));
    });
  }
  // Once stopping, the run's own work fails as what it uses goes away (a closed pool, a stopped
  // process): those failures are expected and must not end the process before the teardown has.
  process.on('unhandledRejection', (err: unknown) => {
    if (stopping) return;
    log(`failed: ${(err as Error).stack ?? String(err)}`);
    process.exit(1);
  });
  main().then(
    () => {
      if (!stopping) process.exit(endRun());
    },
    (err: unknown) => {
      if (stopping) return;
      log(`failed: ${(err as Error).stack ?? String(err)}`);
      process.exit(1);
    },
  );
}
