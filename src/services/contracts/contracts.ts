/**
 * Contracts (SPEC §2 Contract, §3 states): create, read, list, activate, amend, terminate, and
 * adopt subscriptions. Every move locks the contract row, checks its state, writes the move with its
 * audit entry (before/after, actor) and outbox event in one transaction; the contract's workflow
 * (`contract:<id>`) is started or signalled after the commit.
 *
 *   (create) ─▶ Active            (or Draft with "activate": false; Draft ─activate─▶ Active)
 *   Active ─amend─▶ Amended, plus a new Active contract with parent_contract_id = the amended one
 *   Active ─end_date─▶ Expired    Active ─terminate─▶ Terminated
 *
 * Dates are civil dates; a contract covers [start_date, end_date) and its terms (ramp phases) must
 * tile that range exactly: the first starts on start_date, each next one where the previous ends,
 * the last ends on end_date. "Today" is the customer's day (its test clock's for sandbox customers).
 *
 * Amendment (reason, new_committed_amount_nanos, effective_date, optionally new discount_bps and
 * rate_overrides): the new contract keeps the dates, escalation and history of the amended one; the
 * phase in force on effective_date is split there: its part before keeps the old terms and the
 * commit prorated by days, its part from effective_date on takes new_committed_amount_nanos; the
 * given pricing applies from effective_date on. Phases are numbered again 1..n. Its subscriptions
 * move to the new contract, so billing prices them by the head of the chain, whose terms before
 * effective_date are the old ones. effective_date must be today or later and before end_date.
 *
 * Termination: today is the contract's last day (counted as served, as cancellation_credit counts
 * it). The early-exit fee is the shortfall of the phase in force against its commit prorated to the
 * days served (commit − cancellation_credit), compared with the usage it absorbed (compute_true_up);
 * it is put on a Draft as a `contract_fee` line. Later phases are not owed.
 *
 * Adoption: PLG and Recontract link the subscription as it is. Coterm computes the alignment to
 * the contract end (core coterm); with fewer than 30 days left it bills the one-time fee instead, as
 * a `contract_fee` line. With 30 days or more, the subscription (Active or PastDue) is realigned
 * by its workflow after the link commits (coterm-alignment.ts): the period in course is cut short
 * and a stub runs to the first boundary aligned on the contract end, where later periods end too.
 */
