/**
 * Time for entity workflows. Real subscriptions sleep on Temporal timers; subscriptions on a test
 * clock wait until the clock (advanced through an update) passes the deadline. Both wake early when
 * the entity's state changes, so a cancel never waits for a month-long timer.
 */
import type { UpdateDefinition } from '@temporalio/common';
import { condition, getExternalWorkflowHandle, log, setHandler } from '@temporalio/workflow';
import { clockAdvancedSignal, clockAdvanceSignal, type ClockAdvanceAnswer } from './shared/messages.js';

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

/** What a clock-driven workflow's `advanceTestClock` update does: its validator and its handler. */
export interface ClockAdvanceDoor<Result extends { caughtUp: boolean; nextWakeAt?: string | null }> {
  /** Throws when the workflow is not on a test clock (the update's validator). */
  validate: () => void;
  /** Moves the clock to `to` and resolves once the run caught up (or continues as new: caughtUp false). */
  catchUp: (to: string, through?: string) => Promise<Result>;
}

/**
 * Registers the test-clock advance with its two doors, one function behind both: the
 * `advanceTestClock` update (the API's and old advances' drive) and the `clockAdvance` signal (the
 * advance workflow's drive, which cannot send updates), answered by the `clockAdvanced` signal to
 * the requester. The signal door needs no patch: a run replays its history's events only, and
 * histories recorded before it have no `clockAdvance` signal, so the handler never runs there and
 * adds no command; only a run that is sent the signal answers it.
 */
export function registerClockAdvance<Result extends { caughtUp: boolean; nextWakeAt?: string | null }>(
  update: UpdateDefinition<Result, [string, string?]> | UpdateDefinition<Result, [string]>,
  door: ClockAdvanceDoor<Result>,
): void {
  const validator = (_to: string, _through?: string) => door.validate();
  setHandler(update as UpdateDefinition<Result, [string, string?]>, (to, through) => door.catchUp(to, through), { validator });
  setHandler(clockAdvanceSignal, async ({ at, through, key, replyTo }) => {
    const answer = await clockAdvanceAnswer(door, key, at, through);
    try {
      await getExternalWorkflowHandle(replyTo).signal(clockAdvancedSignal, answer);
    } catch (err) {
      // The requester ended (its advance was replaced or terminated): nobody waits for the answer.
      log.info('clock advance answer not delivered: the requester does not run', { replyTo, key, error: String(err) });
    }
  });
}

/** The `clockAdvanced` answer to one request: the update's answer, or the validator's refusal. */
async function clockAdvanceAnswer<Result extends { caughtUp: boolean; nextWakeAt?: string | null }>(
  door: ClockAdvanceDoor<Result>,
  key: string,
  at: string,
  through: string,
): Promise<ClockAdvanceAnswer> {
  try {
    door.validate();
  } catch (err) {
    return { key, caughtUp: true, refused: err instanceof Error ? err.message : String(err) };
  }
  const { caughtUp, nextWakeAt } = await door.catchUp(at, through);
  return { key, caughtUp, ...(nextWakeAt === undefined ? {} : { nextWakeAt }) };
}
