/**
 * The simulation workflow's own logic: batches by cursor until one comes back short, continue-as-new
 * with the progress after `batchesPerRun` batches, a cancel taking effect before the next batch, and a
 * batch that fails for good ending the simulation failed with its error.
 */
import { randomUUID } from 'node:crypto';
import type { WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { cancelSimulationSignal, simulationProgressQuery, simulationWorkflowId, type SimulationBatchInput } from '../../workflows/simulation/messages.js';
import { deferred, deterministicFailure, useWorkflowLogic } from '../support/workflow-logic.js';

const logic = useWorkflowLogic(['countSimulationScope', 'simulateBatch', 'finishSimulation']);

/** A scope of `subscriptions` subscriptions named s1, s2, … with two periods each. */
const batches = (subscriptions: number) => async (input: SimulationBatchInput) => {
  const from = input.after === null ? 0 : Number(input.after.slice(1));
  const count = Math.max(0, Math.min(input.limit, subscriptions - from));
  return { subscriptions: count, periods: count * 2, last: count === 0 ? null : `s${from + count}` };
};

describe.concurrent('simulation workflow', () => {
  it('re-rates batch after batch from the cursor, continuing as new with its progress, until a batch comes back short', async () => {
    const simulationId = randomUUID();
    const run = logic.mock(simulationWorkflowId(simulationId), { countSimulationScope: async () => 5, simulateBatch: batches(5), finishSimulation: async () => {} });
    const handle = await logic.start('simulationWorkflow', run.id, [{ simulationId, batchSize: 2, batchesPerRun: 2 }]);
    expect(await handle.result()).toEqual({ outcome: 'completed', subscriptionsTotal: 5, subscriptionsDone: 5, periodsDone: 10, after: 's5' });
    expect(run.argsOf('countSimulationScope')).toEqual([[simulationId]]);
    expect(run.argsOf('simulateBatch').map(([input]) => input)).toEqual([
      { simulationId, after: null, limit: 2, subscriptionsDone: 0, periodsDone: 0 },
      { simulationId, after: 's2', limit: 2, subscriptionsDone: 2, periodsDone: 4 },
      // The next run, with the progress handed over.
      { simulationId, after: 's4', limit: 2, subscriptionsDone: 4, periodsDone: 8 },
    ]);
    expect(run.argsOf('finishSimulation')).toEqual([[{ simulationId, status: 'completed' }]]);
    // The run started first continued as new; the one that completed is the next.
    const first = await logic.client.workflow.getHandle(run.id, (handle as WorkflowHandleWithFirstExecutionRunId).firstExecutionRunId).describe();
    expect(first.status.name).toBe('CONTINUED_AS_NEW');
    expect((await handle.describe()).status.name).toBe('COMPLETED');
  });

  it('stops before its next batch once cancelled, and its query shows cancelling meanwhile', async () => {
    const simulationId = randomUUID();
    const release = deferred();
    const all = batches(10);
    const run = logic.mock(simulationWorkflowId(simulationId), {
      countSimulationScope: async () => 10,
      simulateBatch: async (input: SimulationBatchInput) => {
        await release.promise;
        return all(input);
      },
      finishSimulation: async () => {},
    });
    const handle = await logic.start('simulationWorkflow', run.id, [{ simulationId, batchSize: 3, batchesPerRun: 10 }]);
    await run.called('simulateBatch');
    await handle.signal(cancelSimulationSignal);
    expect(await handle.query(simulationProgressQuery)).toMatchObject({ status: 'cancelling', subscriptionsDone: 0 });
    release.resolve();
    expect(await handle.result()).toMatchObject({ outcome: 'cancelled', subscriptionsDone: 3, periodsDone: 6 });
    expect(run.calls.map((call) => call.activity)).toEqual(['countSimulationScope', 'simulateBatch', 'finishSimulation']);
    expect(run.argsOf('finishSimulation')).toEqual([[{ simulationId, status: 'cancelled' }]]);
  });

  it('ends failed with the error of a batch that fails for good', async () => {
    const simulationId = randomUUID();
    const run = logic.mock(simulationWorkflowId(simulationId), {
      countSimulationScope: async () => 4,
      simulateBatch: async () => {
        throw deterministicFailure('tiers of sku x are not increasing');
      },
      finishSimulation: async () => {},
    });
    const handle = await logic.start('simulationWorkflow', run.id, [{ simulationId, batchSize: 2, batchesPerRun: 10 }]);
    const result = await handle.result();
    expect(result).toMatchObject({ outcome: 'failed', subscriptionsDone: 0, error: { step: 'simulateBatch', type: 'DeterministicFailure', message: 'tiers of sku x are not increasing' } });
    expect(run.argsOf('finishSimulation')).toEqual([[{ simulationId, status: 'failed', error: result.error }]]);
  });
});
