/**
 * Usage events and their rollups in PostgreSQL: the metering hot path, in SQL.
 *
 * - Ingestion is ONE statement per request (storeEvents) or per group of coalesced single events
 *   (storeEachEvent): it checks every event's references, computes its late flag and inserts with
 *   ON CONFLICT (id) DO NOTHING. The unique constraint is the deduplication: concurrent copies of
 *   one id store exactly one row, and an insert that fails leaves nothing behind that could later
 *   count as "seen". An id skipped as stored already may belong to another customer
 *   (event_id_conflict). A batch's statement commits on its own when it can show every skipped id
 *   is the same customer's event; otherwise it aborts itself and the batch re-runs in a transaction
 *   whose second statement looks at the skipped ids (a conflict leaves nothing stored).
 * - Rollups: partial aggregates per aggregator (a meter, or the default of an event type),
 *   customer, subscription and 5-minute, hourly and daily UTC bucket, advanced incrementally along
 *   usage_events.seq by rollUpUsage. Each aggregator's cursor says how far its rollups reach.
 * - Reads are exact at any moment: the coarsest rollups that fit the window, plus raw events for
 *   the partial 5-minute buckets at its edges and for whatever arrived after the cursor
 *   (readAggregates).
 */
import type pg from 'pg';
import { Prisma } from '../generated/prisma/client.js';
import type { BillingCadence, MeterAggregation, MeterWindow } from '../generated/prisma/client.js';
import type { Db } from './client.js';

/** Rollup key of events sent without a subscription_id. */
export const NO_SUBSCRIPTION = '00000000-0000-0000-0000-000000000000';
export const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** Rollup bucket sizes in minutes, finest first: 5 minutes, an hour and a UTC day. */
export const GRANULARITIES = [5, 60, 1440] as const;
/** The default aggregators of every event type share this cursor. */
export const DEFAULT_CURSOR = 'default';

// ── Ingestion ────────────────────────────────────────────────────────────────────────────────

export interface EventRow {
  /** Position in the request, echoed in problems. */
  idx: number;
  id: string;
  event_type: string;
  customer_id: string;
  subscription_id: string | null;
  /** ISO 8601 text as sent (PostgreSQL keeps its microseconds); null = the customer's "now". */
  occurred_at: string | null;
  properties: Record<string, unknown>;
  source: string | null;
}

export type EventProblemCode =
  | 'customer_not_found'
  | 'subscription_not_found'
  | 'subscription_customer_mismatch'
  | 'timestamp_in_future'
  | 'event_id_conflict';

export interface EventProblem {
  index: number;
  id: string;
  problem: EventProblemCode;
  /** The customer's current time (its test clock's, when it has one), for timestamp_in_future. */
  now_at: string | null;
}

export interface StoreOutcome {
  accepted: number;
  late: number;
  problems: EventProblem[];
}

/**
 * One statement: reference checks, late flags and the insert. The customer's "now" is its test
 * clock's frozen time when it is on one, so sandbox customers can send events in simulated time.
 *
 * An event is LATE when its timestamp falls in an already invoiced period of its subscription:
 * - before the subscription's charged_through_date (billed and paid), or
 * - inside a period of the subscription that is closed (the subscription has moved past it, or has
 *   ended: Cancelled or Expired) and has lines on a finalized (Open or Paid) invoice. Lines, not
 *   invoices, name the subscription and period they bill (a consolidated invoice carries several
 *   subscriptions). A period whose only invoices are Drafts or Void is not invoiced. A finalized
 *   invoice of the still open period (progressive billing) does not make later events late: the
 *   period's next Draft rates it cumulatively and picks them up.
 * Without a subscription_id the event counts towards every subscription of its customer, so it is
 * late when that holds for any of them. The invoiced periods are looked at only for timestamps
 * before the end of the latest one, so events of the open period (the hot path) skip them.
 * `insertWhen` decides between all-or-nothing (a batch request) and each event on its own
 * (coalesced single-event requests). `guarded` adds the check that lets a batch commit in this one
 * statement (see storeEvents).
 */
