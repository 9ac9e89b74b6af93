/**
 * Messages of the daily revenue recognition run (./index.ts): its Schedule and its summary.
 */


/** The Temporal Schedule of the daily revenue recognition run (src/services/ledger/recognition.ts). */
export const REVENUE_RECOGNITION_SCHEDULE_ID = 'ledger-revenue-recognition';

export interface RevenueRecognitionSummary {
  /** Up to when steps were posted (ISO). */
  upTo: string;
  /** Customers with deferred revenue left to recognize. */
  customers: number;
  /** Recognition journals written by this run (0 when everything due was posted already). */
  journals: number;
  /** Customers whose recognition failed deterministically (logged; the next run tries again). */
  failed: string[];
}
