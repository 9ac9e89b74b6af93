/**
 * Message definitions shared by workflows and the API (which must never import workflow code).
 * Timestamps cross the boundary as ISO strings; money as decimal strings.
 */
import { defineSearchAttributeKey, SearchAttributeType, type RetryPolicy } from '@temporalio/common';
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';

/**
 * Custom search attributes (all Keyword) the workflows carry so operators find them in the Temporal
 * UI and the visibility API: set at start where the value is known, upserted by the workflow when
 * its status changes. Every Temporal server the project runs registers them (src/temporal/search-attributes.ts).
 */
export const CUSTOMER_ID_ATTRIBUTE = defineSearchAttributeKey('CustomerId', SearchAttributeType.KEYWORD);
export const SUBSCRIPTION_ID_ATTRIBUTE = defineSearchAttributeKey('SubscriptionId', SearchAttributeType.KEYWORD);
export const INVOICE_NUMBER_ATTRIBUTE = defineSearchAttributeKey('InvoiceNumber', SearchAttributeType.KEYWORD);
/** The subscription's or invoice's own status (SPEC §3), not the workflow's ExecutionStatus. */
export const BILLING_STATUS_ATTRIBUTE = defineSearchAttributeKey('BillingStatus', SearchAttributeType.KEYWORD);
export const TEST_CLOCK_ID_ATTRIBUTE = defineSearchAttributeKey('TestClockId', SearchAttributeType.KEYWORD);
export const SEARCH_ATTRIBUTE_KEYS = [CUSTOMER_ID_ATTRIBUTE, SUBSCRIPTION_ID_ATTRIBUTE, INVOICE_NUMBER_ATTRIBUTE, BILLING_STATUS_ATTRIBUTE, TEST_CLOCK_ID_ATTRIBUTE] as const;

export type SubscriptionStatus = 'Trialing' | 'Active' | 'PastDue' | 'Paused' | 'Cancelled' | 'Expired';

export interface ActorRef {
  type: 'admin' | 'customer' | 'api_key' | 'workflow' | 'system';
  id: string;
}

export interface SubscriptionCommand {
  actor: ActorRef;
  reason?: string;
  requestId?: string;
  /** Business time of a command the system issues (e.g. a period close), ISO; else the entity's now. */
  at?: string;
}

export interface SubscriptionSnapshot {
  status: SubscriptionStatus;
  periodStart: string;
  periodEnd: string;
  trialEnd: string | null;
}

/** A billed period whose invoice is finalized once its grace period is over. */
export interface PendingClose {
  periodStart: string;
  periodEnd: string;
  finalizeAt: string;
}

export interface SubscriptionWorkflowInput extends SubscriptionSnapshot {
  subscriptionId: string;
  /** Present for subscriptions on a test clock: their time only moves when the clock advances. */
  testClock: { id: string; now: string } | null;
  /** Progressive billing: how often (ms of subscription time) accrued charges are checked; null = never. */
  progressiveCheckEveryMs: number | null;
  /** Closed periods waiting for their grace period to end (carried across continue-as-new). */
  pendingCloses: PendingClose[];
}

/** Answer of the clock-advance update: caughtUp=false means the run continued as new; ask again. */
export interface ClockAdvanceResult {
  caughtUp: boolean;
  status: SubscriptionStatus;
  /**
   * What the `nextWakeAt` query would answer once caught up, so a test-clock drive needs no query
   * before its next step. Absent in answers recorded before it was added.
   */
  nextWakeAt?: string | null;
}

/** Failure type of an update rejected because the state machine does not allow it. */
export const INVALID_TRANSITION = 'InvalidTransition';
/**
 * Failure type of an update refused because its run is about to continue as new (a run accepts no
 * more commands then, or a steady stream of them would keep it from ever continuing): send it again,
 * the next run takes it.
 */
