/**
 * Messages of the daily late-usage corrections run (./index.ts): its Schedule and its summary.
 */


/** The daily run that bills ended subscriptions' late usage on correction invoices. */
export const LATE_USAGE_CORRECTIONS_SCHEDULE_ID = 'late-usage-corrections';

export interface LateUsageCorrectionsSummary {
  /** The time the corrections are dated (ISO). */
  at: string;
  /** Ended subscriptions that had late usage not billed yet. */
  subscriptions: number;
  /** Correction invoices billed (and finalized) by this run. */
  invoices: string[];
  /** Subscriptions whose correction failed deterministically (logged; the next run tries again). */
  failed: string[];
}
