/**
 * Test-clock scenarios through the API: advancing a clock, and sending a subscription's usage as
 * event batches (ids unique to this test file's run).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { expectJson, type Harness } from './harness.js';

export const advanceClock = async (h: Harness, clockId: string, to: string) =>
  expectJson(await h.request('POST', `/admin/v1/test-clocks/${clockId}/advance`, { body: { frozen_time: to } }));

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