export const CONTINUING_AS_NEW = 'ContinuingAsNew';
/** Failure types of activities refused by a domain rule: retrying them can never succeed. */
export const NOT_FOUND = 'NotFound';
export const UNPROCESSABLE = 'Unprocessable';
/** Failure type of an activity whose dependency (the payment processor) is down: retried. */
export const UNAVAILABLE = 'Unavailable';
/**
 * Failure type of an activity that failed in a way no retry can fix (a core validation error, a
 * numeric overflow, a broken invariant): never retried; the workflow records a billing_error.
 */
export const DETERMINISTIC_FAILURE = 'DeterministicFailure';

/** Details of a DeterministicFailure: the original error, as an operator reads it. */
export interface FailureDetails {
  failure: { name: string; code: string | null; message: string };
}

/**
 * Retry schedule of activities: transient failures are retried with exponential backoff (1 s doubling
 * up to 1 min), 20 attempts in all (about 15 minutes); then the failure is recorded like a
 * deterministic one. The failure types listed are never retried.
 */
export const ACTIVITY_RETRY: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
  maximumAttempts: 20,
  nonRetryableErrorTypes: [INVALID_TRANSITION, NOT_FOUND, UNPROCESSABLE, DETERMINISTIC_FAILURE],
};

/** Failure type of an operator's retry when the resource has no billing error to retry. */
export const NO_BILLING_ERROR = 'NoBillingError';

/** A step of a workflow that failed and waits for an operator: shown as `billing_error` on the resource. */
export interface BillingErrorState {
  /** What the workflow was doing: `close_period`, `finalize_invoice`, `finalize`, … */
  step: string;
  /** DeterministicFailure, Unprocessable, NotFound, … or RetriesExhausted for a transient failure that outlasted its schedule. */
  type: string;
  message: string;
  /** When it failed (the entity's time, ISO). */
  failedAt: string;
}

export const pauseSubscriptionUpdate = defineUpdate<SubscriptionSnapshot, [SubscriptionCommand]>('pauseSubscription');
export const resumeSubscriptionUpdate = defineUpdate<SubscriptionSnapshot, [SubscriptionCommand]>('resumeSubscription');
export const cancelSubscriptionUpdate = defineUpdate<SubscriptionSnapshot, [SubscriptionCommand]>('cancelSubscription');
/**
 * A test-clock step: the clock's time `to` and, from drives that send it, the time the whole advance
 * reaches (`through`), which lets a period close finalize a Draft whose grace ends within the advance.
 */
export const advanceClockUpdate = defineUpdate<ClockAdvanceResult, [to: string, through?: string]>('advanceTestClock');
/**
 * An operator's retry of the step that failed with a billing_error: clears it, and answers once the
 * step ran again (done, or failed again with a new billing_error).
 */
export const retrySubscriptionBillingUpdate = defineUpdate<SubscriptionSnapshot, [SubscriptionCommand]>('retrySubscriptionBilling');
export const subscriptionStateQuery = defineQuery<SubscriptionSnapshot>('subscriptionState');
/** When the workflow next has something to do on its own (ISO), or null: test clocks advance in these steps. */
export const nextWakeQuery = defineQuery<string | null>('nextWakeAt');

export const subscriptionWorkflowId = (subscriptionId: string): string => `subscription:${subscriptionId}`;

export type InvoiceStatus = 'Draft' | 'Open' | 'Paid' | 'Void';

export interface InvoiceWorkflowInput {
  invoiceId: string;
  status: InvoiceStatus;
  /**
   * Started for an invoice the period close finalized itself (activities/invoices.ts
   * finalizePeriodInvoice): the workflow renders no document (the API renders it when first
   * requested) and upserts its search attributes without a patch marker. Absent in every run
   * started otherwise, and in runs recorded before it existed, which keep their commands.
   */
  lean?: true;
}

export interface InvoiceOutcome {
  status: InvoiceStatus;
  invoiceNumber: string | null;
}

