/**
 * One workflow per subscription (id `subscription:<uuid>`), for its whole life: the SPEC §3 state
 * machine over time (./state-machine.ts). Trial end and period ends come from its clock (real timers,
 * or a test clock); pause, resume and cancel arrive as updates whose validators reject invalid moves
 * before anything is recorded (./handlers.ts). Every move is persisted by an activity (row, audit
 * entry, outbox event in one transaction); the workflow keeps the authoritative in-memory state
 * between them (./run.ts).
 *
 * Billing: every period end closes the period: its charges are billed into the Draft of its billing
 * group (core of the rule in src/services/billing/billing.ts; a trial bills nothing), the subscription moves
 * on, and the Draft is finalized once the invoice grace period has passed (late usage and the other
 * subscriptions of the group still land on it meanwhile). A Paused subscription's period is billed
 * when it is cancelled at that period end; a Cancelled one's when it expires. The workflow ends once
 * Expired and its last invoice is finalized. `billSubscription` bills on demand into the current
 * period's Draft; `changePlan` switches plans with proration; with a progressive threshold, accrued
 * charges are checked every progressiveCheckEveryMs and a Draft that reaches it is finalized.
 *
 * The main loop sleeps until the next wake (./wake.ts) or until a handler changes something, and
 * continues as new whenever the server suggests it, so an entity living for years keeps a short
 * history. Changes to it follow ./patches.ts.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  log,
  patched,
  workflowInfo,
} from '@temporalio/workflow';
import { NOT_FOUND } from '../shared/messages.js';
import type { SubscriptionSnapshot, SubscriptionWorkflowInput } from './messages.js';
import { registerHandlers } from './handlers.js';
import { CONTINUE_AS_NEW_ON_EVERY_WAKE } from './patches.js';
import { SubscriptionRun } from './run.js';

export async function subscriptionWorkflow(input: SubscriptionWorkflowInput): Promise<SubscriptionSnapshot> {
  const run = new SubscriptionRun(input);
  registerHandlers(run);

  try {
    for (let wake = run.nextWake(); wake !== null; wake = run.nextWake()) {
      const { atMs, what } = wake;
      if (await run.clock.until(atMs)) await run.mutex.run(() => run.attempt(what));
      // A handler woke the loop. Runs recorded before the patch went straight back to waiting.
      else if (!patched(CONTINUE_AS_NEW_ON_EVERY_WAKE)) continue;
      if (run.hold.error !== null) {
        // The step failed (see run.attempt): held, with every update still served, until an
        // operator's retry clears it; then the loop runs what is due again.
        await run.hold.released();
        continue;
      }
      if (workflowInfo().continueAsNewSuggested) {
        run.continuing = true;
        await condition(allHandlersFinished);
        await continueAsNew<typeof subscriptionWorkflow>(run.continueAsNewInput());
      }
    }
  } catch (err) {
    // A subscription whose row never committed (its creation failed after this run started) has
    // nothing to run: end quietly instead of failing.
    if (!(err instanceof ActivityFailure && err.cause instanceof ApplicationFailure && err.cause.type === NOT_FOUND)) throw err;
    log.warn('subscription row does not exist; ending its workflow', { subscriptionId: input.subscriptionId });
  }
  run.finished = true;
  await condition(allHandlersFinished);
  return run.state;
}
