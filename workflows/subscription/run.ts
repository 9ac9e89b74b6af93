/**
 * The state of one subscription workflow run, and the steps that persist its moves. Handlers and the
 * main loop share it; every step runs under `mutex`, so they never persist concurrently.
 */
import { ActivityFailure, log, patched, proxyActivities, sleep, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { WorkflowClock } from '../clock.js';
import {
  ACTIVITY_RETRY,
  BILLING_STATUS_ATTRIBUTE,
  INVALID_TRANSITION,
  NOT_FOUND,
  UNPROCESSABLE,
  type SubscriptionCommand,
} from '../shared/messages.js';
import type { ClosedPeriod, PendingClose, SubscriptionSnapshot, SubscriptionStatus, SubscriptionWorkflowInput } from './messages.js';
import { OperatorHold, type HeldFailures } from '../hold.js';
import { Mutex } from '../mutex.js';
import { BILLING_ERRORS, CLOSE_AND_ROLL_IN_ONE_ACTIVITY, ENTITLEMENT_RESET, ENTITLEMENT_RESET_HELD, RUNS_INVOICE_FOLLOW_UPS, SHADOW_BILLING, STATUS_SEARCH_ATTRIBUTE, THRESHOLD_ON_CROSSING } from './patches.js';
import { followedUp } from '../follow-ups/index.js';
import type { WithFollowUps } from '../follow-ups/messages.js';
import { BILLABLE, deadlineStep } from './state-machine.js';
import { nextWake, type Wake, type WakeReason } from './wake.js';

export const activities = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: ACTIVITY_RETRY,
});

/** Shadow billing's rating and the entitlement reset: a few attempts, then logged (they never hold billing for long). */
const shadowActivities = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { ...ACTIVITY_RETRY, maximumAttempts: 3 },
});

/**
 * How long (workflow time, real even on a test clock) a `usageAccrued` signal waits before its
 * threshold check: the signals of a burst arriving meanwhile join that one check.
 */
export const THRESHOLD_CROSSING_DEBOUNCE_MS = 1_000;

export class SubscriptionRun {
  readonly subscriptionId: string;
  readonly clock: WorkflowClock;
  readonly mutex = new Mutex();
  /** Payment-outcome signals waiting for or holding the lock: a test-clock advance waits for them too. */
  paymentMoves = 0;
  state: SubscriptionSnapshot;
  /** Closed periods whose invoices wait for the end of their grace period. */
  readonly pending: PendingClose[];
  /** Rolled periods whose entitlement reset is still to run (ENTITLEMENT_RESET_HELD): due at once, before anything else. */
  private readonly resets: ClosedPeriod[];
  /** Subscription time of the next progressive-billing check; null without a threshold. */
  private nextCheckMs: number | null;
  /** The latest customer time a `usageAccrued` signal carried while a crossing check is armed; null when none is armed. */
  private crossingAt: number | null = null;
  /** Crossing checks armed or running: a test-clock advance waits for them. */
  crossingChecks = 0;
  /** The main loop has ended: clock advances answer at once. */
  finished = false;
  /** The run is about to continue as new: clock advances answer caughtUp=false and go to the next run. */
  continuing = false;
  /**
   * A step that failed and holds the main loop until an operator retries it (its `error`; null when
   * none); its steps: the main-loop steps attempted so far, done or failed.
   */
  readonly hold: OperatorHold;
  private readonly failures: HeldFailures;
  /** The time the test-clock advance in progress reaches (its drive says so with each step); null when unknown. */
  private advanceThroughMs: number | null = null;

  constructor(private readonly input: SubscriptionWorkflowInput) {
    this.subscriptionId = input.subscriptionId;
    this.clock = new WorkflowClock(input.testClock?.now ?? null);
    this.state = { status: input.status, periodStart: input.periodStart, periodEnd: input.periodEnd, trialEnd: input.trialEnd };
    this.pending = [...input.pendingCloses];
    this.resets = [...(input.pendingResets ?? [])];
    this.nextCheckMs = input.progressiveCheckEveryMs === null ? null : this.clock.nowMs() + input.progressiveCheckEveryMs;
    this.hold = new OperatorHold({ entity: 'subscription', id: this.subscriptionId, what: 'the subscription', activities });
    this.failures = {
      holds: (err: unknown): err is ActivityFailure => err instanceof ActivityFailure && patched(BILLING_ERRORS),
      at: () => this.nowIso(),
      message: 'subscription billing failed; holding for an operator retry',
      fields: { subscriptionId: this.subscriptionId },
    };
  }

  nowIso(): string {
    return new Date(this.clock.nowMs()).toISOString();
  }

  /** The advance in progress reaches `through` (a later step of the same advance may say so again). */
  advanceReaches(through: string): void {
    const ms = Date.parse(through);
    if (!Number.isNaN(ms)) this.advanceThroughMs = Math.max(this.advanceThroughMs ?? ms, ms);
  }

  nextWake(): Wake | null {
    return nextWake(this.state, this.nextCheckMs, this.pending, this.resets);
  }

