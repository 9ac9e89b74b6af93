/**
 * An outbox relay alone in its own process, so a test can kill it (SIGKILL) in the middle of its
 * work. Configured by the environment: DATABASE_URL, TEMPORAL_ADDRESS, RELAY_TASK_QUEUE,
 * RELAY_POLICY (the delivery policy as JSON), RELAY_BATCH_SIZE and RELAY_LEASE_MS.
 */
import { createDb } from '../../src/db/client.js';
import { createLogger } from '../../src/logger.js';
import { startOutboxRelay } from '../../src/services/webhooks/relay.js';
import { connectTemporal } from '../../src/temporal/client.js';
import { temporalGateway } from '../../src/temporal/gateway.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const { db, pool } = createDb(env('DATABASE_URL'), 4);
const temporal = await connectTemporal(env('TEMPORAL_ADDRESS'), 'default');
startOutboxRelay(
  { db, pool, temporal: temporalGateway(temporal, env('RELAY_TASK_QUEUE')), policy: JSON.parse(env('RELAY_POLICY')), logger: createLogger('silent', 'relay-process') },
  // One workflow start at a time and small batches: the relay is slow enough to be caught mid-stream.
  { batchSize: Number(env('RELAY_BATCH_SIZE')), leaseMs: Number(env('RELAY_LEASE_MS')), pollIntervalMs: 100, startConcurrency: 1 },
);
process.stdout.write('relay ready\n');