export interface PayInvoiceCommand extends SubscriptionCommand {
  /** Who paid, as the caller reports it (SPEC: actor_id, actor_name); the audit actor is the caller. */
  paidBy: { actorId: string; actorName: string | null };
}

/** Finalize an invoice (Draft → Open). */
export interface FinalizeInvoiceCommand extends SubscriptionCommand {
  /**
   * The API's finalize: answer with the invoice as it stands finalized (`view`) and run the
   * auto-charge after the answer, instead of within the update (a period close's finalization).
   */
  chargeAfterAnswer?: boolean;
}

export interface FinalizedInvoice extends InvoiceOutcome {
  /** The invoice's API view (JSON) as it stood finalized; given when the command had chargeAfterAnswer. */
  view?: Record<string, unknown>;
}

export const finalizeInvoiceUpdate = defineUpdate<FinalizedInvoice, [FinalizeInvoiceCommand]>('finalizeInvoice');
export const payInvoiceUpdate = defineUpdate<InvoiceOutcome, [PayInvoiceCommand]>('payInvoice');
export const voidInvoiceUpdate = defineUpdate<InvoiceOutcome, [SubscriptionCommand]>('voidInvoice');
export const invoiceStateQuery = defineQuery<InvoiceOutcome>('invoiceState');
/** An operator's retry of the move that failed with a billing_error: clears it and runs the move again. */
export const retryInvoiceBillingUpdate = defineUpdate<InvoiceOutcome, [SubscriptionCommand]>('retryInvoiceBilling');

export const invoiceWorkflowId = (invoiceId: string): string => `invoice:${invoiceId}`;

/** Subscription-level billing commands (bill now, change plan). */
export interface BillNowResult {
  invoiceId: string | null;
  /** True when this call opened the Draft, false when it refreshed one. */
  created: boolean;
}

export interface ChangePlanCommand extends SubscriptionCommand {
  planId: string;
  /**
   * The plan version to move to; absent: the plan's current version. Only the activity reads it
   * (the workflow passes the command through), so older histories replay unchanged.
   */
  planVersion?: number;
}

export const billSubscriptionUpdate = defineUpdate<BillNowResult, [SubscriptionCommand]>('billSubscription');
/**
 * Coterm adoption: realign the subscription's periods to end on its contract's end date (the period
 * in course is cut short and closed, a stub runs to the first aligned boundary).
 */
export const alignToContractUpdate = defineUpdate<SubscriptionSnapshot, [SubscriptionCommand]>('alignToContract');
export const changePlanUpdate = defineUpdate<BillNowResult, [ChangePlanCommand]>('changePlan');

// ── Contracts ──

export type ContractStatus = 'Draft' | 'Active' | 'Amended' | 'Expired' | 'Terminated';

export interface ContractWorkflowInput {
  contractId: string;
  /** Present for contracts of a customer on a test clock: their time only moves when the clock advances. */
  testClock: { id: string; now: string } | null;
}

export interface ContractSnapshot {
  status: ContractStatus;
  /** When the contract next has something due (ISO), or null once it left Active and owes no phase true-up. */
  nextWakeAt: string | null;
}

/** The contract changed outside its workflow (amended, terminated): look at it again. */
export const contractChangedSignal = defineSignal('contractChanged');
/**
 * An operator's retry of the contract step that failed with a billing_error: clears it, and answers
 * once the step ran again (done, or failed again with a new billing_error).
 */
export const retryContractUpdate = defineUpdate<ContractSnapshot, [SubscriptionCommand]>('retryContract');
export const contractStateQuery = defineQuery<ContractSnapshot>('contractState');
/** The test-clock advance of contract workflows: the same update name as subscriptions', so one advance drives both. */
export const contractAdvanceClockUpdate = defineUpdate<{ caughtUp: boolean; status: ContractStatus }, [string]>('advanceTestClock');

