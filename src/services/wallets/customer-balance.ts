/**
 * The customer's credit balance (Stripe's customer balance, Lago's credit note wallet): one per
 * customer and currency. Credit notes put money on it (their `credit_amount_nanos`); it is spent
 * automatically when the customer's next invoice in that currency is finalized, before the credit
 * wallet and before any charge, and shows on that invoice as `customer_balance_applied_nanos`.
 *
 * Every move happens under the balance's row lock, in the transaction of the change that causes it,
 * with its history row and its ledger journal (customer_credit is a liability: credit notes credit
 * it, an application debits it against accounts receivable). The balance never goes below zero.
 */
import { customerCreditAppliedJournal } from '../../core/index.js';
import type { Db, DbClient } from '../../db/client.js';
import { customerBalancesOf, lockExistingCustomerBalance, lockOrCreateCustomerBalance, moveCustomerBalance } from '../../db/customer-balances.js';
import { updateInvoice, type InvoiceRow } from '../../db/invoices.js';
import { fromDecimal } from '../../db/money.js';
import { conflict } from '../../errors.js';
import { engineActor, recordAudit } from '../audit.js';
import { post } from '../ledger/postings.js';

/** Puts a credit note's credit on the customer's balance in its currency (creating the balance at need). */
export async function creditCustomerBalance(
  tx: DbClient,
  credit: { customerId: string; currency: string; amount: bigint; creditNoteId: string; number: string; invoiceId: string; journalId: string | null },
  at: Date,
): Promise<bigint> {
  const balance = await lockOrCreateCustomerBalance(tx, credit.customerId, credit.currency, at);
  return moveCustomerBalance(tx, balance, {
    kind: 'credit_note',
    amount: credit.amount,
    invoiceId: credit.invoiceId,
    creditNoteId: credit.creditNoteId,
    journalId: credit.journalId,
    description: `credit note ${credit.number}`,
    occurredAt: at,
  });
}

/**
 * At finalization, while the invoice is still a Draft: applies the customer's balance in its currency
 * to what it leaves to pay (total − due reduced − wallet applied), records it on the invoice
 * (`customer_balance_applied_nanos`), in the balance's history and in the ledger. Returns the amount
 * applied (0 without a balance).
 */
export async function applyCustomerBalanceToInvoice(tx: DbClient, invoice: InvoiceRow, at: Date): Promise<bigint> {
  const wanted = fromDecimal(invoice.totalNanos) - fromDecimal(invoice.dueReducedNanos) - fromDecimal(invoice.walletAppliedNanos) - fromDecimal(invoice.customerBalanceAppliedNanos);
  if (wanted <= 0n) return 0n;
  const balance = await lockExistingCustomerBalance(tx, invoice.customerId, invoice.currency);
  if (!balance) return 0n;
  const before = fromDecimal(balance.balanceNanos);
  const applied = before < wanted ? before : wanted;
  if (applied <= 0n) return 0n;
  const journalId = await post(tx, customerCreditAppliedJournal(applied), {
    customerId: invoice.customerId,
    currency: invoice.currency,
    sourceType: 'invoice',
    sourceId: invoice.id,
    invoiceId: invoice.id,
    description: `customer balance applied to invoice ${invoice.invoiceNumber ?? invoice.id}`,
    at,
  });
  const after = await moveCustomerBalance(tx, balance, {
    kind: 'applied',
    amount: -applied,
    invoiceId: invoice.id,
    creditNoteId: null,
    journalId,
    description: `applied to invoice ${invoice.invoiceNumber ?? invoice.id}`,
    occurredAt: at,
  });
  await updateInvoice(tx, invoice.id, { customerBalanceAppliedNanos: fromDecimal(invoice.customerBalanceAppliedNanos) + applied });
  await recordAudit(tx, {
    action: 'customer_balance.applied',
    actor: engineActor(),
    entityType: 'invoice',
    entityId: invoice.id,
    customerId: invoice.customerId,
    before: { balance_nanos: before.toString() },
    after: { balance_nanos: after.toString(), invoice_id: invoice.id, applied_nanos: applied.toString(), currency: invoice.currency },
  });
  return applied;
}

/**
 * Void: the void posting reverses every journal of the invoice, so the balance follows: what the
 * invoice had applied comes back, and what its credit notes had put on it goes again. Refused (409)
 * when the customer has spent that credit meanwhile: the balance never goes below zero.
 */
export async function reverseCustomerBalanceOfVoidedInvoice(tx: DbClient, invoice: InvoiceRow, creditedToBalance: bigint, at: Date): Promise<void> {
  const applied = fromDecimal(invoice.customerBalanceAppliedNanos);
  if (applied === 0n && creditedToBalance === 0n) return;
  const balance = await lockOrCreateCustomerBalance(tx, invoice.customerId, invoice.currency, at);
  const available = fromDecimal(balance.balanceNanos) + applied;
  if (creditedToBalance > available) {
    throw conflict('customer_credit_spent', `the credit notes of invoice ${invoice.invoiceNumber ?? invoice.id} put ${creditedToBalance} raw units on the customer's balance, which has spent them: issue a credit note instead of voiding`, {
      credited_to_balance_nanos: creditedToBalance.toString(),
      balance_nanos: fromDecimal(balance.balanceNanos).toString(),
    });
  }
  let current = balance;
  const label = invoice.invoiceNumber ?? invoice.id;
  if (applied > 0n) {
    await moveCustomerBalance(tx, current, { kind: 'void_return', amount: applied, invoiceId: invoice.id, creditNoteId: null, journalId: null, description: `invoice ${label} voided`, occurredAt: at });
    current = (await lockExistingCustomerBalance(tx, invoice.customerId, invoice.currency))!;
  }
  if (creditedToBalance > 0n) {
    await moveCustomerBalance(tx, current, {
      kind: 'void_reversal',
      amount: -creditedToBalance,
      invoiceId: invoice.id,
      creditNoteId: null,
      journalId: null,
      description: `credit notes of invoice ${label} reversed by its void`,
      occurredAt: at,
    });
  }
}

/** The customer's credit balances, one per currency it has one in. */
export async function customerCreditBalances(db: Db | DbClient, customerId: string): Promise<{ currency: string; balance_nanos: string }[]> {
  return (await customerBalancesOf(db, customerId)).map((b) => ({ currency: b.currency, balance_nanos: b.balanceNanos.toFixed(0) }));
}
