/**
 * Usage event ingestion against the real PostgreSQL: deduplication (single, batch, concurrent),
 * all-or-nothing batches, CloudEvents structured and batch modes, late events, and every invalid
 * input refused with a 4xx and nothing stored.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import { insertPeriodClose } from '../../src/db/period-closes.js';
import type { DomainError } from '../../src/errors.js';
import { ingestBatch, ingestEvent, JSON_BATCH_FIELDS, JSON_FIELDS, MAX_BATCH_EVENTS } from '../../src/services/metering/events.js';
import { makeCustomer, makeTestClock } from '../support/fixtures.js';
import { createHarness, type Harness, useHarness } from '../support/harness.js';

const h = useHarness();
/** A second API instance (its own app, pool and single-event writer), as a second process would be. */
const h2 = useHarness();
/** Both instances listening on loopback: the concurrency tests go through real HTTP. */
let servers: ServerType[] = [];
let urls: [string, string];
beforeAll(async () => {
  const listen = (harness: Harness) =>
    new Promise<string>((resolve) => {
      const server = serve({ fetch: harness.app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => resolve(`http://127.0.0.1:${info.port}`));
      servers.push(server);
    });
  urls = [await listen(h), await listen(h2)];
});
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  servers = [];
});

/** POST over the network to API instance `instance` (0 or 1) with its admin credentials. */
async function post(instance: 0 | 1, path: string, payload: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const token = instance === 0 ? h.adminToken : h2.adminToken;
  const res = await fetch(`${urls[instance]}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const iso = (ms: number) => new Date(ms).toISOString();
const minutesAgo = (n: number) => iso(Date.now() - n * 60_000);

/** A plan metering `eventType` and a subscription row on it (no workflow: metering needs none); its period began 10 days ago. */
async function makeSubscription(
  customerId: string,
  options: { chargedThrough?: Date; eventType?: string; status?: 'Active' | 'Cancelled' | 'Expired'; trialEnd?: Date } = {},
): Promise<string> {
  const planId = newId();
  await h.deps.db.plan.create({ data: { id: planId, name: `Plan ${planId.slice(-6)}`, billingCadence: 'Monthly' } });
  await h.deps.db.sku.create({
    data: { id: newId(), planId, name: 'usage', pricingModel: 'PerUnit', unitAmountNanos: '1000', meterEventType: options.eventType ?? 'api_calls', currency: 'USD' },
  });
  const id = newId();
  const start = new Date(Date.now() - 10 * 86_400_000);
  await h.deps.db.subscription.create({
    data: {
      id,
      customerId,
      planId,
      currency: 'USD',
      status: options.status ?? 'Active',
      periodStart: start,
      periodEnd: new Date(start.getTime() + 30 * 86_400_000),
      billingAnchor: start,
      chargedThroughDate: options.chargedThrough ?? null,
      trialEnd: options.trialEnd ?? null,
    },
  });
  return id;
}

const event = (customerId: string, overrides: Record<string, unknown> = {}) => ({
  id: `evt_${newId()}`,
  event_type: 'api_calls',
  customer_id: customerId,
  timestamp: minutesAgo(5),
  properties: { quantity: 1 },
  ...overrides,
});

const stored = (where: { customerId?: string; id?: string | { in: string[] } }) => h.deps.db.usageEvent.count({ where });

async function body<T = Record<string, unknown>>(res: Response, status: number): Promise<T> {
  const json = (await res.json()) as T;
  expect(res.status, JSON.stringify(json)).toBe(status);
  return json;
}

describe('POST /v1/events', () => {
  it('stores an event once; a re-sent id is a duplicate, counted once', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const e = event(customerId, { properties: { quantity: '2.5', region: 'eu' } });
    expect(await body(await h.request('POST', '/v1/events', { body: e }), 200)).toEqual({ accepted: true, event_id: e.id, duplicate: false, late: false, billable: false, unbillable_reason: 'no_subscription' });
    expect(await body(await h.request('POST', '/v1/events', { body: { ...e, properties: { quantity: 99 } } }), 200)).toEqual({
      accepted: false,
      event_id: e.id,
      duplicate: true,
      late: false,
      billable: true,
    });
    const rows = await h.deps.db.usageEvent.findMany({ where: { id: e.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ eventType: 'api_calls', customerId, subscriptionId: null, properties: { quantity: '2.5', region: 'eu' }, late: false });
    expect(rows[0]!.occurredAt.toISOString()).toBe(e.timestamp);
  });

  it("takes the customer's external_id as external_customer_id, single and in batches; an unknown one stores nothing", async () => {
    const customerId = await makeCustomer(h.deps.db);
    const externalId = `crm-${newId()}`;
    await h.deps.db.customer.update({ where: { id: customerId }, data: { externalId } });
    const { customer_id: _omit, ...single } = event(customerId);
    expect(await body(await h.request('POST', '/v1/events', { body: { ...single, external_customer_id: externalId } }), 200)).toMatchObject({ accepted: true });
    expect(await h.deps.db.usageEvent.findUniqueOrThrow({ where: { id: single.id } })).toMatchObject({ customerId });

    const mixed = [event(customerId), { ...event(customerId), customer_id: undefined, external_customer_id: externalId }];
    expect(await body(await h.request('POST', '/v1/events/batch', { body: { events: mixed } }), 200)).toMatchObject({ accepted_count: 2 });

    const unknown = { ...event(customerId), customer_id: undefined, external_customer_id: `nobody-${newId()}` };
    const missing = await body<{ error: { code: string; message: string } }>(await h.request('POST', '/v1/events', { body: unknown }), 404);
    expect(missing.error).toMatchObject({ code: 'customer_not_found', message: `no customer has external_id "${unknown.external_customer_id}"` });
    const good = event(customerId);
    const batch = await body<{ error: { code: string; details: { issues: { path: string; code: string }[] } } }>(
      await h.request('POST', '/v1/events/batch', { body: { events: [good, unknown] } }),
      422,
    );
    expect(batch.error.code).toBe('invalid_events');
    expect(batch.error.details.issues).toMatchObject([{ path: 'events.1.external_customer_id', code: 'customer_not_found' }]);
    expect(await stored({ id: { in: [good.id, unknown.id] } })).toBe(0);

    const both = await body<{ error: { details: { issues: { path: string }[] } } }>(await h.request('POST', '/v1/events', { body: { ...event(customerId), external_customer_id: externalId } }), 400);
    expect(both.error.details.issues.map((i) => i.path)).toEqual(['external_customer_id']);
    const neither = await body<{ error: { details: { issues: { path: string }[] } } }>(await h.request('POST', '/v1/events', { body: single }), 400);
    expect(neither.error.details.issues.map((i) => i.path)).toEqual(['customer_id']);
  });

  it('counts 100 concurrent copies of one id once, sent over HTTP to two API instances', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const e = event(customerId, { properties: { quantity: '1.5' } });
    // Two instances: their coalescing writers are independent, so the copies race in PostgreSQL and
    // only the unique constraint can keep them apart.
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => post((i % 2) as 0 | 1, '/v1/events', e)));
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 100 }, () => 200));
    expect(results.filter((r) => r.json.accepted === true)).toHaveLength(1);
    expect(results.filter((r) => r.json.duplicate === true)).toHaveLength(99);
    expect(await stored({ id: e.id })).toBe(1);
    expect(await stored({ customerId })).toBe(1);
  });

  it('counts 100 concurrent copies of one id once (in process)', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const e = event(customerId);
    const results = await Promise.all(Array.from({ length: 100 }, () => h.request('POST', '/v1/events', { body: e }).then((r) => body<{ accepted: boolean }>(r, 200))));
    expect(results.filter((r) => r.accepted)).toHaveLength(1);
    expect(await stored({ id: e.id })).toBe(1);
  });

  it('keeps concurrent single events independent: invalid ones fail alone, valid ones are stored', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const good = Array.from({ length: 40 }, () => event(customerId));
    const bad = Array.from({ length: 20 }, () => event(newId()));
    const responses = await Promise.all([...good, ...bad].map((e) => h.request('POST', '/v1/events', { body: e })));
    expect(responses.map((r) => r.status)).toEqual([...good.map(() => 200), ...bad.map(() => 404)]);
    expect(await stored({ customerId })).toBe(40);
    expect(await stored({ id: { in: bad.map((e) => e.id) } })).toBe(0);
  });

  it('replays the stored response for a repeated Idempotency-Key', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const e = event(customerId);
    const headers = { 'idempotency-key': `key-${newId()}` };
    const first = await h.request('POST', '/v1/events', { body: e, headers });
    expect((await body(first, 200)).accepted).toBe(true);
    const replay = await h.request('POST', '/v1/events', { body: e, headers });
    expect(replay.headers.get('x-idempotency-replayed')).toBe('true');
    expect((await body(replay, 200)).accepted).toBe(true);
    expect(await stored({ id: e.id })).toBe(1);
  });

  it('flags an event before charged_through_date as late, and stores it', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const subscriptionId = await makeSubscription(customerId, { chargedThrough: new Date(Date.now() - 86_400_000) });
    const late = event(customerId, { subscription_id: subscriptionId, timestamp: iso(Date.now() - 2 * 86_400_000) });
    const current = event(customerId, { subscription_id: subscriptionId });
    const withoutSubscription = event(customerId, { timestamp: iso(Date.now() - 3 * 86_400_000) });
    expect((await body(await h.request('POST', '/v1/events', { body: late }), 200)).late).toBe(true);
    expect((await body(await h.request('POST', '/v1/events', { body: current }), 200)).late).toBe(false);
    // Without subscription_id it counts for every subscription of the customer, so one invoiced past makes it late.
    expect((await body(await h.request('POST', '/v1/events', { body: withoutSubscription }), 200)).late).toBe(true);
    expect(await h.deps.db.usageEvent.count({ where: { customerId, late: true } })).toBe(2);
  });

  it('flags events whose period is closed as late, whatever its invoice, and tells events no subscription covers', async () => {
    const DAY = 86_400_000;
    const now = Date.now();
    const customerId = await makeCustomer(h.deps.db);
    // Its current period is [now − 10 d, now + 20 d): the periods before it are closed.
    const subscriptionId = await makeSubscription(customerId);
    const send = async (at: number, overrides: Record<string, unknown> = { subscription_id: subscriptionId }) =>
      body<{ late: boolean; billable: boolean; unbillable_reason?: string }>(
        await h.request('POST', '/v1/events', { body: event(customerId, { timestamp: iso(at), ...overrides }) }),
        200,
      );
    expect(await send(now - 20 * DAY)).toMatchObject({ late: true, billable: true });
    const { periodStart } = await h.deps.db.subscription.findUniqueOrThrow({ where: { id: subscriptionId } });
    expect(await send(periodStart.getTime() - 1)).toMatchObject({ late: true, billable: true });
    expect(await send(periodStart.getTime())).toMatchObject({ late: false, billable: true }); // the open period
    expect(await send(now - 5 * DAY)).toMatchObject({ late: false, billable: true });
    expect(await send(now - 20 * DAY, {})).toMatchObject({ late: true, billable: true }); // without subscription_id: any subscription of the customer
    const batch = [now - 30 * DAY, now - 1 * DAY].map((at) => event(customerId, { subscription_id: subscriptionId, timestamp: iso(at) }));
    expect(await body(await h.request('POST', '/v1/events/batch', { body: { events: batch } }), 200)).toEqual({
      accepted_count: 2,
      duplicate_count: 0,
      late_count: 1,
      unbillable_count: 0,
    });

    // An Expired subscription's last period is closed; after its end nothing bills an event.
    const ended = await makeSubscription(customerId, { status: 'Expired' });
    await h.deps.db.subscription.update({ where: { id: ended }, data: { periodStart: new Date(now - 40 * DAY), periodEnd: new Date(now - 10 * DAY) } });
    expect(await send(now - 20 * DAY, { subscription_id: ended })).toEqual(expect.objectContaining({ late: true, billable: true }));
    expect(await send(now - 5 * DAY, { subscription_id: ended })).toEqual(
      expect.objectContaining({ late: false, billable: false, unbillable_reason: 'after_subscription_end' }),
    );
    expect(await h.deps.db.usageEvent.count({ where: { customerId, late: true } })).toBe(5);
    expect(await h.deps.db.usageEvent.count({ where: { customerId, unbillableReason: 'after_subscription_end' } })).toBe(1);

    // A final close moves no period: a Cancelled subscription whose last period was closed (not yet
    // Expired) takes events of that period as late, so they are never left behind its close.
    const cancelled = await makeSubscription(customerId, { status: 'Cancelled' });
    const last = await h.deps.db.subscription.findUniqueOrThrow({ where: { id: cancelled } });
    expect(await send(now - DAY, { subscription_id: cancelled })).toMatchObject({ late: false, billable: true });
    await insertPeriodClose(h.deps.db, { subscriptionId: cancelled, periodStart: last.periodStart, periodEnd: last.periodEnd, invoiceId: null }, new Date());
    expect(await send(now - DAY, { subscription_id: cancelled })).toMatchObject({ late: true, billable: true });
  });

  it('answers billable: false with the reason for events no subscription period covers', async () => {
    const DAY = 86_400_000;
    const now = Date.now();
    const alone = await makeCustomer(h.deps.db);
    expect(await body(await h.request('POST', '/v1/events', { body: event(alone) }), 200)).toMatchObject({ billable: false, unbillable_reason: 'no_subscription' });

    const customerId = await makeCustomer(h.deps.db);
    const subscriptionId = await makeSubscription(customerId, { trialEnd: new Date(now + DAY) });
    // Its first phase started 10 days ago (the subscription's start), in its trial until tomorrow.
    await h.deps.db.subscriptionPhase.create({
      data: { id: newId(), subscriptionId, planId: (await h.deps.db.subscription.findUniqueOrThrow({ where: { id: subscriptionId } })).planId, startsAt: new Date(now - 10 * DAY) },
    });
    const send = async (at: number) => body(await h.request('POST', '/v1/events', { body: event(customerId, { subscription_id: subscriptionId, timestamp: iso(at) }) }), 200);
    expect(await send(now - 11 * DAY)).toMatchObject({ billable: false, unbillable_reason: 'before_subscription_start' });
    expect(await send(now - DAY)).toMatchObject({ billable: false, unbillable_reason: 'in_trial' });
    expect(await send(now + 2 * DAY - 4 * DAY)).toMatchObject({ billable: false, unbillable_reason: 'in_trial' });
    // The usage summary counts them; the stored rows say why.
    const summary = await body<{ unbillable_event_count: number }>(await h.request('GET', `/v1/subscriptions/${subscriptionId}/usage`), 200);
    expect(summary.unbillable_event_count).toBe(3);
    expect((await h.deps.db.usageEvent.findMany({ where: { customerId }, orderBy: { seq: 'asc' } })).map((e) => e.unbillableReason)).toEqual([
      'before_subscription_start',
      'in_trial',
      'in_trial',
    ]);
  });

  it('refuses events older than the lateness limit (LATE_USAGE_MAX_DAYS, default 35 days) instead of storing what is never billed', async () => {
    const strict = await createHarness({ lateUsageMaxDays: undefined });
    try {
      const DAY = 86_400_000;
      const customerId = await makeCustomer(h.deps.db);
      const subscriptionId = await makeSubscription(customerId);
      const old = event(customerId, { subscription_id: subscriptionId, timestamp: iso(Date.now() - 36 * DAY) });
      const refused = await body<{ error: { code: string; details: { issues: { path: string; code: string }[] } } }>(await strict.request('POST', '/v1/events', { body: old }), 400);
      expect(refused.error.details.issues).toEqual([expect.objectContaining({ path: 'timestamp', code: 'timestamp_too_old' })]);
      const batch = await strict.request('POST', '/v1/events/batch', { body: { events: [event(customerId), old] } });
      expect((await body<{ error: { details: { issues: { path: string; code: string }[] } } }>(batch, 422)).error.details.issues).toEqual([
        expect.objectContaining({ path: 'events.1.timestamp', code: 'timestamp_too_old' }),
      ]);
      expect(await stored({ customerId })).toBe(0);
      const inTime = event(customerId, { subscription_id: subscriptionId, timestamp: iso(Date.now() - 34 * DAY) });
      expect(await body(await strict.request('POST', '/v1/events', { body: inTime }), 200)).toMatchObject({ accepted: true, late: true });
    } finally {
      await strict.close();
    }
  });

  it('lets a customer token send its own events only', async () => {
    const mine = await makeCustomer(h.deps.db);
    const theirs = await makeCustomer(h.deps.db);
    const own = await h.request('POST', '/v1/events', { as: { customer: mine }, body: event(mine) });
    expect((await body(own, 200)).accepted).toBe(true);
    const foreign = event(theirs);
    const res = await h.request('POST', '/v1/events', { as: { customer: mine }, body: foreign });
    expect((await body<{ error: { code: string } }>(res, 404)).error.code).toBe('customer_not_found');
    const theirSubscription = await makeSubscription(theirs);
    const borrowed = await h.request('POST', '/v1/events', { as: { customer: mine }, body: event(mine, { subscription_id: theirSubscription }) });
    expect((await body<{ error: { code: string } }>(borrowed, 404)).error.code).toBe('subscription_not_found');
    expect(await stored({ customerId: theirs })).toBe(0);
    expect(await stored({ customerId: mine })).toBe(1);
  });

  it('allows timestamps up to the configured skew ahead of now (default 5 minutes)', async () => {
    const strict = await createHarness({ eventMaxFutureSkewMs: 60_000 });
    try {
      const customerId = await makeCustomer(h.deps.db);
      const soon = event(customerId, { timestamp: iso(Date.now() + 2 * 60_000) });
      const refused = await strict.request('POST', '/v1/events', { body: soon });
      const error = (await body<{ error: { details: { issues: { path: string; code: string; message: string }[] } } }>(refused, 400)).error;
      expect(error.details.issues).toEqual([{ path: 'timestamp', code: 'timestamp_in_future', message: expect.stringContaining('more than 1 minute after') }]);
      const batch = await strict.request('POST', '/v1/events/batch', { body: { events: [event(customerId), { ...soon, id: `evt_${newId()}` }] } });
      expect((await body<{ error: { details: { issues: { path: string; code: string }[] } } }>(batch, 422)).error.details.issues.map((i) => [i.path, i.code])).toEqual([
        ['events.1.timestamp', 'timestamp_in_future'],
      ]);
      expect(await stored({ customerId })).toBe(0);
      // The default instance (5 minutes) takes the same event.
      expect((await body(await h.request('POST', '/v1/events', { body: soon }), 200)).accepted).toBe(true);
    } finally {
      await strict.close();
    }
  });

  it('takes event time from a test clock for sandbox customers', async () => {
    const clockId = await makeTestClock(h.deps.db, '2031-06-01T00:00:00.000Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    const inSimulatedTime = event(customerId, { timestamp: '2031-05-31T23:59:00Z' });
    expect((await body(await h.request('POST', '/v1/events', { body: inSimulatedTime }), 200)).accepted).toBe(true);
    const res = await h.request('POST', '/v1/events', { body: event(customerId, { timestamp: '2031-06-01T00:06:00Z' }) });
    expect((await body<{ error: { details: { issues: { path: string }[] } } }>(res, 400)).error.details.issues[0]!.path).toBe('timestamp');
  });
});

describe('POST /v1/events/batch', () => {
  it('counts accepted and duplicate events, within the batch and across batches', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const events = Array.from({ length: 5 }, () => event(customerId));
    const first = await body(await h.request('POST', '/v1/events/batch', { body: { events: [...events, events[0]] } }), 200);
    expect(first).toEqual({ accepted_count: 5, duplicate_count: 1, late_count: 0, unbillable_count: 5 });
    const again = await body(await h.request('POST', '/v1/events/batch', { body: { events: [...events.slice(3), event(customerId)] } }), 200);
    expect(again).toEqual({ accepted_count: 1, duplicate_count: 2, late_count: 0, unbillable_count: 1 });
    expect(await stored({ customerId })).toBe(6);
  });

  it('stores each id once when the same batch arrives 20 times at once', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const events = Array.from({ length: 50 }, () => event(customerId));
    const results = await Promise.all(
      Array.from({ length: 20 }, () => h.request('POST', '/v1/events/batch', { body: { events } }).then((r) => body<{ accepted_count: number; duplicate_count: number }>(r, 200))),
    );
    expect(results.reduce((n, r) => n + r.accepted_count, 0)).toBe(50);
    expect(results.reduce((n, r) => n + r.duplicate_count, 0)).toBe(50 * 19);
    expect(await stored({ customerId })).toBe(50);
  });

  it('is all or nothing: one invalid event stores none and names every invalid one', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const other = await makeCustomer(h.deps.db);
    const foreignSubscription = await makeSubscription(other);
    const unknownCustomer = newId();
    const events = [
      event(customerId),
      event(unknownCustomer),
      event(customerId, { subscription_id: foreignSubscription }),
      event(customerId, { timestamp: iso(Date.now() + 3_600_000) }),
      event(customerId, { subscription_id: newId() }),
    ];
    const res = await h.request('POST', '/v1/events/batch', { body: { events } });
    const error = (await body<{ error: { code: string; details: { issues: { path: string; index: number; event_id: string; code: string }[] } } }>(res, 422)).error;
    expect(error.code).toBe('invalid_events');
    expect(error.details.issues.map((i) => [i.path, i.code, i.event_id])).toEqual([
      ['events.1.customer_id', 'customer_not_found', events[1]!.id],
      ['events.2.subscription_id', 'subscription_customer_mismatch', events[2]!.id],
      ['events.3.timestamp', 'timestamp_in_future', events[3]!.id],
      ['events.4.subscription_id', 'subscription_not_found', events[4]!.id],
    ]);
    expect(await stored({ id: { in: events.map((e) => e.id) } })).toBe(0);
  });

  it('never records an event of a refused batch as seen: the fixed batch is stored whole', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const events = [event(customerId), event(customerId), event(customerId, { customer_id: newId() })];
    expect((await h.request('POST', '/v1/events/batch', { body: { events } })).status).toBe(422);
    const fixed = [...events.slice(0, 2), { ...events[2]!, customer_id: customerId }];
    expect(await body(await h.request('POST', '/v1/events/batch', { body: { events: fixed } }), 200)).toEqual({ accepted_count: 3, duplicate_count: 0, late_count: 0, unbillable_count: 3 });
  });

  it('reports late events of a batch', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const subscriptionId = await makeSubscription(customerId, { chargedThrough: new Date(Date.now() - 86_400_000) });
    const events = [event(customerId, { subscription_id: subscriptionId, timestamp: iso(Date.now() - 2 * 86_400_000) }), event(customerId, { subscription_id: subscriptionId })];
    expect(await body(await h.request('POST', '/v1/events/batch', { body: { events } }), 200)).toEqual({ accepted_count: 2, duplicate_count: 0, late_count: 1, unbillable_count: 0 });
  });
});

describe('event ids used by another customer', () => {
  it('refuses a single event whose id another customer used: 409 event_id_conflict, nothing stored, nothing of the other event revealed', async () => {
    const first = await makeCustomer(h.deps.db);
    const second = await makeCustomer(h.deps.db);
    const original = event(first, { event_type: 'secret_feature', properties: { quantity: '7', project: 'apollo' } });
    expect((await body(await h.request('POST', '/v1/events', { body: original }), 200)).accepted).toBe(true);

    for (const as of [{ customer: second }, undefined]) {
      const res = await h.request('POST', '/v1/events', { ...(as ? { as } : {}), body: event(second, { id: original.id }) });
      const text = await res.clone().text();
      const error = (await body<{ error: { code: string; message: string; details: Record<string, unknown> } }>(res, 409)).error;
      expect(error.code).toBe('event_id_conflict');
      expect(error.details).toEqual({ event_id: original.id, field: 'id' });
      for (const secret of [first, 'secret_feature', 'apollo', original.timestamp]) expect(text).not.toContain(secret);
    }
    expect(await stored({ customerId: second })).toBe(0);
    const rows = await h.deps.db.usageEvent.findMany({ where: { id: original.id } });
    expect(rows.map((r) => [r.customerId, r.eventType])).toEqual([[first, 'secret_feature']]);
    // The same customer re-sending its own id is still a plain duplicate.
    expect((await body(await h.request('POST', '/v1/events', { body: original }), 200)).duplicate).toBe(true);
  });

  it('refuses a whole batch holding an id another customer used, naming that item', async () => {
    const first = await makeCustomer(h.deps.db);
    const second = await makeCustomer(h.deps.db);
    const taken = event(first);
    await body(await h.request('POST', '/v1/events', { body: taken }), 200);
    const events = [event(second), event(second, { id: taken.id }), event(second)];
    const res = await h.request('POST', '/v1/events/batch', { as: { customer: second }, body: { events } });
    const text = await res.clone().text();
    const error = (await body<{ error: { code: string; details: { issues: Record<string, unknown>[] } } }>(res, 422)).error;
    expect(error.code).toBe('invalid_events');
    expect(error.details.issues).toEqual([
      { path: 'events.1.id', index: 1, event_id: taken.id, code: 'event_id_conflict', message: expect.stringContaining('another customer') },
    ]);
    expect(text).not.toContain(first);
    expect(await stored({ customerId: second })).toBe(0);
    // Without the conflicting item the batch goes through.
    expect(await body(await h.request('POST', '/v1/events/batch', { body: { events: [events[0], events[2]] } }), 200)).toMatchObject({ accepted_count: 2, duplicate_count: 0 });
  });

  it('treats copies of one id for two customers within one batch as a conflict, storing nothing', async () => {
    const first = await makeCustomer(h.deps.db);
    const second = await makeCustomer(h.deps.db);
    const shared = `evt_${newId()}`;
    const events = [event(first, { id: shared }), event(first), event(second, { id: shared })];
    const error = (await body<{ error: { details: { issues: { path: string; code: string }[] } } }>(await h.request('POST', '/v1/events/batch', { body: { events } }), 422)).error;
    expect(error.details.issues.map((i) => [i.path, i.code])).toEqual([['events.2.id', 'event_id_conflict']]);
    expect(await stored({ id: { in: events.map((e) => e.id) } })).toBe(0);
  });

  it('lists an id conflict together with the other invalid items of a batch', async () => {
    const first = await makeCustomer(h.deps.db);
    const second = await makeCustomer(h.deps.db);
    const taken = event(first);
    await body(await h.request('POST', '/v1/events', { body: taken }), 200);
    const events = [event(second, { customer_id: newId() }), event(second, { id: taken.id })];
    const error = (await body<{ error: { details: { issues: { path: string; code: string }[] } } }>(await h.request('POST', '/v1/events/batch', { body: { events } }), 422)).error;
    expect(error.details.issues.map((i) => [i.path, i.code])).toEqual([
      ['events.0.customer_id', 'customer_not_found'],
      ['events.1.id', 'event_id_conflict'],
    ]);
  });

  it('gives each id to exactly one customer when two customers race for it on two API instances', async () => {
    const [a, b] = [await makeCustomer(h.deps.db), await makeCustomer(h.deps.db)];
    const ids = Array.from({ length: 30 }, () => `race_${newId()}`);
    const results = await Promise.all(
      ids.flatMap((id) => [post(0, '/v1/events', event(a, { id })).then((r) => ({ id, customer: a, ...r })), post(1, '/v1/events', event(b, { id })).then((r) => ({ id, customer: b, ...r }))]),
    );
    const rows = await h.deps.db.usageEvent.findMany({ where: { id: { in: ids } } });
    expect(rows).toHaveLength(ids.length);
    const owner = new Map(rows.map((r) => [r.id, r.customerId]));
    for (const r of results) {
      if (owner.get(r.id) === r.customer) expect([r.status, r.json.accepted]).toEqual([200, true]);
      else expect([r.status, (r.json.error as { code: string }).code]).toEqual([409, 'event_id_conflict']);
    }
  });

  it('keeps racing batches of two customers with shared ids all or nothing', async () => {
    const [a, b] = [await makeCustomer(h.deps.db), await makeCustomer(h.deps.db)];
    for (let round = 0; round < 5; round += 1) {
      const shared = Array.from({ length: 100 }, () => `shared_${newId()}`);
      const ownA = event(a);
      const ownB = event(b);
      const batchA = [ownA, ...shared.map((id) => event(a, { id }))];
      const batchB = [...[...shared].reverse().map((id) => event(b, { id })), ownB];
      const [ra, rb] = await Promise.all([post(0, '/v1/events/batch', { events: batchA }), post(1, '/v1/events/batch', { events: batchB })]);
      // One batch wins whole; the other is refused whole, its own event included.
      expect([ra.status, rb.status].sort()).toEqual([200, 422]);
      const winner = ra.status === 200 ? a : b;
      const loser = winner === a ? b : a;
      expect(await stored({ id: { in: shared } })).toBe(100);
      expect(await h.deps.db.usageEvent.count({ where: { id: { in: shared }, customerId: winner } })).toBe(100);
      expect(await stored({ customerId: loser, id: { in: [ownA.id, ownB.id] } })).toBe(0);
      const refused = ra.status === 422 ? ra : rb;
      expect(((refused.json.error as { details: { issues: { code: string }[] } }).details.issues).every((i) => i.code === 'event_id_conflict')).toBe(true);
    }
  });
});

describe('concurrent ingestion', () => {
  it('never deadlocks when overlapping batches arrive in opposite orders on two API instances', async () => {
    const customerId = await makeCustomer(h.deps.db);
    for (let round = 0; round < 5; round += 1) {
      const events = Array.from({ length: 300 }, () => event(customerId));
      const results = await Promise.all([
        post(0, '/v1/events/batch', { events }),
        post(1, '/v1/events/batch', { events: [...events].reverse() }),
        post(0, '/v1/events/batch', { events: [...events.slice(150), ...events.slice(0, 150)] }),
      ]);
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(results.reduce((n, r) => n + (r.json.accepted_count as number), 0)).toBe(300);
      expect(results.reduce((n, r) => n + (r.json.duplicate_count as number), 0)).toBe(600);
    }
    expect(await stored({ customerId })).toBe(1500);
  });

  it('stores a batch in one statement without a transaction, and judges ids committed while it waited in one', async () => {
    const [a, b] = [await makeCustomer(h.deps.db), await makeCustomer(h.deps.db)];
    const real = h.deps.pool;
    let transactions = 0;
    const pool = {
      query: (config: pg.QueryConfig | string, values?: unknown[]) => (typeof config === 'string' ? real.query(config, values) : real.query(config)),
      connect: () => {
        transactions += 1;
        return real.connect();
      },
    } as unknown as pg.Pool;
    const deps = { ...h.deps, pool };
    const context = { fields: JSON_BATCH_FIELDS };
    const ingest = (events: ReturnType<typeof event>[]) =>
      ingestBatch(deps, events, context).then(
        (result) => ({ result, issues: undefined, transactions }),
        (err: DomainError) => ({ result: undefined, issues: (err.details as { issues: { index: number; code: string }[] }).issues, transactions }),
      );

    // The hot path: new ids, and ids this customer stored before, each one autocommitted statement.
    const first = [event(a), event(a)];
    expect(await ingest(first)).toEqual({ result: { accepted_count: 2, duplicate_count: 0, late_count: 0, unbillable_count: 2 }, issues: undefined, transactions: 0 });
    expect(await ingest([...first, event(a)])).toEqual({ result: { accepted_count: 1, duplicate_count: 2, late_count: 0, unbillable_count: 1 }, issues: undefined, transactions: 0 });

    // Another writer's row for one of the batch's ids, committed only once the batch waits on it: the
    // batch's snapshot does not show it, so its statement aborts and the batch re-runs in a transaction.
    for (const holder of [a, b]) {
      transactions = 0;
      const own = event(a);
      const contested = event(a);
      const writer = await real.connect();
      try {
        await writer.query('BEGIN');
        await writer.query(`INSERT INTO usage_events (id, event_type, customer_id, occurred_at) VALUES ($1, 'api_calls', $2, now())`, [contested.id, holder]);
        const xid = (await writer.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid')).rows[0]!.xid;
        const outcome = ingest([own, contested]);
        for (let waiting = false; !waiting; ) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          waiting = (await real.query(`SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'transactionid' AND transactionid::text = $1 AND NOT granted) AS w`, [xid])).rows[0].w;
        }
        await writer.query('COMMIT');
        if (holder === a) {
          expect(await outcome).toEqual({ result: { accepted_count: 1, duplicate_count: 1, late_count: 0, unbillable_count: 1 }, issues: undefined, transactions: 1 });
          expect(await stored({ id: { in: [own.id, contested.id] } })).toBe(2);
        } else {
          expect(await outcome).toMatchObject({ result: undefined, issues: [{ index: 1, code: 'event_id_conflict' }], transactions: 1 });
          expect(await stored({ id: own.id })).toBe(0);
        }
      } finally {
        writer.release();
      }
    }
  });

  it('fails only the culprit when a coalesced statement of single events fails on its data', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const real = h.deps.pool;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let statements = 0;
    // A pool whose single-event statement fails like PostgreSQL on bad data whenever it carries the
    // culprit; the first statement waits at the gate so the others gather behind it into one group.
    const pool = {
      query: async (config: pg.QueryConfig | string, values?: unknown[]) => {
        if (typeof config === 'object' && config.name === 'usage_events_store_each') {
          statements += 1;
          if (statements === 1) await gate;
          const rows = JSON.parse(config.values![0] as string) as { id: string }[];
          if (rows.some((r) => r.id.startsWith('culprit'))) throw Object.assign(new Error('invalid input syntax'), { code: '22007' });
        }
        return typeof config === 'string' ? real.query(config, values) : real.query(config);
      },
      connect: () => real.connect(),
    } as unknown as pg.Pool;
    const deps = { ...h.deps, pool };
    const context = { fields: JSON_FIELDS };
    const [leader, ...group] = [event(customerId), event(customerId), event(customerId, { id: `culprit_${newId()}` }), event(customerId)];
    const first = ingestEvent(deps, leader!, context);
    const rest = group.map((e) => ingestEvent(deps, e, context).then((r) => r.accepted, (err: { code?: string }) => err.code));
    release();
    expect((await first).accepted).toBe(true);
    expect(await Promise.all(rest)).toEqual([true, '22007', true]);
    // The group's statement, then one statement per event of the group.
    expect(statements).toBe(1 + 1 + 3);
    expect(await stored({ customerId })).toBe(3);
  });
});

describe('CloudEvents structured mode', () => {
  const cloudEvent = (customerId: string, overrides: Record<string, unknown> = {}) => ({
    specversion: '1.0',
    id: `ce_${newId()}`,
    source: '//api.example.com/gateway',
    type: 'api_calls',
    subject: customerId,
    time: minutesAgo(2),
    datacontenttype: 'application/json',
    data: { quantity: '3', route: '/v1/things' },
    ...overrides,
  });
  const ceHeaders = { 'content-type': 'application/cloudevents+json' };
  const ceBatchHeaders = { 'content-type': 'application/cloudevents-batch+json; charset=utf-8' };

  it('answers a CloudEvent sent as application/json with the media type that takes it, storing nothing', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const ce = cloudEvent(customerId);
    const single = await body<{ error: { code: string; message: string; details: { issues: { path: string }[] } } }>(await h.request('POST', '/v1/events', { body: ce }), 400);
    expect(single.error.code).toBe('validation_failed');
    expect(single.error.message).toContain('Content-Type: application/cloudevents+json');
    expect(single.error.details.issues[0]!.path).toBe('specversion');
    const batch = await body<{ error: { message: string } }>(await h.request('POST', '/v1/events/batch', { body: [ce] }), 400);
    expect(batch.error.message).toContain('Content-Type: application/cloudevents-batch+json');
    expect(await h.deps.db.usageEvent.count({ where: { id: ce.id } })).toBe(0);
  });

  it('maps type, id, time, subject, data and the subscriptionid extension to the event', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const subscriptionId = await makeSubscription(customerId);
    const ce = cloudEvent(customerId, { subscriptionid: subscriptionId, traceparent: '00-abc-def-01', region: 'eu' });
    expect(await body(await h.request('POST', '/v1/events', { body: ce, headers: ceHeaders }), 200)).toEqual({ accepted: true, event_id: ce.id, duplicate: false, late: false, billable: true });
    const row = await h.deps.db.usageEvent.findUniqueOrThrow({ where: { id: ce.id } });
    expect(row).toMatchObject({ eventType: 'api_calls', customerId, subscriptionId, source: ce.source, properties: ce.data });
    expect(row.occurredAt.toISOString()).toBe(ce.time);
    expect((await body(await h.request('POST', '/v1/events', { body: ce, headers: ceHeaders }), 200)).duplicate).toBe(true);
  });

  it('refuses CloudEvents whose id another customer used (409 single, per-item in a batch), storing nothing', async () => {
    const first = await makeCustomer(h.deps.db);
    const second = await makeCustomer(h.deps.db);
    const taken = cloudEvent(first);
    await body(await h.request('POST', '/v1/events', { body: taken, headers: ceHeaders }), 200);
    const single = await h.request('POST', '/v1/events', { body: cloudEvent(second, { id: taken.id }), headers: ceHeaders });
    expect((await body<{ error: { code: string } }>(single, 409)).error.code).toBe('event_id_conflict');
    const batch = [cloudEvent(second), cloudEvent(second, { id: taken.id })];
    const error = (await body<{ error: { details: { issues: { path: string; code: string }[] } } }>(
      await h.request('POST', '/v1/events/batch', { body: batch, headers: ceBatchHeaders }),
      422,
    )).error;
    expect(error.details.issues.map((i) => [i.path, i.code])).toEqual([['1.id', 'event_id_conflict']]);
    expect(await stored({ customerId: second })).toBe(0);
  });

  it('uses the time of receipt when a CloudEvent has no time', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const { time: _omitted, ...ce } = cloudEvent(customerId);
    const before = Date.now();
    await body(await h.request('POST', '/v1/events', { body: ce, headers: ceHeaders }), 200);
    const row = await h.deps.db.usageEvent.findUniqueOrThrow({ where: { id: ce.id } });
    expect(row.occurredAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(row.occurredAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('ingests a CloudEvents batch with duplicate counting', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const events = [cloudEvent(customerId), cloudEvent(customerId)];
    const res = await h.request('POST', '/v1/events/batch', { body: [...events, events[1]], headers: ceBatchHeaders });
    expect(await body(res, 200)).toEqual({ accepted_count: 2, duplicate_count: 1, late_count: 0, unbillable_count: 2 });
    expect(await stored({ customerId })).toBe(2);
  });

  it.each([
    ['a wrong specversion', { specversion: '0.3' }, 'specversion'],
    ['a missing subject', { subject: undefined }, 'subject'],
    ['a subject that is not a customer id', { subject: 'user-42' }, 'subject'],
    ['binary data', { data: undefined, data_base64: 'AAEC' }, 'data_base64'],
    ['non-JSON data', { datacontenttype: 'text/plain' }, 'datacontenttype'],
    ['data that is not an object', { data: [1, 2] }, 'data'],
    ['an invalid extension name', { 'Trace-Id': 'x' }, 'Trace-Id'],
    ['an unparseable time', { time: 'yesterday' }, 'time'],
  ])('refuses a CloudEvent with %s (400, nothing stored)', async (_name, overrides, path) => {
    const customerId = await makeCustomer(h.deps.db);
    const ce = JSON.parse(JSON.stringify(cloudEvent(customerId, overrides))) as Record<string, unknown>;
    const res = await h.request('POST', '/v1/events', { body: ce, headers: ceHeaders });
    const error = (await body<{ error: { code: string; details: { issues: { path: string }[] } } }>(res, 400)).error;
    expect(error.code).toBe('validation_failed');
    expect(error.details.issues.map((i) => i.path)).toContain(path);
    expect(await stored({ customerId })).toBe(0);
    expect(await stored({ id: ce.id as string })).toBe(0);
  });

  it('reports CloudEvents batch errors by index and attribute, storing nothing', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const events = [cloudEvent(customerId), cloudEvent(newId())];
    const res = await h.request('POST', '/v1/events/batch', { body: events, headers: ceBatchHeaders });
    const error = (await body<{ error: { details: { issues: { path: string; code: string }[] } } }>(res, 422)).error;
    expect(error.details.issues).toEqual([expect.objectContaining({ path: '1.subject', code: 'customer_not_found' })]);
    expect(await stored({ customerId })).toBe(0);
    expect(await stored({ id: { in: events.map((e) => e.id) } })).toBe(0);
  });

  it('answers 415 for a CloudEvents media type on the wrong endpoint', async () => {
    const customerId = await makeCustomer(h.deps.db);
    expect((await h.request('POST', '/v1/events', { body: [cloudEvent(customerId)], headers: ceBatchHeaders })).status).toBe(415);
    expect((await h.request('POST', '/v1/events/batch', { body: cloudEvent(customerId), headers: ceHeaders })).status).toBe(415);
    expect(await stored({ customerId })).toBe(0);
  });
});

describe('events naming no customer', () => {
  const withoutCustomer = (customerId: string, overrides: Record<string, unknown> = {}) => {
    const { customer_id: _named, ...rest } = event(customerId, overrides);
    return rest;
  };
  const cloudEventOf = (overrides: Record<string, unknown> = {}) => ({
    specversion: '1.0',
    id: `ce_${newId()}`,
    source: '//api.example.com/gateway',
    type: 'api_calls',
    time: minutesAgo(2),
    data: { quantity: '2' },
    ...overrides,
  });
  type Issues = { error: { code: string; details: { issues: { path: string; message: string }[] } } };

  it("are the customer token's own customer: single events, batches and CloudEvents alike", async () => {
    const mine = await makeCustomer(h.deps.db);
    const single = withoutCustomer(mine);
    expect(await body(await h.request('POST', '/v1/events', { as: { customer: mine }, body: single }), 200)).toMatchObject({ accepted: true, event_id: single.id });
    const batch = [withoutCustomer(mine), event(mine)];
    expect(await body(await h.request('POST', '/v1/events/batch', { as: { customer: mine }, body: { events: batch } }), 200)).toMatchObject({ accepted_count: 2 });
    const ce = cloudEventOf();
    expect(await body(await h.request('POST', '/v1/events', { as: { customer: mine }, body: ce, headers: { 'content-type': 'application/cloudevents+json' } }), 200)).toMatchObject({ accepted: true });
    const ceBatch = [cloudEventOf(), cloudEventOf({ subject: mine })];
    const headers = { 'content-type': 'application/cloudevents-batch+json' };
    expect(await body(await h.request('POST', '/v1/events/batch', { as: { customer: mine }, body: ceBatch, headers }), 200)).toMatchObject({ accepted_count: 2 });
    const ids = [single.id, ...batch.map((e) => e.id), ce.id, ...ceBatch.map((e) => e.id)];
    const rows = await h.deps.db.usageEvent.findMany({ where: { id: { in: ids } }, select: { customerId: true } });
    expect(rows.map((r) => r.customerId)).toEqual(Array(6).fill(mine));
  });

  it("still refuses another customer's id from a customer token, storing nothing", async () => {
    const mine = await makeCustomer(h.deps.db);
    const theirs = await makeCustomer(h.deps.db);
    const res = await h.request('POST', '/v1/events/batch', { as: { customer: mine }, body: { events: [withoutCustomer(mine), event(theirs)] } });
    expect((await body<Issues>(res, 422)).error.details.issues.map((i) => i.path)).toEqual(['events.1.customer_id']);
    expect(await stored({ customerId: mine })).toBe(0);
    expect(await stored({ customerId: theirs })).toBe(0);
  });

  it('must name the customer with admin credentials (400 naming each event)', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const single = await body<Issues>(await h.request('POST', '/v1/events', { body: withoutCustomer(customerId) }), 400);
    expect(single.error.code).toBe('validation_failed');
    expect(single.error.details.issues).toEqual([{ path: 'customer_id', message: 'name the customer: customer_id, or external_customer_id' }]);
    const batch = await body<Issues>(await h.request('POST', '/v1/events/batch', { body: { events: [event(customerId), withoutCustomer(customerId)] } }), 400);
    expect(batch.error.details.issues.map((i) => i.path)).toEqual(['events.1.customer_id']);
    const ce = await body<Issues>(await h.request('POST', '/v1/events', { body: cloudEventOf(), headers: { 'content-type': 'application/cloudevents+json' } }), 400);
    expect(ce.error.details.issues).toEqual([{ path: 'subject', message: 'name the customer: subject' }]);
    const ceBatch = await h.request('POST', '/v1/events/batch', { body: [cloudEventOf({ subject: customerId }), cloudEventOf()], headers: { 'content-type': 'application/cloudevents-batch+json' } });
    expect((await body<Issues>(ceBatch, 400)).error.details.issues.map((i) => i.path)).toEqual(['1.subject']);
    expect(await stored({ customerId })).toBe(0);
  });
});

describe('API description', () => {
  it('documents the JSON and CloudEvents media types of both ingestion endpoints', async () => {
    const doc = (await (await h.request('GET', '/openapi.json', { as: 'none' })).json()) as {
      paths: Record<string, { post: { requestBody: { content: Record<string, unknown> } } }>;
      components: { schemas: Record<string, unknown> };
    };
    expect(Object.keys(doc.paths['/v1/events']!.post.requestBody.content)).toEqual(['application/json', 'application/cloudevents+json']);
    expect(Object.keys(doc.paths['/v1/events/batch']!.post.requestBody.content)).toEqual(['application/json', 'application/cloudevents-batch+json']);
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['UsageEvent', 'UsageEventBatch', 'CloudEvent', 'CloudEventBatch', 'Meter', 'UsageSummary']));
  });
});

describe('invalid events are refused with nothing stored', () => {
  const cases: [string, (customerId: string) => unknown, number, string][] = [
    ['a missing id', (c) => ({ ...event(c), id: undefined }), 400, 'validation_failed'],
    ['an empty id', (c) => event(c, { id: '' }), 400, 'validation_failed'],
    ['an id longer than 255 characters', (c) => event(c, { id: 'x'.repeat(256) }), 400, 'validation_failed'],
    ['a missing event_type', (c) => ({ ...event(c), event_type: undefined }), 400, 'validation_failed'],
    ['a customer_id that is not a UUID', (c) => event(c, { customer_id: 'cust_1' }), 400, 'validation_failed'],
    ['an unknown customer', () => event(newId()), 404, 'customer_not_found'],
    ['an unknown subscription', (c) => event(c, { subscription_id: newId() }), 404, 'subscription_not_found'],
    ['a null timestamp', (c) => event(c, { timestamp: null }), 400, 'validation_failed'],
    ['an unparseable timestamp', (c) => event(c, { timestamp: 'last tuesday' }), 400, 'validation_failed'],
    ['a date that does not exist', (c) => event(c, { timestamp: '2026-02-30T10:00:00Z' }), 400, 'validation_failed'],
    ['a timestamp without offset', (c) => event(c, { timestamp: '2026-01-10T10:00:00' }), 400, 'validation_failed'],
    ['a timestamp an hour in the future', (c) => event(c, { timestamp: iso(Date.now() + 3_600_000) }), 400, 'validation_failed'],
    ['a UTC offset PostgreSQL cannot store (+23:00)', (c) => event(c, { timestamp: iso(Date.now() + 60_000).replace('Z', '+23:00') }), 400, 'validation_failed'],
    ['an instant before 1970 written in a later local date', (c) => event(c, { timestamp: '1970-01-01T00:30:00+01:00' }), 400, 'validation_failed'],
    ['properties that are an array', (c) => event(c, { properties: [1] }), 400, 'validation_failed'],
    ['properties that are null', (c) => event(c, { properties: null }), 400, 'validation_failed'],
    ['properties that are a string', (c) => event(c, { properties: 'tokens=5' }), 400, 'validation_failed'],
    ['an integer beyond 2^53', (c) => event(c, { properties: { tokens: 2 ** 60 } }), 400, 'validation_failed'],
    ['a decimal number with more digits than a JSON number keeps', (c) => event(c, { properties: { tokens: 0.30000000000000004 } }), 400, 'validation_failed'],
    ['a quantity that is not numeric', (c) => event(c, { properties: { quantity: 'five' } }), 400, 'validation_failed'],
    ['an unknown field', (c) => event(c, { customer: c }), 400, 'validation_failed'],
  ];

  /** Nothing of the refused payload is stored: not under its id, not for its customer, not for the fixture customer. */
  async function expectNothingStored(payload: unknown, customerId: string) {
    const { id, customer_id: sentCustomer } = payload as { id?: unknown; customer_id?: unknown };
    if (typeof id === 'string' && id !== '') expect(await stored({ id }), `events with id ${id}`).toBe(0);
    if (typeof sentCustomer === 'string' && /^[0-9a-f-]{36}$/i.test(sentCustomer)) expect(await stored({ customerId: sentCustomer })).toBe(0);
    expect(await stored({ customerId })).toBe(0);
  }

  it.each(cases)('single event with %s', async (_name, make, status, code) => {
    const customerId = await makeCustomer(h.deps.db);
    const payload = make(customerId);
    const res = await h.request('POST', '/v1/events', { body: payload });
    expect((await body<{ error: { code: string } }>(res, status)).error.code).toBe(code);
    await expectNothingStored(payload, customerId);
  });

  it('dates an event sent without a timestamp at its receipt, in the customer\'s time', async () => {
    const clockId = await makeTestClock(h.deps.db, '2026-03-10T12:00:00.000Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    const { timestamp: _omitted, ...e } = event(customerId);
    expect(await body(await h.request('POST', '/v1/events', { body: e }), 200)).toMatchObject({ accepted: true });
    expect((await h.deps.db.usageEvent.findUniqueOrThrow({ where: { id: e.id } })).occurredAt.toISOString()).toBe('2026-03-10T12:00:00.000Z');
  });

  it('refuses a number beyond the range of JSON numbers (it would be stored as null)', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const e = event(customerId);
    const rawBody = JSON.stringify(e).replace('"quantity":1', '"quantity":1,"tokens":1e400');
    expect(rawBody).toContain('1e400');
    const res = await h.request('POST', '/v1/events', { rawBody, headers: { 'content-type': 'application/json' } });
    const error = (await body<{ error: { code: string; details: { issues: { path: string }[] } } }>(res, 400)).error;
    expect(error.details.issues.map((i) => i.path)).toEqual(['properties.tokens']);
    await expectNothingStored(e, customerId);
  });

  // A future timestamp depends on the customer's clock, read in the database: in a batch it is one of
  // the 422 invalid_events issues (tested above), not a schema error.
  const schemaCases = cases.filter(([name, , status]) => status === 400 && !name.includes('future'));
  it.each(schemaCases)('batch with %s among valid events (400, path names the item)', async (_name, make) => {
    const customerId = await makeCustomer(h.deps.db);
    const events = [event(customerId), make(customerId), event(customerId)];
    const res = await h.request('POST', '/v1/events/batch', { body: { events } });
    const error = (await body<{ error: { code: string; details: { issues: { path: string }[] } } }>(res, 400)).error;
    expect(error.code).toBe('validation_failed');
    expect(error.details.issues.every((i) => i.path.startsWith('events.1'))).toBe(true);
    for (const e of events) await expectNothingStored(e, customerId);
  });

  it('refuses an empty batch, a batch over the maximum size and a body over the size limit', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const empty = await h.request('POST', '/v1/events/batch', { body: { events: [] } });
    expect((await body<{ error: { code: string } }>(empty, 400)).error.code).toBe('validation_failed');
    const tooMany = await h.request('POST', '/v1/events/batch', { body: { events: Array.from({ length: MAX_BATCH_EVENTS + 1 }, () => event(customerId)) } });
    const error = (await body<{ error: { message: string } }>(tooMany, 400)).error;
    expect(error.message).toContain(`at most ${MAX_BATCH_EVENTS} events`);
    const huge = await h.request('POST', '/v1/events', { body: event(customerId, { properties: { blob: 'x'.repeat(1024 * 1024 + 10) } }) });
    expect((await body<{ error: { code: string } }>(huge, 413)).error.code).toBe('payload_too_large');
    expect(await stored({ customerId })).toBe(0);
  });

  it('refuses a body that is not JSON, or not sent as JSON', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const text = await h.request('POST', '/v1/events', { rawBody: JSON.stringify(event(customerId)), headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    const malformed = await h.request('POST', '/v1/events', { rawBody: '{"id": "x",', headers: { 'content-type': 'application/json' } });
    expect((await body<{ error: { code: string } }>(malformed, 400)).error.code).toBe('malformed_json');
    expect(await stored({ customerId })).toBe(0);
  });
});

describe('usage_events is append-only', () => {
  it('refuses UPDATE, DELETE and TRUNCATE in the database', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const e = event(customerId);
    await body(await h.request('POST', '/v1/events', { body: e }), 200);
    await expect(h.deps.pool.query('UPDATE usage_events SET late = true WHERE id = $1', [e.id])).rejects.toThrow(/append-only/);
    await expect(h.deps.pool.query('DELETE FROM usage_events WHERE id = $1', [e.id])).rejects.toThrow(/append-only/);
    await expect(h.deps.pool.query('TRUNCATE usage_events')).rejects.toThrow(/append-only/);
    expect(await stored({ id: e.id })).toBe(1);
  });
});
