/**
 * The contract workflow reconciler. A contract's workflow is started after the commit that makes it
 * Active (no RPC inside a transaction), so a process that dies in between leaves an Active contract
 * with no workflow: nothing would escalate, true up or expire it. The reconciler finds every
 * contract whose workflow should be running (Active, or still owing a phase true-up) and starts the
 * ones that have none, on the customer's test clock when it has one. It runs from the Temporal
 * Schedule `contract-workflows-reconcile` (hourly, and once when a worker starts).
 *
 * It also sends the coterm realignment again to subscriptions adopted with Coterm whose realignment
 * never ran (the process died between the link's commit and the update).
 *
 * A contract or coterm link whose work fails deterministically (a refused realignment, invalid stored
 * data, a start Temporal refuses) is logged and listed in the summary's `failed`, and the others
 * are handled; a transient failure fails the run, whose activity is retried.
 *
 * A contract whose workflow exists but closed (failed on a deterministic error, or terminated by an
 * operator) is not restarted: it is reported and logged for an operator, who can start it again
 * after fixing the data, so a failing workflow is not re-run every hour.
 */
import { contractsNeedingWorkflow, unalignedCotermLinks } from '../../db/contracts.js';
import { SYSTEM_ACTOR } from '../audit.js';
import { alignToContract } from './contracts.js';
import type { ContractReconcileSummary } from '../../temporal/messages.js';
import { contractWorkflowState } from '../../temporal/workflows/contract.js';
import { runItem } from '../failures/run-items.js';
import type { ServiceDeps } from '../deps.js';
import { startContractWorkflow, type ContractDeps } from './lifecycle.js';

const PAGE = 500;

export async function reconcileContractWorkflows(deps: ContractDeps & Pick<ServiceDeps, 'logger'>, realNow: Date): Promise<ContractReconcileSummary> {
  const run = 'contract reconciler';
  const result: ContractReconcileSummary = { checked: 0, started: [], closed: [], realigned: [], failed: [] };
  for (let after: string | null = null; ; ) {
    const page = await contractsNeedingWorkflow(deps.db, after, PAGE);
    for (const contract of page) {
      result.checked += 1;
      const state = await runItem(deps, result.failed, { kind: 'contract', id: contract.id, run }, async () => {
        const found = await contractWorkflowState(deps.temporal, contract.id);
        if (found === 'missing') await startContractWorkflow(deps, contract, realNow);
        return found;
      });
      if (state === 'missing') result.started.push(contract.id);
      else if (state === 'closed') result.closed.push(contract.id);
    }
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.id;
  }
  for (const link of await unalignedCotermLinks(deps.db)) {
    // Refused (e.g. fewer than 30 days left by now, or the subscription moved on): an operator's case.
    const done = await runItem(deps, result.failed, { kind: 'coterm_link', id: link.subscription_id, run }, async () => {
      await alignToContract(deps, link.subscription_id, SYSTEM_ACTOR);
      return true;
    });
    if (done) result.realigned.push(link.subscription_id);
  }
  if (result.realigned.length > 0) deps.logger.warn({ realigned: result.realigned }, 'contract reconciler realigned coterm subscriptions');
  if (result.started.length > 0) deps.logger.warn({ started: result.started }, 'contract reconciler started missing contract workflows');
  if (result.closed.length > 0) deps.logger.error({ closed: result.closed }, 'contract workflows closed while their contract has work left; an operator must look at them');
  return result;
}
