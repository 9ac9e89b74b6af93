/**
 * Invoices: views, totals, and every state change of an invoice. The invoice workflow calls the
 * state changes (finalize, pay, void) through activities; Draft edits (lines, credits) are plain
 * transactions guarded by a row lock on the invoice, the same lock finalization takes.
 *
 * Totals: subtotal = Σ non-tax, non-credit lines; tax = Σ tax lines; credits = −Σ credit lines;
 * total = subtotal + tax − credits. All exact raw units; the display strings (`total` next to
 * `total_nanos`) are the one rounding, HalfEven to the currency's minor unit, made at output.
 */
import type { PageQuery } from '../../db/pages.js';
import { toDisplay } from '../../core/index.js';
import { getCustomer, type CustomerRecord } from '../../db/customers.js';
import type { Db, DbClient } from '../../db/client.js';
import {
  amountDueOf,
  finalizedInvoicesOfPeriod,
  findInvoiceStatus,
  findInvoiceWithLines,
  getInvoice,
  invoiceClockTime,
  listInvoiceSummaries,
  lockInvoice,
  openInvoiceWithNextNumber,
  updateInvoice,
  type InvoiceFilter,
  type InvoiceLineRow,
  type InvoiceRow,
  type InvoiceSummaryRow,
} from '../../db/invoices.js';
import { fromDecimal } from '../../db/money.js';
import { advanceChargedThrough } from '../../db/subscriptions.js';
import { toPage, type Page } from '../pagination.js';
import { UUID_PATTERN } from '../../ids.js';
import { engineActor, recordAudit, SYSTEM_ACTOR, type Actor } from '../audit.js';
import { creditInvoice } from './credit-notes.js';
import { creditNotesOf } from '../../db/credit-notes.js';
import { applyHardLimitSpendCap } from '../alerts/spend-cap.js';
import { DomainError, invalidTransition, notFound } from '../../errors.js';
import { enqueueEvent } from '../outbox.js';
import { postInvoiceFinalized, postInvoiceVoided, postPaymentCollected } from '../ledger/postings.js';
import { drawDownWalletForInvoice, returnWalletDrawdown } from '../wallets/wallets.js';
import { applyCustomerBalanceToInvoice, reverseCustomerBalanceOfVoidedInvoice } from '../wallets/customer-balance.js';
import type { InvoiceSummaryView, InvoiceView } from '../../schemas/invoicing.js';
import { mergeMetadata, metadataOf, type MetadataChanges } from '../metadata.js';
import { billingErrorView } from '../failures/billing-errors.js';


const iso = (d: Date | null): string | null => d?.toISOString() ?? null;

export { amountDueOf };

/**
 * What is left to pay: on an Open invoice, what it still owes; on a Draft, what finalizing it would
 * leave to pay before any credit wallet draws on it (never below 0: a credit invoice owes nothing);
 * nothing once Paid or Void.
 */
function amountDueView(invoice: InvoiceRow): bigint {
  if (invoice.status !== 'Open' && invoice.status !== 'Draft') return 0n;
  const due = amountDueOf(invoice);
  return due > 0n ? due : 0n;
}

