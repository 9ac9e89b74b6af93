/**
 * Customer credit balance repository: one row per customer and currency (created on first credit,
 * locked for every move) and its append-only history.
 */
import type { CustomerBalance, CustomerBalanceTransaction } from '../generated/prisma/client.js';
import { newId } from '../ids.js';
import type { Db, DbClient } from './client.js';
import { fromDecimal, toDecimal } from './money.js';

export type CustomerBalanceRow = CustomerBalance;
export type CustomerBalanceTransactionRow = CustomerBalanceTransaction;

/** Locks the customer's balance in the currency, creating it (at 0) when there is none. */
export async function lockOrCreateCustomerBalance(tx: DbClient, customerId: string, currency: string, at: Date): Promise<CustomerBalanceRow> {
  await tx.$executeRaw`
    INSERT INTO customer_balances (id, customer_id, currency, created_at, updated_at) VALUES (${newId()}::uuid, ${customerId}::uuid, ${currency}, ${at}, ${at})
    ON CONFLICT (customer_id, currency) DO NOTHING`;
  return (await lockExistingCustomerBalance(tx, customerId, currency))!;
}

/** Locks the customer's balance in the currency when it exists. */
export async function lockExistingCustomerBalance(tx: DbClient, customerId: string, currency: string): Promise<CustomerBalanceRow | null> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text FROM customer_balances WHERE customer_id = ${customerId}::uuid AND currency = ${currency} FOR UPDATE`;
  if (rows.length === 0) return null;
  return tx.customerBalance.findUniqueOrThrow({ where: { id: rows[0]!.id } });
}

export interface CustomerBalanceMove {
  kind: 'credit_note' | 'applied' | 'void_return' | 'void_reversal';
  /** Signed: positive adds to the balance. */
  amount: bigint;
  invoiceId: string | null;
  creditNoteId: string | null;
  journalId: string | null;
  description: string;
  occurredAt: Date;
}

/** Moves a locked balance by `move.amount` and records the move; returns the balance after it. */
export async function moveCustomerBalance(tx: DbClient, balance: CustomerBalanceRow, move: CustomerBalanceMove): Promise<bigint> {
  const after = fromDecimal(balance.balanceNanos) + move.amount;
  await tx.customerBalance.update({ where: { id: balance.id }, data: { balanceNanos: toDecimal(after) } });
  await tx.customerBalanceTransaction.create({
    data: {
      id: newId(),
      balanceId: balance.id,
      kind: move.kind,
      amountNanos: toDecimal(move.amount),
      balanceAfterNanos: toDecimal(after),
      invoiceId: move.invoiceId,
      creditNoteId: move.creditNoteId,
      journalId: move.journalId,
      description: move.description,
      occurredAt: move.occurredAt,
      createdAt: move.occurredAt,
    },
  });
  return after;
}

/** The customer's balances, by currency. */
export function customerBalancesOf(tx: DbClient | Db, customerId: string): Promise<CustomerBalanceRow[]> {
  return tx.customerBalance.findMany({ where: { customerId }, orderBy: { currency: 'asc' } });
}
