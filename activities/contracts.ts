/**
 * Contract activities: what the contract workflow has due (escalation steps, phase-end true-ups,
 * expiry), done by the contracts service, and the reconciler that finds missing contract
 * workflows. Idempotent: each step is recorded once, so a retried activity finds it done. The
 * workflows they call for (a Draft's invoice workflow, a missing contract workflow) are handed back
 * as follow-ups for the calling workflow to start (workflows/follow-ups), never started here.
 */
import type { ContractDeps } from '../src/services/contracts/lifecycle.js';
import { runContractLifecycle } from '../src/services/contracts/lifecycle.js';
import { reconcileContractWorkflows } from '../src/services/contracts/reconcile.js';
import { alignSubscriptionToContract, type AlignInput, type AlignResult } from '../src/services/contracts/coterm-alignment.js';
import type { Logger } from '../src/logger.js';
import type { ContractSnapshot } from '../workflows/contract/messages.js';
import type { ContractReconcileSummary } from '../workflows/contract-reconcile/messages.js';
import { classified } from './failures.js';
import { collectingFollowUps } from '../src/services/follow-ups.js';
import type { WithFollowUps } from '../workflows/follow-ups/messages.js';

export function createContractActivities(deps: ContractDeps & { logger: Logger }) {
  return {
    /** The invoice workflows of the Drafts its lines went on are the contract workflow's to start (follow-ups). */
    advanceContract: (input: { contractId: string; at: string }): Promise<WithFollowUps<ContractSnapshot>> =>
      classified(() => collectingFollowUps(deps, (collecting) => runContractLifecycle(collecting, input.contractId, new Date(input.at)))),

    /** The missing contract workflows are the reconcile workflow's to start (follow-ups). */
    reconcileContractWorkflows: (): Promise<WithFollowUps<ContractReconcileSummary>> =>
      classified(() => collectingFollowUps(deps, (collecting) => reconcileContractWorkflows(collecting, new Date()))),

    /** Coterm adoption: realigns a subscription's periods to its contract end (run by the subscription workflow). */
    alignSubscriptionToContract: (input: AlignInput): Promise<AlignResult> => classified(() => alignSubscriptionToContract(deps.db, input)),
  };
}
