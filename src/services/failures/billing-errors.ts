/**
 * billing_error: a step of a subscription's, an invoice's, a dunning schedule's, a contract's, a processor notification's or a wallet auto-recharge's workflow that failed deterministically
 * (or outlasted its retry schedule) is recorded on the resource, with an audit entry and a log line,
 * and stays there until an operator retries it (docs/failures.md). The workflow itself holds the
 * failed step and runs it again on the retry; these functions persist what it decided.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import type { Db, DbClient } from '../../db/client.js';
import { setContractBillingError } from '../../db/contracts.js';
import { setInvoiceBillingError } from '../../db/invoices.js';
import { setDunningBillingError, setProcessorEventBillingError } from '../../db/payments.js';
import { setSubscriptionBillingError } from '../../db/subscriptions.js';
import { setTopUpBillingError } from '../../db/wallets.js';
import { conflict, notFound } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { BillingErrorView } from '../../schemas/common.js';
import type { BillingErrorState } from '../../temporal/messages.js';
import { recordAudit, type Actor } from '../audit.js';

/**
 * The resources that hold a billing_error; a dunning schedule is named by its invoice's id (its
 * workflow's key), a processor notification by the processor's event id.
 */
export type BillingErrorEntity = 'subscription' | 'invoice' | 'dunning_schedule' | 'contract' | 'processor_event' | 'wallet_top_up';

/**
 * The row before the change (null when there is none): the audited entity's id, its customer (none
 * for a processor notification, which the processor addresses to no customer) and its billing_error.
 */
type BillingErrorSetter = (tx: DbClient, id: string, error: Prisma.InputJsonValue | null) => Promise<{ id: string; customerId?: string | null; billingError: Prisma.JsonValue } | null>;

const SETTERS: Record<BillingErrorEntity, BillingErrorSetter> = {
  subscription: setSubscriptionBillingError,
  invoice: setInvoiceBillingError,
  dunning_schedule: setDunningBillingError,
  contract: setContractBillingError,
  processor_event: setProcessorEventBillingError,
  wallet_top_up: setTopUpBillingError,
};

/** Log fields naming the resource: `subscriptionId`, `invoiceId`, `contractId`, `eventId`, `topUpId`, or the schedule's and its invoice's ids. */
function logIds(entity: BillingErrorEntity, id: string, entityId: string): Record<string, string> {
  if (entity === 'dunning_schedule') return { dunningScheduleId: entityId, invoiceId: id };
  if (entity === 'processor_event') return { eventId: id };
  if (entity === 'wallet_top_up') return { topUpId: id };
  return { [`${entity}Id`]: id };
}

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

/** Sets or clears the billing_error with its audit entry, in one transaction; answers the audited entity's id. */
async function setError(db: Db, entity: BillingErrorEntity, id: string, error: Prisma.InputJsonValue | null, audit: { action: string; actor: Actor; requestId?: string | undefined }) {
  return db.$transaction(async (tx) => {
    const before = await SETTERS[entity](tx, id, error);
    if (!before) throw notFound(entity, id);
    await recordAudit(tx, {
      action: audit.action,
      actor: audit.actor,
      entityType: entity,
      entityId: before.id,
      customerId: before.customerId ?? null,
      before: { billing_error: before.billingError },
      after: { billing_error: error },
      ...(audit.requestId ? { requestId: audit.requestId } : {}),
    });
    return before.id;
  });
}

/** Shows the failure on the resource (`<entity>.billing_error` audit entry) and logs it. */
export async function recordBillingError(deps: { db: Db; logger: Logger }, entity: BillingErrorEntity, id: string, error: BillingErrorState, actor: Actor): Promise<void> {
  const view = toBillingErrorView(error);
  const entityId = await setError(deps.db, entity, id, view, { action: `${entity}.billing_error`, actor });
  deps.logger.error({ ...logIds(entity, id, entityId), billingError: view }, `${entity} billing failed; waiting for an operator retry`);
}

/** Clears the failure for an operator's retry (`<entity>.billing_retried` audit entry) and logs it. */
export async function clearBillingError(
  deps: { db: Db; logger: Logger },
  entity: BillingErrorEntity,
  id: string,
  actor: Actor,
  requestId?: string,
): Promise<void> {
  const entityId = await setError(deps.db, entity, id, null, { action: `${entity}.billing_retried`, actor, requestId });
  deps.logger.info({ ...logIds(entity, id, entityId), actor }, `${entity} billing retried by an operator`);
}

/**
 * An operator's retry of the step a workflow holds on a billing_error: 409 no_billing_error when the
 * resource (`what`, e.g. "contract <id>") holds none; else `retry`, the workflow's retry update
 * through the gateway (src/temporal/workflows/), answered once the step ran again.
 */
export async function retryHeldStep(held: { entity: BillingErrorEntity; what: string; billingError: unknown }, retry: () => Promise<unknown>): Promise<void> {
  if (held.billingError === null) throw conflict('no_billing_error', `${held.what} has no billing error to retry`, { entity: held.entity });
  await retry();
}
