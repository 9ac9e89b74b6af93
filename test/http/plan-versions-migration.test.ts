/**
 * The plan_versions migration on existing data: a database migrated up to the migration before it,
 * holding a plan with SKUs and a subscription with its plan phase, is migrated; every plan then has
 * a version 1, and the SKUs, the subscription and its phase are on it.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dropDatabase, ensureDatabase } from '../../src/dev/embedded-postgres.js';
import { PROJECT_ROOT } from '../../src/dev/paths.js';
import { newId } from '../../src/ids.js';

const MIGRATION = '20261124140000_plan_versions';
const MIGRATIONS = path.join(PROJECT_ROOT, 'prisma/migrations');

let url: string;
let client: pg.Client;

const apply = async (name: string) => client.query(await readFile(path.join(MIGRATIONS, name, 'migration.sql'), 'utf8'));

beforeAll(async () => {
  const scratch = new URL(inject('databaseUrl'));
  scratch.pathname = `/plan_versions_${process.pid}`;
  url = scratch.toString();
  await dropDatabase(url);
  await ensureDatabase(url);
  client = new pg.Client({ connectionString: url });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  if (url) await dropDatabase(url);
});

describe('the plan_versions migration', () => {
  it('gives every existing plan version 1 and puts its SKUs, subscriptions and phases on it', async () => {
    const folders = (await readdir(MIGRATIONS, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort();
    const before = folders.filter((name) => name < MIGRATION);
    for (const name of before) await apply(name);

    const [customer, plan, bare, sku, subscription, phase] = [newId(), newId(), newId(), newId(), newId(), newId()];
    await client.query(
      `INSERT INTO customers (id, display_name, email, account_type, billing_currency, updated_at) VALUES ($1, 'Old', 'old@example.com', 'Organization', 'USD', now())`,
      [customer],
    );
    await client.query(`INSERT INTO plans (id, name, billing_cadence, created_at) VALUES ($1, 'Old plan', 'Monthly', '2026-01-01T00:00:00Z'), ($2, 'Empty', 'Monthly', now())`, [plan, bare]);
    await client.query(`INSERT INTO skus (id, plan_id, name, pricing_model, unit_amount_nanos, currency) VALUES ($1, $2, 'Base', 'Flat', 1000, 'USD')`, [sku, plan]);
    await client.query(
      `INSERT INTO subscriptions (id, customer_id, plan_id, currency, status, period_start, period_end, billing_anchor, updated_at)
       VALUES ($1, $2, $3, 'USD', 'Active', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z', '2026-01-01T00:00:00Z', now())`,
      [subscription, customer, plan],
    );
    await client.query(`INSERT INTO subscription_phases (id, subscription_id, plan_id, starts_at) VALUES ($1, $2, $3, '2026-01-01T00:00:00Z')`, [phase, subscription, plan]);

    await apply(MIGRATION);

    const versions = await client.query<{ plan_id: string; version: number; created_at: Date }>('SELECT plan_id::text, version, created_at FROM plan_versions ORDER BY created_at');
    expect(versions.rows.map((r) => [r.plan_id, r.version])).toEqual([
      [plan, 1],
      [bare, 1],
    ]);
    expect(versions.rows[0]!.created_at.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect((await client.query('SELECT version, archived_at FROM plans WHERE id = $1', [plan])).rows).toEqual([{ version: 1, archived_at: null }]);
    expect((await client.query('SELECT version_from, version_to FROM skus WHERE id = $1', [sku])).rows).toEqual([{ version_from: 1, version_to: null }]);
    expect((await client.query('SELECT plan_version FROM subscriptions WHERE id = $1', [subscription])).rows).toEqual([{ plan_version: 1 }]);
    expect((await client.query('SELECT plan_version FROM subscription_phases WHERE id = $1', [phase])).rows).toEqual([{ plan_version: 1 }]);

    // A plan inserted afterwards gets its version 1 with its row; a subscription cannot name a version the plan lacks.
    const later = newId();
    await client.query(`INSERT INTO plans (id, name, billing_cadence) VALUES ($1, 'Later', 'Monthly')`, [later]);
    expect((await client.query('SELECT version FROM plan_versions WHERE plan_id = $1', [later])).rows).toEqual([{ version: 1 }]);
    await expect(client.query('UPDATE subscriptions SET plan_version = 2 WHERE id = $1', [subscription])).rejects.toThrow(/subscriptions_plan_version_fkey/);
  });
});
