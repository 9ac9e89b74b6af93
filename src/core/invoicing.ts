/**
 * "Rate to date, invoice the difference". A subscription period's charges are always rated
 * cumulatively (every plan phase of the period, usage from the period start, so tiers apply to the
 * whole period); what goes on the period's Draft is the difference, per SKU, between that and what
 * finalized invoices of the period already carry. One rule serves billing on demand, period close,
 * progressive billing and plan changes: a plan change after the old plan's fee was invoiced yields
 * a negative line (the unused part) and a positive one (the new plan's remaining part).
 */
import { addQuantity, formatQuantity, parseQuantity, subtractQuantity } from './decimal.js';

export interface ChargeLine {
  sku_id: string;
  /** What target and billed lines are matched by: the sku_id unless given (e.g. a SKU's minimum true-up). */
  key?: string;
  description: string;
  quantity: string;
  amount_nanos: bigint;
}

export interface Billed {
  quantity: string;
  amount_nanos: bigint;
}

/**
 * The lines to put on the Draft: target − billed for every SKU (every key: `billed` is keyed alike). SKUs already billed with no
 * change are left out; on a period's first invoice (nothing billed yet) every SKU appears, even at 0.
 */
export function chargesToInvoice<L extends ChargeLine>(target: readonly L[], billed: ReadonlyMap<string, Billed>): L[] {
  const firstInvoice = billed.size === 0;
  const merged = new Map<string, L>();
  for (const line of target) {
    const key = line.key ?? line.sku_id;
    const previous = merged.get(key);
    merged.set(
      key,
      previous
        ? { ...previous, quantity: formatQuantity(addQuantity(parseQuantity(previous.quantity), parseQuantity(line.quantity))), amount_nanos: previous.amount_nanos + line.amount_nanos }
        : line,
    );
  }
  const out: L[] = [];
  for (const [key, line] of merged) {
    const already = billed.get(key);
    if (!already) {
      if (firstInvoice || line.amount_nanos !== 0n) out.push(line);
      continue;
    }
    const amount = line.amount_nanos - already.amount_nanos;
    const quantity = formatQuantity(subtractQuantity(parseQuantity(line.quantity), parseQuantity(already.quantity)));
    if (amount !== 0n || quantity !== '0') out.push({ ...line, quantity, amount_nanos: amount });
  }
  return out;
}
