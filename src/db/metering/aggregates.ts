/**
 * Usage aggregate reads, exact at any moment: the coarsest rollups that fit the window, plus raw
 * events for the partial 5-minute buckets at its edges and for whatever arrived after the cursor
 * (readAggregates); and the subscription a usage summary is about (readUsageSubject).
 */
import { rollupSpans, type Span, type WindowPartial } from '../../core/index.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { BillingCadence, MeterAggregation, MeterWindow } from '../../generated/prisma/client.js';
import type { SqlReader } from '../client.js';
import { cursorKey, DEFAULT_CURSOR, DEFAULT_VALUE, matchSql, NO_SUBSCRIPTION, prop, rollupKey, type AggregatorSpec, type MeterFilter } from './aggregators.js';

/** Cursor positions for reads (the hints of readAggregates). */
export async function readCursors(read: SqlReader, keys: string[]): Promise<Map<string, bigint>> {
  const rows = await read<{ aggregator: string; position: string }>(Prisma.sql`
    SELECT aggregator, position::text AS position FROM usage_rollup_cursors WHERE aggregator = ANY(${keys}::text[])`);
  return new Map(rows.map((r) => [r.aggregator, BigInt(r.position)]));
}

/**
 * Cursor hints read at most once per `maxAgeMs` for a request path (an entitlement check): a hint
 * that lags the cursor costs no exactness (cursors only move forward and every read also filters by
 * the cursor itself), only a tail read from an older position.
 */
export function recentCursors(maxAgeMs: number, now: () => number = Date.now): (read: SqlReader, keys: string[]) => Promise<Map<string, bigint>> {
  const known = new Map<string, { position: bigint; readAtMs: number }>();
  return async (read, keys) => {
    const stale = keys.filter((key) => {
      const hint = known.get(key);
      return hint === undefined || now() - hint.readAtMs > maxAgeMs;
    });
    if (stale.length > 0) {
      const readAtMs = now();
      const fresh = await readCursors(read, stale);
      for (const key of stale) known.set(key, { position: fresh.get(key) ?? 0n, readAtMs });
    }
    return new Map(keys.map((key) => [key, known.get(key)!.position]));
  };
}

export interface MeterRecord {
  id: string;
  name: string;
  event_type: string;
  aggregation: MeterAggregation;
  property: string | null;
  filters: MeterFilter[];
  window_type: MeterWindow;
  window_size_seconds: number | null;
  unit: string;
}

export interface UsageSubject {
  id: string;
  customer_id: string;
  period_start: Date;
  period_end: Date;
  trial_days: number;
  trial_end: Date | null;
  billing_anchor: Date;
  billing_cadence: BillingCadence;
  /** The test clock's frozen time, for subscriptions on one. */
  clock_time: Date | null;
  /** The metered event types of its plan version, sorted. */
  event_types: string[];
  /** Meters of those event types, by event type then creation. */
  meters: MeterRecord[];
  /** Rollup cursor positions of those meters, of the defaults and of its grouped meters' dimension series (the read hints). */
  cursors: Map<string, bigint>;
  /** Its events and its customer's events without a subscription_id that no subscription period covers. */
  unbillable_events: number;
  /** The dimensional SKUs of its plan version: the meter each reads per value, and the properties it groups by. */
  grouped_skus: { sku_id: string; meter_id: string; group_by: string[] }[];
}

const epochMs = (column: Prisma.Sql) => Prisma.sql`floor(extract(epoch FROM ${column}) * 1000)::text`;