/** The invoice without its lines; `spendCapWithheld` is the sum of its spend_cap lines, negated. */
function invoiceFields(invoice: InvoiceRow, spendCapWithheld: bigint): Omit<InvoiceView, 'line_items'> {
  const display = (raw: bigint) => toDisplay(raw, invoice.currency).text;
  const total = fromDecimal(invoice.totalNanos);
  const amountDue = amountDueView(invoice);
  return {
    id: invoice.id,
    status: invoice.status,
    invoice_number: invoice.invoiceNumber,
    customer_id: invoice.customerId,
    subscription_id: invoice.subscriptionId,
    currency: invoice.currency,
    billing_reason: invoice.billingReason,
    period_start: iso(invoice.periodStart),
    period_end: iso(invoice.periodEnd),
    subtotal_nanos: invoice.subtotalNanos.toFixed(0),
    tax_nanos: invoice.taxNanos.toFixed(0),
    credits_applied_nanos: invoice.creditsAppliedNanos.toFixed(0),
    credit_lines_nanos: invoice.creditsAppliedNanos.toFixed(0),
    total_nanos: total.toString(),
    credited_nanos: invoice.creditedNanos.toFixed(0),
    credit_notes_nanos: invoice.creditedNanos.toFixed(0),
    due_reduced_nanos: invoice.dueReducedNanos.toFixed(0),
    wallet_applied_nanos: invoice.walletAppliedNanos.toFixed(0),
    customer_balance_applied_nanos: invoice.customerBalanceAppliedNanos.toFixed(0),
    spend_cap_withheld_nanos: spendCapWithheld.toString(),
    amount_due_nanos: amountDue.toString(),
    subtotal: display(fromDecimal(invoice.subtotalNanos)),
    tax: display(fromDecimal(invoice.taxNanos)),
    total: display(total),
    amount_due: display(amountDue),
    credited: display(fromDecimal(invoice.creditedNanos)),
    credit_lines: display(fromDecimal(invoice.creditsAppliedNanos)),
    credit_notes: display(fromDecimal(invoice.creditedNanos)),
    wallet_applied: display(fromDecimal(invoice.walletAppliedNanos)),
    spend_cap_withheld: display(spendCapWithheld),
    tax_adapter: invoice.taxAdapter,
    due_at: iso(invoice.dueAt),
    finalized_at: iso(invoice.finalizedAt),
    paid_at: iso(invoice.paidAt),
    paid_by: invoice.paidByActorId ? { actor_id: invoice.paidByActorId, actor_name: invoice.paidByActorName, reference: invoice.paidReference } : null,
    voided_at: iso(invoice.voidedAt),
    billing_error: billingErrorView(invoice.billingError),
    created_at: invoice.createdAt.toISOString(),
    // Signed by the API (src/http/hosted-links.ts), which holds the link secret.
    hosted_invoice_url: null,
    metadata: metadataOf(invoice.metadata),
  };
}

const spendCapWithheldOf = (lines: Pick<InvoiceLineRow, 'kind' | 'amountNanos'>[]): bigint =>
  lines.filter((line) => line.kind === 'spend_cap').reduce((sum, line) => sum - fromDecimal(line.amountNanos), 0n);

/** An invoice in a list: no lines, their count instead. */
export function toInvoiceSummaryView(invoice: InvoiceSummaryRow): InvoiceSummaryView {
  return { ...invoiceFields(invoice, spendCapWithheldOf(invoice.lines)), line_item_count: invoice._count.lines };
}

export function toInvoiceView(invoice: InvoiceRow, lines: InvoiceLineRow[]): InvoiceView {
  const display = (raw: bigint) => toDisplay(raw, invoice.currency).text;
  return {
    ...invoiceFields(invoice, spendCapWithheldOf(lines)),
    line_items: lines.map((line) => ({
      id: line.id,
      kind: line.kind,
      description: line.description,
      sku_id: line.skuId,
      plan_id: line.planId,
      subscription_id: line.subscriptionId,
      customer_id: line.customerId,
      customer_name: line.customerName,
      quantity: line.quantity,
      unit_amount_nanos: line.unitAmountNanos?.toFixed(0) ?? null,
      amount_nanos: line.amountNanos.toFixed(0),
      amount: display(fromDecimal(line.amountNanos)),
      is_tax: line.isTax,
      period_start: iso(line.periodStart),
      period_end: iso(line.periodEnd),
      dimensions: (line.dimensions ?? null) as Record<string, string | null> | null,
      detail: line.detail,
    })),
  };
}

