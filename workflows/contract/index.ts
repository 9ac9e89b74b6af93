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
import { registerClockAdvance, WorkflowClock } from '../clock.js';
import { followedUp } from '../follow-ups/index.js';
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

/**
 * The invoice workflows of the Drafts a step put contract lines on (true-ups) are started by this
 * workflow, as children that outlive it (ABANDON), from the follow-ups its activity hands back
 * (issue 29). Runs without the marker got results without follow-ups: the activity started them.
 */
export const CONTRACT_RUNS_INVOICE_FOLLOW_UPS = 'contract-runs-invoice-follow-ups';

const { advanceContract, recordBillingError, clearBillingError } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: ACTIVITY_RETRY,
});

export async function contractWorkflow(input: ContractWorkflowInput): Promise<ContractSnapshot> {
  const run = new ContractRun(input);
  run.registerHandlers();
  await run.tick();
  for (let next = run.wakeAt(); next !== null; next = run.wakeAt()) {
    // Woken early by a signal or at the deadline: either way the activity does what is due by now.
    if (!run.changed) await run.clock.until(Date.parse(next));
    await run.tick();
    if (run.state.status === 'Active' && workflowInfo().continueAsNewSuggested) await run.continueAsNew();
  }
  run.finished = true;
  await condition(allHandlersFinished);
  return run.state;
}

/** The state of one contract run: what the last step answered, its clock and the failed step held for an operator. */
class ContractRun {
  readonly clock: WorkflowClock;
  state: ContractSnapshot = { status: 'Active', nextWakeAt: null };
  /** Set by a signal: a change that arrives while the activity runs must not be waited past. */
  changed = false;
  finished = false;
  private working = true;
  private continuing = false;
  /** The failed step held for an operator (only under CONTRACT_BILLING_ERRORS). */
  private readonly hold: OperatorHold;

  constructor(private readonly input: ContractWorkflowInput) {
    this.clock = new WorkflowClock(input.testClock?.now ?? null);
    this.hold = new OperatorHold({ entity: 'contract', id: input.contractId, what: `contract ${input.contractId}`, activities: { recordBillingError, clearBillingError } });
  }

  nowIso(): string {
    return new Date(this.clock.nowMs()).toISOString();
  }

  /** When something is next due; null once done. Runs recorded before TRUE_UPS_AFTER_END ended as soon as the contract left Active. */
  wakeAt(): string | null {
    return this.state.nextWakeAt !== null && (this.state.status === 'Active' || patched(TRUE_UPS_AFTER_END)) ? this.state.nextWakeAt : null;
  }

  /** Does what is due by now; a failure held for an operator is run again on the retry. */
  async tick(): Promise<void> {
    const failures = {
      holds: (err: unknown): err is ActivityFailure => err instanceof ActivityFailure && patched(CONTRACT_BILLING_ERRORS),
      at: () => this.nowIso(),
      message: 'contract step failed; holding for an operator retry',
      fields: { contractId: this.input.contractId },
    };
    for (;;) {
      this.working = true;
      this.changed = false;
      try {
        await this.hold.attempt(async () => {
          this.state = await followedUp(advanceContract({ contractId: this.input.contractId, at: this.nowIso() }), CONTRACT_RUNS_INVOICE_FOLLOW_UPS);
        }, failures);
      } finally {
        this.working = false;
      }
      if (this.hold.error === null) return;
      await this.hold.released();
    }
  }

  async continueAsNew(): Promise<void> {
    this.continuing = true;
    await condition(allHandlersFinished);
    const { contractId, testClock } = this.input;
    await continueAsNew<typeof contractWorkflow>({ contractId, testClock: testClock ? { id: testClock.id, now: this.nowIso() } : null });
  }

  /** The change signal, the state and next-wake queries, the test-clock advance and the operator's retry. */
  registerHandlers(): void {
    setHandler(contractChangedSignal, () => {
      this.changed = true;
      this.clock.touch();
    });
    setHandler(contractStateQuery, () => this.state);
    setHandler(nextWakeQuery, () => (this.finished ? null : this.state.nextWakeAt));
    registerClockAdvance(contractAdvanceClockUpdate, {
      validate: () => {
        if (!this.clock.isTestClock) throw ApplicationFailure.nonRetryable('contract is not on a test clock', 'NotOnTestClock');
      },
      catchUp: async (to) => {
        this.clock.advanceTo(to);
        // A contract held for an operator has nothing more to do at any time: the clock goes on.
        await condition(() => this.finished || this.continuing || this.hold.recorded || (this.clock.caughtUp() && !this.working));
        return { caughtUp: !this.continuing, status: this.state.status };
      },
    });
    this.hold.registerRetry(retryContractUpdate, () => this.state);
  }
}
