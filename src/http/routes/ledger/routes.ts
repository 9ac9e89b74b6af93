/**
 * The double-entry ledger (SPEC §1 Ledger) and credit wallets (SPEC §1 Credit wallets), admin only.
 * The rules live in src/core/ledger.ts, src/services/ledger/ and src/services/wallets/; the
 * descriptions below publish them.
 */
import { createRoute } from '@hono/zod-openapi';
import { UuidSchema } from '../../../schemas/common.js';
import { CustomerLedgerSchema, LedgerEntrySchema, TrialBalanceSchema, WalletSchema, WalletTopUpSchema, WalletTransactionSchema, WalletWithGrantSchema } from '../../../schemas/ledger.js';
import { jsonResponse, mutationRequest, pageResponse } from '../../helpers.js';
import { IdempotencyHeaderSchema, IdParamSchema, PaginationQuerySchema } from '../../schemas.js';
import { AsOfQuerySchema, EntriesQuerySchema, TrialBalanceQuerySchema, WalletParamsSchema, TopUpSchema, GrantSchema, AutoRechargeSchema } from './schemas.js';

const ledgerTags = ['Ledger'];
const walletTags = ['Wallets'];

export const accountsRoute = createRoute({
  method: 'get',
  path: '/admin/v1/customers/{id}/ledger/accounts',
  operationId: 'listLedgerAccounts',
  tags: ledgerTags,
  summary: "A customer's ledger accounts and balances",
  description: `Every account of the customer (per currency: accounts_receivable, cash, revenue, deferred_revenue, tax_payable, wallet,
promotional_credit, promotional_expense; an account exists once something was posted to it) with its debit and credit totals and its
balance on its normal side. With as_of, only entries effective at or before that instant count.`,
  request: { params: IdParamSchema, query: AsOfQuerySchema },
  responses: { 200: jsonResponse("The customer's accounts", CustomerLedgerSchema) },
});

export const entriesRoute = createRoute({
  method: 'get',
  path: '/admin/v1/customers/{id}/ledger/entries',
  operationId: 'listLedgerEntries',
  tags: ledgerTags,
  summary: "A customer's journal entries",
  description: `Entries, newest first (a JSON array, pagination in headers), each with its journal (kind, business key, source
document, the journal it reverses). Filters: account kind, currency, effective date range [from, to), source document, the journal's created_gte / created_lt.`,
  request: { params: IdParamSchema, query: EntriesQuerySchema },
  responses: { 200: pageResponse('One page of ledger entries', LedgerEntrySchema, 'LedgerEntryList') },
});

export const trialBalanceRoute = createRoute({
  method: 'get',
  path: '/admin/v1/ledger/trial-balance',
  operationId: 'getTrialBalance',
  tags: ledgerTags,
  summary: 'Trial balance',
  description: 'Σ debits and Σ credits per currency and account kind, over every customer or one, as of an instant; difference_nanos is always "0" (the database refuses a journal that does not balance).',
  request: { query: TrialBalanceQuerySchema },
  responses: { 200: jsonResponse('The trial balance', TrialBalanceSchema) },
});

export const listWalletsRoute = createRoute({
  method: 'get',
  path: '/admin/v1/customers/{id}/wallets',
  operationId: 'listWallets',
  tags: walletTags,
  summary: "A customer's credit wallets",
  description: 'One wallet per currency, newest first (a JSON array, pagination in headers).',
  request: { params: IdParamSchema, query: PaginationQuerySchema },
  responses: { 200: pageResponse('The wallets', WalletSchema, 'WalletList') },
});

export const getWalletRoute = createRoute({
  method: 'get',
  path: '/admin/v1/customers/{id}/wallets/{currency}',
  operationId: 'getWallet',
  tags: walletTags,
  summary: 'A credit wallet',
  description: 'Balance (paid and promotional), its grants and the auto-recharge settings. 404 `wallet_not_found` before anything created it.',
  request: { params: WalletParamsSchema },
  responses: { 200: jsonResponse('The wallet', WalletSchema) },
});

export const transactionsRoute = createRoute({
  method: 'get',
  path: '/admin/v1/customers/{id}/wallets/{currency}/transactions',
  operationId: 'listWalletTransactions',
  tags: walletTags,
  summary: "A wallet's transaction history",
  description: 'Every balance move (top_up, promotional_grant, drawdown, expiry, void_return), newest first, with the balance after it, as a JSON array (pagination in headers).',
  request: { params: WalletParamsSchema, query: PaginationQuerySchema },
  responses: { 200: pageResponse('One page of wallet transactions', WalletTransactionSchema, 'WalletTransactionList') },
});