import type { PageQuery } from '../../db/pages.js';
import {
  addDays,
  cancellationCredit,
  computeTrueUp,
  coterm,
  CoreValidationError,
  dayNumber,
  phaseAt,
  prorateDays,
  tierBoundProblems,
  validateEscalation,
  validateTerms,
  validateTiers,
  type ContractTerm,
  type CotermResult,
  type Problem,
  type Tier,
} from '../../core/index.js';
import { findSku } from '../../db/catalog.js';
import {
  contractChain,
  customerNow,
  findContract,
  findLinkableSubscription,
  insertContract,
  insertLink,
  linkOfSubscription,
  linksOf,
  listContracts as listContractRows,
  lockContract,
  moveLinks,
  type AdoptionType,
  type ContractLinkRecord,
  type ContractRecord,
  type ContractStatus,
  type EscalationRecord,
  type NewTerm,
  type RateOverrideRecord,
  type TermRecord,
  type TierOverrideRecord,
} from '../../db/contracts.js';
import { findCustomer } from '../../db/customers.js';
import { conflict, DomainError, invalidTransition, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { SubscriptionCommand } from '../../temporal/messages.js';
import { retryContractStep, signalContractChanged } from '../../temporal/workflows/contract.js';
import { alignSubscriptionToContract } from '../../temporal/workflows/subscription.js';
import { retryHeldStep } from '../failures/billing-errors.js';
import { atClockTime } from '../subscriptions/test-clocks.js';
import { recordAudit, type Actor } from '../audit.js';
import { problemsError } from '../catalog/catalog.js';
import type { ServiceDeps } from '../deps.js';
import { enqueueEvent } from '../outbox.js';
import { toPage, type Page } from '../pagination.js';
import { contractBalances, contractCharges, moveContract, startContractWorkflow as startWorkflowOf, withContractDraft } from './lifecycle.js';
import { commitBalances } from '../billing/contract-pricing.js';

export interface TermInput {
  phase: number;
  start_date: string;
  end_date: string;
  committed_amount_nanos: string;
  description: string;
  discount_bps?: number | undefined;
  rate_overrides?: RateOverrideRecord[] | undefined;
  tier_overrides?: TierOverrideRecord[] | undefined;
  commit_product_tag?: string | undefined;
}

export interface CreateContractInput {
  customer_id: string;
  name: string;
  start_date: string;
  end_date: string;
  terms: TermInput[];
  discount_bps?: number | undefined;
  rate_overrides?: RateOverrideRecord[] | undefined;
  tier_overrides?: TierOverrideRecord[] | undefined;
  escalation?: EscalationRecord | undefined;
  /** Default true: the contract is Active at once; false keeps it a Draft until activated. */
  activate?: boolean | undefined;
}

export interface AmendContractInput {
  reason: string;
  new_committed_amount_nanos: string;
  effective_date: string;
  discount_bps?: number | undefined;
  rate_overrides?: RateOverrideRecord[] | undefined;
}

export interface TermView extends TermRecord {
  /** Usage charges drawn from the commit so far, and what is left of it (null in lists). */
  drawn_down_nanos: string | null;
  remaining_commit_nanos: string | null;
}

export interface ContractView extends Omit<ContractRecord, 'terms'> {
  terms: TermView[];
  /** The amendment chain this contract belongs to, oldest first (null in lists). */
  amendment_chain: { id: string; status: ContractStatus; effective_date: string | null }[] | null;
  subscriptions: ContractLinkRecord[] | null;
}

const civil = (d: Date): string => d.toISOString().slice(0, 10);
const unprocessable = (code: string, field: string, message: string) => new DomainError('unprocessable', code, `${field}: ${message}`, { field });

function toView(
  contract: ContractRecord,
  extra: { balances?: { drawn: bigint; remaining: bigint }[]; chain?: ContractView['amendment_chain']; links?: ContractLinkRecord[] } = {},
): ContractView {
  const { terms, ...rest } = contract;
  return {
    ...rest,
    terms: terms.map((term, index) => {
      const balance = extra.balances?.[index];
      return {
        ...term,
        drawn_down_nanos: balance === undefined ? null : balance.drawn.toString(),
        remaining_commit_nanos: balance === undefined ? null : balance.remaining.toString(),
      };
    }),
    amendment_chain: extra.chain ?? null,
    subscriptions: extra.links ?? null,
  };
}

// ── Validation ──

/** The dates, phase and commit of a term, as the core's term checks read them. */
const coreTerm = (term: Pick<TermInput, 'phase' | 'start_date' | 'end_date' | 'committed_amount_nanos' | 'description'>): ContractTerm => ({
  phase: term.phase,
  start_date: term.start_date,
  end_date: term.end_date,
  committed_amount_nanos: BigInt(term.committed_amount_nanos),
  description: term.description,
});

function pricingProblems(input: { discount_bps?: number | undefined; rate_overrides?: RateOverrideRecord[] | undefined }, field: string): Problem[] {
  const problems: Problem[] = [];
  const tags = new Set<string>();
  (input.rate_overrides ?? []).forEach((override, index) => {
    if (tags.has(override.product_tag)) {
      problems.push({ code: 'duplicate_override', field: `${field}rate_overrides[${index}].product_tag`, message: `two rate overrides for tag ${JSON.stringify(override.product_tag)}` });
    }
    tags.add(override.product_tag);
  });
  return problems;
}

/** Tier overrides name SKUs of the catalog with tiered pricing, and valid tiers for their model. */
async function tierOverrideProblems(deps: ServiceDeps, overrides: TierOverrideRecord[] | undefined, field: string): Promise<Problem[]> {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const [index, override] of (overrides ?? []).entries()) {
    const at = `${field}tier_overrides[${index}]`;
    const sku = await findSku(deps.db, override.sku_id);
    if (sku === null) {
      problems.push({ code: 'unknown_sku', field: `${at}.sku_id`, message: `no SKU ${override.sku_id}` });
      continue;
    }
    if (seen.has(override.sku_id)) problems.push({ code: 'duplicate_override', field: `${at}.sku_id`, message: `two tier overrides for SKU ${override.sku_id}` });
    seen.add(override.sku_id);
    const tiers: Tier[] = override.tiers.map((tier) => ({
      up_to: tier.up_to === null ? null : BigInt(tier.up_to),
      unit_amount_nanos: BigInt(tier.unit_amount_nanos),
      ...(tier.flat_amount_nanos === undefined ? {} : { flat_amount_nanos: BigInt(tier.flat_amount_nanos) }),
    }));
    problems.push(...validateTiers(sku.pricing_model, tiers, `${at}.tiers`), ...tierBoundProblems(tiers, `${at}.tiers`));
  }
  return problems;
}

