/**
 * Meters: the admin API, and every aggregation, filter operator and window type measured through
 * the usage summary — each value checked twice, read raw and again after a rollup pass.
 */
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import { runRollupPass } from '../../src/services/metering/usage.js';
import { makeCustomer } from '../support/fixtures.js';
import { expectPage, useHarness } from '../support/harness.js';

const h = useHarness();

const PERIOD_START = '2026-09-01T00:00:00.000Z';
const PERIOD_END = '2026-10-01T00:00:00.000Z';

interface MeterBody {
  id: string;
  name: string;
  event_type: string;
  aggregation: string;
  property: string | null;
  filters: unknown[];
  window_type: string;
  window_size: string | null;
  unit: string;
}

interface SummaryBody {
  period_start: string;
  period_end: string;
  meters: { meter_id: string; aggregation: string; value: string; unit: string; window_type: string; window_start: string; window_end: string; event_count: number }[];
}

async function body<T>(res: Response, status: number): Promise<T> {
  const json = (await res.json()) as T;
  expect(res.status, JSON.stringify(json)).toBe(status);
  return json;
}

const uniqueType = (name: string) => `${name}_${newId().slice(-12)}`;

/** A customer with a subscription whose plan meters `eventType`, billing period September 2026. */
async function subscriptionFor(eventType: string): Promise<{ customerId: string; subscriptionId: string }> {
  const customerId = await makeCustomer(h.deps.db);
  const planId = newId();
  await h.deps.db.plan.create({ data: { id: planId, name: `Plan ${planId.slice(-6)}`, billingCadence: 'Monthly' } });
  await h.deps.db.sku.create({ data: { id: newId(), planId, name: eventType, pricingModel: 'PerUnit', unitAmountNanos: '1', meterEventType: eventType, currency: 'USD' } });
  const subscriptionId = newId();
  await h.deps.db.subscription.create({
    data: {
      id: subscriptionId,
      customerId,
      planId,
      currency: 'USD',
      status: 'Active',
      periodStart: new Date(PERIOD_START),
      periodEnd: new Date(PERIOD_END),
      billingAnchor: new Date(PERIOD_START),
    },
  });
  return { customerId, subscriptionId };
}

async function defineMeter(input: Record<string, unknown>): Promise<MeterBody> {
  return body<MeterBody>(await h.request('POST', '/admin/v1/meters', { body: { name: `meter ${newId().slice(-6)}`, ...input } }), 201);
}

async function send(customerId: string, eventType: string, events: { at: string; properties?: Record<string, unknown>; id?: string }[]): Promise<void> {
  const payload = events.map((e) => ({ id: e.id ?? `evt_${newId()}`, event_type: eventType, customer_id: customerId, timestamp: e.at, properties: e.properties ?? {} }));
  await body(await h.request('POST', '/v1/events/batch', { body: { events: payload } }), 200);
}

/** The summary's value per meter id, read now and again after a rollup pass: both must agree. */
async function values(subscriptionId: string, query = ''): Promise<Record<string, string>> {
  const read = async () => {
    const summary = await body<SummaryBody>(await h.request('GET', `/v1/subscriptions/${subscriptionId}/usage${query}`), 200);
    return Object.fromEntries(summary.meters.map((m) => [m.meter_id, m.value]));
  };
  const raw = await read();
  await runRollupPass(h.deps);
  expect(await read(), 'after the rollup pass').toEqual(raw);
  return raw;
}