const storeEventsSql = (insertWhen: string, result: string, guarded = false) => `
-- $1 the events (JSON), $2 now, $3 the future skew in ms; the distinct ids as arrays, so each
-- lookup is an index scan whatever the planner guesses of $1: $4 customers, $5 subscriptions,
-- $6 customers of events without a subscription_id.
WITH input AS (
  SELECT * FROM json_to_recordset($1::json) AS e(
    idx int, id text, event_type text, customer_id uuid, subscription_id uuid,
    occurred_at timestamptz, properties jsonb, source text)
),
relevant AS MATERIALIZED (
  SELECT s.id, s.customer_id, s.period_start, s.status, s.charged_through_date
  FROM subscriptions s WHERE s.id = ANY($5::uuid[]) OR s.customer_id = ANY($6::uuid[])
),
invoiced AS MATERIALIZED (
  SELECT DISTINCT r.id AS subscription_id, r.customer_id, b.period_start, b.period_end
  FROM relevant r CROSS JOIN LATERAL (
    SELECT l.period_start, l.period_end
    FROM invoice_line_items l JOIN invoices v ON v.id = l.invoice_id
    WHERE l.subscription_id = r.id AND v.status IN ('Open', 'Paid') AND l.period_start IS NOT NULL AND l.period_end IS NOT NULL
      AND (l.period_end <= r.period_start OR r.status IN ('Cancelled', 'Expired'))) b
),
customer AS MATERIALIZED (
  SELECT c.id, COALESCE(tc.frozen_time, $2::timestamptz) AS now_at,
         (SELECT max(r.charged_through_date) FROM relevant r WHERE r.customer_id = c.id) AS charged_through,
         (SELECT max(p.period_end) FROM invoiced p WHERE p.customer_id = c.id) AS invoiced_until
  FROM customers c LEFT JOIN test_clocks tc ON tc.id = c.test_clock_id
  WHERE c.id = ANY($4::uuid[])
),
subscription AS MATERIALIZED (
  SELECT r.id, r.customer_id, r.charged_through_date AS charged_through,
         (SELECT max(p.period_end) FROM invoiced p WHERE p.subscription_id = r.id) AS invoiced_until
  FROM relevant r
  WHERE r.id = ANY($5::uuid[])
),
timed AS (
  SELECT i.*, c.id AS known_customer, c.now_at, s.id AS known_subscription, s.customer_id AS subscription_customer,
         COALESCE(i.occurred_at, c.now_at) AS at,
         CASE WHEN i.subscription_id IS NULL THEN c.charged_through ELSE s.charged_through END AS charged_through,
         CASE WHEN i.subscription_id IS NULL THEN c.invoiced_until ELSE s.invoiced_until END AS invoiced_until
  FROM input i
  LEFT JOIN customer c ON c.id = i.customer_id
  LEFT JOIN subscription s ON s.id = i.subscription_id
),
checked AS (
  SELECT t.idx, t.id, t.event_type, t.customer_id, t.subscription_id, t.properties, t.source, t.now_at, t.at AS occurred_at,
         CASE
           WHEN t.known_customer IS NULL THEN 'customer_not_found'
           WHEN t.subscription_id IS NOT NULL AND t.known_subscription IS NULL THEN 'subscription_not_found'
           WHEN t.subscription_id IS NOT NULL AND t.subscription_customer <> t.customer_id THEN 'subscription_customer_mismatch'
           WHEN t.occurred_at > t.now_at + $3::bigint * interval '1 millisecond' THEN 'timestamp_in_future'
         END AS problem,
         CASE
           WHEN t.at < t.charged_through THEN true
           WHEN t.at < t.invoiced_until THEN EXISTS (
             SELECT 1 FROM invoiced p
             WHERE (CASE WHEN t.subscription_id IS NULL THEN p.customer_id = t.customer_id ELSE p.subscription_id = t.subscription_id END)
               AND t.at >= p.period_start AND t.at < p.period_end)
           ELSE false
         END AS late
  FROM timed t
),
stored AS (
  INSERT INTO usage_events (id, event_type, customer_id, subscription_id, occurred_at, properties, source, late)
  SELECT id, event_type, customer_id, subscription_id, occurred_at, properties, source, late
  FROM checked
  WHERE ${insertWhen}
  -- In id order: concurrent statements meeting the same ids (re-sent batches in another order) then
  -- wait on each other in one order and never deadlock; the first copy of an id (by idx) wins.
  ORDER BY id COLLATE "C", idx
  ON CONFLICT (id) DO NOTHING
  RETURNING id, late, customer_id
)${guarded ? SKIPPED_CTE(insertWhen) : ''}
SELECT ${result},
       (SELECT json_agg(json_build_object('index', idx, 'id', id, 'problem', problem, 'now_at', now_at) ORDER BY idx)
          FROM checked WHERE problem IS NOT NULL) AS problems${guarded ? UNPROVEN_GUARD : ''}`;

/**
 * The rows meant to be inserted that this statement did not store for their own customer: ids
 * stored already, and copies of one id for several customers. Looked for only when fewer rows were
 * stored than meant to be (never on the hot path); materialized, so the lookups below stay index
 * probes for these few rows.
 */
