/**
 * The Temporal Runtime of the test runner's main process, where every project's global setup runs:
 * there is one per process, and the first Worker, NativeConnection or TestWorkflowEnvironment
 * instantiates it. Each global setup installs it first, with the same options, so whichever runs
 * first decides and the other finds it installed.
 */
import { IllegalStateError } from '@temporalio/common';
import { DefaultLogger, Runtime } from '@temporalio/worker';

export function installTestRuntime(): void {
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch (err) {
    if (!(err instanceof IllegalStateError)) throw err;
  }
}
