/**
 * Usage rollups: partial aggregates per aggregator (a meter, or the default of an event type),
 * customer, subscription and 5-minute, hourly and daily UTC bucket, advanced incrementally along
 * usage_events.seq by rollUpUsage; and, for grouped meters (dimensional SKUs), the same per dimension
 * value (usage_dimension_rollups). Each aggregator's cursor says how far its rollups reach. Runs on
 * the pg pool (see `transaction`).
 */
import type pg from 'pg';
import { withPooledClient } from '../client.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { MeterAggregation } from '../../generated/prisma/client.js';
import {
  cursorKey,
  DEFAULT_CURSOR,
  DEFAULT_VALUE,
  dimensionKey,
  dimensionsSql,
  matchSql,
  meterSpec,
  NO_SUBSCRIPTION,
  prop,
  ROLLED_DIMENSION_AGGREGATIONS,
  type AggregatorSpec,
  type GroupedMeterSpec,
  type MeterFilter,
} from './aggregators.js';

/** What one cursor follows: an aggregator, or a grouped meter's per-dimension-value series. */
type RollupSeries = AggregatorSpec | { kind: 'dimensions'; group: GroupedMeterSpec };

const seriesKey = (series: RollupSeries): string => (series.kind === 'dimensions' ? dimensionKey(series.group) : cursorKey(series));

const FIVE_MINUTE_BUCKET = Prisma.sql`date_bin('5 minutes', e.occurred_at, TIMESTAMPTZ 'epoch')`;
const HOUR_BUCKET = Prisma.sql`date_bin('1 hour', e.occurred_at, TIMESTAMPTZ 'epoch')`;
const DAY_BUCKET = Prisma.sql`date_bin('1 day', e.occurred_at, TIMESTAMPTZ 'epoch')`;
/** Rollup rows of every granularity from one aggregation pass (GROUPING SETS). */
const BUCKET_SETS = Prisma.sql`GROUPING SETS ((e.five_start), (e.hour_start), (e.day_start))`;
const GRANULARITY = Prisma.sql`CASE WHEN GROUPING(e.five_start) = 0 THEN 5 WHEN GROUPING(e.hour_start) = 0 THEN 60 ELSE 1440 END`;
const BUCKET = Prisma.sql`COALESCE(e.five_start, e.hour_start, e.day_start)`;
/** The same for the dimension series (DIMENSION_GRANULARITIES: hours and days). */
const DIMENSION_BUCKET_SETS = Prisma.sql`GROUPING SETS ((e.hour_start), (e.day_start))`;
const DIMENSION_GRANULARITY = Prisma.sql`CASE WHEN GROUPING(e.hour_start) = 0 THEN 60 ELSE 1440 END`;
const DIMENSION_BUCKET = Prisma.sql`COALESCE(e.hour_start, e.day_start)`;
const EPOCH_MS = Prisma.sql`(extract(epoch FROM e.occurred_at) * 1000)`;
/** Ties on the timestamp go to the greater event id, so "latest" never depends on arrival order. */
const NEWER_LATEST = Prisma.sql`excluded.latest_at IS NOT NULL AND (r.latest_at IS NULL OR (excluded.latest_at, excluded.latest_id) > (r.latest_at, r.latest_id))`;
/** Distinct values are counted by usage_value_key (the value itself, or the MD5 of a long one). */
const distinctValueSql = (property: string) => Prisma.sql`usage_value_key(e.properties ->> ${property}::text)`;

/** Aggregators folded by one statement (each is one INSERT … SELECT over the shared scan). */
const AGGREGATORS_PER_STATEMENT = 16;

/**
 * Folds the events with lo < seq ≤ hi into the 5-minute, hourly and daily rollups of several aggregators in ONE
 * statement: the events are read once into a materialized CTE that also computes, once per event,
 * the numeric value of every property the meters read; each aggregator then groups that set.
 */