const SKIPPED_CTE = (insertWhen: string) => `,
skipped AS MATERIALIZED (
  SELECT k.id, k.customer_id FROM checked k
  WHERE (SELECT count(*) FROM stored) < (SELECT count(*) FROM checked WHERE ${insertWhen})
    AND ${insertWhen} AND NOT EXISTS (SELECT 1 FROM stored s WHERE s.id = k.id AND s.customer_id = k.customer_id)
)`;

/**
 * Aborts the statement (SQLSTATE UE001, nothing stored) unless every skipped row is the same
 * customer's event in this statement's snapshot. A row committed while the insert waited on it is
 * not in that snapshot, so it is never taken for a duplicate here.
 */
const UNPROVEN_GUARD = `,
       usage_events_abort_unproven((SELECT count(*) FROM skipped k
         WHERE NOT EXISTS (SELECT 1 FROM usage_events e WHERE e.id = k.id AND e.customer_id = k.customer_id))) AS unproven`;

/** SQLSTATE raised by usage_events_abort_unproven (its migration says why). */
const UNPROVEN_SKIPS = 'UE001';

const ALL_OR_NOTHING = 'NOT EXISTS (SELECT 1 FROM checked WHERE problem IS NOT NULL)';
const ACCEPTED_AND_LATE = '(SELECT count(*) FROM stored)::int AS accepted, (SELECT count(*) FROM stored WHERE late)::int AS late';
const STORE_ALL_OR_NOTHING_SQL = storeEventsSql(ALL_OR_NOTHING, ACCEPTED_AND_LATE, true);
const STORE_ALL_OR_NOTHING_IN_TRANSACTION_SQL = storeEventsSql(ALL_OR_NOTHING, ACCEPTED_AND_LATE);
const STORE_EACH_SQL = storeEventsSql(
  'problem IS NULL',
  "(SELECT COALESCE(json_agg(json_build_array(id, late, customer_id)), '[]') FROM stored) AS stored",
);

/** The parameters of storeEventsSql. */
function storeValues(rows: EventRow[], now: Date, maxFutureSkewMs: number): unknown[] {
  const customers = new Set<string>();
  const subscriptions = new Set<string>();
  const unattributed = new Set<string>();
  for (const row of rows) {
    customers.add(row.customer_id);
    if (row.subscription_id === null) unattributed.add(row.customer_id);
    else subscriptions.add(row.subscription_id);
  }
  return [JSON.stringify(rows), now, maxFutureSkewMs, [...customers], [...subscriptions], [...unattributed]];
}

/**
 * Event ids are global (SPEC: deduplicated by event id), so an id can already belong to ANOTHER
 * customer's event. Such an event is not a duplicate (it would be dropped silently): it is an
 * `event_id_conflict`. Copies of one id for different customers within one request are conflicts
 * too: the first customer's copy is the one that would be stored.
 */
function copiesOfOtherCustomers(rows: EventRow[], problems: EventProblem[]): EventProblem[] {
  const refused = new Set(problems.map((p) => p.index));
  const owner = new Map<string, string>();
  const conflicts: EventProblem[] = [];
  for (const row of rows) {
    if (refused.has(row.idx)) continue;
    const first = owner.get(row.id);
    if (first === undefined) owner.set(row.id, row.customer_id);
    else if (first.toLowerCase() !== row.customer_id.toLowerCase()) conflicts.push({ index: row.idx, id: row.id, problem: 'event_id_conflict', now_at: null });
  }
  return conflicts;
}

/**
 * Rows whose id is stored for another customer. Run after the insert, as a new statement: under READ
 * COMMITTED it sees rows committed while the insert ran (ON CONFLICT waited for them), which the
 * insert's own snapshot did not.
 */
async function storedForOtherCustomers(client: pg.Pool | pg.PoolClient, rows: EventRow[]): Promise<EventProblem[]> {
  if (rows.length === 0) return [];
  const result = await client.query<{ idx: number; id: string }>({
    name: 'usage_events_foreign_ids',
    text: `SELECT i.idx, i.id FROM json_to_recordset($1::json) AS i(idx int, id text, customer_id uuid)
           JOIN usage_events e ON e.id = i.id WHERE e.customer_id <> i.customer_id ORDER BY i.idx`,
    values: [JSON.stringify(rows.map((r) => ({ idx: r.idx, id: r.id, customer_id: r.customer_id })))],
  });
  return result.rows.map((r) => ({ index: r.idx, id: r.id, problem: 'event_id_conflict' as const, now_at: null }));
}

/** One problem per event (the first found), in request order. */
function byIndex(problems: EventProblem[]): EventProblem[] {
  const seen = new Map<number, EventProblem>();
  for (const problem of problems) if (!seen.has(problem.index)) seen.set(problem.index, problem);
  return [...seen.values()].sort((a, b) => a.index - b.index);
}

