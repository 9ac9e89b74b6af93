/**
 * Edits of a Draft invoice (SPEC §2 Invoice: "Draft invoices accept added line items and applied
 * credits"): manual lines, applied credits and an on-demand tax calculation. Each is one
 * transaction that starts with `lockDraft`, the row lock finalization also takes, so an edit either
 * lands before the invoice is finalized or is refused with 409 invalid_state_transition after it.
 *
 * Totals stay exact raw units. A Draft's total never goes below zero by an edit: credits may not
 * exceed subtotal + tax (422 credit_exceeds_invoice), and a negative manual line (an adjustment) may
 * not take the total below zero (422 negative_invoice_total); money owed back after finalization is a
 * credit note's job.
 */
import { lineAmount, MONEY_LIMIT, parseQuantity } from '../../core/index.js';
import type { Db } from '../../db/client.js';
import { getInvoice, insertLine, lockDraft, recomputeTotals, type InvoiceRow } from '../../db/invoices.js';
import { fromDecimal } from '../../db/money.js';
import { recordAudit, type Actor } from '../audit.js';
import { DomainError, validation } from '../../errors.js';
import { loadInvoiceView } from './invoices.js';
import type { InvoiceView } from '../../schemas/invoicing.js';
import { applyTax, type TaxAdapter } from '../billing/tax.js';

export interface EditContext {
  actor: Actor;
  requestId?: string;
}

export interface ManualLineInput {
  description: string;
  amountNanos: bigint;
  /** Decimal string, default "1". */
  quantity?: string;
  /** When given, amountNanos must be quantity × unitAmountNanos (rounded HalfEven to a raw unit). */
  unitAmountNanos?: bigint | null;
}

export interface CreditInput {
  description: string;
  /** Positive; stored as a credit line of −amountNanos. */
  amountNanos: bigint;
}

const totalsOf = (invoice: InvoiceRow) => ({
  subtotal_nanos: invoice.subtotalNanos.toFixed(0),
  tax_nanos: invoice.taxNanos.toFixed(0),
  credits_applied_nanos: invoice.creditsAppliedNanos.toFixed(0),
  total_nanos: invoice.totalNanos.toFixed(0),
});

const audit = (context: EditContext) => ({ actor: context.actor, ...(context.requestId ? { requestId: context.requestId } : {}) });

/** Refuses a line whose sums would not fit DECIMAL(38,0), instead of failing in the database. */
function assertSumsFit(invoice: InvoiceRow, line: { kind: 'manual' | 'credit'; amountNanos: bigint }): void {
  const credit = line.kind === 'credit';
  const subtotal = fromDecimal(invoice.subtotalNanos) + (credit ? 0n : line.amountNanos);
  const credits = fromDecimal(invoice.creditsAppliedNanos) - (credit ? line.amountNanos : 0n);
  const total = fromDecimal(invoice.totalNanos) + line.amountNanos;
  if ([subtotal, credits, total].some((v) => v >= MONEY_LIMIT || v <= -MONEY_LIMIT)) {
    throw new DomainError('unprocessable', 'amount_out_of_range', 'the invoice totals would not fit DECIMAL(38,0)');
  }
}

/** Adds a `manual` line to a Draft. A negative amount is an adjustment (for example a discount). */
export async function addManualLine(db: Db, invoiceId: string, input: ManualLineInput, context: EditContext): Promise<InvoiceView> {
  const quantity = input.quantity ?? '1';
  const unitAmount = input.unitAmountNanos ?? null;
  if (unitAmount !== null) {
    const expected = lineAmount(parseQuantity(quantity), unitAmount);
    if (expected !== input.amountNanos) {
      throw new DomainError('unprocessable', 'line_amount_mismatch', `amount_nanos must be quantity × unit_amount_nanos = ${expected}`, {
        expected_amount_nanos: expected.toString(),
      });
    }
  }
  return db.$transaction(async (tx) => {
    const before = await lockDraft(tx, invoiceId, 'add a line item to');
    assertSumsFit(before, { kind: 'manual', amountNanos: input.amountNanos });
    const lineId = await insertLine(tx, invoiceId, {
      kind: 'manual',
      description: input.description,
      amountNanos: input.amountNanos,
      quantity,
      unitAmountNanos: unitAmount,
    });
    const after = await recomputeTotals(tx, invoiceId);
    if (input.amountNanos < 0n && fromDecimal(after.totalNanos) < 0n) {
      throw new DomainError('unprocessable', 'negative_invoice_total', 'the adjustment would take the invoice total below zero', {
        total_nanos: before.totalNanos.toFixed(0),
      });
    }
    await recordAudit(tx, {
      action: 'invoice.line_item_added',
      entityType: 'invoice',
      entityId: invoiceId,
      customerId: before.customerId,
      before: totalsOf(before),
      after: { ...totalsOf(after), line_item_id: lineId, kind: 'manual', amount_nanos: input.amountNanos.toString(), quantity },
      ...audit(context),
    });
    return loadInvoiceView(tx, invoiceId);
  });
}

/** Applies a credit to a Draft: a `credit` line of −amount; credits never exceed subtotal + tax. */
export async function applyCredit(db: Db, invoiceId: string, input: CreditInput, context: EditContext): Promise<InvoiceView> {
  if (input.amountNanos <= 0n) throw validation('amount_nanos', 'must be greater than zero');
  return db.$transaction(async (tx) => {
    const before = await lockDraft(tx, invoiceId, 'apply a credit to');
    const available = fromDecimal(before.totalNanos);
    if (input.amountNanos > available) {
      throw new DomainError('unprocessable', 'credit_exceeds_invoice', 'credits would exceed the invoice subtotal plus tax', {
        available_nanos: (available > 0n ? available : 0n).toString(),
      });
    }
    assertSumsFit(before, { kind: 'credit', amountNanos: -input.amountNanos });
    const lineId = await insertLine(tx, invoiceId, {
      kind: 'credit',
      description: input.description,
      amountNanos: -input.amountNanos,
      quantity: '1',
      unitAmountNanos: null,
    });
    const after = await recomputeTotals(tx, invoiceId);
    await recordAudit(tx, {
      action: 'invoice.credit_applied',
      entityType: 'invoice',
      entityId: invoiceId,
      customerId: before.customerId,
      before: totalsOf(before),
      after: { ...totalsOf(after), line_item_id: lineId, amount_nanos: (-input.amountNanos).toString() },
      ...audit(context),
    });
    return loadInvoiceView(tx, invoiceId);
  });
}

/**
 * Runs the tax adapter on a Draft now (finalization runs it again, so the finalized tax always
 * reflects the final lines). Replaces earlier tax lines: repeating it changes nothing.
 */
export async function calculateInvoiceTax(db: Db, invoiceId: string, adapter: TaxAdapter, context: EditContext): Promise<InvoiceView> {
  return db.$transaction(async (tx) => {
    const before = await lockDraft(tx, invoiceId, 'calculate tax for');
    await applyTax(tx, before, adapter);
    const after = await getInvoice(tx, invoiceId);
    await recordAudit(tx, {
      action: 'invoice.tax_calculated',
      entityType: 'invoice',
      entityId: invoiceId,
      customerId: before.customerId,
      before: { ...totalsOf(before), tax_adapter: before.taxAdapter },
      after: { ...totalsOf(after), tax_adapter: after.taxAdapter },
      ...audit(context),
    });
    return loadInvoiceView(tx, invoiceId);
  });
}
