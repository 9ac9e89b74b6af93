import { describe, expect, it } from 'vitest';
import { ConfigError, loadApiConfig, loadWorkerConfig } from '../../src/config.js';

const valid = {
  DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/billing',
  TEMPORAL_ADDRESS: '127.0.0.1:7233',
  JWT_SECRET: 'x'.repeat(32),
  API_KEY_HASH: 'a'.repeat(64),
  PROCESSOR_WEBHOOK_SECRET: 'whsec_0123456789abcdef',
};

describe('configuration', () => {
  it('parses a valid environment with defaults', () => {
    const config = loadApiConfig(valid);
    expect(config).toMatchObject({ PORT: 3000, TEMPORAL_NAMESPACE: 'default', LOG_LEVEL: 'info' });
  });

  it('names every bad variable in one message', () => {
    const attempt = () => loadApiConfig({ ...valid, API_KEY_HASH: 'nothex', TEMPORAL_ADDRESS: 'nohost', JWT_SECRET: undefined });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/API_KEY_HASH must be the SHA-256 hex.*TEMPORAL_ADDRESS must be host:port.*JWT_SECRET is not set|JWT_SECRET is not set/);
    try {
      attempt();
    } catch (err) {
      expect((err as Error).message.split('\n')).toHaveLength(1);
      expect((err as Error).message).toContain('API_KEY_HASH');
      expect((err as Error).message).toContain('TEMPORAL_ADDRESS');
      expect((err as Error).message).toContain('JWT_SECRET is not set');
    }
  });

  it('lets the worker start without API secrets', () => {
    expect(loadWorkerConfig({ DATABASE_URL: valid.DATABASE_URL, TEMPORAL_ADDRESS: valid.TEMPORAL_ADDRESS }).TEMPORAL_TASK_QUEUE).toBe('billing');
  });
});
