/**
 * The terms that price a subscription's period: the contract it is linked to, mapped onto the
 * rating core (ratePeriodAcrossPhases), and what that rating says about each ramp phase's commit.
 *
 * - Mapping: every term (ramp phase) carries its own discount, rate and tier overrides, falling
 *   back to the contract-level ones; the contract-level values are folded into the terms instead of
 *   being handed to the core on their own, so the days of a period outside the contract's terms
 *   are rated at list price. Escalation steps every `interval_months` from the contract's
 *   start_date (core escalationPeriodsAt) and stops at its end_date (or after its termination
 *   day): a period crossing the contract end is escalated on its days inside the contract only.
 * - A Terminated contract's terms end after its termination day (that day is the last one served,
 *   as cancellation_credit counts it); phases after it are dropped.
 * - A Draft contract prices nothing. Amended, Expired and Terminated contracts still price the
 *   days their terms covered, so re-rating a period that straddles a move gives what was billed.
 * - Usage is priced where it was consumed: the period is split at each phase and escalation
 *   boundary, and the period-to-date quantities at those dates are read from the meters.
 * - Commit draw-down: the usage charges of a phase (rated lines of usage SKUs in the pieces of the
 *   period that fall in the phase) draw down that phase's commit, in the order they were incurred;
 *   a term with a commit_product_tag only takes charges of SKUs whose product carries the tag.
 */
import {
  addDays,
  drawDown,
  percentageFeeQuantity,
  periodPieces,
  ratePeriodAcrossPhases,
  ratePlan,
  type Charge,
  type ContractPricing,
  type ContractTerm,
  type DateRange,
  type MinimumTrueUp,
  type RatedLine,
  type RatedPeriod,
  type SkuPrice,
  type Tier,
} from '../../core/index.js';
import type { ContractRecord, TermRecord } from '../../db/contracts.js';
import type { DbClient } from '../../db/client.js';
import type { Db } from '../../db/client.js';
import { atLeastZero, quantityReader, resolveSkuMeters, tracedQuantitiesForPeriod, type MeterLookups, type QuantityReader, type UsageTrace } from '../metering/usage.js';
import { percentageFeeSums, type PercentageFeeSpec } from '../../db/metering/percentage-fees.js';

const toTiers = (tiers: readonly { up_to: number | null; unit_amount_nanos: string; flat_amount_nanos?: string }[]): Tier[] =>
  tiers.map((tier) => ({
    up_to: tier.up_to === null ? null : BigInt(tier.up_to),
    unit_amount_nanos: BigInt(tier.unit_amount_nanos),
    ...(tier.flat_amount_nanos === undefined ? {} : { flat_amount_nanos: BigInt(tier.flat_amount_nanos) }),
  }));

/** The terms a contract prices with, as the core reads them (see the file header). */
export function contractPricing(contract: ContractRecord): ContractPricing | undefined {
  if (contract.status === 'Draft') return undefined;
  const lastDay = contract.terminated_on === null ? null : addDays(contract.terminated_on, 1);
  const terms: ContractTerm[] = [];
  for (const term of contract.terms) {
    if (lastDay !== null && term.start_date >= lastDay) continue;
    const end = lastDay !== null && term.end_date > lastDay ? lastDay : term.end_date;
    const discount = term.discount_bps ?? contract.discount_bps;
    const rateOverrides = term.rate_overrides ?? contract.rate_overrides;
    const tierOverrides = term.tier_overrides ?? contract.tier_overrides;
    terms.push({
      phase: term.phase,
      start_date: term.start_date,
      end_date: end,
      committed_amount_nanos: BigInt(term.committed_amount_nanos),
      description: term.description,
      ...(discount === null ? {} : { discount_bps: discount }),
      ...(rateOverrides === null ? {} : { rate_overrides: rateOverrides }),
      ...(tierOverrides === null ? {} : { tier_overrides: tierOverrides.map((o) => ({ sku_id: o.sku_id, tiers: toTiers(o.tiers) })) }),
    });
  }
  const escalation = contract.escalation;
  return {
    terms,
    ...(escalation === null
      ? {}
      : {
          escalation: {
            escalation: escalation.kind === 'Percent' ? { kind: 'Percent', basis_points: escalation.basis_points } : { kind: 'Fixed', amount_nanos: BigInt(escalation.amount_nanos) },
            start_date: contract.start_date,
            interval_months: escalation.interval_months,
            // Escalation is a contract term: the days after the contract (or after its termination) are not escalated.
            end_date: lastDay ?? contract.end_date,
          },
        }),
  };
}