/** Dates, phases (contiguous, inside the contract, no overlap), escalation and overrides. */
async function contractProblems(deps: ServiceDeps, input: CreateContractInput): Promise<Problem[]> {
  const problems: Problem[] = [];
  if (input.end_date <= input.start_date) problems.push({ code: 'end_before_start', field: 'end_date', message: 'end_date must be after start_date (a contract covers [start_date, end_date))' });
  const termProblems = validateTerms(input.terms.map(coreTerm));
  problems.push(...termProblems);
  if (termProblems.length === 0 && problems.length === 0) {
    const order = input.terms.map((term, index) => ({ term, index })).sort((a, b) => dayNumber(a.term.start_date) - dayNumber(b.term.start_date));
    let expected = input.start_date;
    for (const { term, index } of order) {
      if (term.start_date < input.start_date || term.end_date > input.end_date) {
        problems.push({ code: 'term_outside_contract', field: `terms[${index}].${term.start_date < input.start_date ? 'start_date' : 'end_date'}`, message: `phase ${term.phase} lies outside the contract's [${input.start_date}, ${input.end_date})` });
      } else if (term.start_date !== expected) {
        problems.push({ code: 'terms_not_contiguous', field: `terms[${index}].start_date`, message: `phase ${term.phase} must start on ${expected}, where the previous phase (or the contract) ends` });
      }
      expected = term.end_date;
    }
    if (problems.length === 0 && expected !== input.end_date) {
      const last = order[order.length - 1]!;
      problems.push({ code: 'terms_not_contiguous', field: `terms[${last.index}].end_date`, message: `the last phase must end on the contract's end_date ${input.end_date}` });
    }
  }
  if (input.escalation !== undefined) {
    try {
      validateEscalation(input.escalation.kind === 'Percent' ? input.escalation : { kind: 'Fixed', amount_nanos: BigInt(input.escalation.amount_nanos) });
    } catch (err) {
      if (!(err instanceof CoreValidationError)) throw err;
      problems.push(...err.problems);
    }
  }
  problems.push(...pricingProblems(input, ''));
  problems.push(...(await tierOverrideProblems(deps, input.tier_overrides, '')));
  for (const [index, term] of input.terms.entries()) {
    problems.push(...pricingProblems(term, `terms[${index}].`));
    problems.push(...(await tierOverrideProblems(deps, term.tier_overrides, `terms[${index}].`)));
  }
  return problems;
}

// ── Workflows ──

/**
 * Started after the commit (its first step reads the row); should this process die in between, the
 * contract is Active without a workflow until the reconciler (reconcile.ts) starts one for it
 * (USE_EXISTING makes a second start harmless).
 */
