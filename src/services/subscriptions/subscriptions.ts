/**
 * Subscriptions: created through the API, then owned by their workflow (`subscription:<id>`),
 * which every state move goes through.
 */
import { addDaysMs, anchorDayOf, periodEnd } from '../../core/index.js';
import { findPlan, lockPlan, type PlanRecord } from '../../db/catalog.js';
import { planArchived, productArchived } from '../catalog/archiving.js';
import { findCustomer, lockCustomerShared } from '../../db/customers.js';
import { toDecimal } from '../../db/money.js';
import type { PageQuery } from '../../db/pages.js';
import {
  findSubscription,
  insertPhase,
  insertSubscription,
  listSubscriptions as listSubscriptionRows,
  lockSubscription,
  setSubscriptionMetadata,
  type SubscriptionRow,
} from '../../db/subscriptions.js';
import { lockClockShared } from '../../db/test-clocks.js';
import type { ServiceDeps } from '../deps.js';
import { newId, UUID_PATTERN } from '../../ids.js';
import { checkTemporalReachable } from '../../temporal/gateway.js';
import { startSubscriptionWorkflow } from './workflow-starts.js';
import { atClockTime } from './test-clocks.js';
import type { SubscriptionCommand } from '../../temporal/messages.js';
import {
  billSubscriptionNow,
  changeSubscriptionPlanNow,
  moveSubscriptionWorkflow,
  retrySubscriptionStep,
  type SubscriptionMove,
} from '../../temporal/workflows/subscription.js';
import { recordAudit, type Actor } from '../audit.js';
import { billingErrorView, retryHeldStep } from '../failures/billing-errors.js';
import { DomainError, notFound } from '../../errors.js';
import { enqueueEvent } from '../outbox.js';
import { toPage, type Page } from '../pagination.js';
import type { PlanChangeView, SubscriptionView } from '../../schemas/subscriptions.js';
import type { InvoiceView } from '../../schemas/invoicing.js';
import { loadInvoiceView } from '../invoicing/invoices.js';
import { mergeMetadata, metadataOf, type MetadataChanges } from '../metadata.js';

export interface CreateSubscriptionInput {
  customer_id: string;
  plan_id: string;
  /** Defaults to the currency of the plan's SKUs (a plan's SKUs share one currency). */
  currency?: string | undefined;
  metadata?: MetadataChanges | undefined;
  trial_days?: number | undefined;
  progressive_threshold_nanos?: string | undefined;
}

const iso = (d: Date | null): string | null => d?.toISOString() ?? null;

