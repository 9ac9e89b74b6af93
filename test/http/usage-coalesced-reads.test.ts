/**
 * The coalesced meter reads of a price simulation's batch (db/metering/aggregates.ts
 * coalescedAggregates): many windows read together give exactly the partials readAggregates gives
 * each window on its own, for every aggregation, with events at the windows' raw edges, rolled up,
 * after the rollup cursor (the tail), late, of other subscriptions and without a subscription.
 * And the usage summary's reads as prepared statements (preparedReader), run many times on each
 * connection, give the same partials as statements sent afresh.
 */
import fc from 'fast-check';
import pg from 'pg';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { poolReader, PREPARED_READS_PER_CONNECTION, preparedReader } from '../../src/db/client.js';
import { coalescedAggregates, readAggregates, readCursors, type Range, type Scope } from '../../src/db/metering/aggregates.js';
import { cursorKey, meterSpec, type AggregatorSpec } from '../../src/db/metering/aggregators.js';
import { newId } from '../../src/ids.js';
import { runRollupPass } from '../../src/services/metering/usage.js';
import { makeCustomer } from '../support/fixtures.js';
import { useHarness } from '../support/harness.js';

const h = useHarness();

const MONTH_START = Date.UTC(2026, 5, 1);
const MONTH_MS = 30 * 86_400_000;
const eventType = `batch_reads_${newId().slice(-12)}`;
/** Every aggregation; and those summed from rollup rows, which are read many windows per statement. */
let specs: AggregatorSpec[];
let summed: AggregatorSpec[];
let scopes: Scope[];

/** Events straight into the store: `seq` orders them after everything rolled up so far. */
async function insertEvents(events: { customerId: string; subscriptionId: string | null; at: number; late: boolean; properties: Record<string, unknown> }[]): Promise<void> {
  await h.deps.pool.query(
    `INSERT INTO usage_events (id, event_type, customer_id, subscription_id, occurred_at, late, properties)
     SELECT * FROM unnest($1::text[], $2::text[], $3::uuid[], $4::uuid[], $5::timestamptz[], $6::boolean[], $7::jsonb[])`,
    [
      events.map(() => `evt_${newId()}`),
      events.map(() => eventType),
      events.map((e) => e.customerId),
      events.map((e) => e.subscriptionId),
      events.map((e) => new Date(e.at).toISOString()),
      events.map((e) => e.late),
      events.map((e) => JSON.stringify(e.properties)),
    ],
  );
}

/** Events spread over the month (some on the minute, most not), of either subscription or none. */
function eventsOf(customerId: string, subscriptions: string[], count: number, seed: number) {
  return Array.from({ length: count }, (_, i) => {
    const n = seed * 7919 + i * 104_729;
    return {
      customerId,
      subscriptionId: i % 3 === 0 ? null : subscriptions[i % subscriptions.length]!,
      at: MONTH_START + ((n * 61_379) % MONTH_MS) - (i % 4 === 0 ? (n % 60_000) : 0),
      late: i % 5 === 0,
      properties: { tokens: String((n % 997) - 100) + (i % 2 === 0 ? '.25' : ''), model: ['a', 'b', 'c'][i % 3], quantity: (n % 13) + 1 },
    };
  });
}

beforeAll(async () => {
  const meters = [];
  for (const [aggregation, property] of [['Sum', 'tokens'], ['Count', null], ['Max', 'tokens'], ['WEIGHTED_SUM', 'tokens'], ['LATEST', 'tokens'], ['UniqueCount', 'model']] as const) {
    meters.push(
      await h.deps.db.meter.create({
        data: { id: newId(), name: `${aggregation} ${newId().slice(-6)}`, eventType, aggregation, property, filters: aggregation === 'Count' ? [{ property: 'model', operator: 'NotEquals', value: 'c' }] : [], windowType: 'BillingPeriod', unit: 'units' },
      }),
    );
  }
  specs = [...meters.map(meterSpec), { kind: 'default', eventType }];
  summed = specs.filter((spec) => spec.kind === 'default' || !['LATEST', 'UniqueCount'].includes(spec.aggregation));
  const [a, b] = [await makeCustomer(h.deps.db), await makeCustomer(h.deps.db)];
  const [a1, a2, b1] = [newId(), newId(), newId()];
  scopes = [
    { customerId: a, subscriptionId: a1 },
    { customerId: a, subscriptionId: a2 },
    { customerId: b, subscriptionId: b1 },
  ];
  await insertEvents([...eventsOf(a, [a1, a2], 300, 1), ...eventsOf(b, [b1], 150, 2)]);
  await runRollupPass(h.deps);
  // After the pass: read raw, after the cursors.
  await insertEvents([...eventsOf(a, [a1, a2], 60, 3), ...eventsOf(b, [b1], 30, 4)]);
}, 120_000);