/** A subscription with everything its usage summary needs, in one statement. */
export async function readUsageSubject(read: SqlReader, subscriptionId: string): Promise<UsageSubject | undefined> {
  const [row] = await read<Record<string, string | string[] | null>>(Prisma.sql`
    WITH s AS (
      SELECT s.*, p.billing_cadence, tc.frozen_time,
             ARRAY(SELECT DISTINCT k.meter_event_type FROM skus k WHERE k.plan_id = s.plan_id AND k.meter_event_type IS NOT NULL
                     AND k.version_from <= s.plan_version AND (k.version_to IS NULL OR k.version_to > s.plan_version)
                   ORDER BY k.meter_event_type) AS event_types
      FROM subscriptions s JOIN plans p ON p.id = s.plan_id LEFT JOIN test_clocks tc ON tc.id = s.test_clock_id
      WHERE s.id = ${subscriptionId}::uuid
    )
    SELECT s.id::text, s.customer_id::text, ${epochMs(Prisma.sql`s.period_start`)} AS period_start, ${epochMs(Prisma.sql`s.period_end`)} AS period_end,
           s.trial_days::text, ${epochMs(Prisma.sql`s.trial_end`)} AS trial_end, ${epochMs(Prisma.sql`s.billing_anchor`)} AS billing_anchor,
           s.billing_cadence::text, ${epochMs(Prisma.sql`s.frozen_time`)} AS clock_time, s.event_types,
           COALESCE((SELECT json_agg(json_build_object(
                       'id', m.id, 'name', m.name, 'event_type', m.event_type, 'aggregation', m.aggregation, 'property', m.property,
                       'filters', m.filters, 'window_type', m.window_type, 'window_size_seconds', m.window_size_seconds, 'unit', m.unit)
                     ORDER BY m.event_type, m.created_at, m.id)
                     FROM meters m WHERE m.event_type = ANY(s.event_types)), '[]')::text AS meters,
           COALESCE((SELECT json_object_agg(c.aggregator, c.position::text) FROM usage_rollup_cursors c
                     WHERE c.aggregator = ${DEFAULT_CURSOR}::text
                        OR c.aggregator IN (SELECT m.id::text FROM meters m WHERE m.event_type = ANY(s.event_types))
                        -- the dimension series (dimensionKey: "dims:<meter id>:<group_by>") of its plan's grouped meters
                        OR (c.aggregator LIKE 'dims:%' AND substr(c.aggregator, 6, 36) IN (
                              SELECT k.meter_id::text FROM skus k WHERE k.plan_id = s.plan_id AND k.dimensional IS NOT NULL))), '{}')::text AS cursors,
           (SELECT count(*) FROM usage_events e WHERE e.customer_id = s.customer_id AND e.unbillable_reason IS NOT NULL
              AND (e.subscription_id = s.id OR e.subscription_id IS NULL))::text AS unbillable_events,
           COALESCE((SELECT json_agg(json_build_object('sku_id', k.id, 'meter_id', k.meter_id, 'group_by', k.dimensional -> 'group_by') ORDER BY k.created_at, k.id)
                     FROM skus k WHERE k.plan_id = s.plan_id AND k.dimensional IS NOT NULL AND k.meter_id IS NOT NULL
                       AND k.version_from <= s.plan_version AND (k.version_to IS NULL OR k.version_to > s.plan_version)), '[]')::text AS grouped_skus
    FROM s`);
  if (!row) return undefined;
  const date = (v: unknown) => (v === null ? null : new Date(Number(v)));
  return {
    id: row.id as string,
    customer_id: row.customer_id as string,
    period_start: date(row.period_start)!,
    period_end: date(row.period_end)!,
    trial_days: Number(row.trial_days),
    trial_end: date(row.trial_end),
    billing_anchor: date(row.billing_anchor)!,
    billing_cadence: row.billing_cadence as BillingCadence,
    clock_time: date(row.clock_time),
    event_types: row.event_types as string[],
    meters: JSON.parse(row.meters as string) as MeterRecord[],
    cursors: new Map(Object.entries(JSON.parse(row.cursors as string) as Record<string, string>).map(([key, position]) => [key, BigInt(position)])),
    unbillable_events: Number(row.unbillable_events),
    grouped_skus: JSON.parse(row.grouped_skus as string) as UsageSubject['grouped_skus'],
  };
}

export interface Scope {
  customerId: string;
  /** Events of this subscription, plus the customer's events sent without a subscription_id. */
  subscriptionId: string;
}

/** [from, to); from null means "since the beginning" (the level before a WEIGHTED_SUM window). */
export interface Range {
  from: Date | null;
  to: Date;
}

/** What one aggregator measured over a range, as exact decimal text. */
export interface Partials {
  count: bigint;
  late: bigint;
  sum: string | null;
  max: string | null;
  /** Σ value × epoch milliseconds (WEIGHTED_SUM). */
  weighted: string | null;
  /** LATEST only. */
  latest: string | null;
  /** UniqueCount only: number of distinct values. */
  distinct: bigint | null;
}

export function scopeSql(scope: Scope): Prisma.Sql {
  return Prisma.sql`e.customer_id = ${scope.customerId}::uuid AND (e.subscription_id = ${scope.subscriptionId}::uuid OR e.subscription_id IS NULL)`;
}

const ts = (ms: number) => Prisma.sql`${new Date(ms).toISOString()}::timestamptz`;

/** The range's spans in epoch milliseconds (core/metering.ts). */
const spansOf = (range: Range, granularities?: readonly number[]) => rollupSpans({ from: range.from?.getTime() ?? null, to: range.to.getTime() }, granularities);

const spanSql = (column: Prisma.Sql, span: Span) =>
  span.from === null ? Prisma.sql`${column} < ${ts(span.to)}` : Prisma.sql`${column} >= ${ts(span.from)} AND ${column} < ${ts(span.to)}`;

/**
 * Where the raw events of a range come from: its edges, read through the scope index, and inside
 * the rolled-up span the events after the cursors, read from the `tail` CTE.
 */
export function rawParts(range: Range, granularities?: readonly number[]): { from: Prisma.Sql; condition: Prisma.Sql; fromTail: boolean }[] {
  const { edges, rolled } = spansOf(range, granularities);
  const parts = edges.map((span) => ({ from: Prisma.sql`usage_events e`, condition: spanSql(Prisma.sql`e.occurred_at`, span), fromTail: false }));
  if (rolled) parts.push({ from: Prisma.sql`tail e`, condition: spanSql(Prisma.sql`e.occurred_at`, rolled), fromTail: true });
  return parts;
}

