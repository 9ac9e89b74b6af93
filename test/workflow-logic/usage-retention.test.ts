/**
 * The daily usage event retention run (`usageEventRetentionWorkflow`, started by the Schedule
 * `usage-event-retention`): it answers what its activity deleted; a deterministic failure of the
 * activity (a retention the configuration should have refused) fails the run at once, never retried;
 * a transient one is retried on the run's bounded schedule. The activity is a mock.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ActivityFailure, ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import type { UsageEventRetentionSummary } from '../../workflows/usage-event-retention/messages.js';
import { DETERMINISTIC_FAILURE } from '../../workflows/shared/messages.js';
import { deterministicFailure, useWorkflowLogic } from '../support/workflow-logic.js';

const logic = useWorkflowLogic(['pruneUsageEvents']);

const summary: UsageEventRetentionSummary = { retentionDays: 40, customers: 3, deleted: 12_000, failed: [{ kind: 'customer', id: randomUUID(), message: 'numeric field overflow' }] };

describe.concurrent('the usage event retention run', () => {
  it('answers what its activity deleted', async () => {
    const run = logic.mock(`usage-event-retention-${randomUUID()}`, { pruneUsageEvents: async () => summary });
    const handle = await logic.start('usageEventRetentionWorkflow', run.id, []);
    expect(await handle.result()).toEqual(summary);
    expect(run.argsOf('pruneUsageEvents')).toEqual([[]]);
  });

  it('fails at once on a deterministic failure of its activity, without retrying it', async () => {
    const run = logic.mock(`usage-event-retention-${randomUUID()}`, {
      pruneUsageEvents: async () => {
        throw deterministicFailure('invalid configuration: USAGE_EVENT_RETENTION_DAYS must be at least LATE_USAGE_MAX_DAYS + 1');
      },
    });
    const handle = await logic.start('usageEventRetentionWorkflow', run.id, []);
    const failure = await handle.result().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(WorkflowFailedError);
    const cause = (failure as WorkflowFailedError).cause;
    expect(cause).toBeInstanceOf(ActivityFailure);
    expect((cause as ActivityFailure).cause).toMatchObject({ type: DETERMINISTIC_FAILURE });
    expect((cause as ActivityFailure).cause).toBeInstanceOf(ApplicationFailure);
    expect(run.argsOf('pruneUsageEvents')).toHaveLength(1);
  });

  it('retries a transient failure of its activity', async () => {
    let attempts = 0;
    const run = logic.mock(`usage-event-retention-${randomUUID()}`, {
      pruneUsageEvents: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        return summary;
      },
    });
    const handle = await logic.start('usageEventRetentionWorkflow', run.id, []);
    expect(await handle.result()).toEqual(summary);
    expect(run.argsOf('pruneUsageEvents')).toHaveLength(2);
  });
});
