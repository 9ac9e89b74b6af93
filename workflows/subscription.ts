/**
 * One workflow per subscription (id `subscription:<uuid>`), for its whole life: the SPEC §3 state
 * machine over time. Trial end and period ends come from its clock (real timers, or a test clock);
 * pause, resume and cancel arrive as updates whose validators reject invalid moves before anything
 * is recorded. Every move is persisted by an activity (row, audit entry, outbox event in one
 * transaction); the workflow keeps the authoritative in-memory state between them.
 *
 *   Trialing ─trial end─▶ Active ─period end─▶ Active (next period)
 *   Active|PastDue ─pause─▶ Paused ─resume─▶ Active;  Paused ─period end─▶ Cancelled
 *   Trialing|Active|PastDue|Paused ─cancel─▶ Cancelled ─period end─▶ Expired (workflow ends)
 *
 * Billing: each period end of an Active/PastDue subscription bills the period and finalizes its
 * invoice (through the invoice's own workflow) before the next period begins; a cancelled
 * subscription's last period is billed when it expires (not when it was cancelled while Paused).
 * `billSubscription` bills on demand into the period's Draft; `changePlan` switches plans with
 * proration; with a progressive threshold, accrued charges are checked every
 * progressiveCheckEveryMs and a Draft that reaches it is finalized.
 */
import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
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
  pauseSubscriptionUpdate,
  resumeSubscriptionUpdate,
  subscriptionStateQuery,
  type SubscriptionCommand,
  type SubscriptionSnapshot,
  type SubscriptionStatus,
  type SubscriptionWorkflowInput,
} from './messages.js';

const { transitionSubscription, rollSubscriptionPeriod, billSubscriptionPeriod, checkProgressiveThreshold, changeSubscriptionPlan } =
  proxyActivities<Activities>({
    startToCloseTimeout: '30 seconds',
    retry: { initialInterval: '1 second', maximumInterval: '1 minute', nonRetryableErrorTypes: [INVALID_TRANSITION, 'NotFound', 'Unprocessable'] },
  });

type Move = 'pause' | 'resume' | 'cancel';

const ALLOWED: Record<Move, { from: readonly SubscriptionStatus[]; to: SubscriptionStatus }> = {
  pause: { from: ['Active', 'PastDue'], to: 'Paused' },
  resume: { from: ['Paused'], to: 'Active' },
  cancel: { from: ['Trialing', 'Active', 'PastDue', 'Paused'], to: 'Cancelled' },
};

