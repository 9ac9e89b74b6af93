/**
 * Drives invoice workflows from the API and from activities. Every finalize, pay and void goes
 * through the invoice's workflow as an update (update-with-start, so an invoice whose workflow has
 * not started yet gets one). Paid and Void invoices have finished workflows: moves on them are
 * refused from the database state, and an update racing the workflow's completion is refused by
 * the reuse policy (a completed run is never followed by a new one) with 409.
 */
import { WithStartWorkflowOperation, WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import type { Db } from '../../db/client.js';
import { findInvoiceStatus } from '../../db/invoices.js';
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
import { runUpdate } from '../../temporal/updates.js';
import { invalidTransition, notFound } from '../../errors.js';

export interface InvoiceWorkflowDeps {
  db: Db;
  client: Client;
  taskQueue: string;
}

const MOVES = { finalize: finalizeInvoiceUpdate, pay: payInvoiceUpdate, void: voidInvoiceUpdate } as const;
export type InvoiceMove = keyof typeof MOVES;

async function workflowInput(db: Db, invoiceId: string): Promise<InvoiceWorkflowInput> {
  const invoice = await findInvoiceStatus(db, invoiceId);
  if (!invoice) throw notFound('invoice', invoiceId);
  return { invoiceId, status: invoice.status };
}

function startOperation(deps: InvoiceWorkflowDeps, input: InvoiceWorkflowInput) {
  return new WithStartWorkflowOperation('invoiceWorkflow', {
    workflowId: invoiceWorkflowId(input.invoiceId),
    taskQueue: deps.taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    // A completed invoice workflow (Paid, Void) is never started again by an update: it is refused (409).
    workflowIdReusePolicy: INVOICE_WORKFLOW_REUSE_POLICY,
  });
}

/** Starts the invoice's workflow when it is not running yet. */
export async function ensureInvoiceWorkflow(deps: InvoiceWorkflowDeps, invoiceId: string): Promise<void> {
  const input = await workflowInput(deps.db, invoiceId);
  if (input.status === 'Paid' || input.status === 'Void') return;
  await deps.client.workflow.start('invoiceWorkflow', {
    workflowId: invoiceWorkflowId(invoiceId),
    taskQueue: deps.taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    // A completed invoice workflow (Paid, Void) is never started again by an update: it is refused (409).
    workflowIdReusePolicy: INVOICE_WORKFLOW_REUSE_POLICY,
  });
}

export async function moveInvoice(
  deps: InvoiceWorkflowDeps,
  invoiceId: string,
  move: InvoiceMove,
  command: SubscriptionCommand | PayInvoiceCommand,
): Promise<InvoiceOutcome> {
  const input = await workflowInput(deps.db, invoiceId);
  if (input.status === 'Paid' || input.status === 'Void') throw invalidTransition('invoice', input.status, move);
  const update = MOVES[move] as UpdateDefinition<InvoiceOutcome, [SubscriptionCommand]>;
  return runUpdate('invoice', () =>
    deps.client.workflow.executeUpdateWithStart(update, { args: [command], startWorkflowOperation: startOperation(deps, input) }),
  );
}

/** An operator's retry of the move that left the invoice in billing_error: the move runs again. */
export async function retryInvoiceMove(deps: InvoiceWorkflowDeps, invoiceId: string, command: SubscriptionCommand): Promise<InvoiceOutcome> {
  const handle = deps.client.workflow.getHandle(invoiceWorkflowId(invoiceId));
  return runUpdate('invoice', () => handle.executeUpdate(retryInvoiceBillingUpdate, { args: [command] }));
}
