/**
 * A spend alert evaluation that fails deterministically (an injected numeric overflow, SQLSTATE
 * 22003, when the evaluation is recorded) is not retried and does not end the evaluator: the
 * customer's alerts show `evaluation_error` with a history entry, an audit entry is written, and
 * once the cause is gone an admin reset (or new usage) evaluates again, which clears it.
 */
import { describe, expect, it } from 'vitest';
import { spendAlertWorkflowId } from '../../workflows/spend-alerts/messages.js';
import { sendUsage } from '../support/clock-usage.js';
import { makeCustomer, makePlan } from '../support/fixtures.js';
import { activityAttempts, injectOverflow } from '../support/faults.js';
import { captureHistory } from '../support/histories.js';
import { expectJson, useHarness } from '../support/harness.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { eventually } from '../support/payments.js';

const h = useHarness();

interface Alert {
  id: string;
  status: string;
  last_spend_nanos: string | null;
  last_evaluated_at: string | null;
  evaluation_error: { step: string; type: string; message: string; failed_at: string } | null;
  history: { kind: string; reason: string | null }[];
}

describe('spend alert evaluation errors', () => {
  it('shows a deterministic evaluation failure on the alerts without retrying it, and clears it when an evaluation succeeds after the fix', async () => {
    const eventType = `alert_poison_${process.pid}`;
    const customerId = await makeCustomer(h.deps.db);
    // Usage only (no fee): 0.01 per event.
    const planId = await makePlan(h.deps.db, { flatNanos: null, meterEventType: eventType });
    const subscription = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
    const alerts = `/admin/v1/customers/${customerId}/alerts`;
    const created = await expectJson<Alert>(await h.request('POST', alerts, { body: { alert_type: 'SoftLimit', threshold_nanos: (100n * UNIT).toString() } }), 201);
    const alertOf = async () => expectJson<Alert>(await h.request('GET', `${alerts}/${created.id}`));
    await eventually(async () => expect((await alertOf()).last_spend_nanos).toBe('0'));

    // Recording this customer's evaluations overflows (as a corrupt stored amount would).
    const dropTrigger = await injectOverflow(h.deps.db, {
      table: 'spend_alerts',
      when: `NEW.customer_id = '${customerId}'::uuid AND NEW.last_evaluated_at IS DISTINCT FROM OLD.last_evaluated_at`,
      on: 'UPDATE',
    });
    const workflow = h.deps.temporal.client.workflow.getHandle(spendAlertWorkflowId(customerId));
    try {
      await sendUsage(h, customerId, subscription.id, 300, new Date().toISOString(), eventType);
      const failed = await eventually(async () => {
        const alert = await alertOf();
        expect(alert.evaluation_error).not.toBeNull();
        return alert;
      });
      expect(failed.evaluation_error).toMatchObject({ step: 'evaluateSpendAlerts', type: 'DeterministicFailure' });
      expect(failed.evaluation_error!.message).toMatch(/overflow|out of range/i);
      // The alert keeps its state and its last good evaluation.
      expect([failed.status, failed.last_spend_nanos]).toEqual(['Armed', '0']);
      expect(failed.history.map((e) => e.kind)).toEqual(['created', 'evaluation_failed']);
      expect(failed.history[1]!.reason).toMatch(/^DeterministicFailure: /);
      const audit = await h.deps.db.auditLogEntry.findFirstOrThrow({ where: { entityId: created.id, action: 'spend_alert.evaluation_failed' } });
      expect(audit.after).toMatchObject({ evaluation_error: { step: 'evaluateSpendAlerts', type: 'DeterministicFailure' } });
      // Never retried: one attempt of the failing evaluation, and the evaluator is still running.
      const attempts = (await activityAttempts(h, workflow.workflowId)).evaluateSpendAlerts!;
      expect(attempts.length).toBeGreaterThanOrEqual(2);
      expect(attempts.every((attempt) => attempt === 1)).toBe(true);
      expect((await workflow.describe()).status.name).toBe('RUNNING');
    } finally {
      await dropTrigger();
    }

    // The cause is fixed; an admin reset evaluates again: the error is cleared and the usage counted.
    await expectJson<Alert>(await h.request('POST', `${alerts}/${created.id}/reset`, { body: {} }));
    const recovered = await eventually(async () => {
      const alert = await alertOf();
      expect(alert.evaluation_error).toBeNull();
      return alert;
    });
    expect([recovered.status, recovered.last_spend_nanos]).toEqual(['Armed', (3n * UNIT).toString()]);
    expect(recovered.history.map((e) => e.kind)).toEqual(['created', 'evaluation_failed', 'evaluation_recovered']);
    expect(await h.deps.db.auditLogEntry.count({ where: { entityId: created.id, action: 'spend_alert.evaluation_recovered' } })).toBe(1);
    expect((await workflow.describe()).status.name).toBe('RUNNING');
    await captureHistory(workflow, 'evaluation-failed-then-recovered');
    await workflow.terminate('test done');
  }, 120_000);
});