describe('meter admin API', () => {
  it('defines, gets and lists meters', async () => {
    const eventType = uniqueType('tokens');
    const meter = await defineMeter({ event_type: eventType, aggregation: 'Sum', property: 'properties.tokens', window_type: 'Sliding', window_size: 'PT90M' });
    expect(meter).toMatchObject({ event_type: eventType, aggregation: 'Sum', property: 'tokens', filters: [], window_type: 'Sliding', window_size: 'PT1H30M', unit: 'tokens' });
    const second = await defineMeter({ event_type: eventType, aggregation: 'Count', unit: 'requests' });
    expect(second).toMatchObject({ property: null, window_type: 'BillingPeriod', window_size: null, unit: 'requests' });

    expect(await body(await h.request('GET', `/admin/v1/meters/${meter.id}`), 200)).toEqual(meter);
    const page = await expectPage<MeterBody>(
      await h.request('GET', `/admin/v1/meters?event_type=${eventType}&limit=1`),
      200,
    );
    expect(page.data.map((m) => m.id)).toEqual([second.id]);
    expect(page.has_more).toBe(true);
    const next = await expectPage<MeterBody>(
      await h.request('GET', `/admin/v1/meters?event_type=${eventType}&limit=1&starting_after=${page.next_cursor}`),
      200,
    );
    expect(next.data.map((m) => m.id)).toEqual([meter.id]);
    expect(next.has_more).toBe(false);

    const audit = await h.deps.db.auditLogEntry.findMany({ where: { entityId: meter.id } });
    expect(audit.map((a) => [a.action, a.actorType])).toEqual([['meter.created', 'admin']]);
  });

  it('refuses a second meter measuring exactly the same (409 meter_exists naming it), also when both arrive at once', async () => {
    const eventType = uniqueType('dupes');
    const definition = { event_type: eventType, aggregation: 'Sum', property: 'tokens', filters: [{ property: 'model', operator: 'In', value: ['a', 'b'] }] };
    const answers = await Promise.all(Array.from({ length: 5 }, () => h.request('POST', '/admin/v1/meters', { body: { name: `dup ${newId().slice(-6)}`, ...definition } })));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409]);
    const created = (await answers.find((r) => r.status === 201)!.json()) as MeterBody;
    for (const refused of answers.filter((r) => r.status === 409)) {
      expect(await refused.json()).toMatchObject({ error: { code: 'meter_exists', details: { id: created.id } } });
    }
    // Another property, aggregation, filter or window is another meter.
    await defineMeter({ ...definition, property: 'bytes' });
    await defineMeter({ ...definition, aggregation: 'Max' });
    await defineMeter({ ...definition, filters: [{ property: 'model', operator: 'In', value: ['a'] }] });
    await defineMeter({ ...definition, window_type: 'Tumbling', window_size: 'P1D' });
    expect(await h.deps.db.meter.count({ where: { eventType } })).toBe(5);
  });

  it('answers 404 for an unknown meter and 403 for customer tokens', async () => {
    expect((await h.request('GET', `/admin/v1/meters/${newId()}`)).status).toBe(404);
    const customerId = await makeCustomer(h.deps.db);
    const res = await h.request('POST', '/admin/v1/meters', { as: { customer: customerId }, body: { name: 'x', event_type: 'x', aggregation: 'Count' } });
    expect(res.status).toBe(403);
  });

  it.each([
    ['Count with a property', { aggregation: 'Count', property: 'tokens' }, 'property'],
    ['Sum without a property', { aggregation: 'Sum' }, 'property'],
    ['an unknown aggregation', { aggregation: 'Average', property: 'tokens' }, 'aggregation'],
    ['a Sliding window without size', { aggregation: 'Count', window_type: 'Sliding' }, 'window_size'],
    ['a BillingPeriod window with a size', { aggregation: 'Count', window_size: 'P1D' }, 'window_size'],
    ['a window size that is not a duration', { aggregation: 'Count', window_type: 'Tumbling', window_size: '1 day' }, 'window_size'],
    ['a window under a minute', { aggregation: 'Count', window_type: 'Tumbling', window_size: 'PT30S' }, 'window_size'],
    ['a month-based window size', { aggregation: 'Count', window_type: 'Tumbling', window_size: 'P1M' }, 'window_size'],
    ['an unknown filter operator', { aggregation: 'Count', filters: [{ property: 'a', operator: 'Contains', value: 'x' }] }, 'filters.0.operator'],
    ['In with a single value', { aggregation: 'Count', filters: [{ property: 'a', operator: 'In', value: 'x' }] }, 'filters.0.value'],
    ['Equals with a list', { aggregation: 'Count', filters: [{ property: 'a', operator: 'Equals', value: ['x'] }] }, 'filters.0.value'],
    ['GreaterThan with a word', { aggregation: 'Count', filters: [{ property: 'a', operator: 'GreaterThan', value: 'big' }] }, 'filters.0.value'],
    ['an unknown field', { aggregation: 'Count', window: 'P1D' }, 'window'],
  ])('refuses %s (400, nothing stored)', async (_name, input, path) => {
    const before = await h.deps.db.meter.count();
    const res = await h.request('POST', '/admin/v1/meters', { body: { name: 'bad', event_type: 'bad_meter', ...input } });
    const error = (await body<{ error: { code: string; details: { issues: { path: string }[] } } }>(res, 400)).error;
    expect(error.code).toBe('validation_failed');
    expect(error.details.issues.map((i) => i.path)).toContain(path);
    expect(await h.deps.db.meter.count()).toBe(before);
  });
});

