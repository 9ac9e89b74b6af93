/**
 * The hold-for-an-operator step in each of the six workflows that have one (subscription, invoice,
 * dunning, contract, processor event, wallet recharge): a step failing for good is recorded as the
 * resource's billing_error, the workflow holds, and the operator's retry update clears it (with the
 * operator's command) and runs the step again. Also the retry sent while the billing_error is still
 * being recorded, which an operator who sees the row may do: it is accepted by all six (the one hold
 * step, workflows/hold.ts).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WorkflowUpdateStage, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure, type UpdateDefinition } from '@temporalio/common';
import { NO_BILLING_ERROR, type SubscriptionCommand, UNPROCESSABLE } from '../../workflows/shared/messages.js';
import { contractAdvanceClockUpdate, contractWorkflowId, retryContractUpdate } from '../../workflows/contract/messages.js';
import { advanceDunningClockUpdate, dunningWorkflowId, retryDunningUpdate } from '../../workflows/dunning/messages.js';
import { finalizeInvoiceUpdate, invoiceWorkflowId, retryInvoiceBillingUpdate } from '../../workflows/invoice/messages.js';
import { processorEventWorkflowId, retryProcessorEventUpdate } from '../../workflows/processor-event/messages.js';
import { advanceClockUpdate, retrySubscriptionBillingUpdate, subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { retryWalletTopUpUpdate, walletRechargeWorkflowId } from '../../workflows/wallet-recharge/messages.js';
import { deferred, deterministicFailure, updateFailureType, useWorkflowLogic, type ActivityCall, type ActivityMocks, type ActivityName } from '../support/workflow-logic.js';

const logic = useWorkflowLogic([
  'closeAndRollSubscriptionPeriod',
  'finalizeInvoiceRecord',
  'chargeInvoice',
  'renderInvoiceDocument',
  'requestDunningCharge',
  'runDunningAttempt',
  'advanceContract',
  'requestProcessorEvent',
  'applyProcessorEvent',
  'chargeWalletTopUp',
  'abandonWalletTopUp',
  'recordBillingError',
  'clearBillingError',
]);

const T0 = '2026-09-01T00:00:00.000Z';
const PERIOD_END = '2026-09-04T00:00:00.000Z';
const OPERATOR: SubscriptionCommand = { actor: { type: 'admin', id: 'ops-hold' }, requestId: 'req-hold-retry' };

/** One workflow's hold: how to start it, make its step fail, and what the retry answers once the step ran again. */
interface HoldCase {
  workflowType: string;
  /** The billing_error's entity, as recordBillingError/clearBillingError name it. */
  entity: string;
  /** The activity whose failure is held and run again. */
  step: ActivityName;
  workflowId(id: string): string;
  args(id: string): unknown[];
  /** The step's mocks: `step` fails once, then succeeds; `recordBillingError`/`clearBillingError` are added. */
  mocks(id: string, failOnce: () => void): ActivityMocks;
  /** Makes the workflow run the failing step; resolves once the workflow holds the billing_error. */
  trigger(handle: WorkflowHandle): Promise<unknown>;
  retry: UpdateDefinition<unknown, [SubscriptionCommand]>;
  /** What the retry answers once the step ran again. */
  retried(id: string): unknown;
  /** The step ran again ends the workflow (no further retry can reach it). */
  endsAfterRetry: boolean;
  /** The activity before the step that hands back what the workflow asks of an invoice's workflow (nothing here), run again with it. */
  asks?: ActivityName;
}

const clockAdvance = (update: UpdateDefinition<unknown, [string]>, to: string) => (handle: WorkflowHandle) => handle.executeUpdate(update, { args: [to] });

