/**
 * Meters: how an event_type becomes a quantity (SPEC §2 "Meter definition").
 *
 * - Aggregations: Sum, Max and LATEST of a numeric property (a JSON number or a decimal string such
 *   as "0.25", summed exactly); Count of events; UniqueCount of distinct property values; and
 *   WEIGHTED_SUM, the time-weighted average of a level that each event's property moves by (see
 *   usage.ts). Events whose property is missing count for Count but add nothing to the numeric
 *   aggregations; a value that is no number is refused at ingestion once a numeric meter reads the
 *   property (events.ts, meterPropertyIssues), so only events stored before the meter existed can
 *   hold one (they add nothing either).
 * - Filters, all of which must hold (7 operators): Equals, NotEquals, GreaterThan,
 *   GreaterThanOrEqual, LessThan, LessThanOrEqual, In. A number compares numerically with numbers
 *   and decimal strings; a string compares with the text of strings and numbers; a boolean only with
 *   booleans. NotEquals also matches events without the property; every other operator needs it.
 *   "Not in" is several NotEquals.
 * - Windows: BillingPeriod (the subscription's billing period), Sliding (the `window_size` before
 *   the reference instant) and Tumbling (consecutive windows of `window_size` aligned on the Unix
 *   epoch, so P1D windows start at 00:00 UTC; the one containing the reference instant).
 * - Meters are immutable: rollups are built from their definition. Define a new meter to change one.
 * - Several meters may share an event_type, each priced by its own SKU (SKU meter_id). A SKU giving
 *   only meter_event_type is billed with the type's default meter: the FIRST meter created for it
 *   (archived ones included; a later meter never changes it). An event_type without any meter uses
 *   the built-in default: the sum of each event's `quantity` property when numeric, else 1 per event.
 * - Aggregations are spelled as SPEC spells them: Sum, Count, Max, UniqueCount, LATEST, WEIGHTED_SUM
 *   (Latest and WeightedSum are accepted on input).
 */
import { formatWindowSize } from '../../core/index.js';
import type { MeterAggregation, MeterWindow } from '../../generated/prisma/client.js';
import type { FilterOperator, MeterFilter } from '../../db/metering/aggregators.js';
import { archiveMeterRow, findMeter, insertMeter, listMeterRows, lockIdenticalMeter, numericPropertyMeters, type MeterRow } from '../../db/metering/meters.js';
import { percentageAmountProperties } from '../../db/catalog.js';
import { prismaReader, type Db } from '../../db/client.js';
import { eventTypePruned } from '../../db/metering/retention.js';
import type { PageQuery } from '../../db/pages.js';
import type { ServiceDeps } from '../deps.js';
import { newId } from '../../ids.js';
import { toPage, type Page } from '../pagination.js';
import { recordAudit, type Actor } from '../audit.js';
import { conflict, notFound } from '../../errors.js';
import { scheduleRollup } from './usage.js';
import type { MeterView } from '../../schemas/metering.js';

export const MAX_FILTERS = 20;
export const MAX_IN_VALUES = 100;
export const MIN_WINDOW_SECONDS = 60;
export const MAX_WINDOW_SECONDS = 366 * 86_400;
const DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/;
const DURATION = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

export interface MeterInput {
  name: string;
  description?: string | undefined;
  event_type: string;
  aggregation: MeterAggregation;
  property?: string | undefined;
  filters?: MeterFilter[] | undefined;
  window_type?: MeterWindow | undefined;
  window_size?: string | undefined;
  unit?: string | undefined;
}

export interface Issue {
  path: string;
  message: string;
}

/** "properties.tokens" (SPEC notation) and "tokens" name the same property. */
export const normalizeProperty = (property: string): string => (property.startsWith('properties.') ? property.slice('properties.'.length) : property);

/** Seconds of an ISO 8601 duration made of days, hours, minutes and seconds ("PT1H", "P1DT12H"). */
export function parseWindowSize(text: string): number | undefined {
  const match = DURATION.exec(text);
  if (!match || text === 'P' || text.endsWith('T')) return undefined;
  const [, d, h, m, s] = match;
  return Number(d ?? 0) * 86_400 + Number(h ?? 0) * 3_600 + Number(m ?? 0) * 60 + Number(s ?? 0);
}

export { formatWindowSize };

const isUnsafeNumber = (v: unknown) => typeof v === 'number' && (!Number.isFinite(v) || (Number.isInteger(v) && !Number.isSafeInteger(v)));