  /** Persists a state move (row, audit entry, outbox event) and wakes the main loop for the new state. */
  async move(to: SubscriptionStatus, reason: string, command?: SubscriptionCommand): Promise<void> {
    this.state = await activities.transitionSubscription({
      subscriptionId: this.subscriptionId,
      from: this.state.status,
      to,
      at: this.nowIso(),
      reason,
      // A move the workflow makes on its own (trial end, expiry) is the workflow's; only the activity's input changes, so no patch.
      actor: command?.actor ?? { type: 'workflow', id: workflowInfo().workflowId },
      requestId: command?.requestId,
    });
    if (patched(STATUS_SEARCH_ATTRIBUTE)) upsertSearchAttributes([{ key: BILLING_STATUS_ATTRIBUTE, value: this.state.status }]);
    this.clock.touch();
  }

  /**
   * Runs a due step. An activity failure (deterministic, or transient past its retry schedule)
   * becomes the subscription's billing_error (row, audit entry, log line) instead of failing the
   * workflow; the main loop then holds until an operator retries.
   */
  async attempt(what: WakeReason): Promise<void> {
    await this.hold.attempt(() => this.step(what), this.failures);
  }

  /** What became due at a wake: finalize closed periods past their grace, check the progressive threshold, or act on the state deadline. */
  async step(what: WakeReason): Promise<void> {
    if (what === 'reset') {
      await this.runResets();
      return;
    }
    if (what === 'finalize') {
      const due = this.pending.filter((close) => Date.parse(close.finalizeAt) <= this.clock.nowMs());
      for (const close of due) {
        await this.followedUp(activities.finalizePeriodInvoice({ subscriptionId: this.subscriptionId, period: { start: close.periodStart, end: close.periodEnd }, at: close.finalizeAt }));
        this.pending.splice(this.pending.indexOf(close), 1);
      }
      return;
    }
    if (what === 'check') {
      await this.followedUp(activities.checkProgressiveThreshold({ subscriptionId: this.subscriptionId, at: this.nowIso() }));
      this.nextCheckMs = this.clock.nowMs() + this.input.progressiveCheckEveryMs!;
      return;
    }
    const next = deadlineStep(this.state.status);
    switch (next.kind) {
      case 'move':
        await this.move(next.to, next.reason);
        return;
      case 'close-and-expire':
        await this.closePeriod('subscription_final');
        await this.move('Expired', 'period_ended');
        return;
      case 'close-and-roll':
        if (patched(CLOSE_AND_ROLL_IN_ONE_ACTIVITY)) {
          const period = { start: this.state.periodStart, end: this.state.periodEnd };
          // On a test clock whose advance goes past this period's grace end, the activity may finalize
          // the Draft at once (only the activity's input changes: no patch); its answer says so.
          const through = this.advanceThroughMs !== null && this.advanceThroughMs > this.clock.nowMs() ? new Date(this.advanceThroughMs).toISOString() : undefined;
          const closed = await this.followedUp(
            activities.closeAndRollSubscriptionPeriod({
              subscriptionId: this.subscriptionId,
              period,
              reason: 'subscription_cycle',
              ...(through === undefined ? {} : { finalizeDueBy: through }),
            }),
          );
          if (closed.finalized !== true) this.pending.push({ periodStart: period.start, periodEnd: period.end, finalizeAt: closed.finalizeAt });
          this.state = closed.state;
          this.clock.touch();
          await this.rateShadow(period, closed.shadow);
          await this.resetEntitlements(period, closed.entitlements);
          return;
        }
        await this.closePeriod('subscription_cycle');
        this.state = await activities.rollSubscriptionPeriod({ subscriptionId: this.subscriptionId, expectedPeriodEnd: this.state.periodEnd });
        this.clock.touch();
    }
  }

  /**
   * A billing activity's result without its follow-ups, once this workflow ran them
   * (RUNS_INVOICE_FOLLOW_UPS): the invoice workflows it starts, the finalizes it asks of them.
   */
  followedUp<T extends object>(step: Promise<WithFollowUps<T>>): Promise<T> {
    return followedUp(step, RUNS_INVOICE_FOLLOW_UPS);
  }

  /** The input of the next run: the live state, the test clock's time and the closes still pending. */
  continueAsNewInput(): SubscriptionWorkflowInput {
    return {
      subscriptionId: this.subscriptionId,
      ...this.state,
      testClock: this.input.testClock ? { id: this.input.testClock.id, now: this.nowIso() } : null,
      progressiveCheckEveryMs: this.input.progressiveCheckEveryMs,
      pendingCloses: this.pending,
      ...(this.resets.length > 0 ? { pendingResets: this.resets } : {}),
    };
  }

