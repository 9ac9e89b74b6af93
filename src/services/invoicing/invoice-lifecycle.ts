/**
 * API-side lifecycle operations: each goes through a workflow (the subscription's for billing and
 * plan changes, the invoice's for finalize/pay/void) and answers with the resulting invoice.
 */
import type { ServiceDeps } from '../deps.js';
import { invoiceTaskQueue } from '../../temporal/task-queues.js';
import { runUpdate } from '../../temporal/updates.js';
import {
  billSubscriptionUpdate,
  changePlanUpdate,
  subscriptionWorkflowId,
  type FinalizedInvoice,
  type FinalizeInvoiceCommand,
  type PayInvoiceCommand,
  type SubscriptionCommand,
} from '../../../workflows/messages.js';
import { DomainError } from '../../errors.js';
import { moveInvoice, retryInvoiceMove, type InvoiceMove } from './invoice-workflows.js';
import { loadInvoiceView } from './invoices.js';
import { getSubscription } from '../subscriptions/subscriptions.js';
import { atClockTime } from '../subscriptions/test-clocks.js';
import type { InvoiceView } from '../../schemas/invoicing.js';
import type { PlanChangeView } from '../../schemas/subscriptions.js';

const workflowDeps = (deps: ServiceDeps) => ({ db: deps.db, client: deps.temporal.client, taskQueue: invoiceTaskQueue(deps.settings.temporalTaskQueue) });

/** Bills the subscription's current period to now into its Draft (created or refreshed). */
export async function billNow(deps: ServiceDeps, subscriptionId: string, command: SubscriptionCommand): Promise<{ invoice: InvoiceView; created: boolean }> {
  await getSubscription(deps, subscriptionId);
  const handle = deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId));
  const timed = await atClockTime(deps.db, subscriptionId, command);
  const { invoiceId, created } = await runUpdate('subscription', () => handle.executeUpdate(billSubscriptionUpdate, { args: [timed] }));
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
  const handle = deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId));
  const change = await atClockTime(deps.db, subscriptionId, { ...command, planId, ...(planVersion === undefined ? {} : { planVersion }) });
  const { invoiceId } = await runUpdate('subscription', () => handle.executeUpdate(changePlanUpdate, { args: [change] }));
  return {
    subscription: await getSubscription(deps, subscriptionId),
    invoice: invoiceId ? await loadInvoiceView(deps.db, invoiceId) : null,
  };
}

export async function moveInvoiceNow(
  deps: ServiceDeps,
  invoiceId: string,
  move: InvoiceMove,
  command: SubscriptionCommand | PayInvoiceCommand,
): Promise<InvoiceView> {
  await moveInvoice(workflowDeps(deps), invoiceId, move, command);
  return loadInvoiceView(deps.db, invoiceId);
}

/**
 * Finalizes through the invoice's workflow (SPEC §4: answers id, status Open, invoice_number): the
 * answer is the invoice as it stood finalized; its auto-charge runs after the answer, and its outcome
 * shows on GET and in events (payment.succeeded/invoice.paid, payment.failed).
 */
export async function finalizeInvoiceNow(deps: ServiceDeps, invoiceId: string, command: SubscriptionCommand): Promise<InvoiceView> {
  const finalize: FinalizeInvoiceCommand = { ...command, chargeAfterAnswer: true };
  const finalized: FinalizedInvoice = await moveInvoice(workflowDeps(deps), invoiceId, 'finalize', finalize);
  return finalized.view === undefined ? loadInvoiceView(deps.db, invoiceId) : (finalized.view as unknown as InvoiceView);
}

/** Retries the move that left the invoice in billing_error (after an operator fixed the data). */
export async function retryInvoiceBilling(deps: ServiceDeps, invoiceId: string, command: SubscriptionCommand): Promise<InvoiceView> {
  const invoice = await loadInvoiceView(deps.db, invoiceId);
  if (invoice.billing_error === null) throw new DomainError('conflict', 'no_billing_error', `invoice ${invoiceId} has no billing error to retry`, { entity: 'invoice' });
  await retryInvoiceMove(workflowDeps(deps), invoiceId, command);
  return loadInvoiceView(deps.db, invoiceId);
}
