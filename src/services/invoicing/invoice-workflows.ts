/**
 * Drives invoice workflows from the API and from activities. Every finalize, pay and void goes
 * through the invoice's workflow as an update (update-with-start, so an invoice whose workflow has
 * not started yet gets one). Paid and Void invoices have finished workflows: moves on them are
 * refused from the database state, and an update racing the workflow's completion is refused by
 * the reuse policy (a completed run is never followed by a new one) with 409.
 */
import { WithStartWorkflowOperation, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { SearchAttributePair, UpdateDefinition, Workflow } from '@temporalio/common';
import type { Db } from '../../db/client.js';
import { findInvoiceWorkflowFacts } from '../../db/invoices.js';
import {
  finalizeInvoiceUpdate,
  invoiceWorkflowId,
  payInvoiceUpdate,
  retryInvoiceBillingUpdate,
  voidInvoiceUpdate,
  type InvoiceOutcome,
  type InvoiceWorkflowInput,
  type PayInvoiceCommand,
  type SubscriptionCommand,
} from '../../../workflows/messages.js';
import { INVOICE_WORKFLOW_REUSE_POLICY } from '../../temporal/task-queues.js';
import { workflowSearchAttributes } from '../../temporal/search-attributes.js';
import { runUpdate } from '../../temporal/updates.js';
import { invalidTransition, notFound } from '../../errors.js';

export interface InvoiceWorkflowDeps {
  db: Db;
  client: Client;
  taskQueue: string;
}

const MOVES = { finalize: finalizeInvoiceUpdate, pay: payInvoiceUpdate, void: voidInvoiceUpdate } as const;
export type InvoiceMove = keyof typeof MOVES;

/** An invoice's workflow input with what its start carries besides (search attributes, memo). */
interface InvoiceWorkflowStart {
  input: InvoiceWorkflowInput;
  typedSearchAttributes: SearchAttributePair[];
  memo: Record<string, string | null>;
}

async function workflowStart(db: Db, invoiceId: string): Promise<InvoiceWorkflowStart> {
  const invoice = await findInvoiceWorkflowFacts(db, invoiceId);
  if (!invoice) throw notFound('invoice', invoiceId);
  return {
    input: { invoiceId, status: invoice.status },
    typedSearchAttributes: workflowSearchAttributes({
      customerId: invoice.customerId,
      subscriptionId: invoice.subscriptionId,
      invoiceNumber: invoice.invoiceNumber,
      status: invoice.status,
      testClockId: invoice.testClockId,
    }),
    memo: { customer_id: invoice.customerId, subscription_id: invoice.subscriptionId, currency: invoice.currency },
  };
}

/** The start of the invoice's workflow, for an update-with-start (payments use it too). */
export async function invoiceStartOperation(deps: InvoiceWorkflowDeps, invoiceId: string): Promise<{ input: InvoiceWorkflowInput; operation: WithStartWorkflowOperation<Workflow> }> {
  const start = await workflowStart(deps.db, invoiceId);
  const operation = new WithStartWorkflowOperation('invoiceWorkflow', {
    workflowId: invoiceWorkflowId(invoiceId),
    taskQueue: deps.taskQueue,
    args: [start.input],
    typedSearchAttributes: start.typedSearchAttributes,
    memo: start.memo,
    workflowIdConflictPolicy: 'USE_EXISTING',
    // A completed invoice workflow (Paid, Void) is never started again by an update: it is refused (409).
    workflowIdReusePolicy: INVOICE_WORKFLOW_REUSE_POLICY,
  });
  return { input: start.input, operation };
}

/**
 * Starts the invoice's workflow when it is not running yet; `lean` for an invoice the period close
 * finalized itself (see InvoiceWorkflowInput).
 */
export async function ensureInvoiceWorkflow(deps: InvoiceWorkflowDeps, invoiceId: string, options: { lean?: boolean } = {}): Promise<void> {
  const { input, typedSearchAttributes, memo } = await workflowStart(deps.db, invoiceId);
  if (input.status === 'Paid' || input.status === 'Void') return;
  await deps.client.workflow.start('invoiceWorkflow', {
    workflowId: invoiceWorkflowId(invoiceId),
    taskQueue: deps.taskQueue,
    args: [options.lean ? { ...input, lean: true } : input],
    typedSearchAttributes,
    memo,
    workflowIdConflictPolicy: 'USE_EXISTING',
    // A completed invoice workflow (Paid, Void) is never started again by an update: it is refused (409).
    workflowIdReusePolicy: INVOICE_WORKFLOW_REUSE_POLICY,
  });
}

/** Whether the invoice has a workflow (running or ended); an invoice gets one at its first move through the API or a payment. */
export async function invoiceWorkflowExists(deps: InvoiceWorkflowDeps, invoiceId: string): Promise<boolean> {
  try {
    await deps.client.workflow.getHandle(invoiceWorkflowId(invoiceId)).describe();
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

export async function moveInvoice(
  deps: InvoiceWorkflowDeps,
  invoiceId: string,
  move: InvoiceMove,
  command: SubscriptionCommand | PayInvoiceCommand,
): Promise<InvoiceOutcome> {
  const { input, operation } = await invoiceStartOperation(deps, invoiceId);
  if (input.status === 'Paid' || input.status === 'Void') throw invalidTransition('invoice', input.status, move);
  const update = MOVES[move] as UpdateDefinition<InvoiceOutcome, [SubscriptionCommand]>;
  return runUpdate('invoice', () => deps.client.workflow.executeUpdateWithStart(update, { args: [command], startWorkflowOperation: operation }));
}

/** An operator's retry of the move that left the invoice in billing_error: the move runs again. */
export async function retryInvoiceMove(deps: InvoiceWorkflowDeps, invoiceId: string, command: SubscriptionCommand): Promise<InvoiceOutcome> {
  const handle = deps.client.workflow.getHandle(invoiceWorkflowId(invoiceId));
  return runUpdate('invoice', () => handle.executeUpdate(retryInvoiceBillingUpdate, { args: [command] }));
}
