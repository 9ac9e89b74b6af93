/**
 * Contract activities: what the contract workflow has due (escalation steps, phase-end true-ups,
 * expiry), done by the contracts service, and the reconciler that starts missing contract
 * workflows. Idempotent: each step is recorded once, so a retried activity finds it done; a
 * workflow started twice is the same one (USE_EXISTING).
 */
import type { ContractDeps } from '../src/services/contracts/lifecycle.js';
import { runContractLifecycle } from '../src/services/contracts/lifecycle.js';
import { reconcileContractWorkflows } from '../src/services/contracts/reconcile.js';
import { alignSubscriptionToContract, type AlignInput, type AlignResult } from '../src/services/contracts/coterm-alignment.js';
import type { Logger } from '../src/logger.js';
import type { ContractSnapshot } from '../workflows/contract/messages.js';
import type { ContractReconcileSummary } from '../workflows/contract-reconcile/messages.js';
import { classified } from './failures.js';

export function createContractActivities(deps: ContractDeps & { logger: Logger }) {
  return {
    advanceContract: (input: { contractId: string; at: string }): Promise<ContractSnapshot> =>
      classified(() => runContractLifecycle(deps, input.contractId, new Date(input.at))),

    reconcileContractWorkflows: (): Promise<ContractReconcileSummary> => classified(() => reconcileContractWorkflows(deps, new Date())),

    /** Coterm adoption: realigns a subscription's periods to its contract end (run by the subscription workflow). */
    alignSubscriptionToContract: (input: AlignInput): Promise<AlignResult> => classified(() => alignSubscriptionToContract(deps.db, input)),
  };
}
