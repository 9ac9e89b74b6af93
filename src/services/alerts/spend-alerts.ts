/**
 * Spend alerts (SPEC §1 Spend alerts, §4 /admin/v1/customers/:id/alerts, §6 spend_alert.triggered).
 *
 * - An alert watches the customer's spend in the current billing period: the charges of its
 *   subscriptions in the alert's currency rated cumulatively to now (fees + usage, before tax and
 *   credits; `currentPeriodSpend` of the billing service, the same rating the invoices use),
 *   optionally only the SKUs metering one event type (scope).
 * - Evaluation is debounced and serialised per customer: ingestion only notes that a customer's
 *   usage changed (coalesced per process, see noteUsageRecorded); one workflow per customer
 *   (`spend-alerts:<customer id>`) waits briefly for more and then evaluates once.
 * - A crossing (spend ≥ threshold while Armed, the spend having been below it at the previous
 *   evaluation of the period) moves the alert to Triggered with a conditional update, and writes
 *   the outbox event spend_alert.triggered, the history entry and the audit entry in the same
 *   transaction: one event per crossing, whatever races.
 * - Reset: at each billing period start the workflow re-arms the alerts triggered in an earlier
 *   period; an admin reset re-arms one at once (optionally with a new threshold) and keeps the
 *   period's spend as the baseline, so it triggers again only on a new crossing.
 * - HardLimit: while Triggered the customer's entitlement is `blocked`; at finalization charges
 *   above the threshold are withheld from the period's invoices (spend-cap.ts).
 * - An evaluation that fails in a way no retry fixes (a deterministic failure, or a transient one
 *   that outlasted its retries) is shown on every enabled alert of the customer as
 *   `evaluation_error`, with a history entry, an audit entry and a log line; the alerts keep their
 *   state. The next evaluation that succeeds (new usage, an alert change or admin reset, the next
 *   period start) clears it the same way.
 */
