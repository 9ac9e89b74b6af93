/**
 * The test-clock advance driven by its own workflow (TEST_CLOCK_DRIVE=workflow; docs/architecture.md):
 * each step's pass runs as batch children that signal the clock's workflows (`clockAdvance`) and take
 * their answers, so no activity drives a workflow. Through the API, PostgreSQL and the Temporal server
 * with the real worker: the period is billed and the clock set ready exactly as with the activity's
 * drive, and a drive failing deterministically ends the advance `internal_failure` with the reason,
 * never retried. The default drive (`activity`) is what the other test-clock tests run.
 */
import { describe, expect, it } from 'vitest';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { testClockAdvanceWorkflowId } from '../../workflows/test-clock-advance/messages.js';
import { advanceClock } from '../support/clock-usage.js';
import { activityAttempts, injectOverflow } from '../support/faults.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { childStartsOf } from '../support/histories.js';
import { expectJson, useHarness } from '../support/harness.js';

const h = useHarness({ testClockDrive: 'workflow' });

const START = '2026-01-01T00:00:00.000Z';
/** Past the first period's end and its invoice's grace (1 h). */
const AFTER_FIRST_PERIOD = '2026-02-01T02:00:00.000Z';

async function subscribe(clockId: string): Promise<string> {
  const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
  const body = { customer_id: customerId, plan_id: await makePlan(h.deps.db), currency: 'USD' };
  return (await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body }), 201)).id;
}

describe('test clock advance driven by its workflow', () => {
  it('bills the period through batch children that signal the subscription, then sets the clock ready', async () => {
    const clockId = await makeTestClock(h.deps.db, START);
    const subscriptionId = await subscribe(clockId);
    expect(await advanceClock(h, clockId, AFTER_FIRST_PERIOD)).toMatchObject({ status: 'ready', frozen_time: AFTER_FIRST_PERIOD });

    const invoices = await h.deps.db.invoice.findMany({ where: { subscriptionId } });
    expect(invoices.map((invoice) => invoice.status)).toEqual(['Open']);
    expect((await expectJson<{ period_start: string }>(await h.request('GET', `/v1/subscriptions/${subscriptionId}`))).period_start).toBe('2026-02-01T00:00:00.000Z');

    const advance = h.deps.temporal.client.workflow.getHandle(testClockAdvanceWorkflowId(clockId));
    expect((await childStartsOf(advance)).length).toBeGreaterThan(0);
    const events = (await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscriptionId)).fetchHistory()).events ?? [];
    expect(events.some((event) => event.workflowExecutionSignaledEventAttributes?.signalName === 'clockAdvance')).toBe(true);
    expect(events.some((event) => event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input?.name === 'advanceTestClock')).toBe(false);
  });

  it('ends a drive failing deterministically as internal_failure with the reason, never retried', async () => {
    const clockId = await makeTestClock(h.deps.db, START);
    await subscribe(clockId);
    // Recording this clock's progress overflows: the drive fails at its first progress write, for good.
    const removeFault = await injectOverflow(h.deps.db, {
      table: 'test_clocks',
      when: `NEW.id = '${clockId}'::uuid AND OLD.status = 'advancing' AND NEW.status = 'advancing'`,
      on: 'UPDATE',
    });
    try {
      await expectJson(await h.request('POST', `/admin/v1/test-clocks/${clockId}/advance`, { body: { frozen_time: AFTER_FIRST_PERIOD } }), 202);
      const advance = h.deps.temporal.client.workflow.getHandle(testClockAdvanceWorkflowId(clockId));
      expect((await advance.result()).error).toMatchObject({ step: 'driveTestClock', type: 'DeterministicFailure' });
      expect((await expectJson<{ status: string }>(await h.request('GET', `/admin/v1/test-clocks/${clockId}`))).status).toBe('internal_failure');
      expect((await activityAttempts(h, advance.workflowId)).recordTestClockProgress).toEqual([1]);
    } finally {
      await removeFault();
    }
  });
});