/**
 * Rollup rows of the range (see rollupSpans). One SELECT per span, each a range scan of the primary
 * key (an OR across spans would make the scan read every bucket of the customer and filter).
 */
export function rolledRows(
  table: 'usage_rollups' | 'usage_rollup_values' | 'usage_dimension_rollups' | 'usage_dimension_rollup_values',
  columns: Prisma.Sql,
  where: Prisma.Sql,
  range: Range,
  granularities?: readonly number[],
): Prisma.Sql {
  const selects = spansOf(range, granularities).spans.map(
    (span) =>
      Prisma.sql`SELECT ${columns} FROM ${Prisma.raw(table)} r WHERE ${where} AND r.granularity = ${Prisma.raw(String(span.granularity))} AND ${spanSql(Prisma.sql`r.bucket_start`, span)}`,
  );
  return selects.length > 0 ? Prisma.join(selects, ' UNION ALL ') : Prisma.sql`SELECT ${columns} FROM ${Prisma.raw(table)} r WHERE false`;
}

export const rolledScope = (scope: Scope) =>
  Prisma.sql`r.customer_id = ${scope.customerId}::uuid AND r.subscription_key IN (${scope.subscriptionId}::uuid, ${NO_SUBSCRIPTION}::uuid)`;

/** Aggregators read by one statement (json_build_array takes at most 100 arguments). */
const AGGREGATORS_PER_READ = 32;

/**
 * Every aggregator's partials over one range for one subscription, in ONE statement per (up to
 * AGGREGATORS_PER_READ) aggregators, so cursors, rollups and raw events all come from one snapshot:
 * - rollups of the whole buckets inside the range (rollupSpans), per aggregator, up to its cursor;
 * - raw events of the partial 5-minute buckets at the edges, read once for all aggregators;
 * - raw events after each aggregator's cursor inside the rolled-up span (the "tail"), walked along the
 *   seq index from the lowest cursor. It is materialized on its own so the planner cannot trade it
 *   for a scan of the whole window through the scope index. The cursor hints are positions read
 *   before this statement: cursors only move forward, so `seq > hint` never drops a row that
 *   `seq > cursor` needs, and as literals they show the planner how short the tail is.
 */
export async function readAggregates(read: SqlReader, specs: AggregatorSpec[], scope: Scope, range: Range, hints: Map<string, bigint>): Promise<Partials[]> {
  const results: Partials[] = [];
  for (let i = 0; i < specs.length; i += AGGREGATORS_PER_READ) {
    results.push(...(await readAggregateGroup(read, specs.slice(i, i + AGGREGATORS_PER_READ), scope, range, hints)));
  }
  return results;
}

/** How readAggregates' partials are read: one statement per call, or coalesced with other calls (coalescedAggregates). */
export type AggregateReader = (specs: AggregatorSpec[], scope: Scope, range: Range, hints: Map<string, bigint>) => Promise<Partials[]>;

/** Windows one statement of coalescedAggregates reads at most. */
const WINDOWS_PER_STATEMENT = 500;
/** Bind parameters of one statement of coalescedAggregates at most (PostgreSQL's protocol allows 65,535). */
const PARAMETERS_PER_STATEMENT = 30_000;

interface WindowRead {
  specs: AggregatorSpec[];
  scope: Scope;
  range: Range;
  hints: Map<string, bigint>;
  resolve: (partials: Partials[]) => void;
  reject: (err: unknown) => void;
}

/**
 * readAggregates for many reads at once (a price simulation's batch re-rates hundreds of periods
 * concurrently): the calls made while the caller's work is in flight (up to the next turn of the
 * event loop) are read together. Reads of the same aggregators over ranges with a start are read by
 * one statement per WINDOWS_PER_STATEMENT windows (windowsAggregateSql: the same rollups, raw edges
 * and cursor tail as readAggregates, so the same partials); any other read (LATEST, UniqueCount, the
 * level before a WEIGHTED_SUM range) is readAggregates' own statement, many as the scalar subqueries
 * of one statement. A failed statement fails every read it carried.
 */
