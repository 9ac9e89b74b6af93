/**
 * Auto-recharge on the real Temporal server with the worker's real activities: 50 invoices of one
 * customer finalized at once through the API (each through its invoice workflow) draw its wallet
 * down across the threshold, and exactly one top-up and one `wallet-recharge` workflow come of it.
 * stripe-mock refuses the charge; the processor's signed notification then collects it and the
 * balance is back at the target. The workflow's history is committed for the replay test.
 */
import type { WorkflowUpdateHandle } from '@temporalio/client';
import { expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import { insertLines, recomputeTotals } from '../../src/db/invoices.js';
import { retryWalletTopUpUpdate, type WalletRechargeResult, walletRechargeWorkflowId } from '../../workflows/wallet-recharge/messages.js';
import { makeCustomer } from '../support/fixtures.js';
import { activityAttempts, injectOverflow, withOverflow } from '../support/faults.js';
import { captureHistory } from '../support/histories.js';
import { expectJson, expectPage, useHarness } from '../support/harness.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { attachCard, collectTopUp, eventually } from '../support/payments.js';
import { billingErrorTrail, firstTimes, holdBillingErrorRecording, retryAccepted } from './hold-window.js';

const h = useHarness();

const INVOICES = 50;

interface TopUpBody {
  id: string;
  status: string;
  source: string;
  amount_nanos: string;
  processor_payment_intent_id: string | null;
}

it('50 concurrent drawdowns crossing the threshold make exactly one auto-recharge, charged once by its workflow', async () => {
  const customerId = await makeCustomer(h.deps.db);
  await attachCard(h, customerId);
  const wallet = `/admin/v1/customers/${customerId}/wallets/USD`;
  await expectJson(await h.request('POST', `${wallet}/grants`, { body: { amount_nanos: (1000n * UNIT).toString() } }), 201);
  await expectJson(await h.request('PUT', `${wallet}/auto-recharge`, { body: { threshold_nanos: (600n * UNIT).toString(), target_nanos: (1000n * UNIT).toString() } }));

  const ids = Array.from({ length: INVOICES }, () => newId());
  await h.deps.db.$transaction(async (tx) => {
    for (const id of ids) {
      await tx.invoice.create({ data: { id, customerId, currency: 'USD', billingReason: 'manual' } });
      await insertLines(tx, id, [{ kind: 'fee', description: 'Seat', amountNanos: 10n * UNIT }]);
      await recomputeTotals(tx, id);
    }
  });
  const answers = await Promise.all(ids.map((id) => h.request('POST', `/admin/v1/invoices/${id}/finalize`)));
  const invoices = await Promise.all(answers.map((res) => expectJson<{ status: string; wallet_applied_nanos: string }>(res)));
  // The wallet paid every invoice in full: no card charge.
  expect(invoices.every((i) => i.status === 'Paid' && i.wallet_applied_nanos === (10n * UNIT).toString())).toBe(true);

  const topUps = await expectPage<TopUpBody>(await h.request('GET', `${wallet}/top-ups`));
  expect(topUps.data).toHaveLength(1);
  const [topUp] = topUps.data;
  // The crossing drawdown took the balance from 600 to 590: topped up by 410 back to 1000.
  expect(topUp).toMatchObject({ source: 'auto_recharge', amount_nanos: (410n * UNIT).toString() });
  expect(await h.deps.db.auditLogEntry.count({ where: { customerId, action: 'wallet.auto_recharge_requested' } })).toBe(1);

  const handle = h.deps.temporal.client.workflow.getHandle(walletRechargeWorkflowId(topUp!.id));
  // stripe-mock answers every confirmation with requires_payment_method: the charge is refused.
  expect(await handle.result()).toEqual<WalletRechargeResult>({ topUpId: topUp!.id, status: 'Failed' });
  const recorded = await eventually(async () => {
    const [row] = (await expectPage<TopUpBody>(await h.request('GET', `${wallet}/top-ups`))).data;
    expect(row!.processor_payment_intent_id).toMatch(/^pi_/);
    return row!;
  });

  // The processor collects it later (the customer fixed the card): credited once. The other drawdowns
  // went on below the threshold meanwhile (1000 − 50 × 10), none of them crossing it again.
  expect(await collectTopUp(h, recorded)).toBe('top_up_succeeded');
  const after = await expectJson<{ balance_nanos: string }>(await h.request('GET', wallet));
  expect(after.balance_nanos).toBe((500n * UNIT + 410n * UNIT).toString());

  const ledger = await expectJson<{ accounts: { kind: string; balance_nanos: string }[] }>(await h.request('GET', `/admin/v1/customers/${customerId}/ledger/accounts`));
  const balance = Object.fromEntries(ledger.accounts.map((a) => [a.kind, a.balance_nanos]));
  expect(balance).toMatchObject({
    accounts_receivable: '0',
    revenue: (500n * UNIT).toString(),
    cash: (410n * UNIT).toString(),
    wallet: (410n * UNIT).toString(),
    promotional_credit: (500n * UNIT).toString(),
  });
  await captureHistory(handle, 'charge-refused-at-the-processor');
}, 180_000);

interface HeldTopUp extends TopUpBody {
  billing_error: { step: string; type: string; message: string; failed_at: string } | null;
  failure_message: string | null;
}

/** A customer's auto-recharge whose refused charge cannot be recorded Failed (an injected overflow): held Pending with a billing_error. */
async function heldRecharge() {
  const customerId = await makeCustomer(h.deps.db);
  await attachCard(h, customerId);
  const wallet = `/admin/v1/customers/${customerId}/wallets/USD`;
  await expectJson(await h.request('POST', `${wallet}/grants`, { body: { amount_nanos: (1000n * UNIT).toString() } }), 201);
  await expectJson(await h.request('PUT', `${wallet}/auto-recharge`, { body: { threshold_nanos: (600n * UNIT).toString(), target_nanos: (1000n * UNIT).toString() } }));
  const invoiceId = newId();
  await h.deps.db.$transaction(async (tx) => {
    await tx.invoice.create({ data: { id: invoiceId, customerId, currency: 'USD', billingReason: 'manual' } });
    await insertLines(tx, invoiceId, [{ kind: 'fee', description: 'Seat', amountNanos: 500n * UNIT }]);
    await recomputeTotals(tx, invoiceId);
  });
  const topUpOf = async () => {
    const rows = (await expectPage<HeldTopUp>(await h.request('GET', `${wallet}/top-ups`))).data;
    expect(rows).toHaveLength(1);
    return rows[0]!;
  };
  // Recording the customer's top-up Failed overflows (as a corrupt stored row would): both when the
  // refused charge records it and when the workflow then gives it up.
  const held = await withOverflow(h.deps.db, { table: 'wallet_top_ups', when: `NEW.customer_id = '${customerId}'::uuid AND NEW.status = 'Failed'`, on: 'UPDATE' }, async () => {
    await expectJson(await h.request('POST', `/admin/v1/invoices/${invoiceId}/finalize`));
    return eventually(async () => {
      const topUp = await topUpOf();
      expect(topUp.billing_error).not.toBeNull();
      return topUp;
    });
  });
  expect(held).toMatchObject({ status: 'Pending', failure_message: null, billing_error: { step: 'abandonWalletTopUp', type: 'DeterministicFailure' } });
  expect(held.billing_error!.message).toMatch(/overflow/i);
  const handle = h.deps.temporal.client.workflow.getHandle(walletRechargeWorkflowId(held.id));
  expect((await handle.describe()).status.name).toBe('RUNNING');
  return { customerId, wallet, held, handle, topUpOf };
}

it("holds a recharge whose top-up cannot be recorded Failed as the top-up's billing_error, and records it on an operator's retry", async () => {
  const { customerId, wallet, held, handle } = await heldRecharge();
  const audit = await h.deps.db.auditLogEntry.findFirstOrThrow({ where: { entityId: held.id, action: 'wallet_top_up.billing_error' } });
  expect([audit.actorType, audit.actorId]).toEqual(['workflow', handle.workflowId]);
  // Recording it Failed was tried once: a deterministic failure is not retried.
  expect((await activityAttempts(h, handle.workflowId)).abandonWalletTopUp).toEqual([1]);

  // The cause is fixed: the operator's retry records the top-up Failed with the charge's reason and clears the error.
  const retried = await expectJson<HeldTopUp>(await h.request('POST', `${wallet}/top-ups/${held.id}/retry`));
  expect(retried).toMatchObject({ id: held.id, status: 'Failed', billing_error: null });
  expect(retried.failure_message).toMatch(/overflow/i);
  expect(await handle.result()).toEqual<WalletRechargeResult>({ topUpId: held.id, status: 'Failed' });
  const retries = await h.deps.db.auditLogEntry.findMany({ where: { entityId: held.id, action: 'wallet_top_up.billing_retried' } });
  expect(retries.map((entry) => [entry.actorType, entry.actorId])).toEqual([['admin', 'test-admin']]);
  // Recorded Failed by the workflow giving the top-up up, not by an answer of the processor.
  const failed = await h.deps.db.auditLogEntry.findMany({ where: { entityId: held.id, action: 'wallet.top_up_failed' } });
  expect(failed.map((entry) => [entry.actorType, entry.actorId])).toEqual([['workflow', handle.workflowId]]);
  const nothing = await h.request('POST', `${wallet}/top-ups/${held.id}/retry`);
  expect(nothing.status).toBe(409);
  expect(((await nothing.json()) as { error: { code: string } }).error.code).toBe('no_billing_error');
  const elsewhere = await h.request('POST', `/admin/v1/customers/${customerId}/wallets/EUR/top-ups/${held.id}/retry`);
  expect(elsewhere.status).toBe(404);
  expect(((await elsewhere.json()) as { error: { code: string } }).error.code).toBe('wallet_top_up_not_found');
  await captureHistory(handle, 'record-failed-failed-then-operator-retry');
}, 180_000);

it('ends the hold of a recharge when the processor collects its top-up meanwhile, clearing the billing_error', async () => {
  const { wallet, held, handle, topUpOf } = await heldRecharge();
  // The customer fixed the card: the processor's notification collects the top-up.
  expect(await collectTopUp(h, { id: held.id, processor_payment_intent_id: `pi_${newId().replaceAll('-', '')}` })).toBe('top_up_succeeded');
  expect(await topUpOf()).toMatchObject({ id: held.id, status: 'Succeeded', billing_error: null });
  expect((await expectJson<{ balance_nanos: string }>(await h.request('GET', wallet))).balance_nanos).toBe((1000n * UNIT).toString());
  const cleared = await h.deps.db.auditLogEntry.findMany({ where: { entityId: held.id, action: 'wallet_top_up.billing_cleared' } });
  expect(cleared.map((entry) => [entry.actorType, entry.after])).toEqual([['system', { status: 'Succeeded', billing_error: null }]]);
  // The held workflow ended with the settled status; nothing is left to retry.
  expect(await handle.result()).toEqual<WalletRechargeResult>({ topUpId: held.id, status: 'Succeeded' });
  const nothing = await h.request('POST', `${wallet}/top-ups/${held.id}/retry`);
  expect(nothing.status).toBe(409);
  await captureHistory(handle, 'record-failed-failed-then-collected-by-notification');
}, 180_000);

it("accepts an operator retry sent while the top-up's billing_error is being recorded, and records the top-up Failed", async () => {
  const customerId = await makeCustomer(h.deps.db);
  await attachCard(h, customerId);
  const wallet = `/admin/v1/customers/${customerId}/wallets/USD`;
  await expectJson(await h.request('POST', `${wallet}/grants`, { body: { amount_nanos: (1000n * UNIT).toString() } }), 201);
  await expectJson(await h.request('PUT', `${wallet}/auto-recharge`, { body: { threshold_nanos: (600n * UNIT).toString(), target_nanos: (1000n * UNIT).toString() } }));
  const invoiceId = newId();
  await h.deps.db.$transaction(async (tx) => {
    await tx.invoice.create({ data: { id: invoiceId, customerId, currency: 'USD', billingReason: 'manual' } });
    await insertLines(tx, invoiceId, [{ kind: 'fee', description: 'Seat', amountNanos: 500n * UNIT }]);
    await recomputeTotals(tx, invoiceId);
  });
  // Recording the top-up Failed overflows twice (the refused charge's, then the workflow giving it
  // up); the write of the top-up's billing_error waits for the test.
  const twice = await firstTimes(h.deps.db, 2);
  const removeFault = await injectOverflow(h.deps.db, {
    table: 'wallet_top_ups',
    when: `NEW.customer_id = '${customerId}'::uuid AND NEW.status = 'Failed' AND ${twice.sql}`,
    on: 'UPDATE',
  });
  const window = await holdBillingErrorRecording(h.deps.db, 'wallet_top_ups', `NEW.customer_id = '${customerId}'::uuid`);
  let topUpId: string | undefined;
  let retry: WorkflowUpdateHandle<WalletRechargeResult | null> | undefined;
  try {
    await expectJson(await h.request('POST', `/admin/v1/invoices/${invoiceId}/finalize`));
    await window.reached();
    topUpId = (await h.deps.db.walletTopUp.findFirstOrThrow({ where: { customerId } })).id;
    // The error is being recorded: the retry is accepted (not 409 no_billing_error) and waits for it.
    retry = await retryAccepted(h.deps.temporal.client.workflow.getHandle(walletRechargeWorkflowId(topUpId)), retryWalletTopUpUpdate);
  } finally {
    await window.release();
    await removeFault();
    await twice.drop();
  }
  expect(await retry!.result()).toEqual<WalletRechargeResult>({ topUpId: topUpId!, status: 'Failed' });
  const handle = h.deps.temporal.client.workflow.getHandle(walletRechargeWorkflowId(topUpId!));
  expect(await handle.result()).toEqual<WalletRechargeResult>({ topUpId: topUpId!, status: 'Failed' });
  expect((await expectPage<HeldTopUp>(await h.request('GET', `${wallet}/top-ups`))).data).toMatchObject([{ id: topUpId, status: 'Failed', billing_error: null }]);
  expect((await activityAttempts(h, handle.workflowId)).abandonWalletTopUp).toEqual([1, 1]);
  expect(await billingErrorTrail(h.deps.db, 'wallet_top_up', topUpId!)).toEqual([
    ['wallet_top_up.billing_error', 'workflow'],
    ['wallet_top_up.billing_retried', 'admin'],
  ]);
}, 180_000);
