/**
 * Held workflows: every resource whose workflow holds a step for an operator (its billing_error,
 * docs/failures.md), and the operator's retry of one, through the same service each resource's
 * `POST /admin/v1/…/retry` route calls (the billing_error cleared with its `<entity>.billing_retried`
 * audit entry naming the operator, the step run again by the workflow).
 */
import { customerNames, findTopUpOwner, listHeldRows, type HeldRow } from '../../db/held.js';
import { notFound } from '../../errors.js';
import type { BillingErrorView } from '../../schemas/common.js';
import type { SubscriptionCommand } from '../../temporal/messages.js';
import { retryContract } from '../contracts/contracts.js';
import type { ServiceDeps } from '../deps.js';
import { billingErrorView, type BillingErrorEntity } from '../failures/billing-errors.js';
import { retryInvoiceBilling } from '../invoicing/invoice-lifecycle.js';
import { retryDunning } from '../payments/dunning.js';
import { retryProcessorEvent } from '../payments/processor-events.js';
import { retrySubscriptionBilling } from '../subscriptions/subscriptions.js';
import { retryTopUp } from '../wallets/wallets.js';

/** Held resources of each kind the overview lists at most. */
export const HELD_LIMIT_PER_KIND = 100;

export const HELD_ENTITIES: readonly BillingErrorEntity[] = ['subscription', 'invoice', 'dunning_schedule', 'contract', 'processor_event', 'wallet_top_up'];

export interface HeldWorkflow {
  entity: BillingErrorEntity;
  id: string;
  customerId: string | null;
  customerName: string | null;
  billingError: NonNullable<BillingErrorView>;
}

export async function listHeldWorkflows(deps: Pick<ServiceDeps, 'db'>): Promise<HeldWorkflow[]> {
  const rows = await listHeldRows(deps.db, HELD_LIMIT_PER_KIND);
  const names = await customerNames(deps.db, rows.flatMap((r) => (r.customerId === null ? [] : [r.customerId])));
  return rows.flatMap((row: HeldRow) => {
    const billingError = billingErrorView(row.billingError);
    if (billingError === null) return [];
    return [{ entity: row.entity, id: row.id, customerId: row.customerId, customerName: row.customerId === null ? null : (names.get(row.customerId) ?? null), billingError }];
  });
}

/**
 * Retries the held step of one resource as its API route does; answers the resource's billing_error
 * after the step ran again (null when it went through). 409 no_billing_error when it holds none.
 */
export async function retryHeldWorkflow(deps: ServiceDeps, entity: BillingErrorEntity, id: string, command: SubscriptionCommand): Promise<BillingErrorView> {
  switch (entity) {
    case 'subscription':
      return (await retrySubscriptionBilling(deps, id, command)).billing_error;
    case 'invoice':
      return (await retryInvoiceBilling(deps, id, command)).billing_error;
    case 'dunning_schedule':
      return (await retryDunning(deps, id, command)).billing_error;
    case 'contract':
      return (await retryContract(deps, id, command)).billing_error;
    case 'processor_event':
      return (await retryProcessorEvent(deps, id, command)).billing_error;
    case 'wallet_top_up': {
      const owner = await findTopUpOwner(deps.db, id);
      if (!owner) throw notFound('wallet_top_up', id);
      return (await retryTopUp(deps, owner.customerId, owner.currency, id, command)).billing_error;
    }
  }
}
