/**
 * Runs the follow-ups an activity handed back (./messages.ts) from the workflow that called it:
 * starts as children that outlive it (ParentClosePolicy ABANDON: a dunning schedule or a recharge
 * goes on after the invoice's workflow ends), signals to other workflows. Each is what the gateway
 * does for the API (src/temporal/follow-ups.ts), and as idempotent: a workflow that runs already
 * keeps running, a signal to a workflow that ended needs nothing.
 */
import {
  type ChildWorkflowOptions,
  condition,
  getExternalWorkflowHandle,
  log,
  ParentClosePolicy,
  patched,
  setHandler,
  type SignalDefinition,
  startChild,
  uuid4,
  workflowInfo,
  WorkflowIdReusePolicy,
} from '@temporalio/workflow';
import { contractWorkflowId } from '../contract/messages.js';
import { dunningClosedSignal, dunningWorkflowId } from '../dunning/messages.js';
import {
  finalizeAnsweredSignal,
  finalizeRequestSignal,
  invoiceWorkflowAbout,
  invoiceWorkflowId,
  paymentAnsweredSignal,
  paymentRequestSignal,
  type FinalizeInvoiceCommand,
  type InvoicePaymentCommand,
  type InvoiceWorkflowFacts,
  type InvoiceWorkflowInput,
  type PaymentAnswer,
} from '../invoice/messages.js';
import { subscriptionTaskQueueOf, TASK_QUEUE_SUFFIXES, workflowSearchAttributes } from '../shared/messages.js';
import { processorEventWorkflowId } from '../processor-event/messages.js';
import { paymentOutcomeSignal, subscriptionWorkflowId } from '../subscription/messages.js';
import { walletRechargeWorkflowId } from '../wallet-recharge/messages.js';
import type { FollowUp, WithFollowUps } from './messages.js';

/**
 * Runs them in order. Answers the answer to the payment one of them asked of an invoice's workflow
 * (`invoice_payment`): null when that workflow had completed (nothing was asked), undefined when none asked one.
 */
export async function runFollowUps(followUps: readonly FollowUp[]): Promise<PaymentAnswer | null | undefined> {
  let payment: PaymentAnswer | null | undefined;
  for (const followUp of followUps) {
    if (followUp.kind === 'invoice_payment') payment = await paymentThroughInvoiceWorkflow(followUp.invoice, followUp.command, followUp.running === true);
    else await run(followUp);
  }
  return payment;
}

/**
 * An activity's result without its follow-ups, once they ran here: under the calling workflow's
 * patch `patchId` (runs recorded before it got results without follow-ups: their activities ran
 * them through the gateway).
 */
export async function followedUp<T extends object>(step: Promise<WithFollowUps<T>>, patchId: string): Promise<T> {
  const { followUps, ...result } = await step;
  if (followUps !== undefined && followUps.length > 0 && patched(patchId)) await runFollowUps(followUps);
  return result as T;
}

