/**
 * Invoices: views, totals, and every state change of an invoice. The invoice workflow calls the
 * state changes (finalize, pay, void) through activities; Draft edits (lines, credits) are plain
 * transactions guarded by a row lock on the invoice, the same lock finalization takes.
 *
 * Totals: subtotal = Σ non-tax, non-credit lines; tax = Σ tax lines; credits = −Σ credit lines;
 * total = subtotal + tax − credits. All exact raw units; the display strings (`total` next to
 * `total_nanos`) are the one rounding, HalfEven to the currency's minor unit, made at output.
 */
import { toDisplay } from '../core/index.js';
import type { Invoice, InvoiceLineItem, Prisma } from '../generated/prisma/client.js';
import type { Db } from '../db/client.js';
import { fromDecimal, toDecimal } from '../db/money.js';
import { newId } from '../ids.js';
import { toPage } from './pagination.js';
import { recordAudit, SYSTEM_ACTOR, type Actor } from './audit.js';
import { creditInvoice } from './credit-notes.js';
import { DomainError, invalidTransition, notFound } from './errors.js';
import { enqueueEvent } from './outbox.js';

type Tx = Prisma.TransactionClient;

export interface InvoiceLineView {
  id: string;
  kind: string;
  description: string;
  sku_id: string | null;
  plan_id: string | null;
  subscription_id: string | null;
  customer_id: string | null;
  customer_name: string | null;
  quantity: string;
  unit_amount_nanos: string | null;
  amount_nanos: string;
  amount: string;
  is_tax: boolean;
  period_start: string | null;
  period_end: string | null;
  detail: unknown;
}

export interface InvoiceView {
  id: string;
  status: Invoice['status'];
  invoice_number: string | null;
  customer_id: string;
  subscription_id: string | null;
  currency: string;
  billing_reason: string;
  period_start: string | null;
  period_end: string | null;
  subtotal_nanos: string;
  tax_nanos: string;
  credits_applied_nanos: string;
  total_nanos: string;
  credited_nanos: string;
  amount_due_nanos: string;
  subtotal: string;
  tax: string;
  total: string;
  amount_due: string;
  tax_adapter: string | null;
  due_at: string | null;
  finalized_at: string | null;
  paid_at: string | null;
  paid_by: { actor_id: string; actor_name: string | null } | null;
  voided_at: string | null;
  created_at: string;
  line_items: InvoiceLineView[];
}

const iso = (d: Date | null): string | null => d?.toISOString() ?? null;

export function toInvoiceView(invoice: Invoice, lines: InvoiceLineItem[]): InvoiceView {
  const display = (raw: bigint) => toDisplay(raw, invoice.currency).text;
  const total = fromDecimal(invoice.totalNanos);
  const amountDue = invoice.status === 'Open' ? total - fromDecimal(invoice.creditedNanos) : 0n;
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
    total_nanos: total.toString(),
    credited_nanos: invoice.creditedNanos.toFixed(0),
    amount_due_nanos: amountDue.toString(),
    subtotal: display(fromDecimal(invoice.subtotalNanos)),
    tax: display(fromDecimal(invoice.taxNanos)),
    total: display(total),
    amount_due: display(amountDue),
    tax_adapter: invoice.taxAdapter,
    due_at: iso(invoice.dueAt),
    finalized_at: iso(invoice.finalizedAt),
    paid_at: iso(invoice.paidAt),
    paid_by: invoice.paidByActorId ? { actor_id: invoice.paidByActorId, actor_name: invoice.paidByActorName } : null,
    voided_at: iso(invoice.voidedAt),
    created_at: invoice.createdAt.toISOString(),
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
      detail: line.detail,
    })),
  };
}

const LINE_ORDER = [{ createdAt: 'asc' as const }, { id: 'asc' as const }];

export async function loadInvoiceView(db: Db | Tx, id: string, ownCustomerId?: string): Promise<InvoiceView> {
  const invoice = await db.invoice.findUnique({ where: { id }, include: { lines: { orderBy: LINE_ORDER } } });
  if (!invoice || (ownCustomerId !== undefined && invoice.customerId !== ownCustomerId)) throw notFound('invoice', id);
  return toInvoiceView(invoice, invoice.lines);
}

