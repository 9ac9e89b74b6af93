/**
 * Billing a subscription period: rate it cumulatively to date and put the difference with what
 * finalized invoices already carry for the period on its billing group's one Draft
 * (core/invoicing.ts).
 *
 * - Periods are [period_start, period_end). Recurring fees (Flat, Committed commits) are charged for
 *   the whole period on its first invoice and prorated by whole days across plan phases (over the
 *   period's calendar basis when it has one: a period cut short, or a coterm stub); usage is
 *   rated from the period start (or the phase start) up to `upTo`, also in phases shorter than a day.
 * - A trial period bills nothing, even when the subscription is cancelled during it.
 * - Billing groups (consolidated billing): the Draft belongs to the account that pays (the payer:
 *   the customer's bill_to, else, when it consolidates to its parent, the parent's payer, else the
 *   customer itself) and is keyed by payer, currency and period. Subscriptions whose periods
 *   coincide (same anchor and cadence) and that bill to the same payer in one currency share one
 *   invoice per period; lines of a charge incurred by another customer than the payer name it.
 * - Locks: the subscription row (concurrent bills of one subscription are serialised), then the
 *   billing group (a transaction-scoped advisory lock: two subscriptions of a group never open two
 *   Drafts), then the Draft row (the lock finalization and Draft edits take). A partial unique
 *   index makes a second Draft for one group and period impossible in the database too.
 */
import {
  addQuantity,
  chargesToInvoice,
  daysBetween,
  dimensionLineKey,
  formatQuantity,
  parseQuantity,
  serializeMinimumTrueUp,
  subtractQuantity,
  type Billed,
  type ChargeLine,
  type DimensionValues,
  type MinimumTrueUp,
  type RatedLine,
} from '../../core/index.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { Db, DbClient } from '../../db/client.js';
import { getPlanPricing, type PlanPricing } from '../../db/catalog.js';
import { getCustomer, type CustomerRecord } from '../../db/customers.js';
import {
  billedInPeriod as billedLines,
  deleteRebilledLines,
  rebilledLinesOf,
  findDraftOfGroup,
  insertDraft,
  insertLines,
  lockBillingGroup,
  lockInvoiceInBillingGroup,
  recomputeTotals,
  updateInvoice,
  type BilledSkuRow,
  type InvoiceLineRow,
  type InvoiceRow,
  type NewLine,
} from '../../db/invoices.js';
import {
  billsAloneInItsGroup,
  findSubscription,
  lockSubscription,
  periodBasis,
  phasesOverlapping,
  progressiveThreshold,
  type PeriodBasis,
  type SubscriptionRow,
  type SubscriptionPhaseRow,
} from '../../db/subscriptions.js';
import { newId } from '../../ids.js';
import { engineActor, recordAudit, type Actor } from '../audit.js';
import { notFound } from '../../errors.js';
import { contractOfRow, type ContractRecord } from '../../db/contracts.js';
import { findPeriodClose, insertPeriodClose, markPeriodsAccounted, periodDraftPending, periodsWithLateUsage, usageBilledForPeriod } from '../../db/period-closes.js';
import { rateUnderContract } from './contract-pricing.js';
import type { MeterLookups, QuantityReader, UsageTrace } from '../metering/usage.js';

export type BillingReason = 'manual' | 'subscription_cycle' | 'threshold' | 'plan_change' | 'subscription_final' | 'late_usage_correction';

/** The reasons of a period close: the period's one regular invoice. */
const CLOSING: ReadonlySet<BillingReason | null> = new Set(['subscription_cycle', 'subscription_final']);

export interface BillResult {
  invoiceId: string | null;
  created: boolean;
  /** Total of the Draft after billing, raw units as a decimal string. */
  totalNanos: string;
}

interface TargetLine extends ChargeLine {
  kind: 'fee' | 'usage' | 'minimum';
  meter_event_type: string | null;
  plan_id: string;
  /** The one price per unit the line shows, or null when it has none (a Graduated line: see lineUnitAmount). */
  unit_amount_nanos: bigint | null;
  detail: RatedLine | ReturnType<typeof serializeMinimumTrueUp>;
  trace: LineTrace;
  /** A dimensional SKU's line: its dimension value (the line is matched across bills by sku_id and it: `key`). */
  dimensions: DimensionValues | null;
}

