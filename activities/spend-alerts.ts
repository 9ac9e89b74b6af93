/**
 * Spend alert activities: the evaluation of a customer's alerts and their period-start reset, done
 * by the spend alerts service. Idempotent: a crossing is recorded once (conditional update), a
 * reset re-arms only what is still Triggered.
 */
import type { ServiceDeps } from '../src/services/deps.js';
import { evaluateSpendAlerts, resetSpendAlertsForPeriod } from '../src/services/alerts/spend-alerts.js';
import type { SpendEvaluation } from '../workflows/messages.js';
import { classified } from './failures.js';

export function createSpendAlertActivities(db: ServiceDeps['db']) {
  return {
    evaluateSpendAlerts: (input: { customerId: string; at: string }): Promise<SpendEvaluation> =>
      classified(() => evaluateSpendAlerts(db, input.customerId, new Date(input.at))),
    resetSpendAlertsForPeriod: (input: { customerId: string; periodStart: string }): Promise<number> =>
      classified(() => resetSpendAlertsForPeriod(db, input.customerId, new Date(input.periodStart))),
  };
}
