/**
 * The pure arithmetic of metering, on instants in epoch milliseconds (UTC) and exact decimal text:
 * meter windows, the billing period containing an instant, the WEIGHTED_SUM division, and how a
 * time range splits into raw-event edges and aligned rollup buckets.
 */
import { roundDiv } from './money.js';
import { addMonthsAnchored, anchorDayOf, CADENCE_MONTHS, type BillingCadence } from './periods.js';

/** A half-open range of instants [start, end), epoch milliseconds. */
export interface Interval {
  start: number;
  end: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** Non-negative remainder of integer division (instants before 1970 included). */
const mod = (ms: number, size: number): number => ((ms % size) + size) % size;
/** Integer quotient rounding toward −∞. */
const floorDiv = (a: number, b: number): number => (a - mod(a, b)) / b;
/** The greatest multiple of `size` at or below `ms`. */
const floorTo = (ms: number, size: number): number => ms - mod(ms, size);
/** The least multiple of `size` at or above `ms`. */
const ceilTo = (ms: number, size: number): number => (mod(ms, size) === 0 ? ms : floorTo(ms, size) + size);

// ── Exact decimal text ───────────────────────────────────────────────────────────────────────

/** Places a WEIGHTED_SUM value is rounded to (once, half-even). */
export const WEIGHTED_SUM_SCALE = 12;

/** PostgreSQL numeric text without trailing fractional zeros: "1.500" → "1.5", "-0.00" → "0". */
export function canonicalDecimal(text: string): string {
  let out = text;
  if (out.includes('.')) out = out.replace(/0+$/, '').replace(/\.$/, '');
  return out === '-0' ? '0' : out;
}

function toScaled(text: string): { coefficient: bigint; scale: number } {
  const dot = text.indexOf('.');
  return dot < 0 ? { coefficient: BigInt(text), scale: 0 } : { coefficient: BigInt(text.slice(0, dot) + text.slice(dot + 1)), scale: text.length - dot - 1 };
}

const atScale = (q: { coefficient: bigint; scale: number }, scale: number) => q.coefficient * 10n ** BigInt(scale - q.scale);

/**
 * Time-weighted average level over [fromMs, toMs): (L0·D + to·S − W) / D, where L0 is the level at
 * the window start, S the sum of the window's increments and W their Σ value × epoch ms. Decimal
 * text in, decimal text out, rounded once to WEIGHTED_SUM_SCALE places.
 */
export function weightedAverage(levelBefore: string, sum: string, weighted: string, fromMs: number, toMs: number): string {
  const parts = [toScaled(levelBefore), toScaled(sum), toScaled(weighted)];
  const scale = parts.reduce((max, p) => (p.scale > max ? p.scale : max), 0);
  const [l0, s, w] = parts.map((p) => atScale(p, scale)) as [bigint, bigint, bigint];
  const duration = BigInt(toMs - fromMs);
  const integral = l0 * duration + BigInt(toMs) * s - w;
  const value = roundDiv(integral * 10n ** BigInt(WEIGHTED_SUM_SCALE), duration * 10n ** BigInt(scale), 'HalfEven');
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(WEIGHTED_SUM_SCALE + 1, '0');
  const cut = digits.length - WEIGHTED_SUM_SCALE;
  return canonicalDecimal(`${negative ? '-' : ''}${digits.slice(0, cut)}.${digits.slice(cut)}`);
}

// ── Windows and periods ──────────────────────────────────────────────────────────────────────

export type MeterWindowType = 'BillingPeriod' | 'Sliding' | 'Tumbling';

/**
 * The window a meter aggregates over, given the billing period and the reference instant `atMs`:
 * the period itself, the `windowSizeSeconds` ending at `atMs` (Sliding), or the epoch-aligned
 * window of that size containing `atMs` (Tumbling).
 */
export function meterWindow(
  meter: { windowType: MeterWindowType; windowSizeSeconds: number | null },
  context: { period: Interval; atMs: number },
): Interval {
  if (meter.windowType === 'BillingPeriod' || meter.windowSizeSeconds === null) return context.period;
  const sizeMs = meter.windowSizeSeconds * 1000;
  if (meter.windowType === 'Sliding') return { start: context.atMs - sizeMs, end: context.atMs };
  const start = floorTo(context.atMs, sizeMs);
  return { start, end: start + sizeMs };
}

/** Canonical ISO 8601 text of a window size: 86400 → "P1D", 5400 → "PT1H30M". */
export function formatWindowSize(seconds: number): string {
  const days = floorDiv(seconds, 86_400);
  const hours = floorDiv(mod(seconds, 86_400), 3_600);
  const minutes = floorDiv(mod(seconds, 3_600), 60);
  const secs = seconds % 60;
  const time = `${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${secs ? `${secs}S` : ''}`;
  return `P${days ? `${days}D` : ''}${time ? `T${time}` : ''}`;
}

// ── Billing over windows ─────────────────────────────────────────────────────────────────────

/**
 * The part of a billed range [start, end) a meter's quantity is read over, and how:
 * - BillingPeriod: the whole range, one aggregate;
 * - Tumbling: the epoch-aligned windows of `windowSizeSeconds` the range meets, each clipped to the
 *   range; the quantity is the sum of each window's aggregate (e.g. the sum of daily maxima);
 * - Sliding: the one window of `windowSizeSeconds` ending at the end of the range (at a period close,
 *   the period end), clipped to the range: the rolling value as the period ends.
 */
export function billedSpan(meter: { windowType: MeterWindowType; windowSizeSeconds: number | null }, range: Interval): Interval {
  if (meter.windowType !== 'Sliding' || meter.windowSizeSeconds === null) return range;
  const start = range.end - meter.windowSizeSeconds * 1000;
  return { start: start > range.start ? start : range.start, end: range.end };
}

/** A Tumbling window met by a range: its index (start / size) and its part inside the range. */
export interface TumblingWindow extends Interval {
  index: number;
}

/** The epoch-aligned window `index` of `sizeMs`, clipped to the range. */
function clippedWindow(range: Interval, sizeMs: number, index: number): TumblingWindow {
  const start = index * sizeMs;
  const end = start + sizeMs;
  return { index, start: start > range.start ? start : range.start, end: end < range.end ? end : range.end };
}

/** The first and last index of the epoch-aligned windows of `sizeMs` that a non-empty [start, end) meets. */
function windowIndexes(range: Interval, sizeMs: number): { first: number; last: number } {
  return { first: floorDiv(range.start, sizeMs), last: floorDiv(range.end - 1, sizeMs) };
}

/** The epoch-aligned windows of `sizeMs` that [start, end) meets, in order, each clipped to it. */
export function tumblingWindows(range: Interval, sizeMs: number): TumblingWindow[] {
  if (range.end <= range.start) return [];
  const { first, last } = windowIndexes(range, sizeMs);
  const windows: TumblingWindow[] = [];
  for (let index = first; index <= last; index += 1) windows.push(clippedWindow(range, sizeMs, index));
  return windows;
}

/** Aggregations as the metering core sums them over windows (SPEC spellings). */
export type WindowAggregation = 'Sum' | 'Count' | 'Max' | 'UniqueCount' | 'LATEST' | 'WEIGHTED_SUM';

/** What one Tumbling window holds, as exact decimal text (absent windows had no matching event). */
export interface WindowPartial {
  index: number;
  count: string;
  sum: string | null;
  max: string | null;
  latest: string | null;
  distinct: string | null;
  /** Σ value × epoch milliseconds (WEIGHTED_SUM). */
  weighted: string | null;
}

const scaledText = (value: bigint, scale: number): string => {
  if (scale === 0) return value.toString();
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const cut = digits.length - scale;
  return canonicalDecimal(`${negative ? '-' : ''}${digits.slice(0, cut)}.${digits.slice(cut)}`);
};

/** Exact sum of decimal texts (no bound on digits, unlike quantities). */
export function addDecimals(a: string, b: string): string {
  const [x, y] = [toScaled(a), toScaled(b)];
  const scale = x.scale > y.scale ? x.scale : y.scale;
  return scaledText(atScale(x, scale) + atScale(y, scale), scale);
}

/** Exact product of decimal text and a whole number. */
const timesWhole = (a: string, k: number): string => {
  const x = toScaled(a);
  return scaledText(x.coefficient * BigInt(k), x.scale);
};

function windowValue(aggregation: WindowAggregation, p: WindowPartial): string {
  switch (aggregation) {
    case 'Count':
      return p.count;
    case 'Max':
      return p.max ?? '0';
    case 'UniqueCount':
      return p.distinct ?? '0';
    case 'LATEST':
      return p.latest ?? '0';
    default:
      return p.sum ?? '0';
  }
}

/**
 * A Tumbling meter's quantity over `range`: the sum over the windows it meets (tumblingWindows) of
 * each window's aggregate. A window without events counts 0, except for WEIGHTED_SUM, whose level
 * carries across windows (`levelBefore` is the level at the range start): each window adds its
 * time-weighted average level, so a P1D window sums GB-days. Work is proportional to the windows
 * with events, not to all windows of the range.
 */
export function tumblingTotal(aggregation: WindowAggregation, partials: readonly WindowPartial[], range: Interval, sizeMs: number, levelBefore = '0'): string {
  if (range.end <= range.start) return '0';
  const { first, last } = windowIndexes(range, sizeMs);
  const inRange = partials.filter((p) => p.index >= first && p.index <= last).sort((a, b) => a.index - b.index);
  let total = '0';
  if (aggregation !== 'WEIGHTED_SUM') {
    for (const p of inRange) total = addDecimals(total, windowValue(aggregation, p));
    return total;
  }
  let level = levelBefore;
  let next = first;
  for (const p of inRange) {
    // Windows without events average the level they hold throughout.
    total = addDecimals(total, timesWhole(level, p.index - next));
    const window = clippedWindow(range, sizeMs, p.index);
    total = addDecimals(total, weightedAverage(level, p.sum ?? '0', p.weighted ?? '0', window.start, window.end));
    level = addDecimals(level, p.sum ?? '0');
    next = p.index + 1;
  }
  return addDecimals(total, timesWhole(level, last + 1 - next));
}

/** Aggregations whose sum over windows is their value over the whole range (Tumbling bills them as BillingPeriod). */
export const ADDITIVE_AGGREGATIONS: ReadonlySet<WindowAggregation> = new Set(['Sum', 'Count']);

export interface PeriodSource {
  trialDays: number;
  /** End of the trial (the first period), or null without one. */
  trialEndMs: number | null;
  /** Start of the first paid period: its day of month anchors every later period. */
  billingAnchorMs: number;
}

/**
 * The billing period containing `atMs`: the trial (the first period) or an anchored period of the
 * cadence, as the subscription workflow rolls them. Undefined before the subscription started.
 */
export function billingPeriodAt(subscription: PeriodSource, cadence: BillingCadence, atMs: number): Interval | undefined {
  const { trialEndMs } = subscription;
  if (trialEndMs !== null && atMs < trialEndMs) {
    const start = trialEndMs - subscription.trialDays * DAY_MS;
    return atMs >= start ? { start, end: trialEndMs } : undefined;
  }
  const anchor = subscription.billingAnchorMs;
  if (atMs < anchor) return undefined;
  const months = CADENCE_MONTHS[cadence];
  const day = anchorDayOf(anchor);
  // Months elapsed are at least (at − anchor) / 31 days: start one period below and walk up.
  const estimate = floorDiv(atMs - anchor, 31 * DAY_MS * months) - 1;
  let k = estimate > 0 ? estimate : 0;
  while (addMonthsAnchored(anchor, (k + 1) * months, day) <= atMs) k += 1;
  return { start: addMonthsAnchored(anchor, k * months, day), end: addMonthsAnchored(anchor, (k + 1) * months, day) };
}

// ── Rollup spans ─────────────────────────────────────────────────────────────────────────────

/** Rollup bucket sizes in minutes, finest first: 5 minutes, an hour and a UTC day. */
export const GRANULARITIES = [5, 60, 1440] as const;

/** [from, to) in epoch milliseconds; from null means "since the beginning". */
export interface Span {
  from: number | null;
  to: number;
}

export interface RollupSpan extends Span {
  /** Bucket size in minutes (one of GRANULARITIES). */
  granularity: number;
}

/**
 * How a range is read: raw events at the edges (less than 5 minutes each), then rollups, coarsest
 * first: whole UTC days inside, whole hours around them, whole 5-minute buckets around those.
 * Together they cover the range exactly once; `rolled` is the span the rollups cover, inside which
 * events after the rollup cursor are read raw.
 */
export function rollupSpans(range: Span, granularities: readonly number[] = GRANULARITIES): { edges: Span[]; rolled: Span | null; spans: RollupSpan[] } {
  const finest = granularities[0]! * MINUTE_MS;
  let lo = range.from === null ? null : ceilTo(range.from, finest);
  let hi = floorTo(range.to, finest);
  if (lo !== null && lo >= hi) return { edges: [{ from: range.from, to: range.to }], rolled: null, spans: [] };
  const edges: Span[] = [];
  if (range.from !== null && lo !== null && range.from < lo) edges.push({ from: range.from, to: lo });
  if (hi < range.to) edges.push({ from: hi, to: range.to });
  const rolled = { from: lo, to: hi };
  const spans: RollupSpan[] = [];
  let level = 0;
  for (let next = 1; next < granularities.length; next += 1) {
    const size = granularities[next]! * MINUTE_MS;
    const nextLo = lo === null ? null : ceilTo(lo, size);
    const nextHi = floorTo(hi, size);
    if (nextLo !== null && nextLo >= nextHi) break;
    const granularity = granularities[level]!;
    if (lo !== null && nextLo !== null && lo < nextLo) spans.push({ granularity, from: lo, to: nextLo });
    if (nextHi < hi) spans.push({ granularity, from: nextHi, to: hi });
    [lo, hi, level] = [nextLo, nextHi, next];
  }
  spans.push({ granularity: granularities[level]!, from: lo, to: hi });
  return { edges, rolled, spans };
}

// ── Raw event retention ──────────────────────────────────────────────────────────────────────

/**
 * Days the raw event retention (USAGE_EVENT_RETENTION_DAYS) must exceed the late-usage window
 * (LATE_USAGE_MAX_DAYS) by. A dropped event sent again must be refused at the door as too old,
 * never stored and counted a second time: the door judges an event by the customer's now as the
 * ingesting statement read it, the retention by its own run's now. The day covers what separates
 * the two: clocks of different hosts, and an ingesting statement that read its now and then waited
 * (for a period close's row lock, for a pooled connection) while the retention ran.
 */
export const USAGE_RETENTION_MARGIN_DAYS = 1;

/** Why a retention of `retentionDays` is refused next to a late-usage window of `lateUsageMaxDays`; null when it is allowed. */
export function usageRetentionProblem(retentionDays: number, lateUsageMaxDays: number): string | null {
  const least = lateUsageMaxDays + USAGE_RETENTION_MARGIN_DAYS;
  if (retentionDays >= least) return null;
  return (
    `must be at least LATE_USAGE_MAX_DAYS + ${USAGE_RETENTION_MARGIN_DAYS} (${least} days with LATE_USAGE_MAX_DAYS=${lateUsageMaxDays}): ` +
    'an event the retention dropped must be refused as too old when it is sent again, never counted twice'
  );
}

/**
 * One read of usage over [from, to) (from null: since the beginning, the level before a
 * WEIGHTED_SUM window), as the metering reads take it: `edges` reads the rollups of the whole
 * buckets inside it (rollupSpans over `granularities`) and raw events at its edges; `raw` reads
 * every raw event of the range. `rolledUp`: whether the rollups it reads hold every event the
 * retention dropped (their series existed, and had passed them, when the first ones were dropped).
 */
export interface UsageRead {
  from: number | null;
  to: number;
  source: 'edges' | 'raw';
  granularities?: readonly number[];
  rolledUp: boolean;
}

/**
 * Whether a read needs events the retention dropped, that is raw events before `prunedBefore`
 * (epoch ms; every dropped event of the read's type and subscription lies before it): a raw read
 * reaching before it, an edge before it, or rollups before it that miss the dropped events.
 */
export function needsDroppedEvents(read: UsageRead, prunedBefore: number): boolean {
  if (read.from !== null && read.to <= read.from) return false;
  const start = read.from ?? -Infinity;
  if (start >= prunedBefore) return false;
  if (read.source === 'raw' || !read.rolledUp) return true;
  return rollupSpans({ from: read.from, to: read.to }, read.granularities).edges.some((edge) => (edge.from ?? -Infinity) < prunedBefore);
}
