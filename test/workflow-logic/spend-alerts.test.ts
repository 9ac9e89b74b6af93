/**
 * The spend alert evaluator of one customer on a test clock: changes gathered into one evaluation,
 * the alerts re-armed at each billing period start (also when the clock passed the start while
 * changes were being gathered), the end once no alert is enabled, and an evaluation failing for
 * good recorded as the alerts' evaluation_error until the next evaluation.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { nextWakeQuery } from '../../workflows/shared/messages.js';
import { spendAlertAdvanceClockUpdate, spendAlertWorkflowId, type SpendAlertWorkflowInput, spendChangedSignal, type SpendEvaluation } from '../../workflows/spend-alerts/messages.js';
import { deterministicFailure, useWorkflowLogic, type ActivityMocks } from '../support/workflow-logic.js';

const logic = useWorkflowLogic(['evaluateSpendAlerts', 'resetSpendAlertsForPeriod', 'recordSpendEvaluationError']);

const NOW = '2026-06-28T12:00:00.000Z';
const JULY = '2026-07-01T00:00:00.000Z';
const AUGUST = '2026-08-01T00:00:00.000Z';

/** The evaluation the service answers at a time: one enabled alert, the next period start after it. */
const evaluationAt = (at: string, enabledAlerts = 1): SpendEvaluation => ({ enabledAlerts, nextPeriodStart: at >= JULY ? AUGUST : JULY, awaitingRoll: false });

async function startEvaluator(overrides: ActivityMocks = {}) {
  const customerId = randomUUID();
  const run = logic.mock(spendAlertWorkflowId(customerId), {
    evaluateSpendAlerts: async ({ at }) => evaluationAt(at),
    resetSpendAlertsForPeriod: async () => 1,
    recordSpendEvaluationError: async () => 1,
    ...overrides,
  });
  // Started as the ingestion starts it: with a change pending (signal-with-start).
  const input: SpendAlertWorkflowInput = { customerId, testClock: { id: `clock-${customerId}`, now: NOW }, pending: true };
  const handle = await logic.start('spendAlertWorkflow', run.id, [input]);
  const advance = (to: string) => handle.executeUpdate(spendAlertAdvanceClockUpdate, { args: [to] });
  return { customerId, run, handle, advance };
}

// Concurrent: each test waits out the real debounce window (SPEND_DEBOUNCE_MS) on its own workflow.
describe.concurrent('spend alerts on a test clock', () => {
  it('evaluates the pending change, then at the period start re-arms the alerts before evaluating the new period', async () => {
    const { customerId, run, handle, advance } = await startEvaluator();
    // The advance answers once the pending change was evaluated (after the debounce window).
    expect(await advance(NOW)).toEqual({ caughtUp: true });
    expect(run.calls).toEqual([{ activity: 'evaluateSpendAlerts', args: [{ customerId, at: NOW }] }]);
    expect(await handle.query(nextWakeQuery)).toBe(JULY);

    expect(await advance('2026-06-30T23:59:59.000Z')).toEqual({ caughtUp: true });
    expect(run.calls).toHaveLength(1);

    expect(await advance(JULY)).toEqual({ caughtUp: true });
    expect(run.calls.slice(1)).toEqual([
      { activity: 'resetSpendAlertsForPeriod', args: [{ customerId, periodStart: JULY }] },
      { activity: 'evaluateSpendAlerts', args: [{ customerId, at: JULY }] },
    ]);
    expect(await handle.query(nextWakeQuery)).toBe(AUGUST);
  });

  it('a change signalled just before the period start, with the clock passing it during the debounce, still re-arms that period once', async () => {
    const { customerId, run, handle, advance } = await startEvaluator();
    await advance(NOW);
    await advance('2026-06-30T23:00:00.000Z');
    await handle.signal(spendChangedSignal);
    // The clock moves past the period start while the change is being gathered.
    expect(await advance('2026-07-01T02:00:00.000Z')).toEqual({ caughtUp: true });

    expect(run.calls.slice(1)).toEqual([
      { activity: 'resetSpendAlertsForPeriod', args: [{ customerId, periodStart: JULY }] },
      { activity: 'evaluateSpendAlerts', args: [{ customerId, at: '2026-07-01T02:00:00.000Z' }] },
    ]);
    // The next period start is August's: July's reset is not run a second time.
    await advance('2026-07-15T00:00:00.000Z');
    expect(run.argsOf('resetSpendAlertsForPeriod')).toEqual([[{ customerId, periodStart: JULY }]]);
  });

  it('gathers a burst of changes into one evaluation', async () => {
    const { run, handle, advance } = await startEvaluator();
    await advance(NOW);
    await Promise.all(Array.from({ length: 20 }, () => handle.signal(spendChangedSignal)));
    await advance(NOW);
    // The start's evaluation, then one for the burst (two if a loaded machine spread it over two windows), never one per signal.
    expect(run.argsOf('evaluateSpendAlerts').length).toBeGreaterThanOrEqual(2);
    expect(run.argsOf('evaluateSpendAlerts').length).toBeLessThanOrEqual(3);
  });

  it('ends once the customer has no enabled alert', async () => {
    let enabled = 1;
    const { run, handle, advance } = await startEvaluator({ evaluateSpendAlerts: async ({ at }) => evaluationAt(at, enabled) });
    await advance(NOW);
    enabled = 0;
    await handle.signal(spendChangedSignal);
    await handle.result();
    expect(run.calls.map((call) => call.activity)).toEqual(['evaluateSpendAlerts', 'evaluateSpendAlerts']);
  });

  it('records an evaluation failing for good as the alerts evaluation_error, and evaluates again on the next change', async () => {
    let failed = false;
    const { customerId, run, handle, advance } = await startEvaluator({
      evaluateSpendAlerts: async ({ at }) => {
        if (!failed) {
          failed = true;
          throw deterministicFailure('alert threshold currency mismatch');
        }
        return evaluationAt(at);
      },
    });
    await advance(NOW);
    const error = { step: 'evaluateSpendAlerts', type: 'DeterministicFailure', message: 'alert threshold currency mismatch', failedAt: NOW };
    expect(run.calls).toEqual([
      { activity: 'evaluateSpendAlerts', args: [{ customerId, at: NOW }] },
      { activity: 'recordSpendEvaluationError', args: [{ customerId, error }] },
    ]);

    await handle.signal(spendChangedSignal);
    await advance(NOW);
    expect(run.calls.slice(2)).toEqual([{ activity: 'evaluateSpendAlerts', args: [{ customerId, at: NOW }] }]);
    expect(await handle.query(nextWakeQuery)).toBe(JULY);
  });
});
