/**
 * The auto-recharge a wallet's threshold crossing starts (one workflow per Pending top-up): the
 * charge answered as is, a refused charge recorded Failed, and a top-up held for an operator that
 * the processor settles meanwhile (the hold ends with the settled status).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/common';
import { NO_BILLING_ERROR, UNPROCESSABLE } from '../../workflows/shared/messages.js';
import { retryWalletTopUpUpdate, walletRechargeWorkflowId, walletTopUpSettledSignal } from '../../workflows/wallet-recharge/messages.js';
import { deferred, deterministicFailure, updateFailureType, useWorkflowLogic, type ActivityMocks } from '../support/workflow-logic.js';

const logic = useWorkflowLogic(['chargeWalletTopUp', 'abandonWalletTopUp', 'recordBillingError', 'clearBillingError']);

async function startRecharge(mocks: (topUpId: string) => ActivityMocks) {
  const topUpId = randomUUID();
  const run = logic.mock(walletRechargeWorkflowId(topUpId), { recordBillingError: async () => {}, clearBillingError: async () => {}, ...mocks(topUpId) });
  const handle = await logic.start('walletRechargeWorkflow', run.id, [{ topUpId }]);
  return { topUpId, run, handle };
}

const declined = async (): Promise<never> => {
  throw ApplicationFailure.nonRetryable('card declined', UNPROCESSABLE);
};

describe.concurrent('wallet auto-recharge', () => {
  it('charges the top-up once and answers what the processor said', async () => {
    const { topUpId, run, handle } = await startRecharge((id) => ({ chargeWalletTopUp: async () => ({ topUpId: id, status: 'Succeeded' }) }));
    expect(await handle.result()).toEqual({ topUpId, status: 'Succeeded' });
    expect(run.calls).toEqual([{ activity: 'chargeWalletTopUp', args: [topUpId] }]);
  });

  it('records a refused charge Failed with the refusal as its reason', async () => {
    const { topUpId, run, handle } = await startRecharge((id) => ({ chargeWalletTopUp: declined, abandonWalletTopUp: async () => ({ topUpId: id, status: 'Failed' }) }));
    expect(await handle.result()).toEqual({ topUpId, status: 'Failed' });
    expect(run.calls).toEqual([
      { activity: 'chargeWalletTopUp', args: [topUpId] },
      { activity: 'abandonWalletTopUp', args: [topUpId, 'card declined'] },
    ]);
  });

  it('a top-up held for an operator that the processor settles meanwhile ends with the settled status, no retry needed', async () => {
    const { topUpId, run, handle } = await startRecharge(() => ({
      chargeWalletTopUp: declined,
      abandonWalletTopUp: async () => {
        throw deterministicFailure('wallet row locked by a broken migration');
      },
    }));
    await run.called('recordBillingError');
    await handle.signal(walletTopUpSettledSignal, { status: 'Succeeded' });

    expect(await handle.result()).toEqual({ topUpId, status: 'Succeeded' });
    expect(run.calls.map((call) => call.activity)).toEqual(['chargeWalletTopUp', 'abandonWalletTopUp', 'recordBillingError']);
    expect(run.argsOf('clearBillingError')).toEqual([]);
  });

  it('refuses an operator retry while nothing is held', async () => {
    const release = deferred();
    const { topUpId, handle } = await startRecharge((id) => ({
      chargeWalletTopUp: async () => {
        await release.promise;
        return { topUpId: id, status: 'Pending' };
      },
    }));
    expect(await updateFailureType(handle.executeUpdate(retryWalletTopUpUpdate, { args: [{ actor: { type: 'admin', id: 'ops-w' } }] }))).toBe(NO_BILLING_ERROR);
    release.resolve();
    expect(await handle.result()).toEqual({ topUpId, status: 'Pending' });
  });
});
