/**
 * Supervision of the run command's long-running children (API, worker, Temporal dev server): a child
 * that exits on its own is restarted with exponential backoff and each restart is logged; only
 * repeated fast failure (FAST_FAILURES_TO_GIVE_UP exits in a row, each within FAST_FAILURE_MS of its
 * start) gives up, and the caller then stops the whole stack. A child that ran for a while before
 * failing starts the count again, so a worker killed once a day is restarted every time.
 */
import type { ChildProcess } from 'node:child_process';
import { stopProcess } from './processes.js';

export const FAST_FAILURE_MS = 15_000;
export const FAST_FAILURES_TO_GIVE_UP = 5;
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;

export interface SupervisedOptions {
  name: string;
  /** Starts one instance; resolves once it is up (or at once for processes that need no wait). */
  start: () => Promise<ChildProcess>;
  /** Called with every new instance (e.g. to hand its pid to the reaper). */
  onStarted?: (child: ChildProcess) => void;
  log: (message: string) => void;
  /** Supervision gave up after repeated fast failure. */
  onGiveUp: (reason: string) => void;
  /** Restart delays (tests shorten them); defaults to 1 s doubling up to 30 s. */
  backoffMs?: (failures: number) => number;
  /** An exit this soon after starting counts as a fast failure (default FAST_FAILURE_MS). */
  fastFailureMs?: number;
  /** Fast failures in a row that give up (default FAST_FAILURES_TO_GIVE_UP). */
  giveUpAfter?: number;
}

export const defaultBackoff = (failures: number): number => Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, failures - 1));

export class Supervised {
  private child: ChildProcess | undefined;
  private stopping = false;
  private fastFailures = 0;
  private restarts = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  /** A start in flight (a first start or a restart waiting on readiness); stop() waits for it. */
  private starting: Promise<void> | undefined;

  constructor(private readonly options: SupervisedOptions) {}

  get restartCount(): number {
    return this.restarts;
  }

  start(): Promise<void> {
    const starting = this.startOnce().finally(() => {
      if (this.starting === starting) this.starting = undefined;
    });
    this.starting = starting;
    return starting;
  }

  private async startOnce(): Promise<void> {
    const startedAt = Date.now();
    const child = await this.options.start();
    if (this.stopping) {
      await stopProcess(child);
      return;
    }
    this.child = child;
    this.options.onStarted?.(child);
    child.once('exit', (code, signal) => this.exited(child, startedAt, code, signal));
    // It may have died while start() was still waiting on it.
    if (child.exitCode !== null || child.signalCode !== null) this.exited(child, startedAt, child.exitCode, child.signalCode);
  }

  private exited(child: ChildProcess, startedAt: number, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.stopping || child !== this.child) return;
    this.child = undefined;
    this.failed(Date.now() - startedAt, signal ?? `code ${code}`);
  }

  private failed(ranMs: number, how: string): void {
    const fastMs = this.options.fastFailureMs ?? FAST_FAILURE_MS;
    this.fastFailures = ranMs < fastMs ? this.fastFailures + 1 : 1;
    if (this.fastFailures >= (this.options.giveUpAfter ?? FAST_FAILURES_TO_GIVE_UP)) {
      this.options.onGiveUp(`${this.options.name} exited (${how}) ${this.fastFailures} times in a row, each within ${fastMs} ms of starting`);
      return;
    }
    const delay = (this.options.backoffMs ?? defaultBackoff)(this.fastFailures);
    this.restarts += 1;
    this.options.log(`${this.options.name} exited unexpectedly (${how}) after ${Math.round(ranMs / 1000)} s; restart ${this.restarts} in ${delay} ms`);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      this.start().catch((err: unknown) => {
        if (!this.stopping) this.failed(0, `failed to start: ${(err as Error).message.split('\n')[0]}`);
      });
    }, delay);
  }

  /**
   * No more restarts from now on, synchronously. The run command halts every child at the first
   * stop signal: the signal may also have reached the children themselves (a signal to the process
   * group), and one that exits before its turn in the stop order must not be restarted as if it had
   * crashed, or the new instance would outlive the run command.
   */
  halt(): void {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  /** Stops the current instance, any pending restart, and an instance still starting. */
  async stop(): Promise<void> {
    this.halt();
    await this.starting?.catch(() => {});
    if (this.child) await stopProcess(this.child);
  }
}