function filterValueIssues(filter: MeterFilter, path: string): Issue[] {
  const { operator, value } = filter;
  if (operator === 'In') {
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_IN_VALUES) {
      return [{ path, message: `In takes an array of 1-${MAX_IN_VALUES} strings, numbers or booleans` }];
    }
    return value.flatMap((v, i) => (isUnsafeNumber(v) ? [{ path: `${path}.${i}`, message: 'integers beyond ±2^53 must be sent as decimal strings' }] : []));
  }
  if (Array.isArray(value)) return [{ path, message: `${operator} takes a single value; use In for a list` }];
  if (isUnsafeNumber(value)) return [{ path, message: 'integers beyond ±2^53 must be sent as decimal strings' }];
  if (operator !== 'Equals' && operator !== 'NotEquals' && !(typeof value === 'number' || (typeof value === 'string' && DECIMAL.test(value)))) {
    return [{ path, message: `${operator} compares numbers: give a number or a decimal string such as "10.5"` }];
  }
  return [];
}

/** Rules across fields of a meter definition, reported one issue per offending field. */
export function meterDefinitionIssues(input: MeterInput): Issue[] {
  const issues: Issue[] = [];
  const windowType = input.window_type ?? 'BillingPeriod';
  if (input.aggregation === 'Count') {
    if (input.property !== undefined) issues.push({ path: 'property', message: 'Count counts events and uses no property' });
  } else if (input.property === undefined) {
    issues.push({ path: 'property', message: `${input.aggregation} needs the property to aggregate, e.g. "tokens"` });
  }
  if (windowType === 'BillingPeriod') {
    if (input.window_size !== undefined) issues.push({ path: 'window_size', message: 'BillingPeriod windows have no size' });
  } else if (input.window_size === undefined) {
    issues.push({ path: 'window_size', message: `${windowType} windows need a size, e.g. "PT1H" or "P1D"` });
  } else {
    const seconds = parseWindowSize(input.window_size);
    if (seconds === undefined) {
      issues.push({ path: 'window_size', message: 'must be an ISO 8601 duration of days, hours, minutes and seconds, e.g. "PT15M", "P1D"' });
    } else if (seconds < MIN_WINDOW_SECONDS || seconds > MAX_WINDOW_SECONDS) {
      issues.push({ path: 'window_size', message: `must be between ${MIN_WINDOW_SECONDS} seconds and 366 days` });
    }
  }
  (input.filters ?? []).forEach((filter, i) => issues.push(...filterValueIssues(filter, `filters.${i}.value`)));
  return issues;
}

export function toMeterView(row: MeterRow): MeterView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    event_type: row.eventType,
    aggregation: row.aggregation,
    property: row.property,
    filters: row.filters as unknown as MeterFilter[],
    window_type: row.windowType,
    window_size: row.windowSizeSeconds === null ? null : formatWindowSize(row.windowSizeSeconds),
    unit: row.unit,
    archived_at: row.archivedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** A property some meter of an event type reads as a number, with the first such meter (for messages). */
export interface NumericProperty {
  property: string;
  meter: string;
  aggregation: MeterAggregation;
  /** Who reads it, when not a meter (a Percentage SKU's amount_property). */
  reader?: string;
}

/**
 * How long this process trusts its list of numeric meter properties: a meter created here is seen at
 * once (createMeter bumps the generation); one created through another API process within this long.
 */
export const NUMERIC_PROPERTIES_TTL_MS = 5_000;
let numericGeneration = 0;
const numericCache = new WeakMap<Db, { generation: number; loadedAt: number; byEventType: Map<string, NumericProperty[]> }>();

/**
 * The properties each event type's numeric meters (Sum, Max, LATEST, WEIGHTED_SUM) read, for ingestion
 * to refuse values they could not count. One query per process per NUMERIC_PROPERTIES_TTL_MS (and after
 * a meter change here), not one per event.
 */
