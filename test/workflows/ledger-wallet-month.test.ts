/**
 * Test-clock end to end: a subscription with usage billed month after month by its workflow, a
 * customer with a card on file and a credit wallet with auto-recharge. The wallet is drawn down on
 * each invoice at finalization (before the card is charged), threshold crossings recharge it through
 * the processor (collected by its signed notifications), an invoice billed mid-period defers its
 * revenue until the period close recognizes it, and at every step the ledger's balances match the
 * invoices, payments and wallet.
 */
import { expect, it } from 'vitest';
import { dunningWorkflowId } from '../../workflows/dunning/messages.js';
import { processorEventWorkflowId } from '../../workflows/processor-event/messages.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { walletRechargeWorkflowId } from '../../workflows/wallet-recharge/messages.js';
import { advanceClock, sendUsage } from '../support/clock-usage.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { expectJson, expectPage, terminatedAfterAll, useHarness } from '../support/harness.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { expectLedgerMatchesDocuments } from '../support/ledger.js';
import { attachCard, collectTopUp, eventually, intentEvent, notify, paymentsOf } from '../support/payments.js';
import { invoicesOf } from '../support/invoices.js';

const h = useHarness();
const cleanup = terminatedAfterAll(h);

interface Invoice {
  id: string;
  status: string;
  total_nanos: string;
  credited_nanos: string;
  wallet_applied_nanos: string;
  amount_due_nanos: string;
  period_start: string;
  billing_reason: string;
}
interface TopUp {
  id: string;
  status: string;
  source: string;
  amount_nanos: string;
  processor_payment_intent_id: string | null;
}

const advance = (clockId: string, to: string) => advanceClock(h, clockId, to);


