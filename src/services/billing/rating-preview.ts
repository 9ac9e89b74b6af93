/**
 * Rating preview: what a plan would charge for given usage quantities and optional contract terms,
 * computed by the pure rating core (ratePeriodAcrossPhases) with no side effects: it only reads the
 * catalog.
 *
 * Defaults: the period is one billing cadence of the plan starting at as_of; as_of is period.start
 * when a period is given (any other as_of is refused: the terms are resolved per day of the
 * period, so it would be ignored), else today (UTC). The period is split where a ramp phase or an
 * escalation step begins or ends inside it; each piece is rated under its own terms (recurring fees
 * prorated by days, usage priced where it was consumed, tiers counted over the whole period), so
 * a split period needs the period-to-date usage at each inner boundary (usage_to_date). Quantities
 * are keyed by meter_id (a SKU's meter, as billing resolves it: the one it names, else its event type's
 * default meter) or by meter_event_type (every SKU rating that type, unless its meter_id is given
 * too), a Percentage SKU's fee sum by its sku_id; a key that no usage SKU of the plan rates is refused (a typo would
 * otherwise price as zero), and missing meters count as 0. The one display rounding (SPEC global
 * rule 2) is applied to the total only, HalfEven, to the currency's minor unit.
 */
import { findPlanPricing, missingReference, type TierRecord } from '../../db/catalog.js';
import {
  addMonthsClamped,
  CADENCE_MONTHS,
  CoreValidationError,
  dimensionalMeterKey,
  groupedUsageKey,
  parseCivilParts,
  ratePeriodAcrossPhases,
  serializeRatedPeriod,
  toDisplay,
  usageKey,
  validateTiers,
  type CivilDate,
  type ContractPricing,
  type ContractTerm,
  type EscalationSchedule,
  type PricingModel,
  type Problem,
  type RateOverride,
  type SkuPrice,
  type Tier,
  type TierOverride,
} from '../../core/index.js';
import type { ServiceDeps } from '../deps.js';
import type { BillingCadence } from '../../generated/prisma/client.js';
import { issuePath, problemsError } from '../catalog/catalog.js';
import { DomainError } from '../../errors.js';
import { resolveSkuMeters } from '../metering/usage.js';
import type { RatingPreview } from '../../schemas/rating.js';

export interface TierOverrideInput {
  sku_id: string;
  tiers: TierRecord[];
}

export type EscalationInput = { start_date: CivilDate; interval_months: number } & (
  | { kind: 'Percent'; basis_points: number }
  | { kind: 'Fixed'; amount_nanos: string }
);

interface PhasePricingInput {
  discount_bps?: number;
  tier_overrides?: TierOverrideInput[];
  rate_overrides?: RateOverride[];
}

export interface ContractTermInput extends PhasePricingInput {
  phase: number;
  start_date: CivilDate;
  end_date: CivilDate;
  committed_amount_nanos: string;
  description: string;
}

export interface ContractInput extends PhasePricingInput {
  escalation?: EscalationInput;
  terms?: ContractTermInput[];
}

export interface RatingPreviewInput {
  plan_id: string;
  quantities: Record<string, string>;
  /** A dimensional SKU's quantity per dimension value over the whole period. */
  dimension_quantities?: { sku_id: string; dimensions: Record<string, string | null>; quantity: string }[];
  /** Period-to-date quantities at each inner boundary: date → meter → quantity over [period.start, date). */
  usage_to_date?: Record<CivilDate, Record<string, string>>;
  as_of?: CivilDate;
  period?: { start: CivilDate; end: CivilDate };
  contract?: ContractInput;
}

/** One billing cadence after `date`, on its day of month clamped to shorter months. */
function addCadence(date: CivilDate, cadence: BillingCadence): CivilDate {
  return addMonthsClamped(date, CADENCE_MONTHS[cadence], parseCivilParts(date, 'as_of').day);
}

