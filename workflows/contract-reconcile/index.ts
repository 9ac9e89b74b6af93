/**
 * The contract workflow reconciler, started by the Temporal Schedule `contract-workflows-reconcile`
 * (hourly, and once when a worker starts): starts the workflow of every contract that has work left
 * but no workflow, e.g. because the process that committed it died before starting it
 * (src/services/contracts/reconcile.ts). A contract or coterm link that fails deterministically is
 * listed in the summary's `failed` while the others are handled.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { followedUp } from '../follow-ups/index.js';
import type { ContractReconcileSummary } from './messages.js';

/**
 * Changes to the released workflow, each behind `patched(id)` (docs/versioning.md): the missing
 * contract workflows are started by this run, as children that outlive it (ABANDON), from the
 * follow-ups its activity hands back (issue 29). Runs without the marker got a summary without
 * follow-ups: the activity started them through the gateway.
 */
export const RECONCILE_STARTS_CHILDREN = 'contract-reconcile-starts-children';

const { reconcileContractWorkflows } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '5 seconds', maximumInterval: '5 minutes', maximumAttempts: 10 },
});

export async function contractReconcileWorkflow(): Promise<ContractReconcileSummary> {
  return followedUp(reconcileContractWorkflows(), RECONCILE_STARTS_CHILDREN);
}
