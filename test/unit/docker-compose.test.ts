/**
 * No Docker engine runs in CI: docker-compose.yml is checked by reading it. Its variables are
 * interpolated here as compose does (${VAR}, ${VAR:-default}, ${VAR:?error}), so the services'
 * environment, filled from docker/local.env or from a deployment's secrets, goes through the same
 * configuration parsing the API and the worker run at start.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadApiConfig, loadWorkerConfig, processorSettings, SECRET_VARIABLES, STRIPE_API_BASE } from '../../src/config.js';
import { PROJECT_ROOT } from '../../src/dev/paths.js';
import { sha256Hex } from '../../src/http/middleware/auth.js';

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  init?: boolean;
  environment?: Record<string, string | number>;
  depends_on?: Record<string, { condition: string }> | string[];
  volumes?: string[];
  ports?: string[];
  healthcheck?: { disable?: boolean; test?: string[] };
}

const compose = parse(readFileSync(path.join(PROJECT_ROOT, 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const packageJson = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const LOCAL_ENV_FILE = readFileSync(path.join(PROJECT_ROOT, 'docker', 'local.env'), 'utf8');

/** KEY=VALUE lines of an env file (compose's --env-file); comments and blank lines skipped. */
function envFile(text: string): Record<string, string> {
  const entries = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const eq = line.indexOf('=');
      return [line.slice(0, eq), line.slice(eq + 1)] as const;
    });
  return Object.fromEntries(entries);
}

/** Compose's interpolation of one value; the names of required variables that are unset go to `missing`. */
function interpolate(value: string, env: Record<string, string | undefined>, missing: Set<string>): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g, (whole, name: string | undefined, operator: string | undefined, operand: string | undefined) => {
    if (whole === '$$') return '$';
    const current = env[name!];
    const unset = current === undefined || (operator?.startsWith(':') === true && current === '');
    if (!unset) return current!;
    if (operator?.endsWith('-')) return operand!;
    if (operator?.endsWith('?')) missing.add(name!);
    return '';
  });
}

/** A service's environment as its container gets it, or the unset required variables. */
function serviceEnv(service: string, env: Record<string, string | undefined>): { env: Record<string, string>; missing: string[] } {
  const missing = new Set<string>();
  const resolved = Object.fromEntries(Object.entries(compose.services[service]!.environment!).map(([key, value]) => [key, interpolate(String(value), env, missing)]));
  return { env: resolved, missing: [...missing].sort() };
}

/** Values shaped like a deployment's, none of them the local file's. */
const DEPLOYMENT_ENV = {
  JWT_SECRET: 'd'.repeat(48),
  API_KEY_HASH: sha256Hex('bsk_live_deployment_key_0123456789'),
  PROCESSOR_WEBHOOK_SECRET: 'whsec_deployment_secret',
  HOSTED_LINK_SECRET: 'h'.repeat(40),
  PROCESSOR_SECRET_KEY: 'sk_live_deployment',
};

