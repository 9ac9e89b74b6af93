/**
 * Dimensional reads: a grouped meter's quantity per dimension value (the text of each group_by
 * property of the event, null when it lacks it) over one range, for every grouped meter of a rating
 * in ONE statement, never one per value. Late events count like any other, as the period close
 * counts them.
 *
 * Where the quantities come from, exact at any moment (as readAggregates reads plain meters):
 * - a meter whose dimension series has a cursor: the per-value rollups (usage_dimension_rollups; for
 *   UniqueCount the distinct values kept per bucket and value, usage_dimension_rollup_values) of the
 *   whole hours and days inside the range, plus raw events for the partial hours at its edges and for
 *   whatever arrived after the series' cursor (the tail);
 * - a series not rolled yet (cursor hint 0: a new dimensional SKU until its first pass): the range's
 *   raw events.
 *
 * Cardinality: per grouped meter the first MAX_DIMENSION_VALUES values seen (by their first event's
 * arrival, so a value keeps its own line when more values arrive) are answered on their own; the
 * quantities of the values after them are summed into one `other` row. Each rollup row keeps its
 * value's first seq in the bucket, so the ranking is the same whichever way a value was read.
 */
import { MAX_DIMENSION_VALUES } from '../../core/index.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { SqlReader } from '../client.js';
import { DIMENSION_GRANULARITIES, dimensionKey, dimensionsSql, matchSql, prop, ROLLED_DIMENSION_AGGREGATIONS, type GroupedMeterSpec } from './aggregators.js';
import { rawParts, rolledRows, rolledScope, scopeSql, type Scope } from './aggregates.js';

export type { GroupedMeterSpec } from './aggregators.js';

export interface GroupedValue {
  /** Index of its spec in the request. */
  spec: number;
  /** The values in group_by order; null for the `other` bucket. */
  values: (string | null)[] | null;
  quantity: string;
}

const valueSql = (spec: GroupedMeterSpec['spec']) => (spec.property === null ? Prisma.sql`NULL::numeric` : Prisma.sql`usage_numeric(${prop(spec.property)})`);

/** A value's quantity straight from its raw events. */
function aggregateSql(spec: GroupedMeterSpec['spec']): Prisma.Sql {
  const value = valueSql(spec);
  switch (spec.aggregation) {
    case 'Count':
      return Prisma.sql`count(*)::numeric`;
    case 'Max':
      return Prisma.sql`COALESCE(max(${value}), 0)`;
    case 'UniqueCount':
      return spec.property === null
        ? Prisma.sql`0::numeric`
        : Prisma.sql`count(DISTINCT usage_value_key(e.properties ->> ${spec.property}::text)) FILTER (WHERE e.properties ->> ${spec.property}::text IS NOT NULL)::numeric`;
    default:
      return Prisma.sql`COALESCE(sum(${value}), 0)`;
  }
}

/** A value's quantity from its partials (rollup rows and raw events as one-event partials). */
function combineSql(spec: GroupedMeterSpec['spec']): Prisma.Sql {
  switch (spec.aggregation) {
    case 'Count':
      return Prisma.sql`sum(x.n)::numeric`;
    case 'Max':
      return Prisma.sql`COALESCE(max(x.mx), 0)`;
    default:
      return Prisma.sql`COALESCE(sum(x.s), 0)`;
  }
}

/**
 * Every grouped meter's quantity per dimension value over [from, to) for one subscription, in one
 * statement. `hints` are cursor positions read before it (usage_rollup_cursors under dimensionKey):
 * cursors only move forward, so a hint never drops a tail event the cursor needs.
 */
