import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEFAULT_WORKER_DB_POOL_SIZE,
  DEFAULT_WORKER_WORKFLOW_TASK_SLOTS,
  loadApiConfig,
  loadWorkerCapacity,
  loadWorkerConfig,
  LOCAL_PROCESSOR_SECRET_KEY,
  processorSettings,
} from '../../src/config.js';

const valid = {
  DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/billing',
  TEMPORAL_ADDRESS: '127.0.0.1:7233',
  JWT_SECRET: 'x'.repeat(32),
  API_KEY_HASH: 'a'.repeat(64),
  PROCESSOR_WEBHOOK_SECRET: 'whsec_0123456789abcdef',
  HOSTED_LINK_SECRET: 'h'.repeat(32),
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

  it("reads the worker's capacity: activity slots are half the pool unless set, bad values are named", () => {
    expect(loadWorkerCapacity({})).toEqual({ dbPoolSize: DEFAULT_WORKER_DB_POOL_SIZE, activitySlots: DEFAULT_WORKER_DB_POOL_SIZE / 2, workflowTaskSlots: DEFAULT_WORKER_WORKFLOW_TASK_SLOTS });
    expect(loadWorkerCapacity({ WORKER_DB_POOL_SIZE: '9' })).toMatchObject({ dbPoolSize: 9, activitySlots: 4 });
    expect(loadWorkerCapacity({ WORKER_DB_POOL_SIZE: '8', WORKER_ACTIVITY_SLOTS: '3', WORKER_WORKFLOW_TASK_SLOTS: '12' })).toEqual({ dbPoolSize: 8, activitySlots: 3, workflowTaskSlots: 12 });
    expect(() => loadWorkerCapacity({ WORKER_DB_POOL_SIZE: '1', WORKER_ACTIVITY_SLOTS: 'many' })).toThrow(/WORKER_DB_POOL_SIZE .*WORKER_ACTIVITY_SLOTS /);
  });

  it('reads the processor settings: Stripe by default, a stripe-mock key outside production, a real key required in production', () => {
    const worker = { DATABASE_URL: valid.DATABASE_URL, TEMPORAL_ADDRESS: valid.TEMPORAL_ADDRESS };
    const config = loadWorkerConfig(worker);
    expect(config.DUNNING_SCHEDULE_DAYS).toEqual([3, 7, 14, 21]);
    expect(processorSettings(config)).toEqual({ apiBase: 'https://api.stripe.com', secretKey: LOCAL_PROCESSOR_SECRET_KEY });
    const custom = loadWorkerConfig({ ...worker, PROCESSOR_API_BASE: 'http://127.0.0.1:12111', PROCESSOR_SECRET_KEY: 'sk_live_x', DUNNING_SCHEDULE_DAYS: '1,2' });
    expect(processorSettings(custom)).toEqual({ apiBase: 'http://127.0.0.1:12111', secretKey: 'sk_live_x' });
    expect(custom.DUNNING_SCHEDULE_DAYS).toEqual([1, 2]);
    expect(() => processorSettings(loadWorkerConfig({ ...worker, NODE_ENV: 'production' }))).toThrow(/PROCESSOR_SECRET_KEY/);
    expect(() => loadWorkerConfig({ ...worker, DUNNING_SCHEDULE_DAYS: '7,3' })).toThrow(/DUNNING_SCHEDULE_DAYS/);
    expect(() => loadWorkerConfig({ ...worker, PROCESSOR_API_BASE: 'ftp://x' })).toThrow(/PROCESSOR_API_BASE/);
  });

  it('keeps raw usage events by default; a retention must be longer than the late-usage window by a day, in the API and the worker alike', () => {
    const worker = { DATABASE_URL: valid.DATABASE_URL, TEMPORAL_ADDRESS: valid.TEMPORAL_ADDRESS };
    const defaults = loadWorkerConfig(worker);
    expect([defaults.LATE_USAGE_MAX_DAYS, defaults.USAGE_EVENT_RETENTION_DAYS]).toEqual([35, undefined]);
    expect(loadWorkerConfig({ ...worker, USAGE_EVENT_RETENTION_DAYS: '' }).USAGE_EVENT_RETENTION_DAYS).toBeUndefined();
    expect(loadWorkerConfig({ ...worker, USAGE_EVENT_RETENTION_DAYS: '36' }).USAGE_EVENT_RETENTION_DAYS).toBe(36);
    expect(loadApiConfig({ ...valid, USAGE_EVENT_RETENTION_DAYS: '90', LATE_USAGE_MAX_DAYS: '60' })).toMatchObject({ USAGE_EVENT_RETENTION_DAYS: 90, LATE_USAGE_MAX_DAYS: 60 });
    for (const load of [() => loadWorkerConfig({ ...worker, USAGE_EVENT_RETENTION_DAYS: '35' }), () => loadApiConfig({ ...valid, USAGE_EVENT_RETENTION_DAYS: '60', LATE_USAGE_MAX_DAYS: '60' })]) {
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(/USAGE_EVENT_RETENTION_DAYS must be at least LATE_USAGE_MAX_DAYS \+ 1/);
    }
    expect(() => loadWorkerConfig({ ...worker, USAGE_EVENT_RETENTION_DAYS: 'forever' })).toThrow(/USAGE_EVENT_RETENTION_DAYS/);
  });
});
