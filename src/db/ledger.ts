/**
 * Ledger repository: accounts (one per customer, currency and kind, created on first use), journals
 * unique by their business key, and their entries. Everything here is append-only; the database
 * refuses updates and deletes and checks each journal's balance at commit.
 */
import type { LedgerAccountKind, LedgerSide, Prisma } from '../generated/prisma/client.js';
import { newId } from '../ids.js';
import type { DbClient } from './client.js';
import { fromDecimal, toDecimal } from './money.js';
import { createdWithin, NEWEST_FIRST, olderThan, type PageQuery } from './pages.js';

export interface NewJournal {
  customerId: string;
  currency: string;
  kind: string;
  businessKey: string;
  sourceType: string;
  sourceId: string;
  invoiceId: string | null;
  reversesJournalId?: string | null;
  description: string;
  effectiveAt: Date;
  entries: readonly { account: LedgerAccountKind; side: LedgerSide; amount: bigint }[];
}

/** The customer's account ids of the given kinds in one currency, created when missing. */
async function accountIds(tx: DbClient, customerId: string, currency: string, kinds: readonly LedgerAccountKind[]): Promise<Map<LedgerAccountKind, string>> {
  // Always inserted in one order: two transactions creating a customer's accounts at once wait on
  // each other's rows in that order and never deadlock.
  const unique = [...new Set(kinds)].sort();
  await tx.ledgerAccount.createMany({
    data: unique.map((kind) => ({ id: newId(), customerId, currency, kind })),
    skipDuplicates: true,
  });
  const rows = await tx.ledgerAccount.findMany({ where: { customerId, currency, kind: { in: unique } }, select: { id: true, kind: true } });
  return new Map(rows.map((r) => [r.kind, r.id]));
}

/**
 * Writes a journal and its entries unless one with the same business key exists (then nothing is
 * written). Returns the journal id and whether this call wrote it.
 */