const startContractWorkflow = (deps: ServiceDeps, contract: ContractRecord): Promise<void> => startWorkflowOf(deps, contract, deps.clock());

/** Tells a contract's workflow to look at the contract again (it ends once the contract left Active). */
async function signalContractWorkflow(deps: ServiceDeps, contractId: string): Promise<void> {
  try {
    await signalContractChanged(deps.temporal, contractId);
  } catch (err) {
    // A workflow that already ended has nothing to look at (the gateway says so); anything else is logged, the move stands.
    deps.logger.warn({ err, contractId }, 'could not signal the contract workflow');
  }
}

// ── Operations ──

export async function createContract(deps: ServiceDeps, input: CreateContractInput, actor: Actor, requestId: string): Promise<ContractView> {
  const customer = await findCustomer(deps.db, input.customer_id);
  if (customer === null) throw new DomainError('not_found', 'customer_not_found', `customer_id: customer ${input.customer_id} does not exist`, { field: 'customer_id', id: input.customer_id });
  if (customer.status === 'Closed') throw unprocessable('customer_closed', 'customer_id', `customer ${customer.id} is Closed`);
  const problems = await contractProblems(deps, input);
  if (problems.length > 0) throw problemsError(problems);

  const status: ContractStatus = input.activate === false ? 'Draft' : 'Active';
  const contract = await deps.db.$transaction(async (tx) => {
    const now = await customerNow(tx, customer.id, deps.clock());
    const created = await insertContract(tx, {
      id: newId(),
      customer_id: customer.id,
      name: input.name,
      status,
      start_date: input.start_date,
      end_date: input.end_date,
      discount_bps: input.discount_bps ?? null,
      rate_overrides: input.rate_overrides ?? null,
      tier_overrides: input.tier_overrides ?? null,
      escalation: input.escalation ?? null,
      parent_contract_id: null,
      amendment_reason: null,
      effective_date: null,
      escalation_steps: 0,
      test_clock_id: customer.test_clock_id,
      created_at: now,
      terms: input.terms.map(
        (term): NewTerm => ({
          phase: term.phase,
          start_date: term.start_date,
          end_date: term.end_date,
          committed_amount_nanos: term.committed_amount_nanos,
          description: term.description,
          discount_bps: term.discount_bps ?? null,
          rate_overrides: term.rate_overrides ?? null,
          tier_overrides: term.tier_overrides ?? null,
          commit_product_tag: term.commit_product_tag ?? null,
        }),
      ),
    });
    await recordAudit(tx, { action: 'contract.created', actor, entityType: 'contract', entityId: created.id, customerId: created.customer_id, after: toView(created), requestId });
    await enqueueEvent(tx, 'contract.created', created.id, { contract_id: created.id, customer_id: created.customer_id, status: created.status }, now);
    return created;
  });
  if (contract.status === 'Active') await startContractWorkflow(deps, contract);
  return getContract(deps, contract.id);
}

export async function getContract(deps: ServiceDeps, id: string): Promise<ContractView> {
  const contract = await findContract(deps.db, id);
  if (contract === null) throw notFound('contract', id);
  const now = await customerNow(deps.db, contract.customer_id, deps.clock());
  const balances = await contractBalances(deps.db, contract, now);
  return toView(contract, {
    balances: balances.map((b) => ({ drawn: b.drawn_down_nanos, remaining: b.remaining_nanos })),
    chain: await contractChain(deps.db, id),
    links: await linksOf(deps.db, id),
  });
}

/**
 * An operator's retry of the contract step that left a billing_error (docs/failures.md): the
 * workflow clears it and runs the step again; answered once it ran (with a new billing_error when
 * it failed again). 409 no_billing_error when there is nothing to retry.
 */
export async function retryContract(deps: ServiceDeps, id: string, command: SubscriptionCommand): Promise<ContractView> {
  const contract = await findContract(deps.db, id);
  if (contract === null) throw notFound('contract', id);
  await retryHeldStep({ entity: 'contract', what: `contract ${id}`, billingError: contract.billing_error }, () => retryContractStep(deps.temporal, id, command));
  return getContract(deps, id);
}

