/**
 * Spend alerts (SPEC §1): when a threshold counts as crossed, and how much of an invoice a
 * HardLimit withholds so that nothing above the threshold is charged for a billing period.
 * Amounts are raw units (scale 12).
 */

export type SpendAlertType = 'SoftLimit' | 'HardLimit';

/** A threshold is crossed once the period's spend reaches it: spend ≥ threshold. */
export const thresholdCrossed = (spendNanos: bigint, thresholdNanos: bigint): boolean => spendNanos >= thresholdNanos;

export interface SpendCapInput {
  thresholdNanos: bigint;
  /** Charges in the alert's scope that earlier finalized invoices of the period carry (before any cap). */
  chargedBeforeNanos: bigint;
  /** What the cap already withheld on those invoices. */
  withheldBeforeNanos: bigint;
  /** Charges in the alert's scope on the invoice being finalized. */
  currentNanos: bigint;
}

/**
 * The part of the invoice's in-scope charges above what is left of the threshold for the period:
 * left = threshold − (charged before − withheld before), never below zero. Zero when the charges fit,
 * never more than the charges themselves (a net credit withholds nothing).
 */
export function spendCapWithheld(input: SpendCapInput): bigint {
  if (input.currentNanos <= 0n) return 0n;
  const billedSoFar = input.chargedBeforeNanos - input.withheldBeforeNanos;
  const left = input.thresholdNanos > billedSoFar ? input.thresholdNanos - billedSoFar : 0n;
  if (input.currentNanos <= left) return 0n;
  return input.currentNanos - left;
}

/**
 * Several HardLimits on one invoice: the largest withholding applies, which keeps every alert's cap
 * when their scopes nest (an unscoped alert covers every scoped one).
 */
export function combinedWithheld(amounts: readonly bigint[]): bigint {
  return amounts.reduce((max, amount) => (amount > max ? amount : max), 0n);
}
