/**
 * Shadow billing (services/simulations/shadow-billing.ts): the attachments of a candidate plan
 * version to live subscriptions, and the shadow rating of each period they closed. Billing's tables
 * are only read here; nothing of billing reads these.
 */
import { Prisma } from '../generated/prisma/client.js';
import type { ShadowBillingAttachment } from '../generated/prisma/client.js';
import type { DbClient } from './client.js';
import { fromDecimal, toDecimal } from './money.js';
import { NEWEST_FIRST, pageWhere, type PageQuery } from './pages.js';

export type ShadowAttachmentRow = ShadowBillingAttachment;

/** Which live subscriptions an attachment shadows (stored as given). */
export type ShadowScope = { kind: 'subscriptions'; subscription_ids: string[] } | { kind: 'plan'; plan_id: string };

export interface NewShadowAttachment {
  id: string;
  planId: string;
  planVersion: number;
  currency: string;
  scope: ShadowScope;
  attachedBy: string;
}

export function insertShadowAttachment(tx: DbClient, attachment: NewShadowAttachment): Promise<ShadowAttachmentRow> {
  return tx.shadowBillingAttachment.create({
    data: {
      id: attachment.id,
      planId: attachment.planId,
      planVersion: attachment.planVersion,
      currency: attachment.currency,
      scope: attachment.scope,
      scopePlanId: attachment.scope.kind === 'plan' ? attachment.scope.plan_id : null,
      scopeSubscriptionIds: attachment.scope.kind === 'subscriptions' ? attachment.scope.subscription_ids : [],
      attachedBy: attachment.attachedBy,
    },
  });
}

/** The currency of each of these subscriptions that exists. */
export async function subscriptionCurrencies(tx: DbClient, ids: string[]): Promise<Map<string, string>> {
  const rows = await tx.subscription.findMany({ where: { id: { in: ids } }, select: { id: true, currency: true } });
  return new Map(rows.map((s) => [s.id, s.currency]));
}

export function findShadowAttachment(tx: DbClient, id: string): Promise<ShadowAttachmentRow | null> {
  return tx.shadowBillingAttachment.findUnique({ where: { id } });
}

/** Detaches a live attachment at `at`; false when it was detached already. */
export async function markDetached(tx: DbClient, id: string, at: Date): Promise<boolean> {
  const { count } = await tx.shadowBillingAttachment.updateMany({ where: { id, detachedAt: null }, data: { detachedAt: at } });
  return count === 1;
}

export function listShadowAttachmentRows(tx: DbClient, page: PageQuery & { live?: boolean | undefined }): Promise<ShadowAttachmentRow[]> {
  const live = page.live === undefined ? {} : { detachedAt: page.live ? null : { not: null } };
  return tx.shadowBillingAttachment.findMany({ where: { ...pageWhere(page), ...live }, orderBy: NEWEST_FIRST, take: page.limit + 1 });
}

/** The live attachments that shadow the subscription: naming it, or on its plan. */
export function liveAttachmentsOf(tx: DbClient, subscription: { id: string; planId: string }): Promise<ShadowAttachmentRow[]> {
  return tx.shadowBillingAttachment.findMany({
    where: { detachedAt: null, OR: [{ scopePlanId: subscription.planId }, { scopeSubscriptionIds: { has: subscription.id } }] },
    orderBy: { id: 'asc' },
  });
}

export interface ShadowResultRecord {
  attachmentId: string;
  subscriptionId: string;
  periodStart: Date;
  periodEnd: Date;
  invoiceId: string | null;
  customerId: string;
  currency: string;
  outcome: { status: 'rated'; actualNanos: bigint; shadowNanos: bigint; lines: Prisma.InputJsonValue } | { status: 'failed'; error: { type: string; message: string } };
}

/** Writes the shadow rating of one period under one attachment; a retried rating replaces it. */
export async function upsertShadowResult(tx: DbClient, record: ShadowResultRecord, at: Date): Promise<void> {
  const { outcome } = record;
  const values =
    outcome.status === 'rated'
      ? {
          status: 'rated',
          actualNanos: toDecimal(outcome.actualNanos),
          shadowNanos: toDecimal(outcome.shadowNanos),
          deltaNanos: toDecimal(outcome.shadowNanos - outcome.actualNanos),
          lines: outcome.lines,
          error: Prisma.DbNull,
        }
      : { status: 'failed', actualNanos: null, shadowNanos: null, deltaNanos: null, lines: [], error: outcome.error };
  const key = { attachmentId: record.attachmentId, subscriptionId: record.subscriptionId, periodStart: record.periodStart };
  await tx.shadowBillingResult.upsert({
    where: { attachmentId_subscriptionId_periodStart: key },
    create: { ...key, periodEnd: record.periodEnd, invoiceId: record.invoiceId, customerId: record.customerId, currency: record.currency, ratedAt: at, ...values },
    update: { periodEnd: record.periodEnd, invoiceId: record.invoiceId, ratedAt: at, ...values },
  });
}

export interface VarianceFilter {
  /** Periods starting at or after `from` and before `to`. */
  from: Date;
  to: Date;
  attachmentId?: string | undefined;
  customerId?: string | undefined;
}

export interface CustomerVarianceRow {
  customerId: string;
  currency: string;
  periods: number;
  failed: number;
  actualNanos: bigint;
  shadowNanos: bigint;
  deltaNanos: bigint;
}

/** The shadow results in the range summed per customer and currency (failed ratings counted, not summed), by customer. */
export async function varianceByCustomer(tx: DbClient, filter: VarianceFilter): Promise<CustomerVarianceRow[]> {
  const attachment = filter.attachmentId === undefined ? Prisma.empty : Prisma.sql`AND r.attachment_id = ${filter.attachmentId}::uuid`;
  const customer = filter.customerId === undefined ? Prisma.empty : Prisma.sql`AND r.customer_id = ${filter.customerId}::uuid`;
  const rows = await tx.$queryRaw<{ customer_id: string; currency: string; periods: bigint; failed: bigint; actual: Prisma.Decimal | null; shadow: Prisma.Decimal | null; delta: Prisma.Decimal | null }[]>`
    SELECT r.customer_id::text AS customer_id, r.currency,
           count(*) FILTER (WHERE r.status = 'rated') AS periods, count(*) FILTER (WHERE r.status = 'failed') AS failed,
           sum(r.actual_nanos) AS actual, sum(r.shadow_nanos) AS shadow, sum(r.delta_nanos) AS delta
    FROM shadow_billing_results r
    WHERE r.period_start >= ${filter.from} AND r.period_start < ${filter.to} ${attachment} ${customer}
    GROUP BY r.customer_id, r.currency
    ORDER BY r.customer_id, r.currency`;
  const money = (value: Prisma.Decimal | null): bigint => (value === null ? 0n : fromDecimal(value));
  return rows.map((r) => ({
    customerId: r.customer_id,
    currency: r.currency,
    periods: Number(r.periods),
    failed: Number(r.failed),
    actualNanos: money(r.actual),
    shadowNanos: money(r.shadow),
    deltaNanos: money(r.delta),
  }));
}