export function coalescedAggregates(read: SqlReader): AggregateReader {
  let queue: WindowRead[] = [];
  const settle = (reads: WindowRead[], statement: Promise<Partials[][]>) =>
    statement.then(
      (partials) => reads.forEach((r, j) => r.resolve(partials[j]!)),
      (err: unknown) => reads.forEach((r) => r.reject(err)),
    );
  const flush = () => {
    const pending = queue;
    queue = [];
    const together = new Map<Map<string, bigint>, Map<string, WindowRead[]>>();
    const alone: WindowRead[] = [];
    for (const r of pending) {
      if (!windowsReadable(r.specs, r.range)) {
        alone.push(r);
        continue;
      }
      const bySpecs = together.get(r.hints) ?? new Map<string, WindowRead[]>();
      together.set(r.hints, bySpecs);
      const key = JSON.stringify(r.specs);
      bySpecs.set(key, [...(bySpecs.get(key) ?? []), r]);
    }
    for (const [hints, bySpecs] of together) {
      for (const reads of bySpecs.values()) {
        for (let i = 0; i < reads.length; i += WINDOWS_PER_STATEMENT) {
          const chunk = reads.slice(i, i + WINDOWS_PER_STATEMENT);
          const statement = read<{ result: string }>(windowsAggregateSql(chunk[0]!.specs, chunk, hints)).then((rows) => rows.map((row) => parsePartials(row.result)));
          settle(chunk, statement);
        }
      }
    }
    // Each of these statements has its own parameters: a statement takes them up to PARAMETERS_PER_STATEMENT.
    let chunk: { read: WindowRead; sql: Prisma.Sql }[] = [];
    let parameters = 0;
    const send = () => {
      if (chunk.length === 0) return;
      const sent = chunk;
      const subqueries = sent.map((c) => Prisma.sql`(${c.sql})`);
      settle(
        sent.map((c) => c.read),
        read<{ results: string[] }>(Prisma.sql`SELECT ARRAY[${Prisma.join(subqueries, ', ')}]::text[] AS results`).then(([row]) => row!.results.map(parsePartials)),
      );
      [chunk, parameters] = [[], 0];
    };
    for (const r of alone) {
      const sql = aggregateGroupSql(r.specs, r.scope, r.range, r.hints);
      if (chunk.length >= WINDOWS_PER_STATEMENT || parameters + sql.values.length > PARAMETERS_PER_STATEMENT) send();
      chunk.push({ read: r, sql });
      parameters += sql.values.length;
    }
    send();
  };
  const one = (specs: AggregatorSpec[], scope: Scope, range: Range, hints: Map<string, bigint>) =>
    new Promise<Partials[]>((resolve, reject) => {
      if (queue.length === 0) setImmediate(flush);
      queue.push({ specs, scope, range, hints, resolve, reject });
    });
  return async (specs, scope, range, hints) => {
    const groups: Promise<Partials[]>[] = [];
    for (let i = 0; i < specs.length; i += AGGREGATORS_PER_READ) groups.push(one(specs.slice(i, i + AGGREGATORS_PER_READ), scope, range, hints));
    return (await Promise.all(groups)).flat();
  };
}

/** Whether windowsAggregateSql reads these aggregators over this range: a range with a start, aggregations summed from rollup rows. */
const windowsReadable = (specs: AggregatorSpec[], range: Range): boolean =>
  range.from !== null && specs.every((spec) => !['LATEST', 'UniqueCount'].includes(aggregationOf(spec)));

/**
 * The partials of the same aggregators over many (scope, range) windows, in ONE statement with a
 * row per window (in the windows' order): for each window exactly what aggregateGroupSql reads for
 * it (its rollup spans, the raw events of its edges, the events after the cursors inside its rolled
 * span), its spans and parts passed as arrays and joined by window.
 */
