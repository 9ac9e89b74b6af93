/**
 * Test-clock scenarios through the API: advancing a clock (asynchronous: polled until ready), and
 * sending a subscription's usage as event batches (ids unique to this test file's run).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { expectJson, type Harness } from './harness.js';

export interface TestClockBody {
  id: string;
  frozen_time: string;
  status: 'ready' | 'advancing' | 'internal_failure';
  advance: { simulated_time: string; subscriptions_done: number; subscriptions_total: number; started_at: string; finished_at: string | null } | null;
}

/** How often a test polls an advancing clock. */
const CLOCK_POLL_MS = 50;

/** Polls the clock until its advance ended: its body once `ready`; fails at once on `internal_failure`. */
export async function waitForClockReady(h: Harness, clockId: string, timeoutMs = 600_000): Promise<TestClockBody> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const clock = await expectJson<TestClockBody>(await h.request('GET', `/admin/v1/test-clocks/${clockId}`));
    if (clock.status === 'ready') return clock;
    expect(clock.status, JSON.stringify(clock)).toBe('advancing');
    if (Date.now() > deadline) throw new Error(`test clock ${clockId} still advancing after ${timeoutMs} ms: ${JSON.stringify(clock)}`);
    await new Promise((resolve) => setTimeout(resolve, CLOCK_POLL_MS));
  }
}

/** Advances the clock (202, advancing) and waits until every workflow on it caught up. */
export async function advanceClock(h: Harness, clockId: string, to: string): Promise<TestClockBody> {
  const accepted = await expectJson<TestClockBody>(await h.request('POST', `/admin/v1/test-clocks/${clockId}/advance`, { body: { frozen_time: to } }), 202);
  expect(accepted).toMatchObject({ status: 'advancing', frozen_time: new Date(to).toISOString() });
  return waitForClockReady(h, clockId);
}

/** Module-level, so each test file (modules are evaluated per file) gets its own. */
const RUN = randomUUID().slice(0, 8);
let seq = 0;

/** `count` events of `eventType` at `timestamp`, in batches of 1,000, every one accepted. */
export async function sendUsage(h: Harness, customerId: string, subscriptionId: string, count: number, timestamp: string, eventType = 'api_calls'): Promise<void> {
  for (let sent = 0; sent < count; sent += 1000) {
    const events = Array.from({ length: Math.min(1000, count - sent) }, () => ({
      id: `usage-${RUN}-${(seq += 1)}`,
      event_type: eventType,
      customer_id: customerId,
      subscription_id: subscriptionId,
      timestamp,
      properties: {},
    }));
    const body = await expectJson<{ accepted_count: number }>(await h.request('POST', '/v1/events/batch', { body: { events } }), 200);
    expect(body.accepted_count).toBe(events.length);
  }
}
