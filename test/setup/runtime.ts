/**
 * What the global setups share. The Temporal Runtime of the test runner's main process, where every
 * project's global setup runs: there is one per process, and the first Worker, NativeConnection or
 * TestWorkflowEnvironment instantiates it. Each global setup installs it first, with the same
 * options, so whichever runs first decides and the other finds it installed.
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

/** A global setup's teardown: the steps it registered, run last first; a step that fails is logged, the others still run. */
export function unwinder(steps: (() => Promise<void>)[], log: (message: string) => void): () => Promise<void> {
  return async () => {
    for (const step of steps.reverse()) await step().catch((err: unknown) => log(`teardown: ${(err as Error).message}`));
  };
}
