/**
 * Shadow billing (docs/shadow-billing.md): a candidate plan version attached to live subscriptions
 * as a shadow. Each period close of a covered subscription is followed by a shadow rating: the
 * closed period rated with the candidate by the close's own rating (billing's
 * rateClosedPeriodLinesWith, the one a price simulation uses), compared with what the close billed
 * for it, and stored per (attachment, subscription, period) beside the period's invoice.
 *
 * - It runs as its own activity after the close (never in the close's transaction): a shadow that
 *   fails is recorded as a failed row and logged, and billing goes on.
 * - Nothing of it reaches customers: its tables are read by the admin routes only, never by
 *   invoices, documents or hosted pages.
 */
import { findPlan, getPlanPricing, planVersionExists } from '../../db/catalog.js';
import type { DbClient } from '../../db/client.js';
import { contractOfRow } from '../../db/contracts.js';
import { findPeriodClose } from '../../db/period-closes.js';
import {
  findShadowAttachment,
  insertShadowAttachment,
  listShadowAttachmentRows,
  liveAttachmentsOf,
  markDetached,
  subscriptionCurrencies,
  upsertShadowResult,
  varianceByCustomer,
  type ShadowAttachmentRow,
  type ShadowScope,
} from '../../db/shadow-billing.js';
import { billedPerPeriod } from '../../db/simulations.js';
import { findSubscription } from '../../db/subscriptions.js';
import { DomainError, notFound, validation } from '../../errors.js';
import { newId } from '../../ids.js';
import type { ShadowAttachmentView, ShadowCandidateInput, ShadowScopeInput, ShadowVarianceView } from '../../schemas/shadow-billing.js';
import { recordAudit, type Actor } from '../audit.js';
import { rateClosedPeriodLinesWith } from '../billing/billing.js';
import type { ServiceDeps } from '../deps.js';
import { describeFailure, classifyFailure } from '../failures/taxonomy.js';
import { toPage, type Page } from '../pagination.js';
import type { CsvTable } from '../reports/reports.js';
import type { PageQuery } from '../../db/pages.js';

export interface ShadowAttachRequest {
  candidate: ShadowCandidateInput;
  scope: ShadowScopeInput;
}

const viewOf = (row: ShadowAttachmentRow): ShadowAttachmentView => ({
  id: row.id,
  candidate: { plan_id: row.planId, version: row.planVersion },
  currency: row.currency,
  scope: row.scope as ShadowScope,
  status: row.detachedAt === null ? 'attached' : 'detached',
  created_at: row.createdAt.toISOString(),
  detached_at: row.detachedAt?.toISOString() ?? null,
});

/** The candidate's currency, after checking that its plan version exists and has SKUs. */
async function candidateCurrency(db: DbClient, candidate: ShadowCandidateInput): Promise<string> {
  if ((await findPlan(db, candidate.plan_id)) === null) {
    throw new DomainError('not_found', 'plan_not_found', `candidate.plan_id: plan ${candidate.plan_id} does not exist`, { field: 'candidate.plan_id', id: candidate.plan_id });
  }
  if (!(await planVersionExists(db, candidate.plan_id, candidate.version))) {
    throw new DomainError('not_found', 'plan_version_not_found', `candidate.version: plan ${candidate.plan_id} has no version ${candidate.version}`, { field: 'candidate.version' });
  }
  const { prices } = await getPlanPricing(db, candidate.plan_id, candidate.version);
  if (prices.length === 0) throw new DomainError('unprocessable', 'plan_has_no_skus', `candidate.plan_id: plan ${candidate.plan_id} has no SKUs to rate`, { field: 'candidate.plan_id' });
  return prices[0]!.currency;
}

/** Checks that the scope names what exists, in the candidate's currency. */
async function checkScope(db: DbClient, scope: ShadowScopeInput, currency: string): Promise<void> {
  if (scope.kind === 'plan') {
    if ((await findPlan(db, scope.plan_id)) === null) {
      throw new DomainError('not_found', 'plan_not_found', `scope.plan_id: plan ${scope.plan_id} does not exist`, { field: 'scope.plan_id', id: scope.plan_id });
    }
    return;
  }
  const byId = await subscriptionCurrencies(db, scope.subscription_ids);
  const missing = scope.subscription_ids.find((id) => !byId.has(id));
  if (missing !== undefined) throw new DomainError('not_found', 'subscription_not_found', `scope.subscription_ids: subscription ${missing} does not exist`, { id: missing });
  const other = scope.subscription_ids.find((id) => byId.get(id) !== currency);
  if (other !== undefined) {
    throw new DomainError('unprocessable', 'currency_mismatch', `scope.subscription_ids: subscription ${other} bills in ${byId.get(other)}, the candidate in ${currency}`, { field: 'scope.subscription_ids', id: other });
  }
}

