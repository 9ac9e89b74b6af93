/**
 * Messages of the simulation workflow (./index.ts): its input, the state a run hands to the next
 * (continue-as-new), the cancel signal, the progress query and its id (its search attributes, SimulationId and
 * SimulationStatus, are with the others in ../shared/messages.ts).
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { BillingErrorState } from '../shared/messages.js';

/** Subscriptions one batch activity re-rates (each with its last N closed periods). */
export const SIMULATION_BATCH_SIZE = 100;
/** Batches one run does before it continues as new (fewer when the server suggests it earlier). */
export const SIMULATION_BATCHES_PER_RUN = 40;

/** How far a simulation got: carried from run to run. */
export interface SimulationProgress {
  /** Subscriptions in scope with a closed period; null until counted. */
  subscriptionsTotal: number | null;
  subscriptionsDone: number;
  periodsDone: number;
  /** The last subscription re-rated (batches go by id); null before the first batch. */
  after: string | null;
}

export interface SimulationWorkflowInput {
  simulationId: string;
  batchSize: number;
  batchesPerRun: number;
  /** Set by a run that continued as new. */
  progress?: SimulationProgress;
  cancelRequested?: boolean;
}

export type SimulationOutcome = 'completed' | 'cancelled' | 'failed';

export interface SimulationSummary extends SimulationProgress {
  outcome: SimulationOutcome;
  error?: BillingErrorState;
}

export interface SimulationBatchInput {
  simulationId: string;
  after: string | null;
  limit: number;
  /** Progress before the batch: the batch records the progress after it. */
  subscriptionsDone: number;
  periodsDone: number;
}

export interface SimulationBatchResult {
  subscriptions: number;
  periods: number;
  /** The last subscription of the batch; null when there was none left. */
  last: string | null;
}

export const cancelSimulationSignal = defineSignal('cancelSimulation');
export const simulationProgressQuery = defineQuery<SimulationProgress & { status: string }>('simulationProgress');

export const simulationWorkflowId = (simulationId: string): string => `simulation:${simulationId}`;