export function toSubscriptionView(row: SubscriptionRow): SubscriptionView {
  return {
    id: row.id,
    customer_id: row.customerId,
    plan_id: row.planId,
    plan_version: row.planVersion,
    status: row.status,
    currency: row.currency,
    trial_days: row.trialDays,
    trial_end: iso(row.trialEnd),
    period_start: row.periodStart.toISOString(),
    period_end: row.periodEnd.toISOString(),
    charged_through_date: iso(row.chargedThroughDate),
    contract_id: row.contractId,
    test_clock_id: row.testClockId,
    progressive_threshold_nanos: row.progressiveThresholdNanos?.toFixed(0) ?? null,
    paused_at: iso(row.pausedAt),
    cancelled_at: iso(row.cancelledAt),
    billing_error: billingErrorView(row.billingError),
    metadata: metadataOf(row.metadata),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export { PROGRESSIVE_CHECK_EVERY_MS } from './workflow-starts.js';

const unprocessable = (code: string, message: string, details?: Record<string, unknown>) =>
  new DomainError('unprocessable', code, message, details);

/** A customer token may only see its own subscriptions; anything else is "not found". */
export async function getSubscription(deps: ServiceDeps, id: string, ownCustomerId?: string): Promise<SubscriptionView> {
  const row = await findSubscription(deps.db, id);
  if (!row || (ownCustomerId !== undefined && row.customerId !== ownCustomerId)) throw notFound('subscription', id);
  return toSubscriptionView(row);
}

/** A plan new subscriptions (and plan changes) may take: not archived, with SKUs, in the currency. */
export function assertSubscribable(plan: PlanRecord & { product_archived?: boolean }, currency: string): void {
  if (plan.archived_at !== null) throw planArchived(plan.id);
  if (plan.skus.length === 0) throw unprocessable('plan_has_no_skus', `plan ${plan.id} has no SKUs to bill`);
  const planCurrencies = [...new Set(plan.skus.map((s) => s.currency))];
  if (!planCurrencies.includes(currency)) {
    throw unprocessable('currency_mismatch', `currency ${currency} does not match the plan's SKUs (${planCurrencies.join(', ')})`, {
      field: 'currency',
      plan_currencies: planCurrencies,
    });
  }
}

export async function createSubscription(
  deps: ServiceDeps,
  input: CreateSubscriptionInput,
  actor: Actor,
  requestId: string,
  ownCustomerId?: string,
): Promise<SubscriptionView> {
  if (ownCustomerId !== undefined && input.customer_id !== ownCustomerId) throw notFound('customer', input.customer_id);
  const { db } = deps;
  const customer = await findCustomer(db, input.customer_id);
  if (!customer) throw notFound('customer', input.customer_id);
  if (customer.status !== 'Active') {
    throw unprocessable('customer_not_active', `customer ${customer.id} is ${customer.status}; only Active customers can subscribe`);
  }
  const plan = await findPlan(db, input.plan_id);
  if (!plan) throw notFound('plan', input.plan_id);
  // Without a currency, the plan's (its SKUs share one; the first when they do not).
  const currency = input.currency ?? plan.skus[0]?.currency ?? '';
  assertSubscribable(plan, currency);

  const trialDays = input.trial_days ?? plan.trial_days;
  const id = newId();
  // Temporal must be reachable before anything is written: down, the answer is a quick 503 and
  // nothing was created (the workflow starts only after the commit, below).
  await checkTemporalReachable(deps.temporal).catch((err: unknown) => {
    throw new DomainError('unavailable', 'service_unavailable', `Temporal could not be reached: ${(err as Error).message}`);
  });
  let clockNow: Date | null = null;
  const created = await db.$transaction(async (tx) => {
    // Holds off a concurrent close of the customer until this subscription is committed.
    const lockedStatus = await lockCustomerShared(tx, customer.id);
    if (lockedStatus !== 'Active') {
      throw unprocessable('customer_not_active', `customer ${customer.id} is ${lockedStatus ?? 'gone'}; only Active customers can subscribe`);
    }
    // On a test clock, "now" is the clock's time, read under a share lock: an advance of the clock
    // (which takes it exclusively) either waits for this subscription or happened before it.
    const clockTime = customer.test_clock_id ? await lockClockShared(tx, customer.test_clock_id) : undefined;
    // The plan's version is read under a share lock: a SKU change (which takes the plan
    // exclusively) either sees this subscription on the version, or opened the one it takes.
    const current = await lockPlan(tx, plan.id, 'share');
    if (current === null) throw notFound('plan', plan.id);
    if (current.archived) throw planArchived(plan.id);
    if (current.product_archived) throw productArchived(plan.product_id ?? plan.id);
    if (current.version !== plan.version) assertSubscribable((await findPlan(tx, plan.id))!, currency);
    clockNow = clockTime ?? null;
    const startMs = (clockTime ?? deps.clock()).getTime();
    const trialEndMs = trialDays > 0 ? addDaysMs(startMs, trialDays) : null;
    const subscription = await insertSubscription(tx, {
      id,
      customerId: customer.id,
      planId: plan.id,
      planVersion: current.version,
      currency,
      status: trialEndMs !== null ? 'Trialing' : 'Active',
      trialDays,
      trialEnd: trialEndMs === null ? null : new Date(trialEndMs),
      periodStart: new Date(startMs),
      // A trial is the first period; paid periods are anchored on the day the trial ends.
      periodEnd: new Date(trialEndMs ?? periodEnd(startMs, plan.billing_cadence, anchorDayOf(startMs))),
      billingAnchor: new Date(trialEndMs ?? startMs),
      testClockId: customer.test_clock_id,
      progressiveThresholdNanos: input.progressive_threshold_nanos === undefined ? null : toDecimal(BigInt(input.progressive_threshold_nanos)),
      metadata: mergeMetadata({}, input.metadata ?? {}),
      // On a test clock it is created at the clock's time.
      ...(clockTime === undefined ? {} : { createdAt: clockTime }),
    });
    await insertPhase(tx, { id: newId(), subscriptionId: id, planId: plan.id, planVersion: current.version, startsAt: subscription.periodStart });
    await recordAudit(tx, {
      action: 'subscription.created',
      actor,
      entityType: 'subscription',
      entityId: id,
      customerId: customer.id,
      after: toSubscriptionView(subscription),
      requestId,
    });
    await enqueueEvent(tx, 'subscription.created', id, {
      subscription_id: id,
      customer_id: customer.id,
      plan_id: plan.id,
      plan_version: current.version,
      status: subscription.status,
      currency: subscription.currency,
    }, subscription.periodStart);
    return subscription;
  });
  // Start after commit. Should the start fail now (Temporal went away since the check) or this
  // process die first, the row is committed without workflow_started_at and the reconciler starts
  // its workflow (./workflow-starts.ts); the subscription exists either way, so the answer is 201.
  await startSubscriptionWorkflow(deps, created, clockNow).catch((err: unknown) => {
    deps.logger.warn({ err, subscriptionId: id }, 'starting the subscription workflow after commit failed; the reconciler will start it');
  });
  return toSubscriptionView(created);
}

export interface SubscriptionListQuery extends PageQuery {
  customer_id?: string | undefined;
  status?: SubscriptionRow['status'] | undefined;
  plan_id?: string | undefined;
  currency?: string | undefined;
  test_clock_id?: string | undefined;
}

/** Merges `changes` into the subscription's metadata (any status: metadata is never billed), audited as subscription.updated. */
export async function updateSubscriptionMetadata(deps: ServiceDeps, id: string, changes: MetadataChanges, context: { actor: Actor; requestId: string }): Promise<SubscriptionView> {
  return deps.db.$transaction(async (tx) => {
    const before = (await lockSubscription(tx, id)) ? await findSubscription(tx, id) : null;
    if (!before) throw notFound('subscription', id);
    const after = await setSubscriptionMetadata(tx, id, mergeMetadata(metadataOf(before.metadata), changes));
    await recordAudit(tx, {
      action: 'subscription.updated',
      actor: context.actor,
      entityType: 'subscription',
      entityId: id,
      customerId: before.customerId,
      before: { metadata: metadataOf(before.metadata) },
      after: { metadata: metadataOf(after.metadata) },
      requestId: context.requestId,
    });
    return toSubscriptionView(after);
  });
}

/** Subscriptions, newest first; a customer token lists only its own customer's. */
export async function listSubscriptions(deps: ServiceDeps, query: SubscriptionListQuery, ownCustomerId?: string): Promise<Page<SubscriptionView>> {
  if (ownCustomerId !== undefined && query.customer_id !== undefined && query.customer_id !== ownCustomerId) throw notFound('customer', query.customer_id);
  // A customer token whose subject is not a customer id owns nothing.
  if (ownCustomerId !== undefined && !UUID_PATTERN.test(ownCustomerId)) return { data: [], has_more: false, next_cursor: null };
  const customerId = ownCustomerId ?? query.customer_id;
  const rows = await listSubscriptionRows(
    deps.db,
    { customerId, status: query.status, planId: query.plan_id, currency: query.currency, testClockId: query.test_clock_id },
    query,
  );
  return toPage(rows, query.limit, toSubscriptionView);
}


/** Pause, resume or cancel through the subscription's workflow; invalid moves are 409s. */
export async function moveSubscription(deps: ServiceDeps, id: string, move: SubscriptionMove, command: SubscriptionCommand): Promise<SubscriptionView> {
  await getSubscription(deps, id);
  await moveSubscriptionWorkflow(deps.temporal, id, move, await atClockTime(deps.db, id, command));
  return getSubscription(deps, id);
}

/**
 * An operator's retry of the step that left the subscription in billing_error (after fixing the
 * data): answers once the step ran again, with the subscription (billing_error set again when it
 * failed again). 409 no_billing_error when there is nothing to retry.
 */
export async function retrySubscriptionBilling(deps: ServiceDeps, id: string, command: SubscriptionCommand): Promise<SubscriptionView> {
  const row = await findSubscription(deps.db, id);
  if (!row) throw notFound('subscription', id);
  const held = { entity: 'subscription' as const, what: `subscription ${id}`, billingError: row.billingError };
  await retryHeldStep(held, () => retrySubscriptionStep(deps.temporal, id, command));
  return getSubscription(deps, id);
}

/** Bills the subscription's current period to now into its Draft (created or refreshed). */
export async function billNow(deps: ServiceDeps, subscriptionId: string, command: SubscriptionCommand): Promise<{ invoice: InvoiceView; created: boolean }> {
  await getSubscription(deps, subscriptionId);
  const { invoiceId, created } = await billSubscriptionNow(deps.temporal, subscriptionId, await atClockTime(deps.db, subscriptionId, command));
  if (!invoiceId) {
    throw new DomainError('unprocessable', 'nothing_to_bill', 'the current period has no charges beyond those already invoiced');
  }
  return { invoice: await loadInvoiceView(deps.db, invoiceId), created };
}

export async function changePlan(
  deps: ServiceDeps,
  subscriptionId: string,
  planId: string,
  command: SubscriptionCommand,
  planVersion?: number,
): Promise<PlanChangeView> {
  await getSubscription(deps, subscriptionId);
  const change = await atClockTime(deps.db, subscriptionId, { ...command, planId, ...(planVersion === undefined ? {} : { planVersion }) });
  const { invoiceId } = await changeSubscriptionPlanNow(deps.temporal, subscriptionId, change);
  return {
    subscription: await getSubscription(deps, subscriptionId),
    invoice: invoiceId ? await loadInvoiceView(deps.db, invoiceId) : null,
  };
}