/** One plan phase of the period a line's charge was rated in (a SKU billed across a plan change has several). */
export interface PhaseTrace {
  plan_id: string;
  plan_name: string;
  plan_version: number;
  /** The part of the period this phase served, [from, to). */
  from: string;
  to: string;
  /** Usage was read up to here (the period end at a close, earlier on a bill to date). */
  usage_to: string;
  /** The calendar days fees are prorated over, and the days this phase served when it did not serve them all. */
  basis: { start: string; end: string };
  proration: { service_start: string; service_end: string; days_used: number; days_in_period: number } | null;
  contract: { contract_id: string; status: string } | null;
  /** The quantity the SKU was rated at in this phase, and its amount. */
  quantity: string;
  amount_nanos: bigint;
  /** Metered SKUs: the meter, window and events the quantity was read from. */
  usage: UsageTrace | null;
}

/** What a line's pricing trace holds (invoice_line_items.pricing_trace). */
export interface LineTrace {
  phases: PhaseTrace[];
  /** A dimensional SKU's line: the dimension value it prices, and the event properties its meter was grouped by. */
  dimensions?: { group_by: string[]; values: DimensionValues };
}

/** The chargesToInvoice key of a SKU's minimum true-up (its usage line is keyed by the sku_id). */
export const minimumKey = (skuId: string): string => `${skuId}:minimum`;

interface Period {
  start: Date;
  end: Date;
}

const NOTHING: BillResult = { invoiceId: null, created: false, totalNanos: '0' };
const civil = (d: Date): string => d.toISOString().slice(0, 10);
const RECURRING = new Set(['Flat', 'Committed']);

/** The prices a phase is rated with: its own plan version's, except in a simulation (services/simulations). */
export type PhasePricing = (phase: SubscriptionPhaseRow) => Promise<PlanPricing>;

/**
 * How a rating reads what it rates, when not each on its own from the database: the prices of each
 * phase, and (for many periods read at once, a simulation's batch) the phases, the proration basis,
 * the meters' quantities and the meters the SKUs resolve to.
 */
export interface PeriodReads {
  pricingOf?: PhasePricing;
  phases?: (subscriptionId: string, period: Period) => Promise<SubscriptionPhaseRow[]>;
  basis?: (subscriptionId: string, periodStart: Date) => Promise<PeriodBasis | null>;
  quantities?: QuantityReader;
  meters?: MeterLookups;
}

