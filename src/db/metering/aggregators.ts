/**
 * Aggregators: what one rollup series aggregates (a meter, or the default of an event type), its
 * rollup and cursor keys, and the SQL that selects its events. Shared by the rollups and the reads.
 */
import { Prisma } from '../../generated/prisma/client.js';
import type { MeterAggregation } from '../../generated/prisma/client.js';

/** Rollup key of events sent without a subscription_id. */
export const NO_SUBSCRIPTION = '00000000-0000-0000-0000-000000000000';
/** The default aggregators of every event type share this cursor. */
export const DEFAULT_CURSOR = 'default';

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

/** A meter read per value of some event properties (a dimensional SKU's meter and its group_by). */
export interface GroupedMeterSpec {
  spec: AggregatorSpec & { kind: 'meter' };
  groupBy: readonly string[];
}

/**
 * Rollup and cursor key of a grouped meter's per-dimension-value rollups: one series per meter and
 * group_by, since two SKUs may group one meter by different properties.
 */
export const dimensionKey = (group: GroupedMeterSpec): string => `dims:${group.spec.meterId}:${JSON.stringify(group.groupBy)}`;

/**
 * Bucket sizes (minutes) of the dimension series: hourly and daily only. A series holds a row per
 * dimension value and bucket, so 5-minute buckets would multiply its rows (and the rollup pass's
 * work) many times over; a grouped read takes the partial hours at its range's edges raw instead.
 */
export const DIMENSION_GRANULARITIES = [60, 1440] as const;

/** Aggregations a grouped meter may have, each composed exactly from per-bucket partials (UniqueCount from the distinct values kept per bucket). */
export const ROLLED_DIMENSION_AGGREGATIONS: ReadonlySet<MeterAggregation> = new Set(['Sum', 'Count', 'Max', 'UniqueCount']);

/** The dimension value of an event: the text of each group_by property, null where the event lacks it, as a JSON array. */
export const dimensionsSql = (groupBy: readonly string[]) => Prisma.sql`jsonb_build_array(${Prisma.join(groupBy.map((key) => Prisma.sql`e.properties ->> ${key}::text`))})`;

export const rollupKey = (spec: AggregatorSpec): string => (spec.kind === 'default' ? `default:${spec.eventType}` : spec.meterId);
export const cursorKey = (spec: AggregatorSpec): string => (spec.kind === 'default' ? DEFAULT_CURSOR : spec.meterId);

export const prop = (property: string) => Prisma.sql`e.properties -> ${property}::text`;

/** What an event contributes to the default aggregator of its type. */
export const DEFAULT_VALUE = Prisma.sql`COALESCE(usage_numeric(e.properties -> 'quantity'), 1)`;

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

export function matchSql(spec: AggregatorSpec): Prisma.Sql {
  const conditions = [Prisma.sql`e.event_type = ${spec.eventType}::text`];
  if (spec.kind === 'meter') conditions.push(...spec.filters.map(filterSql));
  return Prisma.join(conditions, ' AND ');
}
