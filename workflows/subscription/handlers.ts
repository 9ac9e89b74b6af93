/**
 * The subscription workflow's messages: state-machine moves and billing commands as updates (each
 * guarded by the state machine before anything is recorded and run under the run's lock), the
 * test-clock advance, and the queries. Another command is one more `registerCommand` call.
 */
import type { UpdateDefinition } from '@temporalio/common';
import { ApplicationFailure, condition, patched, setHandler } from '@temporalio/workflow';
import { registerClockAdvance } from '../clock.js';
import { CONTINUING_AS_NEW, nextWakeQuery, type SubscriptionCommand } from '../shared/messages.js';
import {
  advanceClockUpdate,
  alignToContractUpdate,
  billSubscriptionUpdate,
  cancelSubscriptionUpdate,
  changePlanUpdate,
  pauseSubscriptionUpdate,
  paymentOutcomeSignal,
  resumeSubscriptionUpdate,
  retrySubscriptionBillingUpdate,
  subscriptionStateQuery,
  usageAccruedSignal,
  type ChangePlanCommand,
  type SubscriptionSnapshot,
  type SubscriptionStatus,
} from './messages.js';
import { COMMANDS_AT_CLOCK_TIME, CONTINUE_AS_NEW_ON_EVERY_WAKE, COTERM_ALIGNMENT, TRIAL_ENDS_ON_PAYMENT } from './patches.js';
import { activities, type SubscriptionRun } from './run.js';
import { ALLOWED, assertAllowed, BILLABLE, COTERM_ALIGNABLE, PLAN_CHANGEABLE, type Move } from './state-machine.js';

const MOVES: Record<Move, UpdateDefinition<SubscriptionSnapshot, [SubscriptionCommand]>> = {
  pause: pauseSubscriptionUpdate,
  resume: resumeSubscriptionUpdate,
  cancel: cancelSubscriptionUpdate,
};

export function registerHandlers(run: SubscriptionRun): void {
  for (const name of ['pause', 'resume', 'cancel'] as const) {
    const rule = ALLOWED[name];
    registerCommand(run, MOVES[name], name, rule.from, async (command) => {
      await run.move(rule.to, command.reason ?? name, command);
      return run.state;
    });
  }

  registerCommand(run, billSubscriptionUpdate, 'bill', BILLABLE, async (command: SubscriptionCommand) => {
    // The caller's command goes along for the audit trail: only the activity's input changes, so no patch.
    const result = await run.followedUp(activities.billSubscriptionNow({ subscriptionId: run.subscriptionId, upTo: run.nowIso(), command }));
    wakeMainLoop(run);
    return result;
  });
  registerCommand(run, alignToContractUpdate, 'align to its contract', COTERM_ALIGNABLE, async (command) => {
    patched(COTERM_ALIGNMENT);
    const aligned = await activities.alignSubscriptionToContract({
      subscriptionId: run.subscriptionId,
      at: run.nowIso(),
      actor: command.actor,
      requestId: command.requestId,
    });
    run.state = aligned.state;
    if (aligned.closed !== null) await run.closeCutPeriod(aligned.closed);
    run.clock.touch();
    return run.state;
  });
  registerCommand(run, changePlanUpdate, 'change the plan of', PLAN_CHANGEABLE, async (command: ChangePlanCommand) => {
    const result = await run.followedUp(activities.changeSubscriptionPlan({ subscriptionId: run.subscriptionId, at: run.nowIso(), command }));
    wakeMainLoop(run);
    return result;
  });

  // Payment outcomes (SPEC §3), sent by the payment services when an invoice of this subscription
  // fails to collect (dunning starts), when its arrears are settled, or when an invoice of a Trialing
  // one is paid (the trial ends then, at the payment's time).
  setHandler(paymentOutcomeSignal, async ({ invoiceId, outcome, at }) => {
    run.paymentMoves += 1;
    try {
      await run.mutex.run(async () => {
        if (outcome === 'failed' && run.state.status === 'Active') await run.move('PastDue', `payment_failed:${invoiceId}`);
        if (outcome === 'settled' && run.state.status === 'PastDue') await run.move('Active', `payment_collected:${invoiceId}`);
        if (outcome === 'paid' && run.state.status === 'Trialing' && patched(TRIAL_ENDS_ON_PAYMENT)) {
          // On a test clock the run may not have been woken up to the payment's time yet.
          if (at !== undefined && run.clock.isTestClock) run.clock.advanceTo(at);
          await run.move('Active', `payment_succeeded:${invoiceId}`);
        }
      });
    } finally {
      run.paymentMoves -= 1;
    }
  });

  // Progressive billing on the crossing: usage of this subscription committed (see run.usageAccrued).
  setHandler(usageAccruedSignal, ({ at }) => run.usageAccrued(at));

  registerRetry(run);
  setHandler(subscriptionStateQuery, () => run.state);
  setHandler(nextWakeQuery, () => nextWakeAt(run));
  registerClockAdvance(advanceClockUpdate, {
    validate: () => {
      if (!run.clock.isTestClock) throw ApplicationFailure.nonRetryable('subscription is not on a test clock', 'NotOnTestClock');
    },
    catchUp: async (to, through) => {
      run.clock.advanceTo(to);
      if (through !== undefined) run.advanceReaches(through);
      // A run holding a billing error answers at once: the advance must not wait for an operator.
      await condition(
        () => run.finished || run.continuing || run.hold.recorded || (run.clock.caughtUp() && run.mutex.idle && run.paymentMoves === 0 && run.crossingChecks === 0),
      );
      // The next wake rides along (an answer, no command): the drive skips a query per workflow and step.
      return { caughtUp: !run.continuing, status: run.state.status, nextWakeAt: nextWakeAt(run) };
    },
  });
}

