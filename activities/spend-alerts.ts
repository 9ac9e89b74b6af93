/**
 * Spend alert activities: the evaluation of a customer's alerts and their period-start reset, done
 * by the spend alerts service, and the record of an evaluation that failed for good. Idempotent: a
 * crossing is recorded once (conditional update), a reset re-arms only what is still Triggered.
 */
import type { ServiceDeps } from '../src/services/deps.js';
import { evaluateSpendAlerts, recordSpendEvaluationError, resetSpendAlertsForPeriod } from '../src/services/alerts/spend-alerts.js';
import type { BillingErrorState } from '../workflows/shared/messages.js';
import type { SpendEvaluation } from '../workflows/spend-alerts/messages.js';
import { classified } from './failures.js';

export function createSpendAlertActivities(deps: Pick<ServiceDeps, 'db' | 'logger'>) {
  const { db } = deps;
  return {
    evaluateSpendAlerts: (input: { customerId: string; at: string }): Promise<SpendEvaluation> =>
      classified(() => evaluateSpendAlerts(db, input.customerId, new Date(input.at))),
    resetSpendAlertsForPeriod: (input: { customerId: string; periodStart: string }): Promise<number> =>
      classified(() => resetSpendAlertsForPeriod(db, input.customerId, new Date(input.periodStart))),
    /** An evaluation that failed for good, shown on the customer's alerts (evaluation_error). */
    recordSpendEvaluationError: (input: { customerId: string; error: BillingErrorState }): Promise<number> =>
      classified(() => recordSpendEvaluationError(deps, input.customerId, input.error)),
  };
}