  /**
   * Usage was stored for the subscription at the customer's time `at`: unless a check is armed
   * already (then the signal joins it), arms one that runs after THRESHOLD_CROSSING_DEBOUNCE_MS and
   * finalizes the period's Draft if the accrued charges crossed the threshold. The check is disarmed
   * when it starts, so usage signalled while it runs gets a check of its own (it may have been
   * committed after the check read the usage). A check that fails is logged and left to the daily
   * check, which holds for an operator.
   */
  async usageAccrued(at: string): Promise<void> {
    const atMs = Date.parse(at);
    if (this.crossingAt !== null) {
      if (!Number.isNaN(atMs)) this.crossingAt = Math.max(this.crossingAt, atMs);
      return;
    }
    if (this.finished || !patched(THRESHOLD_ON_CROSSING)) return;
    this.crossingAt = Number.isNaN(atMs) ? 0 : atMs;
    this.crossingChecks += 1;
    let started = false;
    try {
      await sleep(THRESHOLD_CROSSING_DEBOUNCE_MS);
      await this.mutex.run(() => {
        started = true;
        return this.checkCrossing();
      });
    } finally {
      // Disarmed by the check itself (a signal during the check arms the next one); else here.
      if (!started) this.crossingAt = null;
      this.crossingChecks -= 1;
    }
  }

  /** The armed crossing check, at the later of the run's time and the signalled customer time (a run on a test clock may lag its clock). */
  private async checkCrossing(): Promise<void> {
    const at = new Date(Math.max(this.clock.nowMs(), this.crossingAt ?? 0)).toISOString();
    this.crossingAt = null;
    // A held run bills nothing until an operator's retry; outside a billable state there is nothing to bill.
    if (this.finished || this.hold.error !== null || !BILLABLE.includes(this.state.status)) return;
    try {
      await this.followedUp(activities.checkThresholdCrossing({ subscriptionId: this.subscriptionId, at }));
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      log.warn('threshold crossing check failed; the daily check will retry', { subscriptionId: this.subscriptionId, at, error: err.cause?.message ?? err.message });
    }
  }

  /** Closes a period a coterm realignment cut short (billed now, finalized when its grace period is over). */
  async closeCutPeriod(period: { start: string; end: string }): Promise<void> {
    const { finalizeAt, shadow } = await activities.closeSubscriptionPeriod({ subscriptionId: this.subscriptionId, period, reason: 'subscription_cycle' });
    this.pending.push({ periodStart: period.start, periodEnd: period.end, finalizeAt });
    await this.rateShadow(period, shadow);
  }

  /** Bills the current period to its end; its invoice is finalized when the grace period is over. */
  private async closePeriod(reason: 'subscription_cycle' | 'subscription_final'): Promise<void> {
    const period = { start: this.state.periodStart, end: this.state.periodEnd };
    const { finalizeAt, shadow } = await activities.closeSubscriptionPeriod({ subscriptionId: this.subscriptionId, period, reason });
    this.pending.push({ periodStart: period.start, periodEnd: period.end, finalizeAt });
    await this.rateShadow(period, shadow);
  }

  /**
   * The entitlement reset after a roll that asked for it (the subscription gives Metered features):
   * the closed period's grants settled, `entitlement.reset` written. Since ENTITLEMENT_RESET_HELD it
   * is a step of its own: kept as pending until it ran, so a failure past the activity's retries holds
   * the loop as the billing_error (see attempt) and the operator's retry runs it first. Before, a
   * failure after a few attempts was logged and the loop went on.
   */
  private async resetEntitlements(period: ClosedPeriod, asked: boolean | undefined): Promise<void> {
    if (asked !== true || !patched(ENTITLEMENT_RESET)) return;
    if (patched(ENTITLEMENT_RESET_HELD)) {
      this.resets.push(period);
      await this.runResets();
      return;
    }
    await this.logFailure(() => shadowActivities.resetEntitlements({ subscriptionId: this.subscriptionId, period }), 'entitlement reset failed; grants of the closed period are not settled', period);
  }

  /** Runs the pending entitlement resets, oldest first; each is dropped once it ran (a failure leaves it pending). */
  private async runResets(): Promise<void> {
    while (this.resets.length > 0) {
      await activities.resetEntitlements({ subscriptionId: this.subscriptionId, period: this.resets[0]! });
      this.resets.shift();
    }
  }

  /** Runs a step that never holds billing: an activity failure (after its few attempts) is logged and the loop goes on. */
  private async logFailure(step: () => Promise<unknown>, message: string, period: { start: string }): Promise<void> {
    try {
      await step();
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      log.warn(message, { subscriptionId: this.subscriptionId, periodStart: period.start, error: err.cause?.message ?? err.message });
    }
  }

  /**
   * Shadow billing after a close that asked for it (its activity answered `shadow: true`): the closed
   * period rated with the candidates attached to the subscription. A failure is logged and the loop
   * goes on: a shadow never holds billing.
   */
  private async rateShadow(period: { start: string; end: string }, asked: boolean | undefined): Promise<void> {
    if (asked !== true || !patched(SHADOW_BILLING)) return;
    await this.logFailure(() => shadowActivities.rateShadowBilling({ subscriptionId: this.subscriptionId, period }), 'shadow billing failed; billing is unaffected', period);
  }
}
