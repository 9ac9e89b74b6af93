/**
 * The usage event store: ingestion, the metering hot path, in SQL on the pg pool.
 *
 * - Ingestion is ONE statement per request (storeEvents) or per group of coalesced single events
 *   (storeEachEvent): it checks every event's references, computes its late flag and inserts with
 *   ON CONFLICT (id) DO NOTHING. The unique constraint is the deduplication: concurrent copies of
 *   one id store exactly one row, and an insert that fails leaves nothing behind that could later
 *   count as "seen". An id skipped as stored already may belong to another customer
 *   (event_id_conflict). A batch's statement commits on its own when it can show every skipped id
 *   is the same customer's event; otherwise it aborts itself and the batch re-runs in a transaction
 *   whose second statement looks at the skipped ids (a conflict leaves nothing stored).
 */
import type pg from 'pg';
import { withPooledClient } from '../client.js';

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
  /**
   * The largest |value| among the properties meters read, as a decimal string (null: none), added
   * to its customer's month in usage_quantity_totals, whose CHECK bounds it (quantityBoundOf).
   */
  magnitude: string | null;
}

export type EventProblemCode =
  | 'customer_not_found'
  | 'subscription_not_found'
  | 'subscription_customer_mismatch'
  | 'timestamp_in_future'
  | 'timestamp_too_old'
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
  /** Stored events no subscription period covers (see storeEventsSql). */
  unbillable: number;
  problems: EventProblem[];
}

/** What decides which events are taken: the time now, and how far ahead of and behind it an event may be. */
export interface StoreLimits {
  now: Date;
  maxFutureSkewMs: number;
  /** Events more than this many days before the customer's now are refused (timestamp_too_old). */
  lateUsageMaxDays: number;
}

/**
 * One statement: reference checks, late flags, billability and the insert. The customer's "now" is
 * its test clock's frozen time when it is on one, so sandbox customers can send events in simulated
 * time; it is also the event's received_at (arrival order itself is `seq`).
 *
 * The subscriptions an event counts towards (the one it names, else every subscription of its
 * customer) are locked FOR KEY SHARE until the statement's transaction ends. A period close takes
 * its subscription FOR UPDATE for the whole close, so an event either commits before the close reads
 * the period's usage (and is billed by it), or waits for the close to commit and then reads the
 * subscription as the close left it (the row lock returns its latest version): its period is closed,
 * and the event is stored LATE. There is no window in between. Late events are billed afterwards as
 * prior-period adjustments (services/billing/late-usage.ts).
 *
 * An event is LATE when its timestamp falls in a period of the subscription that is already closed:
 * before its closed_through (every close sets it, also a final close, which moves no period), before
 * its current period, before its charged_through_date, or in its last period once it has Expired.
 * Without a subscription_id the event is late when that holds for any subscription of its customer.
 *
 * An event no subscription period covers is stored but UNBILLABLE, with the reason: its customer has
 * no subscription (`no_subscription`), its timestamp is before the subscription started
 * (`before_subscription_start`), after its last period (`after_subscription_end`), or in its trial
 * (`in_trial`: trials bill nothing). Without a subscription_id it is billable when any subscription
 * of its customer covers it.
 *
 * Events older than the lateness limit ($7 days before the customer's now) are refused.
 * `insertWhen` decides between all-or-nothing (a batch request) and each event on its own
 * (coalesced single-event requests). `guarded` adds the check that lets a batch commit in this one
 * statement (see storeEvents).
 */