async function rollRange(client: pg.PoolClient, series: RollupSeries[], lo: bigint, hi: bigint): Promise<void> {
  const specs = series.filter((s): s is AggregatorSpec => s.kind !== 'dimensions');
  const groups = series.flatMap((s) => (s.kind === 'dimensions' ? [s.group] : []));
  const meters = [...specs.filter((s): s is AggregatorSpec & { kind: 'meter' } => s.kind === 'meter'), ...groups.map((g) => g.spec)];
  const properties = [...new Set(meters.flatMap((m) => (m.property === null ? [] : [m.property])))];
  const column = (property: string) => Prisma.raw(`n${properties.indexOf(property)}`);
  const needsProperties = groups.length > 0 || meters.some((m) => m.filters.length > 0 || m.aggregation === 'UniqueCount');
  const columns = [
    Prisma.sql`e.id, e.event_type, e.customer_id, COALESCE(e.subscription_id, ${NO_SUBSCRIPTION}::uuid) AS subscription_key,
               ${FIVE_MINUTE_BUCKET} AS five_start, ${HOUR_BUCKET} AS hour_start, ${DAY_BUCKET} AS day_start, e.late, e.occurred_at`,
    ...(groups.length > 0 ? [Prisma.sql`e.seq`] : []),
    ...(meters.some((m) => m.aggregation === 'WEIGHTED_SUM') ? [Prisma.sql`${EPOCH_MS} AS t_ms`] : []),
    ...(specs.some((s) => s.kind === 'default') ? [Prisma.sql`${DEFAULT_VALUE} AS q`] : []),
    ...properties.map((p) => Prisma.sql`usage_numeric(${prop(p)}) AS ${column(p)}`),
    ...(needsProperties ? [Prisma.sql`e.properties`] : []),
  ];
  const statements: Prisma.Sql[] = [];
  for (const spec of specs) {
    if (spec.kind === 'default') {
      statements.push(Prisma.sql`
        INSERT INTO usage_rollups AS r (aggregator, customer_id, subscription_key, granularity, bucket_start, event_count, late_count, value_sum)
        SELECT 'default:' || e.event_type, e.customer_id, e.subscription_key, ${GRANULARITY}, ${BUCKET}, count(*), count(*) FILTER (WHERE e.late), sum(e.q)
        FROM batch e
        GROUP BY e.event_type, e.customer_id, e.subscription_key, ${BUCKET_SETS}
        ON CONFLICT (aggregator, customer_id, subscription_key, granularity, bucket_start) DO UPDATE SET
          event_count = r.event_count + excluded.event_count,
          late_count = r.late_count + excluded.late_count,
          value_sum = r.value_sum + excluded.value_sum`);
      continue;
    }
    const { aggregation } = spec;
    const v = spec.property === null ? Prisma.sql`NULL::numeric` : Prisma.sql`e.${column(spec.property)}`;
    const latest = (expression: Prisma.Sql) =>
      aggregation === 'LATEST' ? Prisma.sql`(array_agg(${expression} ORDER BY e.occurred_at DESC, e.id DESC) FILTER (WHERE ${v} IS NOT NULL))[1]` : Prisma.sql`NULL`;
    statements.push(Prisma.sql`
      INSERT INTO usage_rollups AS r (aggregator, customer_id, subscription_key, granularity, bucket_start, event_count, late_count,
                                      value_sum, value_max, weighted_sum, latest_at, latest_id, latest_value)
      SELECT ${spec.meterId}::text, e.customer_id, e.subscription_key, ${GRANULARITY}, ${BUCKET}, count(*), count(*) FILTER (WHERE e.late),
             ${aggregation === 'Sum' || aggregation === 'WEIGHTED_SUM' ? Prisma.sql`sum(${v})` : Prisma.sql`NULL`},
             ${aggregation === 'Max' ? Prisma.sql`max(${v})` : Prisma.sql`NULL`},
             ${aggregation === 'WEIGHTED_SUM' ? Prisma.sql`sum(${v} * e.t_ms)` : Prisma.sql`NULL`},
             ${latest(Prisma.sql`e.occurred_at`)}, ${latest(Prisma.sql`e.id`)}, ${latest(v)}
      FROM batch e
      WHERE ${matchSql(spec)}
      GROUP BY e.customer_id, e.subscription_key, ${BUCKET_SETS}
      ON CONFLICT (aggregator, customer_id, subscription_key, granularity, bucket_start) DO UPDATE SET
        event_count = r.event_count + excluded.event_count,
        late_count = r.late_count + excluded.late_count,
        value_sum = COALESCE(r.value_sum + excluded.value_sum, r.value_sum, excluded.value_sum),
        value_max = GREATEST(r.value_max, excluded.value_max),
        weighted_sum = COALESCE(r.weighted_sum + excluded.weighted_sum, r.weighted_sum, excluded.weighted_sum),
        latest_at = CASE WHEN ${NEWER_LATEST} THEN excluded.latest_at ELSE r.latest_at END,
        latest_id = CASE WHEN ${NEWER_LATEST} THEN excluded.latest_id ELSE r.latest_id END,
        latest_value = CASE WHEN ${NEWER_LATEST} THEN excluded.latest_value ELSE r.latest_value END`);
    if (aggregation === 'UniqueCount' && spec.property !== null) {
      statements.push(Prisma.sql`
        INSERT INTO usage_rollup_values (aggregator, customer_id, subscription_key, granularity, bucket_start, value_key)
        SELECT ${spec.meterId}::text, e.customer_id, e.subscription_key, ${GRANULARITY}, ${BUCKET}, e.value_key
        FROM (SELECT e.*, ${distinctValueSql(spec.property)} AS value_key FROM batch e
              WHERE ${matchSql(spec)} AND e.properties ->> ${spec.property}::text IS NOT NULL) e
        GROUP BY e.customer_id, e.subscription_key, e.value_key, ${BUCKET_SETS}
        ON CONFLICT DO NOTHING`);
    }
  }
  for (const group of groups) {
    const v = group.spec.property === null ? Prisma.sql`NULL::numeric` : Prisma.sql`e.${column(group.spec.property)}`;
    const aggregation = group.spec.aggregation;
    statements.push(Prisma.sql`
      INSERT INTO usage_dimension_rollups AS r (aggregator, customer_id, subscription_key, granularity, bucket_start, dims_key, dims, first_seq, event_count, value_sum, value_max)
      SELECT ${dimensionKey(group)}::text, e.customer_id, e.subscription_key, ${DIMENSION_GRANULARITY}, ${DIMENSION_BUCKET}, usage_value_key(e.dims::text), e.dims, min(e.seq), count(*),
             ${aggregation === 'Sum' ? Prisma.sql`sum(${v})` : Prisma.sql`NULL::numeric`}, ${aggregation === 'Max' ? Prisma.sql`max(${v})` : Prisma.sql`NULL::numeric`}
      FROM (SELECT e.*, ${dimensionsSql(group.groupBy)} AS dims FROM batch e WHERE ${matchSql(group.spec)}) e
      GROUP BY e.customer_id, e.subscription_key, e.dims, ${DIMENSION_BUCKET_SETS}
      ON CONFLICT (aggregator, customer_id, granularity, bucket_start, subscription_key, dims_key) DO UPDATE SET
        first_seq = LEAST(r.first_seq, excluded.first_seq),
        event_count = r.event_count + excluded.event_count,
        value_sum = COALESCE(r.value_sum + excluded.value_sum, r.value_sum, excluded.value_sum),
        value_max = GREATEST(r.value_max, excluded.value_max)`);
    if (aggregation === 'UniqueCount' && group.spec.property !== null) {
      statements.push(Prisma.sql`
        INSERT INTO usage_dimension_rollup_values (aggregator, customer_id, subscription_key, granularity, bucket_start, dims_key, value_key)
        SELECT ${dimensionKey(group)}::text, e.customer_id, e.subscription_key, ${DIMENSION_GRANULARITY}, ${DIMENSION_BUCKET}, e.dims_key, e.value_key
        FROM (SELECT e.*, usage_value_key(${dimensionsSql(group.groupBy)}::text) AS dims_key, ${distinctValueSql(group.spec.property)} AS value_key FROM batch e
              WHERE ${matchSql(group.spec)} AND e.properties ->> ${group.spec.property}::text IS NOT NULL) e
        GROUP BY e.customer_id, e.subscription_key, e.dims_key, e.value_key, ${DIMENSION_BUCKET_SETS}
        ON CONFLICT DO NOTHING`);
    }
  }
  const ctes = statements.map((statement, i) => Prisma.sql`${Prisma.raw(`s${i}`)} AS (${statement})`);
  await run(
    client,
    Prisma.sql`
    WITH batch AS MATERIALIZED (SELECT ${Prisma.join(columns, ', ')} FROM usage_events e WHERE e.seq > ${lo} AND e.seq <= ${hi}),
    ${Prisma.join(ctes, ',\n')}
    SELECT 1`,
  );
}

