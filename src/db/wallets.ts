/**
 * Credit wallet repository: one wallet per customer and currency (its row lock serialises every
 * balance move), its grants, paid top-ups and append-only transaction history.
 */
import { Prisma, type Wallet, type WalletGrant, type WalletTopUp, type WalletTransaction } from '../generated/prisma/client.js';
import { newId } from '../ids.js';
import type { Db, DbClient } from './client.js';
import { fromDecimal, toDecimal } from './money.js';
import { NEWEST_FIRST, pageWhere, type PageQuery } from './pages.js';
import { runStatement, statement } from './sql.js';

export type WalletRow = Wallet;
export type WalletGrantRow = WalletGrant;
export type WalletTopUpRow = WalletTopUp;
export type WalletTransactionRow = WalletTransaction;

export function findWallet(tx: DbClient | Db, customerId: string, currency: string): Promise<WalletRow | null> {
  return tx.wallet.findUnique({ where: { customerId_currency: { customerId, currency } } });
}

export function findWalletById(tx: DbClient | Db, id: string): Promise<WalletRow | null> {
  return tx.wallet.findUnique({ where: { id } });
}

/** The customer's wallets: all in creation order, or a page (newest first) of `limit + 1` when `page` is given. */
export function walletsOfCustomer(
  tx: DbClient | Db,
  customerId: string,
  page?: PageQuery,
): Promise<(WalletRow & { grants: WalletGrantRow[] })[]> {
  return tx.wallet.findMany({
    where: { customerId, ...(page ? pageWhere(page) : {}) },
    orderBy: page ? NEWEST_FIRST : { id: 'asc' },
    ...(page ? { take: page.limit + 1 } : {}),
    include: { grants: { orderBy: { id: 'asc' } } },
  });
}

/**
 * Locks the customer's wallet in the currency for the rest of the transaction, creating it when
 * missing at `at` (the customer's now: its test clock's time when on one).
 */
export async function lockOrCreateWallet(tx: DbClient, customerId: string, currency: string, at: Date): Promise<WalletRow> {
  await tx.$executeRaw`
    INSERT INTO wallets (id, customer_id, currency, created_at, updated_at) VALUES (${newId()}::uuid, ${customerId}::uuid, ${currency}, ${at}, ${at})
    ON CONFLICT (customer_id, currency) DO NOTHING`;
  return lockExistingWallet(tx, customerId, currency) as Promise<WalletRow>;
}

const WALLET_CURRENCIES = statement('SELECT currency FROM wallets WHERE customer_id = $1::uuid ORDER BY id');

/** The currencies a customer has wallets in. */
export async function walletCurrenciesOf(tx: DbClient, customerId: string): Promise<string[]> {
  return (await runStatement<{ currency: string }>(tx, WALLET_CURRENCIES, [customerId])).map((wallet) => wallet.currency);
}