export async function readGroupedQuantities(
  read: SqlReader,
  groups: readonly GroupedMeterSpec[],
  scope: Scope,
  range: { from: Date; to: Date },
  hints: ReadonlyMap<string, bigint>,
): Promise<GroupedValue[]> {
  if (groups.length === 0 || range.to <= range.from) return [];
  const isRolled = (group: GroupedMeterSpec) => ROLLED_DIMENSION_AGGREGATIONS.has(group.spec.aggregation) && (hints.get(dimensionKey(group)) ?? 0n) > 0n;
  const rolled = groups.filter(isRolled);
  const raw = groups.filter((group) => !isRolled(group));
  const typesOf = (list: readonly GroupedMeterSpec[]) => [...new Set(list.map((g) => g.spec.eventType))];
  const ctes: Prisma.Sql[] = [];

  if (raw.length > 0) {
    ctes.push(Prisma.sql`ev AS MATERIALIZED (
      SELECT e.seq, e.event_type, e.properties FROM usage_events e
      WHERE ${scopeSql(scope)} AND e.event_type = ANY(${typesOf(raw)}::text[]) AND e.occurred_at >= ${range.from} AND e.occurred_at < ${range.to})`);
  }
  if (rolled.length > 0) {
    const keys = rolled.map(dimensionKey);
    const minHint = keys.reduce((min, key) => (hints.get(key)! < min ? hints.get(key)! : min), hints.get(keys[0]!)!);
    const parts = rawParts(range, DIMENSION_GRANULARITIES);
    ctes.push(Prisma.sql`cur AS (SELECT aggregator, position FROM usage_rollup_cursors WHERE aggregator = ANY(${keys}::text[]))`);
    // Materialized on its own with the hint as a literal, so the planner walks the seq index from it (see readAggregates).
    if (parts.some((p) => p.fromTail)) {
      ctes.push(Prisma.sql`tail AS MATERIALIZED (
        SELECT seq, event_type, customer_id, subscription_id, occurred_at, properties FROM usage_events
        WHERE seq > ${minHint} AND seq > (SELECT COALESCE(min(position), 0) FROM cur))`);
    }
    const edges = parts.map(
      (part) => Prisma.sql`
        SELECT e.seq, e.event_type, e.properties, ${Prisma.raw(part.fromTail ? 'true' : 'false')} AS from_tail
        FROM ${part.from} WHERE ${scopeSql(scope)} AND e.event_type = ANY(${typesOf(rolled)}::text[]) AND ${part.condition}`,
    );
    ctes.push(
      Prisma.sql`edge AS MATERIALIZED (${edges.length > 0 ? Prisma.join(edges, ' UNION ALL ') : Prisma.sql`SELECT NULL::bigint AS seq, NULL::text AS event_type, NULL::jsonb AS properties, false AS from_tail WHERE false`})`,
    );
  }

  const branches = groups.map((group, i) => {
    if (!isRolled(group)) {
      return Prisma.sql`
        SELECT ${i}::int AS spec, ${dimensionsSql(group.groupBy)} AS dims, min(e.seq) AS first_seq, ${aggregateSql(group.spec)} AS q
        FROM ev e WHERE ${matchSql(group.spec)} GROUP BY 2`;
    }
    const key = dimensionKey(group);
    const v = valueSql(group.spec);
    const where = Prisma.sql`r.aggregator = ${key}::text AND ${rolledScope(scope)}`;
    // Edge events, and tail events after this series' cursor.
    const fresh = Prisma.sql`${matchSql(group.spec)} AND (NOT e.from_tail OR e.seq > COALESCE((SELECT position FROM cur WHERE aggregator = ${key}::text), 0))`;
    const partials = Prisma.sql`
      SELECT r.dims, r.first_seq, r.event_count AS n, r.value_sum AS s, r.value_max AS mx
      FROM (${rolledRows('usage_dimension_rollups', Prisma.sql`r.dims, r.first_seq, r.event_count, r.value_sum, r.value_max`, where, range, DIMENSION_GRANULARITIES)}) r
      UNION ALL
      SELECT ${dimensionsSql(group.groupBy)}, e.seq, 1, ${v}, ${v} FROM edge e WHERE ${fresh}`;
    const property = group.spec.aggregation === 'UniqueCount' ? group.spec.property : undefined;
    if (property === undefined) {
      return Prisma.sql`SELECT ${i}::int AS spec, x.dims, min(x.first_seq) AS first_seq, ${combineSql(group.spec)} AS q FROM (${partials}) x GROUP BY x.dims`;
    }
    // UniqueCount: each value's distinct property values, the rolled sets united with the raw events' values.
    const distinct =
      property === null
        ? Prisma.sql`SELECT NULL::bytea AS dk, NULL::bytea AS vk WHERE false`
        : Prisma.sql`
          SELECT r.dims_key AS dk, r.value_key AS vk FROM (${rolledRows('usage_dimension_rollup_values', Prisma.sql`r.dims_key, r.value_key`, where, range, DIMENSION_GRANULARITIES)}) r
          UNION ALL
          SELECT usage_value_key(${dimensionsSql(group.groupBy)}::text), usage_value_key(e.properties ->> ${property}::text) FROM edge e
          WHERE ${fresh} AND e.properties ->> ${property}::text IS NOT NULL`;
    return Prisma.sql`
      SELECT ${i}::int AS spec, d.dims, d.first_seq, COALESCE(u.q, 0)::numeric AS q
      FROM (SELECT x.dims, min(x.first_seq) AS first_seq FROM (${partials}) x GROUP BY x.dims) d
      LEFT JOIN (SELECT v.dk, count(DISTINCT v.vk) AS q FROM (${distinct}) v GROUP BY v.dk) u ON u.dk = usage_value_key(d.dims::text)`;
  });

  const rows = await read<{ spec: number; dims: string | null; quantity: string }>(Prisma.sql`
    WITH ${Prisma.join(ctes, ',\n')},
    g AS (${Prisma.join(branches, ' UNION ALL ')}),
    r AS (SELECT g.*, row_number() OVER (PARTITION BY g.spec ORDER BY g.first_seq, g.dims) AS rn FROM g)
    SELECT spec, CASE WHEN rn <= ${MAX_DIMENSION_VALUES} THEN dims::text END AS dims, sum(q)::text AS quantity
    FROM r GROUP BY spec, 2 ORDER BY spec, 2`);
  return rows.map((row) => ({ spec: Number(row.spec), values: row.dims === null ? null : (JSON.parse(row.dims) as (string | null)[]), quantity: row.quantity }));
}
