/**
 * Spend alerts through the API against the real database and Temporal: create, list (only the
 * customer's), get, disable and reset; validation and access; exactly one spend_alert.triggered per
 * crossing under 50 concurrent event batches; the HardLimit blocking the customer's entitlement
 * and capping the invoice; an admin reset with a raised threshold and a second crossing.
 */
import { describe, expect, inject, it } from 'vitest';
import { createDb } from '../../src/db/client.js';
import { makeCustomer, makePlan } from '../support/fixtures.js';
import { expectJson, expectPage, useHarness } from '../support/harness.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { eventually } from '../support/payments.js';
import { captureHistory } from '../support/histories.js';
import { spendAlertWorkflowId } from '../../workflows/spend-alerts/messages.js';
import { evaluateSpendAlerts } from '../../src/services/alerts/spend-alerts.js';

const h = useHarness();

const units = (n: bigint) => (n * UNIT).toString();

interface Alert {
  id: string;
  customer_id: string;
  alert_type: string;
  status: string;
  currency: string;
  threshold_nanos: string;
  scope: { meter_event_type: string | null };
  last_spend_nanos: string | null;
  triggered_at: string | null;
  triggered_spend_nanos: string | null;
  history: { kind: string; reason: string | null; actor: { type: string; id: string } }[];
}
interface ErrorBody {
  error: { code: string; message: string; details?: { issues?: { path: string }[] } };
}

const alertsPath = (customerId: string) => `/admin/v1/customers/${customerId}/alerts`;
const createAlert = async (customerId: string, body: unknown, status = 201) => expectJson<Alert>(await h.request('POST', alertsPath(customerId), { body }), status);

