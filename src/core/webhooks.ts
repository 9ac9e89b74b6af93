/**
 * Outbound webhooks, the pure part (SPEC §6, §8): which endpoints an event goes to, the retry
 * schedule, and the per-endpoint circuit breaker as a state machine over explicit instants (epoch
 * milliseconds passed in; this module reads no clock).
 */

/** SPEC §6: attempt 1 at once, then 30 s, 5 min, 30 min and 4 h after the previous attempt. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS: readonly number[] = [0, 30, 300, 1800, 14_400];
/** How long a receiver has to answer one attempt. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** SPEC §8: the circuit opens after 5 consecutive failed attempts… */
export const DEFAULT_WEBHOOK_BREAKER_THRESHOLD = 5;
/** …and suspends deliveries to the endpoint for 60 seconds. */
export const DEFAULT_WEBHOOK_BREAKER_OPEN_SECONDS = 60;
/** Stripe-like: an endpoint whose attempts have all failed for 3 days is disabled. */
export const DEFAULT_WEBHOOK_DISABLE_AFTER_SECONDS = 3 * 86_400;
/** The event-type wildcard of an endpoint's `events`. */
export const ALL_EVENTS = '*';

/** Whether an endpoint subscribed to `events` receives an event of `type`. */
export const subscribes = (events: readonly string[], type: string): boolean => events.includes(ALL_EVENTS) || events.includes(type);

/**
 * The delay before attempt `attempt` (1-based), counted from the end of the attempt before it;
 * undefined once the schedule has no more attempts (the delivery is abandoned).
 */
export function delayBeforeAttempt(scheduleMs: readonly number[], attempt: number): number | undefined {
  return attempt >= 1 ? scheduleMs[attempt - 1] : undefined;
}

/** Problems of a retry schedule: 1-20 whole, non-negative delays. */
export function retryScheduleProblems(scheduleMs: readonly number[]): string[] {
  if (scheduleMs.length < 1 || scheduleMs.length > 20) return ['must list 1 to 20 attempts'];
  return scheduleMs.every((ms) => Number.isSafeInteger(ms) && ms >= 0) ? [] : ['delays must be whole, non-negative numbers'];
}

export type BreakerState = 'Closed' | 'Open' | 'HalfOpen';

/** An endpoint's breaker as stored. */
export interface Breaker {
  state: BreakerState;
  consecutiveFailures: number;
  openedAtMs: number | null;
  probeDeliveryId: string | null;
  probeUntilMs: number | null;
}

export interface BreakerPolicy {
  /** Consecutive failed attempts that open the circuit. */
  threshold: number;
  /** How long an open circuit suspends deliveries before one probe is let through. */
  openMs: number;
  /** How long a probe's claim holds: a probe that never reports (its worker died) frees it then. */
  probeLeaseMs: number;
}

export const CLOSED_BREAKER: Breaker = { state: 'Closed', consecutiveFailures: 0, openedAtMs: null, probeDeliveryId: null, probeUntilMs: null };

/** The answer to "may this delivery send now?", with the breaker to store when it changed. */
export type Admission = { admitted: true; breaker: Breaker } | { admitted: false; retryAtMs: number; breaker: Breaker };

/**
 * Closed: every delivery sends. Open: none until the suspension has passed; then the first to ask
 * becomes the one probe (HalfOpen). HalfOpen: only the probe sends (again, if it asks again); the
 * others wait until its claim would lapse, when a probe that never reported is replaced.
 */
export function admitAttempt(breaker: Breaker, deliveryId: string, nowMs: number, policy: BreakerPolicy): Admission {
  const probe = (): Admission => ({
    admitted: true,
    breaker: { ...breaker, state: 'HalfOpen', probeDeliveryId: deliveryId, probeUntilMs: nowMs + policy.probeLeaseMs },
  });
  switch (breaker.state) {
    case 'Closed':
      return { admitted: true, breaker };
    case 'Open': {
      const reopensAtMs = (breaker.openedAtMs ?? nowMs) + policy.openMs;
      return nowMs >= reopensAtMs ? probe() : { admitted: false, retryAtMs: reopensAtMs, breaker };
    }
    case 'HalfOpen': {
      if (breaker.probeDeliveryId === deliveryId) return { admitted: true, breaker };
      const leaseEndMs = breaker.probeUntilMs ?? nowMs;
      return nowMs >= leaseEndMs ? probe() : { admitted: false, retryAtMs: leaseEndMs, breaker };
    }
  }
}

/**
 * The breaker after an attempt of `deliveryId` ended. A success closes the circuit. A failure counts;
 * the probe's failure re-opens it for another full suspension; reaching the threshold while closed
 * opens it. Failures of attempts that were already under way when it opened keep it open as it is.
 */
export function recordAttemptOutcome(breaker: Breaker, deliveryId: string, succeeded: boolean, nowMs: number, policy: BreakerPolicy): Breaker {
  if (succeeded) return CLOSED_BREAKER;
  const consecutiveFailures = breaker.consecutiveFailures + 1;
  const open: Breaker = { state: 'Open', consecutiveFailures, openedAtMs: nowMs, probeDeliveryId: null, probeUntilMs: null };
  if (breaker.state === 'HalfOpen') return breaker.probeDeliveryId === deliveryId ? open : { ...breaker, consecutiveFailures };
  if (breaker.state === 'Open') return { ...breaker, consecutiveFailures };
  return consecutiveFailures >= policy.threshold ? open : { ...breaker, consecutiveFailures };
}

/** Whether a stored breaker must be rewritten (skips a write for the common success-while-closed case). */
export const breakerChanged = (before: Breaker, after: Breaker): boolean =>
  before.state !== after.state ||
  before.consecutiveFailures !== after.consecutiveFailures ||
  before.openedAtMs !== after.openedAtMs ||
  before.probeDeliveryId !== after.probeDeliveryId ||
  before.probeUntilMs !== after.probeUntilMs;

/**
 * What the circuit waker does for an endpoint with parked deliveries (those waiting for its circuit,
 * each without a timer of its own): wake them all once the circuit is closed; while it is open, make
 * the oldest parked delivery the one probe as soon as the breaker would admit one (it claims the
 * half-open probe here, so no other delivery is woken meanwhile); otherwise nothing.
 */
export type CircuitWake = { wake: 'all' } | { wake: 'probe'; breaker: Breaker } | { wake: 'none' };

export function circuitWake(breaker: Breaker, oldestParkedId: string, nowMs: number, policy: BreakerPolicy): CircuitWake {
  if (breaker.state === 'Closed') return { wake: 'all' };
  const admission = admitAttempt(breaker, oldestParkedId, nowMs, policy);
  return admission.admitted ? { wake: 'probe', breaker: admission.breaker } : { wake: 'none' };
}

/** Whether an endpoint failing since `failingSinceMs` (null: its last attempt succeeded) has been down long enough to disable. */
export const outageExceeded = (failingSinceMs: number | null, nowMs: number, disableAfterMs: number): boolean =>
  failingSinceMs !== null && nowMs - failingSinceMs >= disableAfterMs;
