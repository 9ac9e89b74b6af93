/**
 * One workflow per Active contract (id `contract:<uuid>`): it wakes at each date where something is
 * due (an escalation step, a ramp phase's end with its true-up, the contract's end) on the
 * customer's clock (real timers, or a test clock advanced through an update) and lets an activity
 * do what is due by then (src/services/contracts/lifecycle.ts). It ends once the contract is no
 * longer Active (Expired at its end, or Amended/Terminated by the API, which signals it) and owes no
 * more phase true-ups (each waits for the invoice grace period after its phase end).
 *
 * A step whose activity fails for good (deterministically, or past its retry schedule) no longer
 * fails the workflow (patch CONTRACT_BILLING_ERRORS), which the hourly reconciler would start again
 * only to fail the same way: it is recorded as the contract's billing_error (row, audit entry, log
 * line) and the workflow holds until an operator's `retryContract` update runs the step again.
 */
import { ActivityFailure, allHandlersFinished, ApplicationFailure, condition, continueAsNew, patched, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { WorkflowClock } from '../clock.js';
import { OperatorHold } from '../hold.js';
import { ACTIVITY_RETRY, INVALID_TRANSITION, nextWakeQuery, NOT_FOUND, UNPROCESSABLE } from '../shared/messages.js';
import {
  contractAdvanceClockUpdate,
  contractChangedSignal,
  contractStateQuery,
  retryContractUpdate,
  type ContractSnapshot,
  type ContractWorkflowInput,
} from './messages.js';

/**
 * Phase true-ups wait for the invoice grace period after the phase end, so the last one falls after
 * the contract expired: the workflow runs on while a contract that left Active still owes true-ups
 * (the activity answers a next wake for them).
 */
export const TRUE_UPS_AFTER_END = 'contract-true-ups-after-end';

/** A step failing for good is held as the contract's billing_error instead of failing the run. */
export const CONTRACT_BILLING_ERRORS = 'contract-billing-errors';

const { advanceContract, recordBillingError, clearBillingError } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: ACTIVITY_RETRY,
});

export async function contractWorkflow(input: ContractWorkflowInput): Promise<ContractSnapshot> {
  const { contractId } = input;
  const clock = new WorkflowClock(input.testClock?.now ?? null);
  let state: ContractSnapshot = { status: 'Active', nextWakeAt: null };
  let working = true;
  // Set by a signal: a change that arrives while the activity runs must not be waited past.
  let changed = false;
  let continuing = false;
  let finished = false;
  /** The failed step held for an operator (only under CONTRACT_BILLING_ERRORS). */
  const hold = new OperatorHold({ entity: 'contract', id: contractId, what: `contract ${contractId}`, activities: { recordBillingError, clearBillingError } });
  const nowIso = () => new Date(clock.nowMs()).toISOString();

  setHandler(contractChangedSignal, () => {
    changed = true;
    clock.touch();
  });
  setHandler(contractStateQuery, () => state);
  setHandler(nextWakeQuery, () => (finished ? null : state.nextWakeAt));
  setHandler(
    contractAdvanceClockUpdate,
    async (to) => {
      clock.advanceTo(to);
      // A contract held for an operator has nothing more to do at any time: the clock goes on.
      await condition(() => finished || continuing || hold.error !== null || (clock.caughtUp() && !working));
      return { caughtUp: !continuing, status: state.status };
    },
    {
      validator: (_to: string) => {
        if (!clock.isTestClock) throw ApplicationFailure.nonRetryable('contract is not on a test clock', 'NotOnTestClock');
      },
    },
  );

  hold.registerRetry(retryContractUpdate, () => state);

  const failures = {
    holds: (err: unknown): err is ActivityFailure => err instanceof ActivityFailure && patched(CONTRACT_BILLING_ERRORS),
    at: nowIso,
    message: 'contract step failed; holding for an operator retry',
    fields: { contractId },
  };
  /** Does what is due by now; a failure held for an operator is run again on the retry. */
  const tick = async () => {
    for (;;) {
      working = true;
      changed = false;
      try {
        await hold.attempt(async () => {
          state = await advanceContract({ contractId, at: nowIso() });
        }, failures);
      } finally {
        working = false;
      }
      if (hold.error === null) return;
      await hold.released();
    }
  };

  // Runs recorded before TRUE_UPS_AFTER_END ended as soon as the contract left Active.
  const wakeAt = (): string | null => (state.nextWakeAt !== null && (state.status === 'Active' || patched(TRUE_UPS_AFTER_END)) ? state.nextWakeAt : null);
  await tick();
  for (let next = wakeAt(); next !== null; next = wakeAt()) {
    // Woken early by a signal or at the deadline: either way the activity does what is due by now.
    if (!changed) await clock.until(Date.parse(next));
    await tick();
    if (state.status === 'Active' && workflowInfo().continueAsNewSuggested) {
      continuing = true;
      await condition(allHandlersFinished);
      await continueAsNew<typeof contractWorkflow>({ contractId, testClock: input.testClock ? { id: input.testClock.id, now: nowIso() } : null });
    }
  }
  finished = true;
  await condition(allHandlersFinished);
  return state;
}