/** A window around the month, of one of the scopes; or reaching back to the beginning (since). */
function windowOfMonth() {
  const offset = fc.integer({ min: -86_400_000, max: MONTH_MS + 86_400_000 });
  return fc.record({
    scope: fc.integer({ min: 0, max: scopes.length - 1 }),
    // Whole days, whole 5 minutes, or any millisecond: rollup spans with and without raw edges.
    from: fc.oneof(offset, offset.map((ms) => ms - (ms % 300_000)), offset.map((ms) => ms - (ms % 86_400_000))),
    length: fc.oneof(fc.integer({ min: 1, max: MONTH_MS }), fc.integer({ min: 1, max: 30 }).map((days) => days * 86_400_000)),
    since: fc.boolean(),
  });
}

const windowRead = (w: { scope: number; from: number; length: number; since: boolean }) => ({
  scope: scopes[w.scope]!,
  range: { from: w.since ? null : new Date(MONTH_START + w.from), to: new Date(MONTH_START + w.from + w.length) } satisfies Range,
});

describe('coalesced meter reads', () => {
  it('give every window exactly the partials readAggregates gives it alone', async () => {
    const read = poolReader(h.deps.pool);
    const hints = await readCursors(read, [...new Set(specs.map(cursorKey))]);
    await fc.assert(
      fc.asyncProperty(fc.array(windowOfMonth(), { minLength: 1, maxLength: 40 }), fc.boolean(), fc.boolean(), async (windows, withHints, every) => {
        const reads = windows.map(windowRead);
        const used = withHints ? hints : new Map<string, bigint>();
        const coalesced = coalescedAggregates(read);
        const aggregators = every ? specs : summed;
        const together = await Promise.all(reads.map((r) => coalesced(aggregators, r.scope, r.range, used)));
        const alone = await Promise.all(reads.map((r) => readAggregates(read, aggregators, r.scope, r.range, used)));
        expect(together).toEqual(alone);
      }),
      { numRuns: 40 },
    );
    // The data is not trivial: windows count events rolled up and after the cursor, late ones among them.
    const whole = await readAggregates(read, specs, scopes[0]!, { from: new Date(MONTH_START - 86_400_000), to: new Date(MONTH_START + MONTH_MS + 86_400_000) }, hints);
    expect(whole.at(-1)!.count).toBeGreaterThan(200n);
    expect(whole.at(-1)!.late).toBeGreaterThan(0n);
  }, 300_000);

  it('give every window the same partials read by prepared statements as by statements sent afresh', async () => {
    // Two connections, so each text runs prepared many times on each (past the fifth run, where PostgreSQL may keep a generic plan).
    const pool = new pg.Pool({ connectionString: inject('databaseUrl'), max: 2 });
    try {
      const [fresh, prepared] = [poolReader(h.deps.pool), preparedReader(pool)];
      const hints = await readCursors(fresh, [...new Set(specs.map(cursorKey))]);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(windowOfMonth(), fc.boolean()), { minLength: 1, maxLength: 20 }), async (windows) => {
          for (const [w, withHints] of windows) {
            const { scope, range } = windowRead(w);
            const used = withHints ? hints : new Map<string, bigint>();
            const [afresh, again] = await Promise.all([readAggregates(fresh, specs, scope, range, used), readAggregates(prepared, specs, scope, range, used)]);
            expect(again).toEqual(afresh);
          }
        }),
        { numRuns: 25 },
      );
      // The texts repeat (the same shapes with other values): far fewer statements prepared than reads run.
      const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 's\\_%'`);
      expect(rows[0]!.n).toBeGreaterThan(0);
      expect(rows[0]!.n).toBeLessThan(PREPARED_READS_PER_CONNECTION);
    } finally {
      await pool.end();
    }
  }, 300_000);

  it('splits a large gathering over several statements (windows and bind parameters bounded), each read still its own', async () => {
    const read = poolReader(h.deps.pool);
    const hints = await readCursors(read, [...new Set(specs.map(cursorKey))]);
    // 1,100 windows: more than one statement of either kind, by count (500) and, for every aggregation, by parameters.
    const reads = Array.from({ length: 1_100 }, (_, i) => ({
      scope: scopes[i % scopes.length]!,
      range: { from: new Date(MONTH_START + i * 3_600_000 + (i % 7) * 1_000), to: new Date(MONTH_START + i * 3_600_000 + 2 * 86_400_000) },
      specs: i % 2 === 0 ? specs : summed,
    }));
    const statements: string[] = [];
    const counting: typeof read = (sql) => {
      statements.push(sql.text);
      return read(sql);
    };
    const coalesced = coalescedAggregates(counting);
    const together = await Promise.all(reads.map((r) => coalesced(r.specs, r.scope, r.range, hints)));
    expect(statements.length).toBeGreaterThanOrEqual(4);
    for (let i = 0; i < reads.length; i += 37) expect(together[i]).toEqual(await readAggregates(read, reads[i]!.specs, reads[i]!.scope, reads[i]!.range, hints));
  }, 120_000);

  it('fails every read of a statement that fails', async () => {
    const coalesced = coalescedAggregates(poolReader(h.deps.pool));
    const broken: Scope = { customerId: 'not-a-uuid', subscriptionId: newId() };
    const range = { from: new Date(MONTH_START), to: new Date(MONTH_START + MONTH_MS) };
    const outcomes = await Promise.allSettled([coalesced(specs, scopes[0]!, range, new Map()), coalesced(specs, broken, range, new Map())]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
  });
});