/** Attaches a candidate plan version as a shadow (audited as shadow_billing.attached): the next period closes of its scope are also rated with it. */
export async function attachShadow(deps: Pick<ServiceDeps, 'db'>, request: ShadowAttachRequest, actor: Actor, requestId: string): Promise<ShadowAttachmentView> {
  const currency = await candidateCurrency(deps.db, request.candidate);
  await checkScope(deps.db, request.scope, currency);
  const row = await deps.db.$transaction(async (tx) => {
    const created = await insertShadowAttachment(tx, {
      id: newId(),
      planId: request.candidate.plan_id,
      planVersion: request.candidate.version,
      currency,
      scope: request.scope,
      attachedBy: `${actor.type}:${actor.id}`,
    });
    await recordAudit(tx, { action: 'shadow_billing.attached', actor, entityType: 'shadow_billing_attachment', entityId: created.id, before: null, after: viewOf(created), requestId });
    return created;
  });
  return viewOf(row);
}

async function existing(db: DbClient, id: string): Promise<ShadowAttachmentRow> {
  const row = await findShadowAttachment(db, id);
  if (!row) throw notFound('shadow_attachment', id);
  return row;
}

/** Detaches it (audited as shadow_billing.detached): no period close is rated with it any more; its results stay. Detaching a detached one changes nothing. */
export async function detachShadow(deps: Pick<ServiceDeps, 'db' | 'clock'>, id: string, actor: Actor, requestId: string): Promise<ShadowAttachmentView> {
  const row = await deps.db.$transaction(async (tx) => {
    const before = await existing(tx, id);
    if (!(await markDetached(tx, id, deps.clock()))) return before;
    const after = await existing(tx, id);
    await recordAudit(tx, { action: 'shadow_billing.detached', actor, entityType: 'shadow_billing_attachment', entityId: id, before: viewOf(before), after: viewOf(after), requestId });
    return after;
  });
  return viewOf(row);
}

export async function getShadowAttachment(deps: Pick<ServiceDeps, 'db'>, id: string): Promise<ShadowAttachmentView> {
  return viewOf(await existing(deps.db, id));
}

export async function listShadowAttachments(deps: Pick<ServiceDeps, 'db'>, query: PageQuery & { status?: 'attached' | 'detached' | undefined }): Promise<Page<ShadowAttachmentView>> {
  const rows = await listShadowAttachmentRows(deps.db, { ...query, live: query.status === undefined ? undefined : query.status === 'attached' });
  return toPage(rows, query.limit, viewOf);
}

/** Whether a live attachment shadows the subscription (its period close is then followed by a shadow rating). */
export async function isShadowed(db: DbClient, subscription: { id: string; planId: string }): Promise<boolean> {
  return (await liveAttachmentsOf(db, subscription)).length > 0;
}

export interface ShadowRatingSummary {
  rated: number;
  failed: number;
}

/**
 * After a period close: the closed period rated with the candidate of every live attachment that
 * shadows the subscription, each stored with what the close billed for the period. One that fails
 * for good (the candidate cannot rate the period) is stored as failed and logged; a transient
 * failure fails the activity (retried; the workflow logs it if it lasts). A retry writes the same rows.
 */
