/**
 * Generates the typed client's types (client/schema.d.ts) from the OpenAPI document the routes
 * declare, with openapi-typescript. `npm run client:generate` after a route change; the test suite
 * fails while the committed file and the document disagree (test/unit/client.test.ts).
 *
 *   npm run client:generate            # writes client/schema.d.ts
 *   npm run client:generate -- --check # exits 1 when the committed file is out of date
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { clientSchemaSource } from './client-schema.js';

const TARGET = fileURLToPath(new URL('../client/schema.d.ts', import.meta.url));

const fresh = await clientSchemaSource();
if (process.argv.includes('--check')) {
  const committed = await readFile(TARGET, 'utf8').catch(() => '');
  if (committed !== fresh) {
    process.stderr.write('client/schema.d.ts is out of date: run npm run client:generate\n');
    process.exit(1);
  }
  process.stdout.write('client/schema.d.ts matches the OpenAPI document\n');
} else {
  await writeFile(TARGET, fresh);
  process.stdout.write(`wrote client/schema.d.ts (${fresh.length} characters)\n`);
}
