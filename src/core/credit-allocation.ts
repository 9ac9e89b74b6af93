/**
 * Where a credit note's money goes (as Stripe's and Lago's credit notes split it). Its amount is
 * allocated, never stranded, into four parts that sum to it:
 *
 * - due reduction: lowers what the invoice still owes (at most the amount due);
 * - refund: paid back through the payment processor (at most what was collected and not refunded);
 * - credit: put on the customer's credit balance, spent by its next invoices in the currency;
 * - out of band: given back outside the service (recorded only).
 *
 * The last three give back money the invoice was settled with (payments, wallet credit, customer
 * balance), so together, with what earlier notes gave back, they never exceed what was settled.
 * That is `remaining − amountDue`: of what is left to credit, everything not still due was settled
 * and not given back yet. And the whole note never exceeds what is left to credit (total − credited).
 *
 * Default when the caller names no part: reduce the amount due first, then credit the rest to the
 * customer's balance. When the caller names any of refund, credit or out of band, the parts not
 * named are 0 and whatever is not allocated reduces the amount due.
 */

export interface CreditCapacity {
  /** total − credited by earlier notes. */
  readonly remaining: bigint;
  /** What the invoice still owes (0 once Paid). */
  readonly amountDue: bigint;
  /** What processor payments collected and have not refunded (or reserved for a refund). */
  readonly refundable: bigint;
}

export interface AllocationRequest {
  readonly amount: bigint;
  readonly refund?: bigint | undefined;
  readonly credit?: bigint | undefined;
  readonly outOfBand?: bigint | undefined;
}

export interface CreditAllocation {
  readonly dueReduction: bigint;
  readonly refund: bigint;
  readonly credit: bigint;
  readonly outOfBand: bigint;
}

/** The request field each part is asked for with. */
export type AllocationField = 'amount_nanos' | 'refund_amount_nanos' | 'credit_amount_nanos' | 'out_of_band_amount_nanos';

export type AllocationBound =
  /** a part is negative, or the named parts exceed the amount */
  | 'parts_within_amount'
  /** amount ≤ total − credited */
  | 'remaining'
  /** due reduction ≤ amount due */
  | 'amount_due'
  /** refund ≤ collected − refunded */
  | 'refundable'
  /** refund + credit + out of band ≤ settled and not given back (remaining − amount due) */
  | 'settled';

export interface AllocationViolation {
  readonly bound: AllocationBound;
  readonly field: AllocationField;
  /** The largest value the field could take (for parts_within_amount: the amount). */
  readonly limit: bigint;
  readonly message: string;
}

export type AllocationResult = { readonly ok: true; readonly allocation: CreditAllocation } | { readonly ok: false; readonly violation: AllocationViolation };

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
const max0 = (a: bigint): bigint => (a > 0n ? a : 0n);

/** What refund, credit and out of band may give back together: what was settled and not given back. */
export const settledCreditable = (capacity: CreditCapacity): bigint => max0(capacity.remaining - max0(capacity.amountDue));

/** Sum of the parts (equals the note's amount). */
export const allocationTotal = (a: CreditAllocation): bigint => a.dueReduction + a.refund + a.credit + a.outOfBand;

/** Allocates a credit note of `request.amount` (> 0) within the invoice's capacity, or names the bound it breaks. */
export function allocateCreditNote(request: AllocationRequest, capacity: CreditCapacity): AllocationResult {
  const fail = (bound: AllocationBound, field: AllocationField, limit: bigint, message: string): AllocationResult => ({
    ok: false,
    violation: { bound, field, limit: max0(limit), message },
  });
  const { amount } = request;
  const remaining = max0(capacity.remaining);
  const amountDue = min(max0(capacity.amountDue), remaining);
  const settled = settledCreditable(capacity);
  const refundable = min(max0(capacity.refundable), settled);

  if (amount <= 0n) return fail('parts_within_amount', 'amount_nanos', 0n, 'the amount must be greater than zero');
  if (amount > remaining) return fail('remaining', 'amount_nanos', remaining, `at most ${remaining} raw units of the invoice remain to be credited`);

  const named = request.refund !== undefined || request.credit !== undefined || request.outOfBand !== undefined;
  if (!named) {
    const dueReduction = min(amount, amountDue);
    return { ok: true, allocation: { dueReduction, refund: 0n, credit: amount - dueReduction, outOfBand: 0n } };
  }

  const refund = request.refund ?? 0n;
  const credit = request.credit ?? 0n;
  const outOfBand = request.outOfBand ?? 0n;
  for (const [field, value] of [
    ['refund_amount_nanos', refund],
    ['credit_amount_nanos', credit],
    ['out_of_band_amount_nanos', outOfBand],
  ] as const) {
    if (value < 0n) return fail('parts_within_amount', field, amount, 'must not be negative');
  }
  const givenBack = refund + credit + outOfBand;
  if (givenBack > amount) {
    const field = outOfBand > 0n ? 'out_of_band_amount_nanos' : credit > 0n ? 'credit_amount_nanos' : 'refund_amount_nanos';
    return fail('parts_within_amount', field, amount, `refund, credit and out-of-band amounts together (${givenBack}) exceed the amount ${amount}`);
  }
  if (refund > refundable) {
    return fail('refundable', 'refund_amount_nanos', refundable, `at most ${refundable} raw units can be refunded (collected through the processor and not refunded yet)`);
  }
  if (givenBack > settled) {
    const field = outOfBand > 0n ? 'out_of_band_amount_nanos' : credit > 0n ? 'credit_amount_nanos' : 'refund_amount_nanos';
    const others = givenBack - (field === 'out_of_band_amount_nanos' ? outOfBand : field === 'credit_amount_nanos' ? credit : refund);
    return fail('settled', field, settled - others, `refund, credit and out-of-band amounts together may give back at most ${settled} raw units (settled and not given back yet)`);
  }
  const dueReduction = amount - givenBack;
  if (dueReduction > amountDue) {
    return fail('amount_due', 'amount_nanos', givenBack + amountDue, `the ${dueReduction} raw units not refunded, credited or settled out of band would reduce the amount due, which is ${amountDue}`);
  }
  return { ok: true, allocation: { dueReduction, refund, credit, outOfBand } };
}
