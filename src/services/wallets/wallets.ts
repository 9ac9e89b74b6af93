/**
 * Credit wallets (SPEC §1): one per customer and currency. Credit comes in as grants: paid top-ups
 * (charged through the payment processor, on request or by auto-recharge) and promotional credit
 * (granted by an operator, optionally expiring). It goes out when an invoice is finalized: the
 * drawdown (drawDownWalletForInvoice) pays what it can of the invoice before the card is charged.
 *
 * Every balance move happens under the wallet's row lock, in one transaction with its grant
 * changes, its wallet transaction (the history), its ledger journal and its audit entry. Times are
 * the customer's (its test clock's for sandbox customers).
 *
 * Auto-recharge: a drawdown that takes the balance from at or above the threshold to below it
 * records one Pending top-up bringing it back to the target (a unique index allows one Pending
 * auto-recharge per wallet); after the commit its workflow `wallet-recharge:<top-up id>` charges it.
 * Concurrent drawdowns are serialised by the wallet lock, so only one of them crosses.
 */
import type { PageQuery } from '../../db/pages.js';
import {
  minorUnitsToRaw,
  MONEY_LIMIT,
  planDrawdown,
  promotionalExpiryJournal,
  promotionalGrantJournal,
  rechargeOnCrossing,
  toMinorUnits,
  walletDrawdownJournal,
  walletTopUpJournal,
} from '../../core/index.js';
import type { Db, DbClient } from '../../db/client.js';
import { toDisplay } from '../../core/index.js';
import { customerNow } from '../../db/contracts.js';
import { findCustomer } from '../../db/customers.js';
import { amountDueOf, updateInvoice, type InvoiceRow } from '../../db/invoices.js';
import { fromDecimal, fromDecimalOrNull } from '../../db/money.js';
import { findDefaultPaymentMethod, findPaymentMethod, findProcessorCustomerId } from '../../db/payments.js';
import {
  drawdownsOfInvoice,
  findTopUp,
  findTopUpByIntent,
  findWallet,
  findWalletById,
  grantsOf,
  insertGrant,
  insertTopUp,
  insertWalletTransaction,
  listWalletTransactions,
  lockExistingWallet,
  lockOrCreateWallet,
  lockTopUp,
  pendingRechargesOfCustomer,
  setAutoRecharge,
  setTopUpBillingError,
  setGrantRemaining,
  setWalletBalance,
  topUpsOfWallet,
  updateTopUp,
  walletCurrenciesOf,
  walletsOfCustomer,
  type WalletGrantRow,
  type WalletRow,
  type WalletTopUpRow,
  type WalletTransactionRow,
} from '../../db/wallets.js';
import { DomainError, notFound, validation } from '../../errors.js';
import { ProcessorRejectedError, ProcessorUnavailableError } from '../../processor/index.js';
import type { WalletGrantView, WalletTopUpView, WalletTransactionView, WalletView, WalletWithGrantView } from '../../schemas/ledger.js';
import type { SubscriptionCommand } from '../../temporal/messages.js';
import { retryWalletRechargeStep, signalTopUpSettled } from '../../temporal/workflows/wallet-recharge.js';
import { followUp, type FollowUpDeps } from '../follow-ups.js';
import { billingErrorView, retryHeldStep } from '../failures/billing-errors.js';
import { engineActor, PROCESSOR_ACTOR, recordAudit, type Actor } from '../audit.js';
import { toPage } from '../pagination.js';
import { post } from '../ledger/postings.js';
import type { ServiceDeps } from '../deps.js';

export type WalletDeps = Pick<ServiceDeps, 'db' | 'processor' | 'logger' | 'clock'>;

const iso = (d: Date | null): string | null => d?.toISOString() ?? null;

// ── Views ────────────────────────────────────────────────────────────────────────────────────

function toGrantView(g: WalletGrantRow): WalletGrantView {
  return {
    id: g.id,
    kind: g.kind === 'promotional' ? 'promotional' : 'paid',
    amount_nanos: g.amountNanos.toFixed(0),
    remaining_nanos: g.remainingNanos.toFixed(0),
    expires_at: iso(g.expiresAt),
    granted_at: g.grantedAt.toISOString(),
  };
}