it('a quarter of usage with a wallet and auto-recharge: drawdowns on the invoices, recharges, deferred revenue recognized, ledger matching', async () => {
  const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
  const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
  await attachCard(h, customerId);
  const subscription = await expectJson<{ id: string }>(
    await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: await makePlan(h.deps.db), currency: 'USD' } }),
    201,
  );
  cleanup.push(subscriptionWorkflowId(subscription.id));
  const wallet = `/admin/v1/customers/${customerId}/wallets/USD`;
  await expectJson(await h.request('POST', `${wallet}/grants`, { body: { amount_nanos: (40n * UNIT).toString(), expires_at: '2026-06-01T00:00:00Z' } }), 201);
  await expectJson(await h.request('PUT', `${wallet}/auto-recharge`, { body: { threshold_nanos: (30n * UNIT).toString(), target_nanos: (100n * UNIT).toString() } }));

  const invoices = async () => (await invoicesOf<Invoice>(h, `customer_id=${customerId}&limit=200`));
  // Oldest first (lists are newest first).
  const topUps = async () => (await expectPage<TopUp>(await h.request('GET', `${wallet}/top-ups`))).data.reverse();
  const expectLedgerMatches = async () => ({ balance: await expectLedgerMatchesDocuments(h, customerId) });

  // January: 49.00 fee + 1,000 calls at 0.01 = 59.00. The 40.00 of promotional credit pays part of it at
  // finalization; the card is charged the 19.00 left (stripe-mock refuses, the notification collects it).
  await advance(clockId, '2026-01-15T12:00:00.000Z');
  await sendUsage(h, customerId, subscription.id, 1000, '2026-01-15T12:00:00.000Z');
  await advance(clockId, '2026-02-01T01:00:00.000Z');
  const [january] = await invoices();
  cleanup.push(dunningWorkflowId(january!.id));
  expect(january).toMatchObject({ status: 'Open', total_nanos: (59n * UNIT).toString(), wallet_applied_nanos: (40n * UNIT).toString(), amount_due_nanos: (19n * UNIT).toString() });
  const [charge] = await paymentsOf(h, january!.id);
  expect(charge).toMatchObject({ status: 'Failed', amount_nanos: (19n * UNIT).toString() });
  // The drawdown took the wallet from 40 to 0, across the 30 threshold: one recharge to 100.
  const [firstRecharge] = await topUps();
  expect(firstRecharge).toMatchObject({ source: 'auto_recharge', amount_nanos: (100n * UNIT).toString() });
  await h.deps.temporal.client.workflow.getHandle(walletRechargeWorkflowId(firstRecharge!.id)).result();
  const receipt = await expectJson<{ event_id: string }>(await notify(h, intentEvent('payment_intent.succeeded', charge!)));
  expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(receipt.event_id)).result()).toBe('payment_succeeded');
  expect(await collectTopUp(h, (await topUps())[0]!)).toBe('top_up_succeeded');
  let { balance } = await expectLedgerMatches();
  expect([balance('cash'), balance('revenue'), balance('promotional_expense')]).toEqual([119n * UNIT, 59n * UNIT, 40n * UNIT]);

  // February: 49.00 + 2,500 calls = 74.00, paid by the wallet at finalization (100 → 26, crossing again).
  await advance(clockId, '2026-02-10T12:00:00.000Z');
  await sendUsage(h, customerId, subscription.id, 2500, '2026-02-10T12:00:00.000Z');
  await advance(clockId, '2026-03-01T01:00:00.000Z');
  const february = (await invoices()).find((i) => i.period_start === '2026-02-01T00:00:00.000Z')!;
  expect(february).toMatchObject({ status: 'Paid', total_nanos: (74n * UNIT).toString(), wallet_applied_nanos: (74n * UNIT).toString(), amount_due_nanos: '0' });
  const recharges = await eventually(async () => {
    const rows = await topUps();
    expect(rows).toHaveLength(2);
    await h.deps.temporal.client.workflow.getHandle(walletRechargeWorkflowId(rows[1]!.id)).result();
    return topUps();
  });
  expect(recharges[1]).toMatchObject({ source: 'auto_recharge', amount_nanos: (74n * UNIT).toString() });
  expect(await collectTopUp(h, recharges[1]!)).toBe('top_up_succeeded');
  expect((await expectJson<{ balance_nanos: string }>(await h.request('GET', wallet))).balance_nanos).toBe((100n * UNIT).toString());
  await expectLedgerMatches();

  // March 10: billed on demand and finalized mid-period. The fee's service period runs to April 1st, so
  // its revenue is deferred; the wallet pays it (100 → 51, above the threshold: no recharge).
  await advance(clockId, '2026-03-10T00:00:00.000Z');
  const march = await expectJson<Invoice>(await h.request('POST', `/admin/v1/subscriptions/${subscription.id}/bill`), 201);
  const finalized = await expectJson<Invoice>(await h.request('POST', `/admin/v1/invoices/${march.id}/finalize`));
  expect(finalized).toMatchObject({ status: 'Paid', total_nanos: (49n * UNIT).toString(), wallet_applied_nanos: (49n * UNIT).toString() });
  expect(await topUps()).toHaveLength(2);
  ({ balance } = await expectLedgerMatches());
  expect(balance('deferred_revenue')).toBe(49n * UNIT);

  // The period closes on April 1st: the deferred fee is recognized, dated at the end of its service period.
  await advance(clockId, '2026-04-01T01:00:00.000Z');
  ({ balance } = await expectLedgerMatches());
  expect([balance('deferred_revenue'), balance('revenue'), balance('cash'), balance('accounts_receivable')]).toEqual([0n, 182n * UNIT, 193n * UNIT, 0n]);
  const recognized = await expectPage<{ journal_kind: string; effective_at: string; account: string; side: string }>(
    await h.request('GET', `/admin/v1/customers/${customerId}/ledger/entries?account=revenue&from=2026-04-01T00:00:00Z`),
  );
  expect(recognized.data).toMatchObject([{ journal_kind: 'revenue_recognition', side: 'credit', effective_at: '2026-04-01T00:00:00.000Z' }]);

  const overview = await expectJson<{ ledger_balances: Record<string, string> }>(await h.request('GET', `/admin/v1/customers/${customerId}`));
  expect(overview.ledger_balances).toEqual({ accounts_receivable_nanos: '0', prepaid_credit_nanos: (51n * UNIT).toString(), deferred_revenue_nanos: '0', customer_credit_nanos: '0' });
}, 300_000);