/** The charges of the period [start, end) rated to `upTo`, phase by phase, under the subscription's contract terms. */
async function rateToDate(
  tx: DbClient,
  subscription: { id: string; customerId: string },
  period: Period,
  phases: SubscriptionPhaseRow[],
  upTo: Date,
  contract: ContractRecord | null,
  basis: PeriodBasis | null,
  reads: PeriodReads = {},
): Promise<TargetLine[]> {
  const pricingOf = reads.pricingOf ?? ((phase: SubscriptionPhaseRow) => getPlanPricing(tx, phase.planId, phase.planVersion));
  const lines: TargetLine[] = [];
  for (const phase of phases) {
    const from = phase.startsAt > period.start ? phase.startsAt : period.start;
    const phaseEnd = phase.endsAt && phase.endsAt < period.end ? phase.endsAt : period.end;
    const usageTo = phaseEnd < upTo ? phaseEnd : upTo;
    if (from >= phaseEnd) continue;
    // The phase's own plan version: a SKU added to the plan later never reaches its bill.
    const plan = await pricingOf(phase);
    const service = { start: civil(from), end: civil(phaseEnd) };
    // Recurring fees are prorated by whole days: a phase shorter than a day has none, only usage.
    const wholeDays = service.start < service.end;
    const skus = plan.prices.filter((sku) => wholeDays || !RECURRING.has(sku.pricing_model));
    if (skus.length === 0) continue;
    // Recurring fees are prorated over the period's calendar basis when it has one (a period cut
    // short or a stub of a coterm realignment), else over the period itself.
    const periodDays = basis ?? { start: civil(period.start), end: civil(period.end) };
    const prorated = wholeDays && !(service.start === periodDays.start && service.end === periodDays.end);
    const rated = await rateUnderContract(tx, { subscriptionId: subscription.id, customerId: subscription.customerId }, {
      skus,
      period: periodDays,
      ...(prorated ? { service } : {}),
      from,
      to: usageTo,
      contract,
      ...(reads.quantities === undefined ? {} : { quantities: reads.quantities }),
      ...(reads.meters === undefined ? {} : { meters: reads.meters }),
    });
    for (const line of rated.lines) {
      const meter = skus.find((sku) => sku.sku_id === line.sku_id)?.meter_event_type ?? null;
      const phaseTrace: PhaseTrace = {
        plan_id: phase.planId,
        plan_name: plan.name,
        plan_version: phase.planVersion,
        from: from.toISOString(),
        to: phaseEnd.toISOString(),
        usage_to: usageTo.toISOString(),
        basis: periodDays,
        proration: prorated
          ? { service_start: service.start, service_end: service.end, days_used: daysBetween(service.start, service.end), days_in_period: daysBetween(periodDays.start, periodDays.end) }
          : null,
        contract: contract ? { contract_id: contract.id, status: contract.status } : null,
        quantity: line.quantity,
        amount_nanos: line.amount_nanos,
        // The meter the line was priced from (a Percentage SKU reads its events' amounts: no meter trace).
        usage: line.pricing_model !== 'Flat' && line.meter !== undefined ? (rated.usage[line.meter.meter_id] ?? null) : null,
      };
      const dimensions = line.dimensions ?? null;
      const groupBy = skus.find((sku) => sku.sku_id === line.sku_id)?.dimensional?.group_by;
      lines.push({
        sku_id: line.sku_id,
        ...(dimensions === null ? {} : { key: dimensionLineKey(line.sku_id, dimensions) }),
        dimensions,
        description: `${plan.name} · ${line.description}`,
        quantity: line.quantity,
        amount_nanos: line.amount_nanos,
        kind: RECURRING.has(line.pricing_model) ? 'fee' : 'usage',
        meter_event_type: meter,
        plan_id: phase.planId,
        unit_amount_nanos: lineUnitAmount(line),
        detail: line,
        trace: { phases: [phaseTrace], ...(dimensions === null || groupBy === undefined ? {} : { dimensions: { group_by: [...groupBy], values: dimensions } }) },
      });
    }
    // A minimum is judged on the whole of the phase's part of the period: once its usage is all in
    // (the period close, or the bill of a plan change ending the phase), never on a bill to date.
    if (usageTo.getTime() === phaseEnd.getTime()) lines.push(...rated.minimums.map((minimum) => minimumLine(minimum, plan.name, phase.planId)));
  }
  // A SKU (a dimension value of one) rated in several phases is one line on the invoice: its trace
  // lists every phase. A minimum true-up is explained by the phases of all its SKU's lines.
  const phasesOf = new Map<string, PhaseTrace[]>();
  const add = (key: string, phases: PhaseTrace[]) => phasesOf.set(key, [...(phasesOf.get(key) ?? []), ...phases]);
  for (const line of lines) {
    add(line.sku_id, line.trace.phases);
    if (line.key !== undefined) add(line.key, line.trace.phases);
  }
  return lines.map((line) => ({ ...line, trace: { ...line.trace, phases: phasesOf.get(line.kind === 'minimum' ? line.sku_id : (line.key ?? line.sku_id))! } }));
}

/**
 * The one price per unit an invoice line shows: none for a Graduated line (its tiers price the units
 * at several prices: detail.tiers), the price of the one tier a Volume line's units fall into, else
 * the SKU's (a Graduated or Volume SKU's own unit_amount_nanos is a placeholder, "0").
 */
function lineUnitAmount(line: RatedLine): bigint | null {
  if (line.pricing_model === 'Graduated') return null;
  if (line.pricing_model === 'Volume') return line.tiers.find((tier) => tier.quantity !== '0')?.unit_amount_nanos ?? null;
  return line.unit_amount_nanos;
}

/** A minimum-spend true-up as a charge of the period (kind "minimum", beside its SKU's usage line). */
function minimumLine(minimum: MinimumTrueUp, planName: string, planId: string): TargetLine {
  return {
    sku_id: minimum.sku_id,
    key: minimumKey(minimum.sku_id),
    description: `${planName} · ${minimum.description}`,
    quantity: '1',
    amount_nanos: minimum.amount_nanos,
    kind: 'minimum',
    meter_event_type: null,
    plan_id: planId,
    unit_amount_nanos: minimum.amount_nanos,
    detail: serializeMinimumTrueUp(minimum),
    // Its SKU's phases join it in rateToDate: a true-up is explained by the usage it tops up.
    trace: { phases: [] },
    dimensions: null,
  };
}

/**
 * Billed lines summed per line key: per SKU, and per dimension value of a dimensional SKU (as the
 * target lines are keyed); `perSku` sums a dimensional SKU's values together.
 */
function billedPerSku(rows: BilledSkuRow[], perSku = false): Map<string, Billed> {
  const billed = new Map<string, Billed>();
  for (const row of rows) {
    const key = perSku ? row.skuId : dimensionLineKey(row.skuId, row.dimensions);
    const known = billed.get(key);
    const quantity = row.quantities.reduce((sum, q) => addQuantity(sum, parseQuantity(q)), parseQuantity(known?.quantity ?? '0'));
    billed.set(key, { quantity: formatQuantity(quantity), amount_nanos: (known?.amount_nanos ?? 0n) + row.amountNanos });
  }
  return billed;
}