export interface RollupPassOutcome {
  /** Highest seq every rolled aggregator now covers; null when nothing was waiting. */
  horizon: bigint | null;
  /** Aggregators advanced in this pass. */
  advanced: number;
  /** True when the horizon lock was not granted in time (writers busy); the next pass retries. */
  contended: boolean;
}

export interface RollupOptions {
  /** Events (by seq) folded per transaction, so a new meter's backfill never holds one huge transaction. */
  chunk?: bigint;
  /** How long a pass may wait for in-flight writers; writers queue behind it meanwhile. */
  lockTimeoutMs?: number;
}

/** Runs a statement built with Prisma.sql on a plain pg client. */
async function run<T extends pg.QueryResultRow = pg.QueryResultRow>(client: pg.Pool | pg.PoolClient, sql: Prisma.Sql): Promise<T[]> {
  return (await client.query<T>(sql.text, sql.values)).rows;
}

/**
 * A transaction on one pooled connection. Rollups run on the pg pool rather than Prisma: a pass
 * runs inside the API process, and Prisma's query engine would take its event loop from requests.
 */
async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return withPooledClient(pool, async (client) => {
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    }
  });
}

async function cursorPositions(pool: pg.Pool, keys: string[]): Promise<Map<string, bigint>> {
  await run(pool, Prisma.sql`INSERT INTO usage_rollup_cursors (aggregator) SELECT unnest(${keys}::text[]) ON CONFLICT (aggregator) DO NOTHING`);
  const rows = await run<{ aggregator: string; position: string }>(
    pool,
    Prisma.sql`SELECT aggregator, position::text AS position FROM usage_rollup_cursors WHERE aggregator = ANY(${keys}::text[])`,
  );
  return new Map(rows.map((r) => [r.aggregator, BigInt(r.position)]));
}

