/**
 * Double-entry ledger (SPEC §1 Ledger): the accounts of a customer in one currency and the
 * journals each business event posts. A journal is a set of entries, each a positive amount on the
 * debit or the credit side of one account; it balances (Σ debits = Σ credits) or it is refused here,
 * before anything is written (the database checks it again at commit). Corrections are reversing
 * journals (every entry on the other side), never edits.
 *
 * Sides, in the usual convention: assets (accounts receivable, cash) and expenses grow on the debit
 * side; liabilities (wallet, promotional credit, deferred revenue, tax payable) and revenue grow on
 * the credit side. A balance is reported as the account's normal side minus the other side.
 *
 * Builders take signed amounts where a business event can be negative (a credit line on an invoice):
 * a negative debit is a credit of the same account and vice versa, and entries of one account are
 * netted, so an event that moves nothing posts an empty journal (which callers skip).
 */
import { dayNumber, fromDayNumber, parseCivilParts } from './calendar.js';
import type { CreditAllocation } from './credit-allocation.js';
import { CoreValidationError } from './errors.js';

export const ACCOUNT_KINDS = [
  'accounts_receivable',
  'cash',
  'revenue',
  'deferred_revenue',
  'tax_payable',
  'wallet',
  'promotional_credit',
  'promotional_expense',
  'customer_credit',
] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

export type Side = 'debit' | 'credit';

export const NORMAL_SIDE: Record<AccountKind, Side> = {
  accounts_receivable: 'debit',
  cash: 'debit',
  promotional_expense: 'debit',
  revenue: 'credit',
  deferred_revenue: 'credit',
  tax_payable: 'credit',
  wallet: 'credit',
  promotional_credit: 'credit',
  customer_credit: 'credit',
};

export const JOURNAL_KINDS = [
  'invoice_finalized',
  'payment_collected',
  'refund',
  'credit_note',
  'invoice_voided',
  'wallet_top_up',
  'wallet_promotional_grant',
  'wallet_drawdown',
  'promotional_expiry',
  'revenue_recognition',
  'customer_credit_applied',
] as const;
export type JournalKind = (typeof JOURNAL_KINDS)[number];

export interface Entry {
  readonly account: AccountKind;
  readonly side: Side;
  /** Raw units, > 0. */
  readonly amount: bigint;
}

export interface JournalDraft {
  readonly kind: JournalKind;
  readonly entries: readonly Entry[];
}

export class UnbalancedJournalError extends CoreValidationError {
  constructor(message: string) {
    super('journal_unbalanced', 'entries', message);
  }
}

/** Σ debits and Σ credits of a set of entries. */
export function sides(entries: readonly Entry[]): { debits: bigint; credits: bigint } {
  let debits = 0n;
  let credits = 0n;
  for (const entry of entries) {
    if (entry.side === 'debit') debits += entry.amount;
    else credits += entry.amount;
  }
  return { debits, credits };
}

/** Refuses a journal that does not balance or has an entry that is not a positive amount. */
export function assertBalanced(entries: readonly Entry[]): void {
  for (const entry of entries) {
    if (entry.amount <= 0n) throw new UnbalancedJournalError(`entry on ${entry.account} has a non-positive amount ${entry.amount}`);
  }
  const { debits, credits } = sides(entries);
  if (debits !== credits) throw new UnbalancedJournalError(`debits ${debits} ≠ credits ${credits}`);
}

/** A signed movement: positive debits the account, negative credits it. */
export interface Movement {
  readonly account: AccountKind;
  readonly debit: bigint;
}

/** Nets movements per account (in ACCOUNT_KINDS order), drops zeros, and checks the balance. */
export function journalOf(kind: JournalKind, movements: readonly Movement[]): JournalDraft {
  const net = new Map<AccountKind, bigint>();
  for (const m of movements) net.set(m.account, (net.get(m.account) ?? 0n) + m.debit);
  const entries: Entry[] = [];
  for (const account of ACCOUNT_KINDS) {
    const amount = net.get(account) ?? 0n;
    if (amount > 0n) entries.push({ account, side: 'debit', amount });
    else if (amount < 0n) entries.push({ account, side: 'credit', amount: -amount });
  }
  assertBalanced(entries);
  return { kind, entries };
}

const dr = (account: AccountKind, amount: bigint): Movement => ({ account, debit: amount });
const cr = (account: AccountKind, amount: bigint): Movement => ({ account, debit: -amount });

/**
 * Invoice finalized: the customer owes the total (AR), earned now (revenue) or for a service period
 * still to come (deferred revenue), plus the tax collected for the authority. Amounts are signed
 * sums of the invoice's lines (credit lines are negative), so AR = recognized + deferred + tax.
 */