function windowsAggregateSql(specs: AggregatorSpec[], windows: readonly { scope: Scope; range: Range }[], hints: Map<string, bigint>): Prisma.Sql {
  const cursorKeys = [...new Set(specs.map(cursorKey))];
  const types = [...new Set(specs.map((s) => s.eventType))];
  const parts = { i: [] as number[], from: [] as string[], to: [] as string[], tail: [] as boolean[] };
  const spans = { i: [] as number[], granularity: [] as number[], from: [] as string[], to: [] as string[] };
  windows.forEach(({ range }, i) => {
    const { edges, rolled, spans: rollupSpans } = spansOf(range);
    for (const [span, tail] of [...edges.map((e) => [e, false] as const), ...(rolled ? [[rolled, true] as const] : [])]) {
      parts.i.push(i);
      parts.from.push(new Date(span.from!).toISOString());
      parts.to.push(new Date(span.to).toISOString());
      parts.tail.push(tail);
    }
    for (const span of rollupSpans) {
      spans.i.push(i);
      spans.granularity.push(span.granularity);
      spans.from.push(new Date(span.from!).toISOString());
      spans.to.push(new Date(span.to).toISOString());
    }
  });
  const { perEvent, aggregates } = eventAggregates(specs);
  const inWindow = Prisma.sql`e.customer_id = w.customer_id AND (e.subscription_id = w.subscription_id OR e.subscription_id IS NULL)
    AND e.event_type = ANY(${types}::text[]) AND e.occurred_at >= p.from_at AND e.occurred_at < p.to_at`;
  const rolled = (i: number) => Prisma.raw(`r${i}`);
  const results = specs.map((_spec, i) => {
    const [a, r] = [(name: string) => Prisma.raw(`agg.${name}${i}`), rolled(i)];
    return Prisma.sql`json_build_object(
      'count', (COALESCE(${a('n')}, 0) + COALESCE(${r}.n, 0))::text,
      'late', (COALESCE(${a('l')}, 0) + COALESCE(${r}.late, 0))::text,
      'sum', COALESCE(${a('s')} + ${r}.s, ${a('s')}, ${r}.s)::text,
      'max', GREATEST(${a('m')}, ${r}.mx)::text,
      'weighted', COALESCE(${a('w')} + ${r}.w, ${a('w')}, ${r}.w)::text,
      'latest', NULL,
      'distinct', NULL)`;
  });
  const joins = specs.map((spec, i) => Prisma.sql`LEFT JOIN rolled ${rolled(i)} ON ${rolled(i)}.i = w.i AND ${rolled(i)}.aggregator = ${rollupKey(spec)}::text`);
  return Prisma.sql`
    WITH w AS (SELECT * FROM unnest(${windows.map((_, i) => i)}::int[], ${windows.map((x) => x.scope.customerId)}::uuid[], ${windows.map((x) => x.scope.subscriptionId)}::uuid[]) AS w(i, customer_id, subscription_id)),
    cur AS (SELECT aggregator, position FROM usage_rollup_cursors WHERE aggregator = ANY(${cursorKeys}::text[])),
    tail AS MATERIALIZED (SELECT * FROM usage_events WHERE seq > ${lowestHint(cursorKeys, hints)} AND seq > (SELECT COALESCE(min(position), 0) FROM cur)),
    p AS (SELECT * FROM unnest(${parts.i}::int[], ${parts.from}::timestamptz[], ${parts.to}::timestamptz[], ${parts.tail}::boolean[]) AS p(i, from_at, to_at, from_tail)),
    raw AS MATERIALIZED (
      SELECT p.i, e.seq, e.id, e.event_type, e.occurred_at, e.late, e.properties, p.from_tail
      FROM p JOIN w ON w.i = p.i
      CROSS JOIN LATERAL (SELECT e.* FROM usage_events e WHERE NOT p.from_tail AND ${inWindow}
                          UNION ALL SELECT e.* FROM tail e WHERE p.from_tail AND ${inWindow}) e),
    x AS MATERIALIZED (SELECT e.i, e.occurred_at, e.id, e.late, e.properties, ${Prisma.join(perEvent, ', ')} FROM raw e),
    agg AS (SELECT x.i, ${Prisma.join(aggregates, ', ')} FROM x GROUP BY x.i),
    sp AS (SELECT * FROM unnest(${spans.i}::int[], ${spans.granularity}::int[], ${spans.from}::timestamptz[], ${spans.to}::timestamptz[]) AS sp(i, granularity, from_at, to_at)),
    rolled AS MATERIALIZED (
      SELECT sp.i, r.aggregator, sum(r.n) AS n, sum(r.late) AS late, sum(r.s) AS s, max(r.mx) AS mx, sum(r.w) AS w
      FROM sp JOIN w ON w.i = sp.i
      -- Per span, a range scan of the primary key (aggregated there, so never turned into a join over every rollup row).
      CROSS JOIN LATERAL (
        SELECT r.aggregator, sum(r.event_count) AS n, sum(r.late_count) AS late, sum(r.value_sum) AS s, max(r.value_max) AS mx, sum(r.weighted_sum) AS w
        FROM usage_rollups r WHERE r.aggregator = ANY(${[...new Set(specs.map(rollupKey))]}::text[]) AND r.customer_id = w.customer_id
          AND r.granularity = sp.granularity AND r.bucket_start >= sp.from_at AND r.bucket_start < sp.to_at
          AND r.subscription_key IN (w.subscription_id, ${NO_SUBSCRIPTION}::uuid)
        GROUP BY r.aggregator) r
      GROUP BY sp.i, r.aggregator)
    SELECT json_build_array(${Prisma.join(results, ', ')})::text AS result
    FROM w LEFT JOIN agg ON agg.i = w.i ${Prisma.join(joins, ' ')}
    ORDER BY w.i`;
}

async function readAggregateGroup(read: SqlReader, specs: AggregatorSpec[], scope: Scope, range: Range, hints: Map<string, bigint>): Promise<Partials[]> {
  if (specs.length === 0) return [];
  const [row] = await read<{ result: string }>(aggregateGroupSql(specs, scope, range, hints));
  return parsePartials(row!.result);
}

const col = (name: string, i: number) => Prisma.raw(`${name}${i}`);
const lowestHint = (cursorKeys: string[], hints: Map<string, bigint>): bigint =>
  cursorKeys.reduce((min, key) => {
    const hint = hints.get(key) ?? 0n;
    return min === undefined || hint < min ? hint : min;
  }, undefined as bigint | undefined)!;
const aggregationOf = (spec: AggregatorSpec): MeterAggregation => (spec.kind === 'default' ? 'Sum' : spec.aggregation);