const storeEventsSql = (insertWhen: string, result: string, guarded = false) => `
-- $1 the events (JSON), $2 now, $3 the future skew in ms; the distinct ids as arrays, so each
-- lookup is an index scan whatever the planner guesses of $1: $4 customers, $5 subscriptions,
-- $6 customers of events without a subscription_id; $7 the lateness limit in days.
WITH input AS (
  SELECT * FROM json_to_recordset($1::json) AS e(
    idx int, id text, event_type text, customer_id uuid, subscription_id uuid,
    occurred_at timestamptz, properties jsonb, source text, magnitude numeric)
),
relevant AS MATERIALIZED (
  SELECT s.id, s.customer_id, s.period_start, s.period_end, s.status, s.charged_through_date, s.closed_through, s.trial_end
  FROM subscriptions s WHERE s.id = ANY($5::uuid[]) OR s.customer_id = ANY($6::uuid[])
  ORDER BY s.id
  FOR KEY SHARE OF s
),
customer AS MATERIALIZED (
  SELECT c.id, COALESCE(tc.frozen_time, $2::timestamptz) AS now_at
  FROM customers c LEFT JOIN test_clocks tc ON tc.id = c.test_clock_id
  -- A one-time filter: every relevant subscription is locked before any event is looked at.
  WHERE c.id = ANY($4::uuid[]) AND (SELECT count(*) FROM relevant) >= 0
),
timed AS (
  SELECT i.*, c.id AS known_customer, c.now_at, s.id AS known_subscription, s.customer_id AS subscription_customer,
         COALESCE(i.occurred_at, c.now_at) AS at
  FROM input i
  LEFT JOIN customer c ON c.id = i.customer_id
  LEFT JOIN relevant s ON s.id = i.subscription_id
),
-- Each event with every subscription it counts towards (one hash join each way).
applicable AS (
  SELECT t.idx, t.at, r.id AS subscription_id, r.status, r.period_start, r.period_end, r.charged_through_date, r.closed_through, r.trial_end
  FROM timed t JOIN relevant r ON r.id = t.subscription_id AND r.customer_id = t.customer_id
  UNION ALL
  SELECT t.idx, t.at, r.id, r.status, r.period_start, r.period_end, r.charged_through_date, r.closed_through, r.trial_end
  FROM timed t JOIN relevant r ON r.customer_id = t.customer_id
  WHERE t.subscription_id IS NULL
),
judged AS (
  SELECT a.idx,
         CASE
           WHEN a.status IN ('Cancelled', 'Expired') AND a.at >= a.period_end THEN 'after_subscription_end'
           -- The first phase's start is read only for timestamps before the current period (rare).
           WHEN a.at < a.period_start AND a.at < (SELECT min(p.starts_at) FROM subscription_phases p WHERE p.subscription_id = a.subscription_id)
             THEN 'before_subscription_start'
           WHEN a.trial_end IS NOT NULL AND a.at < a.trial_end THEN 'in_trial'
         END AS reason,
         (a.at < a.period_start OR a.at < a.closed_through OR a.at < a.charged_through_date OR (a.status = 'Expired' AND a.at < a.period_end)) AS closed
  FROM applicable a
),
coverage AS (
  SELECT idx, min(reason) FILTER (WHERE NOT covered) AS reason, bool_or(covered) AS billable, bool_or(covered AND closed) AS late
  FROM (SELECT idx, reason, reason IS NULL AS covered, closed FROM judged) j
  GROUP BY idx
),
checked AS (
  SELECT t.idx, t.id, t.event_type, t.customer_id, t.subscription_id, t.properties, t.source, t.magnitude, t.now_at, t.at AS occurred_at,
         CASE
           WHEN t.known_customer IS NULL THEN 'customer_not_found'
           WHEN t.subscription_id IS NOT NULL AND t.known_subscription IS NULL THEN 'subscription_not_found'
           WHEN t.subscription_id IS NOT NULL AND t.subscription_customer <> t.customer_id THEN 'subscription_customer_mismatch'
           WHEN t.occurred_at > t.now_at + $3::bigint * interval '1 millisecond' THEN 'timestamp_in_future'
           WHEN t.occurred_at < t.now_at - $7::int * interval '1 day' THEN 'timestamp_too_old'
         END AS problem,
         COALESCE(v.late, false) AS late,
         CASE WHEN COALESCE(v.billable, false) THEN NULL ELSE COALESCE(v.reason, 'no_subscription') END AS unbillable_reason
  FROM timed t
  LEFT JOIN coverage v ON v.idx = t.idx
),
stored AS (
  INSERT INTO usage_events (id, event_type, customer_id, subscription_id, occurred_at, properties, source, late, unbillable_reason, received_at)
  SELECT id, event_type, customer_id, subscription_id, occurred_at, properties, source, late, unbillable_reason, now_at
  FROM checked
  WHERE ${insertWhen}
  -- In id order: concurrent statements meeting the same ids (re-sent batches in another order) then
  -- wait on each other in one order and never deadlock; the first copy of an id (by idx) wins.
  ORDER BY id COLLATE "C", idx
  ON CONFLICT (id) DO NOTHING
  RETURNING id, late, customer_id, unbillable_reason
),
-- The stored events' magnitudes added to their customers' months, in key order (concurrent
-- statements lock the rows in one order); the table's CHECK refuses a month past its bound, which
-- fails the statement and stores nothing of it.
counted AS (
  INSERT INTO usage_quantity_totals AS q (customer_id, month, magnitude)
  SELECT k.customer_id, (date_trunc('month', k.occurred_at AT TIME ZONE 'UTC'))::date, sum(k.magnitude)
  FROM stored s
  JOIN (SELECT DISTINCT ON (id) id, customer_id, occurred_at, magnitude FROM checked WHERE ${insertWhen} ORDER BY id, idx) k
    ON k.id = s.id AND k.customer_id = s.customer_id
  WHERE k.magnitude > 0
  GROUP BY 1, 2
  ORDER BY 1, 2
  ON CONFLICT (customer_id, month) DO UPDATE SET magnitude = q.magnitude + EXCLUDED.magnitude
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

/** The CHECK of usage_quantity_totals (its migration): a customer's month of usage past its bound. */
const QUANTITY_BOUND_CONSTRAINT = 'usage_quantity_totals_bound';

/**
 * The customer and month (YYYY-MM) whose usage a failed ingestion statement would have taken past
 * the bound, or null when the failure is something else. PostgreSQL names the failing row in the
 * error's detail: "Failing row contains (<customer>, <YYYY-MM-01>, <magnitude>)".
 */
export function quantityBoundOf(err: unknown): { customerId: string | null; month: string | null } | null {
  const e = err as { code?: unknown; constraint?: unknown; detail?: unknown };
  if (e.code !== '23514' || e.constraint !== QUANTITY_BOUND_CONSTRAINT) return null;
  const row = /\(([0-9a-f-]{36}), (\d{4}-\d{2})-01, /.exec(String(e.detail ?? ''));
  return { customerId: row?.[1] ?? null, month: row?.[2] ?? null };
}

/** SQLSTATE raised by usage_events_abort_unproven (its migration says why). */
const UNPROVEN_SKIPS = 'UE001';

const ALL_OR_NOTHING = 'NOT EXISTS (SELECT 1 FROM checked WHERE problem IS NOT NULL)';
const ACCEPTED_AND_LATE =
  '(SELECT count(*) FROM stored)::int AS accepted, (SELECT count(*) FROM stored WHERE late)::int AS late, (SELECT count(*) FROM stored WHERE unbillable_reason IS NOT NULL)::int AS unbillable';
const STORE_ALL_OR_NOTHING_SQL = storeEventsSql(ALL_OR_NOTHING, ACCEPTED_AND_LATE, true);
const STORE_ALL_OR_NOTHING_IN_TRANSACTION_SQL = storeEventsSql(ALL_OR_NOTHING, ACCEPTED_AND_LATE);
const STORE_EACH_SQL = storeEventsSql(
  'problem IS NULL',
  "(SELECT COALESCE(json_agg(json_build_array(id, late, customer_id, unbillable_reason)), '[]') FROM stored) AS stored",
);

/** The parameters of storeEventsSql. */
function storeValues(rows: EventRow[], limits: StoreLimits): unknown[] {
  const customers = new Set<string>();
  const subscriptions = new Set<string>();
  const unattributed = new Set<string>();
  for (const row of rows) {
    customers.add(row.customer_id);
    if (row.subscription_id === null) unattributed.add(row.customer_id);
    else subscriptions.add(row.subscription_id);
  }
  return [JSON.stringify(rows), limits.now, limits.maxFutureSkewMs, [...customers], [...subscriptions], [...unattributed], limits.lateUsageMaxDays];
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
  unbillable: number;
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
export async function storeEvents(pool: pg.Pool, rows: EventRow[], limits: StoreLimits): Promise<StoreOutcome> {
  let row: StoreRow;
  try {
    const result = await pool.query<StoreRow>({
      name: 'usage_events_store',
      text: STORE_ALL_OR_NOTHING_SQL,
      values: storeValues(rows, limits),
    });
    row = result.rows[0]!;
  } catch (err) {
    if ((err as { code?: unknown }).code === UNPROVEN_SKIPS) return storeEventsInTransaction(pool, rows, limits);
    throw err;
  }
  if (row.problems === null) return { accepted: row.accepted, late: row.late, unbillable: row.unbillable, problems: [] };
  // Refused: the statement stored nothing, so the rest of the report needs no transaction.
  return { accepted: 0, late: 0, unbillable: 0, problems: await batchProblems(pool, rows, row.problems) };
}

/**
 * storeEvents when some skipped id is not provably the customer's own: the insert, then, when some
 * id was not stored, the check that no skipped id belongs to another customer, in one transaction
 * (a conflict rolls everything back).
 */
async function storeEventsInTransaction(pool: pg.Pool, rows: EventRow[], limits: StoreLimits): Promise<StoreOutcome> {
  return withPooledClient(pool, async (client) => {
    try {
      await client.query('BEGIN');
      const result = await client.query<StoreRow>({
        name: 'usage_events_store_in_transaction',
        text: STORE_ALL_OR_NOTHING_IN_TRANSACTION_SQL,
        values: storeValues(rows, limits),
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
        return { accepted: 0, late: 0, unbillable: 0, problems: byIndex(problems) };
      }
      await client.query('COMMIT');
      return { accepted: row.accepted, late: row.late, unbillable: row.unbillable, problems: [] };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    }
  });
}

export interface StoredEvent {
  late: boolean;
  customerId: string;
  unbillableReason: string | null;
}

export interface EachOutcome {
  /** Ids this statement stored, with their late flags, the customer they were stored for and why they are unbillable (null: billable). */
  stored: Map<string, StoredEvent>;
  problems: EventProblem[];
}

/**
 * Stores every event that has no problem, each on its own; duplicates of ids the same customer
 * already stored are skipped, ids stored for another customer are event_id_conflict problems.
 */
export async function storeEachEvent(pool: pg.Pool, rows: EventRow[], limits: StoreLimits): Promise<EachOutcome> {
  const result = await pool.query<{ stored: [string, boolean, string, string | null][]; problems: EventProblem[] | null }>({
    name: 'usage_events_store_each',
    text: STORE_EACH_SQL,
    values: storeValues(rows, limits),
  });
  const row = result.rows[0]!;
  const stored = new Map(row.stored.map(([id, late, customerId, unbillableReason]) => [id, { late, customerId, unbillableReason }]));
  const problems = row.problems ?? [];
  const refused = new Set(problems.map((p) => p.index));
  const skipped = rows.filter((r) => !refused.has(r.idx) && stored.get(r.id)?.customerId.toLowerCase() !== r.customer_id.toLowerCase());
  return { stored, problems: byIndex([...problems, ...(await storedForOtherCustomers(pool, skipped))]) };
}
