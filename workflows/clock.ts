/**
 * Time for entity workflows. Real subscriptions sleep on Temporal timers; subscriptions on a test
 * clock wait until the clock (advanced through an update) passes the deadline. Both wake early when
 * the entity's state changes, so a cancel never waits for a month-long timer.
 */
import { condition } from '@temporalio/workflow';

export class WorkflowClock {
  private testNowMs: number | null;
  /** Deadline the main loop is blocked on, or null while it is working. */
  private waitingForMs: number | null = null;
  private version = 0;

  constructor(testClockNow: string | null) {
    this.testNowMs = testClockNow === null ? null : Date.parse(testClockNow);
  }

  get isTestClock(): boolean {
    return this.testNowMs !== null;
  }

  nowMs(): number {
    return this.testNowMs ?? Date.now();
  }

  /** Wakes the main loop: call after any state change made by a message handler. */
  touch(): void {
    this.version += 1;
  }

  advanceTo(iso: string): void {
    const next = Date.parse(iso);
    if (this.testNowMs !== null && next > this.testNowMs) this.testNowMs = next;
  }

  /** True when the main loop is blocked on a deadline beyond the test clock's time. */
  caughtUp(): boolean {
    return this.waitingForMs !== null && this.testNowMs !== null && this.waitingForMs > this.testNowMs;
  }

  /** Resolves true when the deadline is reached, false when a state change woke the loop first. */
  async until(deadlineMs: number): Promise<boolean> {
    const seen = this.version;
    this.waitingForMs = deadlineMs;
    try {
      if (this.testNowMs !== null) {
        await condition(() => this.version !== seen || this.nowMs() >= deadlineMs);
        return this.version === seen;
      }
      const remaining = deadlineMs - Date.now();
      if (remaining <= 0) return true;
      const woken = await condition(() => this.version !== seen, remaining);
      return !woken;
    } finally {
      this.waitingForMs = null;
    }
  }
}