/** Core fields name contract parts without the `contract.` prefix the request nests them under. */
const CONTRACT_FIELD = /^(discount_bps|tier_overrides|rate_overrides|terms|escalation)\b/;
const RENAMED_FIELDS: Readonly<Record<string, string>> = { asOf: 'as_of', periods_elapsed: 'contract.escalation' };
const requestPath = (field: string): string => RENAMED_FIELDS[field] ?? issuePath(CONTRACT_FIELD.test(field) ? `contract.${field}` : field);

const toTiers = (tiers: readonly TierRecord[]): Tier[] =>
  tiers.map((tier) => ({
    up_to: tier.up_to === null ? null : BigInt(tier.up_to),
    unit_amount_nanos: BigInt(tier.unit_amount_nanos),
    ...(tier.flat_amount_nanos === undefined ? {} : { flat_amount_nanos: BigInt(tier.flat_amount_nanos) }),
  }));

/**
 * Tier overrides checked against the plan here, where the request path of each is known (the core
 * reports them without saying whether they came from the contract or one of its terms).
 */
function tierOverrideProblems(overrides: readonly TierOverrideInput[] | undefined, field: string, models: ReadonlyMap<string, PricingModel>): Problem[] {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  (overrides ?? []).forEach((override, index) => {
    const at = `${field}[${index}]`;
    const model = models.get(override.sku_id);
    if (model === undefined) {
      problems.push({ code: 'unknown_sku', field: `${at}.sku_id`, message: `no SKU ${override.sku_id} in this plan` });
    } else if (seen.has(override.sku_id)) {
      problems.push({ code: 'duplicate_override', field: `${at}.sku_id`, message: `two tier overrides for SKU ${override.sku_id}` });
    } else {
      problems.push(...validateTiers(model, toTiers(override.tiers), `${at}.tiers`));
    }
    seen.add(override.sku_id);
  });
  return problems;
}

function phasePricing(input: PhasePricingInput): Pick<ContractTerm, 'discount_bps' | 'tier_overrides' | 'rate_overrides'> {
  return {
    ...(input.discount_bps === undefined ? {} : { discount_bps: input.discount_bps }),
    ...(input.tier_overrides === undefined
      ? {}
      : { tier_overrides: input.tier_overrides.map((o): TierOverride => ({ sku_id: o.sku_id, tiers: toTiers(o.tiers) })) }),
    ...(input.rate_overrides === undefined ? {} : { rate_overrides: input.rate_overrides }),
  };
}

function escalationSchedule(input: EscalationInput): EscalationSchedule {
  return {
    escalation: input.kind === 'Percent' ? { kind: 'Percent', basis_points: input.basis_points } : { kind: 'Fixed', amount_nanos: BigInt(input.amount_nanos) },
    start_date: input.start_date,
    interval_months: input.interval_months,
  };
}

function contractPricing(input: ContractInput): ContractPricing {
  return {
    ...phasePricing(input),
    ...(input.escalation === undefined ? {} : { escalation: escalationSchedule(input.escalation) }),
    ...(input.terms === undefined
      ? {}
      : {
          terms: input.terms.map(
            (term): ContractTerm => ({
              phase: term.phase,
              start_date: term.start_date,
              end_date: term.end_date,
              committed_amount_nanos: BigInt(term.committed_amount_nanos),
              description: term.description,
              ...phasePricing(term),
            }),
          ),
        }),
  };
}

/** Dimension quantities as the rating core reads them (core groupedUsageKey), each checked against its SKU's group_by. */
function dimensionUsage(skus: readonly SkuPrice[], entries: NonNullable<RatingPreviewInput['dimension_quantities']>, problems: Problem[]): Record<string, string> {
  const usage: Record<string, string> = {};
  entries.forEach((entry, index) => {
    const at = `dimension_quantities[${index}]`;
    const sku = skus.find((candidate) => candidate.sku_id === entry.sku_id);
    const groupBy = sku?.dimensional?.group_by;
    if (sku === undefined || groupBy === undefined) {
      problems.push({ code: 'invalid_dimension_quantity', field: `${at}.sku_id`, message: `no dimensional SKU ${entry.sku_id} (one with group_by) in this plan` });
      return;
    }
    const keys = Object.keys(entry.dimensions);
    if (keys.length !== groupBy.length || !groupBy.every((key) => Object.hasOwn(entry.dimensions, key))) {
      problems.push({ code: 'invalid_dimension_quantity', field: `${at}.dimensions`, message: `dimensions names each of the SKU's group_by properties (${groupBy.join(', ')}) and nothing else` });
      return;
    }
    const key = groupedUsageKey(dimensionalMeterKey(sku), groupBy, groupBy.map((property) => entry.dimensions[property] ?? null));
    if (Object.hasOwn(usage, key)) {
      problems.push({ code: 'duplicate_dimension_quantity', field: `${at}.dimensions`, message: 'this dimension value of the SKU is given twice' });
      return;
    }
    usage[key] = entry.quantity;
  });
  return usage;
}

