/**
 * Simulation activities (workflows/simulation): count the scope, re-rate one batch, record the end;
 * and shadow billing's rating after a period close (the subscription workflow).
 * Each is idempotent: a retried batch writes the same results and progress again.
 */
import type { ServiceDeps } from '../src/services/deps.js';
import { countSimulationScope, finishSimulation, simulateSubscriptionBatch } from '../src/services/simulations/simulations.js';
import { rateShadowForClose, type ShadowRatingSummary } from '../src/services/simulations/shadow-billing.js';
import type { BillingErrorState } from '../workflows/shared/messages.js';
import type { SimulationBatchInput, SimulationBatchResult, SimulationOutcome } from '../workflows/simulation/messages.js';
import { classified } from './failures.js';

export function createSimulationActivities(deps: Pick<ServiceDeps, 'db' | 'pool' | 'clock' | 'logger'>) {
  return {
    countSimulationScope: (simulationId: string): Promise<number> => classified(() => countSimulationScope(deps.db, simulationId)),
    simulateBatch: (input: SimulationBatchInput): Promise<SimulationBatchResult> => classified(() => simulateSubscriptionBatch(deps, input)),
    finishSimulation: (input: { simulationId: string; status: SimulationOutcome; error?: BillingErrorState }): Promise<void> => classified(() => finishSimulation(deps, input)),
    /** Shadow billing, after a period close: the closed period rated with each live attachment's candidate (a retry writes the same rows). */
    rateShadowBilling: (input: { subscriptionId: string; period: { start: string; end: string } }): Promise<ShadowRatingSummary> =>
      classified(() => rateShadowForClose(deps, { subscriptionId: input.subscriptionId, period: { start: new Date(input.period.start), end: new Date(input.period.end) } })),
  };
}
