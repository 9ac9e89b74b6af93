/**
 * Invoice and billing activities. Failures are classified (./failures.ts): domain errors and other
 * deterministic failures are never retried, transient ones are.
 */
import type { Client } from '@temporalio/client';
import type { Logger } from '../src/logger.js';
import { SYSTEM_ACTOR } from '../src/services/audit.js';
import { billSubscription, progressiveThresholdOf, type BillingReason } from '../src/services/billing/billing.js';
import type { ServiceDeps } from '../src/services/deps.js';
import { DomainError } from '../src/errors.js';
import { classified } from './failures.js';
import { ensureInvoiceWorkflow, moveInvoice } from '../src/services/invoicing/invoice-workflows.js';
import {
  finalizeInvoice,
  invoiceNow,
  invoiceStatus,
  markInvoicePaid,
  recordFinalizeDeferred,
  voidInvoice,
} from '../src/services/invoicing/invoices.js';
import { changeSubscriptionPlan } from '../src/services/subscriptions/plan-changes.js';
import { closeDunning } from '../src/services/payments/collection.js';
import { applyTax, type TaxAdapter } from '../src/services/billing/tax.js';
import { storeInvoiceDocument } from '../src/services/documents/documents.js';
import { DEFAULT_DOCUMENT_SETTINGS, type DocumentSettings } from '../src/services/documents/settings.js';
import { closeLedgerPeriod } from '../src/services/ledger/ledger.js';
import { startPendingRecharges } from '../src/services/wallets/wallets.js';
import { invoiceTaskQueue } from '../src/temporal/task-queues.js';
import {
  type BillNowResult,
  type ChangePlanCommand,
  type InvoiceOutcome,
  type InvoiceStatus,
  type PayInvoiceCommand,
  type SubscriptionCommand,
} from '../workflows/messages.js';

export interface InvoiceActivityDeps {
  db: ServiceDeps['db'];
  logger: Logger;
  tax: TaxAdapter;
  client: Client;
  /** The subscription task queue; invoice workflows run on its invoice queue. */
  taskQueue: string;
  /** How long a closed period's Draft waits before it is finalized (late usage, consolidation). */
  invoiceGraceMs: number;
  /** Seller block, logo and locale of invoice documents. */
  documents?: DocumentSettings;
}

const outcome = (view: { status: InvoiceOutcome['status']; invoice_number: string | null }): InvoiceOutcome => ({
  status: view.status,
  invoiceNumber: view.invoice_number,
});

export interface PeriodRef {
  start: string;
  end: string;
}

export interface PeriodFinalization {
  invoiceId: string | null;
  status: InvoiceStatus | null;
  /** Why the Draft stays a Draft (the domain error code), when finalizing was refused. */
  deferred: string | null;
}