export const contractWorkflowId = (contractId: string): string => `contract:${contractId}`;
/** The Temporal Schedule of the contract workflow reconciler (src/services/contracts/reconcile.ts). */
export const CONTRACT_RECONCILE_SCHEDULE_ID = 'contract-workflows-reconcile';

/** The Temporal Schedule of the daily revenue recognition run (src/services/ledger/recognition.ts). */
export const REVENUE_RECOGNITION_SCHEDULE_ID = 'ledger-revenue-recognition';

/** The daily run that bills ended subscriptions' late usage on correction invoices. */
export const LATE_USAGE_CORRECTIONS_SCHEDULE_ID = 'late-usage-corrections';

export interface LateUsageCorrectionsSummary {
  /** The time the corrections are dated (ISO). */
  at: string;
  /** Ended subscriptions that had late usage not billed yet. */
  subscriptions: number;
  /** Correction invoices billed (and finalized) by this run. */
  invoices: string[];
  /** Subscriptions whose correction failed deterministically (logged; the next run tries again). */
  failed: string[];
}

export interface RevenueRecognitionSummary {
  /** Up to when steps were posted (ISO). */
  upTo: string;
  /** Customers with deferred revenue left to recognize. */
  customers: number;
  /** Recognition journals written by this run (0 when everything due was posted already). */
  journals: number;
  /** Customers whose recognition failed deterministically (logged; the next run tries again). */
  failed: string[];
}

/**
 * An item of a scheduled run (a dunning schedule, a notification, a contract, a coterm link) whose
 * work failed deterministically: logged and listed in the run's summary, the other items proceed,
 * and the next run tries it again.
 */
export interface FailedRunItem {
  /** What the item is: `dunning_schedule` (id: its invoice's), `processor_event`, `contract` or `coterm_link` (id: its subscription's). */
  kind: 'dunning_schedule' | 'processor_event' | 'contract' | 'coterm_link';
  id: string;
  /** The failure as an operator reads it (src/services/failures/taxonomy.ts describeFailure). */
  message: string;
}

export interface ContractReconcileSummary {
  /** Contracts whose workflow should be running. */
  checked: number;
  /** Subscriptions adopted with Coterm whose realignment was sent again (lost after the link's commit). */
  realigned: string[];
  /** Contracts whose missing workflow was started. */
  started: string[];
  /** Contracts whose workflow closed although it has work left: left to an operator. */
  closed: string[];
  /** Contracts and coterm links whose start or realignment failed deterministically (refused, or invalid data). */
  failed: FailedRunItem[];
}

/** What a daily dunning check did (src/services/payments/dunning.ts checkDueAttempts). */
export interface DunningCheckSummary {
  /** Active schedules whose retry was overdue. */
  overdue: number;
  /** Invoices whose schedule's workflow was started again. */
  redriven: string[];
  /** Stale notifications handed to a workflow. */
  notificationsRedriven: number;
  /** Schedules and notifications whose re-drive failed deterministically. */
  failed: FailedRunItem[];
}

/** Webhook delivery: one outbox event to one endpoint (SPEC §6). */
export interface WebhookDeliveryPolicy {
  /** Delay before each attempt, counted from the end of the previous one; its length is the attempt budget. */
  retryScheduleMs: number[];
  /** How long the receiver has to answer one attempt. */
  timeoutMs: number;
  /** Consecutive failed attempts that open the endpoint's circuit. */
  breakerThreshold: number;
  /** How long an open circuit suspends deliveries to the endpoint. */
  breakerOpenMs: number;
}

export interface WebhookDeliveryInput {
  deliveryId: string;
  eventId: string;
  endpointId: string;
  eventType: string;
  policy: WebhookDeliveryPolicy;
}

export type WebhookDeliveryStatus = 'Pending' | 'Delivered' | 'Failed';

