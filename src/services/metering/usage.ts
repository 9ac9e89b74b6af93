/**
 * Usage aggregation: meter values over windows, the usage summary (SPEC §2 "Usage summary",
 * GET /v1/subscriptions/:id/usage) and the quantities invoicing rates.
 *
 * - Attribution: a subscription's usage is its own events (subscription_id = it) plus its
 *   customer's events sent without a subscription_id. Those count towards every subscription of the
 *   customer whose plan meters their event_type: send subscription_id when a customer has several.
 * - Exactness: values are decimal strings summed in PostgreSQL numeric ("0.1" + "0.2" = "0.3").
 *   WeightedSum is the only division; it is rounded once, half-even, to WEIGHTED_SUM_SCALE places.
 * - WeightedSum: each event's property moves a level (+5 up, "-2.5" down) that persists across
 *   windows; the value is the level's time-weighted average over the window (∫ level dt / length),
 *   e.g. average GB stored over the billing period.
 * - Latest: the value of the event with the greatest timestamp in the window (ties: greatest id).
 * - Max and Latest of a window without numeric values are "0", as are empty sums.
 * - Rollups (src/db/metering/rollups.ts) are advanced by a pass scheduled after ingestion (and runnable from
 *   anywhere with runRollupPass); reads never wait for them: anything not rolled up yet is read raw.
 */
import { billingPeriodAt, canonicalDecimal, meterWindow, weightedAverage, type Interval } from '../../core/index.js';
import type pg from 'pg';
import { cursorKey, meterSpec, type AggregatorSpec, type MeterFilter } from '../../db/metering/aggregators.js';
import { poolReader, prismaReader, type DbClient, type SqlReader } from '../../db/client.js';
import { readAggregates, readCursors, readEventSpans, readUsageSubject, type Range, type Scope } from '../../db/metering/aggregates.js';
import { firstMeters } from '../../db/metering/meters.js';
import { readMeterSpecs, rollUpUsage, type RollupPassOutcome } from '../../db/metering/rollups.js';
import type { MeterAggregation, MeterWindow } from '../../generated/prisma/client.js';
import type { ServiceDeps } from '../deps.js';
import type { Logger } from '../../logger.js';
import { notFound, validation } from '../../errors.js';
import type { UsageSummary } from '../../schemas/metering.js';

/** Places a WeightedSum value is rounded to; the usage API documents it. */
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
 * distinct window (plus, for WeightedSum, one for the level before it), run in parallel.
 */