function run(followUp: Exclude<FollowUp, { kind: 'invoice_payment' }>): Promise<void> {
  switch (followUp.kind) {
    case 'start_wallet_recharge':
      // Once per top-up, ever (as the gateway's start): an ended recharge is not started again.
      return startUnlessRunning('walletRechargeWorkflow', walletRechargeWorkflowId(followUp.topUpId), [{ topUpId: followUp.topUpId }], { customerId: followUp.customerId }, WorkflowIdReusePolicy.REJECT_DUPLICATE);
    case 'start_dunning':
      // A re-driven schedule starts again after its ended run.
      return startUnlessRunning('dunningWorkflow', dunningWorkflowId(followUp.input.invoiceId), [followUp.input], { customerId: followUp.customerId, testClockId: followUp.testClockId }, WorkflowIdReusePolicy.ALLOW_DUPLICATE);
    case 'start_contract':
      // Started only once the activity found none (the reconciler); one that runs meanwhile is kept.
      return startUnlessRunning('contractWorkflow', contractWorkflowId(followUp.input.contractId), [followUp.input], { customerId: followUp.customerId, testClockId: followUp.testClockId }, WorkflowIdReusePolicy.ALLOW_DUPLICATE);
    case 'start_processor_event':
      // Once per notification, ever (as the gateway's start).
      return startChildUnlessRunning('processorEventWorkflow', {
        workflowId: processorEventWorkflowId(followUp.eventId),
        args: [{ eventId: followUp.eventId }],
        taskQueue: subscriptionTaskQueueOf(workflowInfo().taskQueue),
        parentClosePolicy: ParentClosePolicy.ABANDON,
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      }).then(() => undefined);
    case 'payment_outcome':
      return signalUnlessGone(subscriptionWorkflowId(followUp.subscriptionId), () =>
        getExternalWorkflowHandle(subscriptionWorkflowId(followUp.subscriptionId)).signal(paymentOutcomeSignal, followUp.outcome),
      );
    case 'dunning_closed':
      return signalUnlessGone(dunningWorkflowId(followUp.invoiceId), () => getExternalWorkflowHandle(dunningWorkflowId(followUp.invoiceId)).signal(dunningClosedSignal, followUp.state));
    case 'start_invoice':
      return startInvoiceUnlessRunning(followUp.invoice, { invoiceId: followUp.invoice.invoiceId, status: followUp.invoice.status, ...(followUp.lean ? { lean: true } : {}) }).then(() => undefined);
    case 'finalize_invoice':
      return finalizeThroughInvoiceWorkflow(followUp.invoice, followUp.command, followUp.running === true);
  }
}

/** Answers to this workflow's requests to invoice workflows (finalize, payment), by request id, until their requests take them. */
const answers = new Map<string, unknown>();
const answering = new Set<string>();

/** What an invoice workflow is asked: the request, by its start input or by a signal when it runs already, and the answer signal it sends back. */
interface InvoiceRequest<R extends { requestId: string }, A> {
  request: R;
  signal: SignalDefinition<[R]>;
  withStart: (request: R) => Partial<InvoiceWorkflowInput>;
  answered: SignalDefinition<[A]>;
}

/**
 * A move asked of the invoice's workflow, which cannot be sent an update from here: the request
 * rides on its start (one child start, the move the run's first) or, when it runs already
 * (`running`: the activity found it; else learnt from the start refused), on a signal; either way the
 * invoice workflow signals the answer back (same request id) and this waits for it, so the step that
 * asked ends once the move ran. Null when the invoice workflow completed (Paid, Void): nothing was asked.
 */
async function askInvoiceWorkflow<R extends { requestId: string }, A extends { requestId: string }>(invoice: InvoiceWorkflowFacts, running: boolean, ask: InvoiceRequest<R, A>): Promise<A | null> {
  const { request } = ask;
  const signal = async (): Promise<boolean> => {
    try {
      await getExternalWorkflowHandle(invoiceWorkflowId(invoice.invoiceId)).signal(ask.signal, request);
      return true;
    } catch (err) {
      log.info('request not delivered: the invoice workflow does not run', { invoiceId: invoice.invoiceId, signal: ask.signal.name, error: String(err) });
      return false;
    }
  };
  const sent =
    (running && (await signal())) ||
    (await startInvoiceUnlessRunning(invoice, { invoiceId: invoice.invoiceId, status: invoice.status, ...ask.withStart(request) })) ||
    (await signal());
  if (!sent) return null;
  await condition(() => answers.has(request.requestId));
  const answer = answers.get(request.requestId) as A;
  answers.delete(request.requestId);
  return answer;
}

/** A request to an invoice workflow (its id fresh, its answers taken by this workflow from now on). */
function requestOf<A extends { requestId: string }>(answered: SignalDefinition<[A]>): { requestId: string; replyTo: string } {
  if (!answering.has(answered.name)) {
    setHandler(answered, (answer: A) => void answers.set(answer.requestId, answer));
    answering.add(answered.name);
  }
  return { requestId: uuid4(), replyTo: workflowInfo().workflowId };
}

