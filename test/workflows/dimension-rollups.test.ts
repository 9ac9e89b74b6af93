/**
 * Per-dimension-value rollups (usage_dimension_rollups): a grouped meter's quantities per value read
 * from them (plus edge and tail events) equal the same read over the raw events, and a plain model
 * of the events, for Sum (filtered), Count, Max and UniqueCount, whatever was rolled up when: events
 * arriving after a pass (late ones in buckets already rolled), any range edges, the 1,000-value bound
 * and its `other` bucket, and a dimensional SKU created after its events arrived (backfill). The
 * period close's quantity read issues the same statements whatever the number of values: one for all
 * grouped meters, never one per value.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalDecimal, MAX_DIMENSION_VALUES, type SkuPrice } from '../../src/core/index.js';
import { prismaReader, type DbClient } from '../../src/db/client.js';
import { dimensionKey, meterSpec, type AggregatorSpec, type GroupedMeterSpec } from '../../src/db/metering/aggregators.js';
import { readCursors, readUsageSubject } from '../../src/db/metering/aggregates.js';
import { readGroupedQuantities, type GroupedValue } from '../../src/db/metering/grouped.js';
import { newId } from '../../src/ids.js';
import { resolveSkuMeters, runRollupPass, tracedQuantitiesForPeriod } from '../../src/services/metering/usage.js';
import { makeCustomer, makeTestClock } from '../support/fixtures.js';
import { expectJson, useHarness } from '../support/harness.js';

const h = useHarness();
const RUN = randomUUID().slice(0, 8);
const PERIOD = { from: new Date('2026-03-01T00:00:00.000Z'), to: new Date('2026-04-01T00:00:00.000Z') };
const CLOCK = '2026-03-25T00:00:00.000Z';
let seq = 0;

interface Sent {
  at: string;
  properties: Record<string, unknown>;
}

type MeterBody = { name: string; aggregation: string; property?: string; filters?: unknown[] };

async function makeMeters(eventType: string, bodies: MeterBody[]): Promise<(AggregatorSpec & { kind: 'meter' })[]> {
  const specs: (AggregatorSpec & { kind: 'meter' })[] = [];
  for (const body of bodies) {
    const meter = await expectJson<{ id: string }>(await h.request('POST', '/admin/v1/meters', { body: { event_type: eventType, ...body, name: `${body.name} ${RUN} ${(seq += 1)}` } }), 201);
    const row = await h.deps.db.meter.findUniqueOrThrow({ where: { id: meter.id } });
    specs.push(meterSpec(row) as AggregatorSpec & { kind: 'meter' });
  }
  return specs;
}

/** A plan pricing each group through a dimensional SKU (what the rollup pass follows). */
async function priceGroups(groups: readonly GroupedMeterSpec[]): Promise<string> {
  const plan = await expectJson<{ id: string }>(
    await h.request('POST', '/admin/v1/catalog/plans', { body: { name: `Dimensions ${RUN} ${(seq += 1)}`, description: '', billing_cadence: 'Monthly', trial_days: 0 } }),
    201,
  );
  for (const group of groups) {
    await expectJson(
      await h.request('POST', '/admin/v1/catalog/skus', {
        body: { plan_id: plan.id, name: `by ${group.groupBy.join('+')}`, pricing_model: 'PerUnit', unit_amount_nanos: '1000', currency: 'USD', meter_id: group.spec.meterId, group_by: group.groupBy },
      }),
      201,
    );
  }
  return plan.id;
}

/** A customer on a test clock in March with a subscription (on `planId`) whose period is March. */
async function subscriber(planId: string, eventType: string) {
  const customerId = await makeCustomer(h.deps.db, { testClockId: await makeTestClock(h.deps.db, CLOCK) });
  const subscriptionId = newId();
  await h.deps.db.subscription.create({
    data: { id: subscriptionId, customerId, planId, currency: 'USD', status: 'Active', periodStart: PERIOD.from, periodEnd: PERIOD.to, billingAnchor: PERIOD.from },
  });
  const send = async (events: readonly Sent[]) => {
    for (let i = 0; i < events.length; i += 1000) {
      const accepted = await expectJson<{ accepted_count: number }>(
        await h.request('POST', '/v1/events/batch', {
          body: {
            events: events
              .slice(i, i + 1000)
              .map((e) => ({ id: `dr-${RUN}-${(seq += 1)}`, event_type: eventType, customer_id: customerId, subscription_id: subscriptionId, timestamp: e.at, properties: e.properties })),
          },
        }),
      );
      expect(accepted.accepted_count).toBe(Math.min(1000, events.length - i));
    }
  };
  return { customerId, subscriptionId, scope: { customerId, subscriptionId }, send };
}

