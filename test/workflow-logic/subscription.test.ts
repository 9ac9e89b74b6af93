/**
 * The subscription workflow's clock-driven billing on a test clock, with short configured periods:
 * progressive billing (the accrued charges checked against the threshold every configured interval,
 * only in billable states, across a period close; and on the crossing: the `usageAccrued` signals of a
 * burst debounced into one check), the period close and roll, the Draft finalized
 * once its grace period is over, the trial end, a cancelled subscription's last close and expiry,
 * a step failing for good held as the subscription's billing_error for an operator retry, and
 * shadow billing after a close that asks for it, whose failure never holds billing, and the
 * entitlement reset after a roll that asks for it, held on failure and run first on the retry.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { nextWakeQuery, type SubscriptionCommand } from '../../workflows/shared/messages.js';
import { advanceClockUpdate, cancelSubscriptionUpdate, retrySubscriptionBillingUpdate, type SubscriptionSnapshot, subscriptionStateQuery, subscriptionWorkflowId, type SubscriptionWorkflowInput, usageAccruedSignal } from '../../workflows/subscription/messages.js';
import { deferred, deterministicFailure, useWorkflowLogic, type ActivityMocks, type MockedWorkflow } from '../support/workflow-logic.js';

const logic = useWorkflowLogic([
  'transitionSubscription',
  'closeAndRollSubscriptionPeriod',
  'closeSubscriptionPeriod',
  'rollSubscriptionPeriod',
  'finalizePeriodInvoice',
  'checkProgressiveThreshold',
  'checkThresholdCrossing',
  'recordBillingError',
  'clearBillingError',
  'rateShadowBilling',
  'resetEntitlements',
]);

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const T0 = Date.parse('2026-05-01T00:00:00.000Z');
/** ISO time `days` (fractions allowed) after T0. */
const at = (days: number) => new Date(T0 + days * DAY_MS).toISOString();
/** Periods of three days, so a test crosses period ends in a few clock steps. */
const PERIOD_DAYS = 3;
/** The invoice grace period the close activity answers (finalizeAt = period end + grace). */
const GRACE_MS = HOUR_MS;
const ADMIN: SubscriptionCommand = { actor: { type: 'admin', id: 'ops-3' }, requestId: 'req-sub' };

/**
 * Mocks that keep the subscription's row as the real activities would: moves persist the state,
 * a close bills the period and (with roll) moves into the next one.
 */
function subscriptionActivities(initial: SubscriptionSnapshot, overrides: ActivityMocks = {}): ActivityMocks {
  let row = initial;
  const nextPeriod = (end: string): SubscriptionSnapshot => ({ ...row, periodStart: end, periodEnd: new Date(Date.parse(end) + PERIOD_DAYS * DAY_MS).toISOString() });
  return {
    transitionSubscription: async ({ to }) => {
      row = to === 'Active' && row.status === 'Trialing' ? { ...nextPeriod(row.trialEnd!), status: 'Active', trialEnd: row.trialEnd } : { ...row, status: to };
      return row;
    },
    closeAndRollSubscriptionPeriod: async ({ period }) => {
      row = nextPeriod(period.end);
      return { finalizeAt: new Date(Date.parse(period.end) + GRACE_MS).toISOString(), state: row };
    },
    closeSubscriptionPeriod: async ({ period }) => ({ invoiceId: `inv-${period.start}`, created: true, finalizeAt: new Date(Date.parse(period.end) + GRACE_MS).toISOString() }),
    finalizePeriodInvoice: async ({ period }) => ({ invoiceId: `inv-${period.start}`, status: 'Open', deferred: null }),
    checkProgressiveThreshold: async () => ({ invoiceId: null, finalized: false }),
    checkThresholdCrossing: async () => ({ invoiceId: null, finalized: false }),
    recordBillingError: async () => {},
    clearBillingError: async () => {},
    rateShadowBilling: async () => ({ rated: 1, failed: 0 }),
    resetEntitlements: async () => ({ features: 1, grants: 0 }),
    ...overrides,
  };
}

