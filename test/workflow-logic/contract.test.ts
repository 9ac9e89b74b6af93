/**
 * The contract workflow's phases on a test clock: it wakes at each date the lifecycle activity
 * answers (an escalation step, a ramp phase's end, the contract's end, a true-up after it), runs on
 * after the contract left Active while a true-up is owed, wakes at once on a change signalled from
 * outside, and holds a step failing for good as the contract's billing_error for an operator retry.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { nextWakeQuery, type SubscriptionCommand } from '../../workflows/shared/messages.js';
import { contractAdvanceClockUpdate, contractChangedSignal, type ContractSnapshot, contractStateQuery, type ContractStatus, contractWorkflowId, type ContractWorkflowInput, retryContractUpdate } from '../../workflows/contract/messages.js';
import { deterministicFailure, useWorkflowLogic, type ActivityMocks } from '../support/workflow-logic.js';

const logic = useWorkflowLogic(['advanceContract', 'recordBillingError', 'clearBillingError']);

const START = '2026-01-01T00:00:00.000Z';
/** A year's contract: an escalation at Q2, a ramp phase ending mid-year, the end; its last true-up an hour (grace) after the end. */
const ESCALATION = '2026-04-01T00:00:00.000Z';
const RAMP_END = '2026-07-01T00:00:00.000Z';
const END = '2027-01-01T00:00:00.000Z';
const LAST_TRUE_UP = '2027-01-01T01:00:00.000Z';
const OPERATOR: SubscriptionCommand = { actor: { type: 'admin', id: 'ops-2' }, requestId: 'req-contract-retry' };

/**
 * What the lifecycle activity answers at a time, for the contract above: Active with the next date
 * due until its end, Expired with its last true-up still owed, then Expired with nothing left.
 */
function lifecycleAt(at: string, terminated: boolean): ContractSnapshot {
  if (terminated) return { status: 'Terminated', nextWakeAt: null };
  const status: ContractStatus = at >= END ? 'Expired' : 'Active';
  const nextWakeAt = [ESCALATION, RAMP_END, END, LAST_TRUE_UP].find((date) => date > at) ?? null;
  return { status, nextWakeAt };
}

async function startContract(overrides: ActivityMocks = {}) {
  const contractId = randomUUID();
  let terminated = false;
  const run = logic.mock(contractWorkflowId(contractId), {
    advanceContract: async ({ at }) => lifecycleAt(at, terminated),
    recordBillingError: async () => {},
    clearBillingError: async () => {},
    ...overrides,
  });
  const input: ContractWorkflowInput = { contractId, testClock: { id: `clock-${contractId}`, now: START } };
  const handle = await logic.start('contractWorkflow', run.id, [input]);
  const advance = (to: string) => handle.executeUpdate(contractAdvanceClockUpdate, { args: [to] });
  return { contractId, run, handle, advance, terminate: () => (terminated = true) };
}

describe.concurrent('contract phases on a test clock', () => {
  it('runs the lifecycle at its start, at each phase date, at the end and at the last true-up after it, then ends', async () => {
    const { contractId, run, handle, advance } = await startContract();
    // The first step runs at once (an advance to the clock's own time answers once it is done); the
    // workflow then waits for the date it answered.
    expect(await advance(START)).toEqual({ caughtUp: true, status: 'Active' });
    expect(await handle.query(nextWakeQuery)).toBe(ESCALATION);

    // An advance short of the next date runs nothing.
    expect(await advance('2026-03-31T23:59:59.000Z')).toEqual({ caughtUp: true, status: 'Active' });
    expect(run.calls).toHaveLength(1);

    expect(await advance(ESCALATION)).toEqual({ caughtUp: true, status: 'Active' });
    expect(await advance(RAMP_END)).toEqual({ caughtUp: true, status: 'Active' });
    // At the end it is Expired but still owes the last phase's true-up: it runs on.
    expect(await advance(END)).toEqual({ caughtUp: true, status: 'Expired' });
    expect(await handle.query(nextWakeQuery)).toBe(LAST_TRUE_UP);
    await advance(LAST_TRUE_UP);

    expect(await handle.result()).toEqual({ status: 'Expired', nextWakeAt: null });
    expect(run.calls).toEqual([START, ESCALATION, RAMP_END, END, LAST_TRUE_UP].map((at) => ({ activity: 'advanceContract', args: [{ contractId, at }] })));
  });

  it('a clock driven by its next wakes (as a test-clock advance drives it) runs each step at the date it was due', async () => {
    const { contractId, run, handle, advance } = await startContract();
    await advance(START);
    for (let next = await handle.query(nextWakeQuery); next !== null && next <= RAMP_END; next = await handle.query(nextWakeQuery)) await advance(next);
    expect(run.argsOf('advanceContract')).toEqual([[{ contractId, at: START }], [{ contractId, at: ESCALATION }], [{ contractId, at: RAMP_END }]]);
    expect(await handle.query(contractStateQuery)).toEqual({ status: 'Active', nextWakeAt: END });
  });

  it('a change signalled from outside (terminated) is looked at right away, at the clock time, and ends the workflow', async () => {
    const { contractId, run, handle, advance, terminate } = await startContract();
    // (An advance that reaches a new run with its start runs the first step at the advanced time: wait for it.)
    await run.called('advanceContract');
    await advance('2026-02-10T12:00:00.000Z');
    terminate();
    await handle.signal(contractChangedSignal);

    expect(await handle.result()).toEqual({ status: 'Terminated', nextWakeAt: null });
    expect(run.argsOf('advanceContract')).toEqual([[{ contractId, at: START }], [{ contractId, at: '2026-02-10T12:00:00.000Z' }]]);
  });
});

describe.concurrent('contract step failing for good: held as the contract billing_error', () => {
  it('records it, lets the clock go on, and runs the step again at the clock time on the operator retry', async () => {
    let failed = false;
    const { contractId, run, handle, advance } = await startContract({
      advanceContract: async ({ at }) => {
        if (at === RAMP_END && !failed) {
          failed = true;
          throw deterministicFailure('true-up exceeds the commitment cap');
        }
        return lifecycleAt(at, false);
      },
    });
    await advance(ESCALATION);
    expect(await advance(RAMP_END)).toEqual({ caughtUp: true, status: 'Active' });
    const error = { step: 'advanceContract', type: 'DeterministicFailure', message: 'true-up exceeds the commitment cap', failedAt: RAMP_END };
    expect(run.argsOf('recordBillingError')).toEqual([[{ entity: 'contract', id: contractId, error }]]);

    // Held: the clock moves on (past the end) and nothing runs.
    const before = run.calls.length;
    await advance('2026-08-01T00:00:00.000Z');
    expect(run.calls.length).toBe(before);

    expect(await handle.executeUpdate(retryContractUpdate, { args: [OPERATOR] })).toEqual({ status: 'Active', nextWakeAt: END });
    expect(run.calls.slice(before)).toEqual([
      { activity: 'clearBillingError', args: [{ entity: 'contract', id: contractId, command: OPERATOR }] },
      { activity: 'advanceContract', args: [{ contractId, at: '2026-08-01T00:00:00.000Z' }] },
    ]);
    expect(await handle.query(nextWakeQuery)).toBe(END);
  });
});