/** When the run next has something to do on its own (ISO), or null: what test clocks step by. */
function nextWakeAt(run: SubscriptionRun): string | null {
  // A run holding a billing error does nothing on its own until an operator retries it.
  if (run.hold.error !== null) return null;
  const wake = run.nextWake();
  return wake === null ? null : new Date(wake.atMs).toISOString();
}

/**
 * An operator's retry of the step that failed: clears the billing_error (row and audit entry) and
 * answers once the main loop ran the step again, done or failed anew (then with a new billing_error).
 */
function registerRetry(run: SubscriptionRun): void {
  run.hold.registerRetry(retrySubscriptionBillingUpdate, () => run.state, { lock: run.mutex, ended: () => run.finished || run.continuing });
}

/**
 * Registers an update allowed only in `statuses`: the validator rejects it in any other state before
 * anything is recorded, and the handler checks again under the lock, since the state may have moved
 * between the validator and its turn. Once the run is continuing as new the validator refuses every
 * command with a retryable failure the caller sends again (src/temporal/updates.ts): the run waits
 * only for the commands it accepted before, so concurrent callers cannot hold it back.
 */
function registerCommand<Result, Command extends SubscriptionCommand>(
  run: SubscriptionRun,
  update: UpdateDefinition<Result, [Command]>,
  action: string,
  statuses: readonly SubscriptionStatus[],
  body: (command: Command) => Promise<Result>,
): void {
  const allowed = (_command: Command) => assertAllowed(action, statuses, run.state.status);
  setHandler(
    update,
    (command) =>
      run.mutex.run(async () => {
        catchUpTo(run, command);
        allowed(command);
        return body(command);
      }),
    {
      validator: (command) => {
        if (run.continuing) throw ApplicationFailure.retryable('the subscription workflow is continuing as new; send the update again', CONTINUING_AS_NEW);
        allowed(command);
      },
    },
  );
}

/**
 * A command from a ready test clock carries the clock's time: a run the clock's last advance did not
 * need to wake (nothing due before its end) catches up to it before acting (no wake is due by then).
 */
function catchUpTo(run: SubscriptionRun, command: SubscriptionCommand): void {
  if (command.at !== undefined && run.clock.isTestClock && patched(COMMANDS_AT_CLOCK_TIME)) run.clock.advanceTo(command.at);
}

/** After a billing command, so the main loop checks whether to continue as new (a state move wakes it already). */
function wakeMainLoop(run: SubscriptionRun): void {
  if (patched(CONTINUE_AS_NEW_ON_EVERY_WAKE)) run.clock.touch();
}