/** Locks the wallet when it exists (a customer without one has nothing to draw down). */
export async function lockExistingWallet(tx: DbClient, customerId: string, currency: string): Promise<WalletRow | null> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text FROM wallets WHERE customer_id = ${customerId}::uuid AND currency = ${currency} FOR UPDATE`;
  if (rows.length === 0) return null;
  return tx.wallet.findUniqueOrThrow({ where: { id: rows[0]!.id } });
}

export function setWalletBalance(tx: DbClient, walletId: string, balance: bigint): Promise<WalletRow> {
  return tx.wallet.update({ where: { id: walletId }, data: { balanceNanos: toDecimal(balance) } });
}

export function setAutoRecharge(tx: DbClient, walletId: string, settings: { threshold: bigint; target: bigint } | null): Promise<WalletRow> {
  return tx.wallet.update({
    where: { id: walletId },
    data: settings
      ? { autoRechargeThresholdNanos: toDecimal(settings.threshold), autoRechargeTargetNanos: toDecimal(settings.target) }
      : { autoRechargeThresholdNanos: null, autoRechargeTargetNanos: null },
  });
}

export function grantsOf(tx: DbClient | Db, walletId: string): Promise<WalletGrantRow[]> {
  return tx.walletGrant.findMany({ where: { walletId }, orderBy: { id: 'asc' } });
}

export async function insertGrant(tx: DbClient, grant: { walletId: string; kind: 'paid' | 'promotional'; amount: bigint; expiresAt: Date | null; grantedAt: Date }): Promise<WalletGrantRow> {
  return tx.walletGrant.create({
    data: {
      id: newId(),
      walletId: grant.walletId,
      kind: grant.kind,
      amountNanos: toDecimal(grant.amount),
      remainingNanos: toDecimal(grant.amount),
      expiresAt: grant.expiresAt,
      grantedAt: grant.grantedAt,
      createdAt: grant.grantedAt,
    },
  });
}

export function setGrantRemaining(tx: DbClient, grantId: string, remaining: bigint): Promise<WalletGrantRow> {
  return tx.walletGrant.update({ where: { id: grantId }, data: { remainingNanos: toDecimal(remaining) } });
}

export interface NewWalletTransaction {
  walletId: string;
  kind: 'top_up' | 'promotional_grant' | 'drawdown' | 'expiry' | 'void_return';
  amount: bigint;
  balanceAfter: bigint;
  invoiceId?: string | null;
  grantId?: string | null;
  topUpId?: string | null;
  journalId?: string | null;
  description: string;
  occurredAt: Date;
}

export function insertWalletTransaction(tx: DbClient, t: NewWalletTransaction): Promise<WalletTransactionRow> {
  return tx.walletTransaction.create({
    data: {
      id: newId(),
      walletId: t.walletId,
      kind: t.kind,
      amountNanos: toDecimal(t.amount),
      balanceAfterNanos: toDecimal(t.balanceAfter),
      invoiceId: t.invoiceId ?? null,
      grantId: t.grantId ?? null,
      topUpId: t.topUpId ?? null,
      journalId: t.journalId ?? null,
      description: t.description,
      occurredAt: t.occurredAt,
      createdAt: t.occurredAt,
    },
  });
}

/** The drawdowns an invoice made, grant by grant (what a void gives back). */
export async function drawdownsOfInvoice(tx: DbClient, walletId: string, invoiceId: string): Promise<{ grantId: string; amount: bigint }[]> {
  const rows = await tx.walletTransaction.findMany({ where: { walletId, invoiceId, kind: 'drawdown' }, orderBy: { id: 'asc' } });
  return rows.filter((r) => r.grantId !== null).map((r) => ({ grantId: r.grantId!, amount: -fromDecimal(r.amountNanos) }));
}

export function listWalletTransactions(tx: DbClient | Db, walletId: string, page: PageQuery): Promise<WalletTransactionRow[]> {
  return tx.walletTransaction.findMany({
    where: { walletId, ...pageWhere(page) },
    orderBy: NEWEST_FIRST,
    take: page.limit + 1,
  });
}

export interface NewTopUp {
  walletId: string;
  customerId: string;
  currency: string;
  source: 'api' | 'auto_recharge';
  amount: bigint;
  amountMinor: bigint;
  paymentMethodId: string | null;
  requestedAt: Date;
}

/**
 * Inserts a Pending top-up. An auto-recharge while another one of the wallet is Pending is refused
 * by a unique index: null then, nothing written.
 */
export async function insertTopUp(tx: DbClient, topUp: NewTopUp): Promise<WalletTopUpRow | null> {
  const id = newId();
  const rows = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO wallet_top_ups (id, wallet_id, customer_id, currency, source, status, amount_nanos, amount_minor, payment_method_id, requested_at, created_at, updated_at)
    VALUES (${id}::uuid, ${topUp.walletId}::uuid, ${topUp.customerId}::uuid, ${topUp.currency}, ${topUp.source}, 'Pending',
            ${toDecimal(topUp.amount)}, ${topUp.amountMinor}, ${topUp.paymentMethodId}::uuid, ${topUp.requestedAt}, ${topUp.requestedAt}, ${topUp.requestedAt})
    ON CONFLICT DO NOTHING
    RETURNING id::text`;
  if (rows.length === 0) return null;
  return tx.walletTopUp.findUniqueOrThrow({ where: { id } });
}

export function findTopUp(tx: DbClient | Db, id: string): Promise<WalletTopUpRow | null> {
  return tx.walletTopUp.findUnique({ where: { id } });
}

export async function lockTopUp(tx: DbClient, id: string): Promise<WalletTopUpRow | null> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id::text FROM wallet_top_ups WHERE id = ${id}::uuid FOR UPDATE`;
  return rows.length === 0 ? null : tx.walletTopUp.findUniqueOrThrow({ where: { id } });
}

/** Sets (or clears, with null) the top-up's billing_error; the row before, null when there is none. */
export async function setTopUpBillingError(tx: DbClient, id: string, error: Prisma.InputJsonValue | null): Promise<WalletTopUpRow | null> {
  const before = await lockTopUp(tx, id);
  if (!before) return null;
  await tx.walletTopUp.update({ where: { id }, data: { billingError: error === null ? Prisma.DbNull : error } });
  return before;
}

export function findTopUpByIntent(tx: DbClient | Db, intentId: string): Promise<WalletTopUpRow | null> {
  return tx.walletTopUp.findUnique({ where: { processorPaymentIntentId: intentId } });
}

export function updateTopUp(
  tx: DbClient | Db,
  id: string,
  changes: { status?: 'Pending' | 'Succeeded' | 'Failed'; processorPaymentIntentId?: string | null; failureMessage?: string | null; grantId?: string },
): Promise<WalletTopUpRow> {
  return tx.walletTopUp.update({ where: { id }, data: changes });
}

/** Pending auto-recharges of a customer's wallets (their workflows are started after the commit). */
export function pendingRechargesOfCustomer(tx: DbClient | Db, customerId: string): Promise<WalletTopUpRow[]> {
  return tx.walletTopUp.findMany({ where: { customerId, source: 'auto_recharge', status: 'Pending' }, orderBy: { id: 'asc' } });
}

export function topUpsOfWallet(tx: DbClient | Db, walletId: string, page: PageQuery): Promise<WalletTopUpRow[]> {
  return tx.walletTopUp.findMany({
    where: { walletId, ...pageWhere(page) },
    orderBy: NEWEST_FIRST,
    take: page.limit + 1,
  });
}
