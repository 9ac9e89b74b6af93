/**
 * The arithmetic of an invoice explanation (GET /v1/invoices/:id/explain): how a line's amount is
 * reached from its list price, step by step, and how the invoice's total becomes its amount due.
 * Pure: the service reads the stored line (its rated detail and pricing trace) and hands the
 * figures here; every step carries the change it made and the running amount, so the steps of a
 * line end at the line's amount (`reconciles`) and the lines sum to the invoice's total.
 */

export interface ExplainStep {
  /** list_price | TierOverride | Escalation | RateOverride | Proration | ContractDiscount | phase | billed_before | amount | <a settlement part> */
  readonly step: string;
  readonly description: string;
  /** What this step changed (negative for a saving, a deduction or what was billed before). */
  readonly change_nanos: bigint;
  /** The running amount after this step. */
  readonly amount_nanos: bigint;
}

export interface RatedAmounts {
  readonly list_amount_nanos: bigint;
  readonly adjustments: readonly { readonly kind: string; readonly amount_nanos: bigint; readonly description: string }[];
}

export interface LineAmountInput {
  /** The line's amount as stored. */
  readonly amount_nanos: bigint;
  /** The rated line (detail) of a fee or usage line; null for lines that were not rated. */
  readonly rated: RatedAmounts | null;
  /** The plan phases the SKU was rated in; with more than one, each phase is a step (their detail is the first phase's). */
  readonly phases: readonly { readonly label: string; readonly amount_nanos: bigint }[];
  /** What finalized invoices had already billed of the SKU for the period (the line is the difference). */
  readonly billed_before_nanos: bigint | null;
}

export interface LineSteps {
  readonly steps: readonly ExplainStep[];
  /** Whether the steps end exactly at the line's amount. */
  readonly reconciles: boolean;
}

export function lineAmountSteps(input: LineAmountInput): LineSteps {
  const steps: ExplainStep[] = [];
  let running = 0n;
  const push = (step: string, description: string, change: bigint) => {
    running += change;
    steps.push({ step, description, change_nanos: change, amount_nanos: running });
  };
  if (input.phases.length > 1) {
    for (const phase of input.phases) push('phase', phase.label, phase.amount_nanos);
  } else if (input.rated !== null) {
    push('list_price', 'at catalog prices', input.rated.list_amount_nanos);
    for (const adjustment of input.rated.adjustments) push(adjustment.kind, adjustment.description, adjustment.amount_nanos);
  } else {
    push('amount', 'the amount of the line', input.amount_nanos);
  }
  if (input.billed_before_nanos !== null && input.billed_before_nanos !== 0n) {
    push('billed_before', "already billed for the period on the period's finalized invoices", -input.billed_before_nanos);
  }
  return { steps, reconciles: running === input.amount_nanos };
}

export interface SettlementInput {
  readonly total_nanos: bigint;
  readonly customer_balance_applied_nanos: bigint;
  readonly wallet_applied_nanos: bigint;
  readonly due_reduced_nanos: bigint;
}

/**
 * From the invoice's total to what is left to pay, in the order finalization applies them: the
 * customer's credit balance, then the credit wallet; credit notes afterwards reduce what is due.
 * Never below zero (a credit invoice owes nothing).
 */
export function settlementSteps(input: SettlementInput): { steps: readonly ExplainStep[]; amount_due_nanos: bigint } {
  const steps: ExplainStep[] = [{ step: 'total', description: 'subtotal + tax − credits applied', change_nanos: input.total_nanos, amount_nanos: input.total_nanos }];
  let running = input.total_nanos;
  const deduct = (step: string, description: string, amount: bigint) => {
    if (amount === 0n) return;
    running -= amount;
    steps.push({ step, description, change_nanos: -amount, amount_nanos: running });
  };
  deduct('customer_balance_applied', "the customer's credit balance applied at finalization", input.customer_balance_applied_nanos);
  deduct('wallet_applied', 'the credit wallet drawn down at finalization', input.wallet_applied_nanos);
  deduct('due_reduced', 'credit notes that reduced what is due', input.due_reduced_nanos);
  return { steps, amount_due_nanos: running > 0n ? running : 0n };
}