/** What finalized (Open/Paid) invoices already charged for this subscription's period, per SKU. */
async function billedInPeriod(tx: DbClient, subscriptionId: string, periodStart: Date): Promise<Map<string, Billed>> {
  return billedPerSku(await billedLines(tx, subscriptionId, periodStart));
}

/** The subscription's charges of a whole period [start, end), rated as its close rates them. */
async function rateWholePeriod(tx: DbClient, subscription: SubscriptionRow, period: Period, contract: ContractRecord | null, reads: PeriodReads = {}): Promise<TargetLine[]> {
  const phases = await (reads.phases ?? ((id, p) => phasesOverlapping(tx, id, p)))(subscription.id, period);
  const basis = await (reads.basis ?? ((id, start) => periodBasis(tx, id, start)))(subscription.id, period.start);
  return rateToDate(tx, subscription, period, phases, period.end, contract, basis, reads);
}

/**
 * A closed period's charges (its fees and the usage recorded for it, whole) rated exactly as its
 * close rated them, phase by phase under the subscription's contract, but with the prices
 * `reads.pricingOf` gives each phase: a price simulation's candidate. Reads only.
 */
export async function rateClosedPeriodWith(db: DbClient, subscription: SubscriptionRow, period: Period, contract: ContractRecord | null, reads: PeriodReads): Promise<bigint> {
  const lines = await rateClosedPeriodLinesWith(db, subscription, period, contract, reads);
  return lines.reduce((sum, line) => sum + line.amount_nanos, 0n);
}

/** One charge of a closed period rated with other prices (rateClosedPeriodLinesWith). */
export interface RatedPeriodLine {
  sku_id: string;
  kind: 'fee' | 'usage' | 'minimum';
  description: string;
  quantity: string;
  amount_nanos: bigint;
}

/** rateClosedPeriodWith's charges one by one (a shadow rating keeps them beside its total). */
export async function rateClosedPeriodLinesWith(db: DbClient, subscription: SubscriptionRow, period: Period, contract: ContractRecord | null, reads: PeriodReads): Promise<RatedPeriodLine[]> {
  const lines = await rateWholePeriod(db, subscription, period, contract, reads);
  return lines.map((line) => ({ sku_id: line.sku_id, kind: line.kind, description: line.description, quantity: line.quantity, amount_nanos: line.amount_nanos }));
}

/**
 * Late usage: the lines billing the usage that arrived for the subscription's closed periods
 * (starting before `before`; all when null) after they were billed. Each closed period with such
 * late events is rated again, whole, with every event it now has (its tiers, packages, minimums and
 * contract terms, exactly as its close rated it), and each SKU's difference to everything ever
 * billed for that period's usage (and its minimum true-up, a line of kind "minimum") becomes a prior-period adjustment line with the period as its
 * service period. A period whose own Draft is still waiting for its grace end is left to that Draft
 * (its refresh bills the late events). The periods billed are marked accounted, so the next close
 * only looks at events that arrive later.
 */
export async function lateUsageLines(tx: DbClient, subscription: SubscriptionRow, before: Date | null, onBehalf: Partial<NewLine>): Promise<NewLine[]> {
  const periods = await periodsWithLateUsage(tx, subscription, before);
  if (periods.length === 0) return [];
  const contract = await contractOfRow(tx, subscription);
  const lines: NewLine[] = [];
  const accounted: Date[] = [];
  for (const close of periods) {
    if (await periodDraftPending(tx, subscription.id, close.periodStart)) continue;
    accounted.push(close.periodStart);
    const period = { start: close.periodStart, end: close.periodEnd };
    // The minimum is judged again with the late events: its true-up shrinks as the usage line grows.
    const usage = (await rateWholePeriod(tx, subscription, period, contract)).filter((line) => line.kind === 'usage' || line.kind === 'minimum');
    const billed = billedPerSku(await usageBilledForPeriod(tx, subscription.id, period.start, { minimums: true }));
    for (const charge of chargesToInvoice(usage, billed)) {
      if (charge.amount_nanos === 0n && (charge.quantity === '0' || charge.kind === 'minimum')) continue;
      const already = billed.get(charge.key ?? charge.sku_id);
      lines.push({
        ...lineOf(charge, subscription.id, period, onBehalf, already),
        description: `${charge.description} · late usage for ${civil(period.start)} – ${civil(period.end)}`,
        detail: jsonDetail({
          ...charge.detail,
          adjustment: {
            reason: 'late_usage',
            service_period_start: period.start.toISOString(),
            service_period_end: period.end.toISOString(),
            meter_event_type: charge.meter_event_type,
            billed_quantity: already?.quantity ?? '0',
            billed_amount_nanos: (already?.amount_nanos ?? 0n).toString(),
            rated_quantity: addQuantityText(already?.quantity ?? '0', charge.quantity),
            rated_amount_nanos: ((already?.amount_nanos ?? 0n) + charge.amount_nanos).toString(),
          },
        }),
      });
    }
  }
  await markPeriodsAccounted(tx, subscription.id, accounted);
  return lines;
}