const read = () => prismaReader(h.deps.db);
const sorted = (rows: GroupedValue[]) => rows.map((r) => ({ ...r, quantity: canonicalDecimal(r.quantity) })).sort((a, b) => a.spec - b.spec || JSON.stringify(a.values).localeCompare(JSON.stringify(b.values)));

/** The grouped read from the rollups (the cursors as hints) and from the raw events alone (no hints). */
async function bothWays(groups: readonly GroupedMeterSpec[], scope: { customerId: string; subscriptionId: string }, range: { from: Date; to: Date }) {
  const hints = await readCursors(read(), groups.map(dimensionKey));
  const [rolled, raw] = await Promise.all([readGroupedQuantities(read(), groups, scope, range, hints), readGroupedQuantities(read(), groups, scope, range, new Map())]);
  return { rolled: sorted(rolled), raw: sorted(raw), hints };
}

async function dimensionRows(group: GroupedMeterSpec, customerId: string): Promise<number> {
  const { rows } = await h.deps.pool.query<{ n: string }>(`SELECT count(*)::text AS n FROM usage_dimension_rollups WHERE aggregator = $1 AND customer_id = $2`, [dimensionKey(group), customerId]);
  return Number(rows[0]!.n);
}

/** Hundredths as exact decimal text (the model's arithmetic stays in bigint). */
const cents = (n: bigint) => canonicalDecimal(`${n < 0n ? '-' : ''}${(n < 0n ? -n : n) / 100n}.${String((n < 0n ? -n : n) % 100n).padStart(2, '0')}`);