export interface SubscriptionUsageScope {
  subscriptionId: string;
  customerId: string;
}

export interface PeriodRatingInput {
  skus: readonly SkuPrice[];
  /** The billing period (civil dates). */
  period: DateRange;
  /** The part of it served by this plan phase, when not all of it. */
  service?: DateRange;
  /** Usage is read over [from, to). */
  from: Date;
  to: Date;
  /** The subscription's contract (any status), or null. */
  contract: ContractRecord | null;
  /** How the meters are read: a reader of this call's own unless the caller reads many periods at once. */
  quantities?: QuantityReader;
  /** How the SKUs' meters are found: read for this call unless the caller rates many periods at once. */
  meters?: MeterLookups;
}

const civilStart = (civil: string): Date => new Date(`${civil}T00:00:00.000Z`);

export interface PeriodRating {
  /** One line per SKU, in the order of the SKUs. */
  lines: readonly RatedLine[];
  /** The minimum-spend true-ups of the SKUs with a minimum (core minimumTrueUps). */
  minimums: readonly MinimumTrueUp[];
  /** The rating split at the contract's boundaries; null without a contract in force. */
  rated: RatedPeriod | null;
  /** Per meter (its key: the meter's id, or default:<event_type>): what its quantity over [from, to) was read from (meter, window, events). */
  usage: Readonly<Record<string, UsageTrace>>;
}

/**
 * Rates one plan phase of a period: under the contract's terms when the subscription has one
 * (split at phase and escalation boundaries), else exactly as before contracts existed (ratePlan).
 */
export async function rateUnderContract(db: DbClient, scope: SubscriptionUsageScope, input: PeriodRatingInput): Promise<PeriodRating> {
  // Each usage SKU reads its own meter (the one it names, else its event type's default meter).
  const { skus, meters, groups } = await resolveSkuMeters(db, input.skus, input.meters);
  const percentages = percentageSpecs(skus);
  // A meter's value billed for a period is never below zero: negative values (admin corrections,
  // WEIGHTED_SUM level deltas, events stored before the door refused them) can bring it down to
  // zero, never lower (docs/failures.md); the usage summary still shows the raw value.
  const read = input.quantities ?? quantityReader(db);
  // Percentage SKUs are keyed by sku_id (core usageKey): the exact sum of their per-event fees.
  const percentageFees = async (to: Date): Promise<Record<string, string>> =>
    Object.fromEntries([...(await percentageFeeSums(db, percentages, scope, input.from, to))].map(([skuId, fees]) => [skuId, percentageFeeQuantity(fees)]));
  const quantities = async (to: Date): Promise<Record<string, string>> =>
    to > input.from ? { ...atLeastZero(await read({ subscriptionId: scope.subscriptionId, customerId: scope.customerId, meters, groups, from: input.from, to })), ...(await percentageFees(to)) } : {};
  // The whole range's read is traced (the events it counted are the explanation of the line), unless
  // the caller reads many periods through its own reader (a simulation, which explains nothing).
  let usage: Record<string, string> = {};
  let traces: Record<string, UsageTrace> = {};
  if (input.quantities === undefined && input.to > input.from) {
    const measured = await tracedQuantitiesForPeriod(db, { subscriptionId: scope.subscriptionId, customerId: scope.customerId, meters, groups, from: input.from, to: input.to });
    usage = { ...atLeastZero(measured.quantities), ...(await percentageFees(input.to)) };
    traces = measured.traces;
  } else {
    usage = await quantities(input.to);
  }
  const service = input.service ? { service: input.service } : {};
  const pricing = input.contract === null ? undefined : contractPricing(input.contract);
  if (pricing === undefined) {
    const plan = ratePlan({ skus, usage, asOf: (input.service ?? input.period).start, period: input.period, ...service });
    return { lines: plan.lines, minimums: plan.minimums, rated: null, usage: traces };
  }
  const usageToDate: Record<string, Record<string, string>> = {};
  for (const piece of periodPieces(input.period, pricing, input.service).slice(1)) {
    const boundary = civilStart(piece.start);
    usageToDate[piece.start] = await quantities(boundary < input.to ? boundary : input.to);
  }
  const rated = ratePeriodAcrossPhases({ skus, usage, usage_to_date: usageToDate, contract: pricing, period: input.period, ...service });
  return { lines: rated.lines, minimums: rated.minimums, rated, usage: traces };
}