export async function listContracts(
  deps: ServiceDeps,
  query: PageQuery & { customer_id?: string | undefined; status?: ContractStatus | undefined },
): Promise<Page<ContractView>> {
  const rows = await listContractRows(deps.db, query);
  return toPage(rows, query.limit, (row) => toView(row));
}

export async function activateContract(deps: ServiceDeps, id: string, actor: Actor, requestId: string): Promise<ContractView> {
  const activated = await deps.db.$transaction(async (tx) => {
    const contract = await lockContract(tx, id);
    if (contract === null) throw notFound('contract', id);
    if (contract.status !== 'Draft') throw invalidTransition('contract', contract.status, 'activate');
    return moveContract(tx, contract, 'Active', await customerNow(tx, contract.customer_id, deps.clock()), actor, { requestId });
  });
  await startContractWorkflow(deps, activated);
  return getContract(deps, id);
}

/** The amended contract's terms (see the file header), numbered 1..n. */
function amendedTerms(contract: ContractRecord, input: AmendContractInput): NewTerm[] {
  const pricing = {
    ...(input.discount_bps === undefined ? {} : { discount_bps: input.discount_bps }),
    ...(input.rate_overrides === undefined ? {} : { rate_overrides: input.rate_overrides }),
  };
  const out: Omit<NewTerm, 'phase'>[] = [];
  for (const term of contract.terms) {
    const { phase: _phase, ...rest } = term;
    if (term.end_date <= input.effective_date) {
      out.push(rest);
    } else if (term.start_date >= input.effective_date) {
      out.push({ ...rest, ...pricing, trued_up_at: null, true_up_nanos: null });
    } else {
      const commit = BigInt(term.committed_amount_nanos);
      const before = prorateDays(commit, dayNumber(input.effective_date) - dayNumber(term.start_date), dayNumber(term.end_date) - dayNumber(term.start_date));
      out.push({ ...rest, end_date: input.effective_date, committed_amount_nanos: before.toString() });
      out.push({ ...rest, ...pricing, start_date: input.effective_date, committed_amount_nanos: input.new_committed_amount_nanos, description: `${term.description} (amended: ${input.reason})`, trued_up_at: null, true_up_nanos: null });
    }
  }
  return out.map((term, index) => ({ ...term, phase: index + 1 }));
}

export async function amendContract(deps: ServiceDeps, id: string, input: AmendContractInput, actor: Actor, requestId: string): Promise<ContractView> {
  const { previous, amended } = await deps.db.$transaction(async (tx) => {
    const contract = await lockContract(tx, id);
    if (contract === null) throw notFound('contract', id);
    if (contract.status !== 'Active') throw invalidTransition('contract', contract.status, 'amend');
    const now = await customerNow(tx, contract.customer_id, deps.clock());
    const today = civil(now);
    if (input.effective_date < contract.start_date || input.effective_date >= contract.end_date) {
      throw unprocessable('invalid_effective_date', 'effective_date', `must fall inside the contract's [${contract.start_date}, ${contract.end_date})`);
    }
    if (input.effective_date < today) throw unprocessable('invalid_effective_date', 'effective_date', `must not be before today (${today}): billed days keep their terms`);
    const created = await insertContract(tx, {
      id: newId(),
      customer_id: contract.customer_id,
      name: contract.name,
      status: 'Active',
      start_date: contract.start_date,
      end_date: contract.end_date,
      discount_bps: contract.discount_bps,
      rate_overrides: contract.rate_overrides,
      tier_overrides: contract.tier_overrides,
      escalation: contract.escalation,
      parent_contract_id: contract.id,
      amendment_reason: input.reason,
      effective_date: input.effective_date,
      escalation_steps: contract.escalation_steps,
      test_clock_id: contract.test_clock_id,
      created_at: now,
      terms: amendedTerms(contract, input),
    });
    await moveLinks(tx, contract.id, created.id);
    const moved = await moveContract(tx, contract, 'Amended', now, actor, { requestId });
    await recordAudit(tx, { action: 'contract.created', actor, entityType: 'contract', entityId: created.id, customerId: created.customer_id, after: toView(created), requestId });
    await enqueueEvent(tx, 'contract.created', created.id, { contract_id: created.id, customer_id: created.customer_id, status: created.status, parent_contract_id: contract.id }, now);
    return { previous: moved, amended: created };
  });
  await startContractWorkflow(deps, amended);
  await signalContractWorkflow(deps, previous.id);
  return getContract(deps, amended.id);
}