const CASES: HoldCase[] = [
  {
    workflowType: 'subscriptionWorkflow',
    entity: 'subscription',
    step: 'closeAndRollSubscriptionPeriod',
    workflowId: subscriptionWorkflowId,
    args: (id) => [{ subscriptionId: id, status: 'Active', periodStart: T0, periodEnd: PERIOD_END, trialEnd: null, testClock: { id: `clock-${id}`, now: T0 }, progressiveCheckEveryMs: null, pendingCloses: [] }],
    mocks: (_id, failOnce) => ({
      closeAndRollSubscriptionPeriod: async ({ period }) => {
        failOnce();
        return { finalizeAt: '2026-09-04T01:00:00.000Z', state: { status: 'Active', periodStart: period.end, periodEnd: '2026-09-07T00:00:00.000Z', trialEnd: null } };
      },
    }),
    trigger: clockAdvance(advanceClockUpdate as UpdateDefinition<unknown, [string]>, PERIOD_END),
    retry: retrySubscriptionBillingUpdate,
    retried: () => ({ status: 'Active', periodStart: PERIOD_END, periodEnd: '2026-09-07T00:00:00.000Z', trialEnd: null }),
    endsAfterRetry: false,
  },
  {
    workflowType: 'invoiceWorkflow',
    entity: 'invoice',
    step: 'finalizeInvoiceRecord',
    workflowId: invoiceWorkflowId,
    args: (id) => [{ invoiceId: id, status: 'Draft' }],
    mocks: (_id, failOnce) => ({
      finalizeInvoiceRecord: async () => {
        failOnce();
        return { status: 'Open', invoiceNumber: 'INV-0042' };
      },
      // The auto-charge after finalizing collects it.
      chargeInvoice: async () => ({ invoice: { status: 'Paid', invoiceNumber: 'INV-0042' }, paymentId: 'pay-1', paymentStatus: 'Succeeded' }),
      renderInvoiceDocument: async () => null,
    }),
    // The failed finalize update itself fails (after recording); the workflow holds the billing_error.
    trigger: (handle) => updateFailureType(handle.executeUpdate(finalizeInvoiceUpdate, { args: [{ actor: OPERATOR.actor, requestId: 'req-finalize' }] })),
    retry: retryInvoiceBillingUpdate,
    retried: () => ({ status: 'Paid', invoiceNumber: 'INV-0042' }),
    endsAfterRetry: true,
  },
  {
    workflowType: 'dunningWorkflow',
    entity: 'dunning_schedule',
    step: 'runDunningAttempt',
    workflowId: dunningWorkflowId,
    args: (id) => [{ invoiceId: id, failedAt: T0, scheduleDays: [3, 7], attemptCount: 0, testClock: { id: `clock-${id}`, now: T0 } }],
    mocks: (_id, failOnce) => ({
      requestDunningCharge: async () => ({ asked: false, followUps: [] }),
      runDunningAttempt: async ({ attempt }) => {
        failOnce();
        return { status: 'Active', attemptCount: attempt };
      },
    }),
    trigger: clockAdvance(advanceDunningClockUpdate as UpdateDefinition<unknown, [string]>, '2026-09-04T00:00:00.000Z'),
    retry: retryDunningUpdate,
    retried: () => ({ status: 'Active', attemptCount: 1 }),
    endsAfterRetry: false,
    asks: 'requestDunningCharge',
  },
  {
    workflowType: 'contractWorkflow',
    entity: 'contract',
    step: 'advanceContract',
    workflowId: contractWorkflowId,
    args: (id) => [{ contractId: id, testClock: { id: `clock-${id}`, now: T0 } }],
    mocks: (_id, failOnce) => ({
      advanceContract: async () => {
        failOnce();
        return { status: 'Active', nextWakeAt: '2026-12-01T00:00:00.000Z' };
      },
    }),
    // Its first step runs at start; an advance to the clock's time answers once it holds.
    trigger: clockAdvance(contractAdvanceClockUpdate as UpdateDefinition<unknown, [string]>, T0),
    retry: retryContractUpdate,
    retried: () => ({ status: 'Active', nextWakeAt: '2026-12-01T00:00:00.000Z' }),
    endsAfterRetry: false,
  },
  {
    workflowType: 'processorEventWorkflow',
    entity: 'processor_event',
    step: 'applyProcessorEvent',
    workflowId: processorEventWorkflowId,
    args: (id) => [{ eventId: id }],
    mocks: (_id, failOnce) => ({
      requestProcessorEvent: async () => ({ asked: false, followUps: [] }),
      applyProcessorEvent: async () => {
        failOnce();
        return { outcome: 'payment_succeeded', followUps: [] };
      },
    }),
    trigger: async () => {},
    retry: retryProcessorEventUpdate as UpdateDefinition<unknown, [SubscriptionCommand]>,
    retried: () => 'payment_succeeded',
    endsAfterRetry: true,
    asks: 'requestProcessorEvent',
  },
  {
    workflowType: 'walletRechargeWorkflow',
    entity: 'wallet_top_up',
    step: 'abandonWalletTopUp',
    workflowId: walletRechargeWorkflowId,
    args: (id) => [{ topUpId: id }],
    mocks: (id, failOnce) => ({
      // The processor refuses the charge for good: the top-up is to be recorded Failed, and that step fails once.
      chargeWalletTopUp: async () => {
        throw ApplicationFailure.nonRetryable('card declined', UNPROCESSABLE);
      },
      abandonWalletTopUp: async () => {
        failOnce();
        return { topUpId: id, status: 'Failed' };
      },
    }),
    trigger: async () => {},
    retry: retryWalletTopUpUpdate as UpdateDefinition<unknown, [SubscriptionCommand]>,
    retried: (id) => ({ topUpId: id, status: 'Failed' }),
    endsAfterRetry: true,
  },
];