export async function rateShadowForClose(deps: Pick<ServiceDeps, 'db' | 'clock' | 'logger'>, input: { subscriptionId: string; period: { start: Date; end: Date } }): Promise<ShadowRatingSummary> {
  const { db } = deps;
  const subscription = await findSubscription(db, input.subscriptionId);
  if (!subscription) return { rated: 0, failed: 0 };
  const attachments = await liveAttachmentsOf(db, subscription);
  if (attachments.length === 0) return { rated: 0, failed: 0 };
  const [close, billed, contract] = await Promise.all([
    findPeriodClose(db, subscription.id, input.period.start),
    billedPerPeriod(db, [subscription.id]),
    contractOfRow(db, subscription),
  ]);
  const actualNanos = billed.of(subscription.id, input.period.start);
  const summary: ShadowRatingSummary = { rated: 0, failed: 0 };
  for (const attachment of attachments) {
    const record = {
      attachmentId: attachment.id,
      subscriptionId: subscription.id,
      periodStart: input.period.start,
      periodEnd: input.period.end,
      invoiceId: close?.invoiceId ?? null,
      customerId: subscription.customerId,
      currency: subscription.currency,
    };
    try {
      if (attachment.currency !== subscription.currency) {
        throw new DomainError('unprocessable', 'currency_mismatch', `the candidate prices in ${attachment.currency}, the subscription bills in ${subscription.currency}`);
      }
      const candidate = getPlanPricing(db, attachment.planId, attachment.planVersion);
      const lines = await rateClosedPeriodLinesWith(db, subscription, input.period, contract, { pricingOf: () => candidate });
      const shadowNanos = lines.reduce((sum, line) => sum + line.amount_nanos, 0n);
      const stored = lines.map((line) => ({ ...line, amount_nanos: line.amount_nanos.toString() }));
      await upsertShadowResult(db, { ...record, outcome: { status: 'rated', actualNanos, shadowNanos, lines: stored } }, deps.clock());
      summary.rated += 1;
    } catch (err) {
      if (classifyFailure(err) === 'transient') throw err;
      const failure = describeFailure(err);
      await upsertShadowResult(db, { ...record, outcome: { status: 'failed', error: { type: failure.code ?? failure.name, message: failure.message } } }, deps.clock());
      deps.logger.error({ attachmentId: attachment.id, subscriptionId: subscription.id, periodStart: input.period.start.toISOString(), failure }, 'shadow rating failed; billing is unaffected');
      summary.failed += 1;
    }
  }
  deps.logger.info({ subscriptionId: subscription.id, periodStart: input.period.start.toISOString(), ...summary }, 'shadow billing rated the closed period');
  return summary;
}

/** The variance over periods starting in [from, to): per customer and currency, and per currency in total. */
export async function shadowVariance(
  deps: Pick<ServiceDeps, 'db'>,
  query: { from: Date; to: Date; attachment_id?: string | undefined; customer_id?: string | undefined },
): Promise<ShadowVarianceView> {
  if (query.to.getTime() <= query.from.getTime()) throw validation('to', 'must be after from');
  if (query.attachment_id !== undefined) await existing(deps.db, query.attachment_id);
  const rows = await varianceByCustomer(deps.db, { from: query.from, to: query.to, attachmentId: query.attachment_id, customerId: query.customer_id });
  const totals = new Map<string, { customers: number; periods: number; failed: number; actual: bigint; shadow: bigint; delta: bigint }>();
  for (const row of rows) {
    const t = totals.get(row.currency) ?? { customers: 0, periods: 0, failed: 0, actual: 0n, shadow: 0n, delta: 0n };
    totals.set(row.currency, {
      customers: t.customers + 1,
      periods: t.periods + row.periods,
      failed: t.failed + row.failed,
      actual: t.actual + row.actualNanos,
      shadow: t.shadow + row.shadowNanos,
      delta: t.delta + row.deltaNanos,
    });
  }
  return {
    from: query.from.toISOString(),
    to: query.to.toISOString(),
    customers: rows.map((r) => ({
      customer_id: r.customerId,
      currency: r.currency,
      periods: r.periods,
      failed_periods: r.failed,
      actual_nanos: r.actualNanos.toString(),
      shadow_nanos: r.shadowNanos.toString(),
      delta_nanos: r.deltaNanos.toString(),
    })),
    totals: [...totals.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([currency, t]) => ({
        currency,
        customers: t.customers,
        periods: t.periods,
        failed_periods: t.failed,
        actual_nanos: t.actual.toString(),
        shadow_nanos: t.shadow.toString(),
        delta_nanos: t.delta.toString(),
      })),
  };
}

/** The variance as CSV: one row per customer and currency, then one `total` row per currency. */
export const shadowVarianceCsv = (view: ShadowVarianceView): CsvTable => ({
  header: ['customer_id', 'currency', 'periods', 'failed_periods', 'actual_nanos', 'shadow_nanos', 'delta_nanos'],
  rows: [
    ...view.customers.map((r) => [r.customer_id, r.currency, r.periods, r.failed_periods, r.actual_nanos, r.shadow_nanos, r.delta_nanos]),
    ...view.totals.map((t) => ['total', t.currency, t.periods, t.failed_periods, t.actual_nanos, t.shadow_nanos, t.delta_nanos]),
  ],
});