export async function terminateContract(deps: ServiceDeps, id: string, input: { reason?: string | undefined }, actor: Actor, requestId: string): Promise<ContractView> {
  const existing = await findContract(deps.db, id);
  if (existing === null) throw notFound('contract', id);
  if (existing.status !== 'Active') throw invalidTransition('contract', existing.status, 'terminate');
  const now = await customerNow(deps.db, existing.customer_id, deps.clock());
  const today = civil(now);
  // Before its start a contract is left with no day served; otherwise today is its last day.
  const lastDay = today < existing.start_date ? addDays(existing.start_date, -1) : today < existing.end_date ? today : addDays(existing.end_date, -1);
  const term = lastDay < existing.start_date ? undefined : phaseAt(existing.terms.map(coreTerm), lastDay);
  let fee = 0n;
  if (term !== undefined) {
    const record = existing.terms.find((t) => t.phase === term.phase)!;
    const served = term.committed_amount_nanos - cancellationCredit(term.committed_amount_nanos, term.start_date, term.end_date, lastDay);
    const [balance] = commitBalances([record], await contractCharges(deps.db, existing, now));
    fee = computeTrueUp(served, balance!.eligible_usage_nanos).true_up_nanos;
  }
  const terminated = await withContractDraft(deps, id, now, { needsDraft: fee > 0n }, async (tx, contract, addLine) => {
    if (contract.status !== 'Active') throw invalidTransition('contract', contract.status, 'terminate');
    if (fee > 0n && term !== undefined) {
      await addLine({ kind: 'contract_fee', description: `${contract.name} · early termination on ${lastDay}: phase ${term.phase} commitment not used`, amountNanos: fee });
    }
    return moveContract(tx, contract, 'Terminated', now, actor, { terminated_on: lastDay, termination_reason: input.reason ?? null, requestId });
  });
  await signalContractWorkflow(deps, terminated.id);
  return getContract(deps, id);
}

export interface LinkInput {
  subscription_id: string;
  adoption_type: AdoptionType;
}

export interface LinkView extends ContractLinkRecord {
  coterm: (Omit<CotermResult, 'amount_nanos' | 'first_period_amount_nanos'> & { amount_nanos?: string; first_period_amount_nanos?: string }) | null;
}

