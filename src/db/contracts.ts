/**
 * Contract repository: `contracts`, their ramp phases (`contract_terms`) and the subscriptions they
 * adopt (`contract_subscriptions`), mapped to API-shaped records (civil dates as YYYY-MM-DD, money as
 * decimal strings). Prisma errors are translated into domain errors here.
 */
import { Prisma, type AdoptionType, type BillingCadence, type ContractStatus } from '../generated/prisma/client.js';
import type { SkuPrice } from '../core/index.js';
import { conflict } from '../errors.js';
import type { TierRecord } from './catalog.js';
import { isPrismaError, skusOfVersion, toSkuPrice } from './catalog.js';
import { NEWEST_FIRST, pageWhere, type PageQuery } from './pages.js';
import type { DbClient } from './client.js';
import { toDecimal } from './money.js';
import { newId } from '../ids.js';

export type { ContractStatus, AdoptionType };

export interface RateOverrideRecord {
  product_tag: string;
  multiplier_bps: number;
}

export interface TierOverrideRecord {
  sku_id: string;
  tiers: TierRecord[];
}

export type EscalationRecord = { interval_months: number } & ({ kind: 'Percent'; basis_points: number } | { kind: 'Fixed'; amount_nanos: string });

export interface TermRecord {
  phase: number;
  start_date: string;
  end_date: string;
  committed_amount_nanos: string;
  description: string;
  discount_bps: number | null;
  rate_overrides: RateOverrideRecord[] | null;
  tier_overrides: TierOverrideRecord[] | null;
  commit_product_tag: string | null;
  trued_up_at: string | null;
  true_up_nanos: string | null;
}

export interface ContractRecord {
  id: string;
  customer_id: string;
  name: string;
  status: ContractStatus;
  start_date: string;
  end_date: string;
  discount_bps: number | null;
  rate_overrides: RateOverrideRecord[] | null;
  tier_overrides: TierOverrideRecord[] | null;
  escalation: EscalationRecord | null;
  parent_contract_id: string | null;
  amendment_reason: string | null;
  effective_date: string | null;
  escalation_steps: number;
  terminated_on: string | null;
  termination_reason: string | null;
  test_clock_id: string | null;
  /** As its workflow recorded it (src/services/failures/billing-errors.ts); null when none. */
  billing_error: BillingErrorRecord | null;
  created_at: string;
  updated_at: string;
  terms: TermRecord[];
}

/** A failed workflow step held for an operator, as stored. */
export interface BillingErrorRecord {
  step: string;
  type: string;
  message: string;
  failed_at: string;
}

export type NewTerm = Omit<TermRecord, 'trued_up_at' | 'true_up_nanos'> & Partial<Pick<TermRecord, 'trued_up_at' | 'true_up_nanos'>>;

export type NewContract = Pick<
  ContractRecord,
  | 'id'
  | 'customer_id'
  | 'name'
  | 'status'
  | 'start_date'
  | 'end_date'
  | 'discount_bps'
  | 'rate_overrides'
  | 'tier_overrides'
  | 'escalation'
  | 'parent_contract_id'
  | 'amendment_reason'
  | 'effective_date'
  | 'escalation_steps'
  | 'test_clock_id'
> & {
  terms: NewTerm[];
  /** The customer's now (its test clock's time when on one). */
  created_at: Date;
};

export interface ContractLinkRecord {
  contract_id: string;
  subscription_id: string;
  adoption_type: AdoptionType;
  coterm_fee_nanos: string | null;
  /** Coterm with aligned periods: when the subscription's periods were realigned to the contract end. */
  aligned_at: string | null;
  created_at: string;
}

/** A civil date ↔ the UTC midnight Prisma uses for DATE columns. */
export const civilOf = (date: Date): string => date.toISOString().slice(0, 10);
export const dateOf = (civil: string): Date => new Date(`${civil}T00:00:00.000Z`);
const iso = (d: Date | null): string | null => d?.toISOString() ?? null;

const WITH_TERMS = { terms: { orderBy: { phase: 'asc' } } } as const;
type ContractRow = Prisma.ContractGetPayload<{ include: typeof WITH_TERMS }>;