describe('aggregations', () => {
  it('are spelled as SPEC spells them (LATEST, WEIGHTED_SUM); the earlier Latest and WeightedSum are accepted and mean the same', async () => {
    const eventType = uniqueType('levels');
    const latest = await defineMeter({ event_type: eventType, aggregation: 'Latest', property: 'level' });
    const weighted = await defineMeter({ event_type: eventType, aggregation: 'WeightedSum', property: 'level' });
    expect([latest.aggregation, weighted.aggregation]).toEqual(['LATEST', 'WEIGHTED_SUM']);
    // The same definition under the other spelling is the same meter.
    const again = await h.request('POST', '/admin/v1/meters', { body: { name: 'again', event_type: eventType, aggregation: 'LATEST', property: 'level' } });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { details: { id: string } } }).error.details.id).toBe(latest.id);
    const wrong = await h.request('POST', '/admin/v1/meters', { body: { name: 'x', event_type: eventType, aggregation: 'latest', property: 'level' } });
    expect(wrong.status).toBe(400);
  });

  it('Sum, Count, Max, UniqueCount and Latest over the billing period, exactly', async () => {
    const eventType = uniqueType('tokens');
    const { customerId, subscriptionId } = await subscriptionFor(eventType);
    const sum = await defineMeter({ event_type: eventType, aggregation: 'Sum', property: 'tokens' });
    const count = await defineMeter({ event_type: eventType, aggregation: 'Count' });
    const max = await defineMeter({ event_type: eventType, aggregation: 'Max', property: 'tokens' });
    const unique = await defineMeter({ event_type: eventType, aggregation: 'UniqueCount', property: 'user' });
    const latest = await defineMeter({ event_type: eventType, aggregation: 'LATEST', property: 'tokens' });
    await send(customerId, eventType, [
      { at: '2026-08-31T23:59:59Z', properties: { tokens: 1000, user: 'before' } },
      { at: '2026-09-01T00:00:00Z', properties: { tokens: 0.1, user: 'ann' } },
      { at: '2026-09-03T10:15:00Z', properties: { tokens: '0.2', user: 'bob' } },
      { at: '2026-09-10T06:00:00.5Z', properties: { tokens: '-3', user: 'ann' } },
      { at: '2026-09-20T12:34:56Z', properties: { tokens: '12.75', user: 'cy' } },
      { at: '2026-09-25T08:00:00Z', properties: { user: 'dee' } },
      { at: '2026-09-28T23:30:00Z', properties: { user: 'bob' } },
      { at: '2026-09-30T23:59:59.999Z', properties: { tokens: 5, user: 1 } },
      { at: '2026-10-01T00:00:00Z', properties: { tokens: 7000, user: 'after' } },
    ]);
    expect(await values(subscriptionId)).toEqual({
      [sum.id]: '15.05',
      [count.id]: '7',
      [max.id]: '12.75',
      [unique.id]: '5',
      [latest.id]: '5',
    });
  });

  it('refuses an event whose numeric meter property is no decimal number (400 naming it), from the first event after the meter is defined', async () => {
    const eventType = uniqueType('strict');
    const { customerId, subscriptionId } = await subscriptionFor(eventType);
    const event = (properties: Record<string, unknown>) => ({ id: `evt_${newId()}`, event_type: eventType, customer_id: customerId, timestamp: '2026-09-02T00:00:00Z', properties });
    // Before any meter reads `tokens`, any value is stored (no meter counts it).
    await body(await h.request('POST', '/v1/events', { body: event({ tokens: 'NaN' }) }), 200);
    const sum = await defineMeter({ event_type: eventType, aggregation: 'Sum', property: 'properties.tokens' });
    await defineMeter({ event_type: eventType, aggregation: 'UniqueCount', property: 'user' });
    for (const bad of ['NaN', '0x10', ' 5', '5 ', '1e3', '', '+1', true, null, [], { n: 1 }]) {
      const res = await h.request('POST', '/v1/events', { body: event({ tokens: bad, user: 'ann' }) });
      const answer = await body<{ error: { code: string; details: { issues: { path: string; message: string }[] } } }>(res, 400);
      expect(answer.error.code, JSON.stringify(bad)).toBe('validation_failed');
      expect(answer.error.details.issues, JSON.stringify(bad)).toEqual([{ path: 'properties.tokens', message: expect.stringContaining(`Sum meter "${sum.name}"`) }]);
    }
    // A batch is refused whole, naming each event's property; nothing is stored.
    const batch = [event({ tokens: 3 }), event({ tokens: 'three' }), event({ tokens: '4.5' }), event({ tokens: false })];
    const refused = await body<{ error: { details: { issues: { path: string }[] } } }>(await h.request('POST', '/v1/events/batch', { body: { events: batch } }), 400);
    expect(refused.error.details.issues.map((i) => i.path)).toEqual(['events.1.properties.tokens', 'events.3.properties.tokens']);
    expect(await h.deps.db.usageEvent.count({ where: { id: { in: batch.map((e) => e.id) } } })).toBe(0);
    // Numbers, decimal strings, an absent property and a non-numeric value of a property only UniqueCount reads are fine.
    await send(customerId, eventType, [
      { at: '2026-09-03T00:00:00Z', properties: { tokens: 3, user: 'ann' } },
      { at: '2026-09-04T00:00:00Z', properties: { tokens: '-0.5', user: true } },
      { at: '2026-09-05T00:00:00Z', properties: { user: 'bob' } },
    ]);
    expect((await values(subscriptionId))[sum.id]).toBe('2.5');
  });

  it('sums decimals exactly: 0.1 + 0.2 is 0.3, and 18-digit values keep every digit', async () => {
    const eventType = uniqueType('decimal');
    const { customerId, subscriptionId } = await subscriptionFor(eventType);
    const meter = await defineMeter({ event_type: eventType, aggregation: 'Sum', property: 'amount' });
    await send(customerId, eventType, [
      { at: '2026-09-02T00:00:00Z', properties: { amount: 0.1 } },
      { at: '2026-09-02T00:00:01Z', properties: { amount: 0.2 } },
    ]);
    expect((await values(subscriptionId))[meter.id]).toBe('0.3');
    await send(customerId, eventType, [
      { at: '2026-09-03T00:00:00Z', properties: { amount: '123456789012345678.123456789' } },
      { at: '2026-09-03T00:00:01Z', properties: { amount: '0.000000001' } },
      { at: '2026-09-03T00:00:02Z', properties: { amount: '-0.4' } },
    ]);
    expect((await values(subscriptionId))[meter.id]).toBe('123456789012345678.02345679');
  });

  it('UniqueCount compares short values exactly and tells long values apart past a shared prefix', async () => {
    const eventType = uniqueType('sessions');
    const { customerId, subscriptionId } = await subscriptionFor(eventType);
    const meter = await defineMeter({ event_type: eventType, aggregation: 'UniqueCount', property: 'session' });
    const prefix = 's'.repeat(70);
    await send(customerId, eventType, [
      { at: '2026-09-06T01:00:00Z', properties: { session: `${prefix}-a` } },
      { at: '2026-09-07T01:00:00Z', properties: { session: `${prefix}-b` } },
      { at: '2026-09-08T01:00:00Z', properties: { session: `${prefix}-a` } },
      { at: '2026-09-08T02:00:00Z', properties: { session: 'x' } },
      { at: '2026-09-08T03:00:00Z', properties: { session: 'X' } },
      { at: '2026-09-08T04:00:00Z', properties: { session: null } },
      { at: '2026-09-08T05:00:00Z', properties: {} },
    ]);
    expect((await values(subscriptionId))[meter.id]).toBe('4');
  });

  it('Latest breaks timestamp ties by the greater event id, whatever the arrival order', async () => {
    const eventType = uniqueType('gauge');
    const { customerId, subscriptionId } = await subscriptionFor(eventType);
    const meter = await defineMeter({ event_type: eventType, aggregation: 'LATEST', property: 'level' });
    await send(customerId, eventType, [{ at: '2026-09-05T10:00:00Z', id: `z-${newId()}`, properties: { level: '7' } }]);
    await send(customerId, eventType, [{ at: '2026-09-05T10:00:00Z', id: `a-${newId()}`, properties: { level: '9' } }]);
    expect((await values(subscriptionId))[meter.id]).toBe('7');
  });

  it('WeightedSum is the time-weighted average of a level carried across windows', async () => {
    const eventType = uniqueType('storage');
    const { customerId, subscriptionId } = await subscriptionFor(eventType);
    const meter = await defineMeter({ event_type: eventType, aggregation: 'WEIGHTED_SUM', property: 'gb' });
    await send(customerId, eventType, [
      { at: '2026-08-20T00:00:00Z', properties: { gb: 2 } },
      { at: '2026-09-01T00:00:00Z', properties: { gb: '10' } },
      { at: '2026-09-16T00:00:00Z', properties: { gb: 5 } },
    ]);
    // 12 GB for 15 days, then 17 GB for 15 days.
    expect((await values(subscriptionId))[meter.id]).toBe('14.5');
    await send(customerId, eventType, [{ at: '2026-09-21T00:00:00Z', properties: { gb: '-17' } }]);
    // ... and 0 GB for the last 10 days: (12·15 + 17·5 + 0·10) / 30 = 8.8333…
    expect((await values(subscriptionId))[meter.id]).toBe('8.833333333333');
  });

  it('measures an event type without meters by the default: sum of quantity, else 1 per event', async () => {
    const eventType = uniqueType('calls');
    const { customerId, subscriptionId } = await subscriptionFor(eventType);
    await send(customerId, eventType, [
      { at: '2026-09-04T00:00:00Z', properties: { quantity: '2.5' } },
      { at: '2026-09-04T00:00:01Z' },
      { at: '2026-09-04T00:00:02Z', properties: { quantity: 3 } },
    ]);
    const summary = await body<SummaryBody>(await h.request('GET', `/v1/subscriptions/${subscriptionId}/usage`), 200);
    expect(summary.meters).toEqual([expect.objectContaining({ meter_id: `default:${eventType}`, aggregation: 'Sum', value: '6.5', unit: 'units', event_count: 3 })]);
  });

  it('gives every meter of an event type its own entry', async () => {
    const eventType = uniqueType('multi');
    const { customerId, subscriptionId } = await subscriptionFor(eventType);
    const a = await defineMeter({ event_type: eventType, aggregation: 'Count' });
    const b = await defineMeter({ event_type: eventType, aggregation: 'Sum', property: 'n' });
    await send(customerId, eventType, [{ at: '2026-09-04T00:00:00Z', properties: { n: 4 } }, { at: '2026-09-05T00:00:00Z', properties: { n: 6 } }]);
    expect(await values(subscriptionId)).toEqual({ [a.id]: '2', [b.id]: '10' });
  });
});

