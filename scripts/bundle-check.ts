/**
 * Bundles workflows/ exactly as the worker does. A workflow that imports Node built-ins, Prisma or
 * anything else non-deterministic fails here, in CI, instead of in production.
 */
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { WORKFLOWS_PATH } from '../src/temporal/worker.js';

const started = Date.now();
const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: new DefaultLogger('WARN') });
process.stdout.write(`workflow bundle ok: ${(code.length / 1024).toFixed(0)} KiB in ${Date.now() - started} ms\n`);