function toRecord(row: ContractRow): ContractRecord {
  return {
    id: row.id,
    customer_id: row.customerId,
    name: row.name,
    status: row.status,
    start_date: civilOf(row.startDate),
    end_date: civilOf(row.endDate),
    discount_bps: row.discountBps,
    rate_overrides: row.rateOverrides as RateOverrideRecord[] | null,
    tier_overrides: row.tierOverrides as TierOverrideRecord[] | null,
    escalation: row.escalation as EscalationRecord | null,
    parent_contract_id: row.parentContractId,
    amendment_reason: row.amendmentReason,
    effective_date: row.effectiveDate === null ? null : civilOf(row.effectiveDate),
    escalation_steps: row.escalationSteps,
    terminated_on: row.terminatedOn === null ? null : civilOf(row.terminatedOn),
    termination_reason: row.terminationReason,
    test_clock_id: row.testClockId,
    billing_error: row.billingError as BillingErrorRecord | null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    terms: row.terms.map((term) => ({
      phase: term.phase,
      start_date: civilOf(term.startDate),
      end_date: civilOf(term.endDate),
      committed_amount_nanos: term.committedAmountNanos.toFixed(0),
      description: term.description,
      discount_bps: term.discountBps,
      rate_overrides: term.rateOverrides as RateOverrideRecord[] | null,
      tier_overrides: term.tierOverrides as TierOverrideRecord[] | null,
      commit_product_tag: term.commitProductTag,
      trued_up_at: iso(term.truedUpAt),
      true_up_nanos: term.trueUpNanos?.toFixed(0) ?? null,
    })),
  };
}

/** Absent JSON leaves a nullable column NULL. */
function json(value: unknown): Prisma.InputJsonValue | undefined {
  return value === null || value === undefined ? undefined : (value as Prisma.InputJsonValue);
}

export async function insertContract(tx: DbClient, contract: NewContract): Promise<ContractRecord> {
  try {
    await tx.contract.create({
      data: {
        id: contract.id,
        customerId: contract.customer_id,
        name: contract.name,
        status: contract.status,
        startDate: dateOf(contract.start_date),
        endDate: dateOf(contract.end_date),
        discountBps: contract.discount_bps,
        rateOverrides: json(contract.rate_overrides),
        tierOverrides: json(contract.tier_overrides),
        escalation: json(contract.escalation),
        parentContractId: contract.parent_contract_id,
        amendmentReason: contract.amendment_reason,
        effectiveDate: contract.effective_date === null ? null : dateOf(contract.effective_date),
        escalationSteps: contract.escalation_steps,
        testClockId: contract.test_clock_id,
        createdAt: contract.created_at,
        terms: {
          create: contract.terms.map((term) => ({
            id: newId(),
            phase: term.phase,
            startDate: dateOf(term.start_date),
            endDate: dateOf(term.end_date),
            committedAmountNanos: toDecimal(BigInt(term.committed_amount_nanos)),
            description: term.description,
            discountBps: term.discount_bps,
            rateOverrides: json(term.rate_overrides),
            tierOverrides: json(term.tier_overrides),
            commitProductTag: term.commit_product_tag,
            truedUpAt: term.trued_up_at ? new Date(term.trued_up_at) : null,
            trueUpNanos: term.true_up_nanos ? toDecimal(BigInt(term.true_up_nanos)) : null,
          })),
        },
      },
    });
  } catch (err) {
    // The unique parent_contract_id: another amendment of the same contract committed first.
    if (isPrismaError(err, 'P2002')) {
      throw conflict('contract_already_amended', `contract ${contract.parent_contract_id ?? contract.id} was amended concurrently`, {
        parent_contract_id: contract.parent_contract_id,
      });
    }
    throw err;
  }
  return (await findContract(tx, contract.id))!;
}

export async function findContract(tx: DbClient, id: string): Promise<ContractRecord | null> {
  const row = await tx.contract.findUnique({ where: { id }, include: WITH_TERMS });
  return row === null ? null : toRecord(row);
}