describe('filters', () => {
  it('applies each of the 7 operators, and several filters together', async () => {
    const eventType = uniqueType('filtered');
    const { customerId, subscriptionId } = await subscriptionFor(eventType);
    const count = (filters: unknown[]) => defineMeter({ event_type: eventType, aggregation: 'Count', filters });
    const meters = {
      equals: await count([{ property: 'region', operator: 'Equals', value: 'eu' }]),
      notEquals: await count([{ property: 'region', operator: 'NotEquals', value: 'eu' }]),
      greaterThan: await count([{ property: 'size', operator: 'GreaterThan', value: 7 }]),
      greaterOrEqual: await count([{ property: 'size', operator: 'GreaterThanOrEqual', value: 7 }]),
      lessThan: await count([{ property: 'size', operator: 'LessThan', value: '10.5' }]),
      lessOrEqual: await count([{ property: 'size', operator: 'LessThanOrEqual', value: '10.5' }]),
      in: await count([{ property: 'region', operator: 'In', value: ['us', 'apac'] }]),
      boolean: await count([{ property: 'flag', operator: 'Equals', value: true }]),
      numberEquals: await count([{ property: 'size', operator: 'Equals', value: 5 }]),
      textEquals: await count([{ property: 'size', operator: 'Equals', value: '10.5' }]),
      both: await count([
        { property: 'region', operator: 'Equals', value: 'eu' },
        { property: 'size', operator: 'GreaterThan', value: 10 },
      ]),
    };
    const sumEu = await defineMeter({ event_type: eventType, aggregation: 'Sum', property: 'size', filters: [{ property: 'properties.region', operator: 'Equals', value: 'eu' }] });
    await send(customerId, eventType, [
      { at: '2026-09-10T01:00:00Z', properties: { region: 'eu', size: 5, flag: true } },
      { at: '2026-09-10T02:00:00Z', properties: { region: 'us', size: '10.5', flag: false } },
      { at: '2026-09-10T03:00:00Z', properties: { region: 'eu', size: 20 } },
      { at: '2026-09-10T04:00:00Z', properties: { size: 7 } },
      // No `size`: a Sum meter reads it, so a value that is no number ('big') would be refused, even for an event its filter leaves out.
      { at: '2026-09-10T05:00:00Z', properties: { region: 'apac', flag: 'true' } },
    ]);
    const got = await values(subscriptionId);
    expect(Object.fromEntries(Object.entries(meters).map(([name, m]) => [name, got[m.id]]))).toEqual({
      equals: '2',
      notEquals: '3',
      greaterThan: '2',
      greaterOrEqual: '3',
      lessThan: '2',
      lessOrEqual: '3',
      in: '2',
      boolean: '1',
      numberEquals: '1',
      textEquals: '1',
      both: '1',
    });
    expect(got[sumEu.id]).toBe('25');
  });
});