export async function previewRating(deps: Pick<ServiceDeps, 'db' | 'clock'>, input: RatingPreviewInput): Promise<RatingPreview> {
  const pricing = await findPlanPricing(deps.db, input.plan_id);
  if (pricing === null) throw missingReference('plan_id', 'plan', input.plan_id);
  const { prices } = pricing;
  if (prices.length === 0) {
    throw new DomainError('unprocessable', 'plan_has_no_skus', `plan_id: plan ${input.plan_id} has no SKUs to rate`, { field: 'plan_id' });
  }

  // Each usage SKU's meter, as billing resolves it: lines show it, and quantities may name it; a
  // Percentage SKU's quantity (the sum of its per-event fees) is keyed by its sku_id.
  const { skus } = await resolveSkuMeters(deps.db, pricing.prices);
  const meters = new Set(
    skus.filter((price) => price.pricing_model !== 'Flat').flatMap((price) => (price.pricing_model === 'Percentage' ? [usageKey(price)] : [price.meter_event_type, price.meter?.meter_id])),
  );
  const models = new Map(prices.map((price) => [price.sku_id, price.pricing_model]));
  const unknownMeters = (quantities: Record<string, string>, field: string): Problem[] =>
    Object.keys(quantities)
      .filter((meter) => !meters.has(meter))
      .map((meter) => ({ code: 'unknown_meter', field: `${field}.${meter}`, message: `no usage SKU of this plan rates meter ${JSON.stringify(meter)}` }));
  const problems: Problem[] = unknownMeters(input.quantities, 'quantities');
  for (const [date, quantities] of Object.entries(input.usage_to_date ?? {})) problems.push(...unknownMeters(quantities, `usage_to_date.${date}`));
  if (input.as_of !== undefined && input.period !== undefined && input.as_of !== input.period.start) {
    problems.push({ code: 'as_of_not_period_start', field: 'as_of', message: 'with a period, as_of must be period.start (or be left out): terms are taken from each day of the period' });
  }
  problems.push(...tierOverrideProblems(input.contract?.tier_overrides, 'contract.tier_overrides', models));
  input.contract?.terms?.forEach((term, index) => {
    problems.push(...tierOverrideProblems(term.tier_overrides, `contract.terms[${index}].tier_overrides`, models));
  });
  const usage = { ...input.quantities, ...dimensionUsage(skus, input.dimension_quantities ?? [], problems) };
  if (problems.length > 0) throw problemsError(problems);

  const asOf = input.as_of ?? input.period?.start ?? deps.clock().toISOString().slice(0, 10);
  try {
    const period = input.period ?? { start: asOf, end: addCadence(asOf, pricing.billing_cadence) };
    const rated = ratePeriodAcrossPhases({
      skus,
      usage,
      ...(input.usage_to_date === undefined ? {} : { usage_to_date: input.usage_to_date }),
      period,
      ...(input.contract === undefined ? {} : { contract: contractPricing(input.contract) }),
    });
    const display = toDisplay(rated.total_nanos, rated.currency);
    const [only, ...more] = rated.pieces;
    return {
      plan_id: input.plan_id,
      as_of: asOf,
      phase: only !== undefined && more.length === 0 ? only.phase : null,
      ...serializeRatedPeriod(rated),
      display: { currency: rated.currency, total: display.text, total_minor_units: display.minor.toString() },
    };
  } catch (err) {
    if (err instanceof CoreValidationError) throw problemsError(err.problems, requestPath);
    throw err;
  }
}
