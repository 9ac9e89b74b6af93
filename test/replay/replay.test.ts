/**
 * Replays every committed history against the current workflow code. A non-deterministic change to
 * a workflow fails here: use patched() or capture new histories, deliberately.
 */
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { beforeAll, describe, expect, it } from 'vitest';
import * as workflows from '../../workflows/index.js';
import { WORKFLOWS_PATH } from '../../src/temporal/worker.js';
import { loadCommittedHistories, type CommittedHistory } from '../support/histories.js';

let histories: CommittedHistory[];
beforeAll(async () => {
  histories = await loadCommittedHistories();
});

describe('workflow replay', () => {
  it('has at least one committed history for every workflow type', () => {
    const types = Object.entries(workflows)
      .filter(([, value]) => typeof value === 'function')
      .map(([name]) => name);
    const covered = new Set(histories.map((h) => h.workflowType));
    expect(types.filter((type) => !covered.has(type))).toEqual([]);
  });

  it('replays every committed history deterministically', async () => {
    Runtime.install({ logger: new DefaultLogger('WARN') });
    const workflowBundle = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: new DefaultLogger('WARN') });
    const failures: string[] = [];
    let replayed = 0;
    for await (const result of Worker.runReplayHistories(
      { workflowBundle, replayName: 'committed-histories' },
      histories.map((h) => ({ workflowId: h.workflowId, history: h.history })),
    )) {
      replayed += 1;
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
    expect(replayed).toBe(histories.length);
  }, 120_000);
});