export async function loadInvoiceView(db: DbClient, id: string, ownCustomerId?: string): Promise<InvoiceView> {
  const invoice = await findInvoiceWithLines(db, id);
  if (!invoice || (ownCustomerId !== undefined && invoice.customerId !== ownCustomerId)) throw notFound('invoice', id);
  return toInvoiceView(invoice, invoice.lines);
}

export interface InvoiceListQuery extends PageQuery {
  customer_id?: string | undefined;
  status?: InvoiceFilter['status'];
  subscription_id?: string | undefined;
  currency?: string | undefined;
  invoice_number?: string | undefined;
}

/** Invoice summaries, newest first; `ownCustomerId` (a customer token) sees only invoices addressed to it. */
export async function listInvoices(db: Db, query: InvoiceListQuery, ownCustomerId?: string): Promise<Page<InvoiceSummaryView>> {
  const { customer_id, status, subscription_id, currency, invoice_number, ...page } = query;
  if (ownCustomerId !== undefined && customer_id !== undefined && customer_id !== ownCustomerId) throw notFound('customer', customer_id);
  // A customer token whose subject names no customer id at all has no invoices to list.
  if (ownCustomerId !== undefined && !UUID_PATTERN.test(ownCustomerId)) throw notFound('customer', ownCustomerId);
  const rows = await listInvoiceSummaries(db, { customerId: ownCustomerId ?? customer_id, status, subscriptionId: subscription_id, currency, invoiceNumber: invoice_number }, page);
  return toPage(rows, page.limit, toInvoiceSummaryView);
}

/** Merges `changes` into the invoice's metadata (any status: metadata is never billed), audited as invoice.updated. */
export async function updateInvoiceMetadata(db: Db, id: string, changes: MetadataChanges, context: { actor: Actor; requestId: string }): Promise<InvoiceView> {
  return db.$transaction(async (tx) => {
    const before = await lockInvoice(tx, id);
    const after = await updateInvoice(tx, id, { metadata: mergeMetadata(metadataOf(before.metadata), changes) });
    await recordAudit(tx, {
      action: 'invoice.updated',
      actor: context.actor,
      entityType: 'invoice',
      entityId: id,
      customerId: before.customerId,
      before: { metadata: metadataOf(before.metadata) },
      after: { metadata: metadataOf(after.metadata) },
      requestId: context.requestId,
    });
    return loadInvoiceView(tx, id);
  });
}

/** The status and addressee of an invoice; null when it does not exist. */
export function invoiceStatus(db: DbClient, id: string): Promise<{ status: InvoiceRow['status']; customerId: string } | null> {
  return findInvoiceStatus(db, id);
}

/** Audits that finalizing a Draft was refused (`code`, `reason`): it stays a Draft for an operator. */
export async function recordFinalizeDeferred(
  db: Db,
  input: { invoiceId: string; customerId: string; actor: Actor; code: string; reason: string },
): Promise<void> {
  await db.$transaction((tx) =>
    recordAudit(tx, {
      action: 'invoice.finalize_deferred',
      actor: input.actor,
      entityType: 'invoice',
      entityId: input.invoiceId,
      customerId: input.customerId,
      before: { status: 'Draft' },
      after: { status: 'Draft', code: input.code, reason: input.reason },
    }),
  );
}

/** The invoice's own "now": its test clock's time when it is on one, else `realNow`. */
export async function invoiceNow(db: DbClient, invoiceId: string, realNow: Date): Promise<Date> {
  return (await invoiceClockTime(db, invoiceId)) ?? realNow;
}

/** A Draft's amounts as finalizing settles them, before it takes its number. */
export interface SettledDraft {
  totals: InvoiceRow;
  withheld: Awaited<ReturnType<typeof applyHardLimitSpendCap>>;
  customer: CustomerRecord;
}

/**
 * Everything finalizing does to a locked Draft's amounts, in order, before it takes its number: the
 * HardLimit spend cap, tax, the ledger posting, the customer's credit balance and the credit wallet.
 * finalizeInvoice runs it; the upcoming invoice runs it too, in a transaction it rolls back.
 */
