/**
 * Global setup of the workflow-logic project: one headless, in-memory Temporal dev server (the CLI
 * binary the project installs, with the workflows' search attributes registered) and one bundle of
 * the real workflow code, shared by every test file. No database, no payment processor: each test
 * file runs its own worker with mocked activities (test/support/workflow-logic.ts).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { freePort } from '../../src/dev/processes.js';
import { startTemporalDevServer } from '../../src/dev/temporal-dev-server.js';
import { ensureTool, TEMPORAL_CLI } from '../../src/dev/tools.js';

/** The worker's bundle entry: every workflow type, as production runs them. */
const WORKFLOWS_ENTRY = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

declare module 'vitest' {
  export interface ProvidedContext {
    workflowLogicAddress: string;
    workflowLogicNamespace: string;
    workflowLogicBundlePath: string;
  }
}

const log = (message: string) => process.stdout.write(`[workflow-logic] ${message}\n`);

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const teardown: (() => Promise<void>)[] = [];
  const unwind = async () => {
    for (const step of teardown.reverse()) await step().catch((err: unknown) => log(`teardown: ${(err as Error).message}`));
  };
  try {
    const binary = await ensureTool(TEMPORAL_CLI, log);
    const scratch = await mkdtemp(path.join(os.tmpdir(), 'workflow-logic-'));
    teardown.push(() => rm(scratch, { recursive: true, force: true }));
    const [server, bundle] = await Promise.all([
      startTemporalDevServer({ binary, port: await freePort(), uiPort: 0, namespace: 'default', headless: true }),
      bundleWorkflowCode({ workflowsPath: WORKFLOWS_ENTRY, logger: new DefaultLogger('WARN') }),
    ]);
    teardown.push(server.stop);
    const bundlePath = path.join(scratch, 'workflows.js');
    await writeFile(bundlePath, bundle.code);

    project.provide('workflowLogicAddress', server.address);
    project.provide('workflowLogicNamespace', 'default');
    project.provide('workflowLogicBundlePath', bundlePath);
    log(`ready in ${Date.now() - started} ms (temporal ${server.address}, workflow bundle)`);
  } catch (err) {
    await unwind();
    throw err;
  }
  return unwind;
}