/** Locks the contract row for the rest of the transaction and returns it (null when absent). */
export async function lockContract(tx: DbClient, id: string): Promise<ContractRecord | null> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM contracts WHERE id = ${id}::uuid FOR UPDATE`;
  return rows.length === 0 ? null : findContract(tx, id);
}

export async function listContracts(
  tx: DbClient,
  query: PageQuery & { customer_id?: string | undefined; status?: ContractStatus | undefined },
): Promise<ContractRecord[]> {
  const rows = await tx.contract.findMany({
    where: {
      ...(query.customer_id !== undefined ? { customerId: query.customer_id } : {}),
      ...(query.status !== undefined ? { status: query.status } : {}),
      ...pageWhere(query),
    },
    orderBy: NEWEST_FIRST,
    take: query.limit + 1,
    include: WITH_TERMS,
  });
  return rows.map(toRecord);
}

export interface ContractChanges {
  status?: ContractStatus;
  escalation_steps?: number;
  terminated_on?: string;
  termination_reason?: string | null;
}

export async function updateContract(tx: DbClient, id: string, changes: ContractChanges): Promise<ContractRecord> {
  await tx.contract.update({
    where: { id },
    data: {
      ...(changes.status !== undefined ? { status: changes.status } : {}),
      ...(changes.escalation_steps !== undefined ? { escalationSteps: changes.escalation_steps } : {}),
      ...(changes.terminated_on !== undefined ? { terminatedOn: dateOf(changes.terminated_on) } : {}),
      ...(changes.termination_reason !== undefined ? { terminationReason: changes.termination_reason } : {}),
    },
  });
  return (await findContract(tx, id))!;
}

/** Sets (or clears, with null) the contract's billing_error; the row before, null when there is none. */
export async function setContractBillingError(tx: DbClient, id: string, error: Prisma.InputJsonValue | null) {
  const before = await tx.contract.findUnique({ where: { id }, select: { id: true, customerId: true, billingError: true } });
  if (!before) return null;
  await tx.contract.update({ where: { id }, data: { billingError: error === null ? Prisma.DbNull : error } });
  return before;
}

/** Records a phase's true-up once; false when it was already recorded (a retried activity). */
export async function markTrueUp(tx: DbClient, contractId: string, phase: number, at: Date, amountNanos: bigint): Promise<boolean> {
  const { count } = await tx.contractTerm.updateMany({
    where: { contractId, phase, truedUpAt: null },
    data: { truedUpAt: at, trueUpNanos: toDecimal(amountNanos) },
  });
  return count === 1;
}

/** The amendment chain through `id`, oldest first: its ancestors, itself and its successors. */
export async function contractChain(tx: DbClient, id: string): Promise<{ id: string; status: ContractStatus; effective_date: string | null }[]> {
  const rows = await tx.$queryRaw<{ id: string; status: ContractStatus; effective_date: Date | null; depth: number }[]>`
    WITH RECURSIVE up AS (
      SELECT id, parent_contract_id, status, effective_date, 0 AS depth FROM contracts WHERE id = ${id}::uuid
      UNION ALL
      SELECT c.id, c.parent_contract_id, c.status, c.effective_date, up.depth - 1 FROM contracts c JOIN up ON c.id = up.parent_contract_id
    ), down AS (
      SELECT id, status, effective_date, 0 AS depth FROM contracts WHERE id = ${id}::uuid
      UNION ALL
      SELECT c.id, c.status, c.effective_date, down.depth + 1 FROM contracts c JOIN down ON c.parent_contract_id = down.id
    )
    SELECT id::text AS id, status, effective_date, depth FROM up
    UNION
    SELECT id::text AS id, status, effective_date, depth FROM down
    ORDER BY depth`;
  return rows.map((row) => ({ id: row.id, status: row.status, effective_date: row.effective_date === null ? null : civilOf(row.effective_date) }));
}

export async function insertLink(
  tx: DbClient,
  link: {
    id: string;
    contract_id: string;
    subscription_id: string;
    adoption_type: AdoptionType;
    coterm_fee_nanos: bigint | null;
    /** The customer's now (its test clock's time when on one). */
    created_at: Date;
  },
): Promise<ContractLinkRecord> {
  try {
    const row = await tx.contractSubscription.create({
      data: {
        id: link.id,
        contractId: link.contract_id,
        subscriptionId: link.subscription_id,
        adoptionType: link.adoption_type,
        cotermFeeNanos: link.coterm_fee_nanos === null ? null : toDecimal(link.coterm_fee_nanos),
        createdAt: link.created_at,
      },
    });
    await tx.subscription.update({ where: { id: link.subscription_id }, data: { contractId: link.contract_id } });
    return toLink(row);
  } catch (err) {
    if (isPrismaError(err, 'P2002')) {
      throw conflict('subscription_already_linked', `subscription ${link.subscription_id} is already linked to a contract`, {
        subscription_id: link.subscription_id,
      });
    }
    throw err;
  }
}

const toLink = (row: {
  contractId: string;
  subscriptionId: string;
  adoptionType: AdoptionType;
  cotermFeeNanos: Prisma.Decimal | null;
  alignedAt: Date | null;
  createdAt: Date;
}): ContractLinkRecord => ({
  contract_id: row.contractId,
  subscription_id: row.subscriptionId,
  adoption_type: row.adoptionType,
  coterm_fee_nanos: row.cotermFeeNanos?.toFixed(0) ?? null,
  aligned_at: row.alignedAt?.toISOString() ?? null,
  created_at: row.createdAt.toISOString(),
});

/** A subscription's link to its contract, with the state of its coterm realignment. */
export async function linkOfSubscription(
  tx: DbClient,
  subscriptionId: string,
): Promise<(ContractLinkRecord & { aligned_from: Date | null; aligned_at_instant: Date | null }) | null> {
  const row = await tx.contractSubscription.findUnique({ where: { subscriptionId } });
  return row === null ? null : { ...toLink(row), aligned_from: row.alignedFrom, aligned_at_instant: row.alignedAt };
}

/** Records a subscription's coterm realignment at `at` (`from`: the start of the period it cut short, if any). */
export async function markLinkAligned(tx: DbClient, subscriptionId: string, at: Date, from: Date | null): Promise<void> {
  await tx.contractSubscription.update({ where: { subscriptionId }, data: { alignedAt: at, alignedFrom: from } });
}

/** Coterm links whose subscription (Active or PastDue) still waits for its realignment (e.g. lost after the link's commit). */
export async function unalignedCotermLinks(tx: DbClient): Promise<{ subscription_id: string; contract_id: string }[]> {
  const rows = await tx.contractSubscription.findMany({
    where: { adoptionType: 'Coterm', cotermFeeNanos: null, alignedAt: null, subscription: { status: { in: ['Active', 'PastDue'] } } },
    select: { subscriptionId: true, contractId: true },
    orderBy: { id: 'asc' },
  });
  return rows.map((row) => ({ subscription_id: row.subscriptionId, contract_id: row.contractId }));
}

/** Moves every subscription of an amended contract to its successor (links and subscriptions.contract_id). */
export async function moveLinks(tx: DbClient, fromContractId: string, toContractId: string): Promise<void> {
  await tx.contractSubscription.updateMany({ where: { contractId: fromContractId }, data: { contractId: toContractId } });
  await tx.subscription.updateMany({ where: { contractId: fromContractId }, data: { contractId: toContractId } });
}

export async function linksOf(tx: DbClient, contractId: string): Promise<ContractLinkRecord[]> {
  const rows = await tx.contractSubscription.findMany({ where: { contractId }, orderBy: { id: 'asc' } });
  return rows.map(toLink);
}

/** The contract a subscription (its row, already read) is linked to, if any. */
export async function contractOfRow(tx: DbClient, subscription: { contractId: string | null } | null): Promise<ContractRecord | null> {
  return subscription?.contractId ? findContract(tx, subscription.contractId) : null;
}

/**
 * Contracts whose workflow has work left: Active ones, and those that left Active (Expired,
 * Terminated) but still owe a phase true-up (lifecycle.ts owedTrueUps).
 */
const NEEDS_WORKFLOW = Prisma.sql`(c.status = 'Active' OR EXISTS (
  SELECT 1 FROM contract_terms t
  WHERE t.contract_id = c.id AND t.trued_up_at IS NULL
    AND (c.status = 'Expired' OR (c.status = 'Terminated' AND t.end_date <= c.terminated_on))))`;

/** Contracts on a test clock whose workflows follow its time (see NEEDS_WORKFLOW). */
export async function activeContractIdsOnClock(tx: DbClient, testClockId: string): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT c.id::text AS id FROM contracts c WHERE c.test_clock_id = ${testClockId}::uuid AND ${NEEDS_WORKFLOW} ORDER BY c.id`;
  return rows.map((row) => row.id);
}

