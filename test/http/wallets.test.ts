/**
 * Credit wallets over HTTP against the real database and stripe-mock: promotional grants (and their
 * expiry on a test clock), paid top-ups through the processor (stripe-mock refuses every
 * confirmation; the processor's signed notification then collects it), the drawdown at
 * finalization shown on the invoice, a wallet that pays an invoice in full, a void that gives the
 * credit back, and the ledger accounts that mirror the wallet.
 */
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import type { Actor } from '../../src/services/audit.js';
import { insertLines, recomputeTotals } from '../../src/db/invoices.js';
import { finalizeInvoice, voidInvoice } from '../../src/services/invoicing/invoices.js';
import { applyTax, zeroTax } from '../../src/services/billing/tax.js';
import { makeCustomer, makeTestClock } from '../support/fixtures.js';
import { expectJson, expectPage, useHarness } from '../support/harness.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { attachCard, collectTopUp } from '../support/payments.js';

const h = useHarness();

const ADMIN: Actor = { type: 'admin', id: 'test-admin' };

interface WalletBody {
  id: string;
  balance_nanos: string;
  paid_balance_nanos: string;
  promotional_balance_nanos: string;
  auto_recharge: { threshold_nanos: string; target_nanos: string } | null;
  grants: { kind: string; remaining_nanos: string; expires_at: string | null }[];
}
interface TopUpBody {
  id: string;
  status: string;
  source: string;
  amount_nanos: string;
  processor_payment_intent_id: string | null;
  failure_message: string | null;
}
interface TransactionBody {
  kind: string;
  amount_nanos: string;
  balance_after_nanos: string;
  invoice_id: string | null;
  occurred_at: string;
}

const wallet = (customerId: string, currency = 'USD') => `/admin/v1/customers/${customerId}/wallets/${currency}`;

async function makeDraft(customerId: string, amount: bigint): Promise<string> {
  const id = newId();
  await h.deps.db.$transaction(async (tx) => {
    await tx.invoice.create({ data: { id, customerId, currency: 'USD', billingReason: 'manual' } });
    await insertLines(tx, id, [{ kind: 'fee', description: 'Licence', amountNanos: amount }]);
    await recomputeTotals(tx, id);
  });
  return id;
}

const finalize = (id: string, at = new Date()) => finalizeInvoice(h.deps.db, id, { actor: ADMIN, at, applyTax: (tx, invoice) => applyTax(tx, invoice, zeroTax) });

async function ledger(customerId: string): Promise<Record<string, bigint>> {
  const body = await expectJson<{ accounts: { kind: string; balance_nanos: string }[] }>(await h.request('GET', `/admin/v1/customers/${customerId}/ledger/accounts`));
  return Object.fromEntries(body.accounts.map((a) => [a.kind, BigInt(a.balance_nanos)]));
}