export const listTopUpsRoute = createRoute({
  method: 'get',
  path: '/admin/v1/customers/{id}/wallets/{currency}/top-ups',
  operationId: 'listWalletTopUps',
  tags: walletTags,
  summary: "A wallet's paid top-ups (requested and auto-recharges)",
  description: 'Newest first, as a JSON array (pagination in the X-Has-More, X-Next-Cursor and Link headers): top-ups requested through the API and those auto-recharge made, each with its payment status.',
  request: { params: WalletParamsSchema, query: PaginationQuerySchema },
  responses: { 200: pageResponse('The top-ups', WalletTopUpSchema, 'WalletTopUpList') },
});

export const topUpRoute = createRoute({
  method: 'post',
  path: '/admin/v1/customers/{id}/wallets/{currency}/top-ups',
  operationId: 'topUpWallet',
  tags: walletTags,
  summary: 'Top up a wallet, paid through the payment processor',
  description: `Charges the given (or default) payment method for amount_nanos (a whole number of minor units, else 422
\`top_up_not_whole_minor_units\`; more than 2^53 - 1 minor units: 422 \`top_up_too_large\`; a balance it would take past 38 digits: 422
\`wallet_balance_out_of_range\`; no method on file: 422 \`no_payment_method\`) and answers the top-up: Succeeded credits the wallet at
once, Failed when the processor refused, Pending until the processor's notification decides (a payment_intent.succeeded notification
about it credits it then, also after a failure); 503 \`payment_processor_unavailable\` when the processor cannot be reached. Creates the wallet
on first use.`,
  request: { params: WalletParamsSchema, ...mutationRequest(TopUpSchema) },
  responses: { 201: jsonResponse('The top-up', WalletTopUpSchema) },
});

export const retryTopUpRoute = createRoute({
  method: 'post',
  path: '/admin/v1/customers/{id}/wallets/{currency}/top-ups/{top_up_id}/retry',
  operationId: 'retryWalletTopUp',
  tags: walletTags,
  summary: "Retry the auto-recharge step that left the top-up in billing_error",
  description: `An auto-recharge that could not be charged is recorded Failed by its workflow; when that recording itself fails in a way
no automatic retry fixes (invalid stored data, a numeric overflow, or a transient failure that outlasted its retry schedule), the top-up
stays Pending with billing_error set and its workflow holds. Fix the data, then retry: billing_error is cleared (audited as
wallet_top_up.billing_retried) and the answer comes once the step ran again, with billing_error set anew when it failed again.
409 \`no_billing_error\` when there is nothing to retry; 404 \`wallet_top_up_not_found\` when the wallet has no such top-up.`,
  request: { params: WalletParamsSchema.extend({ top_up_id: UuidSchema }), headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The top-up after the retried step', WalletTopUpSchema) },
});

export const grantRoute = createRoute({
  method: 'post',
  path: '/admin/v1/customers/{id}/wallets/{currency}/grants',
  operationId: 'grantWalletCredit',
  tags: walletTags,
  summary: 'Grant promotional credit',
  description: `Adds promotional credit (optionally expiring at expires_at, which must be after the customer's current time). Promotional
credit is drawn before paid credit, soonest expiry first; what is left at expiry is written off at the next operation on the wallet or
period close. Creates the wallet on first use. A grant that would take the balance past what 38 digits of raw units hold is 422
\`wallet_balance_out_of_range\`. Answers the wallet as it stands after the grant (every Wallet field) with the grant it created in
\`grant\` (id, kind promotional, amount_nanos, remaining_nanos, expires_at, granted_at).`,
  request: { params: WalletParamsSchema, ...mutationRequest(GrantSchema) },
  responses: { 201: jsonResponse('The wallet after the grant, with the grant created', WalletWithGrantSchema) },
});

export const autoRechargeRoute = createRoute({
  method: 'put',
  path: '/admin/v1/customers/{id}/wallets/{currency}/auto-recharge',
  operationId: 'setWalletAutoRecharge',
  tags: walletTags,
  summary: 'Configure auto-recharge',
  description: `When a drawdown takes the balance from at or above threshold_nanos to below it, one top-up (rounded up to whole minor units)
brings it back to target_nanos, charged to the default payment method by the workflow \`wallet-recharge:<top-up id>\`: once per crossing,
however many drawdowns run at once.`,
  request: { params: WalletParamsSchema, ...mutationRequest(AutoRechargeSchema) },
  responses: { 200: jsonResponse('The wallet', WalletSchema) },
});

export const disableAutoRechargeRoute = createRoute({
  method: 'delete',
  path: '/admin/v1/customers/{id}/wallets/{currency}/auto-recharge',
  operationId: 'disableWalletAutoRecharge',
  tags: walletTags,
  summary: 'Turn auto-recharge off',
  description: 'Auto-recharge stops; the balance and the wallet\'s history are kept. Configure it again with PUT.',
  request: { params: WalletParamsSchema, headers: IdempotencyHeaderSchema },
  responses: { 200: jsonResponse('The wallet', WalletSchema) },
});