export function toWalletView(wallet: WalletRow, grants: WalletGrantRow[]): WalletView {
  const live = grants.filter((g) => fromDecimal(g.remainingNanos) > 0n);
  const sum = (kind: string) => live.filter((g) => g.kind === kind).reduce((s, g) => s + fromDecimal(g.remainingNanos), 0n);
  const threshold = fromDecimalOrNull(wallet.autoRechargeThresholdNanos);
  const target = fromDecimalOrNull(wallet.autoRechargeTargetNanos);
  return {
    id: wallet.id,
    customer_id: wallet.customerId,
    currency: wallet.currency,
    balance_nanos: fromDecimal(wallet.balanceNanos).toString(),
    paid_balance_nanos: sum('paid').toString(),
    promotional_balance_nanos: sum('promotional').toString(),
    balance: toDisplay(fromDecimal(wallet.balanceNanos), wallet.currency).text,
    paid_balance: toDisplay(sum('paid'), wallet.currency).text,
    promotional_balance: toDisplay(sum('promotional'), wallet.currency).text,
    auto_recharge: threshold !== null && target !== null ? { threshold_nanos: threshold.toString(), target_nanos: target.toString() } : null,
    grants: grants.map(toGrantView),
    created_at: wallet.createdAt.toISOString(),
  };
}

export const toWalletTransactionView = (t: WalletTransactionRow): WalletTransactionView => ({
  id: t.id,
  wallet_id: t.walletId,
  kind: t.kind as WalletTransactionView['kind'],
  amount_nanos: t.amountNanos.toFixed(0),
  balance_after_nanos: t.balanceAfterNanos.toFixed(0),
  invoice_id: t.invoiceId,
  grant_id: t.grantId,
  top_up_id: t.topUpId,
  journal_id: t.journalId,
  description: t.description,
  occurred_at: t.occurredAt.toISOString(),
});

export const toTopUpView = (t: WalletTopUpRow): WalletTopUpView => ({
  id: t.id,
  wallet_id: t.walletId,
  customer_id: t.customerId,
  currency: t.currency,
  source: t.source === 'auto_recharge' ? 'auto_recharge' : 'api',
  status: t.status as WalletTopUpView['status'],
  amount_nanos: t.amountNanos.toFixed(0),
  processor_payment_intent_id: t.processorPaymentIntentId,
  failure_message: t.failureMessage,
  billing_error: billingErrorView(t.billingError),
  requested_at: t.requestedAt.toISOString(),
});

async function requireCustomer(db: DbClient, customerId: string): Promise<void> {
  if (!(await findCustomer(db, customerId))) throw notFound('customer', customerId);
}

export async function listWallets(db: Db, customerId: string, page: PageQuery) {
  await requireCustomer(db, customerId);
  return toPage(await walletsOfCustomer(db, customerId, page), page.limit, (w) => toWalletView(w, w.grants));
}

async function walletOrNotFound(db: Db, customerId: string, currency: string): Promise<WalletRow> {
  await requireCustomer(db, customerId);
  const wallet = await findWallet(db, customerId, currency);
  if (!wallet) throw notFound('wallet', `${customerId}/${currency}`);
  return wallet;
}

export async function getWallet(db: Db, customerId: string, currency: string): Promise<WalletView> {
  const wallet = await walletOrNotFound(db, customerId, currency);
  return toWalletView(wallet, await grantsOf(db, wallet.id));
}

export async function listTransactions(db: Db, customerId: string, currency: string, page: PageQuery) {
  const wallet = await walletOrNotFound(db, customerId, currency);
  return toPage(await listWalletTransactions(db, wallet.id, page), page.limit, toWalletTransactionView);
}

export async function listTopUps(db: Db, customerId: string, currency: string, page: PageQuery) {
  const wallet = await walletOrNotFound(db, customerId, currency);
  return toPage(await topUpsOfWallet(db, wallet.id, page), page.limit, toTopUpView);
}

// ── Balance moves (inside the caller's transaction, wallet locked) ──────────────────────────

