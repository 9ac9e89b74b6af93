/**
 * The late usage correction run, started by the Temporal Schedule `late-usage-corrections` (daily,
 * and once when a worker starts): bills the late usage of ended subscriptions on no test clock on
 * correction invoices (src/services/billing/late-usage.ts). Subscriptions on a test clock are
 * corrected by each advance of their clock instead.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import type { LateUsageCorrectionsSummary } from './messages.js';

const { billLateUsageCorrections } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '5 minutes', maximumAttempts: 10 },
});

export async function lateUsageCorrectionsWorkflow(): Promise<LateUsageCorrectionsSummary> {
  return billLateUsageCorrections({ testClockId: null });
}
