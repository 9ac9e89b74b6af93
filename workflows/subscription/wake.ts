/**
 * Wake scheduling: what the main loop waits for next. Pure, so the `nextWakeAt` query (which test
 * clocks step by) and the loop always agree.
 */
import type { ClosedPeriod, PendingClose, SubscriptionSnapshot } from './messages.js';
import { BILLABLE, stateDeadlineMs } from './state-machine.js';

/**
 * `state`: the trial or period end; `finalize`: a closed period's grace is over; `check`: a
 * progressive-billing check; `reset`: a rolled period's entitlement reset still to run (held, then retried).
 */
export type WakeReason = 'state' | 'finalize' | 'check' | 'reset';

export interface Wake {
  atMs: number;
  what: WakeReason;
}

// Ties go to finalizations first, then the state deadline: a period's invoice is finalized before
// the next period closes, and a close never waits behind a check at the same instant.
// A reset still to run goes before everything: it settles the period the others follow.
const RANK: Record<WakeReason, number> = { reset: -1, finalize: 0, state: 1, check: 2 };

/**
 * The earliest of the state deadline, a pending close's finalization, the next progressive check and
 * a pending entitlement reset (due at its period's end); null when nothing is left.
 */
export function nextWake(state: SubscriptionSnapshot, nextCheckMs: number | null, pending: readonly PendingClose[], resets: readonly ClosedPeriod[] = []): Wake | null {
  const candidates: Wake[] = resets.map((period) => ({ atMs: Date.parse(period.end), what: 'reset' }));
  if (state.status !== 'Expired') {
    candidates.push({ atMs: stateDeadlineMs(state), what: 'state' });
    if (nextCheckMs !== null && BILLABLE.includes(state.status)) candidates.push({ atMs: nextCheckMs, what: 'check' });
  }
  for (const close of pending) candidates.push({ atMs: Date.parse(close.finalizeAt), what: 'finalize' });
  candidates.sort((a, b) => a.atMs - b.atMs || RANK[a.what] - RANK[b.what]);
  return candidates[0] ?? null;
}
