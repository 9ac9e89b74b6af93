/**
 * One workflow per subscription (id `subscription:<uuid>`), for its whole life: the SPEC §3 state
 * machine over time. Trial end and period ends come from its clock (real timers, or a test clock);
 * pause, resume and cancel arrive as updates whose validators reject invalid moves before anything
 * is recorded. Every move is persisted by an activity (row, audit entry, outbox event in one
 * transaction); the workflow keeps the authoritative in-memory state between them.
 *
 *   Trialing ─trial end─▶ Active ─period end─▶ Active (next period)
 *   Active|PastDue ─pause─▶ Paused ─resume─▶ Active;  Paused ─period end─▶ Cancelled
 *   Trialing|Active|PastDue|Paused ─cancel─▶ Cancelled ─period end─▶ Expired
 *
 * Billing: every period end closes the period: its charges are billed into the Draft of its billing
 * group (core of the rule in src/services/billing.ts; a trial bills nothing), the subscription moves
 * on, and the Draft is finalized once the invoice grace period has passed (late usage and the other
 * subscriptions of the group still land on it meanwhile). A Paused subscription's period is billed
 * when it is cancelled at that period end; a Cancelled one's when it expires. The workflow ends once
 * Expired and its last invoice is finalized. `billSubscription` bills on demand into the current
 * period's Draft; `changePlan` switches plans with proration; with a progressive threshold, accrued
 * charges are checked every progressiveCheckEveryMs and a Draft that reaches it is finalized.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  log,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { WorkflowClock } from './clock.js';
import {
  advanceClockUpdate,
  billSubscriptionUpdate,
  cancelSubscriptionUpdate,
  changePlanUpdate,
  INVALID_TRANSITION,
  nextWakeQuery,
  NOT_FOUND,
  pauseSubscriptionUpdate,
  resumeSubscriptionUpdate,
  subscriptionStateQuery,
  UNPROCESSABLE,
  type PendingClose,
  type SubscriptionCommand,
  type SubscriptionSnapshot,
  type SubscriptionStatus,
  type SubscriptionWorkflowInput,
} from './messages.js';
import { Mutex } from './mutex.js';

const {
  transitionSubscription,
  rollSubscriptionPeriod,
  closeSubscriptionPeriod,
  billSubscriptionNow,
  finalizePeriodInvoice,
  checkProgressiveThreshold,
  changeSubscriptionPlan,
} = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', nonRetryableErrorTypes: [INVALID_TRANSITION, NOT_FOUND, UNPROCESSABLE] },
});

type Move = 'pause' | 'resume' | 'cancel';

const ALLOWED: Record<Move, { from: readonly SubscriptionStatus[]; to: SubscriptionStatus }> = {
  pause: { from: ['Active', 'PastDue'], to: 'Paused' },
  resume: { from: ['Paused'], to: 'Active' },
  cancel: { from: ['Trialing', 'Active', 'PastDue', 'Paused'], to: 'Cancelled' },
};

const BILLABLE: readonly SubscriptionStatus[] = ['Active', 'PastDue', 'Paused', 'Cancelled'];
const PLAN_CHANGEABLE: readonly SubscriptionStatus[] = ['Trialing', 'Active', 'PastDue'];

export async function subscriptionWorkflow(input: SubscriptionWorkflowInput): Promise<SubscriptionSnapshot> {
  const { subscriptionId } = input;
  const clock = new WorkflowClock(input.testClock?.now ?? null);
  let state: SubscriptionSnapshot = {
    status: input.status,
    periodStart: input.periodStart,
    periodEnd: input.periodEnd,
    trialEnd: input.trialEnd,
  };
  const pending: PendingClose[] = [...input.pendingCloses];
  let nextCheckMs = input.progressiveCheckEveryMs === null ? null : clock.nowMs() + input.progressiveCheckEveryMs;
  let finished = false;
  let continuing = false;
  // Moves are serialised: a handler and the main loop never persist concurrently.
  const mutex = new Mutex();
  const nowIso = () => new Date(clock.nowMs()).toISOString();

  const move = async (to: SubscriptionStatus, reason: string, command?: SubscriptionCommand) => {
    state = await transitionSubscription({
      subscriptionId,
      from: state.status,
      to,
      at: nowIso(),
      reason,
      actor: command?.actor ?? { type: 'system', id: 'subscription-workflow' },
      requestId: command?.requestId,
    });
    clock.touch();
  };

  /** Bills the current period to its end; its invoice is finalized when the grace period is over. */
  const closePeriod = async (reason: 'subscription_cycle' | 'subscription_final') => {
    const period = { start: state.periodStart, end: state.periodEnd };
    const { finalizeAt } = await closeSubscriptionPeriod({ subscriptionId, period, reason });
    pending.push({ periodStart: period.start, periodEnd: period.end, finalizeAt });
  };

  const guard = (action: string, statuses: readonly SubscriptionStatus[]) => (_command: SubscriptionCommand) => {
    if (!statuses.includes(state.status)) throw invalidMove(action, state.status);
  };
  const register = (name: Move, update: typeof pauseSubscriptionUpdate) => {
    const rule = ALLOWED[name];
    const allowed = guard(name, rule.from);
    setHandler(
      update,
      (command) =>
        mutex.run(async () => {
          // Re-checked under the lock: the state may have moved since the validator ran.
          allowed(command);
          await move(rule.to, command.reason ?? name, command);
          return state;
        }),
      { validator: allowed },
    );
  };
  register('pause', pauseSubscriptionUpdate);
  register('resume', resumeSubscriptionUpdate);
  register('cancel', cancelSubscriptionUpdate);

  const billable = guard('bill', BILLABLE);
  setHandler(
    billSubscriptionUpdate,
    (command) =>
      mutex.run(async () => {
        billable(command);
        return billSubscriptionNow({ subscriptionId, upTo: nowIso() });
      }),
    { validator: billable },
  );
  const changeable = guard('change the plan of', PLAN_CHANGEABLE);
  setHandler(
    changePlanUpdate,
    (command) =>
      mutex.run(async () => {
        changeable(command);
        return changeSubscriptionPlan({ subscriptionId, at: nowIso(), command });
      }),
    { validator: changeable },
  );

  /** What the main loop waits for next: the earliest of the state deadline, a close's finalization and a progressive check. */
  const nextWake = (): { atMs: number; what: 'state' | 'finalize' | 'check' } | null => {
    const candidates: { atMs: number; what: 'state' | 'finalize' | 'check' }[] = [];
    if (state.status !== 'Expired') {
      candidates.push({ atMs: Date.parse(state.status === 'Trialing' && state.trialEnd ? state.trialEnd : state.periodEnd), what: 'state' });
      if (nextCheckMs !== null && BILLABLE.includes(state.status)) candidates.push({ atMs: nextCheckMs, what: 'check' });
    }
    for (const close of pending) candidates.push({ atMs: Date.parse(close.finalizeAt), what: 'finalize' });
    // Ties go to finalizations first, then the state deadline: a period's invoice is finalized
    // before the next period closes, and a close never waits behind a check at the same instant.
    const rank = { finalize: 0, state: 1, check: 2 };
    candidates.sort((a, b) => a.atMs - b.atMs || rank[a.what] - rank[b.what]);
    return candidates[0] ?? null;
  };

  setHandler(subscriptionStateQuery, () => state);
  setHandler(nextWakeQuery, () => {
    const wake = nextWake();
    return wake === null ? null : new Date(wake.atMs).toISOString();
  });
  setHandler(
    advanceClockUpdate,
    async (to) => {
      clock.advanceTo(to);
      await condition(() => finished || continuing || (clock.caughtUp() && mutex.idle));
      return { caughtUp: !continuing, status: state.status };
    },
    {
      validator: (_to: string) => {
        if (!clock.isTestClock) throw ApplicationFailure.nonRetryable('subscription is not on a test clock', 'NotOnTestClock');
      },
    },
  );

  const step = async (what: 'state' | 'finalize' | 'check') => {
    if (what === 'finalize') {
      const due = pending.filter((close) => Date.parse(close.finalizeAt) <= clock.nowMs());
      for (const close of due) {
        await finalizePeriodInvoice({ subscriptionId, period: { start: close.periodStart, end: close.periodEnd }, at: close.finalizeAt });
        pending.splice(pending.indexOf(close), 1);
      }
      return;
    }
    if (what === 'check') {
      await checkProgressiveThreshold({ subscriptionId, at: nowIso() });
      nextCheckMs = clock.nowMs() + input.progressiveCheckEveryMs!;
      return;
    }
    switch (state.status) {
      case 'Trialing':
        await move('Active', 'trial_ended');
        break;
      case 'Paused':
        await move('Cancelled', 'paused_at_period_end');
        break;
      case 'Cancelled':
        await closePeriod('subscription_final');
        await move('Expired', 'period_ended');
        break;
      default: {
        await closePeriod('subscription_cycle');
        state = await rollSubscriptionPeriod({ subscriptionId, expectedPeriodEnd: state.periodEnd });
        clock.touch();
      }
    }
  };

  try {
    for (let wake = nextWake(); wake !== null; wake = nextWake()) {
      const { atMs, what } = wake;
      if (!(await clock.until(atMs))) continue;
      await mutex.run(() => step(what));
      if (workflowInfo().continueAsNewSuggested) {
        continuing = true;
        await condition(allHandlersFinished);
        await continueAsNew<typeof subscriptionWorkflow>({
          subscriptionId,
          ...state,
          testClock: input.testClock ? { id: input.testClock.id, now: nowIso() } : null,
          progressiveCheckEveryMs: input.progressiveCheckEveryMs,
          pendingCloses: pending,
        });
      }
    }
  } catch (err) {
    // A subscription whose row never committed (its creation failed after this run started) has
    // nothing to run: end quietly instead of failing.
    if (!(err instanceof ActivityFailure && err.cause instanceof ApplicationFailure && err.cause.type === NOT_FOUND)) throw err;
    log.warn('subscription row does not exist; ending its workflow', { subscriptionId });
  }
  finished = true;
  await condition(allHandlersFinished);
  return state;
}

function invalidMove(move: string, status: SubscriptionStatus): ApplicationFailure {
  return ApplicationFailure.nonRetryable(`cannot ${move} a subscription in state ${status}`, INVALID_TRANSITION, { move, status });
}
