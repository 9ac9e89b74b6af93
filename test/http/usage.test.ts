/**
 * The usage summary (GET /v1/subscriptions/:id/usage), the quantities invoicing reads
 * (quantitiesForPeriod), attribution, late events, and rollups: values never change when a pass
 * runs, a meter defined late backfills, and passes racing ingestion neither lose nor double events.
 */
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import type { SkuPrice } from '../../src/core/index.js';
import { quantitiesForPeriod, resolveSkuMeters, runRollupPass } from '../../src/services/metering/usage.js';
import { makeCustomer, makeTestClock } from '../support/fixtures.js';
import { useHarness } from '../support/harness.js';

const h = useHarness();

interface SummaryBody {
  subscription_id: string;
  customer_id: string;
  period_start: string;
  period_end: string;
  as_of: string;
  meters: {
    meter_id: string;
    name: string;
    event_type: string;
    aggregation: string;
    value: string;
    billable_value: string;
    unit: string;
    window_type: string;
    window_start: string;
    window_end: string;
    event_count: number;
    late_event_count: number;
  }[];
}

async function body<T>(res: Response, status: number): Promise<T> {
  const json = (await res.json()) as T;
  expect(res.status, JSON.stringify(json)).toBe(status);
  return json;
}

const uniqueType = (name: string) => `${name}_${newId().slice(-12)}`;

interface SubscriptionOptions {
  customerId?: string;
  eventTypes: string[];
  periodStart: string;
  periodEnd: string;
  billingAnchor?: string;
  trialDays?: number;
  trialEnd?: string;
  chargedThrough?: string;
  testClockId?: string;
}

async function makeSubscription(options: SubscriptionOptions): Promise<{ customerId: string; subscriptionId: string }> {
  const customerId = options.customerId ?? (await makeCustomer(h.deps.db, options.testClockId ? { testClockId: options.testClockId } : {}));
  const planId = newId();
  await h.deps.db.plan.create({ data: { id: planId, name: `Plan ${planId.slice(-6)}`, billingCadence: 'Monthly' } });
  await h.deps.db.sku.createMany({
    data: [
      { id: newId(), planId, name: 'Base', pricingModel: 'Flat', unitAmountNanos: '1', currency: 'USD' },
      ...options.eventTypes.map((t) => ({ id: newId(), planId, name: t, pricingModel: 'PerUnit' as const, unitAmountNanos: '1', meterEventType: t, currency: 'USD' })),
    ],
  });
  const subscriptionId = newId();
  await h.deps.db.subscription.create({
    data: {
      id: subscriptionId,
      customerId,
      planId,
      currency: 'USD',
      status: 'Active',
      trialDays: options.trialDays ?? 0,
      trialEnd: options.trialEnd ? new Date(options.trialEnd) : null,
      periodStart: new Date(options.periodStart),
      periodEnd: new Date(options.periodEnd),
      billingAnchor: new Date(options.billingAnchor ?? options.periodStart),
      chargedThroughDate: options.chargedThrough ? new Date(options.chargedThrough) : null,
      testClockId: options.testClockId ?? null,
    },
  });
  return { customerId, subscriptionId };
}

async function send(events: { customerId: string; eventType: string; at: string; subscriptionId?: string; properties?: Record<string, unknown> }[]) {
  const payload = events.map((e) => ({
    id: `evt_${newId()}`,
    event_type: e.eventType,
    customer_id: e.customerId,
    ...(e.subscriptionId ? { subscription_id: e.subscriptionId } : {}),
    timestamp: e.at,
    properties: e.properties ?? {},
  }));
  return body<{ accepted_count: number; late_count: number }>(await h.request('POST', '/v1/events/batch', { body: { events: payload } }), 200);
}

const summary = async (subscriptionId: string, query = '', as?: { customer: string }) =>
  h.request('GET', `/v1/subscriptions/${subscriptionId}/usage${query}`, as ? { as } : {});

