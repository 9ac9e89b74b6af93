/**
 * Messages of the daily dunning check (./index.ts): its Schedule and its summary.
 */
import type { FailedRunItem } from '../shared/messages.js';

/** What a daily dunning check did (src/services/payments/dunning.ts checkDueAttempts). */
export interface DunningCheckSummary {
  /** Active schedules whose retry was overdue. */
  overdue: number;
  /** Invoices whose schedule's workflow was started again. */
  redriven: string[];
  /** Stale notifications handed to a workflow. */
  notificationsRedriven: number;
  /** Schedules and notifications whose re-drive failed deterministically. */
  failed: FailedRunItem[];
}

/** The Temporal Schedule that runs the daily dunning check (check_due_attempts). */
export const DUNNING_CHECK_SCHEDULE_ID = 'dunning-check-due-attempts';
