/**
 * The typed client's types (client/schema.d.ts) are the OpenAPI document's: generated afresh from
 * the route definitions they must equal the committed file, so a route change that was not followed
 * by `npm run client:generate` fails here (and its use in test/http/typed-client.test.ts fails the
 * typecheck when it no longer fits).
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { clientSchemaSource } from '../../scripts/client-schema.js';

describe('client/schema.d.ts', () => {
  it('is what openapi-typescript generates from the current document (npm run client:generate)', async () => {
    const committed = await readFile(new URL('../../client/schema.d.ts', import.meta.url), 'utf8');
    const fresh = await clientSchemaSource();
    // Not toBe: on a mismatch, a diff of 700 KB would drown the message.
    expect(committed === fresh, 'client/schema.d.ts is out of date: run npm run client:generate').toBe(true);
  });
});
