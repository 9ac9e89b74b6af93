/**
 * Invoice repository: invoice rows and their lines, stored totals, the gapless document counters,
 * the row lock every state change and Draft edit takes, and the billing group's Draft (its advisory
 * lock and lookup).
 *
 * Totals: subtotal = Σ non-tax, non-credit lines; tax = Σ tax lines; credits = −Σ credit lines;
 * total = subtotal + tax − credits, all exact raw units.
 */
import { Prisma, type Invoice, type InvoiceLineItem, type InvoiceStatus } from '../generated/prisma/client.js';
import { invalidTransition, notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { DbClient } from './client.js';
import { fromDecimal, toDecimal } from './money.js';
import { NEWEST_FIRST, pageWhere, type PageQuery } from './pages.js';
import { col, executeStatement, jsonParam, modelRowById, modelRows, modelTable, runStatement, statement } from './sql.js';

export type InvoiceRow = Invoice;
export type InvoiceLineRow = InvoiceLineItem;
export type InvoiceWithLines = InvoiceRow & { lines: InvoiceLineRow[] };

const LINE_ORDER = [{ createdAt: 'asc' as const }, { id: 'asc' as const }];

// ── Reads ────────────────────────────────────────────────────────────────────────────────────

/** The invoices table as the Invoice model (read on the hot paths of a period close and a finalization without Prisma). */
const INVOICES = modelTable<Invoice>('invoices', {
  id: col.text('id'),
  customerId: col.text('customer_id'),
  subscriptionId: col.textOrNull('subscription_id'),
  currency: col.text('currency'),
  status: col.label<InvoiceStatus>('status'),
  invoiceNumber: col.textOrNull('invoice_number'),
  billingReason: col.text('billing_reason'),
  periodStart: col.timeOrNull('period_start'),
  periodEnd: col.timeOrNull('period_end'),
  subtotalNanos: col.decimal('subtotal_nanos'),
  taxNanos: col.decimal('tax_nanos'),
  creditsAppliedNanos: col.decimal('credits_applied_nanos'),
  totalNanos: col.decimal('total_nanos'),
  creditedNanos: col.decimal('credited_nanos'),
  walletAppliedNanos: col.decimal('wallet_applied_nanos'),
  dueReducedNanos: col.decimal('due_reduced_nanos'),
  customerBalanceAppliedNanos: col.decimal('customer_balance_applied_nanos'),
  taxAdapter: col.textOrNull('tax_adapter'),
  testClockId: col.textOrNull('test_clock_id'),
  dueAt: col.timeOrNull('due_at'),
  finalizedAt: col.timeOrNull('finalized_at'),
  paidAt: col.timeOrNull('paid_at'),
  paidByActorId: col.textOrNull('paid_by_actor_id'),
  paidByActorName: col.textOrNull('paid_by_actor_name'),
  paidReference: col.textOrNull('paid_reference'),
  voidedAt: col.timeOrNull('voided_at'),
  billingError: col.jsonOrNull('billing_error'),
  metadata: col.json('metadata'),
  createdAt: col.time('created_at'),
  updatedAt: col.time('updated_at'),
});
const INVOICE_BY_ID = statement(`${INVOICES.select('i')} WHERE i.id = $1::uuid`);
const DRAFT_OF_GROUP = statement(
  `${INVOICES.select('i')} WHERE i.customer_id = $1::uuid AND i.currency = $2 AND i.period_start = $3 AND i.period_end = $4 AND i.status = 'Draft' LIMIT 1`,
);
const LOCK_INVOICE = statement('SELECT id FROM invoices WHERE id = $1::uuid FOR UPDATE');
const SHARE_LOCK_INVOICE_SUBSCRIPTIONS = statement(`
    SELECT 1 FROM subscriptions
     WHERE id IN (SELECT subscription_id FROM invoices WHERE id = $1::uuid
                  UNION SELECT subscription_id FROM invoice_line_items WHERE invoice_id = $1::uuid)
     ORDER BY id FOR KEY SHARE`);

export function findInvoice(tx: DbClient, id: string): Promise<InvoiceRow | null> {
  return modelRowById(tx, INVOICES, INVOICE_BY_ID, id);
}

/** An invoice known to exist (locked, or just written in this transaction). */
export async function getInvoice(tx: DbClient, id: string): Promise<InvoiceRow> {
  const invoice = await findInvoice(tx, id);
  if (invoice === null) throw notFound('invoice', id);
  return invoice;
}

/** Sets (or clears, with null) the billing error shown on the invoice; the row before, or null when it does not exist. */
export async function setInvoiceBillingError(tx: DbClient, id: string, error: Prisma.InputJsonValue | null): Promise<InvoiceRow | null> {
  const before = await tx.invoice.findUnique({ where: { id } });
  if (!before) return null;
  await tx.invoice.update({ where: { id }, data: { billingError: error === null ? Prisma.DbNull : error } });
  return before;
}

export function findInvoiceWithLines(tx: DbClient, id: string): Promise<InvoiceWithLines | null> {
  return tx.invoice.findUnique({ where: { id }, include: { lines: { orderBy: LINE_ORDER } } });
}

export interface InvoiceFilter {
  customerId?: string | undefined;
  status?: InvoiceStatus | undefined;
  /** Invoices with a line of this subscription (a consolidated invoice carries several). */
  subscriptionId?: string | undefined;
  currency?: string | undefined;
  /** The invoice numbered so (INV-######): at most one. */
  invoiceNumber?: string | undefined;
}

const SUMMARY = { lines: { where: { kind: 'spend_cap' }, select: { kind: true, amountNanos: true } }, _count: { select: { lines: true } } } as const;

/** An invoice as a list shows it: its row, its spend_cap lines only, and how many lines it has. */
export type InvoiceSummaryRow = Prisma.InvoiceGetPayload<{ include: typeof SUMMARY }>;

/** One page, newest first: up to `limit + 1` invoice summaries, the extra one telling there are more. */
export function listInvoiceSummaries(tx: DbClient, filter: InvoiceFilter, page: PageQuery): Promise<InvoiceSummaryRow[]> {
  return tx.invoice.findMany({
    where: {
      ...(filter.customerId ? { customerId: filter.customerId } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.currency ? { currency: filter.currency } : {}),
      ...(filter.invoiceNumber ? { invoiceNumber: filter.invoiceNumber } : {}),
      ...(filter.subscriptionId ? { lines: { some: { subscriptionId: filter.subscriptionId } } } : {}),
      ...pageWhere(page),
    },
    orderBy: NEWEST_FIRST,
    take: page.limit + 1,
    include: SUMMARY,
  });
}

/** The status and addressee of an invoice, or null when it does not exist. */
export function findInvoiceStatus(tx: DbClient, id: string): Promise<{ status: InvoiceStatus; customerId: string } | null> {
  return tx.invoice.findUnique({ where: { id }, select: { status: true, customerId: true } });
}

/** What an invoice's workflow is started with and found by (status, search attributes, memo). */
export function findInvoiceWorkflowFacts(tx: DbClient, id: string) {
  return tx.invoice.findUnique({
    where: { id },
    select: { status: true, customerId: true, subscriptionId: true, invoiceNumber: true, testClockId: true, currency: true },
  });
}

/** The frozen time of the invoice's test clock; null when it is on none (or does not exist). */
export async function invoiceClockTime(tx: DbClient, invoiceId: string): Promise<Date | null> {
  const invoice = await tx.invoice.findUnique({ where: { id: invoiceId }, select: { testClockId: true } });
  const clock = invoice?.testClockId ? await tx.testClock.findUnique({ where: { id: invoice.testClockId } }) : null;
  return clock?.frozenTime ?? null;
}

/**
 * The finalized (Open or Paid) invoices of a billing group's period other than `excludeId`,
 * newest first.
 */
export function finalizedInvoicesOfPeriod(
  tx: DbClient,
  group: { excludeId: string; customerId: string; currency: string; periodStart: Date; periodEnd: Date },
): Promise<InvoiceRow[]> {
  return tx.invoice.findMany({
    where: {
      id: { not: group.excludeId },
      customerId: group.customerId,
      currency: group.currency,
      periodStart: group.periodStart,
      periodEnd: group.periodEnd,
      status: { in: ['Open', 'Paid'] },
    },
    orderBy: { id: 'desc' },
  });
}

// ── Locks ────────────────────────────────────────────────────────────────────────────────────

/**
 * Locks the invoice row for a move (finalize, pay, void, refund, credit note) for the rest of the
 * transaction and returns it.
 *
 * The subscriptions it bills are share-locked first (FOR KEY SHARE, which only a subscription's
 * FOR UPDATE waits for: ingestion's share locks and updates pass), in the order billing takes them
 * (a subscription FOR UPDATE, then its Draft). Taken later, under the invoice lock, they close a
 * cycle with a billing that holds the subscription and waits for this invoice (40P01): the second
 * update of an invoice row in one transaction re-checks its foreign key to the subscription (FOR
 * KEY SHARE), and a payment advances its subscriptions' charged_through_date.
 */
export async function lockInvoice(tx: DbClient, id: string): Promise<InvoiceRow> {
  await runStatement(tx, SHARE_LOCK_INVOICE_SUBSCRIPTIONS, [id]);
  return lockInvoiceInBillingGroup(tx, id);
}

/**
 * Locks the invoice row for billing, which holds its subscription (FOR UPDATE) and its billing
 * group's lock already: the group lock orders the group's billers, so the group's other
 * subscriptions are not share-locked here (a biller of one of them holds it while it waits for
 * the group).
 */
export async function lockInvoiceInBillingGroup(tx: DbClient, id: string): Promise<InvoiceRow> {
  if ((await runStatement(tx, LOCK_INVOICE, [id])).length === 0) throw notFound('invoice', id);
  return getInvoice(tx, id);
}

/** Locks a Draft for an edit; any other state refuses `action`. */
export async function lockDraft(tx: DbClient, id: string, action: string): Promise<InvoiceRow> {
  const invoice = await lockInvoice(tx, id);
  if (invoice.status !== 'Draft') throw invalidTransition('invoice', invoice.status, action);
  return invoice;
}

// ── Totals and numbering ─────────────────────────────────────────────────────────────────────

/** Recomputes the stored totals of a Draft from its lines. */
export async function recomputeTotals(tx: DbClient, invoiceId: string, also: { taxAdapter?: string } = {}): Promise<InvoiceRow> {
  const lines = await tx.invoiceLineItem.findMany({ where: { invoiceId }, select: { kind: true, amountNanos: true, isTax: true } });
  return writeTotals(tx, invoiceId, lines.map((line) => ({ kind: line.kind, amountNanos: fromDecimal(line.amountNanos), isTax: line.isTax })), also);
}

/** What an invoice's totals are made of: each line's kind, amount and whether it is tax. */
export interface TotalledLine {
  kind: string;
  amountNanos: bigint;
  isTax: boolean;
}

/** A line about to be written, as it counts in the totals (a `tax` line is stored as tax). */
export const totalledLine = (line: NewLine): TotalledLine => ({ kind: line.kind, amountNanos: line.amountNanos, isTax: line.kind === 'tax' });

/** An invoice's totals from all its lines: subtotal (charges), tax, credits applied, total. */
function totalsOf(lines: readonly TotalledLine[]) {
  let subtotal = 0n;
  let tax = 0n;
  let credits = 0n;
  for (const line of lines) {
    if (line.isTax) tax += line.amountNanos;
    else if (line.kind === 'credit') credits -= line.amountNanos;
    else subtotal += line.amountNanos;
  }
  return {
    subtotalNanos: toDecimal(subtotal),
    taxNanos: toDecimal(tax),
    creditsAppliedNanos: toDecimal(credits),
    totalNanos: toDecimal(subtotal + tax - credits),
  };
}

/** Writes the totals of `lines`, which must be all the invoice's lines (a caller that just wrote them knows them). */
export function writeTotals(tx: DbClient, invoiceId: string, lines: readonly TotalledLine[], also: { taxAdapter?: string } = {}): Promise<InvoiceRow> {
  return tx.invoice.update({ where: { id: invoiceId }, data: { ...totalsOf(lines), ...also } });
}

/**
 * Draft → Open with the next gapless invoice number, in ONE statement: the counter's row lock, which
 * serialises every finalization until its transaction commits, is taken by the last write of the
 * finalization but its outbox and audit entries, so concurrent finalizations queue on it for a few
 * round trips instead of the whole finalization. Answers the number (INV- and at least 6 digits).
 */
export async function openInvoiceWithNextNumber(tx: DbClient, id: string, dates: { finalizedAt: Date; dueAt: Date }): Promise<string> {
  const rows = await tx.$queryRaw<{ invoice_number: string }[]>`
    WITH counter AS (UPDATE document_counters SET value = value + 1 WHERE name = 'invoice' RETURNING value)
    UPDATE invoices
       SET status = 'Open'::"InvoiceStatus",
           invoice_number = 'INV-' || CASE WHEN counter.value < 1000000 THEN lpad(counter.value::text, 6, '0') ELSE counter.value::text END,
           finalized_at = ${dates.finalizedAt},
           due_at = ${dates.dueAt},
           updated_at = ${new Date()}
      FROM counter
     WHERE invoices.id = ${id}::uuid AND invoices.status = 'Draft'::"InvoiceStatus"
 RETURNING invoices.invoice_number`;
  if (rows.length === 0) throw new Error(`invoice ${id} is not a Draft to open`);
  return rows[0]!.invoice_number;
}

/** Next value of a gapless counter; the row lock serialises concurrent finalizations. */
export async function nextDocumentNumber(tx: DbClient, counter: 'invoice' | 'credit_note'): Promise<bigint> {
  const rows = await tx.$queryRaw<{ value: bigint }[]>`
    UPDATE document_counters SET value = value + 1 WHERE name = ${counter} RETURNING value`;
  return rows[0]!.value;
}

/**
 * What is left to pay on a finalized invoice: total − the credit notes' amount due reductions −
 * wallet credit and customer balance applied at finalization.
 */
export const amountDueOf = (invoice: InvoiceRow): bigint =>
  fromDecimal(invoice.totalNanos) - fromDecimal(invoice.dueReducedNanos) - fromDecimal(invoice.walletAppliedNanos) - fromDecimal(invoice.customerBalanceAppliedNanos);

// ── Writes ───────────────────────────────────────────────────────────────────────────────────

export interface InvoiceChanges {
  status?: InvoiceStatus;
  invoiceNumber?: string;
  billingReason?: string;
  subscriptionId?: string | null;
  taxAdapter?: string;
  creditedNanos?: bigint;
  walletAppliedNanos?: bigint;
  dueReducedNanos?: bigint;
  customerBalanceAppliedNanos?: bigint;
  dueAt?: Date;
  finalizedAt?: Date;
  paidAt?: Date;
  paidByActorId?: string;
  paidByActorName?: string | null;
  paidReference?: string | null;
  voidedAt?: Date;
  metadata?: Record<string, string>;
}

export function updateInvoice(tx: DbClient, id: string, changes: InvoiceChanges): Promise<InvoiceRow> {
  const { creditedNanos, walletAppliedNanos, dueReducedNanos, customerBalanceAppliedNanos, ...rest } = changes;
  return tx.invoice.update({
    where: { id },
    data: {
      ...rest,
      ...(creditedNanos === undefined ? {} : { creditedNanos: toDecimal(creditedNanos) }),
      ...(walletAppliedNanos === undefined ? {} : { walletAppliedNanos: toDecimal(walletAppliedNanos) }),
      ...(dueReducedNanos === undefined ? {} : { dueReducedNanos: toDecimal(dueReducedNanos) }),
      ...(customerBalanceAppliedNanos === undefined ? {} : { customerBalanceAppliedNanos: toDecimal(customerBalanceAppliedNanos) }),
    },
  });
}

export interface NewLine {
  kind: 'fee' | 'usage' | 'minimum' | 'manual' | 'credit' | 'tax' | 'true_up' | 'contract_fee' | 'spend_cap';
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
  /** How the amount came to be beyond `detail` (plan phase, meter, window, events counted); see GET /v1/invoices/:id/explain. */
  pricingTrace?: Prisma.InputJsonValue;
  /** A dimensional SKU's line: the dimension value it bills ({} for the `other` bucket). */
  dimensions?: Readonly<Record<string, string | null>> | null;
}

const INSERT_LINES = statement(
  `INSERT INTO invoice_line_items (id, invoice_id, kind, description, amount_nanos, quantity, unit_amount_nanos, is_tax, sku_id, plan_id,
                                   subscription_id, customer_id, customer_name, period_start, period_end, detail, pricing_trace, dimensions, created_at)
   SELECT l.id, $18::uuid, l.kind, l.description, l.amount_nanos, l.quantity, l.unit_amount_nanos, l.is_tax, l.sku_id, l.plan_id,
          l.subscription_id, l.customer_id, l.customer_name, l.period_start, l.period_end, l.detail, l.pricing_trace, l.dimensions, $19::timestamptz
     FROM unnest($1::uuid[], $2::text[], $3::text[], $4::numeric[], $5::text[], $6::numeric[], $7::bool[], $8::uuid[], $9::uuid[],
                 $10::uuid[], $11::uuid[], $12::text[], $13::timestamptz[], $14::timestamptz[], $15::jsonb[], $16::jsonb[], $17::jsonb[])
          AS l (id, kind, description, amount_nanos, quantity, unit_amount_nanos, is_tax, sku_id, plan_id, subscription_id, customer_id,
                customer_name, period_start, period_end, detail, pricing_trace, dimensions)`,
);

/** Inserts the lines in their order (their ids ascend with it); returns their ids. */
export async function insertLines(tx: DbClient, invoiceId: string, lines: readonly NewLine[]): Promise<string[]> {
  if (lines.length === 0) return [];
  const ids = lines.map(() => newId());
  const column = <T>(pick: (line: NewLine) => T) => lines.map(pick);
  await executeStatement(tx, INSERT_LINES, [
    ids,
    column((l) => l.kind),
    column((l) => l.description),
    column((l) => l.amountNanos.toString()),
    column((l) => l.quantity ?? '1'),
    column((l) => (l.unitAmountNanos === undefined || l.unitAmountNanos === null ? null : l.unitAmountNanos.toString())),
    column((l) => totalledLine(l).isTax),
    column((l) => l.skuId ?? null),
    column((l) => l.planId ?? null),
    column((l) => l.subscriptionId ?? null),
    column((l) => l.customerId ?? null),
    column((l) => l.customerName ?? null),
    column((l) => l.periodStart ?? null),
    column((l) => l.periodEnd ?? null),
    column((l) => jsonParam(l.detail)),
    column((l) => jsonParam(l.pricingTrace)),
    column((l) => jsonParam(l.dimensions)),
    invoiceId,
    // created_at as Prisma's @default(now()) sets it for a createMany: the writer's clock, one instant for all.
    new Date(),
  ]);
  return ids;
}

/** Inserts one line and returns its id. */
export async function insertLine(tx: DbClient, invoiceId: string, line: NewLine): Promise<string> {
  const [id] = await insertLines(tx, invoiceId, [line]);
  return id!;
}

// ── Tax lines ────────────────────────────────────────────────────────────────────────────────

export async function deleteTaxLines(tx: DbClient, invoiceId: string): Promise<void> {
  await tx.invoiceLineItem.deleteMany({ where: { invoiceId, isTax: true } });
}

/** An invoice's lines in line order, as tax is computed on them. */
export async function linesForTax(tx: DbClient, invoiceId: string): Promise<(TotalledLine & { id: string; description: string })[]> {
  const lines = await tx.invoiceLineItem.findMany({ where: { invoiceId }, orderBy: LINE_ORDER, select: { id: true, description: true, amountNanos: true, isTax: true, kind: true } });
  return lines.map((l) => ({ id: l.id, description: l.description, kind: l.kind, amountNanos: fromDecimal(l.amountNanos), isTax: l.isTax }));
}

// ── Billing groups ───────────────────────────────────────────────────────────────────────────

/** The account, currency and period one Draft collects charges for. */
export interface BillingGroup {
  customerId: string;
  currency: string;
  periodStart: Date;
  periodEnd: Date;
}

const LOCK_BILLING_GROUP = statement('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))');

/** Serialises billing into one group for the rest of the transaction (a transaction-scoped advisory lock). */
export async function lockBillingGroup(tx: DbClient, group: BillingGroup): Promise<void> {
  const key = `billing-group:${group.customerId}:${group.currency}:${group.periodStart.toISOString()}:${group.periodEnd.toISOString()}`;
  await runStatement(tx, LOCK_BILLING_GROUP, [key]);
}

export async function findDraftOfGroup(tx: DbClient, group: BillingGroup): Promise<InvoiceRow | null> {
  return (await modelRows(tx, INVOICES, DRAFT_OF_GROUP, [group.customerId, group.currency, group.periodStart, group.periodEnd]))[0] ?? null;
}

const INSERT_DRAFT = statement(
  `INSERT INTO invoices (id, customer_id, subscription_id, currency, billing_reason, period_start, period_end, test_clock_id,
                         subtotal_nanos, tax_nanos, credits_applied_nanos, total_nanos, created_at, updated_at)
   VALUES ($1::uuid, $2::uuid, $3::uuid, $4, $5, $6, $7, $8::uuid, $9::numeric, $10::numeric, $11::numeric, $12::numeric, $13, $14)
   RETURNING ${INVOICES.returning}`,
);

/**
 * A new Draft with its lines, created with their totals; `createdAt` (a test clock's time)
 * overrides the wall-clock default.
 */
export async function insertDraft(
  tx: DbClient,
  draft: BillingGroup & { id: string; subscriptionId: string; billingReason: string; testClockId: string | null; createdAt?: Date | undefined },
  lines: readonly NewLine[],
): Promise<InvoiceRow> {
  const totals = totalsOf(lines.map(totalledLine));
  // created_at and updated_at as Prisma's @default(now()) and @updatedAt set them: the writer's clock.
  const now = new Date();
  const [row] = await runStatement<Record<string, unknown>>(tx, INSERT_DRAFT, [
    draft.id,
    draft.customerId,
    draft.subscriptionId,
    draft.currency,
    draft.billingReason,
    draft.periodStart,
    draft.periodEnd,
    draft.testClockId,
    totals.subtotalNanos.toFixed(0),
    totals.taxNanos.toFixed(0),
    totals.creditsAppliedNanos.toFixed(0),
    totals.totalNanos.toFixed(0),
    draft.createdAt ?? now,
    now,
  ]);
  await insertLines(tx, draft.id, lines);
  return INVOICES.decode(row!);
}


/**
 * A subscription period now ends at `newEnd` (cut short): each Draft holding its lines follows. A
 * Draft with no other subscription's lines is moved to the new period (its billing group's key);
 * from a Draft shared with other subscriptions its lines are taken off, to be billed anew on the
 * Draft of the new period. Returns the Drafts it changed.
 */
export async function repointPeriodDrafts(tx: DbClient, subscriptionId: string, periodStart: Date, newEnd: Date): Promise<string[]> {
  const drafts = await tx.invoice.findMany({
    where: { status: 'Draft', lines: { some: { subscriptionId, periodStart } } },
    select: { id: true, periodEnd: true },
  });
  for (const draft of drafts) {
    const shared = await tx.invoiceLineItem.count({ where: { invoiceId: draft.id, subscriptionId: { not: null }, NOT: { subscriptionId } } });
    if (shared === 0) {
      await tx.invoice.update({ where: { id: draft.id }, data: { periodEnd: newEnd } });
      await tx.invoiceLineItem.updateMany({ where: { invoiceId: draft.id, subscriptionId, periodStart }, data: { periodEnd: newEnd } });
    } else {
      await deleteRebilledLines(tx, draft.id, subscriptionId, periodStart);
      await recomputeTotals(tx, draft.id);
    }
  }
  return drafts.map((draft) => draft.id);
}

/** The lines a refresh of a subscription's period replaces on a Draft (deleteRebilledLines' fee and usage lines). */
export function rebilledLinesOf(tx: DbClient, invoiceId: string, subscriptionId: string, periodStart: Date): Promise<InvoiceLineRow[]> {
  return tx.invoiceLineItem.findMany({ where: { invoiceId, subscriptionId, periodStart, kind: { in: ['fee', 'usage', 'minimum'] } } });
}

/** Removes a Draft's tax lines and the fee and usage lines it carries for one subscription's period (before they are billed anew). */
export async function deleteRebilledLines(tx: DbClient, invoiceId: string, subscriptionId: string, periodStart: Date): Promise<void> {
  await tx.invoiceLineItem.deleteMany({
    where: { invoiceId, OR: [{ kind: 'tax' }, { subscriptionId, periodStart, kind: { in: ['fee', 'usage', 'minimum'] } }] },
  });
}

/** Per SKU, the quantities and the amount finalized (Open/Paid) invoices charged a subscription's period. */
export async function billedInPeriod(tx: DbClient, subscriptionId: string, periodStart: Date): Promise<BilledSkuRow[]> {
  const rows = await tx.$queryRaw<{ sku_id: string; dimensions: Record<string, string | null> | null; quantity: string[]; amount: Prisma.Decimal }[]>`
    SELECT CASE WHEN l.kind = 'minimum' THEN l.sku_id::text || ':minimum' ELSE l.sku_id::text END AS sku_id, l.dimensions,
           array_agg(l.quantity) AS quantity, sum(l.amount_nanos) AS amount
    FROM invoice_line_items l JOIN invoices i ON i.id = l.invoice_id
    WHERE l.subscription_id = ${subscriptionId}::uuid AND l.period_start = ${periodStart}
      AND i.status IN ('Open', 'Paid') AND l.kind IN ('fee', 'usage', 'minimum') AND l.sku_id IS NOT NULL
    GROUP BY 1, 2`;
  return rows.map((row) => ({ skuId: row.sku_id, dimensions: row.dimensions, quantities: row.quantity, amountNanos: fromDecimal(row.amount) }));
}

/** What invoices billed of one SKU (per dimension value of a dimensional SKU; "<sku_id>:minimum" for its minimum true-ups). */
export interface BilledSkuRow {
  skuId: string;
  dimensions: Record<string, string | null> | null;
  quantities: string[];
  amountNanos: bigint;
}