async function startSubscription(snapshot: SubscriptionSnapshot, progressiveCheckEveryMs: number | null, overrides: ActivityMocks = {}) {
  const subscriptionId = randomUUID();
  const run = logic.mock(subscriptionWorkflowId(subscriptionId), subscriptionActivities(snapshot, overrides));
  const input: SubscriptionWorkflowInput = { subscriptionId, ...snapshot, testClock: { id: `clock-${subscriptionId}`, now: at(0) }, progressiveCheckEveryMs, pendingCloses: [] };
  const handle = await logic.start('subscriptionWorkflow', run.id, [input]);
  const advance = (to: string, through?: string) => handle.executeUpdate(advanceClockUpdate, { args: through === undefined ? [to] : [to, through] });
  /** Advances the clock to `to` the way a test-clock advance drives it: through each next wake, telling how far it goes. */
  const driveTo = async (to: string) => {
    let answer = await advance(at(0), to);
    while (answer.nextWakeAt && answer.nextWakeAt <= to) answer = await advance(answer.nextWakeAt, to);
    return advance(to, to);
  };
  return { subscriptionId, run, handle, advance, driveTo };
}

/** The (activity, time) pairs of a workflow's calls: what ran when. */
function timeline(run: MockedWorkflow): [string, string][] {
  return run.calls.map(({ activity, args }) => {
    const input = args[0] as { at?: string; period?: { end: string } };
    return [activity, input.at ?? input.period?.end ?? ''];
  });
}

const ACTIVE: SubscriptionSnapshot = { status: 'Active', periodStart: at(0), periodEnd: at(PERIOD_DAYS), trialEnd: null };

describe.concurrent('progressive billing: the threshold check', () => {
  it('checks the accrued charges every configured interval, across the period close, and finalizes the closed period after its grace', async () => {
    let checks = 0;
    const { subscriptionId, run, handle, driveTo } = await startSubscription(ACTIVE, DAY_MS, {
      // The second check finds the threshold crossed and finalizes the Draft: the checks go on all the same.
      checkProgressiveThreshold: async () => ({ invoiceId: 'inv-progressive', finalized: ++checks === 2 }),
    });
    expect(await driveTo(at(4.5))).toEqual({ caughtUp: true, status: 'Active', nextWakeAt: at(5) });

    expect(timeline(run)).toEqual([
      ['checkProgressiveThreshold', at(1)],
      ['checkProgressiveThreshold', at(2)],
      // At the period end the close comes first, then the check due at the same instant.
      ['closeAndRollSubscriptionPeriod', at(3)],
      ['checkProgressiveThreshold', at(3)],
      ['finalizePeriodInvoice', at(3 + 1 / 24)],
      ['checkProgressiveThreshold', at(4)],
    ]);
    expect(run.argsOf('checkProgressiveThreshold')[0]).toEqual([{ subscriptionId, at: at(1) }]);
    expect(run.argsOf('closeAndRollSubscriptionPeriod')).toEqual([
      [{ subscriptionId, period: { start: at(0), end: at(3) }, reason: 'subscription_cycle', finalizeDueBy: at(4.5) }],
    ]);
    expect(run.argsOf('finalizePeriodInvoice')).toEqual([[{ subscriptionId, period: { start: at(0), end: at(3) }, at: at(3 + 1 / 24) }]]);
    expect(await handle.query(subscriptionStateQuery)).toEqual({ status: 'Active', periodStart: at(3), periodEnd: at(6), trialEnd: null });
  });

  it('checks nothing while trialing; the first check comes with the paid period', async () => {
    const trialing: SubscriptionSnapshot = { status: 'Trialing', periodStart: at(0), periodEnd: at(2), trialEnd: at(2) };
    const { subscriptionId, run, handle, driveTo } = await startSubscription(trialing, DAY_MS);
    await driveTo(at(3.5));

    expect(timeline(run)).toEqual([
      ['transitionSubscription', at(2)],
      // The check that fell due during the trial runs as soon as the subscription is billable.
      ['checkProgressiveThreshold', at(2)],
      ['checkProgressiveThreshold', at(3)],
    ]);
    expect(run.argsOf('transitionSubscription')).toEqual([
      [{ subscriptionId, from: 'Trialing', to: 'Active', at: at(2), reason: 'trial_ended', actor: { type: 'workflow', id: run.id } }],
    ]);
    expect((await handle.query(subscriptionStateQuery)).status).toBe('Active');
  });

  it('without a threshold there is no check: only the period close and the finalization', async () => {
    const { run, driveTo } = await startSubscription(ACTIVE, null);
    await driveTo(at(4));
    expect(timeline(run)).toEqual([
      ['closeAndRollSubscriptionPeriod', at(3)],
      ['finalizePeriodInvoice', at(3 + 1 / 24)],
    ]);
  });

  it('a subscription cancelled mid-period bills its last period at its end, expires, and ends once its invoice is finalized', async () => {
    const { subscriptionId, run, handle, advance } = await startSubscription(ACTIVE, null);
    await advance(at(1));
    expect(await handle.executeUpdate(cancelSubscriptionUpdate, { args: [ADMIN] })).toMatchObject({ status: 'Cancelled' });
    expect(await advance(at(3))).toEqual({ caughtUp: true, status: 'Expired', nextWakeAt: at(3 + 1 / 24) });
    // The finalization is its last step: the advance to it answers as the run ends.
    expect(await advance(at(3 + 1 / 24))).toEqual({ caughtUp: true, status: 'Expired', nextWakeAt: null });

    expect(await handle.result()).toEqual({ status: 'Expired', periodStart: at(0), periodEnd: at(3), trialEnd: null });
    expect(run.calls).toEqual([
      { activity: 'transitionSubscription', args: [{ subscriptionId, from: 'Active', to: 'Cancelled', at: at(1), reason: 'cancel', actor: ADMIN.actor, requestId: ADMIN.requestId }] },
      { activity: 'closeSubscriptionPeriod', args: [{ subscriptionId, period: { start: at(0), end: at(3) }, reason: 'subscription_final' }] },
      { activity: 'transitionSubscription', args: [{ subscriptionId, from: 'Cancelled', to: 'Expired', at: at(3), reason: 'period_ended', actor: { type: 'workflow', id: run.id } }] },
      { activity: 'finalizePeriodInvoice', args: [{ subscriptionId, period: { start: at(0), end: at(3) }, at: at(3 + 1 / 24) }] },
    ]);
  });
});