/** What one call of the attempt activity did. */
export type WebhookAttemptResult =
  /** Sent: `delivered` when the receiver answered 2xx. */
  | { kind: 'attempted'; delivered: boolean; attempt: number }
  /** Not sent: the endpoint's circuit is open (or another delivery holds its probe) until retryAt (ISO). */
  | { kind: 'suspended'; retryAt: string }
  /** Not sent, and never will be: the endpoint was deleted or disabled, or the delivery is gone. */
  | { kind: 'gone' };

export interface WebhookDeliveryOutcome {
  status: WebhookDeliveryStatus | 'Cancelled';
  /** Attempts this run made. */
  attempts: number;
}

/** Readable in the Temporal UI, and unique per (event, endpoint): a relay restart never sends twice. */
export const webhookDeliveryWorkflowId = (eventId: string, endpointId: string): string => `webhook:${eventId}:${endpointId}`;

// ── Payments and dunning ──

export type PaymentStatus = 'Pending' | 'RequiresCapture' | 'Succeeded' | 'Failed' | 'Canceled';
export type DunningStatus = 'Active' | 'Resolved' | 'Exhausted';

/** Charge an Open invoice through the processor (auto-charge, dunning retry or on demand). */
export interface ChargeInvoiceCommand extends SubscriptionCommand {
  kind: 'charge';
  /** What asks for the charge, once per invoice: a retried request finds its first payment. */
  requestKey: string;
  source: 'auto_charge' | 'dunning' | 'on_demand';
  dunningAttempt?: number;
  /** A payment method of the payer (its id); the payer's default when absent. */
  paymentMethodId?: string;
  captureMethod?: 'automatic' | 'manual';
}

export interface CaptureInvoicePaymentCommand extends SubscriptionCommand {
  kind: 'capture';
}

/** Apply a stored processor notification about one of the invoice's payments. */
export interface PaymentNotificationCommand {
  kind: 'notification';
  eventId: string;
}

export type InvoicePaymentCommand = ChargeInvoiceCommand | CaptureInvoicePaymentCommand | PaymentNotificationCommand;

export interface InvoicePaymentResult {
  invoice: InvoiceOutcome;
  paymentId: string | null;
  paymentStatus: PaymentStatus | null;
}

export const invoicePaymentUpdate = defineUpdate<InvoicePaymentResult, [InvoicePaymentCommand]>('invoicePayment');

/**
 * To a subscription workflow: one of its invoices' payment failed, or its arrears were settled, or
 * (`paid`, sent to Trialing subscriptions only) one of its invoices was paid, which ends the trial.
 */
export interface PaymentOutcomeSignal {
  invoiceId: string;
  outcome: 'failed' | 'settled' | 'paid';
  /** When it was paid (ISO, the invoice's test-clock time when it has one); sent with `paid`. */
  at?: string;
}

export const paymentOutcomeSignal = defineSignal<[PaymentOutcomeSignal]>('paymentOutcome');

export interface DunningWorkflowInput {
  invoiceId: string;
  /** When the payment failed (ISO): retries are due the schedule's days after it. */
  failedAt: string;
  scheduleDays: number[];
  /** Retries already made (a re-driven schedule continues where it stopped). */
  attemptCount: number;
  testClock: { id: string; now: string } | null;
}

export interface DunningState {
  status: DunningStatus;
  attemptCount: number;
}

/** The schedule was closed from outside its workflow (payment collected, invoice paid or voided). */
export const dunningClosedSignal = defineSignal<[DunningState]>('dunningClosed');
export const dunningStateQuery = defineQuery<DunningState>('dunningState');
/** The test-clock advance of a dunning workflow: the same update name the test clock sends to subscriptions. */
export const advanceDunningClockUpdate = defineUpdate<{ caughtUp: boolean }, [string]>('advanceTestClock');
/**
 * An operator's retry of the dunning retry that failed with a billing_error: clears it, and answers
 * once it ran again (done, or failed again with a new billing_error).
 */
