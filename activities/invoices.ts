/**
 * Invoice and billing activities. Failures are classified (./failures.ts): domain errors and other
 * deterministic failures are never retried, transient ones are.
 */
import { billSubscription, billsAlone, progressiveThresholdOf, unbilledChargesToDate, type BillingReason } from '../src/services/billing/billing.js';
import type { ServiceDeps } from '../src/services/deps.js';
import { DomainError } from '../src/errors.js';
import { classified, workflowActor } from './failures.js';
import { ensureInvoiceWorkflow, finalizeThroughWorkflow, invoiceWorkflowExists, type InvoiceWorkflowDeps } from '../src/services/invoicing/invoice-workflows.js';
import {
  finalizeInvoice,
  invoiceNow,
  invoiceStatus,
  markInvoicePaid,
  recordFinalizeDeferred,
  voidInvoice,
} from '../src/services/invoicing/invoices.js';
import { changeSubscriptionPlan } from '../src/services/subscriptions/plan-changes.js';
import { autoChargeable, endTrialsPaidBy, payerChargeable } from '../src/services/payments/collection.js';
import { closeDunning } from '../src/services/payments/dunning.js';
import { applyTax } from '../src/services/billing/tax.js';
import { storeInvoiceDocument } from '../src/services/documents/documents.js';
import { DEFAULT_DOCUMENT_SETTINGS } from '../src/services/documents/settings.js';
import { closeSubscriptionPeriod } from '../src/services/subscriptions/period-close.js';
import { isShadowed } from '../src/services/simulations/shadow-billing.js';
import { hasMeteredFeatures } from '../src/services/entitlements/reset.js';
import { billLateUsageCorrection, subscriptionsOwingLateUsage } from '../src/services/billing/late-usage.js';
import { classifyFailure, describeFailure } from '../src/services/failures/taxonomy.js';
import { startPendingRecharges } from '../src/services/wallets/wallets.js';
import type { SubscriptionCommand } from '../workflows/shared/messages.js';
import type { WithFollowUps } from '../workflows/follow-ups/messages.js';
import type { FinalizedInvoice, FinalizeInvoiceCommand, InvoiceOutcome, InvoiceStatus, PayInvoiceCommand } from '../workflows/invoice/messages.js';
import { collectingFollowUps, type FollowUpDeps } from '../src/services/follow-ups.js';
import type { LateUsageCorrectionsSummary } from '../workflows/late-usage-corrections/messages.js';
import type { BillNowResult, ChangePlanCommand, SubscriptionSnapshot } from '../workflows/subscription/messages.js';

/** The database, logger, tax adapter, Temporal gateway (activities drive invoice workflows) and settings (grace period, documents). */
export type InvoiceActivityDeps = Pick<ServiceDeps, 'db' | 'logger' | 'tax' | 'temporal' | 'settings'>;

const outcome = (view: { status: InvoiceOutcome['status']; invoice_number: string | null }): InvoiceOutcome => ({
  status: view.status,
  invoiceNumber: view.invoice_number,
});

export interface PeriodRef {
  start: string;
  end: string;
}

/** A progressive-billing check: the period's Draft, and whether it was finalized (or its finalize requested). */
export interface ThresholdCheck {
  invoiceId: string | null;
  finalized: boolean;
}

export interface PeriodFinalization {
  invoiceId: string | null;
  /** The invoice's status after it; the Draft's while the finalize is `requested`. */
  status: InvoiceStatus | null;
  /** Why the Draft stays a Draft (the domain error code), when finalizing was refused. */
  deferred: string | null;
  /** Asked of the invoice's workflow by the calling workflow (a follow-up), which waits for its answer. */
  requested?: true;
}

