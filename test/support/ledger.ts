/**
 * The ledger against the documents, for integration tests: a customer's account balances through the
 * API, and the checks that tie them to its invoices and wallet.
 */
import { expect } from 'vitest';
import { expectJson, expectPage, type Harness } from './harness.js';
import { invoicesOf } from './invoices.js';

/** A customer's ledger balances by account kind (0 for an account it does not have yet). */
export async function ledgerBalances(h: Harness, customerId: string): Promise<(kind: string) => bigint> {
  const body = await expectJson<{ accounts: { kind: string; balance_nanos: string }[] }>(await h.request('GET', `/admin/v1/customers/${customerId}/ledger/accounts`));
  const map = Object.fromEntries(body.accounts.map((a) => [a.kind, BigInt(a.balance_nanos)]));
  return (kind) => map[kind] ?? 0n;
}

interface InvoiceAmounts {
  status: string;
  total_nanos: string;
  credited_nanos: string;
  amount_due_nanos: string;
}

/**
 * AR = what Open invoices leave to pay; the wallet accounts = the wallet's balance; revenue, deferred
 * revenue and tax payable = what was billed net of credit notes; the trial balance is zero. Returns the balances.
 */
export async function expectLedgerMatchesDocuments(h: Harness, customerId: string, currency = 'USD'): Promise<(kind: string) => bigint> {
  const invoices = (await invoicesOf<InvoiceAmounts>(h, `customer_id=${customerId}&limit=200`));
  const balance = await ledgerBalances(h, customerId);
  expect(balance('accounts_receivable')).toBe(invoices.filter((i) => i.status === 'Open').reduce((s, i) => s + BigInt(i.amount_due_nanos), 0n));
  const wallet = await expectJson<{ balance_nanos: string }>(await h.request('GET', `/admin/v1/customers/${customerId}/wallets/${currency}`));
  expect(balance('wallet') + balance('promotional_credit')).toBe(BigInt(wallet.balance_nanos));
  expect(balance('revenue') + balance('deferred_revenue') + balance('tax_payable')).toBe(
    invoices.filter((i) => i.status === 'Open' || i.status === 'Paid').reduce((s, i) => s + BigInt(i.total_nanos) - BigInt(i.credited_nanos), 0n),
  );
  const trial = await expectJson<{ currencies: { difference_nanos: string }[] }>(await h.request('GET', `/admin/v1/ledger/trial-balance?customer_id=${customerId}`));
  expect(trial.currencies.map((c) => c.difference_nanos)).toEqual(['0']);
  return balance;
}