export function invoiceFinalizedJournal(split: { recognized: bigint; deferred: bigint; tax: bigint }): JournalDraft {
  const total = split.recognized + split.deferred + split.tax;
  return journalOf('invoice_finalized', [
    dr('accounts_receivable', total),
    cr('revenue', split.recognized),
    cr('deferred_revenue', split.deferred),
    cr('tax_payable', split.tax),
  ]);
}

/** Money collected for an invoice (processor or recorded manual payment). */
export const paymentCollectedJournal = (amount: bigint): JournalDraft =>
  journalOf('payment_collected', [dr('cash', amount), cr('accounts_receivable', amount)]);

/** Money given back on a collected payment; its credit note posts the revenue side. */
export const refundJournal = (amount: bigint): JournalDraft => journalOf('refund', [dr('accounts_receivable', amount), cr('cash', amount)]);

/**
 * A credit note takes back revenue and, for its share of the invoice's tax, the tax payable; where
 * the money goes is its allocation (core credit-allocation): the amount due reduction and the refund
 * leave accounts receivable (the refund's own journal moves the cash), the credit becomes the
 * customer's credit balance (a liability), and what was settled out of band left as cash. So no
 * allocation takes the receivable below what the invoice still owes.
 */
export function creditNoteJournal(allocation: CreditAllocation, tax = 0n): JournalDraft {
  const amount = allocation.dueReduction + allocation.refund + allocation.credit + allocation.outOfBand;
  return journalOf('credit_note', [
    dr('tax_payable', tax),
    dr('revenue', amount - tax),
    cr('accounts_receivable', allocation.dueReduction + allocation.refund),
    cr('customer_credit', allocation.credit),
    cr('cash', allocation.outOfBand),
  ]);
}

/** The customer's credit balance applied to an invoice at finalization: it settles receivable. */
export const customerCreditAppliedJournal = (amount: bigint): JournalDraft =>
  journalOf('customer_credit_applied', [dr('customer_credit', amount), cr('accounts_receivable', amount)]);

/**
 * The tax share of a credit note of `amount` on an invoice of `total` carrying `tax`, of which
 * `creditedBefore` was credited by earlier notes: the tax of everything credited after it (pro rata,
 * rounded toward zero) minus the tax of what was credited before, so the notes of an invoice
 * together reverse exactly its tax once they credit its whole total.
 */
export function creditNoteTaxShare(invoice: { total: bigint; tax: bigint }, creditedBefore: bigint, amount: bigint): bigint {
  if (invoice.total <= 0n || invoice.tax === 0n) return 0n;
  const taxOf = (credited: bigint) => (credited * invoice.tax) / invoice.total;
  return taxOf(creditedBefore + amount) - taxOf(creditedBefore);
}

/** A top-up paid through the processor: cash in, prepaid credit owed to the customer. */
export const walletTopUpJournal = (amount: bigint): JournalDraft => journalOf('wallet_top_up', [dr('cash', amount), cr('wallet', amount)]);

/** Promotional credit granted: an expense of the business, credit the customer can spend. */
export const promotionalGrantJournal = (amount: bigint): JournalDraft =>
  journalOf('wallet_promotional_grant', [dr('promotional_expense', amount), cr('promotional_credit', amount)]);

/** Wallet applied to an invoice at finalization: prepaid and promotional credit settle receivable. */
export const walletDrawdownJournal = (drawn: { paid: bigint; promotional: bigint }): JournalDraft =>
  journalOf('wallet_drawdown', [dr('wallet', drawn.paid), dr('promotional_credit', drawn.promotional), cr('accounts_receivable', drawn.paid + drawn.promotional)]);

/** Promotional credit that expired unspent: the grant's expense is taken back. */
export const promotionalExpiryJournal = (amount: bigint): JournalDraft =>
  journalOf('promotional_expiry', [dr('promotional_credit', amount), cr('promotional_expense', amount)]);

/**
 * Ratable recognition of a deferred line over its service period [startMs, endMs) (epoch ms): what
 * is earned by `atMs` is amount × elapsed / length, rounded toward zero, so exactly the amount at
 * the end. Recognition is posted at each UTC month start inside the period and at its end (monthly
 * buckets, each prorated by the time of the period that fell in the month).
 */
export function earnedBy(amount: bigint, startMs: number, endMs: number, atMs: number): bigint {
  if (endMs <= startMs || atMs >= endMs) return amount;
  if (atMs <= startMs) return 0n;
  return (amount * BigInt(atMs - startMs)) / BigInt(endMs - startMs);
}

const DAY_MS = 86_400_000;
const EPOCH_DAY = dayNumber('1970-01-01');

/** The first instant (epoch ms, UTC) of the month after the one holding `ms`. */
function nextMonthStartMs(ms: number): number {
  // Whole days since the epoch, rounded down (also before 1970): an exact integer division.
  const days = (ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS)) / DAY_MS;
  const { year, month } = parseCivilParts(fromDayNumber(days + EPOCH_DAY));
  const next = month === 12 ? `${String(year + 1).padStart(4, '0')}-01-01` : `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}-01`;
  return (dayNumber(next) - EPOCH_DAY) * DAY_MS;
}

