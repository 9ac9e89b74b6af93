/**
 * Dimensional reads: a grouped meter's quantity per dimension value (the text of each group_by
 * property of the event, null when it lacks it) over one range, for every grouped meter of a rating
 * in ONE statement, never one per value. Raw events (the rollups hold no dimension breakdown), late
 * ones included, as the period close counts them.
 *
 * Cardinality: per grouped meter the first MAX_DIMENSION_VALUES values seen (by their first event's
 * arrival, so a value keeps its own line when more values arrive) are answered on their own; the
 * quantities of the values after them are summed into one `other` row.
 */
import { MAX_DIMENSION_VALUES } from '../../core/index.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { SqlReader } from '../client.js';
import { matchSql, prop, type AggregatorSpec } from './aggregators.js';
import type { Scope } from './aggregates.js';

/** A meter read per value of some event properties (Sum, Count, Max or UniqueCount). */
export interface GroupedMeterSpec {
  spec: AggregatorSpec & { kind: 'meter' };
  groupBy: readonly string[];
}

export interface GroupedValue {
  /** Index of its spec in the request. */
  spec: number;
  /** The values in group_by order; null for the `other` bucket. */
  values: (string | null)[] | null;
  quantity: string;
}

function aggregateSql(spec: GroupedMeterSpec['spec']): Prisma.Sql {
  const value = spec.property === null ? Prisma.sql`NULL::numeric` : Prisma.sql`usage_numeric(${prop(spec.property)})`;
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

/** Every grouped meter's quantity per dimension value over [from, to) for one subscription, in one statement. */
export async function readGroupedQuantities(read: SqlReader, groups: readonly GroupedMeterSpec[], scope: Scope, range: { from: Date; to: Date }): Promise<GroupedValue[]> {
  if (groups.length === 0 || range.to <= range.from) return [];
  const types = [...new Set(groups.map((g) => g.spec.eventType))];
  const branches = groups.map(
    (group, i) => Prisma.sql`
      SELECT ${i}::int AS spec, jsonb_build_array(${Prisma.join(group.groupBy.map((key) => Prisma.sql`e.properties ->> ${key}::text`))}) AS dims,
             min(e.seq) AS first_seq, ${aggregateSql(group.spec)} AS q
      FROM ev e WHERE ${matchSql(group.spec)} GROUP BY 2`,
  );
  const rows = await read<{ spec: number; dims: string | null; quantity: string }>(Prisma.sql`
    WITH ev AS MATERIALIZED (
      SELECT e.seq, e.event_type, e.properties FROM usage_events e
      WHERE e.customer_id = ${scope.customerId}::uuid AND (e.subscription_id = ${scope.subscriptionId}::uuid OR e.subscription_id IS NULL)
        AND e.event_type = ANY(${types}::text[]) AND e.occurred_at >= ${range.from} AND e.occurred_at < ${range.to}
    ),
    g AS (${Prisma.join(branches, ' UNION ALL ')}),
    r AS (SELECT g.*, row_number() OVER (PARTITION BY g.spec ORDER BY g.first_seq, g.dims) AS rn FROM g)
    SELECT spec, CASE WHEN rn <= ${MAX_DIMENSION_VALUES} THEN dims::text END AS dims, sum(q)::text AS quantity
    FROM r GROUP BY spec, 2 ORDER BY spec, 2`);
  return rows.map((row) => ({ spec: Number(row.spec), values: row.dims === null ? null : (JSON.parse(row.dims) as (string | null)[]), quantity: row.quantity }));
}
