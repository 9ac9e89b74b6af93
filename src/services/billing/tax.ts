/**
 * Pluggable tax (SPEC §1 Tax). An adapter turns a Draft's taxable lines into tax lines (flagged
 * is_tax). Chosen by configuration: TAX_ADAPTER=none (default, zero-tax pass-through) or
 * TAX_ADAPTER=flat with TAX_RATE_BPS (basis points; customers with a tax_id are B2B and exempt,
 * reverse charge). Tax is computed per taxable line (exact, rounded once to a raw unit, HalfEven)
 * and replaces any earlier tax lines, so recomputing is idempotent.
 */
import { roundDiv } from '../../core/index.js';
import type { DbClient } from '../../db/client.js';
import { getCustomer, type CustomerRecord } from '../../db/customers.js';
import { deleteTaxLines, insertLines, linesForTax, totalledLine, writeTotals, type InvoiceRow, type NewLine } from '../../db/invoices.js';

export interface TaxableLine {
  id: string;
  description: string;
  amountNanos: bigint;
}

export interface TaxContext {
  currency: string;
  customer: { id: string; taxId: string | null };
  lines: TaxableLine[];
}

export interface TaxAdapter {
  readonly name: string;
  calculate(context: TaxContext): NewLine[];
}

export const zeroTax: TaxAdapter = {
  name: 'none',
  calculate: () => [],
};

const BPS = 10_000n;

export function flatRateTax(rateBps: number): TaxAdapter {
  if (!Number.isInteger(rateBps) || rateBps < 0 || rateBps > 10_000) throw new Error('TAX_RATE_BPS must be an integer 0-10000');
  const rate = BigInt(rateBps);
  const percent = `${rateBps / 100}%`;
  return {
    name: `flat:${rateBps}`,
    calculate({ customer, lines }) {
      if (customer.taxId || rate === 0n) return [];
      return lines
        .filter((line) => line.amountNanos !== 0n)
        .map((line) => ({
          kind: 'tax' as const,
          description: `Tax ${percent} on ${line.description}`,
          amountNanos: roundDiv(line.amountNanos * rate, BPS),
          detail: { rate_bps: rateBps, taxable_line_id: line.id, taxable_amount_nanos: line.amountNanos.toString() },
        }));
    },
  };
}

export function createTaxAdapter(kind: string, rateBps: number): TaxAdapter {
  if (kind === 'none') return zeroTax;
  if (kind === 'flat') return flatRateTax(rateBps);
  throw new Error(`unknown TAX_ADAPTER ${kind} (none | flat)`);
}

/** Replaces the Draft's tax lines with the adapter's and recomputes its totals. */
export async function applyTax(tx: DbClient, invoice: InvoiceRow, adapter: TaxAdapter, payer?: CustomerRecord): Promise<InvoiceRow> {
  const lines = await linesForTax(tx, invoice.id);
  // Replaces the tax lines of an earlier run (none on a Draft tax was never calculated for).
  if (lines.some((line) => line.isTax)) await deleteTaxLines(tx, invoice.id);
  const kept = lines.filter((line) => !line.isTax);
  const customer = payer ?? (await getCustomer(tx, invoice.customerId));
  // Tax is computed on the charges: neither earlier tax nor credit lines.
  const taxable = kept.filter((line) => line.kind !== 'credit').map(({ id, description, amountNanos }) => ({ id, description, amountNanos }));
  const taxLines = adapter.calculate({ currency: invoice.currency, customer: { id: customer.id, taxId: customer.tax_id }, lines: taxable });
  await insertLines(tx, invoice.id, taxLines);
  // The totals of the lines now on the invoice: those kept and the new tax lines.
  return writeTotals(tx, invoice.id, [...kept, ...taxLines.map(totalledLine)], { taxAdapter: adapter.name });
}
