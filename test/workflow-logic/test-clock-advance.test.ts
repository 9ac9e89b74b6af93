/**
 * The test-clock advance driven by its workflow (issue 29): real subscription and dunning workflows
 * on a test clock, their activities mocks, stepped in lockstep by the advance's batch children
 * (`clockAdvance` signals, `clockAdvanced` answers). The advance's own activities are mocks too: the
 * plan names the workflows, the next wakes are read by query, the dunning workflows appear once a
 * close started one.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BATCH_SIZE } from '../../workflows/test-clock-advance/lockstep.js';
import { dunningWorkflowId, type DunningWorkflowInput } from '../../workflows/dunning/messages.js';
import { nextWakeQuery } from '../../workflows/shared/messages.js';
import { subscriptionWorkflowId, type SubscriptionSnapshot, type SubscriptionWorkflowInput } from '../../workflows/subscription/messages.js';
import { testClockAdvanceWorkflowId, type TestClockAdvanceInput, type TestClockDriveProgress } from '../../workflows/test-clock-advance/messages.js';
import { childStartsOf } from '../support/histories.js';
import { useWorkflowLogic, type ActivityMocks } from '../support/workflow-logic.js';

const logic = useWorkflowLogic([
  'planTestClockDrive',
  'dunningWorkflowsOnClock',
  'nextWakesOf',
  'recordTestClockProgress',
  'finishTestClockDrive',
  'finishTestClockAdvance',
  'closeAndRollSubscriptionPeriod',
  'finalizePeriodInvoice',
  'requestDunningCharge',
  'runDunningAttempt',
  'concludeDunning',
]);

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const T0 = Date.parse('2026-07-01T00:00:00.000Z');
/** ISO time `days` (fractions allowed) after T0. */
const at = (days: number) => new Date(T0 + days * DAY_MS).toISOString();
const PERIOD_DAYS = 3;
const GRACE_DAYS = 1 / 24;
const TARGET = at(3.5);

/** What ran where and when, in the order the worker received the calls: the lockstep's record. */
type Call = { workflowId: string; activity: string; at: string };

/** A subscription's mocks: a close rolls it into its next period, its Draft finalized after the grace period. */
function subscriptionMocks(workflowId: string, timeline: Call[], onClose: () => Promise<void> = async () => {}): ActivityMocks {
  return {
    closeAndRollSubscriptionPeriod: async ({ period }) => {
      timeline.push({ workflowId, activity: 'closeAndRollSubscriptionPeriod', at: period.end });
      await onClose();
      const next: SubscriptionSnapshot = { status: 'Active', periodStart: period.end, periodEnd: new Date(Date.parse(period.end) + PERIOD_DAYS * DAY_MS).toISOString(), trialEnd: null };
      return { finalizeAt: new Date(Date.parse(period.end) + GRACE_DAYS * DAY_MS).toISOString(), state: next };
    },
    finalizePeriodInvoice: async ({ period, at: when }) => {
      timeline.push({ workflowId, activity: 'finalizePeriodInvoice', at: when });
      return { invoiceId: `inv-${period.start}`, status: 'Open', deferred: null };
    },
  };
}

async function startSubscription(clockId: string, periodEnd: string, timeline: Call[], onClose?: () => Promise<void>): Promise<string> {
  const subscriptionId = randomUUID();
  const workflowId = subscriptionWorkflowId(subscriptionId);
  logic.mock(workflowId, subscriptionMocks(workflowId, timeline, onClose));
  const input: SubscriptionWorkflowInput = {
    subscriptionId,
    status: 'Active',
    periodStart: new Date(Date.parse(periodEnd) - PERIOD_DAYS * DAY_MS).toISOString(),
    periodEnd,
    trialEnd: null,
    testClock: { id: clockId, now: at(0) },
    progressiveCheckEveryMs: null,
    pendingCloses: [],
  };
  await logic.start('subscriptionWorkflow', workflowId, [input]);
  return workflowId;
}

/** A dunning schedule on the clock, started at `failedAt` (by a close, as a failed charge would): one retry a day later. */
async function startDunning(clockId: string, failedAt: string, timeline: Call[]): Promise<string> {
  const invoiceId = randomUUID();
  const workflowId = dunningWorkflowId(invoiceId);
  logic.mock(workflowId, {
    requestDunningCharge: async () => ({ asked: false, followUps: [] }),
    runDunningAttempt: async ({ attempt, at: when }) => {
      timeline.push({ workflowId, activity: 'runDunningAttempt', at: when });
      return { status: 'Active', attemptCount: attempt };
    },
    concludeDunning: async () => ({ status: 'Exhausted', attemptCount: 1 }),
  });
  const input: DunningWorkflowInput = { invoiceId, failedAt, scheduleDays: [1], attemptCount: 0, testClock: { id: clockId, now: failedAt } };
  await logic.start('dunningWorkflow', workflowId, [input]);
  return workflowId;
}


/**
 * The drive's activities as these tests mock them: next wakes read by query from the real workflows,
 * the dunning workflows `dunning` names, progress kept in `progress`, the end of the drive counted.
 */
