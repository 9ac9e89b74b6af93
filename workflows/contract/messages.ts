/**
 * Messages of the contract workflow (./index.ts): its input and state, the change signal, the
 * test-clock advance, the operator's retry, its id.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { SubscriptionCommand } from '../shared/messages.js';

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