/** What the batch statement answers. */
interface StoreRow {
  accepted: number;
  late: number;
  problems: EventProblem[] | null;
}

/** Every problem of a refused batch, ids stored for other customers included, in request order. */
async function batchProblems(client: pg.Pool | pg.PoolClient, rows: EventRow[], found: EventProblem[]): Promise<EventProblem[]> {
  const problems = [...found, ...copiesOfOtherCustomers(rows, found)];
  const refused = new Set(problems.map((p) => p.index));
  problems.push(...(await storedForOtherCustomers(client, rows.filter((r) => !refused.has(r.idx)))));
  return byIndex(problems);
}

/**
 * Stores the events unless one of them has a problem (all or nothing); duplicates of ids the same
 * customer already stored are skipped. Usually ONE autocommitted statement: a batch of new ids (the
 * hot path) or of ids this customer stored before commits in the round trip that inserts it, with
 * no transaction held open across the API's event loop. A statement that cannot show every skipped
 * id to be the customer's own aborts itself, and the batch re-runs in storeEventsInTransaction.
 */
export async function storeEvents(pool: pg.Pool, rows: EventRow[], now: Date, maxFutureSkewMs: number): Promise<StoreOutcome> {
  let row: StoreRow;
  try {
    const result = await pool.query<StoreRow>({
      name: 'usage_events_store',
      text: STORE_ALL_OR_NOTHING_SQL,
      values: storeValues(rows, now, maxFutureSkewMs),
    });
    row = result.rows[0]!;
  } catch (err) {
    if ((err as { code?: unknown }).code === UNPROVEN_SKIPS) return storeEventsInTransaction(pool, rows, now, maxFutureSkewMs);
    throw err;
  }
  if (row.problems === null) return { accepted: row.accepted, late: row.late, problems: [] };
  // Refused: the statement stored nothing, so the rest of the report needs no transaction.
  return { accepted: 0, late: 0, problems: await batchProblems(pool, rows, row.problems) };
}

/**
 * storeEvents when some skipped id is not provably the customer's own: the insert, then, when some
 * id was not stored, the check that no skipped id belongs to another customer, in one transaction
 * (a conflict rolls everything back).
 */
async function storeEventsInTransaction(pool: pg.Pool, rows: EventRow[], now: Date, maxFutureSkewMs: number): Promise<StoreOutcome> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await client.query<StoreRow>({
      name: 'usage_events_store_in_transaction',
      text: STORE_ALL_OR_NOTHING_IN_TRANSACTION_SQL,
      values: storeValues(rows, now, maxFutureSkewMs),
    });
    const row = result.rows[0]!;
    const problems = [...(row.problems ?? [])];
    problems.push(...copiesOfOtherCustomers(rows, problems));
    if (problems.length > 0 || row.accepted < new Set(rows.map((r) => r.id)).size) {
      const refused = new Set(problems.map((p) => p.index));
      problems.push(...(await storedForOtherCustomers(client, rows.filter((r) => !refused.has(r.idx)))));
    }
    if (problems.length > 0) {
      await client.query('ROLLBACK');
      return { accepted: 0, late: 0, problems: byIndex(problems) };
    }
    await client.query('COMMIT');
    return { accepted: row.accepted, late: row.late, problems: [] };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

export interface EachOutcome {
  /** Ids this statement stored, with their late flags and the customer they were stored for. */
  stored: Map<string, { late: boolean; customerId: string }>;
  problems: EventProblem[];
}

/**
 * Stores every event that has no problem, each on its own; duplicates of ids the same customer
 * already stored are skipped, ids stored for another customer are event_id_conflict problems.
 */
export async function storeEachEvent(pool: pg.Pool, rows: EventRow[], now: Date, maxFutureSkewMs: number): Promise<EachOutcome> {
  const result = await pool.query<{ stored: [string, boolean, string][]; problems: EventProblem[] | null }>({
    name: 'usage_events_store_each',
    text: STORE_EACH_SQL,
    values: storeValues(rows, now, maxFutureSkewMs),
  });
  const row = result.rows[0]!;
  const stored = new Map(row.stored.map(([id, late, customerId]) => [id, { late, customerId }]));
  const problems = row.problems ?? [];
  const refused = new Set(problems.map((p) => p.index));
  const skipped = rows.filter((r) => !refused.has(r.idx) && stored.get(r.id)?.customerId.toLowerCase() !== r.customer_id.toLowerCase());
  return { stored, problems: byIndex([...problems, ...(await storedForOtherCustomers(pool, skipped))]) };
}

// ── Aggregators ──────────────────────────────────────────────────────────────────────────────