async function aggregateAll(read: SqlReader, requests: WindowRequest[], scope: Scope, hints: Map<string, bigint>): Promise<WindowValue[]> {
  const groups = new Map<string, { range: Range; specs: AggregatorSpec[] }>();
  const slot = (range: Range, spec: AggregatorSpec): [string, number] => {
    const key = `${range.from?.getTime() ?? '-'}|${range.to.getTime()}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { range, specs: [] }));
    group.specs.push(spec);
    return [key, group.specs.length - 1];
  };
  const slots = requests.map((r) => ({
    window: slot({ from: r.from, to: r.to }, r.spec),
    before: r.spec.kind === 'meter' && r.spec.aggregation === 'WeightedSum' ? slot({ from: null, to: r.from }, r.spec) : undefined,
  }));
  const results = new Map(
    await Promise.all([...groups].map(async ([key, group]) => [key, await readAggregates(read, group.specs, scope, group.range, hints)] as const)),
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
      case 'Latest':
        value = partials.latest ?? '0';
        break;
      case 'WeightedSum': {
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
 * Quantity per meter_event_type for the SKUs of a subscription's plan over [from, to), exact
 * decimal strings. Each type uses the FIRST meter created for it (its aggregation and filters,
 * BillingPeriod semantics over [from, to) whatever its window), else the default (sum of
 * `quantity`, 1 per event without one). Events of the subscription and the customer's events
 * without a subscription_id count; late events included. "0" for types without events (and for an
 * empty range).
 */
export async function quantitiesForPeriod(db: DbClient, input: PeriodUsageInput): Promise<Record<string, string>> {
  return (await measurePeriod(db, input, false)).quantities;
}

export interface PeriodUsageInput {
  subscriptionId: string;
  customerId: string;
  eventTypes: string[];
  from: Date;
  to: Date;
}

/**
 * What a metered line's quantity was read from (stored as the line's pricing trace, shown by the
 * invoice explanation): the meter (or the event type's default), the window, the events counted
 * and the first and last of them, and the aggregate before it is clamped at zero.
 */
export interface UsageTrace {
  meter: {
    meter_id: string | null;
    name: string | null;
    event_type: string;
    aggregation: MeterAggregation;
    property: string | null;
    filters: MeterFilter[];
  };
  window: { from: string; to: string };
  event_count: number;
  late_event_count: number;
  first_event: { id: string; occurred_at: string } | null;
  last_event: { id: string; occurred_at: string } | null;
  aggregate: string;
}

/** quantitiesForPeriod with each type's trace (the close's rating reads its quantities through this). */
export async function tracedQuantitiesForPeriod(db: DbClient, input: PeriodUsageInput): Promise<{ quantities: Record<string, string>; traces: Record<string, UsageTrace> }> {
  return measurePeriod(db, input, true);
}

async function measurePeriod(db: DbClient, input: PeriodUsageInput, traced: boolean): Promise<{ quantities: Record<string, string>; traces: Record<string, UsageTrace> }> {
  const eventTypes = [...new Set(input.eventTypes)];
  if (eventTypes.length === 0) return { quantities: {}, traces: {} };
  if (input.to <= input.from) return { quantities: Object.fromEntries(eventTypes.map((type) => [type, '0'])), traces: {} };
  const first = await firstMeters(db, eventTypes);
  const specs = eventTypes.map((type) => {
    const meter = first.get(type);
    return meter ? meterSpec(meter) : defaultSpec(type);
  });
  const read = prismaReader(db);
  const hints = await readCursors(read, [...new Set(specs.map(cursorKey))]);
  const scope = { customerId: input.customerId, subscriptionId: input.subscriptionId };
  const values = await aggregateAll(read, specs.map((spec) => ({ spec, from: input.from, to: input.to })), scope, hints);
  const quantities = Object.fromEntries(eventTypes.map((type, i) => [type, values[i]!.value]));
  if (!traced) return { quantities, traces: {} };
  const spans = await readEventSpans(read, specs, scope, input);
  const at = (event: { id: string; occurred_at: Date } | null) => (event ? { id: event.id, occurred_at: event.occurred_at.toISOString() } : null);
  const traces = Object.fromEntries(
    eventTypes.map((type, i): [string, UsageTrace] => {
      const spec = specs[i]!;
      const meter = first.get(type);
      return [
        type,
        {
          meter: {
            meter_id: spec.kind === 'meter' ? spec.meterId : null,
            name: meter?.name ?? null,
            event_type: type,
            aggregation: spec.kind === 'meter' ? spec.aggregation : DEFAULT_AGGREGATION,
            property: spec.kind === 'meter' ? spec.property : 'quantity',
            filters: spec.kind === 'meter' ? spec.filters : [],
          },
          window: { from: input.from.toISOString(), to: input.to.toISOString() },
          event_count: values[i]!.event_count,
          late_event_count: values[i]!.late_event_count,
          first_event: at(spans[i]!.first),
          last_event: at(spans[i]!.last),
          aggregate: values[i]!.value,
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
  window: { start: Date; end: Date };
}

/**
 * The usage summary of a subscription: one entry per meter of its plan's metered event types
 * (meter_id "default:<event_type>" for a type without meters), each over its own window.
 * Customer tokens see only their own subscriptions (anything else is 404).
 */
export async function getUsageSummary(deps: ServiceDeps, subscriptionId: string, query: UsageQuery, ownCustomerId?: string): Promise<UsageSummary> {
  const read = poolReader(deps.pool);
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

  const entries = subscription.event_types.flatMap((type): SummaryEntry[] => {
    const own = subscription.meters.filter((m) => m.event_type === type);
    if (own.length === 0) {
      return [{ spec: defaultSpec(type), meterId: `default:${type}`, name: `${type} (default)`, aggregation: DEFAULT_AGGREGATION, unit: 'units', windowType: 'BillingPeriod', window: period }];
    }
    return own.map((m) => ({
      spec: { kind: 'meter', meterId: m.id, eventType: m.event_type, aggregation: m.aggregation, property: m.property, filters: m.filters },
      meterId: m.id,
      name: m.name,
      aggregation: m.aggregation,
      unit: m.unit,
      windowType: m.window_type,
      window: custom
        ? period
        : dates(meterWindow({ windowType: m.window_type, windowSizeSeconds: m.window_size_seconds }, { period: instants(period), atMs: asOf.getTime() })),
    }));
  });

  const scope = { customerId: subscription.customer_id, subscriptionId: subscription.id };
  const values = await aggregateAll(
    read,
    entries.map((e) => ({ spec: e.spec, from: e.window.start, to: e.window.end })),
    scope,
    subscription.cursors,
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
      unit: e.unit,
      window_type: custom ? 'Custom' : e.windowType,
      window_start: e.window.start.toISOString(),
      window_end: e.window.end.toISOString(),
      event_count: values[i]!.event_count,
      late_event_count: values[i]!.late_event_count,
    })),
  };
}

/** Rejects windows the summary cannot answer; the route's schema has checked the formats. */
export function usageQueryIssues(query: UsageQuery): { path: string; message: string }[] {
  if ((query.from === undefined) !== (query.to === undefined)) return [{ path: query.from === undefined ? 'from' : 'to', message: 'from and to go together' }];
  if (query.from !== undefined && query.at !== undefined) return [{ path: 'at', message: 'at selects a period; it cannot be combined with from/to' }];
  if (query.from !== undefined && new Date(query.from) >= new Date(query.to!)) return [{ path: 'to', message: 'must be after from' }];
  return [];
}

// ── Rollup scheduling ────────────────────────────────────────────────────────────────────────

/** One rollup pass over every meter and the default aggregators. */
export async function runRollupPass(deps: { pool: pg.Pool }): Promise<RollupPassOutcome> {
  return rollUpUsage(deps.pool, await readMeterSpecs(deps.pool));
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