export async function settleDraftAmounts(
  tx: DbClient,
  current: InvoiceRow,
  options: { at: Date; applyTax: (tx: DbClient, invoice: InvoiceRow, payer: CustomerRecord) => Promise<InvoiceRow> },
): Promise<SettledDraft> {
  // Before tax: tax follows the capped charges, and wallet drawdown and the card charge see the capped total.
  const withheld = await applyHardLimitSpendCap(tx, current);
  const customer = await getCustomer(tx, current.customerId);
  // Tax on the final lines; the totals come back recomputed.
  const totals = await options.applyTax(tx, current, customer);
  // Ledger, then the wallet drawdown (before the card is charged), while the invoice is still a
  // Draft: its wallet_applied_nanos is frozen with the rest once it is Open. Both name the invoice
  // by its id: its number is taken last (openInvoiceWithNextNumber), so concurrent finalizations
  // wait on the gapless counter only for the writes that quote the number.
  await postInvoiceFinalized(tx, totals, options.at);
  // The customer's credit balance (from credit notes) first, then the credit wallet (whose
  // promotional credit may expire) draws on what is left.
  await applyCustomerBalanceToInvoice(tx, totals, options.at);
  await drawDownWalletForInvoice(tx, await getInvoice(tx, current.id), options.at);
  return { totals, withheld, customer };
}

export interface FinalizeResult {
  invoice: InvoiceView;
  alreadyFinalized: boolean;
}

/**
 * Draft → Open in one transaction: tax by the configured adapter, totals, the next gapless
 * INV-###### number, the outbox event and the audit entry. Idempotent for a retried activity.
 *
 * A Draft with a negative total (a downgrade after the period's fee was invoiced) is a credit
 * invoice: it is finalized like any other, so its lines count as billed, and its credit is applied
 * in the same transaction as credit notes on its billing group's earlier finalized invoices, newest
 * first; with nothing left to pay it is then Paid. When those invoices cannot absorb the credit, or
 * it has no billing period, finalizing is refused (422 negative_invoice_total).
 */
export async function finalizeInvoice(
  db: Db,
  id: string,
  options: { actor: Actor; at: Date; applyTax: (tx: DbClient, invoice: InvoiceRow, payer: CustomerRecord) => Promise<InvoiceRow>; requestId?: string },
): Promise<FinalizeResult> {
  const finalizedNow = await db.$transaction(async (tx): Promise<boolean> => {
    const current = await lockInvoice(tx, id);
    if (current.status === 'Open' || current.status === 'Paid') return false;
    if (current.status !== 'Draft') throw invalidTransition('invoice', current.status, 'finalize');
    const { totals, withheld, customer } = await settleDraftAmounts(tx, current, options);
    const number = await openInvoiceWithNextNumber(tx, id, {
      finalizedAt: options.at,
      dueAt: new Date(options.at.getTime() + customer.payment_terms_days * 86_400_000),
    });
    const totalNanos = totals.totalNanos.toFixed(0);
    await enqueueEvent(tx, 'invoice.finalized', id, {
      invoice_id: id,
      customer_id: totals.customerId,
      invoice_number: number,
      total_nanos: totalNanos,
      currency: totals.currency,
    }, options.at);
    await recordAudit(tx, {
      action: 'invoice.finalized',
      actor: options.actor,
      entityType: 'invoice',
      entityId: id,
      customerId: totals.customerId,
      before: { status: 'Draft' },
      after: {
        status: 'Open',
        invoice_number: number,
        total_nanos: totalNanos,
        ...(withheld.length > 0 ? { spend_cap_withheld: withheld.map((w) => ({ customer_id: w.customerId, withheld_nanos: w.withheldNanos.toString() })) } : {}),
      },
      ...(options.requestId ? { requestId: options.requestId } : {}),
    });
    const total = fromDecimal(totals.totalNanos);
    if (total < 0n) {
      const finalized = await getInvoice(tx, id);
      await applyCredit(tx, finalized, -total, options);
      // Nothing is charged, so no subscription's charged_through_date moves (and this transaction
      // never waits for a subscription row that a concurrent billing holds while it waits for this Draft).
      await settle(tx, finalized, { actor: engineActor(), paidBy: { actorId: SYSTEM_ACTOR.id, actorName: 'credit applied' }, at: options.at }, false);
    }
    return true;
  });
  // Read after the commit: the counter's lock is not held for it.
  const result: FinalizeResult = { invoice: await loadInvoiceView(db, id), alreadyFinalized: !finalizedNow };
  // The wallet paid all of it: Paid in its own transaction, like any payment (it advances the
  // subscriptions' charged_through_date, whose rows are never waited for under the invoice lock).
  const fromWallet = result.invoice.wallet_applied_nanos !== '0';
  if (result.invoice.status === 'Open' && result.invoice.amount_due_nanos === '0' && (fromWallet || result.invoice.customer_balance_applied_nanos !== '0')) {
    const paidBy = fromWallet ? 'credit wallet' : 'customer balance';
    const paid = await markInvoicePaid(db, id, { actor: engineActor(), paidBy: { actorId: SYSTEM_ACTOR.id, actorName: paidBy }, at: options.at });
    return { invoice: paid, alreadyFinalized: result.alreadyFinalized };
  }
  return result;
}