describe.concurrent('progressive billing on the crossing: usageAccrued signals', () => {
  const accrued = (at: string) => ({ at });

  it('a burst of signals makes one check, after the debounce, at the latest customer time signalled', async () => {
    const { subscriptionId, run, handle, advance } = await startSubscription(ACTIVE, DAY_MS);
    // The run's clock is at the start; the customer's (test clock) time is later: the check goes by the latter.
    await Promise.all([0.5, 0.55, 0.6, 0.52, 0.58].map((day) => handle.signal(usageAccruedSignal, accrued(at(day)))));
    await run.called('checkThresholdCrossing');
    // The advance waits for crossing checks armed or running: once it answers, no other check is pending.
    expect(await advance(at(0.7))).toEqual({ caughtUp: true, status: 'Active', nextWakeAt: at(1) });
    expect(run.argsOf('checkThresholdCrossing')).toEqual([[{ subscriptionId, at: at(0.6) }]]);
  });

  it('usage signalled while the check runs gets a check of its own; one signalled later, another', async () => {
    const gate = deferred();
    let checks = 0;
    const { subscriptionId, run, handle, advance } = await startSubscription(ACTIVE, DAY_MS, {
      checkThresholdCrossing: async () => {
        if ((checks += 1) === 1) await gate.promise;
        return { invoiceId: 'inv-threshold', finalized: checks === 1 };
      },
    });
    await handle.signal(usageAccruedSignal, accrued(at(0.1)));
    await run.called('checkThresholdCrossing');
    // The first check may have read the usage before this one committed: it is checked again.
    await handle.signal(usageAccruedSignal, accrued(at(0.2)));
    gate.resolve();
    await run.called('checkThresholdCrossing', 2);
    await handle.signal(usageAccruedSignal, accrued(at(0.3)));
    await run.called('checkThresholdCrossing', 3);
    await advance(at(0.4));
    expect(run.argsOf('checkThresholdCrossing')).toEqual([[{ subscriptionId, at: at(0.1) }], [{ subscriptionId, at: at(0.2) }], [{ subscriptionId, at: at(0.3) }]]);
  });

  it('a failing check is logged and left to the daily check: no billing_error, the next usage checks again', async () => {
    let checks = 0;
    const { run, handle, advance } = await startSubscription(ACTIVE, DAY_MS, {
      checkThresholdCrossing: async () => {
        if ((checks += 1) === 1) throw deterministicFailure('rating overflow');
        return { invoiceId: null, finalized: false };
      },
    });
    await handle.signal(usageAccruedSignal, accrued(at(0.1)));
    await run.called('checkThresholdCrossing');
    expect(await advance(at(0.2))).toEqual({ caughtUp: true, status: 'Active', nextWakeAt: at(1) });
    await handle.signal(usageAccruedSignal, accrued(at(0.3)));
    await run.called('checkThresholdCrossing', 2);
    // The daily check still runs at its time.
    await advance(at(1));
    expect(timeline(run)).toEqual([
      ['checkThresholdCrossing', at(0.1)],
      ['checkThresholdCrossing', at(0.3)],
      ['checkProgressiveThreshold', at(1)],
    ]);
    expect(run.argsOf('recordBillingError')).toEqual([]);
  });

  it('checks nothing while trialing', async () => {
    const trialing: SubscriptionSnapshot = { status: 'Trialing', periodStart: at(0), periodEnd: at(2), trialEnd: at(2) };
    const { run, handle, advance } = await startSubscription(trialing, DAY_MS);
    await handle.signal(usageAccruedSignal, accrued(at(0.1)));
    // The advance answers once the armed check has run (and found nothing billable).
    expect(await advance(at(0.5))).toEqual({ caughtUp: true, status: 'Trialing', nextWakeAt: at(2) });
    expect(run.calls).toEqual([]);
  });
});

