/**
 * The late usage correction run, started by the Temporal Schedule `late-usage-corrections` (daily,
 * and once when a worker starts): bills the late usage of ended subscriptions on no test clock on
 * correction invoices (src/services/billing/late-usage.ts). Subscriptions on a test clock are
 * corrected by each advance of their clock instead.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { followedUp } from '../follow-ups/index.js';
import type { LateUsageCorrectionsSummary } from './messages.js';

/**
 * Changes to the released workflow, each behind `patched(id)` (docs/versioning.md): the correction
 * invoices' workflows are this run's to drive (issue 29): its activity hands back each invoice
 * workflow to start (`start_invoice`) or the finalize to ask of it (`finalize_invoice`), and the run
 * starts them as children (ABANDON) and waits for each finalize's answer. Runs without the marker
 * got results without follow-ups: their activity started the workflows and sent the finalize update.
 */
export const LATE_USAGE_RUNS_INVOICE_FOLLOW_UPS = 'late-usage-corrections-runs-invoice-follow-ups';

const { billLateUsageCorrections } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '5 minutes', maximumAttempts: 10 },
});

export async function lateUsageCorrectionsWorkflow(): Promise<LateUsageCorrectionsSummary> {
  return followedUp(billLateUsageCorrections({ testClockId: null }), LATE_USAGE_RUNS_INVOICE_FOLLOW_UPS);
}
