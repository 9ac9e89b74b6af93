/**
 * Messages of the test-clock advance workflow (./index.ts): its input, its result, its id.
 */
import type { BillingErrorState } from '../shared/messages.js';

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