/** Writes off promotional credit that expired by `at`, each grant dated at its expiry. Returns the balance. */
async function expireGrants(tx: DbClient, wallet: WalletRow, at: Date): Promise<bigint> {
  let balance = fromDecimal(wallet.balanceNanos);
  for (const grant of await grantsOf(tx, wallet.id)) {
    const remaining = fromDecimal(grant.remainingNanos);
    if (grant.kind !== 'promotional' || remaining === 0n || !grant.expiresAt || grant.expiresAt.getTime() > at.getTime()) continue;
    const journalId = await post(tx, promotionalExpiryJournal(remaining), {
      customerId: wallet.customerId,
      currency: wallet.currency,
      sourceType: 'wallet_grant',
      sourceId: grant.id,
      invoiceId: null,
      description: `promotional credit expired`,
      at: grant.expiresAt,
    });
    await setGrantRemaining(tx, grant.id, 0n);
    balance -= remaining;
    await insertWalletTransaction(tx, {
      walletId: wallet.id,
      kind: 'expiry',
      amount: -remaining,
      balanceAfter: balance,
      grantId: grant.id,
      journalId,
      description: 'promotional credit expired',
      occurredAt: grant.expiresAt,
    });
  }
  await setWalletBalance(tx, wallet.id, balance);
  return balance;
}

/** Writes off the promotional credit of the customer's wallets that expired by `at`. */
export async function expireWalletCredit(tx: DbClient, customerId: string, at: Date): Promise<void> {
  for (const currency of await walletCurrenciesOf(tx, customerId)) {
    const wallet = await lockExistingWallet(tx, customerId, currency);
    if (wallet) await expireGrants(tx, wallet, at);
  }
}

/**
 * The drawdown at finalization: applies the customer's wallet in the invoice's currency to what the
 * invoice leaves to pay (its amount due after the customer balance was applied), before any charge. Records it on the invoice
 * (`wallet_applied_nanos`), in the wallet's history and in the ledger (wallet, promotional credit →
 * accounts receivable); a balance that crosses the auto-recharge threshold records one Pending
 * auto-recharge. Returns the amount applied (0 without a wallet or credit).
 */
export async function drawDownWalletForInvoice(tx: DbClient, invoice: InvoiceRow, at: Date): Promise<bigint> {
  const wanted = amountDueOf(invoice);
  if (wanted <= 0n) return 0n;
  const wallet = await lockExistingWallet(tx, invoice.customerId, invoice.currency);
  if (!wallet) return 0n;
  const before = await expireGrants(tx, wallet, at);
  if (before === 0n) return 0n;
  const grants = await grantsOf(tx, wallet.id);
  const takes = planDrawdown(
    grants.map((g) => ({
      id: g.id,
      kind: g.kind === 'promotional' ? 'promotional' : 'paid',
      remaining: fromDecimal(g.remainingNanos),
      expiresAt: g.expiresAt?.getTime() ?? null,
      grantedAt: g.grantedAt.getTime(),
    })),
    wanted,
    at.getTime(),
  );
  const paid = takes.filter((t) => t.kind === 'paid').reduce((s, t) => s + t.amount, 0n);
  const promotional = takes.filter((t) => t.kind === 'promotional').reduce((s, t) => s + t.amount, 0n);
  const applied = paid + promotional;
  if (applied === 0n) return 0n;
  const journalId = await post(tx, walletDrawdownJournal({ paid, promotional }), {
    customerId: invoice.customerId,
    currency: invoice.currency,
    sourceType: 'invoice',
    sourceId: invoice.id,
    invoiceId: invoice.id,
    description: `wallet applied to invoice ${invoice.invoiceNumber ?? invoice.id}`,
    at,
  });
  let balance = before;
  for (const take of takes) {
    const grant = grants.find((g) => g.id === take.grantId)!;
    await setGrantRemaining(tx, grant.id, fromDecimal(grant.remainingNanos) - take.amount);
    balance -= take.amount;
    await insertWalletTransaction(tx, {
      walletId: wallet.id,
      kind: 'drawdown',
      amount: -take.amount,
      balanceAfter: balance,
      invoiceId: invoice.id,
      grantId: grant.id,
      journalId,
      description: `applied to invoice ${invoice.invoiceNumber ?? invoice.id}`,
      occurredAt: at,
    });
  }
  await setWalletBalance(tx, wallet.id, balance);
  await updateInvoice(tx, invoice.id, { walletAppliedNanos: applied });
  await recordAudit(tx, {
    action: 'wallet.drawn_down',
    actor: engineActor(),
    entityType: 'wallet',
    entityId: wallet.id,
    customerId: invoice.customerId,
    before: { balance_nanos: before.toString() },
    after: { balance_nanos: balance.toString(), invoice_id: invoice.id, applied_nanos: applied.toString() },
  });
  await armRecharge(tx, wallet, before, balance, at);
  return applied;
}