export type FilterOperator = 'Equals' | 'NotEquals' | 'GreaterThan' | 'GreaterThanOrEqual' | 'LessThan' | 'LessThanOrEqual' | 'In';
export type FilterScalar = string | number | boolean;

export interface MeterFilter {
  property: string;
  operator: FilterOperator;
  value: FilterScalar | FilterScalar[];
}

/**
 * What one rollup series aggregates: a meter, or the default of an event type without a meter
 * (the event's `quantity` property when it is numeric, else 1; summed).
 */
export type AggregatorSpec =
  | { kind: 'default'; eventType: string }
  | {
      kind: 'meter';
      meterId: string;
      eventType: string;
      aggregation: MeterAggregation;
      property: string | null;
      filters: MeterFilter[];
    };

/** The aggregator of a meter row. */
export function meterSpec(row: { id: string; eventType: string; aggregation: MeterAggregation; property: string | null; filters: unknown }): AggregatorSpec {
  return { kind: 'meter', meterId: row.id, eventType: row.eventType, aggregation: row.aggregation, property: row.property, filters: row.filters as MeterFilter[] };
}

export const rollupKey = (spec: AggregatorSpec): string => (spec.kind === 'default' ? `default:${spec.eventType}` : spec.meterId);
export const cursorKey = (spec: AggregatorSpec): string => (spec.kind === 'default' ? DEFAULT_CURSOR : spec.meterId);

const prop = (property: string) => Prisma.sql`e.properties -> ${property}::text`;

/** What an event contributes to the default aggregator of its type. */
const DEFAULT_VALUE = Prisma.sql`COALESCE(usage_numeric(e.properties -> 'quantity'), 1)`;

/** Numbers never pass as floats: their shortest decimal text becomes a numeric. */
const numeric = (value: number | string) => Prisma.sql`${String(value)}::numeric`;

/**
 * Equality by the filter value's type: a number compares numerically with numbers and decimal
 * strings; a string with the text of strings and numbers; a boolean with booleans only.
 */
function equalsSql(x: Prisma.Sql, value: FilterScalar): Prisma.Sql {
  if (typeof value === 'number') return Prisma.sql`usage_numeric(${x}) = ${numeric(value)}`;
  if (typeof value === 'boolean') return Prisma.sql`${x} = ${value ? 'true' : 'false'}::jsonb`;
  return Prisma.sql`(jsonb_typeof(${x}) IN ('string', 'number') AND ${x} #>> '{}' = ${value}::text)`;
}

const ORDERING: Record<string, string> = { GreaterThan: '>', GreaterThanOrEqual: '>=', LessThan: '<', LessThanOrEqual: '<=' };

export function filterSql(filter: MeterFilter): Prisma.Sql {
  const x = prop(filter.property);
  const scalar = filter.value as FilterScalar;
  switch (filter.operator) {
    case 'Equals':
      return equalsSql(x, scalar);
    case 'NotEquals':
      // Events without the property are "not equal" too.
      return Prisma.sql`(${equalsSql(x, scalar)}) IS NOT TRUE`;
    case 'In':
      return Prisma.sql`(${Prisma.join((filter.value as FilterScalar[]).map((v) => equalsSql(x, v)), ' OR ')})`;
    default:
      return Prisma.sql`usage_numeric(${x}) ${Prisma.raw(ORDERING[filter.operator]!)} ${numeric(scalar as number | string)}`;
  }
}

function matchSql(spec: AggregatorSpec): Prisma.Sql {
  const conditions = [Prisma.sql`e.event_type = ${spec.eventType}::text`];
  if (spec.kind === 'meter') conditions.push(...spec.filters.map(filterSql));
  return Prisma.join(conditions, ' AND ');
}

// ── Rollups ──────────────────────────────────────────────────────────────────────────────────

