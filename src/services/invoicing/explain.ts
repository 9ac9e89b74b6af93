/**
 * The explanation of an invoice (GET /v1/invoices/:id/explain): every amount traced. Built only
 * from what the invoice stores: each line's rated detail (tiers, package, commitment, adjustments)
 * and its pricing trace written by the close in the line's transaction (plan phases, proration,
 * contract, meter, filters, window, events counted, billed before), the tax lines' rule, and the
 * invoice's totals and settlement. It reads what a line carries and passes the rest through
 * (`line`, `pricing_trace`), so fields lines gain later show up without a change here. The
 * arithmetic is core/explain.ts.
 */
import { lineAmountSteps, settlementSteps, toDisplay } from '../../core/index.js';
import type { DbClient } from '../../db/client.js';
import { findInvoiceWithLines, type InvoiceLineRow } from '../../db/invoices.js';
import { fromDecimal } from '../../db/money.js';
import { notFound } from '../../errors.js';
import type { InvoiceExplanationView, InvoiceLineView } from '../../schemas/invoicing.js';
import { toInvoiceView } from './invoices.js';

type LineExplanation = InvoiceExplanationView['lines'][number];
type Json = Record<string, unknown>;

const RATED_ROUNDING = 'rated once from exact inputs, rounded HalfEven to a raw unit (10^-12 of the currency unit)';
const TAX_ROUNDING = 'taxable amount × rate_bps / 10,000, rounded HalfEven to a raw unit';
const DISPLAY_ROUNDING = 'display strings (amount, total, …) round the raw amount once, HalfEven, to the currency minor unit, at output; amounts and totals are summed unrounded';

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);
const big = (value: unknown): bigint => (typeof value === 'string' || typeof value === 'number' ? BigInt(value) : 0n);
const arrayOf = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);

function explainLine(row: InvoiceLineRow, view: InvoiceLineView, currency: string, taxAdapter: string | null): LineExplanation {
  const detail = isObject(row.detail) ? row.detail : null;
  const trace = isObject(row.pricingTrace) ? row.pricingTrace : null;
  const amount = fromDecimal(row.amountNanos);
  const rated = detail !== null && typeof detail.list_amount_nanos === 'string';
  const phases = arrayOf(trace?.phases);
  const billedBefore = isObject(trace?.billed_before) ? (trace.billed_before as Json) : null;
  const adjustments = rated ? arrayOf(detail.adjustments) : [];
  const { steps, reconciles } = lineAmountSteps({
    amount_nanos: amount,
    rated: rated ? { list_amount_nanos: big(detail.list_amount_nanos), adjustments: adjustments.map((a) => ({ kind: String(a.kind), amount_nanos: big(a.amount_nanos), description: String(a.description ?? '') })) } : null,
    phases: phases.map((p) => ({ label: `${String(p.plan_name)} (version ${String(p.plan_version)}) from ${String(p.from)} to ${String(p.to)}`, amount_nanos: big(p.amount_nanos) })),
    billed_before_nanos: billedBefore ? big(billedBefore.amount_nanos) : null,
  });
  const isTaxLine = row.isTax && detail !== null && typeof detail.rate_bps === 'number';
  const money = (n: bigint) => n.toString();
  return {
    line_id: row.id,
    kind: row.kind,
    description: row.description,
    quantity: row.quantity,
    amount_nanos: money(amount),
    amount: toDisplay(amount, currency).text,
    pricing_model: rated && typeof detail.pricing_model === 'string' ? detail.pricing_model : null,
    unit_amount_nanos: row.unitAmountNanos?.toFixed(0) ?? null,
    service_period: { start: row.periodStart?.toISOString() ?? null, end: row.periodEnd?.toISOString() ?? null },
    dimensions: isObject(trace?.dimensions) ? (trace.dimensions as LineExplanation['dimensions']) : null,
    plan_phases: phases.map(({ usage: _usage, ...phase }) => phase) as LineExplanation['plan_phases'],
    usage: phases.flatMap((p) => (isObject(p.usage) ? [p.usage] : [])) as LineExplanation['usage'],
    tiers: (rated ? arrayOf(detail.tiers) : []) as LineExplanation['tiers'],
    adjustments: adjustments as LineExplanation['adjustments'],
    billed_before: billedBefore ? { quantity: String(billedBefore.quantity), amount_nanos: money(big(billedBefore.amount_nanos)) } : null,
    tax: isTaxLine
      ? {
          adapter: taxAdapter,
          rate_bps: detail.rate_bps as number,
          taxable_line_id: String(detail.taxable_line_id),
          taxable_amount_nanos: money(big(detail.taxable_amount_nanos)),
          rule: `${(detail.rate_bps as number) / 100}% of the taxed line's amount; ${TAX_ROUNDING}`,
        }
      : null,
    steps: steps.map((s) => ({ step: s.step, description: s.description, change_nanos: money(s.change_nanos), amount_nanos: money(s.amount_nanos) })),
    reconciles,
    rounding: rated ? RATED_ROUNDING : isTaxLine ? TAX_ROUNDING : null,
    line: view,
    pricing_trace: row.pricingTrace,
  };
}

/** The explanation of an invoice; `ownCustomerId` (a customer token) sees only invoices addressed to it. */
export async function explainInvoice(db: DbClient, id: string, ownCustomerId?: string): Promise<InvoiceExplanationView> {
  const invoice = await findInvoiceWithLines(db, id);
  if (!invoice || (ownCustomerId !== undefined && invoice.customerId !== ownCustomerId)) throw notFound('invoice', id);
  const view = toInvoiceView(invoice, invoice.lines);
  const lines = invoice.lines.map((row, i) => explainLine(row, view.line_items[i]!, invoice.currency, invoice.taxAdapter));
  const settlement = settlementSteps({
    total_nanos: fromDecimal(invoice.totalNanos),
    customer_balance_applied_nanos: fromDecimal(invoice.customerBalanceAppliedNanos),
    wallet_applied_nanos: fromDecimal(invoice.walletAppliedNanos),
    due_reduced_nanos: fromDecimal(invoice.dueReducedNanos),
  });
  const ids = (stage: string | null) => lines.filter((line) => line.rounding !== null && (stage === null || line.rounding === stage)).map((line) => line.line_id);
  return {
    invoice_id: invoice.id,
    invoice_number: invoice.invoiceNumber,
    status: invoice.status,
    currency: invoice.currency,
    period_start: invoice.periodStart?.toISOString() ?? null,
    period_end: invoice.periodEnd?.toISOString() ?? null,
    lines,
    totals: {
      subtotal_nanos: view.subtotal_nanos,
      tax_nanos: view.tax_nanos,
      credits_applied_nanos: view.credits_applied_nanos,
      total_nanos: view.total_nanos,
      lines_sum_nanos: lines.reduce((sum, line) => sum + BigInt(line.amount_nanos), 0n).toString(),
      amount_due_nanos: view.amount_due_nanos,
    },
    settlement: settlement.steps.map((s) => ({ step: s.step, description: s.description, change_nanos: s.change_nanos.toString(), amount_nanos: s.amount_nanos.toString() })),
    rounding: [
      { stage: 'rating', rule: RATED_ROUNDING, line_ids: ids(RATED_ROUNDING) },
      { stage: 'tax', rule: TAX_ROUNDING, line_ids: ids(TAX_ROUNDING) },
      { stage: 'display', rule: DISPLAY_ROUNDING, line_ids: lines.map((line) => line.line_id) },
    ],
  };
}
