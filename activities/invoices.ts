/**
 * Invoice and billing activities. Domain errors become non-retryable Temporal failures (their type
 * names the kind) so workflows stop retrying moves that can never succeed.
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { Db } from '../src/db/client.js';
import { SYSTEM_ACTOR } from '../src/services/audit.js';
import { billSubscription, type BillingReason } from '../src/services/billing.js';
import { DomainError } from '../src/services/errors.js';
import { ensureInvoiceWorkflow, moveInvoice } from '../src/services/invoice-workflows.js';
import { finalizeInvoice, markInvoicePaid, voidInvoice } from '../src/services/invoices.js';
import { applyTax, type TaxAdapter } from '../src/services/tax.js';
import { changeSubscriptionPlan } from '../src/services/plan-changes.js';
import { INVALID_TRANSITION, type ChangePlanCommand, type InvoiceOutcome, type PayInvoiceCommand, type SubscriptionCommand } from '../workflows/messages.js';

export interface InvoiceActivityDeps {
  db: Db;
  tax: TaxAdapter;
  client: Client;
  taskQueue: string;
}

const FAILURE_TYPE: Record<DomainError['kind'], string> = {
  invalid_transition: INVALID_TRANSITION,
  not_found: 'NotFound',
  unprocessable: 'Unprocessable',
  validation: 'Unprocessable',
  conflict: 'Unprocessable',
};

async function domain<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof DomainError) throw ApplicationFailure.nonRetryable(err.message, FAILURE_TYPE[err.kind], { code: err.code, ...err.details });
    throw err;
  }
}

/** The invoice's own "now": its test clock's time when it has one. */
async function invoiceNow(db: Db, invoiceId: string): Promise<Date> {
  const invoice = await db.invoice.findUnique({ where: { id: invoiceId }, select: { testClockId: true } });
  if (!invoice?.testClockId) return new Date();
  return (await db.testClock.findUniqueOrThrow({ where: { id: invoice.testClockId } })).frozenTime;
}

const outcome = (view: { status: InvoiceOutcome['status']; invoice_number: string | null }): InvoiceOutcome => ({
  status: view.status,
  invoiceNumber: view.invoice_number,
});

export function createInvoiceActivities(deps: InvoiceActivityDeps) {
  const { db } = deps;
  const workflows = { db, client: deps.client, taskQueue: deps.taskQueue };

  /** Bills the subscription to `upTo`; starts the Draft's workflow; finalizes it when asked to. */
  async function bill(input: { subscriptionId: string; upTo: string; reason: BillingReason; finalize: boolean }) {
    const result = await billSubscription(db, { subscriptionId: input.subscriptionId, upTo: new Date(input.upTo), reason: input.reason });
    if (!result.invoiceId) return { invoiceId: null, totalNanos: result.totalNanos };
    if (input.finalize) {
      await moveInvoice(workflows, result.invoiceId, 'finalize', { actor: SYSTEM_ACTOR });
    } else {
      await ensureInvoiceWorkflow(workflows, result.invoiceId);
    }
    return { invoiceId: result.invoiceId, totalNanos: result.totalNanos };
  }

  return {
    finalizeInvoiceRecord: (invoiceId: string, command: SubscriptionCommand) =>
      domain(async () => {
        const result = await finalizeInvoice(db, invoiceId, {
          actor: command.actor,
          at: await invoiceNow(db, invoiceId),
          applyTax: (tx, invoice) => applyTax(tx, invoice, deps.tax),
          ...(command.requestId ? { requestId: command.requestId } : {}),
        });
        return outcome(result.invoice);
      }),

    payInvoiceRecord: (invoiceId: string, command: PayInvoiceCommand) =>
      domain(async () =>
        outcome(
          await markInvoicePaid(db, invoiceId, {
            actor: command.actor,
            actorName: command.actorName ?? null,
            at: await invoiceNow(db, invoiceId),
            ...(command.requestId ? { requestId: command.requestId } : {}),
          }),
        ),
      ),

    voidInvoiceRecord: (invoiceId: string, command: SubscriptionCommand) =>
      domain(async () =>
        outcome(
          await voidInvoice(db, invoiceId, {
            actor: command.actor,
            at: await invoiceNow(db, invoiceId),
            ...(command.reason ? { reason: command.reason } : {}),
            ...(command.requestId ? { requestId: command.requestId } : {}),
          }),
        ),
      ),

    billSubscriptionPeriod: (input: { subscriptionId: string; upTo: string; reason: BillingReason; finalize: boolean }) => domain(() => bill(input)),

    /** Progressive billing: finalizes the period's Draft once its charges reach the threshold. */
    checkProgressiveThreshold: (input: { subscriptionId: string; at: string }) =>
      domain(async () => {
        const subscription = await db.subscription.findUniqueOrThrow({ where: { id: input.subscriptionId }, select: { progressiveThresholdNanos: true } });
        if (subscription.progressiveThresholdNanos === null) return { invoiceId: null, finalized: false };
        const threshold = BigInt(subscription.progressiveThresholdNanos.toFixed(0));
        const draft = await bill({ subscriptionId: input.subscriptionId, upTo: input.at, reason: 'threshold', finalize: false });
        if (!draft.invoiceId || BigInt(draft.totalNanos) < threshold) return { invoiceId: draft.invoiceId, finalized: false };
        await moveInvoice(workflows, draft.invoiceId, 'finalize', { actor: SYSTEM_ACTOR, reason: 'progressive_threshold' });
        return { invoiceId: draft.invoiceId, finalized: true };
      }),

    changeSubscriptionPlan: (input: { subscriptionId: string; at: string; command: ChangePlanCommand }) =>
      domain(async () => {
        await changeSubscriptionPlan(db, { subscriptionId: input.subscriptionId, planId: input.command.planId, at: new Date(input.at), command: input.command });
        return bill({ subscriptionId: input.subscriptionId, upTo: input.at, reason: 'plan_change', finalize: false });
      }),
  };
}