/** Records the one auto-recharge of a threshold crossing (none while another is Pending). */
async function armRecharge(tx: DbClient, wallet: WalletRow, before: bigint, after: bigint, at: Date): Promise<void> {
  const threshold = fromDecimalOrNull(wallet.autoRechargeThresholdNanos);
  const target = fromDecimalOrNull(wallet.autoRechargeTargetNanos);
  if (threshold === null || target === null) return;
  const amount = rechargeOnCrossing({ before, after, threshold, target });
  if (amount === null) return;
  // Charged in whole minor units, rounded up so the balance reaches the target.
  let minor = toMinorUnits(amount, wallet.currency);
  if (minorUnitsToRaw(minor, wallet.currency) < amount) minor += 1n;
  const topUp = await insertTopUp(tx, {
    walletId: wallet.id,
    customerId: wallet.customerId,
    currency: wallet.currency,
    source: 'auto_recharge',
    amount: minorUnitsToRaw(minor, wallet.currency),
    amountMinor: minor,
    paymentMethodId: null,
    requestedAt: at,
  });
  if (!topUp) return;
  await recordAudit(tx, {
    action: 'wallet.auto_recharge_requested',
    actor: engineActor(),
    entityType: 'wallet_top_up',
    entityId: topUp.id,
    customerId: wallet.customerId,
    after: { wallet_id: wallet.id, amount_nanos: topUp.amountNanos.toFixed(0), balance_nanos: after.toString(), threshold_nanos: threshold.toString() },
  });
}

/**
 * Void: the wallet credit an invoice drew down goes back to the grants it came from (its ledger
 * journal is reversed with the invoice's other journals by the void posting).
 */
export async function returnWalletDrawdown(tx: DbClient, invoice: InvoiceRow, at: Date): Promise<void> {
  if (fromDecimal(invoice.walletAppliedNanos) === 0n) return;
  const wallet = await lockExistingWallet(tx, invoice.customerId, invoice.currency);
  if (!wallet) return;
  let balance = fromDecimal(wallet.balanceNanos);
  const grants = await grantsOf(tx, wallet.id);
  for (const { grantId, amount } of await drawdownsOfInvoice(tx, wallet.id, invoice.id)) {
    const grant = grants.find((g) => g.id === grantId)!;
    await setGrantRemaining(tx, grantId, fromDecimal(grant.remainingNanos) + amount);
    balance += amount;
    await insertWalletTransaction(tx, {
      walletId: wallet.id,
      kind: 'void_return',
      amount,
      balanceAfter: balance,
      invoiceId: invoice.id,
      grantId,
      description: `invoice ${invoice.invoiceNumber ?? invoice.id} voided`,
      occurredAt: at,
    });
  }
  await setWalletBalance(tx, wallet.id, balance);
}

// ── Operator operations ──────────────────────────────────────────────────────────────────────

export interface GrantInput {
  currency: string;
  amountNanos: bigint;
  expiresAt: Date | null;
  description?: string | undefined;
}

/** Promotional credit, optionally expiring. */
/**
 * Refuses (422 wallet_balance_out_of_range) credit that would take the wallet's balance past what a
 * DECIMAL(38,0) column holds, instead of failing in the database.
 */
function assertBalanceFits(balance: bigint, amount: bigint): void {
  if (balance + amount >= MONEY_LIMIT) {
    throw new DomainError('unprocessable', 'wallet_balance_out_of_range', 'the wallet balance would not fit DECIMAL(38,0) (at most 38 digits of raw units)', {
      field: 'amount_nanos',
      balance_nanos: balance.toString(),
    });
  }
}

/** The largest top-up charged through the processor, in minor units: amounts travel to it as JSON numbers. */
const MAX_TOP_UP_MINOR = BigInt(Number.MAX_SAFE_INTEGER);

