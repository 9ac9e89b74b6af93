/**
 * A price simulation (`simulation:<id>`, services/simulations): counts the subscriptions in scope,
 * then re-rates them in batches of bounded size (one activity each, the results written by it), so
 * progress shows after every batch and a big run's history stays bounded: after
 * `batchesPerRun` batches, or when the server suggests it, the run continues as new with its
 * progress. A cancel signal stops it before the next batch. Nothing it does touches billing.
 */
import {
  ActivityFailure,
  allHandlersFinished,
  CancellationScope,
  condition,
  continueAsNew,
  isCancellation,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { billingErrorOf } from '../failures.js';
import { ACTIVITY_RETRY, SIMULATION_STATUS_ATTRIBUTE } from '../shared/messages.js';
import {
  cancelSimulationSignal,
  simulationProgressQuery,
  type SimulationOutcome,
  type SimulationProgress,
  type SimulationSummary,
  type SimulationWorkflowInput,
} from './messages.js';

const { countSimulationScope, simulateBatch, finishSimulation } = proxyActivities<Activities>({
  // A batch re-rates at most batchSize subscriptions × 36 periods.
  startToCloseTimeout: '10 minutes',
  retry: ACTIVITY_RETRY,
});

export async function simulationWorkflow(input: SimulationWorkflowInput): Promise<SimulationSummary> {
  const id = input.simulationId;
  let cancelRequested = input.cancelRequested ?? false;
  let progress: SimulationProgress = input.progress ?? { subscriptionsTotal: null, subscriptionsDone: 0, periodsDone: 0, after: null };
  let status = cancelRequested ? 'cancelling' : 'running';
  setHandler(cancelSimulationSignal, () => {
    cancelRequested = true;
    if (status !== 'running') return;
    status = 'cancelling';
    upsertSearchAttributes([{ key: SIMULATION_STATUS_ATTRIBUTE, value: status }]);
  });
  setHandler(simulationProgressQuery, () => ({ ...progress, status }));

  const finish = async (outcome: SimulationOutcome, error?: SimulationSummary['error']): Promise<SimulationSummary> => {
    await CancellationScope.nonCancellable(() => finishSimulation({ simulationId: id, status: outcome, ...(error === undefined ? {} : { error }) }));
    status = outcome;
    upsertSearchAttributes([{ key: SIMULATION_STATUS_ATTRIBUTE, value: outcome }]);
    return { ...progress, outcome, ...(error === undefined ? {} : { error }) };
  };

  try {
    if (progress.subscriptionsTotal === null) progress = { ...progress, subscriptionsTotal: await countSimulationScope(id) };
    for (let batches = 0; ; batches += 1) {
      if (cancelRequested) return await finish('cancelled');
      if (batches >= input.batchesPerRun || workflowInfo().continueAsNewSuggested) {
        await condition(allHandlersFinished);
        return await continueAsNew<typeof simulationWorkflow>({ ...input, progress, cancelRequested });
      }
      const batch = await simulateBatch({ simulationId: id, after: progress.after, limit: input.batchSize, subscriptionsDone: progress.subscriptionsDone, periodsDone: progress.periodsDone });
      progress = {
        ...progress,
        subscriptionsDone: progress.subscriptionsDone + batch.subscriptions,
        periodsDone: progress.periodsDone + batch.periods,
        after: batch.last ?? progress.after,
      };
      if (batch.subscriptions < input.batchSize) return await finish('completed');
    }
  } catch (err) {
    if (!(err instanceof ActivityFailure) || isCancellation(err)) throw err;
    return finish('failed', billingErrorOf(err, new Date().toISOString()));
  }
}
