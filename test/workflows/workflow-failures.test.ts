/**
 * The failure taxonomy of the workflows beyond subscriptions and invoices (docs/failures.md),
 * through the API, PostgreSQL and the Temporal server with the real worker: a deterministic failure
 * (an injected numeric overflow, SQLSTATE 22003) is never retried, the resource shows it with the
 * reason, an audit entry is written by the workflow, other customers' work goes on, and an
 * operator's retry after the cause is fixed clears it.
 */
import { describe, expect, it } from 'vitest';
import { testClockAdvanceWorkflowId } from '../../workflows/test-clock-advance/messages.js';
import { advanceClock, waitForClockReady, type TestClockBody } from '../support/clock-usage.js';
import { activityAttempts, injectOverflow } from '../support/faults.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { captureHistory } from '../support/histories.js';
import { expectJson, useHarness } from '../support/harness.js';

const h = useHarness();

interface BillingError {
  step: string;
  type: string;
  message: string;
  failed_at: string;
}
type Clock = TestClockBody & { advance: (NonNullable<TestClockBody['advance']> & { error: BillingError | null }) | null };

const START = '2026-01-01T00:00:00.000Z';
/** Past the first period's end and its invoice's grace (1 h). */
const AFTER_FIRST_PERIOD = '2026-02-01T02:00:00.000Z';

const clockOf = async (id: string) => expectJson<Clock>(await h.request('GET', `/admin/v1/test-clocks/${id}`));
const periodStartOf = async (subscriptionId: string) => (await expectJson<{ period_start: string }>(await h.request('GET', `/v1/subscriptions/${subscriptionId}`))).period_start;

async function subscribe(clockId: string): Promise<string> {
  const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
  const planId = await makePlan(h.deps.db);
  const body = { customer_id: customerId, plan_id: planId, currency: 'USD' };
  return (await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body }), 201)).id;
}

describe('test clock advances', () => {
  it('ends an advance whose drive fails deterministically as internal_failure with the reason, lets other clocks advance, and a new advance retries it', async () => {
    const failingClock = await makeTestClock(h.deps.db, START);
    const otherClock = await makeTestClock(h.deps.db, START);
    const held = await subscribe(failingClock);
    const other = await subscribe(otherClock);
    // Recording this clock's progress overflows: the drive fails after its first step, for good.
    const removeFault = await injectOverflow(h.deps.db, {
      table: 'test_clocks',
      when: `NEW.id = '${failingClock}'::uuid AND OLD.status = 'advancing' AND NEW.status = 'advancing'`,
      on: 'UPDATE',
    });
    try {
      for (const clockId of [failingClock, otherClock]) {
        await expectJson(await h.request('POST', `/admin/v1/test-clocks/${clockId}/advance`, { body: { frozen_time: AFTER_FIRST_PERIOD } }), 202);
      }
      const advance = h.deps.temporal.client.workflow.getHandle(testClockAdvanceWorkflowId(failingClock));
      // The run completes with the failure it recorded on the clock (it no longer fails in Temporal only).
      expect((await advance.result()).error).toMatchObject({ step: 'driveTestClock', type: 'DeterministicFailure' });
      const failed = await clockOf(failingClock);
      expect(failed.status).toBe('internal_failure');
      expect(failed.advance!.error).toMatchObject({ step: 'driveTestClock', type: 'DeterministicFailure' });
      expect(failed.advance!.error!.message).toMatch(/overflow/i);
      expect(failed.advance!.finished_at).not.toBeNull();
      // Never retried.
      expect((await activityAttempts(h, advance.workflowId)).driveTestClock).toEqual([1]);
      const audit = await h.deps.db.auditLogEntry.findFirstOrThrow({ where: { entityId: failingClock, action: 'test_clock.internal_failure' } });
      expect([audit.actorType, audit.actorId]).toEqual(['workflow', advance.workflowId]);
      expect(audit.after).toMatchObject({ status: 'internal_failure', advance: { error: { step: 'driveTestClock', type: 'DeterministicFailure' } } });
      await captureHistory(advance, 'drive-failed-then-internal-failure');

      // The other clock's advance went on: its subscription rolled into its second period.
      expect((await waitForClockReady(h, otherClock)).advance).toMatchObject({ error: null });
      expect(await periodStartOf(other)).toBe('2026-02-01T00:00:00.000Z');
    } finally {
      await removeFault();
    }

    // The cause is fixed: advancing again (to the same time) is the retry; it clears the error.
    const retried = (await advanceClock(h, failingClock, AFTER_FIRST_PERIOD)) as Clock;
    expect(retried).toMatchObject({ status: 'ready', advance: { error: null } });
    expect(await periodStartOf(held)).toBe('2026-02-01T00:00:00.000Z');
  });
});