/** Grants promotional credit; answers the wallet after it with the grant it created (`grant`). */
export async function grantPromotionalCredit(deps: WalletDeps, customerId: string, input: GrantInput, context: { actor: Actor; requestId?: string }): Promise<WalletWithGrantView> {
  if (input.amountNanos <= 0n) throw validation('amount_nanos', 'must be greater than zero');
  return deps.db.$transaction(async (tx) => {
    await requireCustomer(tx, customerId);
    const at = await customerNow(tx, customerId, deps.clock());
    if (input.expiresAt && input.expiresAt.getTime() <= at.getTime()) throw validation('expires_at', 'must be after the customer\'s current time');
    const wallet = await lockOrCreateWallet(tx, customerId, input.currency, at);
    const before = await expireGrants(tx, wallet, at);
    assertBalanceFits(before, input.amountNanos);
    const grant = await insertGrant(tx, { walletId: wallet.id, kind: 'promotional', amount: input.amountNanos, expiresAt: input.expiresAt, grantedAt: at });
    const journalId = await post(tx, promotionalGrantJournal(input.amountNanos), {
      customerId,
      currency: input.currency,
      sourceType: 'wallet_grant',
      sourceId: grant.id,
      invoiceId: null,
      description: input.description ?? 'promotional credit granted',
      at,
    });
    const balance = before + input.amountNanos;
    await setWalletBalance(tx, wallet.id, balance);
    await insertWalletTransaction(tx, {
      walletId: wallet.id,
      kind: 'promotional_grant',
      amount: input.amountNanos,
      balanceAfter: balance,
      grantId: grant.id,
      journalId,
      description: input.description ?? 'promotional credit granted',
      occurredAt: at,
    });
    await recordAudit(tx, {
      action: 'wallet.promotional_granted',
      actor: context.actor,
      entityType: 'wallet',
      entityId: wallet.id,
      customerId,
      before: { balance_nanos: before.toString() },
      after: { balance_nanos: balance.toString(), grant_id: grant.id, amount_nanos: input.amountNanos.toString(), expires_at: iso(input.expiresAt) },
      ...(context.requestId ? { requestId: context.requestId } : {}),
    });
    const updated = (await findWalletById(tx, wallet.id))!;
    return { ...toWalletView(updated, await grantsOf(tx, wallet.id)), grant: toGrantView(grant) };
  });
}

export async function configureAutoRecharge(
  deps: WalletDeps,
  customerId: string,
  currency: string,
  settings: { threshold: bigint; target: bigint } | null,
  context: { actor: Actor; requestId?: string },
): Promise<WalletView> {
  if (settings && (settings.threshold < 0n || settings.target <= settings.threshold)) {
    throw validation('target_nanos', 'must be greater than threshold_nanos, which must not be negative');
  }
  return deps.db.$transaction(async (tx) => {
    await requireCustomer(tx, customerId);
    const wallet = await lockOrCreateWallet(tx, customerId, currency, await customerNow(tx, customerId, deps.clock()));
    const updated = await setAutoRecharge(tx, wallet.id, settings);
    await recordAudit(tx, {
      action: 'wallet.auto_recharge_configured',
      actor: context.actor,
      entityType: 'wallet',
      entityId: wallet.id,
      customerId,
      before: { threshold_nanos: wallet.autoRechargeThresholdNanos?.toFixed(0) ?? null, target_nanos: wallet.autoRechargeTargetNanos?.toFixed(0) ?? null },
      after: { threshold_nanos: settings?.threshold.toString() ?? null, target_nanos: settings?.target.toString() ?? null },
      ...(context.requestId ? { requestId: context.requestId } : {}),
    });
    return toWalletView(updated, await grantsOf(tx, wallet.id));
  });
}

// ── Paid top-ups through the processor ───────────────────────────────────────────────────────

export interface TopUpInput {
  currency: string;
  amountNanos: bigint;
  paymentMethodId?: string | undefined;
}