describe('spend alert resources', () => {
  it('creates, lists only the customer\'s alerts, gets, disables and refuses to reset a disabled alert', async () => {
    const customerId = await makeCustomer(h.deps.db, { currency: 'EUR' });
    const otherId = await makeCustomer(h.deps.db);
    const soft = await createAlert(customerId, { alert_type: 'SoftLimit', threshold_nanos: units(100n) });
    expect(soft).toMatchObject({
      customer_id: customerId,
      alert_type: 'SoftLimit',
      status: 'Armed',
      currency: 'EUR',
      threshold_nanos: units(100n),
      threshold: '100.00',
      scope: { meter_event_type: null },
      triggered_at: null,
    });
    expect(soft.history.map((entry) => [entry.kind, entry.actor.type])).toEqual([['created', 'admin']]);
    const hard = await createAlert(customerId, { alert_type: 'HardLimit', threshold_nanos: units(5n), currency: 'USD', scope: { meter_event_type: 'api_calls' } });
    expect(hard).toMatchObject({ currency: 'USD', threshold: '5.00', scope: { meter_event_type: 'api_calls' } });
    const foreign = await createAlert(otherId, { alert_type: 'HardLimit', threshold_nanos: units(1n) });

    const page = await expectPage<Alert>(await h.request('GET', alertsPath(customerId)));
    expect(page.data.map((alert) => alert.id)).toEqual([hard.id, soft.id]);
    const firstPage = await expectPage<Alert>(await h.request('GET', `${alertsPath(customerId)}?limit=1`));
    expect(firstPage).toMatchObject({ has_more: true, next_cursor: hard.id });

    expect((await expectJson<Alert>(await h.request('GET', `${alertsPath(customerId)}/${hard.id}`))).id).toBe(hard.id);
    const notMine = await expectJson<ErrorBody>(await h.request('GET', `${alertsPath(customerId)}/${foreign.id}`), 404);
    expect(notMine.error.code).toBe('spend_alert_not_found');

    const disabled = await expectJson<Alert>(await h.request('DELETE', `${alertsPath(customerId)}/${hard.id}`));
    expect(disabled.status).toBe('Disabled');
    expect(disabled.history.map((entry) => entry.kind)).toEqual(['created', 'disabled']);
    expect((await expectPage<Alert>(await h.request('GET', `${alertsPath(customerId)}?status=Armed`))).data.map((a) => a.id)).toEqual([soft.id]);
    const refused = await expectJson<ErrorBody>(await h.request('POST', `${alertsPath(customerId)}/${hard.id}/reset`), 409);
    expect(refused.error.code).toBe('invalid_state_transition');

    // The database keeps a disabled alert disabled and the history append-only.
    await expect(h.deps.pool.query(`UPDATE spend_alerts SET status = 'Armed' WHERE id = $1`, [hard.id])).rejects.toThrow(/disabled/);
    await expect(h.deps.pool.query('DELETE FROM spend_alerts WHERE id = $1', [soft.id])).rejects.toThrow(/cannot be deleted/);
    await expect(h.deps.pool.query(`UPDATE spend_alert_events SET kind = 'reset' WHERE alert_id = $1`, [hard.id])).rejects.toThrow();
    await expect(h.deps.pool.query('DELETE FROM spend_alert_events WHERE alert_id = $1', [hard.id])).rejects.toThrow();
    expect((await expectJson<Alert>(await h.request('GET', `${alertsPath(customerId)}/${hard.id}`))).history).toHaveLength(2);

    const audit = await h.deps.db.auditLogEntry.findMany({ where: { entityId: hard.id }, orderBy: { id: 'asc' } });
    expect(audit.map((entry) => entry.action)).toEqual(['spend_alert.created', 'spend_alert.disabled']);
  });

  it('refuses bad input with a 400 naming the field, unknown customers with 404, and customer tokens', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const bad: [unknown, string][] = [
      [{ alert_type: 'SoftLimit', threshold_nanos: '0' }, 'threshold_nanos'],
      [{ alert_type: 'SoftLimit', threshold_nanos: '-5' }, 'threshold_nanos'],
      [{ alert_type: 'SoftLimit', threshold_nanos: 100 }, 'threshold_nanos'],
      [{ alert_type: 'Maybe', threshold_nanos: '100' }, 'alert_type'],
      [{ threshold_nanos: '100' }, 'alert_type'],
      [{ alert_type: 'HardLimit', threshold_nanos: '100', currency: 'usd' }, 'currency'],
      [{ alert_type: 'HardLimit', threshold_nanos: '100', scope: { meter: 'x' } }, 'scope.meter'],
      [{ alert_type: 'HardLimit', threshold_nanos: '100', colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of bad) {
      const error = await expectJson<ErrorBody>(await h.request('POST', alertsPath(customerId), { body }), 400);
      expect(error.error.code, JSON.stringify(body)).toBe('validation_failed');
      expect(error.error.details?.issues?.map((issue) => issue.path), JSON.stringify(body)).toContain(field);
    }
    const unknown = await expectJson<ErrorBody>(await h.request('POST', alertsPath('01900000-0000-7000-8000-000000000000'), { body: { alert_type: 'SoftLimit', threshold_nanos: '1' } }), 404);
    expect(unknown.error.code).toBe('customer_not_found');
    expect((await h.request('GET', alertsPath(customerId), { as: { customer: customerId } })).status).toBe(403);

    // The entitlement: a customer token reads its own, nobody else's.
    const own = await expectJson<{ status: string; blocked_by: unknown[] }>(await h.request('GET', `/v1/customers/${customerId}/entitlement`, { as: { customer: customerId } }));
    expect(own).toEqual({ customer_id: customerId, status: 'active', blocked_by: [] });
    const otherId = await makeCustomer(h.deps.db);
    expect((await h.request('GET', `/v1/customers/${otherId}/entitlement`, { as: { customer: customerId } })).status).toBe(404);
  });
});

describe('spend alert evaluation', () => {
  it('writes exactly one event per crossing under 50 concurrent batches, blocks on the HardLimit, caps the invoice, and triggers again after an admin reset', async () => {
    const customerId = await makeCustomer(h.deps.db);
    // 0.01 per API call, no fee.
    const planId = await makePlan(h.deps.db, { flatNanos: null });
    const subscription = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
    const soft = await createAlert(customerId, { alert_type: 'SoftLimit', threshold_nanos: units(10n) });
    const hard = await createAlert(customerId, { alert_type: 'HardLimit', threshold_nanos: units(20n) });
    const alert = async (id: string) => expectJson<Alert>(await h.request('GET', `${alertsPath(customerId)}/${id}`));
    const evaluatedAt = async (spend: bigint) =>
      eventually(async () => {
        for (const id of [soft.id, hard.id]) expect((await alert(id)).last_spend_nanos).toBe(units(spend));
      }, 30_000);
    const triggered = async (alertId: string) =>
      (await h.deps.db.outboxEvent.findMany({ where: { type: 'spend_alert.triggered', aggregateId: alertId }, orderBy: { id: 'asc' } })).map(
        (row) => (row.payload as { data: Record<string, unknown> }).data,
      );
    const entitlement = async () =>
      expectJson<{ status: string; blocked_by: { alert_id: string }[] }>(await h.request('GET', `/v1/customers/${customerId}/entitlement`, { as: { customer: customerId } }));

    let seq = 0;
    const batch = (size: number) => ({
      events: Array.from({ length: size }, () => ({
        id: `spend-http-${customerId}-${(seq += 1)}`,
        event_type: 'api_calls',
        customer_id: customerId,
        subscription_id: subscription.id,
        timestamp: new Date().toISOString(),
        properties: {},
      })),
    });

    // 50 batches of 50 calls at once: 25.00 crosses both thresholds.
    const answers = await Promise.all(Array.from({ length: 50 }, () => h.request('POST', '/v1/events/batch', { body: batch(50) })));
    expect(answers.map((res) => res.status)).toEqual(Array.from({ length: 50 }, () => 200));
    await evaluatedAt(25n);
    // An evaluation may run while the batches still arrive: the spend it saw is at least the threshold.
    const [softEvent] = await triggered(soft.id);
    expect(await triggered(soft.id)).toEqual([{ alert_type: 'SoftLimit', customer_id: customerId, threshold_nanos: units(10n), alert_id: soft.id, currency: 'USD', spend_nanos: softEvent!.spend_nanos }]);
    expect(BigInt(softEvent!.spend_nanos as string) >= 10n * UNIT).toBe(true);
    const [hardEvent] = await triggered(hard.id);
    expect(await triggered(hard.id)).toEqual([{ alert_type: 'HardLimit', customer_id: customerId, threshold_nanos: units(20n), alert_id: hard.id, currency: 'USD', spend_nanos: hardEvent!.spend_nanos }]);
    expect(BigInt(hardEvent!.spend_nanos as string) >= 20n * UNIT).toBe(true);
    expect(await alert(hard.id)).toMatchObject({ status: 'Triggered', triggered_spend_nanos: hardEvent!.spend_nanos });
    expect(await entitlement()).toMatchObject({ status: 'blocked', blocked_by: [{ alert_id: hard.id }] });

    // More usage while blocked is recorded, and triggers nothing again.
    await expectJson(await h.request('POST', '/v1/events/batch', { body: batch(100) }));
    await evaluatedAt(26n);
    expect(await triggered(hard.id)).toHaveLength(1);
    expect(await triggered(soft.id)).toHaveLength(1);

    // An admin raises the HardLimit to 30.00: Armed again, unblocked; 31.00 is a new crossing.
    const reset = await expectJson<Alert>(await h.request('POST', `${alertsPath(customerId)}/${hard.id}/reset`, { body: { threshold_nanos: units(30n) } }));
    expect(reset).toMatchObject({ status: 'Armed', threshold_nanos: units(30n), triggered_at: null });
    expect(reset.history.map((entry) => [entry.kind, entry.reason])).toEqual([
      ['created', null],
      ['triggered', null],
      ['reset', 'admin'],
    ]);
    expect((await entitlement()).status).toBe('active');
    await Promise.all(Array.from({ length: 10 }, () => h.request('POST', '/v1/events/batch', { body: batch(50) })));
    await evaluatedAt(31n);
    expect((await triggered(hard.id)).map((data) => data.threshold_nanos)).toEqual([units(20n), units(30n)]);
    expect(await triggered(soft.id)).toHaveLength(1);
    expect((await entitlement()).status).toBe('blocked');

    // Billing now: 3,100 calls rated at 31.00, charged 30.00, 1.00 withheld.
    const draft = await expectJson<{ id: string }>(await h.request('POST', `/admin/v1/subscriptions/${subscription.id}/bill`), 201);
    await expectJson(await h.request('POST', `/admin/v1/invoices/${draft.id}/finalize`));
    const invoice = await expectJson<{ total_nanos: string; amount_due_nanos: string; spend_cap_withheld_nanos: string; line_items: { kind: string; amount_nanos: string }[] }>(
      await h.request('GET', `/admin/v1/invoices/${draft.id}`),
    );
    expect(invoice).toMatchObject({ total_nanos: units(30n), amount_due_nanos: units(30n), spend_cap_withheld_nanos: units(1n), spend_cap_withheld: '1.00' });
    expect(invoice.line_items.map((line) => [line.kind, line.amount_nanos])).toEqual([
      ['usage', units(31n)],
      ['spend_cap', (-UNIT).toString()],
    ]);
    await captureHistory(h.deps.temporal.client.workflow.getHandle(spendAlertWorkflowId(customerId)), 'real-time-concurrent-batches-admin-reset-crossed-again');
  }, 120_000);

  it('records a crossing once when 20 evaluations race (the conditional Armed → Triggered update decides)', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const planId = await makePlan(h.deps.db, { flatNanos: null });
    const subscription = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
    const hard = await createAlert(customerId, { alert_type: 'HardLimit', threshold_nanos: units(1n) });
    const events = Array.from({ length: 200 }, (_, i) => ({
      id: `spend-race-${customerId}-${i}`,
      event_type: 'api_calls',
      customer_id: customerId,
      subscription_id: subscription.id,
      timestamp: new Date().toISOString(),
      properties: {},
    }));
    await expectJson(await h.request('POST', '/v1/events/batch', { body: { events } }));
    // The evaluator workflow races these too. A pool of its own, one connection per evaluation.
    const { db, pool } = createDb(inject('databaseUrl'), 20);
    try {
      await Promise.all(Array.from({ length: 20 }, () => evaluateSpendAlerts(db, customerId, new Date())));
    } finally {
      await db.$disconnect();
      await pool.end();
    }
    await eventually(async () => expect((await createdAlert(hard.id, customerId)).last_spend_nanos).toBe(units(2n)));
    expect(await h.deps.db.outboxEvent.count({ where: { type: 'spend_alert.triggered', aggregateId: hard.id } })).toBe(1);
    expect((await createdAlert(hard.id, customerId)).history.filter((entry) => entry.kind === 'triggered')).toHaveLength(1);
  });
});

async function createdAlert(id: string, customerId: string): Promise<Alert> {
  return expectJson<Alert>(await h.request('GET', `${alertsPath(customerId)}/${id}`));
}
