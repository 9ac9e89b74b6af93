/**
 * Messages of the spend alert workflow (./index.ts): its input, what an evaluation found, the change
 * signal, the test-clock advance, its id.
 */
import { defineSignal, defineUpdate } from '@temporalio/workflow';

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
