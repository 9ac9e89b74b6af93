/**
 * The pure arithmetic of metering, on instants in epoch milliseconds (UTC) and exact decimal text:
 * meter windows, the billing period containing an instant, the WeightedSum division, and how a
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

/** Places a WeightedSum value is rounded to (once, half-even). */
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
export function rollupSpans(range: Span): { edges: Span[]; rolled: Span | null; spans: RollupSpan[] } {
  const finest = GRANULARITIES[0] * MINUTE_MS;
  let lo = range.from === null ? null : ceilTo(range.from, finest);
  let hi = floorTo(range.to, finest);
  if (lo !== null && lo >= hi) return { edges: [{ from: range.from, to: range.to }], rolled: null, spans: [] };
  const edges: Span[] = [];
  if (range.from !== null && lo !== null && range.from < lo) edges.push({ from: range.from, to: lo });
  if (hi < range.to) edges.push({ from: hi, to: range.to });
  const rolled = { from: lo, to: hi };
  const spans: RollupSpan[] = [];
  let level = 0;
  for (let next = 1; next < GRANULARITIES.length; next += 1) {
    const size = GRANULARITIES[next]! * MINUTE_MS;
    const nextLo = lo === null ? null : ceilTo(lo, size);
    const nextHi = floorTo(hi, size);
    if (nextLo !== null && nextLo >= nextHi) break;
    const granularity = GRANULARITIES[level]!;
    if (lo !== null && nextLo !== null && lo < nextLo) spans.push({ granularity, from: lo, to: nextLo });
    if (nextHi < hi) spans.push({ granularity, from: nextHi, to: hi });
    [lo, hi, level] = [nextLo, nextHi, next];
  }
  spans.push({ granularity: GRANULARITIES[level]!, from: lo, to: hi });
  return { edges, rolled, spans };
}