/** Every seq ≤ the returned value is committed or rolled back (see the writer lock in the migration). */
async function settledHorizon(pool: pg.Pool, lockTimeoutMs: number): Promise<bigint | undefined> {
  try {
    return await transaction(pool, async (client) => {
      await client.query(`SET LOCAL lock_timeout = '${Math.max(1, Math.round(lockTimeoutMs))}ms'`);
      await client.query(`SELECT pg_advisory_xact_lock('usage_events'::regclass::oid::bigint)`);
      const [row] = (await client.query<{ max: string | null }>('SELECT max(seq)::text AS max FROM usage_events')).rows;
      return BigInt(row?.max ?? '0');
    });
  } catch (err) {
    if ((err as { code?: string }).code === '55P03') return undefined;
    throw err;
  }
}

/**
 * Every grouped meter the rollups keep per dimension value: each meter and group_by of a dimensional
 * SKU (any plan, any version) whose aggregation composes from partials (ROLLED_DIMENSION_AGGREGATIONS).
 */
export async function readDimensionSeries(pool: pg.Pool): Promise<GroupedMeterSpec[]> {
  const rows = await run<{ id: string; event_type: string; aggregation: MeterAggregation; property: string | null; filters: MeterFilter[]; group_by: string[] }>(
    pool,
    Prisma.sql`SELECT DISTINCT m.id::text, m.event_type, m.aggregation::text, m.property, m.filters, k.dimensional -> 'group_by' AS group_by
               FROM skus k JOIN meters m ON m.id = k.meter_id
               WHERE k.dimensional IS NOT NULL AND m.aggregation::text = ANY(${[...ROLLED_DIMENSION_AGGREGATIONS]}::text[])`,
  );
  return rows.map((r) => ({
    spec: meterSpec({ id: r.id, eventType: r.event_type, aggregation: r.aggregation, property: r.property, filters: r.filters }) as AggregatorSpec & { kind: 'meter' },
    groupBy: r.group_by,
  }));
}