/**
 * The aggregators' columns over raw events `e` (from_tail marking those read after the cursors, whose
 * cursor CTE is `cur`): per event, whether each aggregator counts it (c<i>) and the values it reads;
 * then each aggregator's count, late count, sum, max and weighted sum (n<i>, l<i>, s<i>, m<i>, w<i>).
 */
function eventAggregates(specs: AggregatorSpec[]) {
  // Each property's numeric value is computed once per event, whatever the number of meters reading it.
  const properties = [...new Set(specs.flatMap((s) => (s.kind === 'meter' && s.property !== null ? [s.property] : [])))];
  const valueOf = (spec: AggregatorSpec): Prisma.Sql =>
    spec.kind === 'default' ? Prisma.raw('q') : spec.property === null ? Prisma.sql`NULL::numeric` : col('p', properties.indexOf(spec.property));
  const perEvent = [
    ...(specs.some((s) => s.kind === 'meter' && s.aggregation === 'WEIGHTED_SUM') ? [Prisma.sql`extract(epoch FROM e.occurred_at) * 1000 AS t_ms`] : []),
    ...(specs.some((s) => s.kind === 'default') ? [Prisma.sql`${DEFAULT_VALUE} AS q`] : []),
    ...properties.map((p, j) => Prisma.sql`usage_numeric(${prop(p)}) AS ${col('p', j)}`),
    ...specs.map(
      (spec, i) =>
        Prisma.sql`(${matchSql(spec)} AND (NOT e.from_tail OR e.seq > COALESCE((SELECT position FROM cur WHERE aggregator = ${cursorKey(spec)}::text), 0))) AS ${col('c', i)}`,
    ),
  ];
  const aggregates = specs.flatMap((spec, i) => {
    const [c, v] = [col('c', i), valueOf(spec)];
    const aggregation = aggregationOf(spec);
    return [
      Prisma.sql`count(*) FILTER (WHERE ${c}) AS ${col('n', i)}`,
      Prisma.sql`count(*) FILTER (WHERE ${c} AND late) AS ${col('l', i)}`,
      aggregation === 'Sum' || aggregation === 'WEIGHTED_SUM' ? Prisma.sql`sum(${v}) FILTER (WHERE ${c}) AS ${col('s', i)}` : Prisma.sql`NULL::numeric AS ${col('s', i)}`,
      aggregation === 'Max' ? Prisma.sql`max(${v}) FILTER (WHERE ${c}) AS ${col('m', i)}` : Prisma.sql`NULL::numeric AS ${col('m', i)}`,
      aggregation === 'WEIGHTED_SUM' ? Prisma.sql`sum(${v} * t_ms) FILTER (WHERE ${c}) AS ${col('w', i)}` : Prisma.sql`NULL::numeric AS ${col('w', i)}`,
    ];
  });
  return { valueOf, perEvent, aggregates };
}

/** The columns of aggregateGroupSql's rolled partials, in the order of their array per aggregator. */
const ROLLED_COLUMNS = ['n', 'late', 's', 'mx', 'w'] as const;

