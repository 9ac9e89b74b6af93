/**
 * Follow-ups: what a service's step asks of other workflows once it committed (start one, signal
 * one). Called from the API, a service runs them at once through the gateway; called from a
 * workflow's activity, it hands them back in the activity's result, and the workflow runs them
 * itself (./index.ts): activities never drive other workflows, and the workflow's history shows
 * every start and signal it caused.
 */
import type { ContractWorkflowInput } from '../contract/messages.js';
import type { DunningState, DunningWorkflowInput } from '../dunning/messages.js';
import type { FinalizeInvoiceCommand, InvoicePaymentCommand, InvoiceWorkflowFacts } from '../invoice/messages.js';
import type { PaymentOutcomeSignal } from '../subscription/messages.js';

export type FollowUp =
  /** A Pending auto-recharge top-up gets its workflow (`wallet-recharge:<top-up id>`); a top-up that has one keeps it. */
  | { kind: 'start_wallet_recharge'; topUpId: string; customerId: string }
  /** A dunning schedule gets its workflow (`dunning:<invoice id>`); a running one is kept. */
  | { kind: 'start_dunning'; input: DunningWorkflowInput; customerId: string; testClockId: string | null }
  /** A contract gets its workflow (`contract:<id>`); a running one is kept. */
  | { kind: 'start_contract'; input: ContractWorkflowInput; customerId: string; testClockId: string | null }
  /** A processor notification gets its workflow (`processor-event:<event id>`); one that ever ran is not started again. */
  | { kind: 'start_processor_event'; eventId: string }
  /** A subscription's workflow is told how an invoice's payment ended; an ended workflow needs nothing. */
  | { kind: 'payment_outcome'; subscriptionId: string; outcome: PaymentOutcomeSignal }
  /** A dunning workflow is told its schedule closed; an ended workflow needs nothing. */
  | { kind: 'dunning_closed'; invoiceId: string; state: DunningState }
  /**
   * An invoice gets its workflow (`invoice:<id>`); a running one is kept, a completed one (Paid, Void)
   * is not started again. `lean`: for an invoice finalized without it (see InvoiceWorkflowInput).
   */
  | { kind: 'start_invoice'; invoice: InvoiceWorkflowFacts; lean?: true }
  /**
   * A Draft is finalized through its workflow (started with the request when it does not run yet) and
   * the asking workflow waits for the answer (workflows/follow-ups/index.ts); through the gateway, the
   * `finalizeInvoice` update.
   */
  | { kind: 'finalize_invoice'; invoice: InvoiceWorkflowFacts; command: FinalizeInvoiceCommand; /** Its workflow was found running: the request goes by signal, without a start. */ running?: true }
  /**
   * A payment move (a dunning retry's charge, a processor notification) asked of the invoice's workflow
   * (started with the request when it does not run yet); the asking workflow waits for the answer and
   * hands it to its next step (workflows/follow-ups/index.ts). Through the gateway, the `invoicePayment` update.
   */
  | { kind: 'invoice_payment'; invoice: InvoiceWorkflowFacts; command: InvoicePaymentCommand; /** Its workflow was found: the request goes by signal first. */ running?: true };

/** An activity's result with the follow-ups its workflow runs after it (absent in histories recorded before they existed). */
export type WithFollowUps<T> = T & { followUps?: FollowUp[] };
