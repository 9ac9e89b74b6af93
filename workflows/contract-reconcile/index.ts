/**
 * The contract workflow reconciler, started by the Temporal Schedule `contract-workflows-reconcile`
 * (hourly, and once when a worker starts): starts the workflow of every contract that has work left
 * but no workflow, e.g. because the process that committed it died before starting it
 * (src/services/contracts/reconcile.ts). A contract or coterm link that fails deterministically is
 * listed in the summary's `failed` while the others are handled.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import type { ContractReconcileSummary } from './messages.js';

const { reconcileContractWorkflows } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '5 minutes', maximumAttempts: 10 },
});

export async function contractReconcileWorkflow(): Promise<ContractReconcileSummary> {
  return reconcileContractWorkflows();
}
