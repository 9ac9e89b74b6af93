/**
 * Global setup of the workflow-logic project: the SDK's TestWorkflowEnvironment.createLocal on the
 * Temporal CLI binary the project installs (an in-memory dev server, no UI, the workflows' search
 * attributes registered; there is no time-skipping server on these machines) and one bundle of
 * the real workflow code, shared by every test file. No database, no payment processor: each test
 * file runs its own worker with mocked activities (test/support/workflow-logic.ts).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { ensureTool, TEMPORAL_CLI } from '../../src/dev/tools.js';
import { installTestRuntime, unwinder } from '../setup/runtime.js';
import { SEARCH_ATTRIBUTE_KEYS } from '../../workflows/shared/messages.js';

/** The worker's bundle entry: every workflow type, as production runs them. */
const WORKFLOWS_ENTRY = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

declare module 'vitest' {
  export interface ProvidedContext {
    workflowLogicAddress: string;
    workflowLogicNamespace: string;
    workflowLogicBundlePath: string;
  }
}

const NAMESPACE = 'default';

const log = (message: string) => process.stdout.write(`[workflow-logic] ${message}\n`);

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const teardown: (() => Promise<void>)[] = [];
  const unwind = unwinder(teardown, log);
  try {
    const binary = await ensureTool(TEMPORAL_CLI, log);
    const scratch = await mkdtemp(path.join(os.tmpdir(), 'workflow-logic-'));
    teardown.push(() => rm(scratch, { recursive: true, force: true }));
    installTestRuntime();
    const [env, bundle] = await Promise.all([
      TestWorkflowEnvironment.createLocal({
        server: { executable: { type: 'existing-path', path: binary }, namespace: NAMESPACE, searchAttributes: [...SEARCH_ATTRIBUTE_KEYS] },
      }),
      bundleWorkflowCode({ workflowsPath: WORKFLOWS_ENTRY, logger: new DefaultLogger('WARN') }),
    ]);
    teardown.push(() => env.teardown());
    const bundlePath = path.join(scratch, 'workflows.js');
    await writeFile(bundlePath, bundle.code);

    // Test files run in workers of their own: they connect to the environment's server by address.
    project.provide('workflowLogicAddress', env.address);
    project.provide('workflowLogicNamespace', NAMESPACE);
    project.provide('workflowLogicBundlePath', bundlePath);
    log(`ready in ${Date.now() - started} ms (temporal ${env.address}, workflow bundle)`);
  } catch (err) {
    await unwind();
    throw err;
  }
  return unwind;
}