export async function insertJournal(tx: DbClient, journal: NewJournal): Promise<{ id: string; created: boolean }> {
  const id = newId();
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO ledger_journals (id, customer_id, currency, kind, business_key, source_type, source_id, invoice_id,
                                 reverses_journal_id, description, effective_at)
    VALUES (${id}::uuid, ${journal.customerId}::uuid, ${journal.currency}, ${journal.kind}, ${journal.businessKey}, ${journal.sourceType},
            ${journal.sourceId}::uuid, ${journal.invoiceId}::uuid, ${journal.reversesJournalId ?? null}::uuid, ${journal.description}, ${journal.effectiveAt})
    ON CONFLICT (business_key) DO NOTHING
    RETURNING id::text`;
  if (inserted.length === 0) {
    const existing = await tx.ledgerJournal.findUniqueOrThrow({ where: { businessKey: journal.businessKey }, select: { id: true } });
    return { id: existing.id, created: false };
  }
  const accounts = await accountIds(tx, journal.customerId, journal.currency, journal.entries.map((e) => e.account));
  await tx.ledgerEntry.createMany({
    data: journal.entries.map((e) => ({
      id: newId(),
      journalId: id,
      accountId: accounts.get(e.account)!,
      side: e.side,
      amountNanos: toDecimal(e.amount),
      effectiveAt: journal.effectiveAt,
    })),
  });
  return { id, created: true };
}

export function journalExists(tx: DbClient, businessKey: string): Promise<{ id: string } | null> {
  return tx.ledgerJournal.findUnique({ where: { businessKey }, select: { id: true } });
}

export interface StoredEntry {
  account: LedgerAccountKind;
  side: LedgerSide;
  amount: bigint;
}

/** An invoice's journals that are neither reversals nor reversed yet, oldest first, with their entries. */
export async function unreversedJournalsOfInvoice(tx: DbClient, invoiceId: string) {
  const journals = await tx.ledgerJournal.findMany({
    where: { invoiceId, reversesJournalId: null, reversedBy: null },
    orderBy: { id: 'asc' },
    include: { entries: { include: { account: { select: { kind: true } } }, orderBy: { id: 'asc' } } },
  });
  return journals.map((j) => ({
    id: j.id,
    kind: j.kind,
    customerId: j.customerId,
    currency: j.currency,
    entries: j.entries.map((e): StoredEntry => ({ account: e.account.kind, side: e.side, amount: fromDecimal(e.amountNanos) })),
  }));
}

export interface AccountTotals {
  accountId: string;
  customerId: string;
  currency: string;
  kind: LedgerAccountKind;
  debits: bigint;
  credits: bigint;
}

interface TotalsRow {
  account_id: string;
  customer_id: string;
  currency: string;
  kind: LedgerAccountKind;
  debits: Prisma.Decimal;
  credits: Prisma.Decimal;
}

const toTotals = (r: TotalsRow): AccountTotals => ({
  accountId: r.account_id,
  customerId: r.customer_id,
  currency: r.currency.trim(),
  kind: r.kind,
  debits: fromDecimal(r.debits),
  credits: fromDecimal(r.credits),
});

/** Debit and credit totals of each of a customer's accounts, of entries effective at or before `asOf`. */
export async function accountTotalsOfCustomer(tx: DbClient, customerId: string, asOf: Date | null): Promise<AccountTotals[]> {
  const rows = await tx.$queryRaw<TotalsRow[]>`
    SELECT a.id::text AS account_id, a.customer_id::text AS customer_id, a.currency, a.kind,
           COALESCE(sum(e.amount_nanos) FILTER (WHERE e.side = 'debit'), 0) AS debits,
           COALESCE(sum(e.amount_nanos) FILTER (WHERE e.side = 'credit'), 0) AS credits
      FROM ledger_accounts a
      LEFT JOIN ledger_entries e ON e.account_id = a.id AND (${asOf}::timestamptz IS NULL OR e.effective_at <= ${asOf}::timestamptz)
     WHERE a.customer_id = ${customerId}::uuid
     GROUP BY a.id
     ORDER BY a.currency, a.kind`;
  return rows.map(toTotals);
}

/** Σ debits and Σ credits per currency and account kind over every customer (or one), up to `asOf`. */
export async function trialBalanceTotals(tx: DbClient, filter: { customerId: string | null; asOf: Date | null }) {
  const rows = await tx.$queryRaw<{ currency: string; kind: LedgerAccountKind; debits: Prisma.Decimal; credits: Prisma.Decimal }[]>`
    SELECT a.currency, a.kind,
           COALESCE(sum(e.amount_nanos) FILTER (WHERE e.side = 'debit'), 0) AS debits,
           COALESCE(sum(e.amount_nanos) FILTER (WHERE e.side = 'credit'), 0) AS credits
      FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
     WHERE (${filter.customerId}::uuid IS NULL OR a.customer_id = ${filter.customerId}::uuid)
       AND (${filter.asOf}::timestamptz IS NULL OR e.effective_at <= ${filter.asOf}::timestamptz)
     GROUP BY a.currency, a.kind
     ORDER BY a.currency, a.kind`;
  return rows.map((r) => ({ currency: r.currency.trim(), kind: r.kind, debits: fromDecimal(r.debits), credits: fromDecimal(r.credits) }));
}

export interface EntryFilter {
  customerId: string;
  account?: LedgerAccountKind | undefined;
  currency?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  /** The source document: an invoice (its journals), a credit note, payment, refund, top-up or grant. */
  sourceId?: string | undefined;
}

export interface EntryRow {
  id: string;
  journalId: string;
  journalKind: string;
  businessKey: string;
  sourceType: string;
  sourceId: string;
  invoiceId: string | null;
  reversesJournalId: string | null;
  description: string;
  account: LedgerAccountKind;
  currency: string;
  side: LedgerSide;
  amount: bigint;
  effectiveAt: Date;
}

/** One page of a customer's entries, newest first, `limit + 1` rows (the extra one says there are more); `created_*` is the journal's. */
export async function listEntries(tx: DbClient, filter: EntryFilter, page: PageQuery): Promise<EntryRow[]> {
  const rows = await tx.ledgerEntry.findMany({
    where: {
      account: { customerId: filter.customerId, ...(filter.account ? { kind: filter.account } : {}), ...(filter.currency ? { currency: filter.currency } : {}) },
      ...(filter.from || filter.to ? { effectiveAt: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lt: filter.to } : {}) } } : {}),
      journal: { ...(filter.sourceId ? { OR: [{ sourceId: filter.sourceId }, { invoiceId: filter.sourceId }] } : {}), ...createdWithin(page) },
      ...olderThan(page.starting_after),
    },
    orderBy: NEWEST_FIRST,
    take: page.limit + 1,
    include: { journal: true, account: { select: { kind: true, currency: true } } },
  });
  return rows.map((r) => ({
    id: r.id,
    journalId: r.journalId,
    journalKind: r.journal.kind,
    businessKey: r.journal.businessKey,
    sourceType: r.journal.sourceType,
    sourceId: r.journal.sourceId,
    invoiceId: r.journal.invoiceId,
    reversesJournalId: r.journal.reversesJournalId,
    description: r.journal.description,
    account: r.account.kind,
    currency: r.account.currency.trim(),
    side: r.side,
    amount: fromDecimal(r.amountNanos),
    effectiveAt: r.effectiveAt,
  }));
}

/**
 * Deferred lines of the customer's finalized invoices not fully recognized yet whose service period
 * began before `upTo`, with what their recognition journals carried so far.
 */
export async function deferredLinesDue(tx: DbClient, customerId: string, upTo: Date) {
  return tx.$queryRaw<{ line_id: string; invoice_id: string; currency: string; amount: Prisma.Decimal; period_start: Date; period_end: Date; finalized_at: Date; recognized: Prisma.Decimal }[]>`
    SELECT * FROM (
    SELECT l.id::text AS line_id, i.id::text AS invoice_id, i.currency, l.amount_nanos AS amount,
           COALESCE(l.period_start, i.finalized_at) AS period_start, l.period_end, i.finalized_at,
           COALESCE((SELECT SUM(CASE WHEN e.side = 'debit' THEN e.amount_nanos ELSE -e.amount_nanos END)
                       FROM ledger_journals j JOIN ledger_entries e ON e.journal_id = j.id JOIN ledger_accounts a ON a.id = e.account_id
                      WHERE j.kind = 'revenue_recognition' AND j.source_id = l.id AND a.kind = 'deferred_revenue'), 0) AS recognized
      FROM invoice_line_items l JOIN invoices i ON i.id = l.invoice_id
     WHERE i.customer_id = ${customerId}::uuid AND i.status IN ('Open', 'Paid')
       AND NOT l.is_tax AND l.period_end IS NOT NULL AND l.period_end > i.finalized_at
       AND COALESCE(l.period_start, i.finalized_at) < ${upTo}
       AND l.amount_nanos <> 0
       AND EXISTS (SELECT 1 FROM ledger_journals j WHERE j.business_key = 'invoice_finalized:' || i.id::text)
    ) due WHERE due.recognized <> due.amount
     ORDER BY due.period_end, due.line_id`;
}

/**
 * Customers with a deferred line (as deferredLinesDue counts them) not fully recognized whose service
 * period began before `upTo`: those on the given test clock, or (null) those on no test clock.
 */
export async function customersWithRevenueDue(tx: DbClient, scope: { testClockId: string | null; upTo: Date }): Promise<string[]> {
  const rows = await tx.$queryRaw<{ customer_id: string }[]>`
    SELECT DISTINCT i.customer_id::text AS customer_id
      FROM invoice_line_items l JOIN invoices i ON i.id = l.invoice_id JOIN customers c ON c.id = i.customer_id
     WHERE c.test_clock_id IS NOT DISTINCT FROM ${scope.testClockId}::uuid
       AND i.status IN ('Open', 'Paid')
       AND NOT l.is_tax AND l.period_end IS NOT NULL AND l.period_end > i.finalized_at
       AND COALESCE(l.period_start, i.finalized_at) < ${scope.upTo}
       AND l.amount_nanos <> 0
       AND EXISTS (SELECT 1 FROM ledger_journals j WHERE j.business_key = 'invoice_finalized:' || i.id::text)
       AND l.amount_nanos <> COALESCE((SELECT SUM(CASE WHEN e.side = 'debit' THEN e.amount_nanos ELSE -e.amount_nanos END)
                                         FROM ledger_journals j JOIN ledger_entries e ON e.journal_id = j.id JOIN ledger_accounts a ON a.id = e.account_id
                                        WHERE j.kind = 'revenue_recognition' AND j.source_id = l.id AND a.kind = 'deferred_revenue'), 0)
     ORDER BY 1`;
  return rows.map((row) => row.customer_id);
}

/** What the ledger needs of an invoice's lines: amount, tax flag and service period end. */
export async function postingLinesOf(tx: DbClient, invoiceId: string): Promise<{ amount: bigint; isTax: boolean; periodEnd: Date | null }[]> {
  const lines = await tx.invoiceLineItem.findMany({ where: { invoiceId }, select: { amountNanos: true, isTax: true, periodEnd: true } });
  return lines.map((l) => ({ amount: fromDecimal(l.amountNanos), isTax: l.isTax, periodEnd: l.periodEnd }));
}
