/**
 * The workflow ids of the resources an operator looks at (the operator views link each to its
 * workflow in the Temporal UI): built by the same functions the gateway starts them with.
 */
import { contractWorkflowId } from '../../../workflows/contract/messages.js';
import { dunningWorkflowId } from '../../../workflows/dunning/messages.js';
import { invoiceWorkflowId } from '../../../workflows/invoice/messages.js';
import { processorEventWorkflowId } from '../../../workflows/processor-event/messages.js';
import { CUSTOMER_ID_ATTRIBUTE } from '../../../workflows/shared/messages.js';
import { spendAlertWorkflowId } from '../../../workflows/spend-alerts/messages.js';
import { subscriptionWorkflowId } from '../../../workflows/subscription/messages.js';
import { testClockAdvanceWorkflowId } from '../../../workflows/test-clock-advance/messages.js';
import { walletRechargeWorkflowId } from '../../../workflows/wallet-recharge/messages.js';

/** By the resource's kind and id (a dunning schedule by its invoice's id, a wallet recharge by its top-up's id). */
export const WORKFLOW_ID_OF = {
  subscription: subscriptionWorkflowId,
  invoice: invoiceWorkflowId,
  dunning_schedule: dunningWorkflowId,
  contract: contractWorkflowId,
  processor_event: processorEventWorkflowId,
  wallet_top_up: walletRechargeWorkflowId,
  spend_alerts: spendAlertWorkflowId,
  test_clock_advance: testClockAdvanceWorkflowId,
} as const;

export type WorkflowKind = keyof typeof WORKFLOW_ID_OF;

/** The search attribute every workflow of a customer carries (a visibility query finds them all). */
export const CUSTOMER_ID_SEARCH_ATTRIBUTE = CUSTOMER_ID_ATTRIBUTE.name;
