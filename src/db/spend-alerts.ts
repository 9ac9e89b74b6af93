/**
 * Spend alert repository: alerts, their append-only history, and the reads that evaluation and
 * the HardLimit cap need (the customer's subscriptions, the period's earlier invoices).
 * A crossing is decided by a conditional update (Armed → Triggered), so two evaluations that race
 * can never both record it.
 */
import { Prisma, type SpendAlert, type SpendAlertEvent, type SpendAlertStatus, type SpendAlertType } from '../generated/prisma/client.js';
import type { DbClient, SqlReader } from './client.js';
import { NEWEST_FIRST, pageWhere, type PageQuery } from './pages.js';
import { fromDecimal, toDecimal } from './money.js';
import { newId } from '../ids.js';

export type SpendAlertRow = SpendAlert;
export type SpendAlertEventRow = SpendAlertEvent;
export type { SpendAlertStatus, SpendAlertType };

export interface NewSpendAlert {
  id: string;
  customerId: string;
  alertType: SpendAlertType;
  thresholdNanos: bigint;
  currency: string;
  meterEventType: string | null;
  /** The customer's now (its test clock's time when on one). */
  createdAt: Date;
}

export function insertSpendAlert(tx: DbClient, alert: NewSpendAlert): Promise<SpendAlertRow> {
  return tx.spendAlert.create({ data: { ...alert, updatedAt: alert.createdAt, thresholdNanos: toDecimal(alert.thresholdNanos) } });
}

export function findSpendAlert(tx: DbClient, id: string): Promise<SpendAlertRow | null> {
  return tx.spendAlert.findUnique({ where: { id } });
}