export function createInvoiceActivities(deps: InvoiceActivityDeps) {
  const { db } = deps;
  const workflows = { db, client: deps.client, taskQueue: invoiceTaskQueue(deps.taskQueue) };
  const period = (ref: PeriodRef) => ({ start: new Date(ref.start), end: new Date(ref.end) });

  /** Bills into the billing group's Draft and makes sure the Draft's workflow runs. */
  async function bill(subscriptionId: string, options: { period?: PeriodRef; upTo: string; reason: BillingReason | null }) {
    const result = await billSubscription(db, {
      subscriptionId,
      ...(options.period ? { period: period(options.period) } : {}),
      upTo: new Date(options.upTo),
      reason: options.reason,
    });
    if (result.invoiceId) await ensureInvoiceWorkflow(workflows, result.invoiceId);
    return result;
  }

  /**
   * Finalizes a Draft through its workflow unless someone else already moved it. A refusal (e.g. a
   * credit the period cannot absorb) leaves the Draft for an operator, with an audit entry saying
   * why, instead of failing the workflow that asked.
   */
  async function finalizeIfDraft(invoiceId: string, command: SubscriptionCommand): Promise<PeriodFinalization> {
    try {
      return { invoiceId, status: (await moveInvoice(workflows, invoiceId, 'finalize', command)).status, deferred: null };
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const current = await invoiceStatus(db, invoiceId);
      if (err.kind === 'invalid_transition' && current && current.status !== 'Draft') return { invoiceId, status: current.status, deferred: null };
      if (err.kind !== 'unprocessable' || !current) throw err;
      deps.logger.warn({ invoiceId, code: err.code, err: err.message }, 'finalizing a Draft was refused; it stays a Draft');
      await recordFinalizeDeferred(db, { invoiceId, customerId: current.customerId, actor: command.actor, code: err.code, reason: err.message });
      return { invoiceId, status: 'Draft', deferred: err.code };
    }
  }

  const systemAt = (at: string, reason: string): SubscriptionCommand => ({ actor: SYSTEM_ACTOR, reason, at });

  return {
    finalizeInvoiceRecord: (invoiceId: string, command: SubscriptionCommand) =>
      classified(async () => {
        const result = await finalizeInvoice(db, invoiceId, {
          actor: command.actor,
          at: command.at ? new Date(command.at) : await invoiceNow(db, invoiceId, new Date()),
          applyTax: (tx, invoice) => applyTax(tx, invoice, deps.tax),
          ...(command.requestId ? { requestId: command.requestId } : {}),
        });
        // A drawdown that crossed its wallet's auto-recharge threshold recorded a top-up: charge it.
        await startPendingRecharges({ db, client: deps.client, taskQueue: deps.taskQueue }, result.invoice.customer_id);
        return outcome(result.invoice);
      }),

    payInvoiceRecord: (invoiceId: string, command: PayInvoiceCommand) =>
      classified(async () => {
        const at = await invoiceNow(db, invoiceId, new Date());
        const paid = await markInvoicePaid(db, invoiceId, {
          actor: command.actor,
          paidBy: command.paidBy,
          at,
          ...(command.requestId ? { requestId: command.requestId } : {}),
        });
        // An invoice in dunning paid by hand closes its schedule (its subscriptions back to Active).
        await closeDunning(deps, invoiceId, 'paid_manually', at);
        return outcome(paid);
      }),

    voidInvoiceRecord: (invoiceId: string, command: SubscriptionCommand) =>
      classified(async () => {
        const at = await invoiceNow(db, invoiceId, new Date());
        const voided = await voidInvoice(db, invoiceId, {
          actor: command.actor,
          at,
          ...(command.reason ? { reason: command.reason } : {}),
          ...(command.requestId ? { requestId: command.requestId } : {}),
        });
        await closeDunning(deps, invoiceId, 'voided', at);
        return outcome(voided);
      }),

    /**
     * Renders and stores the PDF of the invoice's current state (after finalization, and when it is
     * Paid or Void); a stored edition is kept as it is, so a retried activity changes nothing.
     */
    renderInvoiceDocument: (invoiceId: string): Promise<{ edition: string; sha256: string } | null> =>
      classified(async () => {
        const stored = await storeInvoiceDocument(db, deps.documents ?? DEFAULT_DOCUMENT_SETTINGS, invoiceId);
        if (stored) deps.logger.info({ invoiceId, edition: stored.edition, sha256: stored.sha256 }, 'invoice document stored');
        return stored;
      }),

    /** Bill on demand: the current period up to `upTo`, into its Draft. */
    billSubscriptionNow: (input: { subscriptionId: string; upTo: string }): Promise<BillNowResult> =>
      classified(async () => {
        const { invoiceId, created } = await bill(input.subscriptionId, { upTo: input.upTo, reason: 'manual' });
        return { invoiceId, created };
      }),

    /** Period close: bills the period to its end; its Draft is finalized at `finalizeAt`. */
    closeSubscriptionPeriod: (input: { subscriptionId: string; period: PeriodRef; reason: 'subscription_cycle' | 'subscription_final' }) =>
      classified(async () => {
        const { invoiceId } = await bill(input.subscriptionId, { period: input.period, upTo: input.period.end, reason: input.reason });
        await closeLedgerPeriod(db, { subscriptionId: input.subscriptionId, invoiceId, at: new Date(input.period.end) });
        return { invoiceId, finalizeAt: new Date(Date.parse(input.period.end) + deps.invoiceGraceMs).toISOString() };
      }),

    /**
     * End of a closed period's grace: bills what arrived late for it, then finalizes its Draft (the
     * billing group's, which other subscriptions may share), dated `at`.
     */
    finalizePeriodInvoice: (input: { subscriptionId: string; period: PeriodRef; at: string }): Promise<PeriodFinalization> =>
      classified(async () => {
        const { invoiceId } = await bill(input.subscriptionId, { period: input.period, upTo: input.period.end, reason: null });
        if (!invoiceId) return { invoiceId: null, status: null, deferred: null };
        return finalizeIfDraft(invoiceId, systemAt(input.at, 'period_closed'));
      }),

    /** Progressive billing: finalizes the period's Draft once its charges reach the threshold. */
    checkProgressiveThreshold: (input: { subscriptionId: string; at: string }) =>
      classified(async () => {
        const threshold = await progressiveThresholdOf(db, input.subscriptionId);
        if (threshold === null) return { invoiceId: null, finalized: false };
        const draft = await bill(input.subscriptionId, { upTo: input.at, reason: 'threshold' });
        if (!draft.invoiceId || BigInt(draft.totalNanos) < threshold) return { invoiceId: draft.invoiceId, finalized: false };
        const finalized = await finalizeIfDraft(draft.invoiceId, systemAt(input.at, 'progressive_threshold'));
        return { invoiceId: draft.invoiceId, finalized: finalized.deferred === null };
      }),

    changeSubscriptionPlan: (input: { subscriptionId: string; at: string; command: ChangePlanCommand }): Promise<BillNowResult> =>
      classified(async () => {
        await changeSubscriptionPlan(db, { subscriptionId: input.subscriptionId, planId: input.command.planId, at: new Date(input.at), command: input.command });
        const { invoiceId, created } = await bill(input.subscriptionId, { upTo: input.at, reason: 'plan_change' });
        return { invoiceId, created };
      }),
  };
}