/** One SKU of a closed period: what re-rating the period from its accepted events gives, and what its invoices billed. */
export interface PeriodUsageLine {
  skuId: string;
  meterEventType: string | null;
  ratedQuantity: string;
  billedQuantity: string;
  unbilledQuantity: string;
  ratedAmount: bigint;
  billedAmount: bigint;
}

/**
 * Reconciliation of a closed period's usage: every usage SKU re-rated whole from the accepted
 * events, against every invoice line that billed the period (its own invoice, progressive invoices,
 * adjustment lines); `pending` says why a difference is expected for now (its Draft waits for its
 * grace end, or late events wait for the next close).
 */
export async function usageOfClosedPeriod(
  db: DbClient,
  subscription: SubscriptionRow,
  period: Period,
): Promise<{ lines: PeriodUsageLine[]; pending: 'draft' | 'late_usage_pending' | null }> {
  const rated = new Map<string, TargetLine>();
  for (const line of (await rateWholePeriod(db, subscription, period, await contractOfRow(db, subscription))).filter((l) => l.kind === 'usage')) {
    const previous = rated.get(line.sku_id);
    rated.set(line.sku_id, previous ? { ...previous, quantity: addQuantityText(previous.quantity, line.quantity), amount_nanos: previous.amount_nanos + line.amount_nanos } : line);
  }
  const billed = billedPerSku(await usageBilledForPeriod(db, subscription.id, period.start), true);
  const lines = [...new Set([...rated.keys(), ...billed.keys()])].map((skuId): PeriodUsageLine => {
    const ratedQuantity = rated.get(skuId)?.quantity ?? '0';
    const billedQuantity = billed.get(skuId)?.quantity ?? '0';
    return {
      skuId,
      meterEventType: rated.get(skuId)?.meter_event_type ?? null,
      ratedQuantity: formatQuantity(parseQuantity(ratedQuantity)),
      billedQuantity,
      unbilledQuantity: formatQuantity(subtractQuantity(parseQuantity(ratedQuantity), parseQuantity(billedQuantity))),
      ratedAmount: rated.get(skuId)?.amount_nanos ?? 0n,
      billedAmount: billed.get(skuId)?.amount_nanos ?? 0n,
    };
  });
  const pending = (await periodDraftPending(db, subscription.id, period.start))
    ? 'draft'
    : (await periodsWithLateUsage(db, subscription, null)).some((p) => p.periodStart.getTime() === period.start.getTime())
      ? 'late_usage_pending'
      : null;
  return { lines, pending };
}

const addQuantityText = (a: string, b: string): string => formatQuantity(addQuantity(parseQuantity(a), parseQuantity(b)));

