/**
 * Messages every workflow shares: the command an operator or the API sends (its actor), the failure
 * types activities fail with and the retry schedule, the billing_error a held step shows, the custom
 * search attributes, and the `nextWakeAt` query test clocks step by.
 * Timestamps cross the boundary as ISO strings; money as decimal strings.
 */
import { defineSearchAttributeKey, SearchAttributeType, type RetryPolicy, type SearchAttributePair } from '@temporalio/common';
import { defineQuery, defineSignal } from '@temporalio/workflow';

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
/** A price simulation's id and its status (running, cancelling, completed, cancelled, failed): the simulation workflow's. */
export const SIMULATION_ID_ATTRIBUTE = defineSearchAttributeKey('SimulationId', SearchAttributeType.KEYWORD);
export const SIMULATION_STATUS_ATTRIBUTE = defineSearchAttributeKey('SimulationStatus', SearchAttributeType.KEYWORD);
export const SEARCH_ATTRIBUTE_KEYS = [
  CUSTOMER_ID_ATTRIBUTE,
  SUBSCRIPTION_ID_ATTRIBUTE,
  INVOICE_NUMBER_ATTRIBUTE,
  BILLING_STATUS_ATTRIBUTE,
  TEST_CLOCK_ID_ATTRIBUTE,
  SIMULATION_ID_ATTRIBUTE,
  SIMULATION_STATUS_ATTRIBUTE,
] as const;

/** What a workflow is about; absent or null values are left unset. */
export interface WorkflowSearchValues {
  customerId?: string | null;
  subscriptionId?: string | null;
  invoiceNumber?: string | null;
  status?: string | null;
  testClockId?: string | null;
}

/** The typed search attributes a workflow starts with (the gateway's starts and a workflow's child starts). */
export function workflowSearchAttributes(values: WorkflowSearchValues): SearchAttributePair[] {
  const pairs: [typeof CUSTOMER_ID_ATTRIBUTE, string | null | undefined][] = [
    [CUSTOMER_ID_ATTRIBUTE, values.customerId],
    [SUBSCRIPTION_ID_ATTRIBUTE, values.subscriptionId],
    [INVOICE_NUMBER_ATTRIBUTE, values.invoiceNumber],
    [BILLING_STATUS_ATTRIBUTE, values.status],
    [TEST_CLOCK_ID_ATTRIBUTE, values.testClockId],
  ];
  return pairs.filter((pair): pair is [typeof CUSTOMER_ID_ATTRIBUTE, string] => typeof pair[1] === 'string').map(([key, value]) => ({ key, value }));
}

/**
 * Task queues: the subscription queue (TEMPORAL_TASK_QUEUE) and the queues named after it, one per
 * kind of work that must never wait for another's slots (src/temporal/task-queues.ts says why).
 */
export const TASK_QUEUE_SUFFIXES = { invoices: '-invoices', webhooks: '-webhooks', testClocks: '-test-clocks', simulations: '-simulations' } as const;

/** The subscription queue a queue is named after (a workflow finds it from its own queue). */
export const subscriptionTaskQueueOf = (taskQueue: string): string => {
  for (const suffix of Object.values(TASK_QUEUE_SUFFIXES)) if (taskQueue.endsWith(suffix)) return taskQueue.slice(0, -suffix.length);
  return taskQueue;
};

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

/** When the workflow next has something to do on its own (ISO), or null: test clocks advance in these steps. */
export const nextWakeQuery = defineQuery<string | null>('nextWakeAt');

/**
 * A test-clock step asked by signal (the advance workflow's drive, which cannot send updates): the
 * clock's time `at`, the time the advance reaches (`through`), the request's `key` (one per
 * workflow, step, pass and run) and the workflow to answer (`replyTo`). The driven workflow does what
 * its `advanceTestClock` update does, then signals `clockAdvanced` back with the same key.
 */
export interface ClockAdvanceRequest {
  at: string;
  through: string;
  key: string;
  replyTo: string;
}

/**
 * The answer to a `clockAdvance` request: `caughtUp` false when the run is continuing as new (ask
 * again: the next run takes the same time), the next wake when the update's answer carries one
 * (subscriptions), `refused` when the workflow is not on a test clock (the update's validator).
 */
export interface ClockAdvanceAnswer {
  key: string;
  caughtUp: boolean;
  nextWakeAt?: string | null;
  refused?: string;
}

export const clockAdvanceSignal = defineSignal<[ClockAdvanceRequest]>('clockAdvance');
export const clockAdvancedSignal = defineSignal<[ClockAdvanceAnswer]>('clockAdvanced');

/**
 * An item of a scheduled run (a dunning schedule, a notification, a contract, a coterm link, a customer) whose
 * work failed deterministically: logged and listed in the run's summary, the other items proceed,
 * and the next run tries it again.
 */
export interface FailedRunItem {
  /** What the item is: `dunning_schedule` (id: its invoice's), `processor_event`, `contract`, `coterm_link` (id: its subscription's) or `customer` (the usage event retention's). */
  kind: 'dunning_schedule' | 'processor_event' | 'contract' | 'coterm_link' | 'customer';
  id: string;
  /** The failure as an operator reads it (src/services/failures/taxonomy.ts describeFailure). */
  message: string;
}