/** Recognition steps of a deferred line up to `upToMs`: each UTC month start inside (start, end), then the end, with what each newly earns. */
export function recognitionSteps(amount: bigint, startMs: number, endMs: number, upToMs: number): { atMs: number; amount: bigint }[] {
  const steps: { atMs: number; amount: bigint }[] = [];
  let earned = 0n;
  const step = (atMs: number) => {
    const cumulative = earnedBy(amount, startMs, endMs, atMs);
    steps.push({ atMs, amount: cumulative - earned });
    earned = cumulative;
  };
  for (let month = nextMonthStartMs(startMs); month < endMs && month <= upToMs; month = nextMonthStartMs(month)) step(month);
  if (endMs <= upToMs) step(endMs);
  return steps;
}

/** Deferred revenue earned (a recognition step of its service period). */
export const recognitionJournal = (amount: bigint): JournalDraft => journalOf('revenue_recognition', [dr('deferred_revenue', amount), cr('revenue', amount)]);

/** The reversal of a journal: every entry on the other side (a void, a correction). */
export function reversalOf(entries: readonly Entry[], kind: JournalKind): JournalDraft {
  const reversed = entries.map((e): Entry => ({ account: e.account, side: e.side === 'debit' ? 'credit' : 'debit', amount: e.amount }));
  assertBalanced(reversed);
  return { kind, entries: reversed };
}

/** An account's balance on its normal side from its debit and credit totals. */
export const normalBalance = (account: AccountKind, totals: { debits: bigint; credits: bigint }): bigint =>
  NORMAL_SIDE[account] === 'debit' ? totals.debits - totals.credits : totals.credits - totals.debits;

/**
 * Where a finalized invoice line's amount goes: a line whose service period ends after the
 * finalization is deferred revenue until that end; tax lines are tax payable; everything else
 * (including lines without a period) is revenue now.
 */
export interface LineForPosting {
  readonly amount: bigint;
  readonly isTax: boolean;
  readonly periodEnd: Date | null;
}

export function splitInvoiceLines(lines: readonly LineForPosting[], finalizedAt: Date): { recognized: bigint; deferred: bigint; tax: bigint } {
  let recognized = 0n;
  let deferred = 0n;
  let tax = 0n;
  for (const line of lines) {
    if (line.isTax) tax += line.amount;
    else if (isDeferred(line, finalizedAt)) deferred += line.amount;
    else recognized += line.amount;
  }
  return { recognized, deferred, tax };
}

export const isDeferred = (line: LineForPosting, finalizedAt: Date): boolean =>
  !line.isTax && line.periodEnd !== null && line.periodEnd.getTime() > finalizedAt.getTime();

// ── Wallet math ──────────────────────────────────────────────────────────────────────────────

export interface Grant {
  readonly id: string;
  readonly kind: 'paid' | 'promotional';
  readonly remaining: bigint;
  /** Epoch ms; null = never expires. */
  readonly expiresAt: number | null;
  /** Epoch ms; FIFO tie-break. */
  readonly grantedAt: number;
}

export interface GrantTake {
  readonly grantId: string;
  readonly kind: 'paid' | 'promotional';
  readonly amount: bigint;
}

/**
 * What a drawdown of up to `wanted` takes from live grants: promotional credit first (soonest expiry
 * first, non-expiring last), then paid credit, oldest first; ties by id. Never more than a grant
 * holds, never more than wanted.
 */
export function planDrawdown(grants: readonly Grant[], wanted: bigint, now: number): GrantTake[] {
  if (wanted <= 0n) return [];
  const live = grants.filter((g) => g.remaining > 0n && (g.expiresAt === null || g.expiresAt > now));
  const rank = (g: Grant) => (g.kind === 'promotional' ? 0 : 1);
  const expiry = (g: Grant) => g.expiresAt ?? Number.MAX_SAFE_INTEGER;
  const ordered = [...live].sort(
    (a, b) => rank(a) - rank(b) || expiry(a) - expiry(b) || a.grantedAt - b.grantedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  const takes: GrantTake[] = [];
  let left = wanted;
  for (const grant of ordered) {
    if (left === 0n) break;
    const amount = grant.remaining < left ? grant.remaining : left;
    takes.push({ grantId: grant.id, kind: grant.kind, amount });
    left -= amount;
  }
  return takes;
}

/**
 * Auto-recharge fires once per crossing: when a drawdown takes the balance from at or above the
 * threshold to below it. The amount tops it up to the target.
 */
export function rechargeOnCrossing(input: { before: bigint; after: bigint; threshold: bigint; target: bigint }): bigint | null {
  if (input.before >= input.threshold && input.after < input.threshold && input.target > input.after) return input.target - input.after;
  return null;
}