/** readAggregateGroup's one statement: a single row whose `result` is the JSON array of the aggregators' partials. */
function aggregateGroupSql(specs: AggregatorSpec[], scope: Scope, range: Range, hints: Map<string, bigint>): Prisma.Sql {
  const cursorKeys = [...new Set(specs.map(cursorKey))];
  const minHint = lowestHint(cursorKeys, hints);
  const types = [...new Set(specs.map((s) => s.eventType))];
  const parts = rawParts(range);
  const raw = parts.map(
    (part) => Prisma.sql`
      SELECT e.seq, e.id, e.event_type, e.occurred_at, e.late, e.properties, ${Prisma.raw(part.fromTail ? 'true' : 'false')} AS from_tail
      FROM ${part.from} WHERE ${scopeSql(scope)} AND e.event_type = ANY(${types}::text[]) AND ${part.condition}`,
  );
  const rawUnion =
    raw.length > 0
      ? Prisma.join(raw, ' UNION ALL ')
      : Prisma.sql`SELECT NULL::bigint, NULL::text, NULL::text, NULL::timestamptz, false, NULL::jsonb, false WHERE false`;
  const tail = parts.some((p) => p.fromTail)
    ? Prisma.sql`tail AS MATERIALIZED (SELECT * FROM usage_events WHERE seq > ${minHint} AND seq > (SELECT COALESCE(min(position), 0) FROM cur)),`
    : Prisma.empty;
  const { valueOf, perEvent, aggregates } = eventAggregates(specs);
  // The rolled partials of every aggregator in one row (one object keyed by aggregator), read by
  // expressions: a scalar subquery per aggregator and column would each be planned on every run.
  const rolledOf = (i: number, column: (typeof ROLLED_COLUMNS)[number]) =>
    Prisma.sql`(rolled_by.o -> ${rollupKey(specs[i]!)}::text ->> ${Prisma.raw(String(ROLLED_COLUMNS.indexOf(column)))})::numeric`;
  const results = specs.map((spec, i) => {
    const aggregation = aggregationOf(spec);
    const [c, v] = [col('c', i), valueOf(spec)];
    const key = rollupKey(spec);
    const latest =
      aggregation === 'LATEST'
        ? Prisma.sql`(SELECT t.v FROM (SELECT occurred_at, id, ${v} AS v FROM x WHERE ${c} AND ${v} IS NOT NULL
                       UNION ALL ${rolledRows('usage_rollups', Prisma.sql`r.latest_at, r.latest_id, r.latest_value`, Prisma.sql`r.aggregator = ${key}::text AND ${rolledScope(scope)} AND r.latest_at IS NOT NULL`, range)}) t
                      ORDER BY t.occurred_at DESC, t.id DESC LIMIT 1)::text`
        : Prisma.sql`NULL`;
    const distinct =
      aggregation === 'UniqueCount' && spec.kind === 'meter' && spec.property !== null
        ? Prisma.sql`(SELECT count(*) FROM (
                        ${rolledRows('usage_rollup_values', Prisma.sql`r.value_key`, Prisma.sql`r.aggregator = ${key}::text AND ${rolledScope(scope)}`, range)}
                        UNION SELECT usage_value_key(x.properties ->> ${spec.property}::text) FROM x WHERE ${c} AND x.properties ->> ${spec.property}::text IS NOT NULL
                      ) d)::text`
        : Prisma.sql`NULL`;
    return Prisma.sql`json_build_object(
      'count', (agg.${col('n', i)} + COALESCE(${rolledOf(i, 'n')}, 0))::text,
      'late', (agg.${col('l', i)} + COALESCE(${rolledOf(i, 'late')}, 0))::text,
      'sum', COALESCE(agg.${col('s', i)} + ${rolledOf(i, 's')}, agg.${col('s', i)}, ${rolledOf(i, 's')})::text,
      'max', GREATEST(agg.${col('m', i)}, ${rolledOf(i, 'mx')})::text,
      'weighted', COALESCE(agg.${col('w', i)} + ${rolledOf(i, 'w')}, agg.${col('w', i)}, ${rolledOf(i, 'w')})::text,
      'latest', ${latest},
      'distinct', ${distinct})`;
  });
  return Prisma.sql`
    WITH cur AS (SELECT aggregator, position FROM usage_rollup_cursors WHERE aggregator = ANY(${cursorKeys}::text[])),
    ${tail}
    raw AS MATERIALIZED (${rawUnion}),
    x AS MATERIALIZED (SELECT e.occurred_at, e.id, e.late, e.properties, ${Prisma.join(perEvent, ', ')} FROM raw e),
    agg AS (SELECT ${Prisma.join(aggregates, ', ')} FROM x),
    rolled AS MATERIALIZED (
      SELECT r.aggregator, sum(r.event_count) AS n, sum(r.late_count) AS late, sum(r.value_sum) AS s, max(r.value_max) AS mx, sum(r.weighted_sum) AS w
      FROM (${rolledRows(
        'usage_rollups',
        Prisma.sql`r.aggregator, r.event_count, r.late_count, r.value_sum, r.value_max, r.weighted_sum`,
        Prisma.sql`r.aggregator = ANY(${[...new Set(specs.map(rollupKey))]}::text[]) AND ${rolledScope(scope)}`,
        range,
      )}) r
      GROUP BY r.aggregator),
    rolled_by AS (SELECT jsonb_object_agg(aggregator, jsonb_build_array(${Prisma.raw(ROLLED_COLUMNS.join(', '))})) AS o FROM rolled)
    SELECT json_build_array(${Prisma.join(results, ', ')})::text AS result FROM agg, rolled_by`;
}

function parsePartials(result: string): Partials[] {
  const parsed = JSON.parse(result) as { count: string; late: string; sum: string | null; max: string | null; weighted: string | null; latest: string | null; distinct: string | null }[];
  return parsed.map((p) => ({
    count: BigInt(p.count),
    late: BigInt(p.late),
    sum: p.sum,
    max: p.max,
    weighted: p.weighted,
    latest: p.latest,
    distinct: p.distinct === null ? null : BigInt(p.distinct),
  }));
}

/** A Tumbling meter whose windows cannot be summed into one aggregate (Max, UniqueCount, LATEST, WEIGHTED_SUM). */
export interface WindowedSpec {
  spec: AggregatorSpec & { kind: 'meter' };
  sizeMs: number;
}

/**
 * Per-window partials of Tumbling meters over [range.from, range.to), in ONE statement for all of
 * them: each meter's matching events grouped by epoch-aligned window index (occurred_at / size),
 * read raw (rollup buckets do not follow arbitrary window sizes); and, for WEIGHTED_SUM, the level
 * before the range (the sum of every earlier increment).
 */
