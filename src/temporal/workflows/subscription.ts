/**
 * The subscription workflow (`subscription:<id>`, on the subscription task queue): its start after
 * the subscription row commits, the commands sent to it as updates, and the payment outcomes and
 * stored usage (progressive billing) signalled to it.
 */
import type { SubscriptionCommand } from '../../../workflows/shared/messages.js';
import { alignToContractUpdate, type BillNowResult, billSubscriptionUpdate, cancelSubscriptionUpdate, type ChangePlanCommand, changePlanUpdate, pauseSubscriptionUpdate, paymentOutcomeSignal, type PaymentOutcomeSignal, resumeSubscriptionUpdate, retrySubscriptionBillingUpdate, type SubscriptionSnapshot, subscriptionWorkflowId, type SubscriptionWorkflowInput, usageAccruedSignal } from '../../../workflows/subscription/messages.js';
import { withTemporalDeadline } from '../client.js';
import { startedUnlessTaken, unlessWorkflowGone, type TemporalGateway } from '../gateway.js';
import { workflowSearchAttributes } from '../search-attributes.js';
import { runUpdate } from '../updates.js';

const handleOf = (gateway: TemporalGateway, subscriptionId: string) => gateway.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId));

/**
 * Starts the subscription's workflow within the API's Temporal deadline; a workflow already started
 * (running, or ended: never a second run of a subscription) counts as started.
 */
export async function startSubscriptionWorkflow(
  gateway: TemporalGateway,
  input: SubscriptionWorkflowInput,
  about: { customerId: string; planId: string; status: string; testClockId: string | null },
): Promise<void> {
  await startedUnlessTaken(() =>
    withTemporalDeadline(gateway, () =>
      gateway.client.workflow.start('subscriptionWorkflow', {
        workflowId: subscriptionWorkflowId(input.subscriptionId),
        taskQueue: gateway.taskQueue,
        args: [input],
        memo: { customer_id: about.customerId, plan_id: about.planId },
        typedSearchAttributes: workflowSearchAttributes({ customerId: about.customerId, subscriptionId: input.subscriptionId, status: about.status, testClockId: about.testClockId }),
        // Never a second run of a subscription whose workflow ran already (an Expired one has ended).
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      }),
    ),
  );
}

const MOVES = { pause: pauseSubscriptionUpdate, resume: resumeSubscriptionUpdate, cancel: cancelSubscriptionUpdate } as const;
export type SubscriptionMove = keyof typeof MOVES;

/** Pause, resume or cancel; a move the subscription cannot make is refused (409). */
export function moveSubscriptionWorkflow(gateway: TemporalGateway, subscriptionId: string, move: SubscriptionMove, command: SubscriptionCommand): Promise<SubscriptionSnapshot> {
  return runUpdate('subscription', () => handleOf(gateway, subscriptionId).executeUpdate(MOVES[move], { args: [command] }));
}

/** Bills the current period to the command's time into the subscription's Draft. */
export function billSubscriptionNow(gateway: TemporalGateway, subscriptionId: string, command: SubscriptionCommand): Promise<BillNowResult> {
  return runUpdate('subscription', () => handleOf(gateway, subscriptionId).executeUpdate(billSubscriptionUpdate, { args: [command] }));
}

/** Changes the subscription's plan (or plan version) at the command's time. */
export function changeSubscriptionPlanNow(gateway: TemporalGateway, subscriptionId: string, change: ChangePlanCommand): Promise<BillNowResult> {
  return runUpdate('subscription', () => handleOf(gateway, subscriptionId).executeUpdate(changePlanUpdate, { args: [change] }));
}

/** Moves the subscription onto its contract's term (co-term alignment). */
export function alignSubscriptionToContract(gateway: TemporalGateway, subscriptionId: string, command: SubscriptionCommand): Promise<SubscriptionSnapshot> {
  return runUpdate('subscription', () => handleOf(gateway, subscriptionId).executeUpdate(alignToContractUpdate, { args: [command] }));
}

/** An operator's retry of the held step (docs/failures.md). */
export function retrySubscriptionStep(gateway: TemporalGateway, subscriptionId: string, command: SubscriptionCommand): Promise<SubscriptionSnapshot> {
  return runUpdate('subscription', () => handleOf(gateway, subscriptionId).executeUpdate(retrySubscriptionBillingUpdate, { args: [command] }));
}

/** Tells the subscription how a payment of its invoice ended; a workflow that has ended has nothing left to change. */
export async function signalPaymentOutcome(gateway: TemporalGateway, subscriptionId: string, outcome: PaymentOutcomeSignal): Promise<void> {
  await unlessWorkflowGone(() => handleOf(gateway, subscriptionId).signal(paymentOutcomeSignal, outcome), undefined);
}

/** Tells a subscription with a progressive threshold that usage was stored for it at the customer's time `at`; an ended workflow has nothing to check. */
export async function signalUsageAccrued(gateway: TemporalGateway, subscriptionId: string, at: Date): Promise<void> {
  await unlessWorkflowGone(() => withTemporalDeadline(gateway, () => handleOf(gateway, subscriptionId).signal(usageAccruedSignal, { at: at.toISOString() })), undefined);
}
