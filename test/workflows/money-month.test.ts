/**
 * One customer, one month on a test clock, every money feature at once (issue 15 end to end): a
 * credit wallet with auto-recharge, a SoftLimit and a HardLimit spend alert, and a card on file.
 * The alerts trigger at their crossings (business time), the HardLimit blocks the customer and caps
 * the invoice, the wallet pays what the cap leaves before the card is charged, its drawdown below
 * the threshold recharges it once, the next period re-arms the alerts, and the ledger matches the
 * invoices, the payments and the wallet throughout.
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

const units = (n: bigint) => (n * UNIT).toString();

interface Alert {
  id: string;
  status: string;
  last_spend_nanos: string | null;
}
interface Invoice {
  id: string;
  status: string;
  period_start: string;
  total_nanos: string;
  credited_nanos: string;
  wallet_applied_nanos: string;
  spend_cap_withheld_nanos: string;
  amount_due_nanos: string;
}
interface TopUp {
  id: string;
  status: string;
  source: string;
  amount_nanos: string;
  processor_payment_intent_id: string | null;
}

const advance = (clockId: string, to: string) => advanceClock(h, clockId, to);


it('a month with a wallet, auto-recharge, a SoftLimit and a HardLimit: alerts on time, the cap, the drawdown, one recharge, the reset, a matching ledger', async () => {
  const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
  const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
  await attachCard(h, customerId);
  // 49.00 a month plus 0.01 per API call.
  const subscription = await expectJson<{ id: string }>(
    await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: await makePlan(h.deps.db), currency: 'USD' } }),
    201,
  );
  cleanup.push(subscriptionWorkflowId(subscription.id));
  const wallet = `/admin/v1/customers/${customerId}/wallets/USD`;
  await expectJson(await h.request('POST', `${wallet}/grants`, { body: { amount_nanos: units(40n) } }), 201);
  await expectJson(await h.request('PUT', `${wallet}/auto-recharge`, { body: { threshold_nanos: units(30n), target_nanos: units(100n) } }));
  const alertOf = async (type: string, threshold: bigint) =>
    expectJson<Alert>(await h.request('POST', `/admin/v1/customers/${customerId}/alerts`, { body: { alert_type: type, threshold_nanos: units(threshold) } }), 201);
  const soft = await alertOf('SoftLimit', 100n);
  const hard = await alertOf('HardLimit', 150n);

  const alert = async (id: string) => expectJson<Alert>(await h.request('GET', `/admin/v1/customers/${customerId}/alerts/${id}`));
  const evaluatedAt = async (spend: bigint) =>
    eventually(async () => {
      for (const id of [soft.id, hard.id]) expect((await alert(id)).last_spend_nanos).toBe(units(spend));
    });
  const triggered = async () =>
    (await h.deps.db.outboxEvent.findMany({ where: { type: 'spend_alert.triggered', aggregateId: { in: [soft.id, hard.id] } }, orderBy: { id: 'asc' } })).map((row) => [
      row.aggregateId,
      row.occurredAt.toISOString(),
    ]);
  const entitlement = async () => (await expectJson<{ status: string }>(await h.request('GET', `/v1/customers/${customerId}/entitlement`, { as: { customer: customerId } }))).status;
  const invoices = async () => (await invoicesOf<Invoice>(h, `customer_id=${customerId}&limit=200`));
  // Oldest first (lists are newest first).
  const topUps = async () => (await expectPage<TopUp>(await h.request('GET', `${wallet}/top-ups`))).data.reverse();
  const walletBalance = async () => BigInt((await expectJson<{ balance_nanos: string }>(await h.request('GET', wallet))).balance_nanos);
  await evaluatedAt(49n);
  // Jan 15: 6,000 calls → 109.00 crosses the SoftLimit.
  await advance(clockId, '2026-01-15T00:00:00.000Z');
  await sendUsage(h, customerId, subscription.id, 6000, '2026-01-15T00:00:00.000Z');
  await evaluatedAt(109n);
  expect(await triggered()).toEqual([[soft.id, '2026-01-15T00:00:00.000Z']]);
  expect(await entitlement()).toBe('active');

  // Jan 20: 6,000 more → 169.00 crosses the HardLimit: blocked, usage still recorded.
  await advance(clockId, '2026-01-20T00:00:00.000Z');
  await sendUsage(h, customerId, subscription.id, 6000, '2026-01-20T00:00:00.000Z');
  await evaluatedAt(169n);
  expect(await triggered()).toEqual([
    [soft.id, '2026-01-15T00:00:00.000Z'],
    [hard.id, '2026-01-20T00:00:00.000Z'],
  ]);
  expect(await entitlement()).toBe('blocked');
  expect(await h.deps.db.usageEvent.count({ where: { customerId } })).toBe(12_000);

  // Past the period end and the grace: the January invoice is capped at 150.00 (19.00 withheld); the
  // wallet's 40.00 pays part of it before the card is charged the 110.00 left.
  await advance(clockId, '2026-02-01T01:00:01.000Z');
  const january = (await invoices()).find((i) => i.period_start === '2026-01-01T00:00:00.000Z')!;
  cleanup.push(dunningWorkflowId(january.id));
  expect(january).toMatchObject({
    status: 'Open',
    total_nanos: units(150n),
    spend_cap_withheld_nanos: units(19n),
    wallet_applied_nanos: units(40n),
    amount_due_nanos: units(110n),
  });
  const [charge] = await paymentsOf(h, january.id);
  expect(charge).toMatchObject({ amount_nanos: units(110n) });

  // The drawdown took the wallet from 40 to 0, below the 30 threshold: exactly one recharge, to 100.
  const [recharge] = await eventually(async () => {
    const rows = await topUps();
    expect(rows).toHaveLength(1);
    return rows;
  });
  expect(recharge).toMatchObject({ source: 'auto_recharge', amount_nanos: units(100n) });
  await h.deps.temporal.client.workflow.getHandle(walletRechargeWorkflowId(recharge!.id)).result();

  // The processor collects the card payment and the recharge (stripe-mock refused both confirmations).
  const paid = await expectJson<{ event_id: string }>(await notify(h, intentEvent('payment_intent.succeeded', charge!)));
  expect(await h.deps.temporal.client.workflow.getHandle(processorEventWorkflowId(paid.event_id)).result()).toBe('payment_succeeded');
  expect(await collectTopUp(h, (await topUps())[0]!)).toBe('top_up_succeeded');
  expect(await walletBalance()).toBe(100n * UNIT);

  // February: both alerts re-armed by the period roll, the customer unblocked, nothing triggered again.
  await eventually(async () => {
    for (const id of [soft.id, hard.id]) expect((await alert(id)).status).toBe('Armed');
    expect(await entitlement()).toBe('active');
  });
  expect(await triggered()).toHaveLength(2);
  expect((await invoices()).find((i) => i.id === january.id)!.status).toBe('Paid');

  const balance = await expectLedgerMatchesDocuments(h, customerId);
  // Cash: the card's 110.00 and the recharge's 100.00; revenue only what was charged (the cap withheld 19.00).
  expect([balance('cash'), balance('revenue'), balance('promotional_expense'), balance('wallet'), balance('accounts_receivable')]).toEqual([
    210n * UNIT,
    150n * UNIT,
    40n * UNIT,
    100n * UNIT,
    0n,
  ]);
}, 300_000);
