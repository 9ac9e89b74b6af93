/**
 * The simulation workflow (`simulation:<id>`, on the simulation task queue): started once per price
 * simulation with its SimulationId and SimulationStatus search attributes, cancelled by a signal,
 * its progress readable by a query.
 */
import { SIMULATION_ID_ATTRIBUTE, SIMULATION_STATUS_ATTRIBUTE } from '../../../workflows/shared/messages.js';
import {
  cancelSimulationSignal,
  SIMULATION_BATCH_SIZE,
  SIMULATION_BATCHES_PER_RUN,
  simulationProgressQuery,
  simulationWorkflowId,
  type SimulationWorkflowInput,
} from '../../../workflows/simulation/messages.js';
import { unlessWorkflowGone, type TemporalGateway } from '../gateway.js';
import { simulationTaskQueue } from '../task-queues.js';

export { simulationWorkflowId };

/** Batch sizes other than the defaults (a test exercising continue-as-new with few subscriptions). */
export type SimulationBatching = Partial<Pick<SimulationWorkflowInput, 'batchSize' | 'batchesPerRun'>>;

export async function startSimulationWorkflow(gateway: TemporalGateway, simulationId: string, batching: SimulationBatching = {}): Promise<void> {
  const input: SimulationWorkflowInput = { simulationId, batchSize: batching.batchSize ?? SIMULATION_BATCH_SIZE, batchesPerRun: batching.batchesPerRun ?? SIMULATION_BATCHES_PER_RUN };
  await gateway.client.workflow.start('simulationWorkflow', {
    workflowId: simulationWorkflowId(simulationId),
    taskQueue: simulationTaskQueue(gateway.taskQueue),
    args: [input],
    typedSearchAttributes: [
      { key: SIMULATION_ID_ATTRIBUTE, value: simulationId },
      { key: SIMULATION_STATUS_ATTRIBUTE, value: 'running' },
    ],
    memo: { simulation_id: simulationId },
  });
}

/**
 * Asks the simulation to stop before its next batch. A workflow that has just ended (its last batch
 * finished as the cancel came in) has nothing left to stop: the signal is dropped.
 */
export async function signalCancelSimulation(gateway: TemporalGateway, simulationId: string): Promise<void> {
  await unlessWorkflowGone(() => gateway.client.workflow.getHandle(simulationWorkflowId(simulationId)).signal(cancelSimulationSignal), undefined);
}

/** The running simulation's progress, as its workflow holds it. */
export function querySimulationProgress(gateway: TemporalGateway, simulationId: string) {
  return gateway.client.workflow.getHandle(simulationWorkflowId(simulationId)).query(simulationProgressQuery);
}
