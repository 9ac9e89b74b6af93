/**
 * billing_error: a step of a subscription's or an invoice's workflow that failed deterministically
 * (or outlasted its retry schedule) is recorded on the resource, with an audit entry and a log line,
 * and stays there until an operator retries it (README, "Failures"). The workflow itself holds the
 * failed step and runs it again on the retry; these functions persist what it decided.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../db/client.js';
import { setInvoiceBillingError } from '../../db/invoices.js';
import { setSubscriptionBillingError } from '../../db/subscriptions.js';
import { notFound } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { BillingErrorView } from '../../schemas/common.js';
import type { BillingErrorState } from '../../../workflows/messages.js';
import { recordAudit, type Actor } from '../audit.js';

export type BillingErrorEntity = 'subscription' | 'invoice';

export const toBillingErrorView = (error: BillingErrorState): NonNullable<BillingErrorView> => ({
  step: error.step,
  type: error.type,
  message: error.message,
  failed_at: error.failedAt,
});

/** The view of a stored billing_error column (null when none). */
export function billingErrorView(stored: Prisma.JsonValue | null): BillingErrorView {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return null;
  const { step, type, message, failed_at } = stored as Record<string, unknown>;
  return { step: String(step), type: String(type), message: String(message), failed_at: String(failed_at) };
}

async function setError(db: Db, entity: BillingErrorEntity, id: string, error: Prisma.InputJsonValue | null, audit: { action: string; actor: Actor; requestId?: string | undefined }) {
  await db.$transaction(async (tx) => {
    const before = entity === 'subscription' ? await setSubscriptionBillingError(tx, id, error) : await setInvoiceBillingError(tx, id, error);
    if (!before) throw notFound(entity, id);
    await recordAudit(tx, {
      action: audit.action,
      actor: audit.actor,
      entityType: entity,
      entityId: id,
      customerId: before.customerId,
      before: { billing_error: before.billingError },
      after: { billing_error: error },
      ...(audit.requestId ? { requestId: audit.requestId } : {}),
    });
  });
}

/** Shows the failure on the resource (`<entity>.billing_error` audit entry) and logs it. */
export async function recordBillingError(deps: { db: Db; logger: Logger }, entity: BillingErrorEntity, id: string, error: BillingErrorState, actor: Actor): Promise<void> {
  const view = toBillingErrorView(error);
  await setError(deps.db, entity, id, view, { action: `${entity}.billing_error`, actor });
  deps.logger.error({ [`${entity}Id`]: id, billingError: view }, `${entity} billing failed; waiting for an operator retry`);
}

/** Clears the failure for an operator's retry (`<entity>.billing_retried` audit entry) and logs it. */
export async function clearBillingError(
  deps: { db: Db; logger: Logger },
  entity: BillingErrorEntity,
  id: string,
  actor: Actor,
  requestId?: string,
): Promise<void> {
  await setError(deps.db, entity, id, null, { action: `${entity}.billing_retried`, actor, requestId });
  deps.logger.info({ [`${entity}Id`]: id, actor }, `${entity} billing retried by an operator`);
}
