/**
 * Exports workflow histories from a Temporal server into test/replay/histories/ for replay tests.
 *   npm run histories:export -- <workflow-id> [<workflow-id> …]
 * TEMPORAL_ADDRESS (default 127.0.0.1:7233) and TEMPORAL_NAMESPACE (default) pick the server.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { connectTemporal } from '../src/temporal/client.js';
import { PROJECT_ROOT } from '../src/dev/paths.js';

const ids = process.argv.slice(2);
if (ids.length === 0) {
  process.stderr.write('usage: npm run histories:export -- <workflow-id> [<workflow-id> …]\n');
  process.exit(2);
}
const { client, connection } = await connectTemporal(process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233', process.env.TEMPORAL_NAMESPACE ?? 'default');
const dir = path.join(PROJECT_ROOT, 'test', 'replay', 'histories');
await mkdir(dir, { recursive: true });
for (const id of ids) {
  const handle = client.workflow.getHandle(id);
  const { type } = await handle.describe();
  const file = path.join(dir, `${type}--${id.replace(/[^A-Za-z0-9_.-]+/g, '_')}.json`);
  await writeFile(file, `${JSON.stringify(JSON.parse(historyToJSON(await handle.fetchHistory())), null, 2)}\n`);
  process.stdout.write(`exported ${id} → ${path.relative(PROJECT_ROOT, file)}\n`);
}
await connection.close();