/** Locks the alert row for the rest of the transaction; null when it does not exist. */
export async function lockSpendAlert(tx: DbClient, id: string): Promise<SpendAlertRow | null> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM spend_alerts WHERE id = ${id}::uuid FOR UPDATE`;
  return rows.length === 0 ? null : findSpendAlert(tx, id);
}

export function listSpendAlerts(
  tx: DbClient,
  customerId: string,
  filter: { status?: SpendAlertStatus | undefined },
  page: PageQuery,
): Promise<SpendAlertRow[]> {
  return tx.spendAlert.findMany({
    where: { customerId, ...(filter.status ? { status: filter.status } : {}), ...pageWhere(page) },
    orderBy: NEWEST_FIRST,
    take: page.limit + 1,
  });
}

/** The customer's alerts that are not Disabled, oldest first. */
export function enabledSpendAlerts(tx: DbClient, customerId: string): Promise<SpendAlertRow[]> {
  return tx.spendAlert.findMany({ where: { customerId, status: { not: 'Disabled' } }, orderBy: { id: 'asc' } });
}

/** Whether the customer exists, and whether a Triggered HardLimit alert of it blocks it: one statement for a request path. */
export async function customerStanding(read: SqlReader, customerId: string): Promise<{ exists: boolean; blocked: boolean }> {
  const [row] = await read<{ exists: boolean; blocked: boolean }>(Prisma.sql`
    SELECT EXISTS (SELECT 1 FROM customers WHERE id = ${customerId}::uuid) AS exists,
           EXISTS (SELECT 1 FROM spend_alerts WHERE customer_id = ${customerId}::uuid AND alert_type = 'HardLimit' AND status = 'Triggered') AS blocked`);
  return row!;
}

/** Armed → Triggered, only if it is still Armed; true when this call recorded the crossing. */
export async function markTriggered(tx: DbClient, id: string, crossing: { at: Date; spendNanos: bigint; periodStart: Date | null }): Promise<boolean> {
  const { count } = await tx.spendAlert.updateMany({
    where: { id, status: 'Armed' },
    data: { status: 'Triggered', triggeredAt: crossing.at, triggeredSpendNanos: toDecimal(crossing.spendNanos), triggeredPeriodStart: crossing.periodStart },
  });
  return count === 1;
}

/** Triggered → Armed; true when this call re-armed it. */
export async function rearm(tx: DbClient, id: string): Promise<boolean> {
  const { count } = await tx.spendAlert.updateMany({
    where: { id, status: 'Triggered' },
    data: { status: 'Armed', triggeredAt: null, triggeredSpendNanos: null, triggeredPeriodStart: null },
  });
  return count === 1;
}

/** Triggered alerts of the customer whose crossing was in a period that started before `periodStart`. */
export function triggeredBefore(tx: DbClient, customerId: string, periodStart: Date): Promise<SpendAlertRow[]> {
  return tx.spendAlert.findMany({
    where: { customerId, status: 'Triggered', OR: [{ triggeredPeriodStart: null }, { triggeredPeriodStart: { lt: periodStart } }] },
    orderBy: { id: 'asc' },
  });
}

export function disableSpendAlert(tx: DbClient, id: string, at: Date): Promise<SpendAlertRow> {
  return tx.spendAlert.update({ where: { id }, data: { status: 'Disabled', disabledAt: at } });
}

export async function recordEvaluation(tx: DbClient, id: string, at: Date, spendNanos: bigint): Promise<void> {
  await tx.spendAlert.updateMany({ where: { id, status: { not: 'Disabled' } }, data: { lastEvaluatedAt: at, lastSpendNanos: toDecimal(spendNanos) } });
}

/** Sets (or with null clears) the evaluation error of an alert that is not Disabled; false when it is. */
export async function setEvaluationError(tx: DbClient, id: string, error: Prisma.InputJsonValue | null): Promise<boolean> {
  const { count } = await tx.spendAlert.updateMany({ where: { id, status: { not: 'Disabled' } }, data: { evaluationError: error === null ? Prisma.DbNull : error } });
  return count > 0;
}

export interface NewSpendAlertEvent {
  alertId: string;
  kind: 'created' | 'triggered' | 'reset' | 'disabled' | 'evaluation_failed' | 'evaluation_recovered';
  reason?: string | null;
  spendNanos?: bigint | null;
  periodStart?: Date | null;
  actor: { type: string; id: string };
  at: Date;
}

export async function insertSpendAlertEvent(tx: DbClient, event: NewSpendAlertEvent): Promise<void> {
  await tx.spendAlertEvent.create({
    data: {
      id: newId(),
      alertId: event.alertId,
      kind: event.kind,
      reason: event.reason ?? null,
      spendNanos: event.spendNanos === undefined || event.spendNanos === null ? null : toDecimal(event.spendNanos),
      periodStart: event.periodStart ?? null,
      actorType: event.actor.type,
      actorId: event.actor.id,
      at: event.at,
      createdAt: event.at,
    },
  });
}

/** History of the alerts, oldest first, grouped by alert. */
export async function historyOf(tx: DbClient, alertIds: string[]): Promise<Map<string, SpendAlertEventRow[]>> {
  const rows = await tx.spendAlertEvent.findMany({ where: { alertId: { in: alertIds } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  const byAlert = new Map<string, SpendAlertEventRow[]>();
  for (const row of rows) byAlert.set(row.alertId, [...(byAlert.get(row.alertId) ?? []), row]);
  return byAlert;
}

/** Which of these customers have alerts that are not Disabled. */
export async function customersWithEnabledAlerts(tx: DbClient, customerIds: string[]): Promise<string[]> {
  if (customerIds.length === 0) return [];
  const rows = await tx.spendAlert.findMany({
    where: { customerId: { in: customerIds }, status: { not: 'Disabled' } },
    select: { customerId: true },
    distinct: ['customerId'],
  });
  return rows.map((row) => row.customerId);
}

/** Customers on a test clock with alerts that are not Disabled: their evaluators follow its time. */
export async function customersWithEnabledAlertsOnClock(tx: DbClient, testClockId: string): Promise<string[]> {
  const rows = await tx.$queryRaw<{ customer_id: string }[]>`
    SELECT DISTINCT a.customer_id::text AS customer_id FROM spend_alerts a JOIN customers c ON c.id = a.customer_id
    WHERE c.test_clock_id = ${testClockId}::uuid AND a.status <> 'Disabled' ORDER BY 1`;
  return rows.map((row) => row.customer_id);
}

/** The customer's subscriptions in the currency that may still have spend (not Expired), with the end of their stored period. */
export function subscriptionsForSpend(tx: DbClient, customerId: string, currency: string): Promise<{ id: string; periodEnd: Date }[]> {
  return tx.subscription.findMany({ where: { customerId, currency, status: { not: 'Expired' } }, select: { id: true, periodEnd: true }, orderBy: { id: 'asc' } });
}

/** The next period start (the end of a current period) among the customer's live subscriptions after `after`; null when none. */
export async function nextPeriodStart(tx: DbClient, customerId: string, after: Date): Promise<Date | null> {
  const row = await tx.subscription.findFirst({
    where: { customerId, status: { notIn: ['Expired', 'Cancelled'] }, periodEnd: { gt: after } },
    orderBy: { periodEnd: 'asc' },
    select: { periodEnd: true },
  });
  return row?.periodEnd ?? null;
}

/** The customers whose charges an invoice carries (a consolidated invoice carries several). */
export async function customersOnInvoice(tx: DbClient, invoiceId: string): Promise<string[]> {
  const rows = await tx.$queryRaw<{ customer_id: string }[]>`
    SELECT DISTINCT COALESCE(l.customer_id, i.customer_id)::text AS customer_id
    FROM invoice_line_items l JOIN invoices i ON i.id = l.invoice_id
    WHERE l.invoice_id = ${invoiceId}::uuid AND NOT l.is_tax AND l.kind NOT IN ('credit', 'spend_cap')
    ORDER BY 1`;
  return rows.map((row) => row.customer_id);
}

export interface CapFigures {
  /** In-scope charges of the customer on earlier finalized invoices of the period. */
  chargedBeforeNanos: bigint;
  /** What spend caps withheld from the customer's charges on those invoices. */
  withheldBeforeNanos: bigint;
  /** In-scope charges of the customer on this invoice. */
  currentNanos: bigint;
}

/**
 * The figures the HardLimit cap of one customer needs for an invoice being finalized: its charges
 * (neither tax nor credit nor cap lines; in the scope's SKUs when a meter event type is given) on
 * this invoice and on the earlier finalized (Open, Paid) invoices of the same period and currency.
 */
export async function capFigures(
  tx: DbClient,
  input: { invoiceId: string; customerId: string; currency: string; periodStart: Date; meterEventType: string | null },
): Promise<CapFigures> {
  const rows = await tx.$queryRaw<{ before: Prisma.Decimal | null; withheld: Prisma.Decimal | null; current: Prisma.Decimal | null }[]>`
    SELECT
      sum(l.amount_nanos) FILTER (WHERE i.id <> ${input.invoiceId}::uuid AND l.kind <> 'spend_cap' AND in_scope) AS before,
      -sum(l.amount_nanos) FILTER (WHERE i.id <> ${input.invoiceId}::uuid AND l.kind = 'spend_cap') AS withheld,
      sum(l.amount_nanos) FILTER (WHERE i.id = ${input.invoiceId}::uuid AND l.kind <> 'spend_cap' AND in_scope) AS current
    FROM invoice_line_items l
    JOIN invoices i ON i.id = l.invoice_id
    CROSS JOIN LATERAL (
      SELECT (${input.meterEventType}::text IS NULL
              OR l.sku_id IN (SELECT s.id FROM skus s WHERE s.meter_event_type = ${input.meterEventType}::text)) AS in_scope
    ) scope
    WHERE (i.id = ${input.invoiceId}::uuid OR i.status IN ('Open', 'Paid'))
      AND i.currency = ${input.currency} AND i.period_start = ${input.periodStart}
      AND COALESCE(l.customer_id, i.customer_id) = ${input.customerId}::uuid
      AND NOT l.is_tax AND l.kind <> 'credit'`;
  const row = rows[0];
  const raw = (value: Prisma.Decimal | null | undefined): bigint => (value === null || value === undefined ? 0n : fromDecimal(value));
  return { chargedBeforeNanos: raw(row?.before), withheldBeforeNanos: raw(row?.withheld), currentNanos: raw(row?.current) };
}

export async function setThreshold(tx: DbClient, id: string, thresholdNanos: bigint): Promise<void> {
  await tx.spendAlert.update({ where: { id }, data: { thresholdNanos: toDecimal(thresholdNanos) } });
}

/** Forgets the spend baseline of the customer's alerts last evaluated before `periodStart`: a new period's spend starts afresh. */
export async function clearSpendBaselines(tx: DbClient, customerId: string, periodStart: Date): Promise<void> {
  await tx.spendAlert.updateMany({
    where: { customerId, status: { not: 'Disabled' }, OR: [{ lastEvaluatedAt: null }, { lastEvaluatedAt: { lt: periodStart } }] },
    data: { lastSpendNanos: null },
  });
}
