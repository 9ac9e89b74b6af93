/**
 * The service's database role (docs/configuration.md, "Database role"): created by the same SQL docker-compose runs
 * (docker/postgres-init/sql/app-role.sql), the app works as it, and it cannot switch off or bypass the
 * database's guards: no DISABLE TRIGGER, no TRUNCATE, no session_replication_role = replica, no DELETE of usage
 * events but through the retention's function.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { createDb } from '../../src/db/client.js';
import { PROJECT_ROOT } from '../../src/dev/paths.js';
import { createApp } from '../../src/http/app.js';
import { ROUTES } from '../../src/http/routes/index.js';
import { newId } from '../../src/ids.js';
import { expectJson, useHarness } from '../support/harness.js';

const ROLE = `billing_app_test_${process.pid}`;
const PASSWORD = 'role-test-password';

const h = useHarness();
let asRole: ReturnType<typeof createDb>;
let client: pg.Client;

/** The role SQL with its psql variables filled in, as psql would. */
function roleSql(): string {
  const sql = readFileSync(path.join(PROJECT_ROOT, 'docker', 'postgres-init', 'sql', 'app-role.sql'), 'utf8');
  return sql.replaceAll(':"app_role"', `"${ROLE}"`).replaceAll(":'app_password'", `'${PASSWORD}'`);
}

beforeAll(async () => {
  await h.deps.pool.query(roleSql());
  const url = new URL(inject('databaseUrl'));
  url.username = ROLE;
  url.password = PASSWORD;
  asRole = createDb(url.toString(), 2);
  client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
});

afterAll(async () => {
  await client?.end().catch(() => undefined);
  await asRole?.db.$disconnect().catch(() => undefined);
  await asRole?.pool.end().catch(() => undefined);
  // The role's grants and default privileges go with it.
  await h.deps.pool.query(`DROP OWNED BY "${ROLE}"; DROP ROLE "${ROLE}"`);
});

describe('the service database role', () => {
  it('is a login role that is no superuser and owns nothing', async () => {
    const { rows } = await client.query<{ current_user: string; rolsuper: boolean; rolbypassrls: boolean; owned: number }>(
      `SELECT current_user, r.rolsuper, r.rolbypassrls,
              (SELECT count(*)::int FROM pg_tables WHERE schemaname = 'public' AND tableowner = current_user) AS owned
       FROM pg_roles r WHERE r.rolname = current_user`,
    );
    expect(rows).toEqual([{ current_user: ROLE, rolsuper: false, rolbypassrls: false, owned: 0 }]);
  });

  it('cannot disable the guard triggers, truncate the append-only tables or skip triggers', async () => {
    for (const table of ['usage_events', 'ledger_entries', 'ledger_journals', 'audit_log']) {
      await expect(client.query(`ALTER TABLE ${table} DISABLE TRIGGER ALL`), table).rejects.toThrow(/must be owner/);
      await expect(client.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`), table).rejects.toThrow(/must be owner/);
      await expect(client.query(`TRUNCATE ${table}`), table).rejects.toThrow(/permission denied/);
      await expect(client.query(`DROP TABLE ${table}`), table).rejects.toThrow(/must be owner/);
    }
    await expect(client.query('SET session_replication_role = replica')).rejects.toThrow(/permission denied/);
  });

  it('runs the API: a customer (row and audit entry) and a usage event are written as the role', async () => {
    const app = createApp({ ...h.deps, db: asRole.db, pool: asRole.pool }, ROUTES);
    const headers = { authorization: `Bearer ${h.adminToken}`, 'content-type': 'application/json' };
    const post = (url: string, body: unknown) => app.request(url, { method: 'POST', headers, body: JSON.stringify(body) });
    const customer = await expectJson<{ id: string }>(
      await post('/admin/v1/customers', { display_name: 'Role Test', email: 'role@example.com', currency: 'USD', account_type: 'Organization' }),
      201,
    );
    const eventId = `role-${newId()}`;
    const accepted = await expectJson<{ accepted: boolean }>(
      await post('/v1/events', { id: eventId, event_type: 'role_test', customer_id: customer.id, timestamp: new Date().toISOString(), properties: {} }),
    );
    expect(accepted.accepted).toBe(true);
    // Read back by the owner: the rows are there.
    expect(await h.deps.db.auditLogEntry.count({ where: { entityId: customer.id, action: 'customer.created' } })).toBe(1);
    expect(await h.deps.db.usageEvent.count({ where: { id: eventId } })).toBe(1);
    // The guard triggers still fire for the role.
    await expect(client.query(`UPDATE audit_log SET action = 'customer.forged' WHERE entity_id = $1`, [customer.id])).rejects.toThrow(/append-only/);
    await expect(client.query('DELETE FROM usage_events WHERE id = $1', [eventId])).rejects.toThrow(/append-only/);
    // Raw events leave only through the retention's function (it deletes as the owner, only what is final): the
    // setting it runs with lets the role delete nothing; calling it is allowed, and it judges for itself.
    await client.query(`SET billing.usage_events_prune = 'on'`);
    await expect(client.query('DELETE FROM usage_events WHERE id = $1', [eventId])).rejects.toThrow(/append-only/);
    await client.query('RESET billing.usage_events_prune');
    const pruned = await client.query<{ deleted: number }>('SELECT usage_events_prune($1::uuid, 40, 35, 100)::int AS deleted', [customer.id]);
    expect(pruned.rows).toEqual([{ deleted: 0 }]);
    await expect(client.query('SELECT usage_events_prune($1::uuid, 35, 35, 100)', [customer.id])).rejects.toThrow(/must be longer than the late-usage window/);
    expect(await h.deps.db.usageEvent.count({ where: { id: eventId } })).toBe(1);
  });
});