/** One page (by id, after `afterId`) of every contract whose workflow should be running (see NEEDS_WORKFLOW). */
export async function contractsNeedingWorkflow(tx: DbClient, afterId: string | null, limit: number): Promise<ContractRecord[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT c.id::text AS id FROM contracts c
    WHERE ${NEEDS_WORKFLOW} AND (${afterId}::uuid IS NULL OR c.id > ${afterId}::uuid)
    ORDER BY c.id LIMIT ${limit}`;
  const found: ContractRecord[] = [];
  for (const row of rows) {
    const contract = await findContract(tx, row.id);
    if (contract !== null) found.push(contract);
  }
  return found;
}

/** The customer's "now": its test clock's frozen time when it is on one, else `realNow`. */
export async function customerNow(tx: DbClient, customerId: string, realNow: Date): Promise<Date> {
  const customer = await tx.customer.findUnique({ where: { id: customerId }, select: { testClockId: true } });
  if (!customer?.testClockId) return realNow;
  const clock = await tx.testClock.findUnique({ where: { id: customer.testClockId }, select: { frozenTime: true } });
  return clock?.frozenTime ?? realNow;
}

export interface LinkableSubscription {
  id: string;
  customer_id: string;
  status: string;
  contract_id: string | null;
  currency: string;
  trial_end: Date | null;
  period_start: Date;
  period_end: Date;
  plan: { billing_cadence: BillingCadence; prices: SkuPrice[] };
}

export async function findLinkableSubscription(tx: DbClient, id: string): Promise<LinkableSubscription | null> {
  const row = await tx.subscription.findUnique({
    where: { id },
    include: { plan: { include: { skus: { orderBy: { id: 'asc' } }, product: { select: { tags: true } } } } },
  });
  if (row === null) return null;
  return {
    id: row.id,
    customer_id: row.customerId,
    status: row.status,
    contract_id: row.contractId,
    currency: row.currency,
    trial_end: row.trialEnd,
    period_start: row.periodStart,
    period_end: row.periodEnd,
    plan: { billing_cadence: row.plan.billingCadence, prices: row.plan.skus.map((sku) => toSkuPrice(sku, row.plan.product?.tags ?? [])) },
  };
}

export interface PlanPhasePrices {
  starts_at: Date;
  ends_at: Date | null;
  prices: SkuPrice[];
}

/** The plans a subscription was on during [from, to), oldest first, with their prices. */
export async function planPhasesBetween(tx: DbClient, subscriptionId: string, from: Date, to: Date): Promise<PlanPhasePrices[]> {
  const phases = await tx.subscriptionPhase.findMany({
    where: { subscriptionId, startsAt: { lt: to }, OR: [{ endsAt: null }, { endsAt: { gt: from } }] },
    orderBy: { startsAt: 'asc' },
  });
  const out: PlanPhasePrices[] = [];
  for (const phase of phases) {
    const plan = await tx.plan.findUniqueOrThrow({
      where: { id: phase.planId },
      include: { skus: { where: skusOfVersion(phase.planVersion), orderBy: { id: 'asc' } }, product: { select: { tags: true } } },
    });
    out.push({ starts_at: phase.startsAt, ends_at: phase.endsAt, prices: plan.skus.map((sku) => toSkuPrice(sku, plan.product?.tags ?? [])) });
  }
  return out;
}

/** Periods of a subscription that were billed (on invoices that are not Void), oldest first. */
export async function billedPeriods(tx: DbClient, subscriptionId: string): Promise<{ start: Date; end: Date }[]> {
  const rows = await tx.$queryRaw<{ period_start: Date; period_end: Date }[]>`
    SELECT DISTINCT l.period_start, l.period_end FROM invoice_line_items l JOIN invoices i ON i.id = l.invoice_id
    WHERE l.subscription_id = ${subscriptionId}::uuid AND i.status <> 'Void' AND l.kind IN ('fee', 'usage')
      AND l.period_start IS NOT NULL AND l.period_end IS NOT NULL
    ORDER BY l.period_start`;
  return rows.map((row) => ({ start: row.period_start, end: row.period_end }));
}

/** The Draft holding the subscription's charges of the period that `at` closes or falls in, if any. */
export async function draftCoveringInstant(tx: DbClient, subscriptionId: string, at: Date): Promise<string | null> {
  const [row] = await tx.$queryRaw<{ id: string }[]>`
    SELECT i.id::text AS id FROM invoices i
    WHERE i.status = 'Draft' AND i.period_start < ${at} AND i.period_end >= ${at}
      AND EXISTS (SELECT 1 FROM invoice_line_items l WHERE l.invoice_id = i.id AND l.subscription_id = ${subscriptionId}::uuid)
    ORDER BY i.period_start LIMIT 1`;
  return row?.id ?? null;
}

/** A Draft outside any billing period, for contract charges no subscription's Draft can carry. */
export async function insertContractDraft(tx: DbClient, input: { customerId: string; testClockId: string | null; createdAt: Date | null }): Promise<string> {
  const customer = await tx.customer.findUniqueOrThrow({ where: { id: input.customerId }, select: { billingCurrency: true } });
  const id = newId();
  await tx.invoice.create({
    data: {
      id,
      customerId: input.customerId,
      currency: customer.billingCurrency,
      billingReason: 'contract',
      testClockId: input.testClockId,
      ...(input.createdAt === null ? {} : { createdAt: input.createdAt }),
    },
  });
  return id;
}