export async function linkSubscription(deps: ServiceDeps, contractId: string, input: LinkInput, actor: Actor, requestId: string): Promise<LinkView> {
  const contract = await findContract(deps.db, contractId);
  if (contract === null) throw notFound('contract', contractId);
  if (contract.status !== 'Active' && contract.status !== 'Draft') throw invalidTransition('contract', contract.status, 'link a subscription to');
  const subscription = await findLinkableSubscription(deps.db, input.subscription_id);
  if (subscription === null) {
    throw new DomainError('not_found', 'subscription_not_found', `subscription_id: subscription ${input.subscription_id} does not exist`, { field: 'subscription_id', id: input.subscription_id });
  }
  if (subscription.customer_id !== contract.customer_id) {
    throw unprocessable('contract_customer_mismatch', 'subscription_id', `subscription ${subscription.id} belongs to another customer than the contract`);
  }
  if (subscription.status === 'Expired') throw invalidTransition('subscription', subscription.status, 'link to a contract');
  if (subscription.contract_id !== null) {
    throw conflict('subscription_already_linked', `subscription ${subscription.id} is already linked to contract ${subscription.contract_id}`, { subscription_id: subscription.id });
  }
  const now = await customerNow(deps.db, contract.customer_id, deps.clock());
  let cotermResult: CotermResult | null = null;
  if (input.adoption_type === 'Coterm') {
    const periodAmount = subscription.plan.prices.filter((p) => p.pricing_model === 'Flat').reduce((sum, p) => sum + p.unit_amount_nanos, 0n);
    try {
      cotermResult = coterm(civil(now), contract.end_date, periodAmount, subscription.plan.billing_cadence);
    } catch (err) {
      if (err instanceof CoreValidationError && err.code === 'contract_ended') throw unprocessable('contract_ended', 'adoption_type', `the contract ends on ${contract.end_date}: nothing is left to coterm to`);
      throw err;
    }
  }
  const aligns = cotermResult?.kind === 'Aligned';
  // Realignment cuts the paid period in course: a trial, a paused or a cancelled subscription has none to align.
  if (aligns && subscription.status !== 'Active' && subscription.status !== 'PastDue') throw invalidTransition('subscription', subscription.status, 'coterm');
  const fee = cotermResult?.kind === 'OneTimeFee' ? cotermResult.amount_nanos : null;
  const needsDraft = fee !== null && fee > 0n;
  const link = await withContractDraft(deps, contractId, now, { needsDraft, preferSubscriptionId: subscription.id }, async (tx, locked, addLine) => {
    if (locked.status !== 'Active' && locked.status !== 'Draft') throw invalidTransition('contract', locked.status, 'link a subscription to');
    const created = await insertLink(tx, { id: newId(), contract_id: contractId, subscription_id: subscription.id, adoption_type: input.adoption_type, coterm_fee_nanos: fee, created_at: now });
    if (needsDraft) {
      await addLine({ kind: 'contract_fee', description: `${locked.name} · coterm one-time fee (${cotermResult!.days_remaining} days to ${locked.end_date})`, amountNanos: fee! });
    }
    await recordAudit(tx, { action: 'contract.subscription_linked', actor, entityType: 'contract', entityId: contractId, customerId: locked.customer_id, before: { subscription_contract_id: null }, after: created, requestId });
    await enqueueEvent(tx, 'contract.subscription_linked', contractId, { contract_id: contractId, customer_id: locked.customer_id, subscription_id: subscription.id, adoption_type: input.adoption_type }, now);
    return created;
  });
  if (!aligns) return { ...link, coterm: cotermResult === null ? null : serializeCoterm(cotermResult) };
  // The subscription's workflow realigns its periods (under its lock, closing the period it cuts
  // short); should this process die first, the contract reconciler sends the update again.
  await alignToContract(deps, subscription.id, actor, requestId);
  const aligned = (await linkOfSubscription(deps.db, subscription.id))!;
  return { ...link, aligned_at: aligned.aligned_at, coterm: serializeCoterm(cotermResult!) };
}

/** Sends the coterm realignment to the subscription's workflow (idempotent: a realigned subscription stays as it is). */
export async function alignToContract(deps: Pick<ServiceDeps, 'db' | 'temporal'>, subscriptionId: string, actor: Actor, requestId?: string): Promise<void> {
  const command = await atClockTime<SubscriptionCommand>(deps.db, subscriptionId, { actor, ...(requestId ? { requestId } : {}) });
  await alignSubscriptionToContract(deps.temporal, subscriptionId, command);
}

function serializeCoterm(result: CotermResult): LinkView['coterm'] {
  if (result.kind === 'OneTimeFee') return { kind: result.kind, days_remaining: result.days_remaining, amount_nanos: result.amount_nanos.toString() };
  const { first_period_amount_nanos: amount, ...rest } = result;
  return { ...rest, first_period_amount_nanos: amount.toString() };
}
