/**
 * One workflow per Active contract (id `contract:<uuid>`): it wakes at each date where something is
 * due (an escalation step, a ramp phase's end with its true-up, the contract's end) on the
 * customer's clock (real timers, or a test clock advanced through an update) and lets an activity
 * do what is due by then (src/services/contracts/lifecycle.ts). It ends once the contract is no
 * longer Active (Expired at its end, or Amended/Terminated by the API, which signals it) and owes no
 * more phase true-ups (each waits for the invoice grace period after its phase end).
 */
import { allHandlersFinished, ApplicationFailure, condition, continueAsNew, patched, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { WorkflowClock } from './clock.js';
import {
  ACTIVITY_RETRY,
  contractAdvanceClockUpdate,
  contractChangedSignal,
  contractStateQuery,
  INVALID_TRANSITION,
  nextWakeQuery,
  NOT_FOUND,
  UNPROCESSABLE,
  type ContractSnapshot,
  type ContractWorkflowInput,
} from './messages.js';

/**
 * Phase true-ups wait for the invoice grace period after the phase end, so the last one falls after
 * the contract expired: the workflow runs on while a contract that left Active still owes true-ups
 * (the activity answers a next wake for them).
 */
export const TRUE_UPS_AFTER_END = 'contract-true-ups-after-end';

const { advanceContract } = proxyActivities<Activities>({
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
      await condition(() => finished || continuing || (clock.caughtUp() && !working));
      return { caughtUp: !continuing, status: state.status };
    },
    {
      validator: (_to: string) => {
        if (!clock.isTestClock) throw ApplicationFailure.nonRetryable('contract is not on a test clock', 'NotOnTestClock');
      },
    },
  );

  const tick = async () => {
    working = true;
    changed = false;
    state = await advanceContract({ contractId, at: nowIso() });
    working = false;
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
