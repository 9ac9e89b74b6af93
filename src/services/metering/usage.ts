/**
 * Usage aggregation: meter values over windows, the usage summary (SPEC §2 "Usage summary",
 * GET /v1/subscriptions/:id/usage) and the quantities invoicing rates: each usage SKU's meter
 * (resolveSkuMeters) over the period, as its window bills (quantityPlan; the summary's
 * billable_value is read the same way).
 *
 * - Attribution: a subscription's usage is its own events (subscription_id = it) plus its
 *   customer's events sent without a subscription_id. Those count towards every subscription of the
 *   customer whose plan meters their event_type: send subscription_id when a customer has several.
 * - Exactness: values are decimal strings summed in PostgreSQL numeric ("0.1" + "0.2" = "0.3").
 *   WEIGHTED_SUM is the only division; it is rounded once per window, half-even, to WEIGHTED_SUM_SCALE places.
 * - WEIGHTED_SUM: each event's property moves a level (+5 up, "-2.5" down) that persists across
 *   windows; the value is the level's time-weighted average over the window (∫ level dt / length),
 *   e.g. average GB stored over the billing period.
 * - LATEST: the value of the event with the greatest timestamp in the window (ties: greatest id).
 * - Max and LATEST of a window without numeric values are "0", as are empty sums.
 * - Rollups (src/db/metering/rollups.ts) are advanced by a pass scheduled after ingestion (and runnable from
 *   anywhere with runRollupPass); reads never wait for them: anything not rolled up yet is read raw.
 */
import {
  ADDITIVE_AGGREGATIONS,
  billedSpan,
  billingPeriodAt,
  canonicalDecimal,
  formatWindowSize,
  groupedOtherKey,
  groupedUsageKey,
  meterWindow,
  needsDroppedEvents,
  tumblingTotal,
  weightedAverage,
  type Interval,
  type SkuMeter,
  type SkuPrice,
  type UsageRead,
  type WindowPartial,
} from '../../core/index.js';
import type pg from 'pg';
import { cursorKey, DIMENSION_GRANULARITIES, dimensionKey, meterSpec, ROLLED_DIMENSION_AGGREGATIONS, rollupKey, type AggregatorSpec, type MeterFilter } from '../../db/metering/aggregators.js';
import { preparedReader, poolReader, prismaReader, type DbClient, type SqlReader } from '../../db/client.js';
import { coalescedAggregates, readAggregates, readCursors, readEventSpans, readUsageSubject, readWindowPartials, type AggregateReader, type Range, type Scope, type UsageSubject } from '../../db/metering/aggregates.js';
import { firstMeters, metersByIds, type MeterRow } from '../../db/metering/meters.js';
import { readDimensionSeries, readMeterSpecs, rollUpUsage, type RollupPassOutcome } from '../../db/metering/rollups.js';
import { readGroupedQuantities, type GroupedMeterSpec } from '../../db/metering/grouped.js';
import { retentionMarksOf } from '../../db/metering/retention.js';
import type { MeterAggregation, MeterWindow } from '../../generated/prisma/client.js';
import type { ServiceDeps } from '../deps.js';
import { ReadCache } from '../read-cache.js';
import type { Logger } from '../../logger.js';
import { DomainError, notFound, validation } from '../../errors.js';
import type { UsageSummary } from '../../schemas/metering.js';

/** Places a WEIGHTED_SUM value is rounded to; the usage API documents it. */
export { WEIGHTED_SUM_SCALE } from '../../core/index.js';
/** Ingestion asks for a rollup pass at most this long after the first new event. */
export const ROLLUP_DELAY_MS = 1_000;

// ── Aggregation ──────────────────────────────────────────────────────────────────────────────

export interface WindowValue {
  value: string;
  event_count: number;
  late_event_count: number;
}

const DEFAULT_AGGREGATION: MeterAggregation = 'Sum';

interface WindowRequest {
  spec: AggregatorSpec;
  from: Date;
  to: Date;
}

/**
 * Several aggregators' values for one subscription, each over its own window: one read per
 * distinct window (plus, for WEIGHTED_SUM, one for the level before it), run in parallel.
 */
