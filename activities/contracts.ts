/**
 * Contract activities: what the contract workflow has due (escalation steps, phase-end true-ups,
 * expiry), done by the contracts service. Idempotent: each step is recorded once, so a retried
 * activity finds it done.
 */
import type { ContractDeps } from '../src/services/contracts/lifecycle.js';
import { runContractLifecycle } from '../src/services/contracts/lifecycle.js';
import type { ContractSnapshot } from '../workflows/messages.js';
import { classified } from './failures.js';

export function createContractActivities(deps: ContractDeps) {
  return {
    advanceContract: (input: { contractId: string; at: string }): Promise<ContractSnapshot> =>
      classified(() => runContractLifecycle(deps, input.contractId, new Date(input.at))),
  };
}
