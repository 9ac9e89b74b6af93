/** No Docker engine runs in CI: keep docker-compose.yml right by checking its structure. */
import { readFileSync } from 'node:fs';
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
      expect(String(env.DATABASE_URL)).toMatch(/^postgresql:\/\/billing:billing@postgres:5432\/billing$/);
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
});