describe('windows', () => {
  it('BillingPeriod, Sliding and Tumbling meters each aggregate their own window', async () => {
    const eventType = uniqueType('windowed');
    const { customerId, subscriptionId } = await subscriptionFor(eventType);
    const period = await defineMeter({ event_type: eventType, aggregation: 'Count' });
    const sliding = await defineMeter({ event_type: eventType, aggregation: 'Count', window_type: 'Sliding', window_size: 'PT1H' });
    const tumbling = await defineMeter({ event_type: eventType, aggregation: 'Sum', property: 'n', window_type: 'Tumbling', window_size: 'P1D' });
    await send(customerId, eventType, [
      { at: '2026-09-09T23:00:00Z', properties: { n: 1 } },
      { at: '2026-09-10T00:00:00Z', properties: { n: 10 } },
      { at: '2026-09-10T14:00:00Z', properties: { n: 100 } },
      { at: '2026-09-10T14:29:59Z', properties: { n: 1000 } },
      { at: '2026-09-10T15:00:00Z', properties: { n: 10000 } },
      { at: '2026-09-10T23:59:59.999Z', properties: { n: 100000 } },
      { at: '2026-09-11T00:00:00Z', properties: { n: 1000000 } },
    ]);
    const at = '2026-09-10T15:00:00Z';
    expect(await values(subscriptionId, `?at=${at}`)).toEqual({ [period.id]: '7', [sliding.id]: '2', [tumbling.id]: '111110' });

    const summary = await body<SummaryBody>(await h.request('GET', `/v1/subscriptions/${subscriptionId}/usage?at=${at}`), 200);
    const windows = Object.fromEntries(summary.meters.map((m) => [m.meter_id, [m.window_type, m.window_start, m.window_end]]));
    expect(windows).toEqual({
      [period.id]: ['BillingPeriod', PERIOD_START, PERIOD_END],
      [sliding.id]: ['Sliding', '2026-09-10T14:00:00.000Z', '2026-09-10T15:00:00.000Z'],
      [tumbling.id]: ['Tumbling', '2026-09-10T00:00:00.000Z', '2026-09-11T00:00:00.000Z'],
    });
    // A sliding window inside one hour is read from raw events alone.
    expect((await values(subscriptionId, '?at=2026-09-10T14:30:00Z'))[sliding.id]).toBe('2');
    // The next tumbling window holds only the event at its start.
    expect((await values(subscriptionId, '?at=2026-09-11T09:00:00Z'))[tumbling.id]).toBe('1000000');
  });
});
