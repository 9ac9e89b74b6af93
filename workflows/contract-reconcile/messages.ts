/**
 * Messages of the contract workflow reconciler (./index.ts): its Schedule and its summary.
 */
import type { FailedRunItem } from '../shared/messages.js';

/** The Temporal Schedule of the contract workflow reconciler (src/services/contracts/reconcile.ts). */
export const CONTRACT_RECONCILE_SCHEDULE_ID = 'contract-workflows-reconcile';

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