function driveActivities(progress: TestClockDriveProgress[], dunning: () => string[]): ActivityMocks {
  return {
    dunningWorkflowsOnClock: async () => dunning(),
    nextWakesOf: async ({ workflowIds }) => {
      const wakes = await Promise.all(workflowIds.map((id) => logic.client.workflow.getHandle(id).query(nextWakeQuery)));
      return Object.fromEntries(workflowIds.map((id, i) => [id, wakes[i] ? Date.parse(wakes[i]!) : null]));
    },
    recordTestClockProgress: async (input) => void progress.push(input.progress),
    finishTestClockDrive: async ({ subscriptions: count, steps }) => ({ subscriptions: count, steps, followUps: [] }),
    finishTestClockAdvance: async () => {},
  };
}

describe('test-clock advance driven by its workflow', () => {
  // 46 workflows through ten passes of batch children: on a busy 2-core machine this took longer than the project's 20 s.
  it('steps subscriptions of different wakes in lockstep through batch children, and drives a dunning workflow a step started from then on (second pass)', async () => {
    const clockId = randomUUID();
    const timeline: Call[] = [];
    const dunning: string[] = [];
    // More workflows than a batch holds: each pass runs two children.
    const early = await Promise.all(Array.from({ length: 15 }, () => startSubscription(clockId, at(1), timeline)));
    // One more early subscription's close fails its charge: a dunning schedule starts then.
    const closesIntoDunning = await startSubscription(clockId, at(1), timeline, async () => {
      if (dunning.length === 0) dunning.push(await startDunning(clockId, at(1), timeline));
    });
    const middle = await Promise.all(Array.from({ length: 15 }, () => startSubscription(clockId, at(2), timeline)));
    const late = await Promise.all(Array.from({ length: 15 }, () => startSubscription(clockId, at(5), timeline)));
    const subscriptions = [...early, closesIntoDunning, ...middle, ...late];
    expect(subscriptions.length).toBeGreaterThan(BATCH_SIZE);

    const progress: TestClockDriveProgress[] = [];
    const advanceId = testClockAdvanceWorkflowId(clockId);
    const advance = logic.mock(advanceId, { planTestClockDrive: async () => ({ subscriptions, others: [] }), ...driveActivities(progress, () => [...dunning]) });
    const input: TestClockAdvanceInput = { clockId, from: at(0), to: TARGET, startedAt: new Date().toISOString() };
    const handle = await logic.start('testClockAdvanceWorkflow', advanceId, [input]);

    // Steps: the early closes, their grace end, the middle closes (and the dunning retry), their grace end, the target.
    expect(await handle.result()).toEqual({ subscriptions: subscriptions.length, steps: 5 });
    expect(progress.map((p) => p.simulatedTime)).toEqual([at(0), at(1), at(1 + GRACE_DAYS), at(2), at(2 + GRACE_DAYS), TARGET]);
    expect(progress.at(-1)).toEqual({ simulatedTime: TARGET, subscriptionsTotal: subscriptions.length, subscriptionsDone: subscriptions.length });

    // Lockstep: nothing at a later instant ran before something at an earlier one, on any workflow.
    const times = timeline.map((call) => call.at);
    expect(times).toEqual([...times].sort());
    const ranOf = (workflowId: string) => timeline.filter((call) => call.workflowId === workflowId).map((call) => [call.activity, call.at]);
    for (const id of [...early, closesIntoDunning]) expect(ranOf(id)).toEqual([['closeAndRollSubscriptionPeriod', at(1)], ['finalizePeriodInvoice', at(1 + GRACE_DAYS)]]);
    for (const id of middle) expect(ranOf(id)).toEqual([['closeAndRollSubscriptionPeriod', at(2)], ['finalizePeriodInvoice', at(2 + GRACE_DAYS)]]);
    for (const id of late) expect(ranOf(id)).toEqual([]);
    // The dunning workflow appeared at the first step and was driven from its second pass on: its retry ran at its day.
    expect(ranOf(dunning[0]!)).toEqual([['runDunningAttempt', at(2)]]);

    // Each pass ran as batch children of at most BATCH_SIZE workflows; a step with a dunning workflow had a second pass.
    const children = await childStartsOf(handle);
    const passKey = (id: string) => id.slice(`${advanceId}:clock-advance:${input.startedAt}:`.length).replace(/:\d+$/, '');
    const batchesPerPass = new Map<string, number>();
    for (const child of children) batchesPerPass.set(passKey(child), (batchesPerPass.get(passKey(child)) ?? 0) + 1);
    expect(Object.fromEntries(batchesPerPass)).toEqual({
      [`${at(1)}:1`]: 2,
      [`${at(1)}:2`]: 2,
      [`${at(1 + GRACE_DAYS)}:1`]: 2,
      [`${at(1 + GRACE_DAYS)}:2`]: 2,
      [`${at(2)}:1`]: 2,
      [`${at(2)}:2`]: 2,
      [`${at(2 + GRACE_DAYS)}:1`]: 2,
      [`${at(2 + GRACE_DAYS)}:2`]: 2,
      [`${TARGET}:1`]: 2,
      [`${TARGET}:2`]: 2,
    });
    expect(advance.argsOf('nextWakesOf').length).toBeGreaterThan(1);
  }, 60_000);

  it('takes a workflow that does not run as ended, and fails the advance (internal_failure with the reason) when a workflow is not on a test clock', async () => {
    const clockId = randomUUID();
    const timeline: Call[] = [];
    const onClock = await startSubscription(clockId, at(1), timeline);
    const gone = subscriptionWorkflowId(randomUUID());
    // A subscription in real time (no clock), its period end far ahead: it has nothing to do here.
    const realTime = subscriptionWorkflowId(randomUUID());
    logic.mock(realTime, {});
    const input: SubscriptionWorkflowInput = { subscriptionId: realTime.split(':')[1]!, status: 'Active', periodStart: at(0), periodEnd: '2099-01-01T00:00:00.000Z', trialEnd: null, testClock: null, progressiveCheckEveryMs: null, pendingCloses: [] };
    await logic.start('subscriptionWorkflow', realTime, [input]);

    const advanceOf = (plan: string[]) => {
      const id = testClockAdvanceWorkflowId(`${clockId}-${plan.length}`);
      const run = logic.mock(id, {
        planTestClockDrive: async () => ({ subscriptions: plan, others: [] }),
        dunningWorkflowsOnClock: async () => [],
        nextWakesOf: async ({ workflowIds }) => Object.fromEntries(workflowIds.map((workflowId) => [workflowId, null])),
        recordTestClockProgress: async () => {},
        finishTestClockDrive: async ({ subscriptions: count, steps }) => ({ subscriptions: count, steps, followUps: [] }),
        finishTestClockAdvance: async () => {},
      });
      const advanceInput: TestClockAdvanceInput = { clockId: `${clockId}-${plan.length}`, from: at(0), to: at(2), startedAt: new Date().toISOString() };
      return { run, result: logic.start('testClockAdvanceWorkflow', id, [advanceInput]).then((handle) => handle.result()) };
    };

    // The subscription on the clock is driven to the target (its close ran); the one without a workflow is done.
    const ended = advanceOf([onClock, gone]);
    expect(await ended.result).toEqual({ subscriptions: 2, steps: 1 });
    expect(timeline.map((call) => [call.activity, call.at])).toEqual([['closeAndRollSubscriptionPeriod', at(1)], ['finalizePeriodInvoice', at(1 + GRACE_DAYS)]]);
    expect(ended.run.argsOf('finishTestClockAdvance')).toEqual([[expect.objectContaining({ status: 'ready' })]]);

    // A subscription in real time refuses the step, as it refuses the update: the advance holds the reason.
    const refused = advanceOf([onClock, gone, realTime]);
    const { error } = await refused.result;
    expect(error).toMatchObject({ step: 'driveTestClock', type: 'NotOnTestClock' });
    expect(error!.message).toContain('not on a test clock');
    expect(refused.run.argsOf('finishTestClockAdvance')).toEqual([[expect.objectContaining({ status: 'internal_failure', error })]]);
  });

  it('a run the drive continued as new into goes on from where it stood: no plan, the steps after the last one, counted on', async () => {
    const clockId = randomUUID();
    const timeline: Call[] = [];
    const subscriptions = await Promise.all(Array.from({ length: 3 }, () => startSubscription(clockId, at(2), timeline)));
    const progress: TestClockDriveProgress[] = [];
    const advanceId = testClockAdvanceWorkflowId(clockId);
    const advance = logic.mock(advanceId, driveActivities(progress, () => []));
    // As the previous run carried it: one step made (at day 1, nothing due there), no answers kept.
    const resume = { plan: { subscriptions, others: [] }, running: subscriptions, known: subscriptions, answered: [], reachedMs: Date.parse(at(1)), steps: 1, alone: true };
    const input: TestClockAdvanceInput = { clockId, from: at(0), to: TARGET, startedAt: new Date().toISOString(), resume };
    const handle = await logic.start('testClockAdvanceWorkflow', advanceId, [input]);

    expect(await handle.result()).toEqual({ subscriptions: 3, steps: 4 });
    expect(progress.map((p) => p.simulatedTime)).toEqual([at(1), at(2), at(2 + GRACE_DAYS), TARGET]);
    expect(advance.calls.map((call) => call.activity)).not.toContain('planTestClockDrive');
    for (const id of subscriptions) expect(timeline.filter((call) => call.workflowId === id).map((call) => [call.activity, call.at])).toEqual([['closeAndRollSubscriptionPeriod', at(2)], ['finalizePeriodInvoice', at(2 + GRACE_DAYS)]]);
    // The activities are told the advance, not the drive's state.
    expect(advance.argsOf('finishTestClockAdvance')[0]![0]).not.toHaveProperty('resume');
  });
});