/** Applies a credit invoice's credit to its billing group's earlier finalized invoices as credit notes. */
async function applyCredit(tx: DbClient, source: InvoiceRow, credit: bigint, options: { actor: Actor; at: Date; requestId?: string }): Promise<void> {
  const refuse = (why: string) =>
    new DomainError('unprocessable', 'negative_invoice_total', `the invoice total is negative and ${why}; issue a credit note instead`, {
      total_nanos: (-credit).toString(),
    });
  if (!source.periodStart || !source.periodEnd) throw refuse('it belongs to no billing period');
  const earlier = await finalizedInvoicesOfPeriod(tx, {
    excludeId: source.id,
    customerId: source.customerId,
    currency: source.currency,
    periodStart: source.periodStart,
    periodEnd: source.periodEnd,
  });
  const plan: { invoiceId: string; amount: bigint }[] = [];
  let left = credit;
  for (const invoice of earlier) {
    const remaining = fromDecimal(invoice.totalNanos) - fromDecimal(invoice.creditedNanos);
    if (left === 0n || remaining <= 0n) continue;
    const amount = remaining < left ? remaining : left;
    plan.push({ invoiceId: invoice.id, amount });
    left -= amount;
  }
  if (left > 0n) throw refuse("the period's earlier invoices cannot absorb its credit");
  for (const { invoiceId, amount } of plan) {
    await creditInvoice(tx, invoiceId, {
      amountNanos: amount,
      reason: 'order_change',
      memo: `credit of ${source.invoiceNumber ?? source.id}`,
      sourceInvoiceId: source.id,
    }, options);
  }
}

export interface PaymentRecord {
  /** Who records the payment (the audit actor). */
  actor: Actor;
  /** Who paid, as reported (SPEC: actor_id, actor_name). */
  paidBy: { actorId: string; actorName: string | null };
  /** The payment's reference (a check number, a wire reference), stored as paid_by.reference. */
  reference?: string;
  /** The amount the payer states it paid: refused unless it is the amount due (partial payments are not modelled). */
  expectedAmountNanos?: bigint;
  at: Date;
  requestId?: string;
}