/** Every meter as the aggregator its rollups follow. */
export async function readMeterSpecs(pool: pg.Pool): Promise<AggregatorSpec[]> {
  const rows = await run<{ id: string; event_type: string; aggregation: MeterAggregation; property: string | null; filters: MeterFilter[] }>(
    pool,
    Prisma.sql`SELECT id::text, event_type, aggregation::text, property, filters FROM meters ORDER BY id`,
  );
  return rows.map((r) => meterSpec({ id: r.id, eventType: r.event_type, aggregation: r.aggregation, property: r.property, filters: r.filters }));
}

/**
 * One rollup pass over the given aggregators (every meter, plus the defaults' shared cursor) and
 * grouped meters' dimension series, up to the settled horizon. Series whose cursors stand at the same
 * position advance together over one scan (in one statement); a lagging one (a new meter, or a new
 * dimensional SKU's series, backfilling) catches up chunk by chunk until it joins them.
 * Safe to run from several processes at once: each step locks the cursor rows first.
 */
export async function rollUpUsage(pool: pg.Pool, specs: AggregatorSpec[], options: RollupOptions = {}, groups: readonly GroupedMeterSpec[] = []): Promise<RollupPassOutcome> {
  const chunk = options.chunk ?? 100_000n;
  const byCursor = new Map<string, RollupSeries>();
  for (const series of [...specs, ...groups.map((group): RollupSeries => ({ kind: 'dimensions', group }))]) {
    if (!byCursor.has(seriesKey(series))) byCursor.set(seriesKey(series), series);
  }
  byCursor.set(DEFAULT_CURSOR, { kind: 'default', eventType: '' });
  const keys = [...byCursor.keys()].sort();

  const positions = await cursorPositions(pool, keys);
  const [latest] = (await pool.query<{ max: string | null }>('SELECT max(seq)::text AS max FROM usage_events')).rows;
  const newest = BigInt(latest?.max ?? '0');
  const behind = keys.filter((key) => (positions.get(key) ?? 0n) < newest);
  if (behind.length === 0) return { horizon: null, advanced: 0, contended: false };

  const horizon = await settledHorizon(pool, options.lockTimeoutMs ?? 500);
  if (horizon === undefined) return { horizon: null, advanced: 0, contended: true };

  for (;;) {
    const done = await transaction(pool, async (client) => {
      // The whole chunk's upserts and distinct sets stay in memory instead of spilling to disk.
      await client.query(`SET LOCAL work_mem = '64MB'`);
      const rows = await run<{ aggregator: string; position: string }>(
        client,
        Prisma.sql`SELECT aggregator, position::text AS position FROM usage_rollup_cursors
                   WHERE aggregator = ANY(${behind}::text[]) ORDER BY aggregator FOR UPDATE`,
      );
      const lagging = rows.map((r) => ({ key: r.aggregator, position: BigInt(r.position) })).filter((r) => r.position < horizon);
      if (lagging.length === 0) return true;
      const lo = lagging.reduce((min, r) => (r.position < min ? r.position : min), horizon);
      const next = lagging.reduce((min, r) => (r.position > lo && r.position < min ? r.position : min), horizon);
      const hi = lo + chunk < next ? lo + chunk : next;
      const group = lagging.filter((r) => r.position === lo).map((r) => r.key);
      for (let i = 0; i < group.length; i += AGGREGATORS_PER_STATEMENT) {
        await rollRange(client, group.slice(i, i + AGGREGATORS_PER_STATEMENT).map((key) => byCursor.get(key)!), lo, hi);
      }
      await run(client, Prisma.sql`UPDATE usage_rollup_cursors SET position = ${hi}, updated_at = now() WHERE aggregator = ANY(${group}::text[])`);
      return false;
    });
    if (done) break;
  }
  return { horizon, advanced: behind.length, contended: false };
}