/** A top-up paid through the processor now (whole minor units), to the given or the default payment method. */
export async function topUpWallet(deps: WalletDeps, customerId: string, input: TopUpInput, context: { actor: Actor; requestId?: string }): Promise<WalletTopUpView> {
  const minor = toMinorUnits(input.amountNanos, input.currency);
  if (input.amountNanos <= 0n || minorUnitsToRaw(minor, input.currency) !== input.amountNanos) {
    throw new DomainError('unprocessable', 'top_up_not_whole_minor_units', `a top-up is a positive whole number of ${input.currency} minor units`, { field: 'amount_nanos' });
  }
  if (minor > MAX_TOP_UP_MINOR) {
    throw new DomainError('unprocessable', 'top_up_too_large', `a top-up is at most ${MAX_TOP_UP_MINOR} ${input.currency} minor units`, { field: 'amount_nanos' });
  }
  const topUp = await deps.db.$transaction(async (tx) => {
    await requireCustomer(tx, customerId);
    const method = input.paymentMethodId ? await findPaymentMethod(tx, input.paymentMethodId) : await findDefaultPaymentMethod(tx, customerId);
    if (input.paymentMethodId && (!method || method.customerId !== customerId || method.detachedAt)) throw notFound('payment_method', input.paymentMethodId);
    if (!method) throw new DomainError('unprocessable', 'no_payment_method', `customer ${customerId} has no payment method on file`, { customer_id: customerId });
    const at = await customerNow(tx, customerId, deps.clock());
    const wallet = await lockOrCreateWallet(tx, customerId, input.currency, at);
    // Checked when asked for: once the processor collected it, the credit must fit.
    assertBalanceFits(fromDecimal(wallet.balanceNanos), input.amountNanos);
    const row = (await insertTopUp(tx, {
      walletId: wallet.id,
      customerId,
      currency: input.currency,
      source: 'api',
      amount: input.amountNanos,
      amountMinor: minor,
      paymentMethodId: method.id,
      requestedAt: at,
    }))!;
    await recordAudit(tx, {
      action: 'wallet.top_up_requested',
      actor: context.actor,
      entityType: 'wallet_top_up',
      entityId: row.id,
      customerId,
      after: { wallet_id: wallet.id, amount_nanos: input.amountNanos.toString(), payment_method_id: method.id },
      ...(context.requestId ? { requestId: context.requestId } : {}),
    });
    return row;
  });
  return toTopUpView(await chargeTopUp(deps, topUp.id));
}

/**
 * Charges a Pending top-up (idempotency key `wallet-top-up:<id>`, so a retry never charges twice) and
 * records the answer: succeeded credits the wallet, a refusal fails it, anything else stays Pending
 * until the processor's notification decides. A processor that cannot be reached throws
 * ProcessorUnavailableError (the recharge workflow retries; the API answers 503).
 */
export async function chargeTopUp(deps: WalletDeps, topUpId: string): Promise<WalletTopUpRow> {
  const topUp = await findTopUp(deps.db, topUpId);
  if (!topUp) throw notFound('wallet_top_up', topUpId);
  if (topUp.status !== 'Pending') return topUp;
  const method = topUp.paymentMethodId ? await findPaymentMethod(deps.db, topUp.paymentMethodId) : await findDefaultPaymentMethod(deps.db, topUp.customerId);
  const processorCustomerId = await findProcessorCustomerId(deps.db, topUp.customerId);
  if (!method || method.detachedAt || !processorCustomerId) return failTopUp(deps.db, topUpId, 'no payment method on file', null, engineActor());
  let answer;
  try {
    answer = await deps.processor.createPaymentIntent({
      amountMinor: topUp.amountMinor,
      currency: topUp.currency,
      processorCustomerId,
      processorPaymentMethodId: method.processorPaymentMethodId,
      captureMethod: 'automatic',
      metadata: { wallet_top_up_id: topUp.id, customer_id: topUp.customerId },
      idempotencyKey: `wallet-top-up:${topUp.id}`,
      description: `Wallet top-up (${topUp.source})`,
    });
  } catch (err) {
    if (err instanceof ProcessorRejectedError) return failTopUp(deps.db, topUpId, err.message, null, PROCESSOR_ACTOR);
    if (err instanceof ProcessorUnavailableError) throw new DomainError('unavailable', 'payment_processor_unavailable', err.message);
    throw err;
  }
  deps.logger.info({ topUpId, intent: answer.id, outcome: answer.outcome, source: topUp.source }, 'wallet top-up charged');
  if (answer.outcome === 'succeeded') return creditTopUp(deps, topUpId, answer.id);
  if (answer.outcome === 'failed' || answer.outcome === 'canceled') return failTopUp(deps.db, topUpId, answer.failure?.message ?? 'the payment failed', answer.id, PROCESSOR_ACTOR);
  return updateTopUp(deps.db, topUpId, { processorPaymentIntentId: answer.id });
}