/** What the database needs to sum the per-event fees of the Percentage SKUs. */
function percentageSpecs(skus: readonly SkuPrice[]): PercentageFeeSpec[] {
  return skus.flatMap((sku): PercentageFeeSpec[] =>
    sku.pricing_model === 'Percentage'
      ? [
          {
            skuId: sku.sku_id,
            eventType: sku.meter_event_type as string,
            property: sku.amount_property as string,
            basisPoints: sku.percentage_bps as number,
            feeNanos: sku.per_event_fee_nanos ?? 0n,
            minimumNanos: sku.per_event_minimum_nanos ?? null,
            maximumNanos: sku.per_event_maximum_nanos ?? null,
          },
        ]
      : [],
  );
}

const USAGE_MODELS = new Set(['PerUnit', 'Graduated', 'Volume', 'Package', 'Percentage']);

/** The usage charges of a rated period in each ramp phase, tagged with their SKU's product tags. */
export function usageChargesByPhase(rated: RatedPeriod, skus: readonly SkuPrice[], prefix: string): Map<number, Charge[]> {
  const tags = new Map(skus.map((sku) => [sku.sku_id, sku.tags ?? []]));
  const byPhase = new Map<number, Charge[]>();
  for (const piece of rated.pieces) {
    if (piece.phase === null) continue;
    for (const line of piece.lines as readonly RatedLine[]) {
      if (!USAGE_MODELS.has(line.pricing_model) || line.amount_nanos <= 0n) continue;
      const charges = byPhase.get(piece.phase) ?? [];
      charges.push({ line_id: `${prefix}:${piece.start}:${line.sku_id}`, amount_nanos: line.amount_nanos, tags: tags.get(line.sku_id) ?? [] });
      byPhase.set(piece.phase, charges);
    }
  }
  return byPhase;
}

export interface CommitBalance {
  phase: number;
  committed_nanos: bigint;
  /** Usage charges of the phase the commit may absorb (tag-scoped). */
  eligible_usage_nanos: bigint;
  drawn_down_nanos: bigint;
  remaining_nanos: bigint;
}

/** Draws each phase's commit down with the phase's usage charges (in the order given). */
export function commitBalances(terms: readonly TermRecord[], charges: ReadonlyMap<number, readonly Charge[]>): CommitBalance[] {
  return terms.map((term) => {
    const committed = BigInt(term.committed_amount_nanos);
    const phaseCharges = charges.get(term.phase) ?? [];
    const result = drawDown(
      [{ id: `phase-${term.phase}`, remaining_nanos: committed, priority: term.phase, ...(term.commit_product_tag === null ? {} : { product_tag: term.commit_product_tag }) }],
      phaseCharges,
    );
    const eligible = phaseCharges
      .filter((charge) => term.commit_product_tag === null || charge.tags.includes(term.commit_product_tag))
      .reduce((sum, charge) => sum + charge.amount_nanos, 0n);
    const drawn = result.total_applied_nanos;
    return { phase: term.phase, committed_nanos: committed, eligible_usage_nanos: eligible, drawn_down_nanos: drawn, remaining_nanos: committed - drawn };
  });
}
