/**
 * One workflow per invoice (id `invoice:<uuid>`, on the invoice task queue): Draft → Open →
 * Paid | Void (SPEC §3). Finalize, pay and void are updates; their validators reject moves the
 * state machine does not allow before anything is recorded, and each accepted move is one activity
 * transaction (row, gapless number, outbox event, audit entry). Concurrent moves are serialised and
 * each is re-checked when its turn comes. The workflow ends when the invoice is Paid or Void.
 *
 * Collection (SPEC §4 rule 4): once finalized, an invoice whose payer has a default payment method is
 * charged. A period close's finalization charges in the same update (its step sees the outcome); the
 * API's (`chargeAfterAnswer`, patch CHARGE_AFTER_FINALIZE_ANSWER_PATCH) answers the invoice as it
 * stands finalized, Open (SPEC §4), and the workflow charges it right after. `invoicePayment`
 * charges an Open invoice again (a charge on demand), captures an authorised payment, or applies a
 * processor notification; each is one activity under the same lock. Other workflows, which cannot
 * send updates, ask for the same moves by a request (the start input or the `paymentRequest`
 * signal) answered by a signal (patch INVOICE_PAYMENT_REQUESTS_PATCH): the dunning workflow's
 * retries and the processor-event workflow's notifications.
 *
 * Documents (issue 19): once the invoice is issued, an activity renders and stores its PDF, and
 * again when it ends Paid or Void (each state's document is stored once: a repeat changes nothing).
 */
import { allHandlersFinished, condition, patched } from '@temporalio/workflow';
import type { InvoiceOutcome, InvoiceWorkflowInput } from './messages.js';
import { DOCUMENT_PATCH } from './patches.js';
import { InvoiceRun } from './run.js';

export { AUTO_CHARGE_PATCH, CHARGE_AFTER_FINALIZE_ANSWER_PATCH, DOCUMENT_PATCH, INVOICE_BILLING_ERRORS_PATCH, INVOICE_SEARCH_ATTRIBUTES_PATCH } from './patches.js';

export async function invoiceWorkflow(input: InvoiceWorkflowInput): Promise<InvoiceOutcome> {
  const run = new InvoiceRun(input);
  run.registerHandlers();

  // A finalize another workflow asked for with the start (a period close's) is the first move.
  if (input.finalize !== undefined) await run.answerFinalize(input.finalize);
  // So is a payment another workflow asked for with the start (a dunning retry's charge, a processor notification).
  if (input.payment !== undefined) await run.answerPayment(input.payment);
  // Issued: finalized by an update (the API's), a request (a period close's) or started Open.
  await condition(() => run.state.status !== 'Draft');
  if (run.chargeAfterFinalize !== null) await run.chargeAfterAnswer(run.chargeAfterFinalize);
  // Off the finalize update's path: the document is rendered once the invoice is issued.
  // A lean run (see InvoiceWorkflowInput) leaves documents to the API.
  const documents = input.lean !== true && patched(DOCUMENT_PATCH);
  if (documents) await run.renderDocument();
  await condition(() => run.state.status === 'Paid' || run.state.status === 'Void');
  await condition(allHandlersFinished);
  // The final edition, PAID or VOID (already stored when finalizing charged the invoice at once: a no-op then).
  if (documents) await run.renderDocument();
  return run.state;
}