/**
 * A finalize asked of the invoice's workflow (see askInvoiceWorkflow); the step that asked ends once
 * the invoice is finalized (and charged) or the finalize was refused.
 */
async function finalizeThroughInvoiceWorkflow(invoice: InvoiceWorkflowFacts, command: FinalizeInvoiceCommand, running: boolean): Promise<void> {
  const answer = await askInvoiceWorkflow(invoice, running, {
    request: { ...requestOf(finalizeAnsweredSignal), command },
    signal: finalizeRequestSignal,
    withStart: (finalize) => ({ finalize }),
    answered: finalizeAnsweredSignal,
  });
  // A billing failure is the invoice's to hold (its billing_error, retried by an operator there).
  if (answer !== null && answer.failed !== null) log.warn('finalize through the invoice workflow failed; the invoice holds it', { invoiceId: invoice.invoiceId, failed: answer.failed });
}

/**
 * A payment move (a dunning retry's charge, a processor notification) asked of the invoice's workflow
 * (see askInvoiceWorkflow), answered with its result or why it refused or failed.
 */
function paymentThroughInvoiceWorkflow(invoice: InvoiceWorkflowFacts, command: InvoicePaymentCommand, running: boolean): Promise<PaymentAnswer | null> {
  return askInvoiceWorkflow(invoice, running, {
    request: { ...requestOf(paymentAnsweredSignal), command },
    signal: paymentRequestSignal,
    withStart: (payment) => ({ payment }),
    answered: paymentAnsweredSignal,
  });
}

/** Starts the invoice's workflow as a child that outlives this one; false when it runs already or completed (never started again). */
async function startInvoiceUnlessRunning(invoice: InvoiceWorkflowFacts, input: InvoiceWorkflowInput): Promise<boolean> {
  return startChildUnlessRunning('invoiceWorkflow', {
    workflowId: invoiceWorkflowId(invoice.invoiceId),
    args: [input],
    taskQueue: `${subscriptionTaskQueueOf(workflowInfo().taskQueue)}${TASK_QUEUE_SUFFIXES.invoices}`,
    parentClosePolicy: ParentClosePolicy.ABANDON,
    workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
    ...invoiceWorkflowAbout(invoice),
  });
}

/** Starts a child on the subscription task queue that outlives this workflow; one that runs already (or, by its reuse policy, ran) is kept. */
async function startUnlessRunning(
  workflowType: string,
  workflowId: string,
  args: unknown[],
  about: { customerId: string; testClockId?: string | null },
  workflowIdReusePolicy: WorkflowIdReusePolicy,
): Promise<void> {
  await startChildUnlessRunning(workflowType, {
    workflowId,
    args,
    taskQueue: subscriptionTaskQueueOf(workflowInfo().taskQueue),
    parentClosePolicy: ParentClosePolicy.ABANDON,
    workflowIdReusePolicy,
    typedSearchAttributes: workflowSearchAttributes(about),
  });
}

/** Starts a child; false when its id runs already (or, by its reuse policy, ran). */
async function startChildUnlessRunning(workflowType: string, options: ChildWorkflowOptions & { workflowId: string; args: unknown[] }): Promise<boolean> {
  try {
    await startChild(workflowType, options);
    return true;
  } catch (err) {
    // @temporalio/common's WorkflowExecutionAlreadyStartedError, known by its name (workflows import only the workflow package).
    if (!(err instanceof Error && err.name === 'WorkflowExecutionAlreadyStartedError')) throw err;
    return false;
  }
}

/** A signal the target cannot take because it ended (or never ran) is dropped, as the gateway does. */
async function signalUnlessGone(workflowId: string, signal: () => Promise<void>): Promise<void> {
  try {
    await signal();
  } catch (err) {
    log.info('follow-up signal not delivered: the workflow is not running', { workflowId, error: String(err) });
  }
}