const FIVE_MINUTE_BUCKET = Prisma.sql`date_bin('5 minutes', e.occurred_at, TIMESTAMPTZ 'epoch')`;
const HOUR_BUCKET = Prisma.sql`date_bin('1 hour', e.occurred_at, TIMESTAMPTZ 'epoch')`;
const DAY_BUCKET = Prisma.sql`date_bin('1 day', e.occurred_at, TIMESTAMPTZ 'epoch')`;
/** Rollup rows of every granularity from one aggregation pass (GROUPING SETS). */
const BUCKET_SETS = Prisma.sql`GROUPING SETS ((e.five_start), (e.hour_start), (e.day_start))`;
const GRANULARITY = Prisma.sql`CASE WHEN GROUPING(e.five_start) = 0 THEN 5 WHEN GROUPING(e.hour_start) = 0 THEN 60 ELSE 1440 END`;
const BUCKET = Prisma.sql`COALESCE(e.five_start, e.hour_start, e.day_start)`;
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
async function rollRange(client: pg.PoolClient, specs: AggregatorSpec[], lo: bigint, hi: bigint): Promise<void> {
  const meters = specs.filter((s): s is AggregatorSpec & { kind: 'meter' } => s.kind === 'meter');
  const properties = [...new Set(meters.flatMap((m) => (m.property === null ? [] : [m.property])))];
  const column = (property: string) => Prisma.raw(`n${properties.indexOf(property)}`);
  const needsProperties = meters.some((m) => m.filters.length > 0 || m.aggregation === 'UniqueCount');
  const columns = [
    Prisma.sql`e.id, e.event_type, e.customer_id, COALESCE(e.subscription_id, ${NO_SUBSCRIPTION}::uuid) AS subscription_key,
               ${FIVE_MINUTE_BUCKET} AS five_start, ${HOUR_BUCKET} AS hour_start, ${DAY_BUCKET} AS day_start, e.late, e.occurred_at`,
    ...(meters.some((m) => m.aggregation === 'WeightedSum') ? [Prisma.sql`${EPOCH_MS} AS t_ms`] : []),
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
      aggregation === 'Latest' ? Prisma.sql`(array_agg(${expression} ORDER BY e.occurred_at DESC, e.id DESC) FILTER (WHERE ${v} IS NOT NULL))[1]` : Prisma.sql`NULL`;
    statements.push(Prisma.sql`
      INSERT INTO usage_rollups AS r (aggregator, customer_id, subscription_key, granularity, bucket_start, event_count, late_count,
                                      value_sum, value_max, weighted_sum, latest_at, latest_id, latest_value)
      SELECT ${spec.meterId}::text, e.customer_id, e.subscription_key, ${GRANULARITY}, ${BUCKET}, count(*), count(*) FILTER (WHERE e.late),
             ${aggregation === 'Sum' || aggregation === 'WeightedSum' ? Prisma.sql`sum(${v})` : Prisma.sql`NULL`},
             ${aggregation === 'Max' ? Prisma.sql`max(${v})` : Prisma.sql`NULL`},
             ${aggregation === 'WeightedSum' ? Prisma.sql`sum(${v} * e.t_ms)` : Prisma.sql`NULL`},
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
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
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

/** Every meter as the aggregator its rollups follow. */
export async function readMeterSpecs(pool: pg.Pool): Promise<AggregatorSpec[]> {
  const rows = await run<{ id: string; event_type: string; aggregation: MeterAggregation; property: string | null; filters: MeterFilter[] }>(
    pool,
    Prisma.sql`SELECT id::text, event_type, aggregation::text, property, filters FROM meters ORDER BY id`,
  );
  return rows.map((r) => meterSpec({ id: r.id, eventType: r.event_type, aggregation: r.aggregation, property: r.property, filters: r.filters }));
}

/**
 * One rollup pass over the given aggregators (every meter, plus the defaults' shared cursor), up to
 * the settled horizon. Aggregators whose cursors stand at the same position advance together over
 * one scan; a lagging one (a new meter backfilling) catches up chunk by chunk until it joins them.
 * Safe to run from several processes at once: each step locks the cursor rows first.
 */
export async function rollUpUsage(pool: pg.Pool, specs: AggregatorSpec[], options: RollupOptions = {}): Promise<RollupPassOutcome> {
  const chunk = options.chunk ?? 100_000n;
  const byCursor = new Map<string, AggregatorSpec>();
  for (const spec of specs) if (!byCursor.has(cursorKey(spec))) byCursor.set(cursorKey(spec), spec);
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

// ── Reads ────────────────────────────────────────────────────────────────────────────────────

/**
 * Runs one read statement. Reads select only text (and text[]) columns, so both ways give the same rows:
 * through Prisma (activities hold only the client) or straight on the pg pool, which spares the
 * API's hot read path Prisma's per-query overhead.
 */
export type SqlReader = <T>(sql: Prisma.Sql) => Promise<T[]>;

export const prismaReader =
  (db: Db): SqlReader =>
  <T>(sql: Prisma.Sql) =>
    db.$queryRaw<T[]>(sql);

export const poolReader =
  (pool: pg.Pool): SqlReader =>
  async <T>(sql: Prisma.Sql) =>
    (await pool.query(sql.text, sql.values)).rows as T[];

/** Cursor positions for reads (the hints of readAggregates). */
export async function readCursors(read: SqlReader, keys: string[]): Promise<Map<string, bigint>> {
  const rows = await read<{ aggregator: string; position: string }>(Prisma.sql`
    SELECT aggregator, position::text AS position FROM usage_rollup_cursors WHERE aggregator = ANY(${keys}::text[])`);
  return new Map(rows.map((r) => [r.aggregator, BigInt(r.position)]));
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
  /** The plan's metered event types, sorted. */
  event_types: string[];
  /** Meters of those event types, by event type then creation. */
  meters: MeterRecord[];
  /** Rollup cursor positions of those meters and of the defaults (the read hints). */
  cursors: Map<string, bigint>;
}

const epochMs = (column: Prisma.Sql) => Prisma.sql`floor(extract(epoch FROM ${column}) * 1000)::text`;

/** A subscription with everything its usage summary needs, in one statement. */
export async function readUsageSubject(read: SqlReader, subscriptionId: string): Promise<UsageSubject | undefined> {
  const [row] = await read<Record<string, string | string[] | null>>(Prisma.sql`
    WITH s AS (
      SELECT s.*, p.billing_cadence, tc.frozen_time,
             ARRAY(SELECT DISTINCT k.meter_event_type FROM skus k WHERE k.plan_id = s.plan_id AND k.meter_event_type IS NOT NULL
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
                        OR c.aggregator IN (SELECT m.id::text FROM meters m WHERE m.event_type = ANY(s.event_types))), '{}')::text AS cursors
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
  };
}

export interface Scope {
  customerId: string;
  /** Events of this subscription, plus the customer's events sent without a subscription_id. */
  subscriptionId: string;
}

/** [from, to); from null means "since the beginning" (the level before a WeightedSum window). */
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
  /** Σ value × epoch milliseconds (WeightedSum). */
  weighted: string | null;
  /** Latest only. */
  latest: string | null;
  /** UniqueCount only: number of distinct values. */
  distinct: bigint | null;
}

