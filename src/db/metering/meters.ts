/**
 * Meter repository. A meter is created with its rollup cursor (at position 0, so the next rollup
 * pass backfills it); its definition is immutable afterwards, only archived_at is ever set.
 */
import type { Meter, MeterAggregation, MeterWindow, Prisma } from '../../generated/prisma/client.js';
import type { DbClient } from '../client.js';
import { NEWEST_FIRST, pageWhere, type PageQuery } from '../pages.js';
import type { MeterFilter } from './aggregators.js';

export type MeterRow = Meter;

export interface NewMeter {
  id: string;
  name: string;
  description: string;
  eventType: string;
  aggregation: MeterAggregation;
  property: string | null;
  filters: MeterFilter[];
  windowType: MeterWindow;
  windowSizeSeconds: number | null;
  unit: string;
}

export async function insertMeter(tx: DbClient, meter: NewMeter): Promise<MeterRow> {
  const row = await tx.meter.create({ data: { ...meter, filters: meter.filters as unknown as Prisma.InputJsonValue } });
  await tx.usageRollupCursor.create({ data: { aggregator: meter.id } });
  return row;
}

/**
 * A meter already measuring exactly this (same event type, aggregation, property, filters and
 * window), under a transaction lock on the event type so two concurrent creates of the same
 * definition cannot both pass the check. The retention's prune (usage_events_prune) takes the same
 * lock for each type it prunes: no meter of the type appears while it judges the type's rollups.
 */
export async function lockIdenticalMeter(tx: DbClient, meter: Omit<NewMeter, 'id' | 'name' | 'description' | 'unit'>): Promise<MeterRow | null> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('meter-definition:' || ${meter.eventType}, 0))`;
  const candidates = await tx.meter.findMany({
    where: { eventType: meter.eventType, aggregation: meter.aggregation, property: meter.property, windowType: meter.windowType, windowSizeSeconds: meter.windowSizeSeconds },
    orderBy: { id: 'asc' },
  });
  // Stored jsonb reorders object keys: compare the filters field by field, in order.
  const canonical = (filters: MeterFilter[]) => JSON.stringify(filters.map((f) => [f.property, f.operator, f.value]));
  const wanted = canonical(meter.filters);
  return candidates.find((row) => canonical(row.filters as unknown as MeterFilter[]) === wanted) ?? null;
}

export function findMeter(tx: DbClient, id: string): Promise<MeterRow | null> {
  return tx.meter.findUnique({ where: { id } });
}

/** One page, newest first, optionally of one event type: up to `limit + 1` rows. */
export function listMeterRows(tx: DbClient, query: PageQuery & { eventType?: string | undefined }): Promise<MeterRow[]> {
  return tx.meter.findMany({
    where: {
      ...(query.eventType !== undefined ? { eventType: query.eventType } : {}),
      ...pageWhere(query),
    },
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
  });
}

/** The meters of these ids (archived ones included), by id. */
export async function metersByIds(tx: DbClient, ids: string[]): Promise<Map<string, MeterRow>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.meter.findMany({ where: { id: { in: ids } } });
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * The default meter of each of the event types: the FIRST meter created for it (oldest by
 * creation, archived ones included; UUIDv7 ids order by creation). Creating meters later never
 * changes it, so no SKU pricing the event type is re-priced by a new meter.
 */
export async function firstMeters(tx: DbClient, eventTypes: string[]): Promise<Map<string, MeterRow>> {
  const meters = await tx.meter.findMany({ where: { eventType: { in: eventTypes } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  const first = new Map<string, MeterRow>();
  for (const meter of meters) if (!first.has(meter.eventType)) first.set(meter.eventType, meter);
  return first;
}

/** The meter row, locked FOR SHARE until the transaction ends (a concurrent archive waits); null when it does not exist. */
export async function lockMeter(tx: DbClient, id: string): Promise<MeterRow | null> {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM meters WHERE id = ${id}::uuid FOR SHARE`;
  return locked.length === 0 ? null : tx.meter.findUnique({ where: { id } });
}

/** Locks the meter row and archives it (at `at`) unless it already is; null when it does not exist. */
export async function archiveMeterRow(tx: DbClient, id: string, at: Date): Promise<{ before: MeterRow; after: MeterRow } | null> {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM meters WHERE id = ${id}::uuid FOR UPDATE`;
  if (locked.length === 0) return null;
  const before = await tx.meter.findUniqueOrThrow({ where: { id } });
  if (before.archivedAt !== null) return { before, after: before };
  return { before, after: await tx.meter.update({ where: { id }, data: { archivedAt: at } }) };
}

/** Meters that aggregate a property's numeric value (Sum, Max, LATEST, WEIGHTED_SUM), archived ones included (they still bill). */
export function numericPropertyMeters(tx: DbClient): Promise<Pick<MeterRow, 'eventType' | 'aggregation' | 'property' | 'name'>[]> {
  return tx.meter.findMany({
    where: { aggregation: { in: ['Sum', 'Max', 'LATEST', 'WEIGHTED_SUM'] }, property: { not: null } },
    select: { eventType: true, aggregation: true, property: true, name: true },
    orderBy: { id: 'asc' },
  });
}