/** A rated line's detail as JSON (bigints as decimal strings). */
const jsonDetail = (detail: unknown): Prisma.InputJsonValue => JSON.parse(JSON.stringify(detail, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as Prisma.InputJsonValue;

/**
 * A charge of the subscription's period as an invoice line; its pricing trace adds what the period's
 * finalized invoices had already billed of the SKU (the line is the difference).
 */
function lineOf(charge: TargetLine, subscriptionId: string, period: Period, onBehalf: Partial<NewLine>, already: Billed | undefined): NewLine {
  return {
    kind: charge.kind,
    description: charge.description,
    amountNanos: charge.amount_nanos,
    quantity: charge.quantity,
    unitAmountNanos: charge.unit_amount_nanos,
    skuId: charge.sku_id,
    planId: charge.plan_id,
    subscriptionId,
    periodStart: period.start,
    periodEnd: period.end,
    detail: jsonDetail(charge.detail),
    pricingTrace: jsonDetail({ ...charge.trace, billed_before: already ? { quantity: already.quantity, amount_nanos: already.amount_nanos } : null }),
    dimensions: charge.dimensions,
    ...onBehalf,
  };
}

/** One charge of a period's spend: what the period's invoices would carry for one SKU, rated to date. */
export interface SpendCharge {
  sku_id: string;
  meter_event_type: string | null;
  amount_nanos: bigint;
}

export interface PeriodSpend {
  periodStart: Date;
  periodEnd: Date;
  charges: SpendCharge[];
}

/**
 * The subscription's spend in the period holding `at`: its fees and every usage event recorded for
 * the period so far, rated cumulatively (what billing the period now would total, before tax and
 * credits, minimum-spend true-ups left out); null when the subscription bills nothing now (trial, Expired) or `at` is outside its
 * current period (a period that has ended but not rolled yet counts from the roll on).
 */
export async function currentPeriodSpend(tx: DbClient, subscriptionId: string, at: Date): Promise<PeriodSpend | null> {
  const subscription = await findSubscription(tx, subscriptionId);
  if (!subscription || subscription.status === 'Trialing' || subscription.status === 'Expired') return null;
  const period = { start: subscription.periodStart, end: subscription.periodEnd };
  if (at < period.start || at >= period.end) return null;
  if (subscription.trialEnd !== null && period.end <= subscription.trialEnd) return null;
  const phases = await phasesOverlapping(tx, subscription.id, period);
  // Every event recorded for the period counts, also one stamped at this very instant or within
  // the allowed clock skew ahead of it: events cannot be stamped later than that.
  const basis = await periodBasis(tx, subscription.id, period.start);
  const lines = await rateToDate(tx, subscription, period, phases, period.end, await contractOfRow(tx, subscription), basis);
  // Spend is what was consumed: a minimum's true-up is owed only at the close, so it counts for nothing here.
  return {
    periodStart: period.start,
    periodEnd: period.end,
    charges: lines.filter((line) => line.kind !== 'minimum').map((line) => ({ sku_id: line.sku_id, meter_event_type: line.meter_event_type, amount_nanos: line.amount_nanos })),
  };
}

/** Most hops followed from a customer to its payer (hierarchies are at most 5 levels deep). */
const MAX_PAYER_HOPS = 8;

/**
 * The account that pays a customer's charges: its bill_to when set, else its parent's payer when it
 * consolidates to its parent, else itself.
 */
export async function payerOf(tx: DbClient, customer: CustomerRecord): Promise<string> {
  let current = customer;
  for (let hop = 0; hop < MAX_PAYER_HOPS; hop += 1) {
    if (current.bill_to_id) return current.bill_to_id;
    if (current.consolidation !== 'ConsolidateToParent' || !current.parent_id) return current.id;
    current = await getCustomer(tx, current.parent_id);
  }
  return current.id;
}

/** What lines of a customer's charges on its payer's invoice name: the customer, when it is not the payer. */
export const onBehalfOf = (customer: CustomerRecord, payerId: string): Partial<NewLine> =>
  payerId === customer.id ? {} : { customerId: customer.id, customerName: customer.display_name };

/** JSON with object keys sorted (a JSONB column gives them back in its own order). */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const storedLineKey = (line: InvoiceLineRow): string =>
  canonicalJson([
    line.kind,
    line.description,
    line.amountNanos.toFixed(0),
    line.quantity,
    line.unitAmountNanos?.toFixed(0) ?? null,
    line.skuId,
    line.planId,
    line.periodEnd?.toISOString() ?? null,
    line.customerId,
    line.customerName,
    line.detail,
  ]);

const newLineKey = (line: NewLine): string =>
  canonicalJson([
    line.kind,
    line.description,
    line.amountNanos.toString(),
    line.quantity ?? '1',
    line.unitAmountNanos?.toString() ?? null,
    line.skuId ?? null,
    line.planId ?? null,
    line.periodEnd?.toISOString() ?? null,
    line.customerId ?? null,
    line.customerName ?? null,
    line.detail ?? null,
  ]);

/**
 * Whether a Draft's stored lines are exactly the lines a refresh would write (as multisets). The
 * pricing trace is left out: a refresh that bills the same amounts from the same rating keeps the
 * lines (and their trace) as they were written.
 */
function sameLines(stored: InvoiceLineRow[], fresh: NewLine[]): boolean {
  if (stored.length !== fresh.length) return false;
  const a = stored.map(storedLineKey).sort();
  const b = fresh.map(newLineKey).sort();
  return a.every((key, i) => key === b[i]);
}

/** Locks a Draft that was found unlocked; null when it was finalized meanwhile. */
export async function lockedDraft(tx: DbClient, draft: InvoiceRow | null): Promise<InvoiceRow | null> {
  if (!draft) return null;
  const locked = await lockInvoiceInBillingGroup(tx, draft.id);
  return locked.status === 'Draft' ? locked : null;
}

/**
 * Whether no other subscription can bill into the subscription's period Drafts (no bill-to, no
 * consolidation either way, no other live subscription of its customer in its currency, no contract).
 */
export function billsAlone(db: DbClient, subscriptionId: string): Promise<boolean> {
  return billsAloneInItsGroup(db, subscriptionId);
}

/** The progressive billing threshold (raw units) of a subscription; null when it bills only at period close. */
export function progressiveThresholdOf(db: DbClient, subscriptionId: string): Promise<bigint | null> {
  return progressiveThreshold(db, subscriptionId);
}

/**
 * What billing the subscription's current period to `at` would put on its Draft for it (its charges
 * rated to date less what finalized invoices already carry for the period), read without a lock or a
 * write: the cheap first test of a threshold crossing check. 0 when the subscription bills nothing
 * now (trial, Expired, a period already closed).
 */
export async function unbilledChargesToDate(db: DbClient, subscriptionId: string, at: Date): Promise<bigint> {
  const subscription = await findSubscription(db, subscriptionId);
  if (!subscription || subscription.status === 'Trialing' || subscription.status === 'Expired') return 0n;
  const period = { start: subscription.periodStart, end: subscription.periodEnd };
  if (subscription.trialEnd !== null && period.end <= subscription.trialEnd) return 0n;
  if (await findPeriodClose(db, subscription.id, period.start)) return 0n;
  const upTo = at < period.end ? at : period.end;
  const phases = await phasesOverlapping(db, subscription.id, period);
  const basis = await periodBasis(db, subscription.id, period.start);
  const target = await rateToDate(db, subscription, period, phases, upTo, await contractOfRow(db, subscription), basis);
  return chargesToInvoice(target, await billedInPeriod(db, subscription.id, period.start)).reduce((sum, charge) => sum + charge.amount_nanos, 0n);
}

export interface BillInput {
  subscriptionId: string;
  /** The period to bill; the subscription's current period when absent. */
  period?: Period;
  upTo: Date;
  /** Why; null keeps the reason of an existing Draft (a refresh). */
  reason: BillingReason | null;
  /** Who bills: the API caller of a bill on demand; else the workflow (or the engine) doing it. */
  actor?: Actor;
  requestId?: string | undefined;
}

/** What the audit trail keeps of a Draft that billing created or refreshed. */
const draftState = (invoice: InvoiceRow) => ({
  status: invoice.status,
  subscription_id: invoice.subscriptionId,
  period_start: invoice.periodStart,
  period_end: invoice.periodEnd,
  billing_reason: invoice.billingReason,
  subtotal_nanos: invoice.subtotalNanos.toFixed(0),
  total_nanos: invoice.totalNanos.toFixed(0),
});

/**
 * Creates or refreshes the Draft of the subscription's billing group for the period with the
 * subscription's charges up to `upTo` (capped at the period end). Returns no invoice when there is
 * nothing new to bill.
 */
export async function billSubscription(db: Db, input: BillInput): Promise<BillResult> {
  const { invoiceId, created, totalNanos } = await db.$transaction((tx) => billInTransaction(tx, input));
  return { invoiceId, created, totalNanos };
}

/** What billing a period touched besides its result: the subscription's customer and, when it billed into a Draft, the Draft's payer. */
export interface BilledPeriod extends BillResult {
  /** The subscription as billing read it under its row lock. */
  subscription: SubscriptionRow;
  customerIds: string[];
  /** The account the Draft is addressed to; null when nothing was billed. */
  payerId: string | null;
}

/** billSubscription within the caller's transaction (a period close adds its ledger close and roll to it). */
export async function billInTransaction(tx: DbClient, input: BillInput): Promise<BilledPeriod> {
  await lockSubscription(tx, input.subscriptionId);
  const subscription = await findSubscription(tx, input.subscriptionId);
  if (!subscription) throw notFound('subscription', input.subscriptionId);
  const period = input.period ?? { start: subscription.periodStart, end: subscription.periodEnd };
  const inTrial = subscription.status === 'Trialing' || (subscription.trialEnd !== null && period.end <= subscription.trialEnd);
  const nothing: BilledPeriod = { ...NOTHING, subscription, customerIds: [subscription.customerId], payerId: null };
  if (inTrial || (subscription.status === 'Expired' && !input.period)) return nothing;

  const customer = await getCustomer(tx, subscription.customerId);
  const payerId = await payerOf(tx, customer);
  const group = { customerId: payerId, currency: subscription.currency, periodStart: period.start, periodEnd: period.end };
  await lockBillingGroup(tx, group);
  const draft = await lockedDraft(tx, await findDraftOfGroup(tx, group));

  // A closed period's regular invoice is finalized: nothing bills into the period again (a retried
  // or replayed close opens no second invoice); what arrives for it later is late usage.
  const closed = await findPeriodClose(tx, subscription.id, period.start);
  if (closed && !draft) return nothing;

  const upTo = input.upTo < period.end ? input.upTo : period.end;
  const phases = await phasesOverlapping(tx, subscription.id, period);
  const basis = await periodBasis(tx, subscription.id, period.start);
  const target = await rateToDate(tx, subscription, period, phases, upTo, await contractOfRow(tx, subscription), basis);
  const billed = await billedInPeriod(tx, subscription.id, period.start);
  // A minimum at zero (usage reached it) is no line, unless it corrects one billed before.
  const charges = chargesToInvoice(target, billed).filter((charge) => charge.kind !== 'minimum' || charge.amount_nanos !== 0n);
  const onBehalf = onBehalfOf(customer, payerId);
  // The first close of a period also bills the late usage of the periods closed before it.
  const closing = CLOSING.has(input.reason) && !closed;
  const adjustments = closing ? await lateUsageLines(tx, subscription, period.start, onBehalf) : [];
  const customerIds = [subscription.customerId, payerId];
  if (!draft && charges.length === 0 && adjustments.length === 0) {
    if (closing) await insertPeriodClose(tx, { subscriptionId: subscription.id, periodStart: period.start, periodEnd: period.end, invoiceId: null }, upTo);
    return { ...nothing, customerIds };
  }

  const lines = charges.map((charge): NewLine => lineOf(charge, subscription.id, period, onBehalf, billed.get(charge.dimensions === null ? charge.sku_id : (charge.key as string))));
  // A refresh that would write back the very lines the Draft carries (e.g. at grace end with no
  // late usage) changes nothing: no rewrite, no audit entry.
  const sharedNow = draft !== null && draft.subscriptionId !== null && draft.subscriptionId !== subscription.id;
  const reasonChanges = draft !== null && input.reason !== null && input.reason !== draft.billingReason;
  if (
    draft &&
    !closing &&
    !sharedNow &&
    !reasonChanges &&
    sameLines(await rebilledLinesOf(tx, draft.id, subscription.id, period.start), lines)
  ) {
    return { invoiceId: draft.id, created: false, totalNanos: draft.totalNanos.toFixed(0), subscription, customerIds, payerId };
  }

  const invoiceId = draft?.id ?? newId();
  const written = [...lines, ...adjustments];
  let totals: InvoiceRow;
  if (draft) {
    await deleteRebilledLines(tx, invoiceId, subscription.id, period.start);
    await updateInvoice(tx, invoiceId, {
      ...(input.reason ? { billingReason: input.reason } : {}),
      // A Draft that several subscriptions bill into belongs to none of them alone.
      ...(sharedNow ? { subscriptionId: null } : {}),
    });
    await insertLines(tx, invoiceId, written);
    totals = await recomputeTotals(tx, invoiceId);
  } else {
    // A new Draft holds only these lines: it is created with their totals.
    totals = await insertDraft(
      tx,
      {
        id: invoiceId,
        ...group,
        subscriptionId: subscription.id,
        billingReason: input.reason ?? 'subscription_cycle',
        testClockId: subscription.testClockId,
        // On a test clock the Draft is created at the subscription's clock time, the instant billed to.
        ...(subscription.testClockId === null ? {} : { createdAt: upTo }),
      },
      written,
    );
  }
  if (closing) await insertPeriodClose(tx, { subscriptionId: subscription.id, periodStart: period.start, periodEnd: period.end, invoiceId }, upTo);
  // A refresh that changed nothing (no new charges, same total) is no change to record.
  if (!draft || charges.length > 0 || adjustments.length > 0 || !totals.totalNanos.equals(draft.totalNanos)) {
    await recordAudit(tx, {
      action: draft ? 'invoice.billed' : 'invoice.created',
      actor: input.actor ?? engineActor(),
      entityType: 'invoice',
      entityId: invoiceId,
      customerId: payerId,
      before: draft ? draftState(draft) : null,
      after: { ...draftState(totals), billed_subscription_id: subscription.id, lines_billed: charges.length, late_usage_lines: adjustments.length },
      requestId: input.requestId,
    });
  }
  return { invoiceId, created: !draft, totalNanos: totals.totalNanos.toFixed(0), subscription, customerIds, payerId };
}
