/**
 * The outbox relay survives being killed: a relay in its own process is SIGKILLed in the middle of
 * a stream of events (holding a claim), events keep coming while no relay runs, and a new relay
 * takes over. Every event reaches each subscribed endpoint exactly once (receivers count by event
 * id), and every outbox event ends dispatched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/dev/paths.js';
import { waitFor } from '../../src/dev/processes.js';
import type { OutboxRelay } from '../../src/services/webhooks/relay.js';
import { deliveryPolicyOf } from '../../src/services/webhooks/settings.js';
import { useHarness } from '../support/harness.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { deleteAllEndpoints, emitEvent, register, startTestRelay } from '../support/webhooks.js';

const EVENTS_PER_PHASE = 60;
const LEASE_MS = 1500;

const h = useHarness();
let receivers: Receiver[] = [];
let child: ChildProcess | undefined;
let relay: OutboxRelay | undefined;

beforeAll(async () => {
  await deleteAllEndpoints(h);
  receivers = [await startReceiver(), await startReceiver()];
});
afterAll(async () => {
  child?.kill('SIGKILL');
  await relay?.stop();
  await deleteAllEndpoints(h);
  await Promise.all(receivers.map((r) => r.close()));
});

function startRelayProcess(): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_ROOT, 'test/support/relay-process.ts')], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: inject('databaseUrl'),
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      RELAY_TASK_QUEUE: inject('taskQueue'),
      RELAY_POLICY: JSON.stringify(deliveryPolicyOf(inject('webhookSettings'))),
      RELAY_BATCH_SIZE: '5',
      RELAY_LEASE_MS: String(LEASE_MS),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`relay process exited with ${code}`)));
    proc.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('relay ready')) resolve(proc);
    });
  });
}

async function emitMany(count: number, ids: string[]): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    ids.push(await emitEvent(h, 'spend_alert.triggered', { alert_type: 'SoftLimit', customer_id: 'relay-test', threshold_nanos: String(i) }));
  }
}

const dispatched = async (ids: string[]) => h.deps.db.outboxEvent.count({ where: { id: { in: ids }, dispatchedAt: { not: null } } });

it('delivers every event exactly once per endpoint when the relay is killed mid-stream and another takes over', async () => {
  const endpoints = [];
  for (const receiver of receivers) endpoints.push(await register(h, receiver, ['spend_alert.triggered']));
  const ids: string[] = [];

  child = await startRelayProcess();
  await emitMany(EVENTS_PER_PHASE, ids);
  await waitFor('the relay to hand over some events', async () => {
    if ((await dispatched(ids)) < 10) throw new Error('not yet');
  }, 30_000, 10);
  await new Promise<void>((resolve) => {
    child!.once('exit', () => resolve());
    child!.kill('SIGKILL');
  });
  child = undefined;
  const handedOver = await dispatched(ids);
  expect(handedOver, 'killed in the middle of the stream').toBeLessThan(EVENTS_PER_PHASE);

  await emitMany(EVENTS_PER_PHASE, ids);
  relay = startTestRelay(h, { leaseMs: LEASE_MS });
  await emitMany(EVENTS_PER_PHASE, ids);

  for (const receiver of receivers) {
    await receiver.until('every event', (rs) => new Set(rs.map((r) => r.body.id)).size >= ids.length, 120_000);
  }
  await waitFor('every delivery Delivered', async () => {
    const pending = await h.deps.db.webhookDelivery.count({ where: { eventId: { in: ids }, status: { not: 'Delivered' } } });
    if (pending > 0) throw new Error(`${pending} deliveries not Delivered`);
  }, 60_000, 100);
  expect(await dispatched(ids)).toBe(ids.length);
  expect(await h.deps.db.webhookDelivery.count({ where: { eventId: { in: ids } } })).toBe(ids.length * endpoints.length);

  for (const receiver of receivers) {
    const counts = new Map<string, number>();
    for (const receipt of receiver.receipts) counts.set(receipt.body.id, (counts.get(receipt.body.id) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual([...ids].sort());
    expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
    expect(receiver.receipts.every((r) => r.signatureValid)).toBe(true);
  }
});