describe.concurrent('subscription step failing for good: held as the subscription billing_error', () => {
  it('records it, answers clock advances at once with no next wake, and closes the period again on the operator retry', async () => {
    let failed = false;
    const base = subscriptionActivities(ACTIVE);
    const { subscriptionId, run, handle, advance } = await startSubscription(ACTIVE, null, {
      closeAndRollSubscriptionPeriod: async (input) => {
        if (!failed) {
          failed = true;
          throw deterministicFailure('rating overflow on line 3');
        }
        return base.closeAndRollSubscriptionPeriod!(input);
      },
    });
    expect(await advance(at(3))).toEqual({ caughtUp: true, status: 'Active', nextWakeAt: null });
    const error = { step: 'closeAndRollSubscriptionPeriod', type: 'DeterministicFailure', message: 'rating overflow on line 3', failedAt: at(3) };
    expect(run.argsOf('recordBillingError')).toEqual([[{ entity: 'subscription', id: subscriptionId, error }]]);
    expect(await handle.query(nextWakeQuery)).toBeNull();

    // Held: a later advance answers at once and runs nothing.
    const before = run.calls.length;
    expect(await advance(at(3.5))).toEqual({ caughtUp: true, status: 'Active', nextWakeAt: null });
    expect(run.calls.length).toBe(before);

    // The retry clears it and answers once the close ran again; the subscription is in its next period.
    expect(await handle.executeUpdate(retrySubscriptionBillingUpdate, { args: [ADMIN] })).toEqual({ status: 'Active', periodStart: at(3), periodEnd: at(6), trialEnd: null });
    expect(run.calls.slice(before, before + 2).map((call) => call.activity)).toEqual(['clearBillingError', 'closeAndRollSubscriptionPeriod']);
    expect(run.argsOf('clearBillingError')).toEqual([[{ entity: 'subscription', id: subscriptionId, command: ADMIN }]]);
    // The loop goes on: the closed period's grace ended already (the clock is at +3.5 days), so its
    // Draft is finalized right away, dated at its grace end; then the next period end is what is due.
    expect(await advance(at(3.5))).toEqual({ caughtUp: true, status: 'Active', nextWakeAt: at(6) });
    expect(run.argsOf('finalizePeriodInvoice')).toEqual([[{ subscriptionId, period: { start: at(0), end: at(3) }, at: at(3 + 1 / 24) }]]);
  });
});

