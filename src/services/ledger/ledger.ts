/**
 * Ledger reads (accounts and balances of a customer, as of a date too; entries filtered by account,
 * date and source document; the trial balance). The period-close upkeep (deferred revenue recognized,
 * expired promotional credit written off) is in src/services/subscriptions/period-close.ts.
 */
import type { PageQuery } from '../../db/pages.js';
import { ACCOUNT_KINDS, NORMAL_SIDE, normalBalance, type AccountKind } from '../../core/index.js';
import type { Db } from '../../db/client.js';
import { findCustomer } from '../../db/customers.js';
import { accountTotalsOfCustomer, listEntries, trialBalanceTotals, type EntryFilter, type EntryRow } from '../../db/ledger.js';
import { notFound } from '../../errors.js';
import type { CustomerLedgerView, LedgerEntryView, TrialBalanceView } from '../../schemas/ledger.js';
import { toPage } from '../pagination.js';

async function requireCustomer(db: Db, customerId: string): Promise<void> {
  if (!(await db.$transaction((tx) => findCustomer(tx, customerId)))) throw notFound('customer', customerId);
}

export async function customerLedger(db: Db, customerId: string, asOf: Date | null): Promise<CustomerLedgerView> {
  await requireCustomer(db, customerId);
  const totals = await accountTotalsOfCustomer(db, customerId, asOf);
  return {
    customer_id: customerId,
    as_of: asOf?.toISOString() ?? null,
    accounts: totals.map((t) => ({
      account_id: t.accountId,
      customer_id: t.customerId,
      currency: t.currency,
      kind: t.kind,
      normal_side: NORMAL_SIDE[t.kind],
      debits_nanos: t.debits.toString(),
      credits_nanos: t.credits.toString(),
      balance_nanos: normalBalance(t.kind, t).toString(),
    })),
  };
}

/** The customer 360 view's balances in its billing currency: AR, prepaid credit (wallet + promotional), deferred revenue. */
export async function ledgerBalancesForOverview(db: Db, customerId: string, currency: string) {
  const totals = (await accountTotalsOfCustomer(db, customerId, null)).filter((t) => t.currency === currency);
  const balance = (kind: AccountKind) => {
    const t = totals.find((row) => row.kind === kind);
    return t ? normalBalance(kind, t) : 0n;
  };
  return {
    accounts_receivable_nanos: balance('accounts_receivable').toString(),
    prepaid_credit_nanos: (balance('wallet') + balance('promotional_credit')).toString(),
    deferred_revenue_nanos: balance('deferred_revenue').toString(),
    customer_credit_nanos: balance('customer_credit').toString(),
  };
}

const toEntryView = (e: EntryRow): LedgerEntryView => ({
  id: e.id,
  journal_id: e.journalId,
  journal_kind: e.journalKind as LedgerEntryView['journal_kind'],
  business_key: e.businessKey,
  source_type: e.sourceType,
  source_id: e.sourceId,
  invoice_id: e.invoiceId,
  reverses_journal_id: e.reversesJournalId,
  description: e.description,
  account: e.account,
  currency: e.currency,
  side: e.side,
  amount_nanos: e.amount.toString(),
  effective_at: e.effectiveAt.toISOString(),
});

export async function listLedgerEntries(db: Db, filter: EntryFilter, page: PageQuery) {
  await requireCustomer(db, filter.customerId);
  return toPage(await listEntries(db, filter, page), page.limit, toEntryView);
}

/** Σ debits and Σ credits per currency (over every customer, or one): the difference is always 0. */
export async function trialBalance(db: Db, filter: { customerId: string | null; asOf: Date | null }): Promise<TrialBalanceView> {
  if (filter.customerId) await requireCustomer(db, filter.customerId);
  const rows = await trialBalanceTotals(db, filter);
  const currencies = [...new Set(rows.map((r) => r.currency))];
  return {
    customer_id: filter.customerId,
    as_of: filter.asOf?.toISOString() ?? null,
    currencies: currencies.map((currency) => {
      const accounts = ACCOUNT_KINDS.flatMap((kind) => rows.filter((r) => r.currency === currency && r.kind === kind));
      const debits = accounts.reduce((s, r) => s + r.debits, 0n);
      const credits = accounts.reduce((s, r) => s + r.credits, 0n);
      return {
        currency,
        accounts: accounts.map((r) => ({ kind: r.kind, debits_nanos: r.debits.toString(), credits_nanos: r.credits.toString() })),
        total_debits_nanos: debits.toString(),
        total_credits_nanos: credits.toString(),
        difference_nanos: (debits - credits).toString(),
      };
    }),
  };
}