describe('GET /v1/subscriptions/:id/usage', () => {
  it('reports the current period in the SPEC shape, counting the subscription\'s and the customer\'s unattributed events only', async () => {
    const calls = uniqueType('calls');
    const tokens = uniqueType('tokens');
    const { customerId, subscriptionId } = await makeSubscription({ eventTypes: [calls, tokens], periodStart: '2026-09-01T00:00:00Z', periodEnd: '2026-10-01T00:00:00Z' });
    const other = await makeSubscription({ customerId, eventTypes: [calls], periodStart: '2026-09-01T00:00:00Z', periodEnd: '2026-10-01T00:00:00Z' });
    const stranger = await makeCustomer(h.deps.db);
    const tokenMeter = await body<{ id: string }>(
      await h.request('POST', '/admin/v1/meters', { body: { name: 'Tokens', event_type: tokens, aggregation: 'Sum', property: 'tokens', unit: 'tokens' } }),
      201,
    );
    await send([
      { customerId, eventType: calls, at: '2026-09-02T10:00:00Z', subscriptionId },
      { customerId, eventType: calls, at: '2026-09-02T11:00:00Z' },
      { customerId, eventType: calls, at: '2026-09-02T12:00:00Z', subscriptionId: other.subscriptionId },
      { customerId: stranger, eventType: calls, at: '2026-09-02T12:00:00Z' },
      { customerId, eventType: tokens, at: '2026-09-03T00:00:00Z', subscriptionId, properties: { tokens: '1500.5' } },
    ]);
    const usage = await body<SummaryBody>(await summary(subscriptionId), 200);
    expect(usage).toEqual({
      subscription_id: subscriptionId,
      customer_id: customerId,
      period_start: '2026-09-01T00:00:00.000Z',
      period_end: '2026-10-01T00:00:00.000Z',
      as_of: expect.any(String),
      unbillable_event_count: 0,
      meters: [
        {
          meter_id: `default:${calls}`,
          name: `${calls} (default)`,
          event_type: calls,
          aggregation: 'Sum',
          value: '2',
          billable_value: '2',
          unit: 'units',
          window_type: 'BillingPeriod',
          window_start: '2026-09-01T00:00:00.000Z',
          window_end: '2026-10-01T00:00:00.000Z',
          event_count: 2,
          late_event_count: 0,
          dimensions: [],
        },
        expect.objectContaining({ meter_id: tokenMeter.id, name: 'Tokens', event_type: tokens, aggregation: 'Sum', value: '1500.5', billable_value: '1500.5', unit: 'tokens', event_count: 1 }),
      ],
    });
    // The customer's unattributed event counts for its other subscription too.
    expect((await body<SummaryBody>(await summary(other.subscriptionId), 200)).meters[0]!.value).toBe('2');
  });

  it('answers another period with `at`, and any window with from/to', async () => {
    const calls = uniqueType('calls');
    const { customerId, subscriptionId } = await makeSubscription({
      eventTypes: [calls],
      trialDays: 14,
      trialEnd: '2026-01-15T00:00:00Z',
      billingAnchor: '2026-01-15T00:00:00Z',
      periodStart: '2026-03-15T00:00:00Z',
      periodEnd: '2026-04-15T00:00:00Z',
    });
    await send([
      { customerId, eventType: calls, at: '2026-01-10T00:00:00Z', subscriptionId },
      { customerId, eventType: calls, at: '2026-02-20T00:00:00Z', subscriptionId },
      { customerId, eventType: calls, at: '2026-02-21T00:00:00Z', subscriptionId },
      { customerId, eventType: calls, at: '2026-03-20T00:00:00Z', subscriptionId },
    ]);
    const current = await body<SummaryBody>(await summary(subscriptionId), 200);
    expect([current.period_start, current.meters[0]!.value]).toEqual(['2026-03-15T00:00:00.000Z', '1']);
    const february = await body<SummaryBody>(await summary(subscriptionId, '?at=2026-02-20T12:00:00Z'), 200);
    expect([february.period_start, february.period_end, february.meters[0]!.value]).toEqual(['2026-02-15T00:00:00.000Z', '2026-03-15T00:00:00.000Z', '2']);
    const trial = await body<SummaryBody>(await summary(subscriptionId, '?at=2026-01-02T00:00:00Z'), 200);
    expect([trial.period_start, trial.period_end, trial.meters[0]!.value]).toEqual(['2026-01-01T00:00:00.000Z', '2026-01-15T00:00:00.000Z', '1']);
    const custom = await body<SummaryBody>(await summary(subscriptionId, '?from=2026-02-20T00:00:00Z&to=2026-03-20T00:00:00.001Z'), 200);
    expect([custom.meters[0]!.window_type, custom.meters[0]!.value]).toEqual(['Custom', '3']);
  });

  it('uses the test clock\'s time as "now" for sandbox subscriptions', async () => {
    const calls = uniqueType('calls');
    const clockId = await makeTestClock(h.deps.db, '2026-06-10T12:00:00Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    const { subscriptionId } = await makeSubscription({ customerId, testClockId: clockId, eventTypes: [calls], periodStart: '2026-06-01T00:00:00Z', periodEnd: '2026-07-01T00:00:00Z' });
    await h.request('POST', '/admin/v1/meters', { body: { name: 'last hour', event_type: calls, aggregation: 'Count', window_type: 'Sliding', window_size: 'PT1H' } });
    await send([
      { customerId, eventType: calls, at: '2026-06-10T11:30:00Z', subscriptionId },
      { customerId, eventType: calls, at: '2026-06-10T10:30:00Z', subscriptionId },
    ]);
    const usage = await body<SummaryBody>(await summary(subscriptionId), 200);
    expect(usage.as_of).toBe('2026-06-10T12:00:00.000Z');
    expect(usage.meters.map((m) => m.value)).toEqual(['1']);
  });

  it('counts late events in the summary', async () => {
    const calls = uniqueType('calls');
    const { customerId, subscriptionId } = await makeSubscription({
      eventTypes: [calls],
      periodStart: '2026-09-01T00:00:00Z',
      periodEnd: '2026-10-01T00:00:00Z',
      chargedThrough: '2026-09-15T00:00:00Z',
    });
    const sent = await send([
      { customerId, eventType: calls, at: '2026-09-14T23:59:59Z', subscriptionId },
      { customerId, eventType: calls, at: '2026-09-15T00:00:00Z', subscriptionId },
    ]);
    expect(sent.late_count).toBe(1);
    const entry = (await body<SummaryBody>(await summary(subscriptionId), 200)).meters[0]!;
    expect([entry.value, entry.event_count, entry.late_event_count]).toEqual(['2', 2, 1]);
    await runRollupPass(h.deps);
    const rolled = (await body<SummaryBody>(await summary(subscriptionId), 200)).meters[0]!;
    expect([rolled.value, rolled.event_count, rolled.late_event_count]).toEqual(['2', 2, 1]);
  });

  it('shows customers their own subscriptions only', async () => {
    const calls = uniqueType('calls');
    const { customerId, subscriptionId } = await makeSubscription({ eventTypes: [calls], periodStart: '2026-09-01T00:00:00Z', periodEnd: '2026-10-01T00:00:00Z' });
    const stranger = await makeCustomer(h.deps.db);
    expect((await summary(subscriptionId, '', { customer: customerId })).status).toBe(200);
    const res = await summary(subscriptionId, '', { customer: stranger });
    expect((await body<{ error: { code: string } }>(res, 404)).error.code).toBe('subscription_not_found');
    expect((await summary(newId())).status).toBe(404);
  });

  it.each([
    ['from without to', '?from=2026-09-01T00:00:00Z', 'to'],
    ['to before from', '?from=2026-09-02T00:00:00Z&to=2026-09-01T00:00:00Z', 'to'],
    ['at together with from/to', '?from=2026-09-01T00:00:00Z&to=2026-09-02T00:00:00Z&at=2026-09-01T12:00:00Z', 'at'],
    ['an unparseable at', '?at=tomorrow', 'at'],
    ['an at before the subscription started', '?at=2020-01-01T00:00:00Z', 'at'],
  ])('refuses %s with 400', async (_name, query, path) => {
    const { subscriptionId } = await makeSubscription({ eventTypes: [uniqueType('calls')], periodStart: '2026-09-01T00:00:00Z', periodEnd: '2026-10-01T00:00:00Z' });
    const error = (await body<{ error: { code: string; details: { issues: { path: string }[] } } }>(await summary(subscriptionId, query), 400)).error;
    expect(error.code).toBe('validation_failed');
    expect(error.details.issues.map((i) => i.path)).toContain(path);
  });
});

describe('quantitiesForPeriod', () => {
  it('uses the first meter of each type (with its filters), the default otherwise, and "0" without events, over [from, to)', async () => {
    const tokens = uniqueType('tokens');
    const calls = uniqueType('calls');
    const idle = uniqueType('idle');
    const { customerId, subscriptionId } = await makeSubscription({ eventTypes: [tokens, calls, idle], periodStart: '2026-09-01T00:00:00Z', periodEnd: '2026-10-01T00:00:00Z' });
    const other = await makeSubscription({ customerId, eventTypes: [tokens], periodStart: '2026-09-01T00:00:00Z', periodEnd: '2026-10-01T00:00:00Z' });
    const billable = await body<{ id: string }>(await h.request('POST', '/admin/v1/meters', {
      body: { name: 'billable tokens', event_type: tokens, aggregation: 'Sum', property: 'tokens', filters: [{ property: 'billable', operator: 'Equals', value: true }] },
    }), 201);
    const tokenEvents = await body<{ id: string }>(await h.request('POST', '/admin/v1/meters', { body: { name: 'token events', event_type: tokens, aggregation: 'Count' } }), 201);
    await send([
      { customerId, eventType: tokens, at: '2026-09-01T00:00:00Z', subscriptionId, properties: { tokens: '0.1', billable: true } },
      { customerId, eventType: tokens, at: '2026-09-15T08:30:00Z', properties: { tokens: 0.2, billable: true } },
      { customerId, eventType: tokens, at: '2026-09-16T00:00:00Z', subscriptionId, properties: { tokens: 50, billable: false } },
      { customerId, eventType: tokens, at: '2026-09-17T00:00:00Z', subscriptionId: other.subscriptionId, properties: { tokens: 70, billable: true } },
      { customerId, eventType: tokens, at: '2026-10-01T00:00:00Z', subscriptionId, properties: { tokens: 900, billable: true } },
      { customerId, eventType: calls, at: '2026-09-20T00:00:00Z', subscriptionId, properties: { quantity: '4' } },
      { customerId, eventType: calls, at: '2026-09-20T00:00:00Z', subscriptionId },
    ]);
    // SKUs by event type bill each type's default meter; a SKU naming a meter bills that one.
    const sku = (id: string, eventType: string, meterId?: string): SkuPrice => ({
      sku_id: id,
      name: id,
      pricing_model: 'PerUnit',
      unit_amount_nanos: 1n,
      currency: 'USD',
      meter_event_type: eventType,
      ...(meterId === undefined ? {} : { meter_id: meterId }),
    });
    const { skus, meters } = await resolveSkuMeters(h.deps.db, [sku('a', tokens), sku('b', calls), sku('c', idle), sku('d', calls), sku('e', tokens, tokenEvents.id)]);
    expect(skus.map((s) => s.meter?.meter_id)).toEqual([billable.id, `default:${calls}`, `default:${idle}`, `default:${calls}`, tokenEvents.id]);
    expect(meters.map((m) => m.key)).toEqual([billable.id, `default:${calls}`, `default:${idle}`, tokenEvents.id]);
    const input = { subscriptionId, customerId, meters, from: new Date('2026-09-01T00:00:00Z'), to: new Date('2026-10-01T00:00:00Z') };
    const expected = { [billable.id]: '0.3', [`default:${calls}`]: '5', [`default:${idle}`]: '0', [tokenEvents.id]: '3' };
    expect(await quantitiesForPeriod(h.deps.db, input)).toEqual(expected);
    await runRollupPass(h.deps);
    expect(await quantitiesForPeriod(h.deps.db, input)).toEqual(expected);
    expect(await quantitiesForPeriod(h.deps.db, { ...input, meters: [] })).toEqual({});
  });
});

describe('rollups', () => {
  it('keep every window exact at hour edges, for events after the last pass, and for a meter defined late', async () => {
    const tokens = uniqueType('tokens');
    const { customerId, subscriptionId } = await makeSubscription({ eventTypes: [tokens], periodStart: '2026-09-01T00:00:00Z', periodEnd: '2026-10-01T00:00:00Z' });
    const events = Array.from({ length: 240 }, (_, i) => ({
      customerId,
      eventType: tokens,
      subscriptionId,
      // Every 17 minutes and 13.5 seconds from Sep 3: edges of hours fall between events.
      at: new Date(Date.parse('2026-09-03T00:00:00Z') + i * 1_033_500).toISOString(),
      properties: { tokens: `${i}.25`, user: `u${i % 7}` },
    }));
    await send(events);
    const sumMeter = await body<{ id: string }>(await h.request('POST', '/admin/v1/meters', { body: { name: 's', event_type: tokens, aggregation: 'Sum', property: 'tokens' } }), 201);
    const unique = await body<{ id: string }>(await h.request('POST', '/admin/v1/meters', { body: { name: 'u', event_type: tokens, aggregation: 'UniqueCount', property: 'user' } }), 201);
    // Partial hours at both edges, whole hours on Sep 3 and 5, the whole day of Sep 4.
    const window = '?from=2026-09-03T01:07:30Z&to=2026-09-05T13:59:59.999Z';
    const inWindow = events.filter((e) => e.at >= '2026-09-03T01:07:30.000Z' && e.at < '2026-09-05T13:59:59.999Z');
    // tokens are "<i>.25": the exact sum is Σi + n/4, written here from hundredths.
    const expectedSum = (indexes: number[]) => {
      const hundredths = indexes.reduce((a, b) => a + b * 100 + 25, 0);
      const fraction = String(hundredths % 100).padStart(2, '0').replace(/0+$/, '');
      return fraction ? `${Math.floor(hundredths / 100)}.${fraction}` : `${hundredths / 100}`;
    };
    const read = async () => Object.fromEntries((await body<SummaryBody>(await summary(subscriptionId, window), 200)).meters.map((m) => [m.meter_id, m.value]));
    const indexes = inWindow.map((e) => Number(e.properties.tokens.split('.')[0]));
    const expected = { [sumMeter.id]: expectedSum(indexes), [unique.id]: '7' };

    expect(await read()).toEqual(expected);
    const pass = await runRollupPass(h.deps);
    expect(pass.horizon).not.toBeNull();
    expect(await read()).toEqual(expected);

    const later = [{ customerId, eventType: tokens, subscriptionId, at: '2026-09-03T12:00:00Z', properties: { tokens: '1000.25', user: 'new' } }];
    await send(later);
    const withLater = { [sumMeter.id]: expectedSum([...indexes, 1000]), [unique.id]: '8' };
    expect(await read()).toEqual(withLater);
    await runRollupPass(h.deps);
    expect(await read()).toEqual(withLater);
  });

  it('neither lose nor double events when passes race ingestion', async () => {
    const calls = uniqueType('calls');
    const { customerId, subscriptionId } = await makeSubscription({ eventTypes: [calls], periodStart: '2026-09-01T00:00:00Z', periodEnd: '2026-10-01T00:00:00Z' });
    const meter = await body<{ id: string }>(await h.request('POST', '/admin/v1/meters', { body: { name: 'n', event_type: calls, aggregation: 'Sum', property: 'n' } }), 201);
    const batches = Array.from({ length: 40 }, (_, b) =>
      Array.from({ length: 25 }, (_, i) => ({ customerId, eventType: calls, subscriptionId, at: `2026-09-10T${String(b % 24).padStart(2, '0')}:${String(i).padStart(2, '0')}:00Z`, properties: { n: 1 } })),
    );
    let ingesting = true;
    const passes = (async () => {
      let count = 0;
      while (ingesting) {
        await runRollupPass(h.deps);
        count += 1;
      }
      return count;
    })();
    await Promise.all(batches.map((events) => send(events)));
    ingesting = false;
    expect(await passes).toBeGreaterThan(0);
    const value = async () => (await body<SummaryBody>(await summary(subscriptionId), 200)).meters.find((m) => m.meter_id === meter.id)!.value;
    expect(await value()).toBe('1000');
    await runRollupPass(h.deps);
    expect(await value()).toBe('1000');
    const [cursor] = await h.deps.pool.query<{ position: string; max: string }>(
      `SELECT position::text, (SELECT max(seq) FROM usage_events)::text AS max FROM usage_rollup_cursors WHERE aggregator = $1`,
      [meter.id],
    ).then((r) => r.rows);
    expect(BigInt(cursor!.position)).toBe(BigInt(cursor!.max));
  });
});
