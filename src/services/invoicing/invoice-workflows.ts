/**
 * Drives invoice workflows from the API and from activities, through the gateway
 * (src/temporal/workflows/invoice.ts): every finalize, pay and void is an update with start. Paid
 * and Void invoices have finished workflows: moves on them are refused from the database state.
 */
import type { Db } from '../../db/client.js';
import { findInvoiceWorkflowFacts } from '../../db/invoices.js';
import type { InvoiceOutcome, PayInvoiceCommand, SubscriptionCommand } from '../../temporal/messages.js';
import {
  invoiceWorkflowExists as workflowExists,
  moveInvoiceWorkflow,
  retryInvoiceStep,
  startInvoiceWorkflow,
  type InvoiceMove,
  type InvoiceWorkflowFacts,
} from '../../temporal/workflows/invoice.js';
import { invalidTransition, notFound } from '../../errors.js';
import type { ServiceDeps } from '../deps.js';

export type { InvoiceMove };
export type InvoiceWorkflowDeps = Pick<ServiceDeps, 'db' | 'temporal'>;

/** What the invoice's workflow starts with, from its row. */
export async function invoiceWorkflowFacts(db: Db, invoiceId: string): Promise<InvoiceWorkflowFacts> {
  const invoice = await findInvoiceWorkflowFacts(db, invoiceId);
  if (!invoice) throw notFound('invoice', invoiceId);
  return { invoiceId, ...invoice };
}

/**
 * Starts the invoice's workflow when it is not running yet; `lean` for an invoice the period close
 * finalized itself (see InvoiceWorkflowInput).
 */
export async function ensureInvoiceWorkflow(deps: InvoiceWorkflowDeps, invoiceId: string, options: { lean?: boolean } = {}): Promise<void> {
  const facts = await invoiceWorkflowFacts(deps.db, invoiceId);
  if (facts.status === 'Paid' || facts.status === 'Void') return;
  await startInvoiceWorkflow(deps.temporal, facts, options);
}

/** Whether the invoice has a workflow (running or ended); an invoice gets one at its first move through the API or a payment. */
export const invoiceWorkflowExists = (deps: InvoiceWorkflowDeps, invoiceId: string): Promise<boolean> => workflowExists(deps.temporal, invoiceId);

export async function moveInvoice(
  deps: InvoiceWorkflowDeps,
  invoiceId: string,
  move: InvoiceMove,
  command: SubscriptionCommand | PayInvoiceCommand,
): Promise<InvoiceOutcome> {
  const facts = await invoiceWorkflowFacts(deps.db, invoiceId);
  if (facts.status === 'Paid' || facts.status === 'Void') throw invalidTransition('invoice', facts.status, move);
  return moveInvoiceWorkflow(deps.temporal, facts, move, command);
}

/** An operator's retry of the move that left the invoice in billing_error: the move runs again. */
export const retryInvoiceMove = (deps: InvoiceWorkflowDeps, invoiceId: string, command: SubscriptionCommand): Promise<InvoiceOutcome> =>
  retryInvoiceStep(deps.temporal, invoiceId, command);