export async function readWindowPartials(
  read: SqlReader,
  windowed: WindowedSpec[],
  scope: Scope,
  range: { from: Date; to: Date },
): Promise<{ windows: WindowPartial[][]; levels: (string | null)[] }> {
  const windows: WindowPartial[][] = windowed.map(() => []);
  const levels: (string | null)[] = windowed.map(() => null);
  if (windowed.length === 0) return { windows, levels };
  const epochMs = Prisma.sql`extract(epoch FROM e.occurred_at) * 1000`;
  const selects = windowed.flatMap(({ spec, sizeMs }, i) => {
    const v = spec.property === null ? Prisma.sql`NULL::numeric` : Prisma.sql`usage_numeric(${prop(spec.property)})`;
    const a = spec.aggregation;
    const where = Prisma.sql`${scopeSql(scope)} AND ${matchSql(spec)}`;
    const grouped = Prisma.sql`
      SELECT ${i}::int AS i, floor(${epochMs} / ${sizeMs}::numeric)::bigint::text AS w, count(*)::text AS n,
             ${a === 'WEIGHTED_SUM' ? Prisma.sql`sum(${v})::text` : Prisma.sql`NULL::text`} AS s,
             ${a === 'Max' ? Prisma.sql`max(${v})::text` : Prisma.sql`NULL::text`} AS mx,
             ${a === 'LATEST' ? Prisma.sql`((array_agg(${v} ORDER BY e.occurred_at DESC, e.id DESC) FILTER (WHERE ${v} IS NOT NULL))[1])::text` : Prisma.sql`NULL::text`} AS latest,
             ${a === 'UniqueCount' && spec.property !== null ? Prisma.sql`count(DISTINCT usage_value_key(e.properties ->> ${spec.property}::text))::text` : Prisma.sql`NULL::text`} AS d,
             ${a === 'WEIGHTED_SUM' ? Prisma.sql`sum(${v} * ${epochMs})::text` : Prisma.sql`NULL::text`} AS wt
      FROM usage_events e
      WHERE ${where} AND e.occurred_at >= ${range.from.toISOString()}::timestamptz AND e.occurred_at < ${range.to.toISOString()}::timestamptz
      GROUP BY 2`;
    if (a !== 'WEIGHTED_SUM') return [grouped];
    const level = Prisma.sql`
      SELECT ${i}::int, NULL::text, '0', sum(${v})::text, NULL::text, NULL::text, NULL::text, NULL::text
      FROM usage_events e WHERE ${where} AND e.occurred_at < ${range.from.toISOString()}::timestamptz`;
    return [grouped, level];
  });
  const rows = await read<{ i: number; w: string | null; n: string; s: string | null; mx: string | null; latest: string | null; d: string | null; wt: string | null }>(
    Prisma.join(selects, ' UNION ALL '),
  );
  for (const row of rows) {
    if (row.w === null) {
      levels[row.i] = row.s;
      continue;
    }
    windows[row.i]!.push({ index: Number(row.w), count: row.n, sum: row.s, max: row.mx, latest: row.latest, distinct: row.d, weighted: row.wt });
  }
  return { windows, levels };
}

/** The first and last event an aggregator counts in a range (ties by id), each with its timestamp. */
export interface EventSpan {
  first: { id: string; occurred_at: Date } | null;
  last: { id: string; occurred_at: Date } | null;
}

/**
 * The first and last events of each aggregator in [from, to) for a subscription, in one statement:
 * per aggregator two walks of the (customer_id, event_type, occurred_at) index from either end,
 * each stopping at its first match.
 */
export async function readEventSpans(read: SqlReader, specs: AggregatorSpec[], scope: Scope, range: { from: Date; to: Date }): Promise<EventSpan[]> {
  if (specs.length === 0) return [];
  const edge = (spec: AggregatorSpec, i: number, direction: 'ASC' | 'DESC') => Prisma.sql`(
      SELECT ${i}::int AS i, ${direction === 'ASC' ? 'first' : 'last'}::text AS edge, e.id, e.occurred_at FROM usage_events e
      WHERE ${scopeSql(scope)} AND ${matchSql(spec)} AND e.occurred_at >= ${range.from} AND e.occurred_at < ${range.to}
      ORDER BY e.occurred_at ${Prisma.raw(direction)}, e.id ${Prisma.raw(direction)} LIMIT 1)`;
  const rows = await read<{ i: number; edge: 'first' | 'last'; id: string; occurred_at: Date }>(
    Prisma.join(
      specs.flatMap((spec, i) => [edge(spec, i, 'ASC'), edge(spec, i, 'DESC')]),
      ' UNION ALL ',
    ),
  );
  const spans: EventSpan[] = specs.map(() => ({ first: null, last: null }));
  for (const row of rows) spans[Number(row.i)]![row.edge] = { id: row.id, occurred_at: new Date(row.occurred_at) };
  return spans;
}
