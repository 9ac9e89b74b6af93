/**
 * The revenue recognition run, started by the Temporal Schedule `ledger-revenue-recognition` (daily,
 * and once when a worker starts): posts every ratable recognition step due up to now for the
 * customers on no test clock (src/services/ledger/recognition.ts). Customers on a test clock are
 * recognized by each advance of their clock instead.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import type { RevenueRecognitionSummary } from './messages.js';

const { recognizeRevenueDue } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '5 minutes', maximumAttempts: 10 },
});

export async function revenueRecognitionWorkflow(): Promise<RevenueRecognitionSummary> {
  return recognizeRevenueDue();
}
