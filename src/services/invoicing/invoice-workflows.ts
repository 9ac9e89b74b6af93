/**
 * Drives invoice workflows from the API and from activities, through the gateway
 * (src/temporal/workflows/invoice.ts): every finalize, pay and void is an update with start. Paid
 * and Void invoices have finished workflows: moves on them are refused from the database state.
 */
import type { Db } from '../../db/client.js';
import { findInvoiceWorkflowFacts } from '../../db/invoices.js';
import type { FinalizeInvoiceCommand, InvoiceOutcome, PayInvoiceCommand, SubscriptionCommand } from '../../temporal/messages.js';
import {
  invoiceWorkflowExists as workflowExists,
  moveInvoiceWorkflow,
  retryInvoiceStep,
  type InvoiceMove,
  type InvoiceWorkflowFacts,
} from '../../temporal/workflows/invoice.js';
import { invalidTransition, notFound } from '../../errors.js';
import type { ServiceDeps } from '../deps.js';
import { followUp } from '../follow-ups.js';

export type { InvoiceMove };
export type InvoiceWorkflowDeps = Pick<ServiceDeps, 'db' | 'temporal' | 'followUps'>;

/** What the invoice's workflow starts with, from its row. */
export async function invoiceWorkflowFacts(db: Db, invoiceId: string): Promise<InvoiceWorkflowFacts> {
  const invoice = await findInvoiceWorkflowFacts(db, invoiceId);
  if (!invoice) throw notFound('invoice', invoiceId);
  return { invoiceId, ...invoice };
}

/**
 * Starts the invoice's workflow when it is not running yet (a follow-up: the calling workflow's, or
 * at once through the gateway); `lean` for an invoice the period close finalized itself (see
 * InvoiceWorkflowInput).
 */
export async function ensureInvoiceWorkflow(deps: InvoiceWorkflowDeps, invoiceId: string, options: { lean?: boolean } = {}): Promise<void> {
  // Collected once per step: a second start of the same workflow would only fail in the caller's history.
  if (deps.followUps?.some((pending) => (pending.kind === 'start_invoice' || pending.kind === 'finalize_invoice') && pending.invoice.invoiceId === invoiceId)) return;
  const facts = await invoiceWorkflowFacts(deps.db, invoiceId);
  if (facts.status === 'Paid' || facts.status === 'Void') return;
  await followUp(deps, { kind: 'start_invoice', invoice: facts, ...(options.lean ? { lean: true as const } : {}) });
}

/**
 * Finalizes a Draft through its workflow for a system step (a period close, a threshold): collected
 * for the workflow whose activity asks (it sends the request and waits for the answer: null here),
 * or at once through the gateway's update, answered with the outcome (a refusal throws). `running`:
 * the caller found the invoice's workflow (the request then goes by signal, no start is tried).
 */
export async function finalizeThroughWorkflow(deps: InvoiceWorkflowDeps, invoiceId: string, command: FinalizeInvoiceCommand, running = false): Promise<InvoiceOutcome | null> {
  if (!deps.followUps) return moveInvoice(deps, invoiceId, 'finalize', command);
  const facts = await invoiceWorkflowFacts(deps.db, invoiceId);
  if (facts.status === 'Paid' || facts.status === 'Void') throw invalidTransition('invoice', facts.status, 'finalize');
  // A start collected for this invoice in the same step (a threshold's Draft just created) is the finalize's own start.
  const start = deps.followUps.findIndex((pending) => pending.kind === 'start_invoice' && pending.invoice.invoiceId === invoiceId);
  if (start >= 0) deps.followUps.splice(start, 1);
  await followUp(deps, { kind: 'finalize_invoice', invoice: facts, command, ...(running && start < 0 ? { running: true as const } : {}) });
  return null;
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