describe('dimension rollups', () => {
  it('Sum (filtered), Count, Max and UniqueCount per value read from rollups equal the raw read and the model, across passes, late arrivals and any range (fast-check)', async () => {
    const eventType = `dim.rollups-${RUN}-${(seq += 1)}`;
    const [sum, count, max, unique] = await makeMeters(eventType, [
      { name: 'api units', aggregation: 'Sum', property: 'units', filters: [{ property: 'kind', operator: 'Equals', value: 'api' }] },
      { name: 'calls', aggregation: 'Count' },
      { name: 'largest', aggregation: 'Max', property: 'units' },
      { name: 'users', aggregation: 'UniqueCount', property: 'user' },
    ]);
    const groups: GroupedMeterSpec[] = [
      { spec: sum!, groupBy: ['region'] },
      { spec: count!, groupBy: ['region', 'model'] },
      { spec: max!, groupBy: ['region'] },
      { spec: unique!, groupBy: ['region'] },
    ];
    const planId = await priceGroups(groups);
    const start = PERIOD.from.getTime();
    const until = new Date(CLOCK).getTime();
    const event = fc.record({
      at: fc.integer({ min: start, max: until - 1 }),
      region: fc.constantFrom('eu', 'us', 'apac', undefined),
      model: fc.constantFrom('small', 'large'),
      kind: fc.constantFrom('api', 'web'),
      units: fc.option(fc.bigInt({ min: -500n, max: 100_000n }), { nil: undefined }),
      user: fc.constantFrom('u1', 'u2', 'u3'),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { minLength: 1, maxLength: 40 }),
        fc.array(event, { maxLength: 20 }),
        fc.integer({ min: start, max: until }),
        fc.integer({ min: start, max: until }),
        async (first, second, a, b) => {
          const { customerId, scope, send } = await subscriber(planId, eventType);
          const sent = (list: typeof first): Sent[] =>
            list.map((e) => ({
              at: new Date(e.at).toISOString(),
              properties: { ...(e.region === undefined ? {} : { region: e.region }), model: e.model, kind: e.kind, user: e.user, ...(e.units === undefined ? {} : { units: cents(e.units) }) },
            }));
          await send(sent(first));
          await runRollupPass(h.deps);
          expect(await dimensionRows(groups[1]!, customerId)).toBeGreaterThan(0);
          // Arriving after the pass: in the tail until the next one, then folded into buckets already rolled.
          await send(sent(second));
          const all = [...first, ...second];
          const ranges = [PERIOD, { from: new Date(Math.min(a, b)), to: new Date(Math.max(a, b) + 1) }];
          for (const range of ranges) {
            const inRange = all.filter((e) => e.at >= range.from.getTime() && e.at < range.to.getTime());
            const model = new Map<string, bigint>();
            const add = (spec: number, values: (string | null)[], fold: (prior: bigint | undefined) => bigint) => {
              const key = JSON.stringify([spec, values]);
              model.set(key, fold(model.get(key)));
            };
            for (const e of inRange) {
              const region = e.region ?? null;
              if (e.kind === 'api') add(0, [region], (prior) => (prior ?? 0n) + (e.units ?? 0n));
              add(1, [region, e.model], (prior) => (prior ?? 0n) + 100n);
              add(2, [region], (prior) => (e.units === undefined ? (prior ?? 0n) : prior === undefined || e.units > prior ? e.units : prior));
            }
            for (const region of new Set(inRange.map((e) => e.region ?? null))) {
              add(3, [region], () => 100n * BigInt(new Set(inRange.filter((e) => (e.region ?? null) === region).map((e) => e.user)).size));
            }
            const expected = [...model].map(([key, q]) => {
              const [spec, values] = JSON.parse(key) as [number, (string | null)[]];
              return { spec, values, quantity: cents(q) };
            });
            for (const pass of [false, true]) {
              if (pass) await runRollupPass(h.deps);
              const { rolled, raw, hints } = await bothWays(groups, scope, range);
              expect(hints.get(dimensionKey(groups[1]!))).toBeGreaterThan(0n);
              expect(rolled).toEqual(raw);
              expect(rolled).toEqual(sorted(expected));
            }
          }
        },
      ),
      { numRuns: 20 },
    );
  });

  it('keeps the first 1,000 values by first arrival and sums the rest into `other`, from rollups as from raw events', async () => {
    const eventType = `dim.bound-${RUN}-${(seq += 1)}`;
    const [sum] = await makeMeters(eventType, [{ name: 'units', aggregation: 'Sum', property: 'units' }]);
    const group: GroupedMeterSpec = { spec: sum!, groupBy: ['tenant'] };
    const { customerId, scope, send } = await subscriber(await priceGroups([group]), eventType);
    const extra = 3;
    // Later values carry earlier timestamps: the ranking follows arrival, not time.
    await send(Array.from({ length: MAX_DIMENSION_VALUES + extra }, (_, i) => ({ at: new Date(Date.parse('2026-03-20T00:00:00Z') - i * 60_000).toISOString(), properties: { tenant: `t${i}`, units: 1 } })));
    await runRollupPass(h.deps);
    // A known value again (keeps its own row) and one more new value (goes to `other`), both after the pass.
    await send([
      { at: '2026-03-02T00:00:00Z', properties: { tenant: 't0', units: 5 } },
      { at: '2026-03-02T00:00:00Z', properties: { tenant: 'late-new', units: 7 } },
    ]);
    for (const pass of [false, true]) {
      if (pass) await runRollupPass(h.deps);
      const { rolled, raw } = await bothWays([group], scope, PERIOD);
      expect(rolled).toEqual(raw);
      expect(rolled).toHaveLength(MAX_DIMENSION_VALUES + 1);
      expect(rolled.find((r) => r.values === null)!.quantity).toBe(String(extra + 7));
      expect(rolled.find((r) => r.values?.[0] === 't0')!.quantity).toBe('6');
      expect(rolled.some((r) => r.values?.[0] === `t${MAX_DIMENSION_VALUES}`)).toBe(false);
    }
    expect(await dimensionRows(group, customerId)).toBeGreaterThan(MAX_DIMENSION_VALUES);
    // The usage summary reads the series through its cursor (a hint of the subscription's read) and shows the same values.
    expect((await readUsageSubject(read(), scope.subscriptionId))!.cursors.get(dimensionKey(group))).toBeGreaterThan(0n);
    const summary = await expectJson<{ meters: { meter_id: string; dimensions: { values: { dimensions: Record<string, string | null>; billable_value: string }[] }[] }[] }>(
      await h.request('GET', `/v1/subscriptions/${scope.subscriptionId}/usage?at=2026-03-10T00:00:00Z`),
    );
    const values = summary.meters.find((m) => m.meter_id === sum!.meterId)!.dimensions[0]!.values;
    expect(values).toHaveLength(MAX_DIMENSION_VALUES + 1);
    expect(values.find((v) => Object.keys(v.dimensions).length === 0)!.billable_value).toBe(String(extra + 7));
    expect(values.find((v) => v.dimensions.tenant === 't0')!.billable_value).toBe('6');
  });

  it('backfills a dimensional SKU created after its events: raw until its series is rolled, the same answer after', async () => {
    const eventType = `dim.backfill-${RUN}-${(seq += 1)}`;
    const [count] = await makeMeters(eventType, [{ name: 'calls', aggregation: 'Count' }]);
    const group: GroupedMeterSpec = { spec: count!, groupBy: ['region'] };
    const planId = await expectJson<{ id: string }>(
      await h.request('POST', '/admin/v1/catalog/plans', { body: { name: `Backfill ${RUN}`, description: '', billing_cadence: 'Monthly', trial_days: 0 } }),
      201,
    );
    const { customerId, scope, send } = await subscriber(planId.id, eventType);
    await send(Array.from({ length: 30 }, (_, i) => ({ at: new Date(Date.parse('2026-03-03T00:00:00Z') + i * 3_600_000).toISOString(), properties: { region: ['eu', 'us', 'apac'][i % 3] } })));
    await runRollupPass(h.deps);
    expect(await readCursors(read(), [dimensionKey(group)])).toEqual(new Map());
    await priceGroups([group]);
    const before = await bothWays([group], scope, PERIOD);
    expect(before.rolled).toEqual(before.raw);
    await runRollupPass(h.deps);
    const after = await bothWays([group], scope, PERIOD);
    expect(after.hints.get(dimensionKey(group))).toBeGreaterThan(0n);
    expect(await dimensionRows(group, customerId)).toBeGreaterThan(0);
    expect(after.rolled).toEqual(before.raw);
    expect(after.rolled.map((r) => [r.values, r.quantity])).toEqual([
      [['apac'], '10'],
      [['eu'], '10'],
      [['us'], '10'],
    ]);
  });

  it('the period close reads every grouped meter in one statement, whatever the number of values', async () => {
    const eventType = `dim.close-${RUN}-${(seq += 1)}`;
    const [sum, count] = await makeMeters(eventType, [
      { name: 'units', aggregation: 'Sum', property: 'units' },
      { name: 'calls', aggregation: 'Count' },
    ]);
    const groups: GroupedMeterSpec[] = [
      { spec: sum!, groupBy: ['region'] },
      { spec: count!, groupBy: ['model'] },
    ];
    const planId = await priceGroups(groups);
    const sku = (group: GroupedMeterSpec): SkuPrice => ({
      sku_id: newId(),
      name: group.spec.meterId,
      pricing_model: 'PerUnit',
      unit_amount_nanos: 1n,
      currency: 'USD',
      meter_id: group.spec.meterId,
      dimensional: { group_by: group.groupBy, prices: [], tier_scope: 'per_value' },
    });
    const resolved = await resolveSkuMeters(h.deps.db, groups.map(sku));
    expect(resolved.groups).toHaveLength(2);

    /** The statements one close's quantity read issues for a subscription with `values` regions and models. */
    const statementsFor = async (values: number) => {
      const { customerId, subscriptionId, send } = await subscriber(planId, eventType);
      await send(Array.from({ length: values * 2 }, (_, i) => ({ at: new Date(Date.parse('2026-03-05T00:00:00Z') + i * 60_000).toISOString(), properties: { region: `r${i % values}`, model: `m${i % values}`, units: 2 } })));
      await runRollupPass(h.deps);
      const statements: string[] = [];
      const counting = new Proxy(h.deps.db, {
        get(target, property, receiver) {
          const value = Reflect.get(target, property, receiver) as unknown;
          if (property !== '$queryRaw' && property !== '$queryRawUnsafe' && property !== '$executeRaw') return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
          return (sql: { sql?: string; strings?: string[] }, ...rest: unknown[]) => {
            statements.push(sql.sql ?? String(sql));
            return (value as (...args: unknown[]) => unknown).call(target, sql, ...rest);
          };
        },
      }) as DbClient;
      const { quantities } = await tracedQuantitiesForPeriod(counting, { subscriptionId, customerId, meters: resolved.meters, groups: resolved.groups, from: PERIOD.from, to: PERIOD.to });
      return { statements, quantities };
    };
    const few = await statementsFor(2);
    const many = await statementsFor(200);
    expect(Object.keys(many.quantities).length - Object.keys(few.quantities).length).toBe(2 * (200 - 2));
    expect(many.statements.length).toBe(few.statements.length);
    const grouped = many.statements.filter((text) => text.includes('usage_dimension_rollups'));
    expect(grouped).toHaveLength(1);
    expect(many.statements.filter((text) => text.includes('usage_events')).length).toBe(few.statements.filter((text) => text.includes('usage_events')).length);
  });
});