/** Open → Paid (manual or collected payment). */
export async function markInvoicePaid(db: Db, id: string, payment: PaymentRecord): Promise<InvoiceView> {
  return db.$transaction(async (tx) => {
    const current = await lockInvoice(tx, id);
    if (current.status === 'Paid') return loadInvoiceView(tx, id);
    if (current.status !== 'Open') throw invalidTransition('invoice', current.status, 'pay');
    const due = amountDueView(current);
    if (payment.expectedAmountNanos !== undefined && payment.expectedAmountNanos !== due) {
      throw new DomainError('unprocessable', 'payment_amount_mismatch', `amount_nanos ${payment.expectedAmountNanos} is not the amount due (${due}): partial payments are not modelled`, {
        amount_nanos: payment.expectedAmountNanos.toString(),
        amount_due_nanos: due.toString(),
      });
    }
    await settle(tx, current, payment, true);
    return loadInvoiceView(tx, id);
  });
}

/**
 * Marks a locked Open invoice Paid, with its outbox event and audit entry; a charge also advances
 * the charged_through_date of every subscription it bills to the end of the period billed.
 */
async function settle(tx: DbClient, invoice: InvoiceRow, payment: PaymentRecord, charged: boolean): Promise<void> {
  const paid = await updateInvoice(tx, invoice.id, {
    status: 'Paid',
    paidAt: payment.at,
    paidByActorId: payment.paidBy.actorId,
    paidByActorName: payment.paidBy.actorName,
    ...(payment.reference !== undefined ? { paidReference: payment.reference } : {}),
  });
  if (charged) await advanceChargedThrough(tx, invoice.id);
  const due = amountDueOf(paid);
  await postPaymentCollected(tx, paid, due, payment.at);
  await enqueueEvent(tx, 'invoice.paid', invoice.id, {
    invoice_id: invoice.id,
    customer_id: paid.customerId,
    invoice_number: paid.invoiceNumber,
    amount_nanos: (due > 0n ? due : 0n).toString(),
    currency: paid.currency,
  }, payment.at);
  await recordAudit(tx, {
    action: 'invoice.paid',
    actor: payment.actor,
    entityType: 'invoice',
    entityId: invoice.id,
    customerId: paid.customerId,
    before: { status: 'Open' },
    after: {
      status: 'Paid',
      paid_by: { actor_id: payment.paidBy.actorId, actor_name: payment.paidBy.actorName, ...(payment.reference !== undefined ? { reference: payment.reference } : {}) },
    },
    ...(payment.requestId ? { requestId: payment.requestId } : {}),
  });
}

/** Open → Void. */
export async function voidInvoice(db: Db, id: string, options: { actor: Actor; at: Date; reason?: string; requestId?: string }): Promise<InvoiceView> {
  return db.$transaction(async (tx) => {
    const current = await lockInvoice(tx, id);
    if (current.status === 'Void') return loadInvoiceView(tx, id);
    if (current.status !== 'Open') throw invalidTransition('invoice', current.status, 'void');
    const voided = await updateInvoice(tx, id, { status: 'Void', voidedAt: options.at });
    await postInvoiceVoided(tx, voided, options.at);
    await returnWalletDrawdown(tx, voided, options.at);
    const creditedToBalance = (await creditNotesOf(tx, id)).reduce((sum, note) => sum + fromDecimal(note.creditAmountNanos), 0n);
    await reverseCustomerBalanceOfVoidedInvoice(tx, voided, creditedToBalance, options.at);
    await enqueueEvent(tx, 'invoice.voided', id, {
      invoice_id: id,
      customer_id: voided.customerId,
      invoice_number: voided.invoiceNumber,
      reason: options.reason ?? null,
    }, options.at);
    await recordAudit(tx, {
      action: 'invoice.voided',
      actor: options.actor,
      entityType: 'invoice',
      entityId: id,
      customerId: voided.customerId,
      before: { status: 'Open' },
      after: { status: 'Void', reason: options.reason ?? null },
      ...(options.requestId ? { requestId: options.requestId } : {}),
    });
    return loadInvoiceView(tx, id);
  });
}