export function createInvoiceActivities(deps: InvoiceActivityDeps) {
  const { db } = deps;
  const workflows = { db, temporal: deps.temporal };
  const period = (ref: PeriodRef) => ({ start: new Date(ref.start), end: new Date(ref.end) });

  /**
   * Bills into the billing group's Draft and, unless `startWorkflow` is false, makes sure the Draft's
   * workflow runs (through `via`: a follow-up its workflow runs, or the gateway). A period close does
   * not start it: its Draft is finalized at the end of the grace period by finalizePeriodInvoice, and
   * any earlier move (API, payment) starts it with its update.
   */
  async function bill(
    subscriptionId: string,
    options: { period?: PeriodRef; upTo: string; reason: BillingReason | null; command?: SubscriptionCommand | undefined; startWorkflow?: boolean },
    via: InvoiceWorkflowDeps = workflows,
  ) {
    const result = await billSubscription(db, {
      subscriptionId,
      ...(options.period ? { period: period(options.period) } : {}),
      upTo: new Date(options.upTo),
      reason: options.reason,
      ...(options.command ? { actor: options.command.actor, requestId: options.command.requestId } : {}),
    });
    // A Draft billed into before has its workflow already, unless a period close created it (it starts none):
    // looked up, so a workflow that runs is not asked to start again (a child start failing in its history).
    if (result.invoiceId && options.startWorkflow !== false && (result.created || !(await invoiceWorkflowExists(via, result.invoiceId)))) {
      await ensureInvoiceWorkflow(via, result.invoiceId);
    }
    return result;
  }

  /**
   * Draft → Open in one transaction (number, spend cap, tax, wallet drawdown, ledger, outbox, audit),
   * then the top-ups a drawdown called for: their workflows are started through `followUps` (collected
   * for the invoice's workflow, or at once when finalized outside one).
   */
  async function finalizeRecord(invoiceId: string, command: FinalizeInvoiceCommand, followUps: FollowUpDeps = workflows): Promise<FinalizedInvoice> {
    const result = await finalizeInvoice(db, invoiceId, {
      actor: command.actor,
      at: command.at ? new Date(command.at) : await invoiceNow(db, invoiceId, new Date()),
      applyTax: (tx, invoice, payer) => applyTax(tx, invoice, deps.tax, payer),
      ...(command.requestId ? { requestId: command.requestId } : {}),
    });
    deps.logger.info(
      { invoiceId, invoiceNumber: result.invoice.invoice_number, customerId: result.invoice.customer_id, status: result.invoice.status, totalNanos: result.invoice.total_nanos },
      'invoice finalized',
    );
    // A drawdown that crossed its wallet's auto-recharge threshold recorded a top-up: charge it (a
    // retry, which finds the invoice finalized, looks again; no drawdown, no top-up).
    if (result.alreadyFinalized || result.invoice.wallet_applied_nanos !== '0') {
      await startPendingRecharges({ db, ...followUps }, result.invoice.customer_id);
    }
    // The API answers with the invoice as it stood finalized, before its auto-charge (which runs next).
    return command.chargeAfterAnswer === true ? { ...outcome(result.invoice), view: { ...result.invoice } } : outcome(result.invoice);
  }

  /**
   * Finalizes a Draft through its workflow (or `directly`, see finalizePeriodInvoice) unless someone
   * else already moved it. A refusal (e.g. a credit the period cannot absorb) leaves the Draft for an
   * operator, with an audit entry saying why, instead of failing the workflow that asked. Through the
   * workflow with `via` collecting follow-ups, the calling workflow sends the request (and the invoice
   * workflow audits a refusal itself).
   */
  async function finalizeIfDraft(invoiceId: string, command: SubscriptionCommand, directly = false, via: InvoiceWorkflowDeps = workflows, running = false): Promise<PeriodFinalization> {
    try {
      const finalized = directly ? await finalizeRecord(invoiceId, command) : await finalizeThroughWorkflow(via, invoiceId, command, running);
      return finalized === null ? { invoiceId, status: 'Draft', deferred: null, requested: true } : { invoiceId, status: finalized.status, deferred: null };
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const current = await invoiceStatus(db, invoiceId);
      if (err.kind === 'invalid_transition' && current && current.status !== 'Draft') return { invoiceId, status: current.status, deferred: null };
      if (err.kind !== 'unprocessable' || !current) throw err;
      await deferFinalize({ invoiceId, customerId: current.customerId, actor: command.actor, code: err.code, reason: err.message });
      return { invoiceId, status: 'Draft', deferred: err.code };
    }
  }

  /** A Draft whose finalize a domain rule refused stays a Draft: logged and audited (`invoice.finalize_deferred`). */
  async function deferFinalize(input: Parameters<typeof recordFinalizeDeferred>[1]): Promise<void> {
    deps.logger.warn({ invoiceId: input.invoiceId, code: input.code, err: input.reason }, 'finalizing a Draft was refused; it stays a Draft');
    await recordFinalizeDeferred(db, input);
  }

  const systemAt = (at: string, reason: string): SubscriptionCommand => ({ actor: workflowActor(), reason, at });

  /** Bills the current period to `upTo` (default `at`) into its Draft and finalizes the Draft, dated `at`, when its total reached `threshold`. */
  async function billAtThreshold(input: { subscriptionId: string; at: string }, threshold: bigint, via: InvoiceWorkflowDeps, upTo = new Date(input.at)): Promise<ThresholdCheck> {
    const draft = await bill(input.subscriptionId, { upTo: upTo.toISOString(), reason: 'threshold' }, via);
    if (!draft.invoiceId || BigInt(draft.totalNanos) < threshold) return { invoiceId: draft.invoiceId, finalized: false };
    const finalized = await finalizeIfDraft(draft.invoiceId, systemAt(input.at, 'progressive_threshold'), false, via);
    return { invoiceId: draft.invoiceId, finalized: finalized.deferred === null };
  }

  /**
   * Finalizes a closed period's Draft (the billing group's), dated `at`. A Draft nobody moved yet
   * (no invoice workflow) whose payer has no default payment method (nothing to auto-charge) is
   * finalized here directly, and its workflow then started as an Open invoice's (lean: no update, no
   * document rendering, which the API does when the PDF is first requested). Otherwise through its
   * workflow, which charges it.
   */
  async function finalizeClosedDraft(invoiceId: string, at: string, known: { created?: boolean; chargeable?: boolean } = {}, via: InvoiceWorkflowDeps = workflows): Promise<PeriodFinalization> {
    // A Draft this activity just created has no workflow (billing here never starts one).
    const hasWorkflow = known.created !== true && (await invoiceWorkflowExists(workflows, invoiceId));
    const throughWorkflow = hasWorkflow || (known.chargeable ?? (await autoChargeable(db, invoiceId)));
    const finalized = await finalizeIfDraft(invoiceId, systemAt(at, 'period_closed'), !throughWorkflow, via, hasWorkflow);
    // After the commit (a retry finds it Open and starts it then): the Open invoice's workflow, for its payment and void.
    if (!throughWorkflow && finalized.status === 'Open') await ensureInvoiceWorkflow(via, invoiceId, { lean: true });
    return finalized;
  }

  /** Bills the period to its end and closes its ledger period (and, with `roll`, moves the subscription into the next one) in one transaction. */
  async function closePeriod(input: { subscriptionId: string; period: PeriodRef; reason: 'subscription_cycle' | 'subscription_final' }, options = { roll: false }) {
    const { billed, state } = await closeSubscriptionPeriod(db, { subscriptionId: input.subscriptionId, period: period(input.period), reason: input.reason }, options);
    const { invoiceId, created, payerId } = billed;
    const finalizeAt = new Date(Date.parse(input.period.end) + deps.settings.invoiceGraceMs).toISOString();
    deps.logger.info(
      { subscriptionId: input.subscriptionId, periodStart: input.period.start, periodEnd: input.period.end, reason: input.reason, invoiceId, finalizeAt },
      'period closed',
    );
    // After the commit: a shadow billing attachment covering the subscription asks the workflow for a shadow rating next.
    const shadow = await isShadowed(db, billed.subscription);
    return { invoiceId, created, payerId, finalizeAt, state, shadow };
  }

  /**
   * Correction invoices for the late usage of ended subscriptions (of one test clock, or of none:
   * null), each billed and finalized dated `at`. A subscription whose correction fails for good is
   * logged and left for the next run; a transient failure fails the run (retried).
   */
  async function billLateUsageCorrections(testClockId: string | null, at: string, via: InvoiceWorkflowDeps): Promise<LateUsageCorrectionsSummary> {
    const subscriptions = await subscriptionsOwingLateUsage(db, testClockId);
    const summary: LateUsageCorrectionsSummary = { at, subscriptions: subscriptions.length, invoices: [], failed: [] };
    for (const subscriptionId of subscriptions) {
      try {
        const correction = await billLateUsageCorrection(db, subscriptionId, new Date(at));
        if (!correction) continue;
        await finalizeClosedDraft(correction.invoiceId, at, {}, via);
        summary.invoices.push(correction.invoiceId);
        deps.logger.info({ subscriptionId, invoiceId: correction.invoiceId, lines: correction.lines }, 'late usage of an ended subscription billed on a correction invoice');
      } catch (err) {
        if (classifyFailure(err) === 'transient') throw err;
        summary.failed.push(subscriptionId);
        deps.logger.error({ subscriptionId, failure: describeFailure(err) }, 'late usage correction failed for a subscription; the next run tries again');
      }
    }
    return summary;
  }

  return {
    /**
     * The correction invoices' workflows (started, or asked to finalize) are the calling workflow's
     * (the late-usage corrections run, the test-clock advance): follow-ups.
     */
    billLateUsageCorrections: (input: { testClockId: string | null; at?: string }): Promise<WithFollowUps<LateUsageCorrectionsSummary>> =>
      classified(() => collectingFollowUps(workflows, (via) => billLateUsageCorrections(input.testClockId, input.at ?? new Date().toISOString(), via))),

    /** The invoice workflow's finalize: the recharges it calls for are that workflow's to start (returned as follow-ups). */
    finalizeInvoiceRecord: (invoiceId: string, command: FinalizeInvoiceCommand): Promise<WithFollowUps<FinalizedInvoice>> =>
      classified(() => collectingFollowUps(deps, (collecting) => finalizeRecord(invoiceId, command, collecting))),

    /** Paid by hand; the dunning schedule it closes and the trials it ends are told by the invoice's workflow (follow-ups). */
    payInvoiceRecord: (invoiceId: string, command: PayInvoiceCommand): Promise<WithFollowUps<InvoiceOutcome>> =>
      classified(() => collectingFollowUps(deps, async (collecting) => {
        const at = await invoiceNow(db, invoiceId, new Date());
        const paid = await markInvoicePaid(db, invoiceId, {
          actor: command.actor,
          paidBy: command.paidBy,
          ...(command.reference !== undefined ? { reference: command.reference } : {}),
          ...(command.amountNanos !== undefined ? { expectedAmountNanos: BigInt(command.amountNanos) } : {}),
          at,
          ...(command.requestId ? { requestId: command.requestId } : {}),
        });
        // An invoice in dunning paid by hand closes its schedule (its subscriptions back to Active).
        await closeDunning(collecting, invoiceId, 'paid_manually', at);
        // A Trialing subscription whose invoice is paid becomes Active.
        await endTrialsPaidBy(collecting, invoiceId, at);
        deps.logger.info({ invoiceId, invoiceNumber: paid.invoice_number, customerId: paid.customer_id, paidBy: command.paidBy.actorId, status: paid.status }, 'invoice paid by hand');
        return outcome(paid);
      })),

    voidInvoiceRecord: (invoiceId: string, command: SubscriptionCommand): Promise<WithFollowUps<InvoiceOutcome>> =>
      classified(() => collectingFollowUps(deps, async (collecting) => {
        const at = await invoiceNow(db, invoiceId, new Date());
        const voided = await voidInvoice(db, invoiceId, {
          actor: command.actor,
          at,
          ...(command.reason ? { reason: command.reason } : {}),
          ...(command.requestId ? { requestId: command.requestId } : {}),
        });
        await closeDunning(collecting, invoiceId, 'voided', at);
        return outcome(voided);
      })),

    /**
     * Renders and stores the PDF of the invoice's current state (after finalization, and when it is
     * Paid or Void); a stored edition is kept as it is, so a retried activity changes nothing.
     */
    renderInvoiceDocument: (invoiceId: string): Promise<{ edition: string; sha256: string } | null> =>
      classified(async () => {
        const stored = await storeInvoiceDocument(db, deps.settings.documents ?? DEFAULT_DOCUMENT_SETTINGS, invoiceId);
        if (stored) deps.logger.info({ invoiceId, edition: stored.edition, sha256: stored.sha256 }, 'invoice document stored');
        return stored;
      }),

    /**
     * Bill on demand: the current period up to `upTo`, into its Draft (the caller's command, for the
     * audit trail; absent in older histories). The Draft's workflow is the subscription workflow's to start (a follow-up).
     */
    billSubscriptionNow: (input: { subscriptionId: string; upTo: string; command?: SubscriptionCommand }): Promise<WithFollowUps<BillNowResult>> =>
      classified(() => collectingFollowUps(workflows, async (via) => {
        const { invoiceId, created } = await bill(input.subscriptionId, { upTo: input.upTo, reason: 'manual', command: input.command }, via);
        return { invoiceId, created };
      })),

    /** Period close: bills the period to its end; its Draft is finalized at `finalizeAt`. */
    closeSubscriptionPeriod: (input: { subscriptionId: string; period: PeriodRef; reason: 'subscription_cycle' | 'subscription_final' }) =>
      classified(async () => {
        const { invoiceId, created, finalizeAt, shadow } = await closePeriod(input);
        return { invoiceId, created, finalizeAt, ...(shadow ? { shadow } : {}) };
      }),

    /**
     * Period close and the move into the next period in one activity (one round trip per period
     * end instead of two): bills the period to its end, closes its ledger period, then rolls the
     * subscription (a retry bills the same difference, nothing, and finds the period rolled).
     */
    closeAndRollSubscriptionPeriod: (input: {
      subscriptionId: string;
      period: PeriodRef;
      reason: 'subscription_cycle';
      /** A test-clock advance reaches this time: a grace end at or before it may be finalized now (see below). */
      finalizeDueBy?: string;
    }): Promise<WithFollowUps<{ finalizeAt: string; state: SubscriptionSnapshot; finalized?: boolean; shadow?: boolean; entitlements?: boolean }>> =>
      classified(() => collectingFollowUps(workflows, async (via) => {
        const { invoiceId, created, payerId, finalizeAt, state: rolled, shadow: shadowed } = await closePeriod(input, { roll: true });
        // Only when true, so closes without a shadow (or without Metered features to reset) answer as before.
        const shadow = { ...(shadowed ? { shadow: true } : {}), ...((await hasMeteredFeatures(db, input.subscriptionId)) ? { entitlements: true } : {}) };
        // A close asked to roll always answers with the subscription as the roll left it.
        const state = rolled!;
        // A test-clock advance that passes the grace end as well: no usage can arrive in between (the
        // clock jumps), so a Draft that no other subscription can bill into, and that finalizing does
        // not charge (no default payment method: no payment, no dunning to date), is finalized now,
        // dated at its grace end, instead of in a second step (one update, one activity and one
        // refresh less).
        const dueNow = input.finalizeDueBy !== undefined && Date.parse(finalizeAt) <= Date.parse(input.finalizeDueBy);
        if (dueNow && invoiceId && payerId && (await billsAlone(db, input.subscriptionId)) && !(await payerChargeable(db, payerId))) {
          await finalizeClosedDraft(invoiceId, finalizeAt, { created, chargeable: false }, via);
          return { finalizeAt, state, finalized: true, ...shadow };
        }
        return { finalizeAt, state, ...shadow };
      })),

    /**
     * End of a closed period's grace: bills what arrived late for it, then finalizes its Draft
     * (finalizeClosedDraft); the invoice workflow's start, or the finalize asked of it, is the
     * subscription workflow's (follow-ups).
     */
    finalizePeriodInvoice: (input: { subscriptionId: string; period: PeriodRef; at: string }): Promise<WithFollowUps<PeriodFinalization>> =>
      classified(() => collectingFollowUps(workflows, async (via) => {
        const { invoiceId } = await bill(input.subscriptionId, { period: input.period, upTo: input.period.end, reason: null, startWorkflow: false });
        if (!invoiceId) return { invoiceId: null, status: null, deferred: null };
        return finalizeClosedDraft(invoiceId, input.at, {}, via);
      })),

    /** A finalize asked of an invoice's workflow (FinalizeRequest) was refused by a domain rule: audited, the Draft stays for an operator. */
    recordFinalizeDeferred: (input: { invoiceId: string; actor: SubscriptionCommand['actor']; code: string; reason: string }): Promise<void> =>
      classified(async () => {
        const current = await invoiceStatus(db, input.invoiceId);
        if (current) await deferFinalize({ ...input, customerId: current.customerId });
      }),

    /** Progressive billing, the daily check: finalizes the period's Draft once its charges reach the threshold. */
    checkProgressiveThreshold: (input: { subscriptionId: string; at: string }): Promise<WithFollowUps<ThresholdCheck>> =>
      classified(() => collectingFollowUps(workflows, async (via) => {
        const threshold = await progressiveThresholdOf(db, input.subscriptionId);
        if (threshold === null) return { invoiceId: null, finalized: false };
        return billAtThreshold(input, threshold, via);
      })),

    /**
     * Progressive billing on the crossing (usage was stored): the same check, after a read-only test
     * of the subscription's unbilled charges to date, so usage below the threshold writes nothing.
     */
    checkThresholdCrossing: (input: { subscriptionId: string; at: string }): Promise<WithFollowUps<ThresholdCheck>> =>
      classified(() => collectingFollowUps(workflows, async (via) => {
        const threshold = await progressiveThresholdOf(db, input.subscriptionId);
        // Usage stamped at the very instant `at` (a test clock's time) counts: rated to just after it.
        const through = new Date(Date.parse(input.at) + 1);
        if (threshold === null || (await unbilledChargesToDate(db, input.subscriptionId, through)) < threshold) return { invoiceId: null, finalized: false };
        return billAtThreshold(input, threshold, via, through);
      })),

    changeSubscriptionPlan: (input: { subscriptionId: string; at: string; command: ChangePlanCommand }): Promise<WithFollowUps<BillNowResult>> =>
      classified(() => collectingFollowUps(workflows, async (via) => {
        await changeSubscriptionPlan(db, { subscriptionId: input.subscriptionId, planId: input.command.planId, at: new Date(input.at), command: input.command });
        const { invoiceId, created } = await bill(input.subscriptionId, { upTo: input.at, reason: 'plan_change', command: input.command }, via);
        return { invoiceId, created };
      })),
  };
}