import type { PageQuery } from '../../db/pages.js';
import { thresholdCrossed, toDisplay } from '../../core/index.js';
import type { Db, DbClient, SqlReader } from '../../db/client.js';
import { customerNow } from '../../db/contracts.js';
import { findCustomer } from '../../db/customers.js';
import { fromDecimal, fromDecimalOrNull } from '../../db/money.js';
import {
  customersWithEnabledAlerts,
  disableSpendAlert as disableAlertRow,
  enabledSpendAlerts,
  findSpendAlert,
  historyOf,
  insertSpendAlert,
  insertSpendAlertEvent,
  listSpendAlerts as listAlertRows,
  lockSpendAlert,
  markTriggered,
  nextPeriodStart,
  rearm,
  recordEvaluation,
  clearSpendBaselines,
  customerStanding,
  setEvaluationError,
  setThreshold,
  subscriptionsForSpend,
  triggeredBefore,
  type SpendAlertEventRow,
  type SpendAlertRow,
  type SpendAlertStatus,
} from '../../db/spend-alerts.js';
import { DomainError, invalidTransition, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { EntitlementView, SpendAlertView } from '../../schemas/spend-alerts.js';
import { engineActor, recordAudit, type Actor } from '../audit.js';
import { billingErrorView, toBillingErrorView } from '../failures/billing-errors.js';
import type { Logger } from '../../logger.js';
import { currentPeriodSpend, type PeriodSpend } from '../billing/billing.js';
import type { ServiceDeps } from '../deps.js';
import { Coalescer } from '../coalescer.js';
import { enqueueEvent } from '../outbox.js';
import { toPage } from '../pagination.js';
import type { BillingErrorState, SpendAlertWorkflowInput, SpendEvaluation } from '../../temporal/messages.js';
import { signalSpendChanged } from '../../temporal/workflows/spend-alerts.js';

const iso = (d: Date | null): string | null => d?.toISOString() ?? null;

function toView(alert: SpendAlertRow, history: SpendAlertEventRow[]): SpendAlertView {
  return {
    id: alert.id,
    customer_id: alert.customerId,
    alert_type: alert.alertType,
    threshold_nanos: alert.thresholdNanos.toFixed(0),
    threshold: toDisplay(fromDecimal(alert.thresholdNanos), alert.currency).text,
    currency: alert.currency,
    scope: { meter_event_type: alert.meterEventType },
    status: alert.status,
    triggered_at: iso(alert.triggeredAt),
    triggered_spend_nanos: alert.triggeredSpendNanos?.toFixed(0) ?? null,
    last_evaluated_at: iso(alert.lastEvaluatedAt),
    last_spend_nanos: alert.lastSpendNanos?.toFixed(0) ?? null,
    disabled_at: iso(alert.disabledAt),
    evaluation_error: billingErrorView(alert.evaluationError),
    created_at: alert.createdAt.toISOString(),
    history: history.map((entry) => ({
      kind: entry.kind as SpendAlertView['history'][number]['kind'],
      reason: entry.reason,
      spend_nanos: entry.spendNanos?.toFixed(0) ?? null,
      period_start: iso(entry.periodStart),
      actor: { type: entry.actorType, id: entry.actorId },
      at: entry.at.toISOString(),
    })),
  };
}

async function loadView(tx: DbClient, alert: SpendAlertRow): Promise<SpendAlertView> {
  return toView(alert, (await historyOf(tx, [alert.id])).get(alert.id) ?? []);
}

async function requireCustomer(tx: DbClient, customerId: string) {
  const customer = await findCustomer(tx, customerId);
  if (!customer) throw notFound('customer', customerId);
  return customer;
}

/** The alert of that customer, locked; 404 when it is another customer's. */
async function lockAlertOf(tx: DbClient, customerId: string, alertId: string): Promise<SpendAlertRow> {
  const alert = await lockSpendAlert(tx, alertId);
  if (!alert || alert.customerId !== customerId) throw notFound('spend_alert', alertId);
  return alert;
}

export interface CreateSpendAlertInput {
  alert_type: 'SoftLimit' | 'HardLimit';
  threshold_nanos: string;
  currency?: string | undefined;
  scope?: { meter_event_type?: string | null | undefined } | undefined;
}

interface Mutation {
  actor: Actor;
  requestId: string;
}

export async function createSpendAlert(deps: ServiceDeps, customerId: string, input: CreateSpendAlertInput, context: Mutation): Promise<SpendAlertView> {
  const view = await deps.db.$transaction(async (tx) => {
    const customer = await requireCustomer(tx, customerId);
    if (customer.status === 'Closed') {
      throw new DomainError('unprocessable', 'customer_closed', `customer ${customerId} is Closed`, { field: 'customer_id' });
    }
    const at = await customerNow(tx, customerId, deps.clock());
    const alert = await insertSpendAlert(tx, {
      id: newId(),
      customerId,
      alertType: input.alert_type,
      thresholdNanos: BigInt(input.threshold_nanos),
      currency: input.currency ?? customer.billing_currency,
      meterEventType: input.scope?.meter_event_type ?? null,
      createdAt: at,
    });
    await insertSpendAlertEvent(tx, { alertId: alert.id, kind: 'created', actor: context.actor, at });
    const created = await loadView(tx, alert);
    await recordAudit(tx, { action: 'spend_alert.created', actor: context.actor, entityType: 'spend_alert', entityId: alert.id, customerId, after: created, requestId: context.requestId });
    return created;
  });
  // The spend may already be above the new threshold: evaluate now, not at the next usage event.
  await requestSpendEvaluationOrLog(deps, customerId);
  return view;
}

export async function listSpendAlerts(
  db: Db,
  customerId: string,
  filter: { status?: SpendAlertStatus | undefined },
  page: PageQuery,
) {
  await requireCustomer(db, customerId);
  const rows = await listAlertRows(db, customerId, filter, page);
  const history = await historyOf(db, rows.map((row) => row.id));
  return toPage(rows, page.limit, (row) => toView(row, history.get(row.id) ?? []));
}

export async function getSpendAlert(db: Db, customerId: string, alertId: string): Promise<SpendAlertView> {
  const alert = await findSpendAlert(db, alertId);
  if (!alert || alert.customerId !== customerId) throw notFound('spend_alert', alertId);
  return loadView(db, alert);
}

/** Disables the alert (final; DELETE): it no longer notifies, blocks or caps. */
export async function disableSpendAlert(deps: ServiceDeps, customerId: string, alertId: string, context: Mutation): Promise<SpendAlertView> {
  return deps.db.$transaction(async (tx) => {
    const alert = await lockAlertOf(tx, customerId, alertId);
    if (alert.status === 'Disabled') return loadView(tx, alert);
    const at = await customerNow(tx, customerId, deps.clock());
    const disabled = await disableAlertRow(tx, alertId, at);
    await insertSpendAlertEvent(tx, { alertId, kind: 'disabled', actor: context.actor, at });
    await recordAudit(tx, {
      action: 'spend_alert.disabled',
      actor: context.actor,
      entityType: 'spend_alert',
      entityId: alertId,
      customerId,
      before: { status: alert.status },
      after: { status: 'Disabled' },
      requestId: context.requestId,
    });
    return loadView(tx, disabled);
  });
}

/**
 * Admin reset: a Triggered alert is Armed again (the customer is no longer blocked by it), with a
 * new threshold when one is given. An Armed alert only takes the new threshold. The period's spend
 * so far stays the baseline: the alert triggers again when the spend crosses its threshold anew
 * (a raised threshold, or the next period).
 */
export async function resetSpendAlert(
  deps: ServiceDeps,
  customerId: string,
  alertId: string,
  input: { threshold_nanos?: string | undefined },
  context: Mutation,
): Promise<SpendAlertView> {
  const view = await deps.db.$transaction(async (tx) => {
    const alert = await lockAlertOf(tx, customerId, alertId);
    if (alert.status === 'Disabled') throw invalidTransition('spend_alert', alert.status, 'reset');
    const at = await customerNow(tx, customerId, deps.clock());
    if (input.threshold_nanos !== undefined) {
      await setThreshold(tx, alertId, BigInt(input.threshold_nanos));
    }
    const rearmed = await rearm(tx, alertId);
    if (rearmed || input.threshold_nanos !== undefined) {
      await insertSpendAlertEvent(tx, { alertId, kind: 'reset', reason: 'admin', actor: context.actor, at, periodStart: alert.triggeredPeriodStart });
    }
    const after = (await findSpendAlert(tx, alertId))!;
    await recordAudit(tx, {
      action: 'spend_alert.reset',
      actor: context.actor,
      entityType: 'spend_alert',
      entityId: alertId,
      customerId,
      before: { status: alert.status, threshold_nanos: alert.thresholdNanos.toFixed(0) },
      after: { status: after.status, threshold_nanos: after.thresholdNanos.toFixed(0) },
      requestId: context.requestId,
    });
    return loadView(tx, after);
  });
  await requestSpendEvaluationOrLog(deps, customerId);
  return view;
}

/**
 * After a committed change: the change stands even when Temporal cannot be reached now; the next
 * usage, alert change or period start evaluates it.
 */
async function requestSpendEvaluationOrLog(deps: ServiceDeps, customerId: string): Promise<void> {
  try {
    await requestSpendEvaluation(deps, customerId);
  } catch (err) {
    deps.logger.warn({ err, customerId }, 'could not signal the spend alert evaluator');
  }
}

/** A customer token (`ownCustomerId`) reads only its own customer: any other is 404, as if it did not exist. */
export function refuseOtherCustomer(customerId: string, ownCustomerId: string | undefined): void {
  if (ownCustomerId !== undefined && ownCustomerId.toLowerCase() !== customerId.toLowerCase()) throw notFound('customer', customerId);
}

/**
 * Whether a HardLimit alert blocks the customer (getEntitlement's status, in one statement on `read`):
 * 404 for an unknown customer, and for another customer than a customer token's own.
 */
export async function spendBlocked(read: SqlReader, customerId: string, ownCustomerId?: string): Promise<boolean> {
  refuseOtherCustomer(customerId, ownCustomerId);
  const standing = await customerStanding(read, customerId);
  if (!standing.exists) throw notFound('customer', customerId);
  return standing.blocked;
}

/** Whether the customer's product should serve it: blocked while a HardLimit alert is Triggered. */
export async function getEntitlement(db: Db, customerId: string, ownCustomerId?: string): Promise<EntitlementView> {
  refuseOtherCustomer(customerId, ownCustomerId);
  await requireCustomer(db, customerId);
  const blocking = (await enabledSpendAlerts(db, customerId)).filter((alert) => alert.alertType === 'HardLimit' && alert.status === 'Triggered');
  return {
    customer_id: customerId,
    status: blocking.length > 0 ? 'blocked' : 'active',
    blocked_by: blocking.map((alert) => ({
      alert_id: alert.id,
      threshold_nanos: alert.thresholdNanos.toFixed(0),
      currency: alert.currency,
      triggered_at: alert.triggeredAt!.toISOString(),
    })),
  };
}

// ── Evaluation (the workflow's activities) ──

const inScope = (meterEventType: string | null) => (charge: { meter_event_type: string | null }) =>
  meterEventType === null || charge.meter_event_type === meterEventType;

/**
 * Evaluates every enabled alert of the customer against its current-period spend at `at` (business
 * time) and records crossings. Returns how many alerts are enabled, the next period start, and
 * whether a subscription's period has ended without rolling yet (then evaluate again shortly).
 */
export async function evaluateSpendAlerts(db: Db, customerId: string, at: Date): Promise<SpendEvaluation> {
  // Rating reads outside any transaction (it may take a while); each alert's outcome is then written
  // in a short transaction of its own, where the conditional update decides a crossing.
  const alerts = await enabledSpendAlerts(db, customerId);
  if (alerts.length === 0) return { enabledAlerts: 0, nextPeriodStart: null, awaitingRoll: false };
  const spendByCurrency = new Map<string, PeriodSpend[]>();
  let awaitingRoll = false;
  for (const currency of new Set(alerts.map((alert) => alert.currency))) {
    const spends: PeriodSpend[] = [];
    for (const subscription of await subscriptionsForSpend(db, customerId, currency)) {
      // A period that has ended but not rolled yet: its successor's spend is not known until it rolls.
      if (subscription.periodEnd <= at) awaitingRoll = true;
      const spend = await currentPeriodSpend(db, subscription.id, at);
      if (spend) spends.push(spend);
    }
    spendByCurrency.set(currency, spends);
  }
  for (const alert of alerts) {
    const periods = spendByCurrency.get(alert.currency) ?? [];
    const spend = periods.flatMap((period) => period.charges.filter(inScope(alert.meterEventType))).reduce((sum, charge) => sum + charge.amount_nanos, 0n);
    const threshold = fromDecimal(alert.thresholdNanos);
    const previous = fromDecimalOrNull(alert.lastSpendNanos);
    // A crossing: at or above the threshold now, below it at the previous evaluation of the period.
    const crossed = alert.status === 'Armed' && thresholdCrossed(spend, threshold) && (previous === null || !thresholdCrossed(previous, threshold));
    const periodStart = periods.reduce<Date | null>((earliest, p) => (earliest === null || p.periodStart < earliest ? p.periodStart : earliest), null);
    await db.$transaction(async (tx) => {
      if (crossed && (await markTriggered(tx, alert.id, { at, spendNanos: spend, periodStart }))) {
        await enqueueEvent(tx, 'spend_alert.triggered', alert.id, {
          alert_type: alert.alertType,
          customer_id: customerId,
          threshold_nanos: threshold.toString(),
          alert_id: alert.id,
          currency: alert.currency,
          spend_nanos: spend.toString(),
        }, at);
        await insertSpendAlertEvent(tx, { alertId: alert.id, kind: 'triggered', spendNanos: spend, periodStart, actor: engineActor(), at });
        await recordAudit(tx, {
          action: 'spend_alert.triggered',
          actor: engineActor(),
          entityType: 'spend_alert',
          entityId: alert.id,
          customerId,
          before: { status: 'Armed' },
          after: { status: 'Triggered', spend_nanos: spend.toString(), threshold_nanos: threshold.toString() },
        });
      }
      await recordEvaluation(tx, alert.id, at, spend);
      if (alert.evaluationError !== null && (await setEvaluationError(tx, alert.id, null))) {
        await insertSpendAlertEvent(tx, { alertId: alert.id, kind: 'evaluation_recovered', spendNanos: spend, actor: engineActor(), at });
        await recordAudit(tx, {
          action: 'spend_alert.evaluation_recovered',
          actor: engineActor(),
          entityType: 'spend_alert',
          entityId: alert.id,
          customerId,
          before: { evaluation_error: alert.evaluationError },
          after: { evaluation_error: null, spend_nanos: spend.toString() },
        });
      }
    });
  }
  const next = await nextPeriodStart(db, customerId, at);
  return { enabledAlerts: alerts.length, nextPeriodStart: next?.toISOString() ?? null, awaitingRoll };
}

/**
 * The customer's evaluation failed in a way no retry fixes: every enabled alert shows it as
 * `evaluation_error` (a history entry when it had none, an audit entry whenever it changes) and a
 * log line is written. The alerts keep their state; the next successful evaluation clears it.
 */
export async function recordSpendEvaluationError(deps: { db: Db; logger: Logger }, customerId: string, error: BillingErrorState): Promise<number> {
  const view = toBillingErrorView(error);
  const marked = await deps.db.$transaction(async (tx) => {
    let count = 0;
    for (const alert of await enabledSpendAlerts(tx, customerId)) {
      if (!(await setEvaluationError(tx, alert.id, view))) continue;
      count += 1;
      const at = new Date(error.failedAt);
      if (alert.evaluationError === null) {
        await insertSpendAlertEvent(tx, { alertId: alert.id, kind: 'evaluation_failed', reason: `${view.type}: ${view.message}`.slice(0, 2000), actor: engineActor(), at });
      }
      await recordAudit(tx, {
        action: 'spend_alert.evaluation_failed',
        actor: engineActor(),
        entityType: 'spend_alert',
        entityId: alert.id,
        customerId,
        before: { evaluation_error: alert.evaluationError },
        after: { evaluation_error: view },
      });
    }
    return count;
  });
  deps.logger.error({ customerId, evaluationError: view, alerts: marked }, 'spend alert evaluation failed; shown on the alerts until an evaluation succeeds');
  return marked;
}

/**
 * A billing period started at `periodStart`: alerts triggered in an earlier period are Armed again
 * and every alert's spend baseline starts afresh, so the new period's spend can cross again.
 */
export async function resetSpendAlertsForPeriod(db: Db, customerId: string, periodStart: Date): Promise<number> {
  return db.$transaction(async (tx) => {
    const triggered = await triggeredBefore(tx, customerId, periodStart);
    let rearmed = 0;
    for (const alert of triggered) {
      if (!(await rearm(tx, alert.id))) continue;
      rearmed += 1;
      await insertSpendAlertEvent(tx, { alertId: alert.id, kind: 'reset', reason: 'period_start', periodStart, actor: engineActor(), at: periodStart });
      await recordAudit(tx, {
        action: 'spend_alert.reset',
        actor: engineActor(),
        entityType: 'spend_alert',
        entityId: alert.id,
        customerId,
        before: { status: 'Triggered' },
        after: { status: 'Armed', reason: 'period_start', period_start: periodStart.toISOString() },
      });
    }
    await clearSpendBaselines(tx, customerId, periodStart);
    return rearmed;
  });
}

// ── Signalling the evaluator ──

/** Starts the customer's evaluator if it is not running and tells it to evaluate. */
export async function requestSpendEvaluation(deps: ServiceDeps, customerId: string): Promise<void> {
  const customer = await findCustomer(deps.db, customerId);
  if (!customer) return;
  const now = await customerNow(deps.db, customerId, deps.clock());
  const input: SpendAlertWorkflowInput = {
    customerId,
    testClock: customer.test_clock_id === null ? null : { id: customer.test_clock_id, now: now.toISOString() },
    pending: false,
  };
  await signalSpendChanged(deps.temporal, input, customer.test_clock_id);
}

/** How long ingestion gathers customers before it signals their evaluators (per process). */
export const SPEND_SIGNAL_COALESCE_MS = 250;

const spendSignals = new Coalescer<ServiceDeps>(SPEND_SIGNAL_COALESCE_MS, (deps, customers) => void signalEvaluators(deps, customers));

/**
 * Notes that usage of these customers was recorded. Never per event: the customers of every
 * request within SPEND_SIGNAL_COALESCE_MS are gathered, those with enabled alerts looked up in one
 * query, and each evaluator gets one signal. Failures are logged, never the ingestion's problem:
 * the next usage, alert change or period start evaluates again.
 */
export function noteUsageRecorded(deps: ServiceDeps, customerIds: Iterable<string>): void {
  spendSignals.note(deps.db, deps, customerIds);
}

async function signalEvaluators(deps: ServiceDeps, customerIds: string[]): Promise<void> {
  try {
    const watched = await customersWithEnabledAlerts(deps.db, customerIds);
    await Promise.all(watched.map((customerId) => requestSpendEvaluation(deps, customerId)));
  } catch (err) {
    deps.logger.warn({ err, customers: customerIds.length }, 'could not signal spend alert evaluators');
  }
}
