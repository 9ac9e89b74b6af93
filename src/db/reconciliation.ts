/**
 * What reconciliation reads: per customer and currency, the amounts its invoices, payments, refunds,
 * credit notes, wallets and customer balance moved, and the receivable its ledger holds; and its
 * subscriptions' closed periods.
 */
import type { Prisma } from '../generated/prisma/client.js';
import type { DbClient } from './client.js';
import { fromDecimal } from './money.js';

export interface MoneyTotals {
  currency: string;
  invoiced: bigint;
  openInvoices: number;
  openAmountDue: bigint;
  paid: bigint;
  refunded: bigint;
  credited: bigint;
  creditedToBalance: bigint;
  creditedOutOfBand: bigint;
  walletApplied: bigint;
  customerBalanceApplied: bigint;
  customerBalance: bigint;
  receivable: bigint;
}

type Row = Record<Exclude<keyof MoneyTotals, 'currency' | 'openInvoices'>, Prisma.Decimal> & { currency: string; open_invoices: number };

/** One row per currency the customer has invoices, payments or ledger accounts in. */
export async function moneyTotalsOfCustomer(tx: DbClient, customerId: string): Promise<MoneyTotals[]> {
  const rows = await tx.$queryRaw<Row[]>`
    WITH currencies AS (
      SELECT currency FROM invoices WHERE customer_id = ${customerId}::uuid AND status <> 'Draft'
      UNION SELECT currency FROM ledger_accounts WHERE customer_id = ${customerId}::uuid
    )
    SELECT cur.currency::text AS currency,
      (SELECT COALESCE(sum(i.total_nanos), 0) FROM invoices i WHERE i.customer_id = ${customerId}::uuid AND i.currency = cur.currency AND i.status IN ('Open', 'Paid')) AS invoiced,
      (SELECT count(*)::int FROM invoices i WHERE i.customer_id = ${customerId}::uuid AND i.currency = cur.currency AND i.status = 'Open'
          AND i.total_nanos - i.due_reduced_nanos - i.wallet_applied_nanos - i.customer_balance_applied_nanos > 0) AS open_invoices,
      (SELECT COALESCE(sum(i.total_nanos - i.due_reduced_nanos - i.wallet_applied_nanos - i.customer_balance_applied_nanos), 0)
         FROM invoices i WHERE i.customer_id = ${customerId}::uuid AND i.currency = cur.currency AND i.status = 'Open') AS "openAmountDue",
      (SELECT COALESCE(sum(p.amount_nanos), 0) FROM payments p WHERE p.customer_id = ${customerId}::uuid AND p.currency = cur.currency AND p.status = 'Succeeded') AS paid,
      (SELECT COALESCE(sum(r.amount_nanos), 0) FROM refunds r JOIN invoices i ON i.id = r.invoice_id
         WHERE i.customer_id = ${customerId}::uuid AND r.currency = cur.currency AND r.status = 'Succeeded') AS refunded,
      (SELECT COALESCE(sum(n.amount_nanos), 0) FROM credit_notes n WHERE n.customer_id = ${customerId}::uuid AND n.currency = cur.currency) AS credited,
      (SELECT COALESCE(sum(n.credit_amount_nanos), 0) FROM credit_notes n WHERE n.customer_id = ${customerId}::uuid AND n.currency = cur.currency) AS "creditedToBalance",
      (SELECT COALESCE(sum(n.out_of_band_amount_nanos), 0) FROM credit_notes n WHERE n.customer_id = ${customerId}::uuid AND n.currency = cur.currency) AS "creditedOutOfBand",
      (SELECT COALESCE(sum(i.wallet_applied_nanos), 0) FROM invoices i WHERE i.customer_id = ${customerId}::uuid AND i.currency = cur.currency AND i.status IN ('Open', 'Paid')) AS "walletApplied",
      (SELECT COALESCE(sum(i.customer_balance_applied_nanos), 0) FROM invoices i WHERE i.customer_id = ${customerId}::uuid AND i.currency = cur.currency AND i.status IN ('Open', 'Paid')) AS "customerBalanceApplied",
      (SELECT COALESCE(sum(b.balance_nanos), 0) FROM customer_balances b WHERE b.customer_id = ${customerId}::uuid AND b.currency = cur.currency) AS "customerBalance",
      (SELECT COALESCE(sum(CASE WHEN e.side = 'debit' THEN e.amount_nanos ELSE -e.amount_nanos END), 0)
         FROM ledger_accounts a JOIN ledger_entries e ON e.account_id = a.id
        WHERE a.customer_id = ${customerId}::uuid AND a.currency = cur.currency AND a.kind = 'accounts_receivable') AS receivable
    FROM currencies cur
    ORDER BY cur.currency`;
  return rows.map((r) => ({
    currency: r.currency.trim(),
    invoiced: fromDecimal(r.invoiced),
    openInvoices: r.open_invoices,
    openAmountDue: fromDecimal(r.openAmountDue),
    paid: fromDecimal(r.paid),
    refunded: fromDecimal(r.refunded),
    credited: fromDecimal(r.credited),
    creditedToBalance: fromDecimal(r.creditedToBalance),
    creditedOutOfBand: fromDecimal(r.creditedOutOfBand),
    walletApplied: fromDecimal(r.walletApplied),
    customerBalanceApplied: fromDecimal(r.customerBalanceApplied),
    customerBalance: fromDecimal(r.customerBalance),
    receivable: fromDecimal(r.receivable),
  }));
}

/** The customer's subscriptions' closed periods, oldest first. */
export function closedPeriodsOfCustomer(tx: DbClient, customerId: string) {
  return tx.subscriptionPeriodClose.findMany({
    where: { subscription: { customerId } },
    select: { subscriptionId: true, periodStart: true, periodEnd: true },
    orderBy: [{ subscriptionId: 'asc' }, { periodStart: 'asc' }],
  });
}
