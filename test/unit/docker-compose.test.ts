/** No Docker engine runs in CI: keep docker-compose.yml right by checking its structure. */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/dev/paths.js';

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string | number>;
  depends_on?: Record<string, { condition: string }> | string[];
  volumes?: string[];
}

const compose = parse(readFileSync(path.join(PROJECT_ROOT, 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const packageJson = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

describe('docker-compose.yml', () => {
  it('defines postgres, temporal with its UI, migrations, api and worker', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['api', 'migrate', 'postgres', 'temporal', 'temporal-ui', 'worker']);
  });

  it('runs the production npm scripts that exist', () => {
    expect(compose.services.api!.command).toEqual(['npm', 'run', 'start:api']);
    expect(compose.services.worker!.command).toEqual(['npm', 'run', 'start:worker']);
    expect(packageJson.scripts['start:api']).toBeDefined();
    expect(packageJson.scripts['start:worker']).toBeDefined();
  });

  it('gives api and worker every required variable, pointing at the compose services', () => {
    for (const name of ['api', 'worker']) {
      const env = compose.services[name]!.environment!;
      expect(env.NODE_ENV).toBe('production');
      // The service's role, not the schema's owner (README, "Database role").
      expect(String(env.DATABASE_URL)).toBe('postgresql://billing_app:${BILLING_APP_DB_PASSWORD:-billing_app}@postgres:5432/billing');
      expect(env.TEMPORAL_ADDRESS).toBe('temporal:7233');
      for (const secret of ['JWT_SECRET', 'API_KEY_HASH', 'PROCESSOR_WEBHOOK_SECRET']) {
        expect(String(env[secret])).toMatch(new RegExp(`^\\$\\{${secret}:\\?`));
      }
    }
  });

  it('starts the app only after migrations and healthy dependencies', () => {
    for (const name of ['api', 'worker']) {
      expect(compose.services[name]!.depends_on).toMatchObject({
        migrate: { condition: 'service_completed_successfully' },
        temporal: { condition: 'service_healthy' },
      });
    }
    expect(compose.services.migrate!.depends_on).toMatchObject({ postgres: { condition: 'service_healthy' } });
    expect(compose.services['temporal-ui']!.environment!.TEMPORAL_ADDRESS).toBe('temporal:7233');
  });

  it('declares the volumes it mounts', () => {
    expect(Object.keys(compose.volumes)).toContain('postgres-data');
  });

  it('migrates as the schema owner and creates the service role on first start with the same name and password', () => {
    expect(compose.services.migrate!.environment!.DATABASE_URL).toBe('postgresql://billing:billing@postgres:5432/billing');
    const postgres = compose.services.postgres!;
    expect(postgres.volumes).toContain('./docker/postgres-init:/docker-entrypoint-initdb.d:ro');
    expect(postgres.environment).toMatchObject({ POSTGRES_USER: 'billing', BILLING_APP_DB_USER: 'billing_app', BILLING_APP_DB_PASSWORD: '${BILLING_APP_DB_PASSWORD:-billing_app}' });
    const url = new URL(String(compose.services.api!.environment!.DATABASE_URL).replace('${BILLING_APP_DB_PASSWORD:-billing_app}', 'secret'));
    expect(url.username).toBe(postgres.environment!.BILLING_APP_DB_USER);
    expect(postgres.environment!.POSTGRES_USER).not.toBe(url.username);
  });

  it('mounts an init folder whose script runs the role SQL with the role from the environment', () => {
    const folder = path.join(PROJECT_ROOT, 'docker', 'postgres-init');
    const script = readFileSync(path.join(folder, '10-app-role.sh'), 'utf8');
    expect(statSync(path.join(folder, '10-app-role.sh')).mode & 0o111).not.toBe(0);
    expect(script).toMatch(/^#!\/bin\/sh\n/);
    expect(script).toContain('-v app_role="${BILLING_APP_DB_USER:?}" -v app_password="${BILLING_APP_DB_PASSWORD:?}"');
    expect(script).toContain('-f /docker-entrypoint-initdb.d/sql/app-role.sql');
    const sql = readFileSync(path.join(folder, 'sql', 'app-role.sql'), 'utf8')
      .split('\n')
      .filter((line) => !line.startsWith('--'))
      .join('\n');
    expect(sql).toMatch(/CREATE ROLE :"app_role" LOGIN PASSWORD :'app_password' NOSUPERUSER/);
    // Rows only: no TRUNCATE, no ownership, now and for the tables later migrations create.
    expect(sql).not.toMatch(/TRUNCATE|ALL PRIVILEGES|OWNER TO|SUPERUSER;|GRANT[^;]*billing/i);
    expect(sql).toMatch(/ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO :"app_role";/);
  });
});