describe('docker-compose.yml', () => {
  it('defines postgres, temporal with its UI, stripe-mock, migrations, api and worker', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['api', 'migrate', 'postgres', 'stripe-mock', 'temporal', 'temporal-ui', 'worker']);
  });

  it('runs the API and the worker as separate services from the image, with the npm start scripts’ entry files', () => {
    expect(compose.services.api!.command).toEqual(['node', '--import', 'tsx', 'src/main.ts']);
    expect(compose.services.worker!.command).toEqual(['node', '--import', 'tsx', 'src/worker.ts']);
    expect(packageJson.scripts['start:api']).toBe('tsx src/main.ts');
    expect(packageJson.scripts['start:worker']).toBe('tsx src/worker.ts');
    for (const name of ['api', 'worker', 'migrate']) expect(compose.services[name]!.build).toBe('.');
    // An init process as PID 1 passes the stop signal on and reaps children.
    for (const name of ['api', 'worker']) expect(compose.services[name]!.init).toBe(true);
  });

  it('keeps the image health check (GET /health) for the API and turns it off for the worker, which serves no HTTP', () => {
    expect(compose.services.api!.healthcheck).toBeUndefined();
    expect(compose.services.api!.ports).toEqual(['3000:3000']);
    expect(compose.services.worker!.healthcheck).toEqual({ disable: true });
    expect(compose.services.worker!.ports).toBeUndefined();
  });

  it('requires every secret the services refuse to start without, and the processor key', () => {
    expect(serviceEnv('api', {}).missing).toEqual([...SECRET_VARIABLES, 'PROCESSOR_SECRET_KEY'].sort());
    expect(serviceEnv('worker', {}).missing).toEqual(serviceEnv('api', {}).missing);
    for (const secret of serviceEnv('api', {}).missing) {
      expect(String(compose.services.api!.environment![secret])).toMatch(new RegExp(`^\\$\\{${secret}:\\?set ${secret} .*--env-file docker/local\\.env\\}$`));
    }
  });

  it('gives a deployment a valid API and worker configuration that pays through the real processor unless told otherwise', () => {
    for (const name of ['api', 'worker']) {
      const { env, missing } = serviceEnv(name, DEPLOYMENT_ENV);
      expect(missing).toEqual([]);
      expect(env.NODE_ENV).toBe('production');
      // The service's role, not the schema's owner (docs/configuration.md, "Database role").
      expect(env.DATABASE_URL).toBe('postgresql://billing_app:billing_app@postgres:5432/billing');
      expect(env.TEMPORAL_ADDRESS).toBe('temporal:7233');
      const worker = loadWorkerConfig(env);
      expect(processorSettings(worker)).toEqual({ apiBase: STRIPE_API_BASE, secretKey: 'sk_live_deployment' });
      if (name === 'api') expect(loadApiConfig(env).HOSTED_LINK_SECRET).toBe(DEPLOYMENT_ENV.HOSTED_LINK_SECRET);
    }
  });

  it('starts for a local try with docker/local.env alone, paying against the bundled stripe-mock', () => {
    const local = envFile(LOCAL_ENV_FILE);
    for (const name of ['api', 'worker']) {
      const { env, missing } = serviceEnv(name, local);
      expect(missing).toEqual([]);
      const api = loadApiConfig(env);
      const { apiBase } = processorSettings(loadWorkerConfig(env));
      const mock = new URL(apiBase);
      expect(compose.services[mock.hostname]!.image).toMatch(/^stripe\/stripe-mock:v\d+\.\d+\.\d+$/);
      // stripe-mock's HTTP port, the one the local tools run it on too.
      expect(mock.port).toBe('12111');
      expect(api.PUBLIC_URL).toBe('http://localhost:3000');
    }
    // The key the file names for admin calls is the one its API_KEY_HASH accepts.
    const key = /X-API-Key: (\S+)/.exec(LOCAL_ENV_FILE)![1]!;
    expect(key).toMatch(/^bsk_test_[A-Za-z0-9_]{16,128}$/);
    expect(sha256Hex(key)).toBe(local.API_KEY_HASH);
    expect(LOCAL_ENV_FILE).toMatch(/never for a deployment/);
  });

  it('starts the app only after migrations and healthy dependencies', () => {
    for (const name of ['api', 'worker']) {
      expect(compose.services[name]!.depends_on).toMatchObject({
        migrate: { condition: 'service_completed_successfully' },
        temporal: { condition: 'service_healthy' },
      });
    }
    expect(compose.services.migrate!.depends_on).toMatchObject({ postgres: { condition: 'service_healthy' } });
    expect(compose.services.migrate!.command).toEqual(['npx', 'prisma', 'migrate', 'deploy']);
    expect(compose.services['temporal-ui']!.environment!.TEMPORAL_ADDRESS).toBe('temporal:7233');
    // Healthy only once the namespace the services connect to exists.
    expect(compose.services.temporal!.healthcheck!.test!.join(' ')).toContain(`--namespace ${compose.services.api!.environment!.TEMPORAL_NAMESPACE} --address temporal:7233`);
  });

  it('declares the volumes it mounts', () => {
    expect(Object.keys(compose.volumes)).toContain('postgres-data');
  });

  it('migrates as the schema owner and creates the service role on first start with the same name and password', () => {
    expect(compose.services.migrate!.environment!.DATABASE_URL).toBe('postgresql://billing:billing@postgres:5432/billing');
    const postgres = compose.services.postgres!;
    expect(postgres.volumes).toContain('./docker/postgres-init:/docker-entrypoint-initdb.d:ro');
    expect(postgres.environment).toMatchObject({ POSTGRES_USER: 'billing', BILLING_APP_DB_USER: 'billing_app', BILLING_APP_DB_PASSWORD: '${BILLING_APP_DB_PASSWORD:-billing_app}' });
    const url = new URL(serviceEnv('api', { ...DEPLOYMENT_ENV, BILLING_APP_DB_PASSWORD: 'secret' }).env.DATABASE_URL!);
    expect(url.username).toBe(postgres.environment!.BILLING_APP_DB_USER);
    expect(url.password).toBe('secret');
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