export async function listInvoices(
  db: Db,
  filter: { customer_id?: string | undefined; status?: Invoice['status'] | undefined; subscription_id?: string | undefined },
  page: { limit: number; starting_after?: string | undefined },
) {
  const rows = await db.invoice.findMany({
    where: {
      ...(filter.customer_id ? { customerId: filter.customer_id } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      // A consolidated invoice carries several subscriptions' lines: match any of them.
      ...(filter.subscription_id ? { lines: { some: { subscriptionId: filter.subscription_id } } } : {}),
      ...(page.starting_after ? { id: { gt: page.starting_after } } : {}),
    },
    orderBy: { id: 'asc' },
    take: page.limit + 1,
    include: { lines: { orderBy: LINE_ORDER } },
  });
  return toPage(rows, page.limit, (r) => toInvoiceView(r, r.lines));
}

/** The invoice's own "now": its test clock's time when it is on one, else `realNow`. */
export async function invoiceNow(db: Db | Tx, invoiceId: string, realNow: Date): Promise<Date> {
  const invoice = await db.invoice.findUnique({ where: { id: invoiceId }, select: { testClockId: true } });
  const clock = invoice?.testClockId ? await db.testClock.findUnique({ where: { id: invoice.testClockId } }) : null;
  return clock?.frozenTime ?? realNow;
}

/** Locks the invoice row for the rest of the transaction and returns it. */
export async function lockInvoice(tx: Tx, id: string): Promise<Invoice> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM invoices WHERE id = ${id}::uuid FOR UPDATE`;
  if (rows.length === 0) throw notFound('invoice', id);
  return tx.invoice.findUniqueOrThrow({ where: { id } });
}

export async function lockDraft(tx: Tx, id: string, action: string): Promise<Invoice> {
  const invoice = await lockInvoice(tx, id);
  if (invoice.status !== 'Draft') throw invalidTransition('invoice', invoice.status, action);
  return invoice;
}

/** Recomputes the stored totals of a Draft from its lines. */
export async function recomputeTotals(tx: Tx, invoiceId: string): Promise<Invoice> {
  const lines = await tx.invoiceLineItem.findMany({ where: { invoiceId }, select: { kind: true, amountNanos: true, isTax: true } });
  let subtotal = 0n;
  let tax = 0n;
  let credits = 0n;
  for (const line of lines) {
    const amount = fromDecimal(line.amountNanos);
    if (line.isTax) tax += amount;
    else if (line.kind === 'credit') credits -= amount;
    else subtotal += amount;
  }
  return tx.invoice.update({
    where: { id: invoiceId },
    data: {
      subtotalNanos: toDecimal(subtotal),
      taxNanos: toDecimal(tax),
      creditsAppliedNanos: toDecimal(credits),
      totalNanos: toDecimal(subtotal + tax - credits),
    },
  });
}

export interface NewLine {
  kind: 'fee' | 'usage' | 'manual' | 'credit' | 'tax';
  description: string;
  amountNanos: bigint;
  quantity?: string;
  unitAmountNanos?: bigint | null;
  skuId?: string | null;
  planId?: string | null;
  subscriptionId?: string | null;
  customerId?: string | null;
  customerName?: string | null;
  periodStart?: Date | null;
  periodEnd?: Date | null;
  detail?: Prisma.InputJsonValue;
}

export async function insertLines(tx: Tx, invoiceId: string, lines: NewLine[]): Promise<void> {
  if (lines.length === 0) return;
  await tx.invoiceLineItem.createMany({
    data: lines.map((line) => ({
      id: newId(),
      invoiceId,
      kind: line.kind,
      description: line.description,
      amountNanos: toDecimal(line.amountNanos),
      quantity: line.quantity ?? '1',
      unitAmountNanos: line.unitAmountNanos === undefined || line.unitAmountNanos === null ? null : toDecimal(line.unitAmountNanos),
      isTax: line.kind === 'tax',
      skuId: line.skuId ?? null,
      planId: line.planId ?? null,
      subscriptionId: line.subscriptionId ?? null,
      customerId: line.customerId ?? null,
      customerName: line.customerName ?? null,
      periodStart: line.periodStart ?? null,
      periodEnd: line.periodEnd ?? null,
      ...(line.detail !== undefined ? { detail: line.detail } : {}),
    })),
  });
}

const invoiceNumber = (n: bigint): string => `INV-${n.toString().padStart(6, '0')}`;

/** Next value of a gapless counter; the row lock serialises concurrent finalizations. */
export async function nextDocumentNumber(tx: Tx, counter: 'invoice' | 'credit_note'): Promise<bigint> {
  const rows = await tx.$queryRaw<{ value: bigint }[]>`
    UPDATE document_counters SET value = value + 1 WHERE name = ${counter} RETURNING value`;
  return rows[0]!.value;
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
  options: { actor: Actor; at: Date; applyTax: (tx: Tx, invoice: Invoice) => Promise<void>; requestId?: string },
): Promise<FinalizeResult> {
  return db.$transaction(async (tx) => {
    const current = await lockInvoice(tx, id);
    if (current.status === 'Open' || current.status === 'Paid') return { invoice: await loadInvoiceView(tx, id), alreadyFinalized: true };
    if (current.status !== 'Draft') throw invalidTransition('invoice', current.status, 'finalize');
    await options.applyTax(tx, current);
    const totals = await recomputeTotals(tx, id);
    const customer = await tx.customer.findUniqueOrThrow({ where: { id: current.customerId }, select: { paymentTermsDays: true } });
    const number = invoiceNumber(await nextDocumentNumber(tx, 'invoice'));
    const finalized = await tx.invoice.update({
      where: { id },
      data: {
        status: 'Open',
        invoiceNumber: number,
        finalizedAt: options.at,
        dueAt: new Date(options.at.getTime() + customer.paymentTermsDays * 86_400_000),
      },
    });
    await enqueueEvent(tx, 'invoice.finalized', id, {
      invoice_id: id,
      customer_id: finalized.customerId,
      invoice_number: number,
      total_nanos: finalized.totalNanos.toFixed(0),
      currency: finalized.currency,
    }, options.at);
    await recordAudit(tx, {
      action: 'invoice.finalized',
      actor: options.actor,
      entityType: 'invoice',
      entityId: id,
      customerId: finalized.customerId,
      before: { status: 'Draft' },
      after: { status: 'Open', invoice_number: number, total_nanos: finalized.totalNanos.toFixed(0) },
      ...(options.requestId ? { requestId: options.requestId } : {}),
    });
    const total = fromDecimal(totals.totalNanos);
    if (total < 0n) {
      await applyCredit(tx, finalized, -total, options);
      // Nothing is charged, so no subscription's charged_through_date moves (and this transaction
      // never waits for a subscription row that a concurrent billing holds while it waits for this Draft).
      await settle(tx, finalized, { actor: SYSTEM_ACTOR, paidBy: { actorId: SYSTEM_ACTOR.id, actorName: 'credit applied' }, at: options.at }, false);
    }
    return { invoice: await loadInvoiceView(tx, id), alreadyFinalized: false };
  });
}

/** Applies a credit invoice's credit to its billing group's earlier finalized invoices as credit notes. */
async function applyCredit(tx: Tx, source: Invoice, credit: bigint, options: { actor: Actor; at: Date; requestId?: string }): Promise<void> {
  const refuse = (why: string) =>
    new DomainError('unprocessable', 'negative_invoice_total', `the invoice total is negative and ${why}; issue a credit note instead`, {
      total_nanos: (-credit).toString(),
    });
  if (!source.periodStart || !source.periodEnd) throw refuse('it belongs to no billing period');
  const earlier = await tx.invoice.findMany({
    where: {
      id: { not: source.id },
      customerId: source.customerId,
      currency: source.currency,
      periodStart: source.periodStart,
      periodEnd: source.periodEnd,
      status: { in: ['Open', 'Paid'] },
    },
    orderBy: { id: 'desc' },
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
  at: Date;
  requestId?: string;
}

/** Open → Paid (manual or collected payment). */
export async function markInvoicePaid(db: Db, id: string, payment: PaymentRecord): Promise<InvoiceView> {
  return db.$transaction(async (tx) => {
    const current = await lockInvoice(tx, id);
    if (current.status === 'Paid') return loadInvoiceView(tx, id);
    if (current.status !== 'Open') throw invalidTransition('invoice', current.status, 'pay');
    await settle(tx, current, payment, true);
    return loadInvoiceView(tx, id);
  });
}

/**
 * Marks a locked Open invoice Paid, with its outbox event and audit entry; a charge also advances
 * the charged_through_date of every subscription it bills to the end of the period billed.
 */
async function settle(tx: Tx, invoice: Invoice, payment: PaymentRecord, charged: boolean): Promise<void> {
  const paid = await tx.invoice.update({
    where: { id: invoice.id },
    data: { status: 'Paid', paidAt: payment.at, paidByActorId: payment.paidBy.actorId, paidByActorName: payment.paidBy.actorName },
  });
  if (charged) {
    await tx.$executeRaw`
      UPDATE subscriptions s SET charged_through_date = billed.period_end, updated_at = now()
      FROM (SELECT subscription_id, max(period_end) AS period_end FROM invoice_line_items
            WHERE invoice_id = ${invoice.id}::uuid AND subscription_id IS NOT NULL AND period_end IS NOT NULL
            GROUP BY subscription_id) billed
      WHERE s.id = billed.subscription_id AND (s.charged_through_date IS NULL OR s.charged_through_date < billed.period_end)`;
  }
  const due = fromDecimal(paid.totalNanos) - fromDecimal(paid.creditedNanos);
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
    after: { status: 'Paid', paid_by: { actor_id: payment.paidBy.actorId, actor_name: payment.paidBy.actorName } },
    ...(payment.requestId ? { requestId: payment.requestId } : {}),
  });
}

/** Open → Void. */
export async function voidInvoice(db: Db, id: string, options: { actor: Actor; at: Date; reason?: string; requestId?: string }): Promise<InvoiceView> {
  return db.$transaction(async (tx) => {
    const current = await lockInvoice(tx, id);
    if (current.status === 'Void') return loadInvoiceView(tx, id);
    if (current.status !== 'Open') throw invalidTransition('invoice', current.status, 'void');
    const voided = await tx.invoice.update({ where: { id }, data: { status: 'Void', voidedAt: options.at } });
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