/** The calls but the case's asking activity, which runs before each run of its step (asserted with the dunning and processor-event workflows' own tests). */
const stepCalls = (holdCase: HoldCase, calls: readonly ActivityCall[]) => calls.filter((call) => call.activity !== holdCase.asks);

/** Starts a case's workflow with its step failing once and recordBillingError held open until `recorded` resolves. */
async function startHeld(holdCase: HoldCase, recorded: Promise<void>) {
  const id = randomUUID();
  let failed = false;
  const failOnce = () => {
    if (failed) return;
    failed = true;
    throw deterministicFailure(`${holdCase.step} broke an invariant`);
  };
  const run = logic.mock(holdCase.workflowId(id), {
    ...holdCase.mocks(id, failOnce),
    recordBillingError: async () => {
      await recorded;
    },
    clearBillingError: async () => {},
  });
  const handle = await logic.start(holdCase.workflowType, run.id, holdCase.args(id));
  return { id, run, handle };
}

describe.concurrent.each(CASES)('$workflowType hold step', (holdCase) => {
  it('records the billing_error, and the operator retry clears it and runs the step again', async () => {
    const { id, run, handle } = await startHeld(holdCase, Promise.resolve());
    await holdCase.trigger(handle);
    await run.called('recordBillingError');

    const [recorded] = run.argsOf('recordBillingError');
    expect(recorded).toEqual([{ entity: holdCase.entity, id, error: { step: holdCase.step, type: 'DeterministicFailure', message: `${holdCase.step} broke an invariant`, failedAt: expect.any(String) } }]);
    expect(await handle.executeUpdate(holdCase.retry, { args: [OPERATOR] })).toEqual(holdCase.retried(id));

    const calls = stepCalls(holdCase, run.calls);
    const from = calls.findIndex((call) => call.activity === 'recordBillingError');
    expect(calls.slice(from, from + 3)).toEqual([
      { activity: 'recordBillingError', args: recorded },
      { activity: 'clearBillingError', args: [{ entity: holdCase.entity, id, command: OPERATOR }] },
      { activity: holdCase.step, args: expect.any(Array) },
    ]);
    // The failed step and its run again had the same input.
    expect(run.argsOf(holdCase.step).at(-1)).toEqual(run.argsOf(holdCase.step).at(-2));
    if (holdCase.endsAfterRetry) expect(await handle.result()).toEqual(holdCase.retried(id));
    // Nothing is held any more: another retry is refused before anything is recorded.
    else expect(await updateFailureType(handle.executeUpdate(holdCase.retry, { args: [OPERATOR] }))).toBe(NO_BILLING_ERROR);
  });

  it('accepts the operator retry sent while the billing_error is being recorded', async () => {
    const record = deferred();
    const { id, run, handle } = await startHeld(holdCase, record.promise);
    const triggered = holdCase.trigger(handle);
    await run.called('recordBillingError');

    // Inside the window: the row may already show the error, the activity has not answered yet.
    const retry = await handle.startUpdate(holdCase.retry, { args: [OPERATOR], waitForStage: WorkflowUpdateStage.ACCEPTED });
    record.resolve();
    await triggered;
    expect(await retry.result()).toEqual(holdCase.retried(id));
    // After the recording: the retry cleared the error and the step ran again (an invoice then goes on, e.g. to charge).
    const calls = stepCalls(holdCase, run.calls);
    const recordedAt = calls.findIndex((call) => call.activity === 'recordBillingError');
    expect(calls.slice(recordedAt + 1, recordedAt + 3)).toEqual([
      { activity: 'clearBillingError', args: [{ entity: holdCase.entity, id, command: OPERATOR }] },
      { activity: holdCase.step, args: expect.any(Array) },
    ]);
  });
});
