/** Gets the Temporal CLI and stripe-mock ahead of time (CI runs this before the tests). */
import { ensureTool, STRIPE_MOCK, TEMPORAL_CLI } from '../src/dev/tools.js';

const say = (message: string) => process.stdout.write(`[tools] ${message}\n`);
for (const spec of [TEMPORAL_CLI, STRIPE_MOCK]) {
  say(`${spec.name}: ${await ensureTool(spec, say)}`);
}
