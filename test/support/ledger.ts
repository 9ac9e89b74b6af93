/**
 * The ledger against the documents, for integration tests: a customer's account balances through the
 * API, and the checks that tie them to its invoices and wallet.
 */
import { expect } from 'vitest';
import { expectJson, expectPage, type Harness } from './harness.js';
import { invoicesOf } from './invoices.js';

/** A customer's ledger balances by account kind (0 for an account it does not have yet), of one currency when given. */
export async function ledgerBalances(h: Harness, customerId: string, currency?: string): Promise<(kind: string) => bigint> {
  const body = await expectJson<{ accounts: { kind: string; currency: string; balance_nanos: string }[] }>(await h.request('GET', `/admin/v1/customers/${customerId}/ledger/accounts`));
  const map = Object.fromEntries(body.accounts.filter((a) => currency === undefined || a.currency.trim() === currency).map((a) => [a.kind, BigInt(a.balance_nanos)]));
  return (kind) => map[kind] ?? 0n;
}

interface InvoiceAmounts {
  status: string;
  currency: string;
  total_nanos: string;
  credited_nanos: string;
  amount_due_nanos: string;
}

/**
 * In one currency: AR = what Open invoices leave to pay (never negative); the wallet accounts = the
 * wallet's balance (0 without a wallet); customer credit = the customer's credit balance; revenue,
 * deferred revenue and tax payable = what was billed net of credit notes; the trial balance is zero.
 * Returns the balances.
 */
export async function expectLedgerMatchesDocuments(h: Harness, customerId: string, currency = 'USD'): Promise<(kind: string) => bigint> {
  const invoices = (await invoicesOf<InvoiceAmounts>(h, `customer_id=${customerId}&limit=200`)).filter((i) => i.currency === currency);
  const balance = await ledgerBalances(h, customerId, currency);
  expect(balance('accounts_receivable')).toBe(invoices.filter((i) => i.status === 'Open').reduce((s, i) => s + BigInt(i.amount_due_nanos), 0n));
  expect(balance('accounts_receivable') >= 0n).toBe(true);
  const walletRes = await h.request('GET', `/admin/v1/customers/${customerId}/wallets/${currency}`);
  const wallet = walletRes.status === 404 ? { balance_nanos: '0' } : await expectJson<{ balance_nanos: string }>(walletRes);
  expect(balance('wallet') + balance('promotional_credit')).toBe(BigInt(wallet.balance_nanos));
  const overview = await expectJson<{ credit_balances: { currency: string; balance_nanos: string }[] }>(await h.request('GET', `/admin/v1/customers/${customerId}`));
  expect(balance('customer_credit')).toBe(BigInt(overview.credit_balances.find((b) => b.currency === currency)?.balance_nanos ?? '0'));
  expect(balance('revenue') + balance('deferred_revenue') + balance('tax_payable')).toBe(
    invoices.filter((i) => i.status === 'Open' || i.status === 'Paid').reduce((s, i) => s + BigInt(i.total_nanos) - BigInt(i.credited_nanos), 0n),
  );
  const trial = await expectJson<{ currencies: { difference_nanos: string }[] }>(await h.request('GET', `/admin/v1/ledger/trial-balance?customer_id=${customerId}`));
  expect(trial.currencies.every((c) => c.difference_nanos === '0')).toBe(true);
  return balance;
}