export interface Span {
  /** null: since the beginning. */
  from: Date | null;
  to: Date;
}

export interface RollupSpan extends Span {
  /** Bucket size in minutes (one of GRANULARITIES). */
  granularity: number;
}

const floorTo = (ms: number, size: number) => Math.floor(ms / size) * size;
const ceilTo = (ms: number, size: number) => Math.ceil(ms / size) * size;

/**
 * How a range is read: raw events at the edges (less than 5 minutes each), then rollups, coarsest
 * first: whole UTC days inside, whole hours around them, whole 5-minute buckets around those.
 * Together they cover the range exactly once; `rolled` is the span the rollups cover, inside which
 * events after the cursor are read raw.
 */
export function rollupSpans(range: Range): { edges: Span[]; rolled: Span | null; spans: RollupSpan[] } {
  const finest = GRANULARITIES[0] * MINUTE_MS;
  let lo = range.from === null ? null : ceilTo(range.from.getTime(), finest);
  let hi = floorTo(range.to.getTime(), finest);
  if (lo !== null && lo >= hi) return { edges: [{ from: range.from, to: range.to }], rolled: null, spans: [] };
  const edges: Span[] = [];
  if (range.from !== null && lo !== null && range.from.getTime() < lo) edges.push({ from: range.from, to: new Date(lo) });
  if (hi < range.to.getTime()) edges.push({ from: new Date(hi), to: range.to });
  const rolled = { from: lo === null ? null : new Date(lo), to: new Date(hi) };
  const spans: RollupSpan[] = [];
  let level = 0;
  for (let next = 1; next < GRANULARITIES.length; next += 1) {
    const size = GRANULARITIES[next]! * MINUTE_MS;
    const nextLo = lo === null ? null : ceilTo(lo, size);
    const nextHi = floorTo(hi, size);
    if (nextLo !== null && nextLo >= nextHi) break;
    const granularity = GRANULARITIES[level]!;
    if (lo !== null && nextLo !== null && lo < nextLo) spans.push({ granularity, from: new Date(lo), to: new Date(nextLo) });
    if (nextHi < hi) spans.push({ granularity, from: new Date(nextHi), to: new Date(hi) });
    [lo, hi, level] = [nextLo, nextHi, next];
  }
  spans.push({ granularity: GRANULARITIES[level]!, from: lo === null ? null : new Date(lo), to: new Date(hi) });
  return { edges, rolled, spans };
}

function scopeSql(scope: Scope): Prisma.Sql {
  return Prisma.sql`e.customer_id = ${scope.customerId}::uuid AND (e.subscription_id = ${scope.subscriptionId}::uuid OR e.subscription_id IS NULL)`;
}

const ts = (d: Date) => Prisma.sql`${d.toISOString()}::timestamptz`;

const spanSql = (column: Prisma.Sql, span: Span) =>
  span.from === null ? Prisma.sql`${column} < ${ts(span.to)}` : Prisma.sql`${column} >= ${ts(span.from)} AND ${column} < ${ts(span.to)}`;