export async function numericMeterProperties(db: Db, eventType: string, now = Date.now()): Promise<NumericProperty[]> {
  let entry = numericCache.get(db);
  if (!entry || entry.generation !== numericGeneration || now - entry.loadedAt >= NUMERIC_PROPERTIES_TTL_MS) {
    const generation = numericGeneration;
    const [rows, percentages] = await Promise.all([numericPropertyMeters(db), percentageAmountProperties(db)]);
    const byEventType = new Map<string, NumericProperty[]>();
    const add = (eventType: string, property: NumericProperty): void => {
      const list = byEventType.get(eventType) ?? [];
      if (!list.some((p) => p.property === property.property)) list.push(property);
      byEventType.set(eventType, list);
    };
    for (const row of rows) add(row.eventType, { property: row.property!, meter: row.name, aggregation: row.aggregation });
    // A Percentage SKU's amount is bounded at the door like a Sum meter's property (bounded sums).
    for (const row of percentages) add(row.eventType, { property: row.property, meter: row.name, aggregation: 'Sum', reader: `Percentage SKU "${row.name}"` });
    entry = { generation, loadedAt: now, byEventType };
    numericCache.set(db, entry);
  }
  return entry.byEventType.get(eventType) ?? [];
}

/** Ingestion re-reads the numeric properties from the next event on (a Percentage SKU was created). */
export function numericPropertiesChanged(): void {
  numericGeneration += 1;
}

/** Creates the meter and its rollup cursor, and asks for a pass that backfills its rollups. */
export async function createMeter(deps: ServiceDeps, input: MeterInput, actor: Actor, requestId: string): Promise<MeterView> {
  const property = input.property === undefined ? null : normalizeProperty(input.property);
  const filters: MeterFilter[] = (input.filters ?? []).map((f) => ({ ...f, property: normalizeProperty(f.property) }));
  const windowType = input.window_type ?? 'BillingPeriod';
  const id = newId();
  const definition = {
    eventType: input.event_type,
    aggregation: input.aggregation,
    property,
    filters,
    windowType,
    windowSizeSeconds: input.window_size === undefined ? null : parseWindowSize(input.window_size)!,
  };
  const row = await deps.db.$transaction(async (tx) => {
    const same = await lockIdenticalMeter(tx, definition);
    if (same) {
      throw conflict('meter_exists', `meter ${same.id} ("${same.name}") already measures ${input.aggregation} of ${input.event_type} with this property, filters and window`, { id: same.id });
    }
    // A level sums every earlier event; the retention prunes a type under the lock taken above (never one a WEIGHTED_SUM meter reads).
    if (input.aggregation === 'WEIGHTED_SUM' && (await eventTypePruned(prismaReader(tx), input.event_type))) {
      throw conflict('event_type_pruned', `the retention (USAGE_EVENT_RETENTION_DAYS) dropped raw events of ${input.event_type}: a WEIGHTED_SUM meter's level would miss them`, {
        event_type: input.event_type,
      });
    }
    const meter = await insertMeter(tx, { id, name: input.name, description: input.description ?? '', ...definition, unit: input.unit ?? property ?? 'events' });
    await recordAudit(tx, { action: 'meter.created', actor, entityType: 'meter', entityId: id, after: toMeterView(meter), requestId });
    return meter;
  });
  // Ingestion checks the new meter's property from the next event on.
  numericGeneration += 1;
  scheduleRollup(deps);
  return toMeterView(row);
}

export async function getMeter(deps: ServiceDeps, id: string): Promise<MeterView> {
  const row = await findMeter(deps.db, id);
  if (!row) throw notFound('meter', id);
  return toMeterView(row);
}

export interface MeterListQuery extends PageQuery {
  event_type?: string | undefined;
}

/** Meters, newest first, optionally of one event_type. */
export async function listMeters(deps: ServiceDeps, query: MeterListQuery): Promise<Page<MeterView>> {
  const { event_type, ...page } = query;
  const rows = await listMeterRows(deps.db, { ...page, eventType: event_type });
  return toPage(rows, query.limit, toMeterView);
}

/**
 * Archives a meter: SKUs created from now on cannot name it (meter_id), nor price its event type by
 * meter_event_type alone when it is that type's default meter (the first one created), so no new
 * plan version is matched to it. Plan
 * versions already pricing the type keep billing with it (its rollups are kept up to date), so
 * archiving re-prices no live subscription. Archiving an archived meter changes nothing.
 */
export async function archiveMeter(deps: ServiceDeps, id: string, actor: Actor, requestId: string): Promise<MeterView> {
  return deps.db.$transaction(async (tx) => {
    const result = await archiveMeterRow(tx, id, deps.clock());
    if (result === null) throw notFound('meter', id);
    if (result.before.archivedAt === null) {
      await recordAudit(tx, {
        action: 'meter.archived',
        actor,
        entityType: 'meter',
        entityId: id,
        before: toMeterView(result.before),
        after: toMeterView(result.after),
        requestId,
      });
    }
    return toMeterView(result.after);
  });
}
