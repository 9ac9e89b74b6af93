/**
 * The rules of a test clock's lockstep drive, pure, so the activity's drive
 * (src/services/subscriptions/test-clocks.ts) and the advance workflow's own
 * (workflows/test-clock-advance/lockstep.ts) step the clock's workflows alike. Times are ms; a wake of
 * null means the workflow has nothing left to do (or has ended).
 */

/** The next step: the earliest wake after the step reached and before the target, else the target. */
export function lockstepNextMs(wakes: readonly (number | null)[], reachedMs: number, targetMs: number): number {
  return wakes.reduce<number>((next, ms) => (ms !== null && ms > reachedMs && ms < next ? ms : next), targetMs);
}

/**
 * Of `total` subscriptions, those caught up: ended, or with nothing due up to the target. `wakes[i]`
 * is the i-th running workflow's, `isSubscription[i]` whether it is a subscription's.
 */
export function lockstepSubscriptionsDone(total: number, wakes: readonly (number | null)[], isSubscription: readonly boolean[], targetMs: number): number {
  return total - wakes.filter((wake, i) => isSubscription[i] && wake !== null && wake <= targetMs).length;
}

/**
 * At the last step (the target), a subscription whose last answer says nothing is due before a later
 * time is not woken only to move its clock, when nothing else on the clock (a contract, spend alert
 * or dunning workflow: `alone` false) could act on it at a later step: commands sent to it afterwards
 * carry the clock's time. Only on a step's first pass.
 */
export function lockstepIdle(step: { alone: boolean; pass: number; stepMs: number; targetMs: number }, subscription: boolean, answeredWake: number | null | undefined): boolean {
  return step.alone && step.pass === 1 && step.stepMs === step.targetMs && subscription && typeof answeredWake === 'number' && answeredWake > step.targetMs;
}