describe.concurrent('shadow billing after a period close', () => {
  it('rates the closed period when the close asks for it; a failed shadow rating is logged and billing goes on', async () => {
    let closes = 0;
    const { subscriptionId, run, handle, driveTo } = await startSubscription(ACTIVE, null, {
      // The first close is shadowed, the second is not (the attachment was detached meanwhile).
      closeAndRollSubscriptionPeriod: async ({ period }) => {
        const state: SubscriptionSnapshot = { status: 'Active', periodStart: period.end, periodEnd: new Date(Date.parse(period.end) + PERIOD_DAYS * DAY_MS).toISOString(), trialEnd: null };
        return { finalizeAt: new Date(Date.parse(period.end) + GRACE_MS).toISOString(), state, ...((closes += 1) === 1 ? { shadow: true } : {}) };
      },
      rateShadowBilling: async () => {
        throw deterministicFailure('candidate cannot rate the period');
      },
    });
    expect(await driveTo(at(6.5))).toMatchObject({ caughtUp: true, status: 'Active' });

    expect(timeline(run)).toEqual([
      ['closeAndRollSubscriptionPeriod', at(3)],
      ['rateShadowBilling', at(3)],
      ['finalizePeriodInvoice', at(3 + 1 / 24)],
      ['closeAndRollSubscriptionPeriod', at(6)],
      ['finalizePeriodInvoice', at(6 + 1 / 24)],
    ]);
    expect(run.argsOf('rateShadowBilling')).toEqual([[{ subscriptionId, period: { start: at(0), end: at(3) } }]]);
    // Not held: no billing_error, and the subscription moved on through both periods.
    expect(run.argsOf('recordBillingError')).toEqual([]);
    expect(await handle.query(subscriptionStateQuery)).toEqual({ status: 'Active', periodStart: at(6), periodEnd: at(9), trialEnd: null });
  });
});

describe.concurrent('entitlement reset after a period roll', () => {
  it('resets after each roll that asks for it; a reset failing for good holds the loop and runs first on the operator retry', async () => {
    let resets = 0;
    const base = subscriptionActivities(ACTIVE);
    const { subscriptionId, run, handle, advance, driveTo } = await startSubscription(ACTIVE, null, {
      closeAndRollSubscriptionPeriod: async (input) => ({ ...(await base.closeAndRollSubscriptionPeriod!(input)), entitlements: true }),
      resetEntitlements: async () => {
        if ((resets += 1) === 1) throw deterministicFailure('grant period row refused');
        return { features: 1, grants: 2 };
      },
    });
    // The roll happened (the next period is current), its reset failed: held, nothing due on its own.
    expect(await advance(at(3))).toEqual({ caughtUp: true, status: 'Active', nextWakeAt: null });
    const error = { step: 'resetEntitlements', type: 'DeterministicFailure', message: 'grant period row refused', failedAt: at(3) };
    expect(run.argsOf('recordBillingError')).toEqual([[{ entity: 'subscription', id: subscriptionId, error }]]);
    expect(await handle.query(subscriptionStateQuery)).toEqual({ status: 'Active', periodStart: at(3), periodEnd: at(6), trialEnd: null });

    // The retry runs the reset of the same period again, not the close; then billing goes on.
    expect(await handle.executeUpdate(retrySubscriptionBillingUpdate, { args: [ADMIN] })).toEqual({ status: 'Active', periodStart: at(3), periodEnd: at(6), trialEnd: null });
    expect(await driveTo(at(6.5))).toMatchObject({ caughtUp: true, status: 'Active' });
    expect(timeline(run)).toEqual([
      ['closeAndRollSubscriptionPeriod', at(3)],
      ['resetEntitlements', at(3)],
      ['recordBillingError', ''],
      ['clearBillingError', ''],
      ['resetEntitlements', at(3)],
      ['finalizePeriodInvoice', at(3 + 1 / 24)],
      ['closeAndRollSubscriptionPeriod', at(6)],
      ['resetEntitlements', at(6)],
      ['finalizePeriodInvoice', at(6 + 1 / 24)],
    ]);
    expect(run.argsOf('resetEntitlements')).toEqual([
      [{ subscriptionId, period: { start: at(0), end: at(3) } }],
      [{ subscriptionId, period: { start: at(0), end: at(3) } }],
      [{ subscriptionId, period: { start: at(3), end: at(6) } }],
    ]);
    expect(run.argsOf('recordBillingError')).toHaveLength(1);
  });
});