describe('credit wallets', () => {
  it('a promotional grant and a paid top-up (collected by the processor notification) fund the wallet, mirrored in the ledger', async () => {
    const customerId = await makeCustomer(h.deps.db);
    expect((await h.request('GET', wallet(customerId))).status).toBe(404);
    const granted = await expectJson<WalletBody>(await h.request('POST', `${wallet(customerId)}/grants`, { body: { amount_nanos: (20n * UNIT).toString(), description: 'welcome credit' } }), 201);
    expect(granted).toMatchObject({ balance_nanos: (20n * UNIT).toString(), promotional_balance_nanos: (20n * UNIT).toString(), paid_balance_nanos: '0' });
    // Display strings beside the raw amounts, rounded once like every other display field.
    expect(granted).toMatchObject({ balance: '20.00', promotional_balance: '20.00', paid_balance: '0.00' });

    // Without a card: 422; with one, stripe-mock refuses the confirmation, recorded Failed with its intent.
    const refused = await h.request('POST', `${wallet(customerId)}/top-ups`, { body: { amount_nanos: (50n * UNIT).toString() } });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('no_payment_method');
    await attachCard(h, customerId);
    const notWhole = await h.request('POST', `${wallet(customerId)}/top-ups`, { body: { amount_nanos: (50n * UNIT + 1n).toString() } });
    expect(notWhole.status).toBe(422);
    const topUp = await expectJson<TopUpBody>(await h.request('POST', `${wallet(customerId)}/top-ups`, { body: { amount_nanos: (50n * UNIT).toString() } }), 201);
    expect(topUp).toMatchObject({ status: 'Failed', source: 'api' });
    expect(topUp.processor_payment_intent_id).toMatch(/^pi_/);

    expect(await collectTopUp(h, topUp)).toBe('top_up_succeeded');
    const funded = await expectJson<WalletBody>(await h.request('GET', wallet(customerId)));
    expect(funded).toMatchObject({ balance_nanos: (70n * UNIT).toString(), paid_balance_nanos: (50n * UNIT).toString() });
    // Replaying the notification (a new event id, same intent) changes nothing.
    expect(await collectTopUp(h, topUp)).toBe('top_up_succeeded');
    expect((await expectJson<WalletBody>(await h.request('GET', wallet(customerId)))).balance_nanos).toBe((70n * UNIT).toString());

    expect(await ledger(customerId)).toMatchObject({ wallet: 50n * UNIT, cash: 50n * UNIT, promotional_credit: 20n * UNIT, promotional_expense: 20n * UNIT });
    const history = await expectPage<TransactionBody>(await h.request('GET', `${wallet(customerId)}/transactions`));
    expect(history.data.map((t) => [t.kind, t.amount_nanos, t.balance_after_nanos])).toEqual([
      ['top_up', (50n * UNIT).toString(), (70n * UNIT).toString()],
      ['promotional_grant', (20n * UNIT).toString(), (20n * UNIT).toString()],
    ]);
    const topUps = await expectPage<TopUpBody>(await h.request('GET', `${wallet(customerId)}/top-ups`));
    expect(topUps.data.map((t) => t.status)).toEqual(['Succeeded']);
  });

  it('finalization draws the wallet down before any charge (promotional first) and shows it on the invoice; a void gives it back', async () => {
    const customerId = await makeCustomer(h.deps.db);
    await h.request('POST', `${wallet(customerId)}/grants`, { body: { amount_nanos: (30n * UNIT).toString() } });
    const partly = await makeDraft(customerId, 100n * UNIT);
    const result = await finalize(partly);
    expect(result.invoice).toMatchObject({ status: 'Open', total_nanos: (100n * UNIT).toString(), wallet_applied_nanos: (30n * UNIT).toString(), amount_due_nanos: (70n * UNIT).toString() });
    expect((await expectJson<WalletBody>(await h.request('GET', wallet(customerId)))).balance_nanos).toBe('0');
    expect(await ledger(customerId)).toMatchObject({ accounts_receivable: 70n * UNIT, promotional_credit: 0n });

    await voidInvoice(h.deps.db, partly, { actor: ADMIN, at: new Date() });
    expect((await expectJson<WalletBody>(await h.request('GET', wallet(customerId)))).balance_nanos).toBe((30n * UNIT).toString());
    expect(await ledger(customerId)).toMatchObject({ accounts_receivable: 0n, revenue: 0n, promotional_credit: 30n * UNIT });
    const history = await expectPage<TransactionBody>(await h.request('GET', `${wallet(customerId)}/transactions`));
    expect(history.data.map((t) => t.kind)).toEqual(['void_return', 'drawdown', 'promotional_grant']);
  });

  it('a wallet that covers the whole invoice pays it at finalization', async () => {
    const customerId = await makeCustomer(h.deps.db);
    await h.request('POST', `${wallet(customerId)}/grants`, { body: { amount_nanos: (100n * UNIT).toString() } });
    const id = await makeDraft(customerId, 40n * UNIT);
    const { invoice } = await finalize(id);
    expect(invoice).toMatchObject({ status: 'Paid', wallet_applied_nanos: (40n * UNIT).toString(), amount_due_nanos: '0', paid_by: { actor_id: 'billing-engine', actor_name: 'credit wallet' } });
    expect(await ledger(customerId)).toMatchObject({ accounts_receivable: 0n, revenue: 40n * UNIT, promotional_credit: 60n * UNIT });
    expect(await h.deps.db.ledgerJournal.count({ where: { invoiceId: id, kind: 'payment_collected' } })).toBe(0);
  });

  it('a grant answers the wallet after it with the grant it created', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-03-01T00:00:00Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    await h.request('POST', `${wallet(customerId)}/grants`, { body: { amount_nanos: (7n * UNIT).toString() } });
    type Granted = WalletBody & { grant: { id: string; kind: string; amount_nanos: string; remaining_nanos: string; expires_at: string | null; granted_at: string } };
    const body = { amount_nanos: (12n * UNIT).toString(), expires_at: '2026-04-01T00:00:00Z', description: 'spring promotion' };
    const granted = await expectJson<Granted>(await h.request('POST', `${wallet(customerId)}/grants`, { body }), 201);
    expect(granted.grant).toEqual({
      id: expect.any(String),
      kind: 'promotional',
      amount_nanos: (12n * UNIT).toString(),
      remaining_nanos: (12n * UNIT).toString(),
      expires_at: '2026-04-01T00:00:00.000Z',
      granted_at: '2026-03-01T00:00:00.000Z',
    });
    // Still the wallet (every Wallet field), the new grant among its grants.
    expect(granted).toMatchObject({ customer_id: customerId, currency: 'USD', balance_nanos: (19n * UNIT).toString(), promotional_balance_nanos: (19n * UNIT).toString() });
    expect(granted.grants).toHaveLength(2);
    expect(granted.grants).toContainEqual(granted.grant);
    const stored = await h.deps.db.walletGrant.findUniqueOrThrow({ where: { id: granted.grant.id } });
    expect(stored.amountNanos.toFixed(0)).toBe((12n * UNIT).toString());
    expect(await expectJson(await h.request('GET', wallet(customerId)))).not.toHaveProperty('grant');
  });

  it('promotional credit expires on the customer\'s clock, written off dated at its expiry', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    const past = await h.request('POST', `${wallet(customerId)}/grants`, { body: { amount_nanos: '1000', expires_at: '2025-12-31T00:00:00Z' } });
    expect(past.status).toBe(400);
    await h.request('POST', `${wallet(customerId)}/grants`, { body: { amount_nanos: (10n * UNIT).toString(), expires_at: '2026-01-15T00:00:00Z' } });
    await h.request('POST', `${wallet(customerId)}/grants`, { body: { amount_nanos: (5n * UNIT).toString() } });
    await h.deps.db.testClock.update({ where: { id: clockId }, data: { frozenTime: new Date('2026-02-01T00:00:00Z') } });
    const id = await makeDraft(customerId, 8n * UNIT);
    const { invoice } = await finalize(id, new Date('2026-02-01T00:00:00Z'));
    expect(invoice).toMatchObject({ wallet_applied_nanos: (5n * UNIT).toString(), amount_due_nanos: (3n * UNIT).toString() });
    const history = await expectPage<TransactionBody>(await h.request('GET', `${wallet(customerId)}/transactions`));
    expect(history.data.map((t) => [t.kind, t.amount_nanos, t.occurred_at])).toEqual([
      ['drawdown', (-5n * UNIT).toString(), '2026-02-01T00:00:00.000Z'],
      ['expiry', (-10n * UNIT).toString(), '2026-01-15T00:00:00.000Z'],
      ['promotional_grant', (5n * UNIT).toString(), '2026-01-01T00:00:00.000Z'],
      ['promotional_grant', (10n * UNIT).toString(), '2026-01-01T00:00:00.000Z'],
    ]);
    expect(await ledger(customerId)).toMatchObject({ promotional_credit: 0n, promotional_expense: 5n * UNIT, accounts_receivable: 3n * UNIT });
  });

  it('refuses credit that would take the balance past DECIMAL(38,0) with 422, not a 500, and writes nothing', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const grant = (amount: bigint) => h.request('POST', `${wallet(customerId)}/grants`, { body: { amount_nanos: amount.toString() } });
    const expectError = async (res: Response, status: number, code: string) => {
      expect(res.status).toBe(status);
      expect(await res.json()).toMatchObject({ error: { code } });
    };
    const max = 10n ** 38n - 1n;
    await expectJson(await grant(max - 5n), 201);
    await expectError(await grant(6n), 422, 'wallet_balance_out_of_range');
    expect((await expectJson<WalletBody>(await grant(5n), 201)).balance_nanos).toBe(max.toString());
    await expectError(await grant(1n), 422, 'wallet_balance_out_of_range');
    // Past 38 digits the amount itself is refused at the door.
    await expectError(await grant(10n ** 38n), 400, 'validation_failed');
    // A paid top-up is refused before anything is charged.
    await attachCard(h, customerId);
    await expectError(await h.request('POST', `${wallet(customerId)}/top-ups`, { body: { amount_nanos: UNIT.toString() } }), 422, 'wallet_balance_out_of_range');
    expect((await expectPage<TopUpBody>(await h.request('GET', `${wallet(customerId)}/top-ups`))).data).toEqual([]);
    const history = await expectPage<TransactionBody>(await h.request('GET', `${wallet(customerId)}/transactions`));
    expect(history.data.map((t) => t.balance_after_nanos)).toEqual([max.toString(), (max - 5n).toString()]);

    // A top-up larger than the processor can be asked for (amounts travel as JSON numbers) is refused too.
    const other = await makeCustomer(h.deps.db);
    await attachCard(h, other);
    const huge = (2n ** 53n) * (UNIT / 100n);
    await expectError(await h.request('POST', `${wallet(other)}/top-ups`, { body: { amount_nanos: huge.toString() } }), 422, 'top_up_too_large');
  });

  it('configures auto-recharge (target above threshold) and turns it off', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const bad = await h.request('PUT', `${wallet(customerId)}/auto-recharge`, { body: { threshold_nanos: '100', target_nanos: '100' } });
    expect(bad.status).toBe(400);
    const on = await expectJson<WalletBody>(await h.request('PUT', `${wallet(customerId)}/auto-recharge`, { body: { threshold_nanos: '100', target_nanos: '500' } }));
    expect(on.auto_recharge).toEqual({ threshold_nanos: '100', target_nanos: '500' });
    const off = await expectJson<WalletBody>(await h.request('DELETE', `${wallet(customerId)}/auto-recharge`));
    expect(off.auto_recharge).toBeNull();
    const list = await expectPage<WalletBody>(await h.request('GET', `/admin/v1/customers/${customerId}/wallets`));
    expect(list.data.map((w) => w.id)).toEqual([on.id]);
  });
});