export async function subscriptionWorkflow(input: SubscriptionWorkflowInput): Promise<SubscriptionSnapshot> {
  const { subscriptionId } = input;
  const clock = new WorkflowClock(input.testClock?.now ?? null);
  let state: SubscriptionSnapshot = {
    status: input.status,
    periodStart: input.periodStart,
    periodEnd: input.periodEnd,
    trialEnd: input.trialEnd,
  };
  let billsAtPeriodEnd = input.billsAtPeriodEnd;
  let nextCheckMs = input.progressiveCheckEveryMs === null ? null : clock.nowMs() + input.progressiveCheckEveryMs;
  let finished = false;
  let continuing = false;
  // Moves are serialised: a handler and the main loop never persist concurrently.
  let busy = false;
  const exclusively = async <T>(fn: () => Promise<T>): Promise<T> => {
    await condition(() => !busy);
    busy = true;
    try {
      return await fn();
    } finally {
      busy = false;
    }
  };

  const move = async (to: SubscriptionStatus, reason: string, command?: SubscriptionCommand) => {
    const from = state.status;
    state = await transitionSubscription({
      subscriptionId,
      from,
      to,
      at: new Date(clock.nowMs()).toISOString(),
      reason,
      actor: command?.actor ?? { type: 'system', id: 'subscription-workflow' },
      requestId: command?.requestId,
    });
    clock.touch();
  };

  const register = (move_: Move, update: typeof pauseSubscriptionUpdate) => {
    const rule = ALLOWED[move_];
    setHandler(
      update,
      (command) =>
        exclusively(async () => {
          // Re-checked under the lock: the state may have moved since the validator ran.
          if (!rule.from.includes(state.status)) throw invalidMove(move_, state.status);
          await move(rule.to, command.reason ?? move_, command);
          return state;
        }),
      {
        validator: (_command: SubscriptionCommand) => {
          if (!rule.from.includes(state.status)) throw invalidMove(move_, state.status);
        },
      },
    );
  };
  const nowIso = () => new Date(clock.nowMs()).toISOString();
  const billing = (statuses: readonly SubscriptionStatus[], action: string) => (_command: SubscriptionCommand) => {
    if (!statuses.includes(state.status)) throw invalidMove(action, state.status);
  };
  setHandler(
    billSubscriptionUpdate,
    (command) =>
      exclusively(async () => {
        billing(BILLABLE, 'bill')(command);
        const { invoiceId } = await billSubscriptionPeriod({ subscriptionId, upTo: nowIso(), reason: 'manual', finalize: false });
        return { invoiceId };
      }),
    { validator: billing(BILLABLE, 'bill') },
  );
  setHandler(
    changePlanUpdate,
    (command) =>
      exclusively(async () => {
        billing(PLAN_CHANGEABLE, 'change the plan of')(command);
        const { invoiceId } = await changeSubscriptionPlan({ subscriptionId, at: nowIso(), command });
        return { invoiceId };
      }),
    { validator: billing(PLAN_CHANGEABLE, 'change the plan of') },
  );

  register('pause', pauseSubscriptionUpdate);
  register('resume', resumeSubscriptionUpdate);
  register('cancel', cancelSubscriptionUpdate);

  setHandler(subscriptionStateQuery, () => state);
  setHandler(
    advanceClockUpdate,
    async (nowIso) => {
      clock.advanceTo(nowIso);
      await condition(() => finished || continuing || (clock.caughtUp() && !busy));
      return { caughtUp: !continuing, status: state.status };
    },
    {
      validator: (_nowIso: string) => {
        if (!clock.isTestClock) throw ApplicationFailure.nonRetryable('subscription is not on a test clock', 'NotOnTestClock');
      },
    },
  );

  while (state.status !== 'Expired') {
    const stateDeadline = Date.parse(state.status === 'Trialing' && state.trialEnd ? state.trialEnd : state.periodEnd);
    const checkDue = nextCheckMs !== null && nextCheckMs < stateDeadline && BILLABLE.includes(state.status);
    if (!(await clock.until(checkDue ? nextCheckMs! : stateDeadline))) continue;
    await exclusively(async () => {
      if (checkDue) {
        await checkProgressiveThreshold({ subscriptionId, at: nowIso() });
        nextCheckMs = clock.nowMs() + input.progressiveCheckEveryMs!;
        return;
      }
      const periodEndIso = state.periodEnd;
      switch (state.status) {
        case 'Trialing':
          await move('Active', 'trial_ended');
          break;
        case 'Paused':
          billsAtPeriodEnd = false;
          await move('Cancelled', 'paused_at_period_end');
          break;
        case 'Cancelled':
          if (billsAtPeriodEnd) {
            await billSubscriptionPeriod({ subscriptionId, upTo: periodEndIso, reason: 'subscription_final', finalize: true });
          }
          await move('Expired', 'period_ended');
          break;
        default:
          await billSubscriptionPeriod({ subscriptionId, upTo: periodEndIso, reason: 'subscription_cycle', finalize: true });
          state = await rollSubscriptionPeriod({ subscriptionId, expectedPeriodEnd: periodEndIso });
          clock.touch();
      }
    });
    if (workflowInfo().continueAsNewSuggested) {
      continuing = true;
      await condition(allHandlersFinished);
      await continueAsNew<typeof subscriptionWorkflow>({
        subscriptionId,
        ...state,
        testClock: input.testClock ? { id: input.testClock.id, now: nowIso() } : null,
        progressiveCheckEveryMs: input.progressiveCheckEveryMs,
        billsAtPeriodEnd,
      });
    }
  }
  finished = true;
  await condition(allHandlersFinished);
  return state;
}

const BILLABLE: readonly SubscriptionStatus[] = ['Active', 'PastDue', 'Paused', 'Cancelled'];
const PLAN_CHANGEABLE: readonly SubscriptionStatus[] = ['Trialing', 'Active', 'PastDue'];

function invalidMove(move: string, status: SubscriptionStatus): ApplicationFailure {
  return ApplicationFailure.nonRetryable(`cannot ${move} a subscription in state ${status}`, INVALID_TRANSITION, { move, status });
}