/** A top-up its workflow could not charge (refused for good, or the processor stayed unreachable): Failed by the workflow, logged. */
export async function abandonTopUp(deps: WalletDeps, topUpId: string, reason: string): Promise<WalletTopUpRow> {
  if (!(await findTopUp(deps.db, topUpId))) throw notFound('wallet_top_up', topUpId);
  deps.logger.warn({ topUpId, reason }, 'wallet top-up could not be charged; recorded as Failed');
  return failTopUp(deps.db, topUpId, reason, null, engineActor());
}

/** Records a Pending top-up Failed, audited as `actor`'s: the processor's when its answer says so, else the engine's (the workflow's). */
async function failTopUp(db: Db, topUpId: string, message: string, intentId: string | null, actor: Actor): Promise<WalletTopUpRow> {
  return db.$transaction(async (tx) => {
    const topUp = (await lockTopUp(tx, topUpId))!;
    if (topUp.status !== 'Pending') return topUp;
    const failed = await updateTopUp(tx, topUpId, { status: 'Failed', failureMessage: message, ...(intentId ? { processorPaymentIntentId: intentId } : {}) });
    await clearHeldBillingError(tx, topUp, 'Failed');
    await recordAudit(tx, {
      action: 'wallet.top_up_failed',
      actor,
      entityType: 'wallet_top_up',
      entityId: topUpId,
      customerId: topUp.customerId,
      before: { status: topUp.status },
      after: { status: 'Failed', failure_message: message },
    });
    return failed;
  });
}

/**
 * A top-up whose auto-recharge workflow held a billing_error (recording it Failed had failed) that
 * is settled meanwhile (the processor's notification): nothing is left to retry, so the error is
 * cleared (`wallet_top_up.billing_cleared` audit entry); releaseHeldRecharge then ends the hold.
 */
async function clearHeldBillingError(tx: DbClient, topUp: WalletTopUpRow, status: 'Succeeded' | 'Failed'): Promise<void> {
  if (topUp.billingError === null) return;
  await setTopUpBillingError(tx, topUp.id, null);
  await recordAudit(tx, {
    action: 'wallet_top_up.billing_cleared',
    actor: PROCESSOR_ACTOR,
    entityType: 'wallet_top_up',
    entityId: topUp.id,
    customerId: topUp.customerId,
    before: { status: topUp.status, billing_error: topUp.billingError },
    after: { status, billing_error: null },
  });
}

/**
 * Tells the auto-recharge workflow of a top-up that held a billing_error that the top-up was settled
 * meanwhile: it ends with the settled status instead of waiting for an operator's retry.
 */
export async function releaseHeldRecharge(deps: Pick<ServiceDeps, 'db' | 'temporal' | 'logger'>, topUpId: string): Promise<void> {
  const topUp = await findTopUp(deps.db, topUpId);
  if (!topUp || topUp.status === 'Pending') return;
  deps.logger.info({ topUpId, status: topUp.status }, 'held wallet top-up settled by the processor; its billing_error cleared');
  await signalTopUpSettled(deps.temporal, topUpId, topUp.status as 'Succeeded' | 'Failed');
}

/**
 * The processor collected a top-up: a paid grant, the balance, the history, the ledger (cash →
 * wallet) and the audit entry, once. A top-up recorded as Failed that the processor collects later
 * (the customer fixed the card) is credited then.
 */