/**
 * Where the raw events of a range come from: its edges, read through the scope index, and inside
 * the rolled-up span the events after the cursors, read from the `tail` CTE.
 */
function rawParts(range: Range): { from: Prisma.Sql; condition: Prisma.Sql; fromTail: boolean }[] {
  const { edges, rolled } = rollupSpans(range);
  const parts = edges.map((span) => ({ from: Prisma.sql`usage_events e`, condition: spanSql(Prisma.sql`e.occurred_at`, span), fromTail: false }));
  if (rolled) parts.push({ from: Prisma.sql`tail e`, condition: spanSql(Prisma.sql`e.occurred_at`, rolled), fromTail: true });
  return parts;
}

/**
 * Rollup rows of the range (see rollupSpans). One SELECT per span, each a range scan of the primary
 * key (an OR across spans would make the scan read every bucket of the customer and filter).
 */
function rolledRows(table: 'usage_rollups' | 'usage_rollup_values', columns: Prisma.Sql, where: Prisma.Sql, range: Range): Prisma.Sql {
  const selects = rollupSpans(range).spans.map(
    (span) =>
      Prisma.sql`SELECT ${columns} FROM ${Prisma.raw(table)} r WHERE ${where} AND r.granularity = ${Prisma.raw(String(span.granularity))} AND ${spanSql(Prisma.sql`r.bucket_start`, span)}`,
  );
  return selects.length > 0 ? Prisma.join(selects, ' UNION ALL ') : Prisma.sql`SELECT ${columns} FROM ${Prisma.raw(table)} r WHERE false`;
}

const rolledScope = (scope: Scope) =>
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

async function readAggregateGroup(read: SqlReader, specs: AggregatorSpec[], scope: Scope, range: Range, hints: Map<string, bigint>): Promise<Partials[]> {
  if (specs.length === 0) return [];
  const cursorKeys = [...new Set(specs.map(cursorKey))];
  const minHint = cursorKeys.reduce((min, key) => {
    const hint = hints.get(key) ?? 0n;
    return min === undefined || hint < min ? hint : min;
  }, undefined as bigint | undefined)!;
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
  const col = (name: string, i: number) => Prisma.raw(`${name}${i}`);
  const aggregationOf = (spec: AggregatorSpec): MeterAggregation => (spec.kind === 'default' ? 'Sum' : spec.aggregation);

  // Each property's numeric value is computed once per event, whatever the number of meters reading it.
  const properties = [...new Set(specs.flatMap((s) => (s.kind === 'meter' && s.property !== null ? [s.property] : [])))];
  const valueOf = (spec: AggregatorSpec): Prisma.Sql =>
    spec.kind === 'default' ? Prisma.raw('q') : spec.property === null ? Prisma.sql`NULL::numeric` : col('p', properties.indexOf(spec.property));
  const perEvent = [
    ...(specs.some((s) => s.kind === 'meter' && s.aggregation === 'WeightedSum') ? [Prisma.sql`extract(epoch FROM e.occurred_at) * 1000 AS t_ms`] : []),
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
      aggregation === 'Sum' || aggregation === 'WeightedSum' ? Prisma.sql`sum(${v}) FILTER (WHERE ${c}) AS ${col('s', i)}` : Prisma.sql`NULL::numeric AS ${col('s', i)}`,
      aggregation === 'Max' ? Prisma.sql`max(${v}) FILTER (WHERE ${c}) AS ${col('m', i)}` : Prisma.sql`NULL::numeric AS ${col('m', i)}`,
      aggregation === 'WeightedSum' ? Prisma.sql`sum(${v} * t_ms) FILTER (WHERE ${c}) AS ${col('w', i)}` : Prisma.sql`NULL::numeric AS ${col('w', i)}`,
    ];
  });
  const rolledOf = (i: number, column: string) =>
    Prisma.sql`(SELECT ${Prisma.raw(column)} FROM rolled WHERE aggregator = ${rollupKey(specs[i]!)}::text)`;
  const results = specs.map((spec, i) => {
    const aggregation = aggregationOf(spec);
    const [c, v] = [col('c', i), valueOf(spec)];
    const key = rollupKey(spec);
    const latest =
      aggregation === 'Latest'
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
  const [row] = await read<{ result: string }>(Prisma.sql`
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
      GROUP BY r.aggregator)
    SELECT json_build_array(${Prisma.join(results, ', ')})::text AS result FROM agg`);
  const parsed = JSON.parse(row!.result) as { count: string; late: string; sum: string | null; max: string | null; weighted: string | null; latest: string | null; distinct: string | null }[];
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
