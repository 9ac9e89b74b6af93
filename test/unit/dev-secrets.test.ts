/** Local-mode secrets: generated once, reused, and completed when a newer version needs one more. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadOrCreateDevSecrets } from '../../src/dev/secrets.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'dev-secrets-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('local dev secrets', () => {
  it('are generated once and reused', async () => {
    const first = await loadOrCreateDevSecrets(dir);
    expect(first.hosted_link_secret.length).toBeGreaterThanOrEqual(32);
    expect(await loadOrCreateDevSecrets(dir)).toEqual(first);
  });

  it('keep the secrets of an older data folder and add the missing hosted link secret', async () => {
    const older = { jwt_secret: 'j'.repeat(43), api_key: `bsk_test_${'k'.repeat(32)}`, processor_webhook_secret: `whsec_${'w'.repeat(32)}` };
    await writeFile(path.join(dir, 'dev-secrets.json'), JSON.stringify(older));
    const secrets = await loadOrCreateDevSecrets(dir);
    expect(secrets).toMatchObject(older);
    expect(secrets.hosted_link_secret.length).toBeGreaterThanOrEqual(32);
    expect(JSON.parse(await readFile(path.join(dir, 'dev-secrets.json'), 'utf8'))).toEqual(secrets);
  });
});