async function aggregateAll(
  read: SqlReader,
  requests: WindowRequest[],
  scope: Scope,
  hints: Map<string, bigint>,
  aggregates: AggregateReader = (specs, s, range, h) => readAggregates(read, specs, s, range, h),
): Promise<WindowValue[]> {
  const groups = new Map<string, { range: Range; specs: AggregatorSpec[] }>();
  const slot = (range: Range, spec: AggregatorSpec): [string, number] => {
    const key = `${range.from?.getTime() ?? '-'}|${range.to.getTime()}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { range, specs: [] }));
    // The same aggregator over the same range is read once (the summary and its billable values share reads).
    const same = group.specs.findIndex((known) => rollupKey(known) === rollupKey(spec));
    if (same >= 0) return [key, same];
    group.specs.push(spec);
    return [key, group.specs.length - 1];
  };
  const slots = requests.map((r) => ({
    window: slot({ from: r.from, to: r.to }, r.spec),
    before: r.spec.kind === 'meter' && r.spec.aggregation === 'WEIGHTED_SUM' ? slot({ from: null, to: r.from }, r.spec) : undefined,
  }));
  const results = new Map(
    await Promise.all([...groups].map(async ([key, group]) => [key, await aggregates(group.specs, scope, group.range, hints)] as const)),
  );
  return requests.map((request, i) => {
    const { window, before } = slots[i]!;
    const partials = results.get(window[0])![window[1]]!;
    const aggregation = request.spec.kind === 'default' ? DEFAULT_AGGREGATION : request.spec.aggregation;
    let value: string;
    switch (aggregation) {
      case 'Count':
        value = partials.count.toString();
        break;
      case 'UniqueCount':
        value = (partials.distinct ?? 0n).toString();
        break;
      case 'Max':
        value = partials.max ?? '0';
        break;
      case 'LATEST':
        value = partials.latest ?? '0';
        break;
      case 'WEIGHTED_SUM': {
        const level = before ? results.get(before[0])![before[1]]!.sum : null;
        value = weightedAverage(level ?? '0', partials.sum ?? '0', partials.weighted ?? '0', request.from.getTime(), request.to.getTime());
        break;
      }
      default:
        value = partials.sum ?? '0';
    }
    return { value: canonicalDecimal(value), event_count: Number(partials.count), late_event_count: Number(partials.late) };
  });
}

const defaultSpec = (eventType: string): AggregatorSpec => ({ kind: 'default', eventType });

/**
 * What a usage SKU is billed from: a meter (its id), or the built-in default of an event type
 * without meters ("default:<event_type>", the sum of `quantity`, 1 per event without one).
 */
export interface BillingMeter {
  /** The meter's id, or "default:<event_type>": the key of its quantity. */
  key: string;
  spec: AggregatorSpec;
  windowType: MeterWindow;
  windowSizeSeconds: number | null;
  /** As rated lines show it. */
  view: SkuMeter;
  /** The meter's name (null for an event type's built-in default). */
  name: string | null;
}

/** The columns of a meter row that decide how its usage is read and shown on rated lines. */
export type PricingMeterRow = Pick<MeterRow, 'id' | 'name' | 'eventType' | 'aggregation' | 'property' | 'windowType' | 'windowSizeSeconds'> & { filters: unknown };

function billingMeterOf(row: PricingMeterRow): BillingMeter {
  return {
    key: row.id,
    name: row.name,
    spec: meterSpec(row),
    windowType: row.windowType,
    windowSizeSeconds: row.windowSizeSeconds,
    view: {
      meter_id: row.id,
      event_type: row.eventType,
      aggregation: row.aggregation,
      filters: row.filters as MeterFilter[],
      window_type: row.windowType,
      window_size: row.windowSizeSeconds === null ? null : formatWindowSize(row.windowSizeSeconds),
    },
  };
}

const defaultBillingMeter = (eventType: string): BillingMeter => ({
  key: `default:${eventType}`,
  name: null,
  spec: defaultSpec(eventType),
  windowType: 'BillingPeriod',
  windowSizeSeconds: null,
  view: { meter_id: `default:${eventType}`, event_type: eventType, aggregation: DEFAULT_AGGREGATION, filters: [], window_type: 'BillingPeriod', window_size: null },
});

/**
 * The meter each usage SKU is priced from: the meter it names (`meter_id`), else the default meter
 * of its meter_event_type (the first meter created for the type, archived ones included), else the
 * type's built-in default. Returns the SKUs with `meter` set (Flat SKUs unchanged) and the distinct
 * meters to read. Two queries at most, whatever the number of SKUs.
 */
export function resolveSkuMeters(
  db: DbClient,
  skus: readonly SkuPrice[],
  lookups: MeterLookups = { byIds: (ids) => metersByIds(db, ids), first: (types) => firstMeters(db, types) },
): Promise<ResolvedMeters> {
  return resolveMetersWith(skus, lookups);
}

export interface ResolvedMeters {
  skus: SkuPrice[];
  meters: BillingMeter[];
  groups: GroupedMeter[];
}

/** resolveSkuMeters with the meters found by `lookups` (rows a caller read already, a cache). */
export async function resolveMetersWith(skus: readonly SkuPrice[], lookups: MeterLookups): Promise<ResolvedMeters> {
  // Percentage SKUs read their events' amounts (db/metering/percentage-fees.ts), not a meter.
  const usage = skus.filter((sku) => sku.pricing_model !== 'Flat' && sku.pricing_model !== 'Percentage' && (sku.meter_id !== undefined || sku.meter_event_type !== undefined));
  const named = await lookups.byIds([...new Set(usage.flatMap((sku) => (sku.meter_id === undefined ? [] : [sku.meter_id])))]);
  const defaults = await lookups.first([...new Set(usage.flatMap((sku) => (sku.meter_id === undefined ? [sku.meter_event_type!] : [])))]);
  const meters = new Map<string, BillingMeter>();
  const meterOf = (sku: SkuPrice): BillingMeter => {
    const row = sku.meter_id !== undefined ? named.get(sku.meter_id) : defaults.get(sku.meter_event_type!);
    // A SKU's meter is never deleted (a foreign key restricts it); a missing one would be a bug.
    if (sku.meter_id !== undefined && !row) throw new Error(`SKU ${sku.sku_id} names meter ${sku.meter_id}, which does not exist`);
    const meter = row ? billingMeterOf(row) : defaultBillingMeter(sku.meter_event_type!);
    const known = meters.get(meter.key);
    if (known) return known;
    meters.set(meter.key, meter);
    return meter;
  };
  const groups = new Map<string, GroupedMeter>();
  const resolved = skus.map((sku) => {
    if (!usage.includes(sku)) return sku;
    const meter = meterOf(sku);
    if (sku.dimensional !== undefined && meter.spec.kind === 'meter') {
      const group: GroupedMeter = { key: meter.key, spec: meter.spec, groupBy: sku.dimensional.group_by };
      groups.set(groupedOtherKey(group.key, group.groupBy), group);
    }
    return { ...sku, meter: meter.view };
  });
  return { skus: resolved, meters: [...meters.values()], groups: [...groups.values()] };
}

/** How resolveSkuMeters finds the meters: the meters named by id, and each event type's default (first) meter. */
export interface MeterLookups {
  byIds(ids: string[]): Promise<Map<string, PricingMeterRow>>;
  first(eventTypes: string[]): Promise<Map<string, PricingMeterRow>>;
}

/**
 * MeterLookups that read each distinct list of ids (of event types) once, for many ratings of the
 * same SKUs within one unit of work (a price simulation's batch, which reads its catalog once too).
 */
export function cachedMeterLookups(db: DbClient): MeterLookups {
  const cached = <T>(read: (keys: string[]) => Promise<T>) => {
    const known = new Map<string, Promise<T>>();
    return (keys: string[]): Promise<T> => {
      const key = keys.join('\u0000');
      let found = known.get(key);
      if (!found) known.set(key, (found = read(keys)));
      return found;
    };
  };
  return { byIds: cached((ids) => metersByIds(db, ids)), first: cached((types) => firstMeters(db, types)) };
}

/** A meter read per dimension value for the dimensional SKUs pricing it (its quantities under core groupedUsageKey). */
export interface GroupedMeter extends GroupedMeterSpec {
  /** The meter's key (its id). */
  key: string;
}

/** The grouped meters' quantities per dimension value over [from, to), keyed as the rating core reads them; one statement. */
async function groupedQuantities(
  read: SqlReader,
  groups: readonly GroupedMeter[] | undefined,
  scope: Scope,
  range: { from: Date; to: Date },
  hints: ReadonlyMap<string, bigint>,
): Promise<Record<string, string>> {
  if (groups === undefined || groups.length === 0) return {};
  const out: Record<string, string> = {};
  for (const row of await readGroupedQuantities(read, groups, scope, range, hints)) {
    const group = groups[row.spec]!;
    out[row.values === null ? groupedOtherKey(group.key, group.groupBy) : groupedUsageKey(group.key, group.groupBy, row.values)] = canonicalDecimal(row.quantity);
  }
  return out;
}

/** What meterQuantities needs of a meter. */
export type MeterToRead = Pick<BillingMeter, 'key' | 'spec' | 'windowType' | 'windowSizeSeconds'>;

type WindowedMeter = MeterToRead & { spec: AggregatorSpec & { kind: 'meter' }; windowSizeSeconds: number };

/**
 * How each meter's billed quantity over [from, to) is read (core billedSpan, tumblingTotal):
 * BillingPeriod meters (and Tumbling Sum and Count, whose windows add up to the range) aggregate the
 * range; Sliding meters the window_size ending at `to`, clipped to the range; other Tumbling meters
 * sum each window's aggregate. `requests` go to aggregateAll (with any other requests of the caller:
 * identical reads are shared), `windowed` to readWindowPartials, and `finish` puts the answers together.
 */
function quantityPlan(meters: readonly MeterToRead[], range: { from: Date; to: Date }) {
  const interval = instants({ start: range.from, end: range.to });
  const isWindowed = (m: MeterToRead): m is WindowedMeter =>
    m.windowType === 'Tumbling' && m.windowSizeSeconds !== null && m.spec.kind === 'meter' && !ADDITIVE_AGGREGATIONS.has(m.spec.aggregation);
  const windowed = meters.filter(isWindowed);
  const whole = meters.filter((m) => !isWindowed(m));
  const requests: WindowRequest[] = whole.map((m) => {
    const span = billedSpan(m, interval);
    return { spec: m.spec, from: new Date(span.start), to: new Date(span.end) };
  });
  const finish = (values: WindowValue[], partials: { windows: WindowPartial[][]; levels: (string | null)[] }): Record<string, string> => {
    const out: Record<string, string> = {};
    whole.forEach((m, i) => (out[m.key] = values[i]!.value));
    windowed.forEach((m, i) => {
      out[m.key] = tumblingTotal(m.spec.aggregation, partials.windows[i]!, interval, m.windowSizeSeconds * 1000, partials.levels[i] ?? '0');
    });
    return out;
  };
  return { requests, windowed: windowed.map((m) => ({ spec: m.spec, sizeMs: m.windowSizeSeconds * 1000 })), finish };
}

/**
 * Each meter's billed quantity over [from, to), keyed by its key, exact decimal strings (see
 * quantityPlan). Events of the subscription and the customer's events without a subscription_id
 * count; late events included. "0" for meters without events (and for an empty range). Statements:
 * one per distinct range (the range, each Sliding size, the level before a WEIGHTED_SUM range) plus
 * one for every windowed Tumbling meter together, never one per window.
 */
export async function meterQuantities(
  read: SqlReader,
  meters: readonly MeterToRead[],
  scope: Scope,
  range: { from: Date; to: Date },
  hints: Map<string, bigint>,
  aggregates?: AggregateReader,
): Promise<Record<string, string>> {
  if (range.to <= range.from) return Object.fromEntries(meters.map((m) => [m.key, '0']));
  const plan = quantityPlan(meters, range);
  const [values, partials] = await Promise.all([aggregateAll(read, plan.requests, scope, hints, aggregates), readWindowPartials(read, plan.windowed, scope, range)]);
  return plan.finish(values, partials);
}

export interface QuantityRequest {
  subscriptionId: string;
  customerId: string;
  meters: readonly MeterToRead[];
  /** Meters also read per dimension value (dimensional SKUs), in one statement more. */
  groups?: readonly GroupedMeter[];
  from: Date;
  to: Date;
}

/** The rollup cursors a read of these meters follows: the meters' and the grouped meters' dimension series. */
const cursorKeysOf = (input: Pick<QuantityRequest, 'meters' | 'groups'>): string[] => [
  ...new Set([...input.meters.map((m) => cursorKey(m.spec)), ...(input.groups ?? []).map(dimensionKey)]),
];

/** Reads quantities as quantitiesForPeriod does. */
export type QuantityReader = (input: QuantityRequest) => Promise<Record<string, string>>;

/**
 * A reader of the meters' quantities (meterQuantities, through the caller's transaction) that reads
 * each set of meters' rollup cursor hints once, for many reads (batchQuantityReader on the pool). Hints
 * only ever lag the cursors, which never costs exactness (see readAggregates): only a longer tail of
 * raw events to read.
 */
export function quantityReader(db: DbClient): QuantityReader {
  return quantityReaderOn(prismaReader(db));
}

/**
 * quantityReader for a price simulation's batch, straight on the pg pool (no per-statement
 * cost of Prisma): the meter reads of the periods rated concurrently are coalesced, many per
 * statement (coalescedAggregates), each read the same statement as the period close's.
 */
export function batchQuantityReader(pool: pg.Pool): QuantityReader {
  const read = poolReader(pool);
  return quantityReaderOn(read, coalescedAggregates(read));
}

function quantityReaderOn(read: SqlReader, aggregates?: AggregateReader): QuantityReader {
  const hintsBySet = new Map<string, Promise<Map<string, bigint>>>();
  return async (input) => {
    if (input.meters.length === 0) return {};
    const range = { from: input.from, to: input.to };
    const scope = { customerId: input.customerId, subscriptionId: input.subscriptionId };
    if (input.to <= input.from) return meterQuantities(read, input.meters, scope, range, new Map());
    const cursors = cursorKeysOf(input);
    const key = cursors.join('\u0000');
    let hints = hintsBySet.get(key);
    if (!hints) hintsBySet.set(key, (hints = readCursors(read, cursors)));
    const known = await hints;
    const [quantities, grouped] = await Promise.all([meterQuantities(read, input.meters, scope, range, known, aggregates), groupedQuantities(read, input.groups, scope, range, known)]);
    return { ...quantities, ...grouped };
  };
}

/** Quantities of the meters over [from, to) for a subscription (meterQuantities, through the caller's transaction). */
export function quantitiesForPeriod(db: DbClient, input: QuantityRequest): Promise<Record<string, string>> {
  return quantityReader(db)(input);
}

/**
 * What a metered line's quantity was read from (stored as the line's pricing trace, shown by the
 * invoice explanation): the meter (or the event type's default), the range and window, the events
 * counted and the first and last of them, and the quantity before it is clamped at zero.
 */
export interface UsageTrace {
  meter: {
    meter_id: string | null;
    name: string | null;
    event_type: string;
    aggregation: MeterAggregation;
    property: string | null;
    filters: MeterFilter[];
    window_type: MeterWindow;
    window_size: string | null;
  };
  window: { from: string; to: string };
  event_count: number;
  late_event_count: number;
  first_event: { id: string; occurred_at: string } | null;
  last_event: { id: string; occurred_at: string } | null;
  aggregate: string;
}

/**
 * quantitiesForPeriod with each meter's trace, keyed like the quantities (the close's rating reads
 * its quantities through this). The cursors are read once, and the events counted over the range
 * are read along with the billed quantities (identical reads shared, as the usage summary does: no
 * statement more for a meter that bills the whole range); the first and last events are one
 * statement more, whatever the number of meters.
 */
export async function tracedQuantitiesForPeriod(db: DbClient, input: Omit<QuantityRequest, 'meters'> & { meters: readonly BillingMeter[] }): Promise<{ quantities: Record<string, string>; traces: Record<string, UsageTrace> }> {
  if (input.meters.length === 0 || input.to <= input.from) return { quantities: await quantitiesForPeriod(db, input), traces: {} };
  const read = prismaReader(db);
  const scope = { customerId: input.customerId, subscriptionId: input.subscriptionId };
  const range = { from: input.from, to: input.to };
  const specs = input.meters.map((m) => m.spec);
  const hints = await readCursors(read, cursorKeysOf(input));
  const plan = quantityPlan(input.meters, range);
  const [values, partials, spans, grouped] = await Promise.all([
    aggregateAll(read, [...specs.map((spec) => ({ spec, ...range })), ...plan.requests], scope, hints),
    readWindowPartials(read, plan.windowed, scope, range),
    readEventSpans(read, specs, scope, range),
    groupedQuantities(read, input.groups, scope, range, hints),
  ]);
  const counts = values.slice(0, specs.length);
  const quantities = { ...plan.finish(values.slice(specs.length), partials), ...grouped };
  const at = (event: { id: string; occurred_at: Date } | null) => (event ? { id: event.id, occurred_at: event.occurred_at.toISOString() } : null);
  const traces = Object.fromEntries(
    input.meters.map((m, i): [string, UsageTrace] => {
      return [
        m.key,
        {
          meter: {
            meter_id: m.spec.kind === 'meter' ? m.spec.meterId : null,
            name: m.name,
            event_type: m.spec.eventType,
            aggregation: m.spec.kind === 'meter' ? m.spec.aggregation : DEFAULT_AGGREGATION,
            property: m.spec.kind === 'meter' ? m.spec.property : 'quantity',
            filters: m.spec.kind === 'meter' ? m.spec.filters : [],
            window_type: m.windowType,
            window_size: m.view.window_size,
          },
          window: { from: input.from.toISOString(), to: input.to.toISOString() },
          event_count: counts[i]!.event_count,
          late_event_count: counts[i]!.late_event_count,
          first_event: at(spans[i]!.first),
          last_event: at(spans[i]!.last),
          aggregate: quantities[m.key] ?? '0',
        },
      ];
    }),
  );
  return { quantities, traces };
}

// ── Usage summary ────────────────────────────────────────────────────────────────────────────

export interface UsageQuery {
  /** Explicit window [from, to) for every meter; both or neither. */
  from?: string | undefined;
  to?: string | undefined;
  /** Reference instant: selects the billing period containing it and ends Sliding windows. */
  at?: string | undefined;
}

const dates = (interval: Interval): { start: Date; end: Date } => ({ start: new Date(interval.start), end: new Date(interval.end) });
const instants = (period: { start: Date; end: Date }): Interval => ({ start: period.start.getTime(), end: period.end.getTime() });

interface SummaryEntry {
  spec: AggregatorSpec;
  meterId: string;
  name: string;
  aggregation: MeterAggregation;
  unit: string;
  windowType: MeterWindow;
  windowSizeSeconds: number | null;
  window: { start: Date; end: Date };
}

/**
 * A billed meter value is never below zero: negative values (admin corrections, WEIGHTED_SUM level
 * deltas, events stored before the door refused them) bring it down to zero, never lower
 * (docs/failures.md). Invoicing and the usage summary's billable_value apply it alike.
 */
export function atLeastZero(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, value.startsWith('-') ? '0' : value]));
}

/** One entry per meter of the subscription's plan's metered event types ("default:<event_type>" for a type without meters). */
function summaryEntries(subscription: UsageSubject): Omit<SummaryEntry, 'window'>[] {
  return subscription.event_types.flatMap((type): Omit<SummaryEntry, 'window'>[] => {
    const own = subscription.meters.filter((m) => m.event_type === type);
    if (own.length === 0) {
      return [{ spec: defaultSpec(type), meterId: `default:${type}`, name: `${type} (default)`, aggregation: DEFAULT_AGGREGATION, unit: 'units', windowType: 'BillingPeriod', windowSizeSeconds: null }];
    }
    return own.map((m) => ({
      spec: { kind: 'meter', meterId: m.id, eventType: m.event_type, aggregation: m.aggregation, property: m.property, filters: m.filters },
      meterId: m.id,
      name: m.name,
      aggregation: m.aggregation,
      unit: m.unit,
      windowType: m.window_type,
      windowSizeSeconds: m.window_size_seconds,
    }));
  });
}

/** What the customer portal charts: each meter's value on each day of the current period so far. */
export interface DailyUsage {
  subscription_id: string;
  period_start: string;
  period_end: string;
  as_of: string;
  meters: {
    meter_id: string;
    name: string;
    aggregation: MeterAggregation;
    unit: string;
    /** 24-hour days from the period start; the last one ends at as_of. Each value is the meter's aggregate over that day alone. */
    days: { start: string; end: string; value: string }[];
  }[];
}

const DAY_MS = 86_400_000;

/**
 * The current period's usage per day (the customer portal's chart): one read per day for all meters
 * together (aggregateAll shares a range's statement), the same aggregation as the summary. A customer
 * token (ownCustomerId) sees only its own subscriptions (anything else is 404).
 */
export async function usageByDay(deps: Pick<ServiceDeps, 'pool' | 'clock'>, subscriptionId: string, ownCustomerId?: string): Promise<DailyUsage> {
  const read = poolReader(deps.pool);
  const subscription = await readUsageSubject(read, subscriptionId);
  if (!subscription || (ownCustomerId !== undefined && subscription.customer_id !== ownCustomerId)) throw notFound('subscription', subscriptionId);
  const now = subscription.clock_time ?? deps.clock();
  const start = subscription.period_start.getTime();
  const end = Math.min(subscription.period_end.getTime(), Math.max(start, now.getTime()));
  const days: { start: Date; end: Date }[] = [];
  for (let at = start; at < end; at += DAY_MS) days.push({ start: new Date(at), end: new Date(Math.min(at + DAY_MS, end)) });
  const entries = summaryEntries(subscription);
  const scope = { customerId: subscription.customer_id, subscriptionId: subscription.id };
  const values = await aggregateAll(
    read,
    entries.flatMap((e) => days.map((day) => ({ spec: e.spec, from: day.start, to: day.end }))),
    scope,
    subscription.cursors,
  );
  return {
    subscription_id: subscription.id,
    period_start: subscription.period_start.toISOString(),
    period_end: subscription.period_end.toISOString(),
    as_of: now.toISOString(),
    meters: entries.map((e, i) => ({
      meter_id: e.meterId,
      name: e.name,
      aggregation: e.aggregation,
      unit: e.unit,
      days: days.map((day, d) => ({ start: day.start.toISOString(), end: day.end.toISOString(), value: values[i * days.length + d]!.value })),
    })),
  };
}

/** Usage summaries by subscription and query, kept for USAGE_SUMMARY_CACHE_MS (src/services/read-cache.ts); off when it is 0. */
const summaryCache = new ReadCache<UsageSummary>();
/** The customer of each subscription summarized before (it never changes): kept answers are the customer's. */
const customerOfSubscription = new Map<string, string>();
const SUBSCRIPTIONS_REMEMBERED = 100_000;

/**
 * The usage summary of a subscription (readUsageSummary), kept for USAGE_SUMMARY_CACHE_MS: a dashboard
 * polling it between usage events is answered without a statement. Forgotten at once when this process
 * stores usage of the customer (forgetUsageSummaries); other changes (another API process's usage,
 * the worker's period roll) show once the answer is older than that. Its `as_of` says when it was read.
 */
export async function getUsageSummary(deps: ServiceDeps, subscriptionId: string, query: UsageQuery, ownCustomerId?: string): Promise<UsageSummary> {
  const maxAgeMs = deps.settings.usageSummaryCacheMs ?? 0;
  if (maxAgeMs <= 0) return readUsageSummary(deps, subscriptionId, query, ownCustomerId);
  const key = [subscriptionId.toLowerCase(), query.from ?? '', query.to ?? '', query.at ?? ''].join('|');
  const nowMs = deps.clock().getTime();
  const customerId = customerOfSubscription.get(subscriptionId.toLowerCase());
  const kept = customerId === undefined ? undefined : summaryCache.get(customerId, key, nowMs, maxAgeMs);
  if (kept !== undefined) {
    if (ownCustomerId !== undefined && kept.customer_id !== ownCustomerId) throw notFound('subscription', subscriptionId);
    return kept;
  }
  // The first summary of a subscription learns its customer; from the next one on, answers are kept.
  const generation = customerId === undefined ? undefined : summaryCache.generation(customerId);
  const summary = await readUsageSummary(deps, subscriptionId, query, ownCustomerId);
  if (customerOfSubscription.size >= SUBSCRIPTIONS_REMEMBERED) customerOfSubscription.clear();
  customerOfSubscription.set(subscriptionId.toLowerCase(), summary.customer_id);
  if (generation !== undefined) summaryCache.set(summary.customer_id, key, generation, summary, nowMs);
  return summary;
}

/** Usage of these customers was stored by this process: their kept summaries are stale. */
export function forgetUsageSummaries(customerIds: Iterable<string>): void {
  summaryCache.forgetCustomers(customerIds);
}

/**
 * The usage summary of a subscription: one entry per meter of its plan's metered event types
 * (meter_id "default:<event_type>" for a type without meters), each over its own window.
 * Customer tokens see only their own subscriptions (anything else is 404).
 */
async function readUsageSummary(deps: ServiceDeps, subscriptionId: string, query: UsageQuery, ownCustomerId?: string): Promise<UsageSummary> {
  const read = preparedReader(deps.pool);
  const subscription = await readUsageSubject(read, subscriptionId);
  if (!subscription || (ownCustomerId !== undefined && subscription.customer_id !== ownCustomerId)) throw notFound('subscription', subscriptionId);

  const now = subscription.clock_time ?? deps.clock();
  const asOf = query.at !== undefined ? new Date(query.at) : now;
  let period: { start: Date; end: Date };
  const custom = query.from !== undefined && query.to !== undefined;
  if (custom) {
    period = { start: new Date(query.from!), end: new Date(query.to!) };
  } else if (query.at === undefined || (asOf >= subscription.period_start && asOf < subscription.period_end)) {
    period = { start: subscription.period_start, end: subscription.period_end };
  } else {
    const found = billingPeriodAt(
      { trialDays: subscription.trial_days, trialEndMs: subscription.trial_end?.getTime() ?? null, billingAnchorMs: subscription.billing_anchor.getTime() },
      subscription.billing_cadence,
      asOf.getTime(),
    );
    if (!found) throw validation('at', `is before the subscription started (${subscription.period_start.toISOString()})`);
    period = dates(found);
  }

  const entries = summaryEntries(subscription).map(
    (e): SummaryEntry => ({
      ...e,
      window:
        custom || e.spec.kind === 'default'
          ? period
          : dates(meterWindow({ windowType: e.windowType, windowSizeSeconds: e.windowSizeSeconds }, { period: instants(period), atMs: asOf.getTime() })),
    }),
  );

  const scope = { customerId: subscription.customer_id, subscriptionId: subscription.id };
  // What the period's invoice rates for each meter, read along with the entries (identical reads shared).
  const billed = { from: period.start, to: period.end };
  const plan = quantityPlan(
    entries.map((e) => ({ key: e.meterId, spec: e.spec, windowType: e.windowType, windowSizeSeconds: e.windowSizeSeconds })),
    billed,
  );
  // Dimensional SKUs: their meters per dimension value over the period, read as the close reads them (one statement).
  const groups = subscription.grouped_skus.flatMap((sku): (GroupedMeter & { skuId: string })[] => {
    const entry = entries.find((e) => e.meterId === sku.meter_id);
    return entry === undefined || entry.spec.kind !== 'meter' ? [] : [{ key: entry.meterId, spec: entry.spec, groupBy: sku.group_by, skuId: sku.sku_id }];
  });
  const requests = [...entries.map((e) => ({ spec: e.spec, from: e.window.start, to: e.window.end })), ...plan.requests];
  const [values, partials, grouped] = await Promise.all([
    aggregateAll(read, requests, scope, subscription.cursors),
    readWindowPartials(read, plan.windowed, scope, billed),
    groups.length === 0 ? Promise.resolve([]) : readGroupedQuantities(read, groups, scope, billed, subscription.cursors),
  ]);
  // Checked after the reads: the retention records what it drops in the transaction that deletes it.
  await refuseDroppedReads(read, subscription.id, [...aggregateReads(requests), ...windowedReads(plan.windowed, billed), ...groupedReads(groups, billed, subscription.cursors)]);
  const billable = atLeastZero(plan.finish(values.slice(entries.length), partials));
  const dimensionsOf = (meterId: string) =>
    groups.flatMap((group, index) =>
      group.key !== meterId
        ? []
        : [
            {
              sku_id: group.skuId,
              group_by: [...group.groupBy],
              values: grouped
                .filter((row) => row.spec === index)
                .map((row) => ({
                  dimensions: row.values === null ? {} : Object.fromEntries(group.groupBy.map((key, i) => [key, row.values![i] ?? null])),
                  billable_value: row.quantity.startsWith('-') ? '0' : canonicalDecimal(row.quantity),
                })),
            },
          ],
    );
  return {
    subscription_id: subscription.id,
    customer_id: subscription.customer_id,
    period_start: period.start.toISOString(),
    period_end: period.end.toISOString(),
    as_of: asOf.toISOString(),
    unbillable_event_count: subscription.unbillable_events,
    meters: entries.map((e, i) => ({
      meter_id: e.meterId,
      name: e.name,
      event_type: e.spec.eventType,
      aggregation: e.aggregation,
      value: values[i]!.value,
      billable_value: billable[e.meterId]!,
      unit: e.unit,
      window_type: custom ? 'Custom' : e.windowType,
      window_start: e.window.start.toISOString(),
      window_end: e.window.end.toISOString(),
      event_count: values[i]!.event_count,
      late_event_count: values[i]!.late_event_count,
      dimensions: dimensionsOf(e.meterId),
    })),
  };
}

// ── Reads of what the retention dropped ──────────────────────────────────────────────────────

/** A read of usage (core UsageRead but whether its rollups are whole), with the event type and rollup series it reads. */
interface SeriesRead {
  eventType: string;
  /** The cursor key of the rollup series it reads (cursorKey, dimensionKey). */
  series: string;
  read: Omit<UsageRead, 'rolledUp'>;
}

/** aggregateAll's reads: each request's range, and the level before it of a WEIGHTED_SUM one (rollups, raw edges). */
function aggregateReads(requests: readonly WindowRequest[]): SeriesRead[] {
  return requests.flatMap((r): SeriesRead[] => {
    const of = (from: number | null, to: number): SeriesRead => ({ eventType: r.spec.eventType, series: cursorKey(r.spec), read: { from, to, source: 'edges' } });
    const level = r.spec.kind === 'meter' && r.spec.aggregation === 'WEIGHTED_SUM' ? [of(null, r.from.getTime())] : [];
    return [of(r.from.getTime(), r.to.getTime()), ...level];
  });
}

/** readWindowPartials' reads: the raw events of the range (and, for WEIGHTED_SUM, every one before it). */
function windowedReads(windowed: readonly { spec: AggregatorSpec & { kind: 'meter' } }[], range: { from: Date; to: Date }): SeriesRead[] {
  return windowed.flatMap(({ spec }): SeriesRead[] => {
    const of = (from: number | null, to: number): SeriesRead => ({ eventType: spec.eventType, series: cursorKey(spec), read: { from, to, source: 'raw' } });
    return [of(range.from.getTime(), range.to.getTime()), ...(spec.aggregation === 'WEIGHTED_SUM' ? [of(null, range.from.getTime())] : [])];
  });
}

/** readGroupedQuantities' reads: per-value rollups with raw partial hours at the edges, or raw events before a series' first pass. */
function groupedReads(groups: readonly GroupedMeter[], range: { from: Date; to: Date }, hints: ReadonlyMap<string, bigint>): SeriesRead[] {
  return groups.map((group) => {
    const rolled = ROLLED_DIMENSION_AGGREGATIONS.has(group.spec.aggregation) && (hints.get(dimensionKey(group)) ?? 0n) > 0n;
    const span = { from: range.from.getTime(), to: range.to.getTime() };
    return {
      eventType: group.spec.eventType,
      series: dimensionKey(group),
      read: rolled ? { ...span, source: 'edges' as const, granularities: DIMENSION_GRANULARITIES } : { ...span, source: 'raw' as const },
    };
  });
}

/**
 * Refuses (410 usage_events_pruned) an answer that would need raw events the retention dropped
 * (src/services/metering/retention.ts) instead of giving it short: a read reaching raw events before
 * what the retention dropped of its type for this subscription, or rollups there that lack them.
 * Reads answered from rollups that hold the dropped events (whole 5-minute buckets, hours and days
 * of a series that had rolled them up) stand.
 */
async function refuseDroppedReads(read: SqlReader, subscriptionId: string, reads: readonly SeriesRead[]): Promise<void> {
  if (reads.length === 0) return;
  const marks = new Map((await retentionMarksOf(read, subscriptionId)).map((mark) => [mark.eventType, mark]));
  for (const r of reads) {
    const mark = marks.get(r.eventType);
    if (mark === undefined || !needsDroppedEvents({ ...r.read, rolledUp: mark.rolledUpBy.includes(r.series) }, mark.before.getTime())) continue;
    throw new DomainError(
      'gone',
      'usage_events_pruned',
      `the raw ${r.eventType} events before ${mark.before.toISOString()} were dropped by the retention (USAGE_EVENT_RETENTION_DAYS): this window needs some of them; ask for whole 5-minute buckets or a later window`,
      { event_type: r.eventType, pruned_before: mark.before.toISOString() },
    );
  }
}

/** Rejects windows the summary cannot answer; the route's schema has checked the formats. */
export function usageQueryIssues(query: UsageQuery): { path: string; message: string }[] {
  if ((query.from === undefined) !== (query.to === undefined)) return [{ path: query.from === undefined ? 'from' : 'to', message: 'from and to go together' }];
  if (query.from !== undefined && query.at !== undefined) return [{ path: 'at', message: 'at selects a period; it cannot be combined with from/to' }];
  if (query.from !== undefined && new Date(query.from) >= new Date(query.to!)) return [{ path: 'to', message: 'must be after from' }];
  return [];
}

// ── Rollup scheduling ────────────────────────────────────────────────────────────────────────

/** One rollup pass over every meter, the default aggregators and the grouped meters' dimension series. */
export async function runRollupPass(deps: { pool: pg.Pool }): Promise<RollupPassOutcome> {
  const [specs, groups] = await Promise.all([readMeterSpecs(deps.pool), readDimensionSeries(deps.pool)]);
  return rollUpUsage(deps.pool, specs, {}, groups);
}

interface Scheduler {
  timer: NodeJS.Timeout | undefined;
  running: boolean;
  pending: boolean;
}

const schedulers = new WeakMap<pg.Pool, Scheduler>();

/**
 * Asks for a rollup pass in this process, at most ROLLUP_DELAY_MS after the first event since the
 * last one, never two at once; events arriving during a pass ask for the next. Passes of several
 * processes are safe together (each chunk locks its cursors), so every API instance may run them.
 */
export function scheduleRollup(deps: { pool: pg.Pool; logger: Logger }): void {
  let scheduler = schedulers.get(deps.pool);
  if (!scheduler) {
    scheduler = { timer: undefined, running: false, pending: false };
    schedulers.set(deps.pool, scheduler);
  }
  if (scheduler.running) {
    scheduler.pending = true;
    return;
  }
  if (scheduler.timer) return;
  const current = scheduler;
  current.timer = setTimeout(() => void runScheduled(deps, current), ROLLUP_DELAY_MS);
  current.timer.unref();
}

async function runScheduled(deps: { pool: pg.Pool; logger: Logger }, scheduler: Scheduler): Promise<void> {
  scheduler.timer = undefined;
  scheduler.running = true;
  scheduler.pending = false;
  try {
    const outcome = await runRollupPass(deps);
    if (outcome.contended) scheduler.pending = true;
  } catch (err) {
    deps.logger.warn({ err }, 'usage rollup pass failed; the next ingestion retries it');
  } finally {
    scheduler.running = false;
    if (scheduler.pending) scheduleRollup(deps);
  }
}