export async function creditTopUp(deps: WalletDeps, topUpId: string, intentId: string): Promise<WalletTopUpRow> {
  return deps.db.$transaction(async (tx) => {
    const topUp = (await lockTopUp(tx, topUpId))!;
    if (topUp.status === 'Succeeded') return topUp;
    const wallet = (await lockExistingWallet(tx, topUp.customerId, topUp.currency))!;
    const at = await customerNow(tx, topUp.customerId, deps.clock());
    const before = await expireGrants(tx, wallet, at);
    const amount = fromDecimal(topUp.amountNanos);
    const grant = await insertGrant(tx, { walletId: wallet.id, kind: 'paid', amount, expiresAt: null, grantedAt: at });
    const journalId = await post(tx, walletTopUpJournal(amount), {
      customerId: topUp.customerId,
      currency: topUp.currency,
      sourceType: 'wallet_top_up',
      sourceId: topUp.id,
      invoiceId: null,
      description: topUp.source === 'auto_recharge' ? 'wallet auto-recharge' : 'wallet top-up',
      at,
    });
    const balance = before + amount;
    await setWalletBalance(tx, wallet.id, balance);
    await insertWalletTransaction(tx, {
      walletId: wallet.id,
      kind: 'top_up',
      amount,
      balanceAfter: balance,
      grantId: grant.id,
      topUpId: topUp.id,
      journalId,
      description: topUp.source === 'auto_recharge' ? 'auto-recharge' : 'top-up',
      occurredAt: at,
    });
    const done = await updateTopUp(tx, topUpId, { status: 'Succeeded', processorPaymentIntentId: intentId, grantId: grant.id, failureMessage: null });
    await clearHeldBillingError(tx, topUp, 'Succeeded');
    await recordAudit(tx, {
      action: 'wallet.topped_up',
      actor: PROCESSOR_ACTOR,
      entityType: 'wallet_top_up',
      entityId: topUpId,
      customerId: topUp.customerId,
      before: { status: topUp.status, balance_nanos: before.toString() },
      after: { status: 'Succeeded', balance_nanos: balance.toString(), amount_nanos: amount.toString() },
    });
    return done;
  });
}

/** The top-up a processor notification is about: by its PaymentIntent, else its metadata. */
export async function topUpOfNotification(db: Db, intentId: string | null, metadataTopUpId: string | null): Promise<WalletTopUpRow | null> {
  const byIntent = intentId ? await findTopUpByIntent(db, intentId) : null;
  if (byIntent) return byIntent;
  return metadataTopUpId ? findTopUp(db, metadataTopUpId) : null;
}

/** Applies a processor notification about a top-up; returns what it did. */
export async function applyTopUpNotification(deps: WalletDeps, topUp: WalletTopUpRow, type: string, intentId: string | null, failure: string): Promise<string> {
  if (type === 'payment_intent.succeeded') {
    if (!intentId) return 'ignored_malformed';
    return `top_up_${(await creditTopUp(deps, topUp.id, intentId)).status.toLowerCase()}`;
  }
  if (type === 'payment_intent.payment_failed' || type === 'payment_intent.canceled') {
    return `top_up_${(await failTopUp(deps.db, topUp.id, failure, intentId, PROCESSOR_ACTOR)).status.toLowerCase()}`;
  }
  return 'ignored_type';
}

/**
 * An operator's retry of the auto-recharge step that left the top-up with a billing_error
 * (docs/failures.md): its workflow clears it and runs the step again; answered once it ran (with a new
 * billing_error when it failed again). 409 no_billing_error when there is nothing to retry.
 */
export async function retryTopUp(deps: Pick<ServiceDeps, 'db' | 'temporal'>, customerId: string, currency: string, topUpId: string, command: SubscriptionCommand): Promise<WalletTopUpView> {
  await requireCustomer(deps.db, customerId);
  const topUp = await findTopUp(deps.db, topUpId);
  if (!topUp || topUp.customerId !== customerId || topUp.currency !== currency) throw notFound('wallet_top_up', topUpId);
  const held = { entity: 'wallet_top_up' as const, what: `wallet top-up ${topUpId}`, billingError: topUp.billingError };
  await retryHeldStep(held, () => retryWalletRechargeStep(deps.temporal, topUpId, command));
  return toTopUpView((await findTopUp(deps.db, topUpId))!);
}

// ── Auto-recharge workflows ──────────────────────────────────────────────────────────────────

/**
 * Starts the workflow of every Pending auto-recharge of the customer's wallets (after the commit
 * that recorded them; a workflow already started for one is left alone, so calling this again,
 * e.g. from a retried activity, starts nothing twice).
 */
export async function startPendingRecharges(deps: Pick<ServiceDeps, 'db'> & FollowUpDeps, customerId: string): Promise<void> {
  const topUps = await pendingRechargesOfCustomer(deps.db, customerId);
  await followUp(deps, ...topUps.map((topUp) => ({ kind: 'start_wallet_recharge' as const, topUpId: topUp.id, customerId })));
}