export const retryDunningUpdate = defineUpdate<DunningState, [SubscriptionCommand]>('retryDunning');

export const dunningWorkflowId = (invoiceId: string): string => `dunning:${invoiceId}`;
export const processorEventWorkflowId = (eventId: string): string => `processor-event:${eventId}`;
/**
 * An operator's retry of a processor notification whose application failed with a billing_error:
 * clears it, and answers once it ran again with what applying it did (e.g. payment_succeeded), or
 * null when it failed again with a new billing_error.
 */
export const retryProcessorEventUpdate = defineUpdate<string | null, [SubscriptionCommand]>('retryProcessorEvent');
/** The Temporal Schedule that runs the daily dunning check (check_due_attempts). */
export const DUNNING_CHECK_SCHEDULE_ID = 'dunning-check-due-attempts';

/** One auto-recharge of a wallet: charges the Pending top-up its threshold crossing recorded. */
export interface WalletRechargeInput {
  topUpId: string;
}

/** What became of the top-up: Succeeded, Failed, or Pending (the processor's notification decides). */
export interface WalletRechargeResult {
  topUpId: string;
  status: 'Pending' | 'Succeeded' | 'Failed';
}

/**
 * An operator's retry of the auto-recharge step that failed with a billing_error (recording the
 * top-up Failed): clears it, and answers once the step ran again (done, or failed again with a new
 * billing_error).
 */
export const retryWalletTopUpUpdate = defineUpdate<WalletRechargeResult | null, [SubscriptionCommand]>('retryWalletTopUp');

/** The processor settled a top-up whose workflow holds a billing_error: the hold ends with this status. */
export const walletTopUpSettledSignal = defineSignal<[{ status: 'Succeeded' | 'Failed' }]>('walletTopUpSettled');

export const walletRechargeWorkflowId = (topUpId: string): string => `wallet-recharge:${topUpId}`;
// ── Spend alerts ──

export interface SpendAlertWorkflowInput {
  customerId: string;
  /** Present for customers on a test clock: their time only moves when the clock advances. */
  testClock: { id: string; now: string } | null;
  /** A change signalled to the previous run and not evaluated yet (carried across continue-as-new). */
  pending: boolean;
  /** The period start the previous run was waiting for (its reset not done yet); absent on a first run. */
  nextPeriodStart?: string | null;
}

/** What an evaluation found: how many alerts are enabled, and when the next billing period starts (ISO). */
export interface SpendEvaluation {
  enabledAlerts: number;
  nextPeriodStart: string | null;
  /** A subscription's period has ended but not rolled yet: its new period's spend is not known yet. */
  awaitingRoll: boolean;
}

/** The customer's spend may have changed (usage recorded, an alert created or reset): evaluate soon. */
export const spendChangedSignal = defineSignal('spendChanged');
/** The test-clock advance of spend alert workflows: the same update name as subscriptions', so one advance drives both. */
export const spendAlertAdvanceClockUpdate = defineUpdate<{ caughtUp: boolean }, [string]>('advanceTestClock');

export const spendAlertWorkflowId = (customerId: string): string => `spend-alerts:${customerId}`;

/** One advance of a test clock (src/services/subscriptions/test-clocks.ts): from its previous time to `to`. */
export interface TestClockAdvanceInput {
  clockId: string;
  /** The clock's time before this advance (equal to `to` when an advance re-drives the clock at its time). */
  from: string;
  to: string;
  /** Wall time of the request: names this advance in the clock's row, so a later one is never overwritten. */
  startedAt: string;
}

/** What one advance drove. */
export interface TestClockAdvanceResult {
  subscriptions: number;
  steps: number;
  /** Set when the drive failed for good: the clock ended internal_failure with it (nothing counted then). */
  error?: BillingErrorState;
}

/** One advance workflow per clock at a time: a concurrent start finds it running. */
export const testClockAdvanceWorkflowId = (clockId: string): string => `test-clock-advance:${clockId}`;
