/**
 * Price simulations (docs/simulations.md) through the API, the simulation workflow and the real
 * worker: two customers billed two periods on a test clock, then re-rated under candidates. The
 * results compare what their invoices billed with what the candidate rates; nothing of billing
 * (invoices and their lines, the ledger, billing's audit entries, subscriptions, period closes)
 * changes.
 */
import type { WorkflowExecutionInfo } from '@temporalio/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { ONE_UNIT } from '../../src/core/index.js';
import type { SimulationView } from '../../src/schemas/simulations.js';
import { createSimulation } from '../../src/services/simulations/simulations.js';
import { querySimulationProgress } from '../../src/temporal/workflows/simulation.js';
import { SIMULATION_ID_ATTRIBUTE, SIMULATION_STATUS_ATTRIBUTE } from '../../workflows/shared/messages.js';
import { simulationWorkflowId } from '../../workflows/simulation/messages.js';
import { advanceClock, sendUsage } from '../support/clock-usage.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { captureHistory } from '../support/histories.js';
import { expectJson, useHarness } from '../support/harness.js';
import { eventually } from '../support/payments.js';

const h = useHarness();
const units = (n: number): string => (BigInt(n) * ONE_UNIT).toString();
const ACTOR = { type: 'admin' as const, id: 'simulation-test' };

let planId: string;
let a: { customer: string; subscription: string };
let b: { customer: string; subscription: string };

/** Everything billing owns that a simulation must leave as it was. */
async function billingState(): Promise<unknown> {
  const [state] = await h.deps.db.$queryRaw<unknown[]>`
    SELECT
      (SELECT json_agg(json_build_object('id', id, 'status', status, 'total', total_nanos::text, 'updated', updated_at) ORDER BY id) FROM invoices) AS invoices,
      (SELECT json_agg(json_build_object('id', id, 'amount', amount_nanos::text) ORDER BY id) FROM invoice_line_items) AS lines,
      (SELECT count(*)::int FROM ledger_entries) AS ledger_entries,
      (SELECT count(*)::int FROM audit_log WHERE entity_type <> 'simulation') AS billing_audit,
      (SELECT json_agg(json_build_object('id', id, 'updated', updated_at) ORDER BY id) FROM subscriptions) AS subscriptions,
      (SELECT json_agg(json_build_object('s', subscription_id, 'p', period_start, 'seq', accounted_seq::text) ORDER BY subscription_id, period_start) FROM subscription_period_closes) AS closes`;
  return state;
}

const finished = (id: string, status: SimulationView['status'] = 'completed') =>
  eventually(async () => {
    const view = await expectJson<SimulationView>(await h.request('GET', `/admin/v1/simulations/${id}`));
    expect(view.status).toBe(status);
    return view;
  }, 60_000);

async function listed(query: string, expectation: (found: WorkflowExecutionInfo[]) => void): Promise<WorkflowExecutionInfo[]> {
  return eventually(async () => {
    const found: WorkflowExecutionInfo[] = [];
    for await (const execution of h.deps.temporal.client.workflow.list({ query })) found.push(execution);
    expectation(found);
    return found;
  });
}

beforeAll(async () => {
  // Two customers on one clock, on a plan of 49.00 a month plus 0.01 per API call, billed January and February.
  const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
  planId = await makePlan(h.deps.db);
  const subscribe = async () => {
    const customer = await makeCustomer(h.deps.db, { testClockId: clockId });
    const body = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customer, plan_id: planId, currency: 'USD' } }), 201);
    return { customer, subscription: body.id };
  };
  a = await subscribe();
  b = await subscribe();
  await sendUsage(h, a.customer, a.subscription, 1000, '2026-01-01T00:00:00.000Z');
  await sendUsage(h, b.customer, b.subscription, 500, '2026-01-01T00:00:00.000Z');
  await advanceClock(h, clockId, '2026-02-01T01:00:00.000Z');
  await sendUsage(h, a.customer, a.subscription, 2000, '2026-02-01T00:30:00.000Z');
  await advanceClock(h, clockId, '2026-03-01T01:00:00.000Z');
}, 300_000);

describe('price simulations', () => {
  it('re-rates every closed period with a price change: per period, totals, distribution, CSV; billing untouched', async () => {
    const before = await billingState();
    const skus = await h.deps.db.sku.findMany({ where: { planId } });
    const calls = skus.find((sku) => sku.meterEventType === 'api_calls')!;
    const started = await expectJson<SimulationView>(
      await h.request('POST', '/admin/v1/simulations', {
        body: {
          candidate: { kind: 'price_changes', plan_id: planId, price_changes: [{ sku_id: calls.id, unit_amount_nanos: (ONE_UNIT / 50n).toString() }] },
          scope: { kind: 'plan', plan_id: planId },
          range: { last_periods: 12 },
        },
      }),
      202,
    );
    expect(started).toMatchObject({ status: 'running', workflow_id: `simulation:${started.id}`, range: { last_periods: 12 } });

    const view = await finished(started.id);
    expect(view.progress).toEqual({ subscriptions_total: 2, subscriptions_done: 2, periods_done: 4 });
    // A: January 49 + 10.00 → 49 + 20.00, February 49 + 20.00 → 49 + 40.00 (+30.00 of 128.00: +23%).
    // B: January 49 + 5.00 → 49 + 10.00, February 49 → 49 (+5.00 of 103.00: +4.9%).
    expect(view.totals).toHaveLength(1);
    const usd = view.totals[0]!;
    expect(usd).toMatchObject({
      currency: 'USD',
      customers: 2,
      actual_nanos: units(231),
      candidate_nanos: units(266),
      delta_nanos: units(35),
      customers_paying_more: 2,
      customers_paying_less: 0,
      customers_unchanged: 0,
    });
    expect(usd.buckets.filter((bucket) => bucket.customers > 0)).toEqual([
      { bucket: 'increase_under_5', customers: 1, delta_nanos: units(5) },
      { bucket: 'increase_20_to_50', customers: 1, delta_nanos: units(30) },
    ]);

    const csv = await h.request('GET', view.results_csv_url);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const [header, ...rows] = (await csv.text()).trimEnd().split('\r\n');
    expect(header).toBe('customer_id,subscription_id,period_start,period_end,currency,actual_nanos,candidate_nanos,delta_nanos');
    const expected = [
      [a, '2026-01-01', '2026-02-01', 59, 69],
      [a, '2026-02-01', '2026-03-01', 69, 89],
      [b, '2026-01-01', '2026-02-01', 54, 59],
      [b, '2026-02-01', '2026-03-01', 49, 49],
    ] as const;
    expect(rows.sort()).toEqual(
      expected
        .map(([who, start, end, actual, candidate]) =>
          [who.customer, who.subscription, `${start}T00:00:00.000Z`, `${end}T00:00:00.000Z`, 'USD', units(actual), units(candidate), units(candidate - actual)].join(','),
        )
        .sort(),
    );

    // Found by its own search attributes, completed; its query answers the final progress.
    const [workflow] = await listed(`SimulationId = '${started.id}'`, (found) => expect(found.map((w) => w.typedSearchAttributes.get(SIMULATION_STATUS_ATTRIBUTE))).toEqual(['completed']));
    expect(workflow!.type).toBe('simulationWorkflow');
    expect(workflow!.typedSearchAttributes.get(SIMULATION_ID_ATTRIBUTE)).toBe(started.id);
    expect(await querySimulationProgress(h.deps.temporal, started.id)).toMatchObject({ status: 'completed', subscriptionsTotal: 2, subscriptionsDone: 2, periodsDone: 4 });

    expect(await billingState()).toEqual(before);
    const audit = await h.deps.db.auditLogEntry.findMany({ where: { entityId: started.id } });
    expect(audit.map((entry) => entry.action)).toEqual(['simulation.created']);
    await captureHistory(h.deps.temporal.client.workflow.getHandle(simulationWorkflowId(started.id)), 'price-changes-two-subscriptions-completed');
  });

  it('rates another plan version for given customers, continuing as new between batches', async () => {
    const cheaper = await makePlan(h.deps.db, { flatNanos: 39n * ONE_UNIT });
    const before = await billingState();
    const started = await createSimulation(
      h.deps,
      { candidate: { kind: 'plan_version', plan_id: cheaper, version: 1 }, scope: { kind: 'customers', customer_ids: [a.customer, b.customer] }, range: { last_periods: 1 } },
      ACTOR,
      'simulation-test-plan-version',
      { batchSize: 1, batchesPerRun: 1 },
    );
    const view = await finished(started.id);
    // Only February: A 69 → 59, B 49 → 39.
    expect(view.progress).toEqual({ subscriptions_total: 2, subscriptions_done: 2, periods_done: 2 });
    expect(view.totals[0]).toMatchObject({ actual_nanos: units(118), candidate_nanos: units(98), delta_nanos: units(-20), customers_paying_less: 2 });
    expect(view.totals[0]!.buckets.filter((bucket) => bucket.customers > 0)).toEqual([
      { bucket: 'decrease_20_to_50', customers: 1, delta_nanos: units(-10) },
      { bucket: 'decrease_10_to_20', customers: 1, delta_nanos: units(-10) },
    ]);
    // One batch per run: the count and A, then B, then the empty batch that completes it.
    await listed(`WorkflowId = '${simulationWorkflowId(started.id)}'`, (found) =>
      expect(found.map((run) => run.status.name).sort()).toEqual(['COMPLETED', 'CONTINUED_AS_NEW', 'CONTINUED_AS_NEW']),
    );
    expect(await billingState()).toEqual(before);
    await captureHistory(h.deps.temporal.client.workflow.getHandle(simulationWorkflowId(started.id)), 'plan-version-continued-as-new-then-completed');
  });

  it("re-rated with the plan's own prices, every period comes out exactly as its close billed it", async () => {
    // The batch reads every period's usage at once (coalesced meter reads): the amounts must still be the close's own.
    const started = await createSimulation(
      h.deps,
      { candidate: { kind: 'plan_version', plan_id: planId, version: 1 }, scope: { kind: 'plan', plan_id: planId }, range: { last_periods: 12 } },
      ACTOR,
      'simulation-test-own-prices',
    );
    const view = await finished(started.id);
    expect(view.progress).toEqual({ subscriptions_total: 2, subscriptions_done: 2, periods_done: 4 });
    const results = await h.deps.db.simulationResult.findMany({ where: { simulationId: started.id } });
    expect(results.map((r) => [r.subscriptionId, r.periodStart.toISOString(), r.actualNanos.toFixed(0)]).sort()).toEqual(
      [
        [a.subscription, '2026-01-01T00:00:00.000Z', units(59)],
        [a.subscription, '2026-02-01T00:00:00.000Z', units(69)],
        [b.subscription, '2026-01-01T00:00:00.000Z', units(54)],
        [b.subscription, '2026-02-01T00:00:00.000Z', units(49)],
      ].sort(),
    );
    expect(results.every((r) => r.candidateNanos.equals(r.actualNanos))).toBe(true);
    expect(view.totals[0]).toMatchObject({ actual_nanos: units(231), candidate_nanos: units(231), delta_nanos: '0', customers_unchanged: 2 });
  });

  it('is cancelled before its next batch, keeping the results so far; a finished one cannot be cancelled', async () => {
    // Holding inserts into the results keeps the first batch from finishing until the cancel is in.
    const hold = await h.deps.pool.connect();
    let id: string;
    try {
      await hold.query('BEGIN');
      await hold.query('LOCK TABLE simulation_results IN SHARE MODE');
      id = (
        await createSimulation(
          h.deps,
          { candidate: { kind: 'plan_version', plan_id: planId, version: 1 }, scope: { kind: 'plan', plan_id: planId }, range: { last_periods: 2 } },
          ACTOR,
          'simulation-test-cancel',
          { batchSize: 1, batchesPerRun: 10 },
        )
      ).id;
      await eventually(async () => expect(await querySimulationProgress(h.deps.temporal, id)).toMatchObject({ subscriptionsTotal: 2 }));
      const cancelling = await expectJson<SimulationView>(await h.request('POST', `/admin/v1/simulations/${id}/cancel`), 202);
      expect(cancelling.status).toBe('cancelling');
      await eventually(async () => expect(await querySimulationProgress(h.deps.temporal, id)).toMatchObject({ status: 'cancelling', subscriptionsDone: 0 }));
    } finally {
      await hold.query('ROLLBACK');
      hold.release();
    }
    const view = await finished(id, 'cancelled');
    // The batch under way finished (and was kept); the next never ran.
    expect(view.progress).toEqual({ subscriptions_total: 2, subscriptions_done: 1, periods_done: 2 });
    expect(view.finished_at).not.toBeNull();
    await listed(`SimulationId = '${id}' AND SimulationStatus = 'cancelled'`, (found) => expect(found).toHaveLength(1));

    const again = await h.request('POST', `/admin/v1/simulations/${id}/cancel`);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('simulation_not_running');
    const audit = await h.deps.db.auditLogEntry.findMany({ where: { entityId: id }, orderBy: { createdAt: 'asc' } });
    expect(audit.map((entry) => entry.action)).toEqual(['simulation.created', 'simulation.cancel_requested']);
    await captureHistory(h.deps.temporal.client.workflow.getHandle(simulationWorkflowId(id)), 'cancelled-during-first-batch');
  });

  it('refuses a bad request with a 4xx naming the field', async () => {
    const post = (body: unknown) => h.request('POST', '/admin/v1/simulations', { body });
    const scope = { kind: 'all' };
    const range = { last_periods: 1 };
    const unknownPlan = await post({ candidate: { kind: 'plan_version', plan_id: '01900000-0000-7000-8000-000000000000', version: 1 }, scope, range });
    expect(unknownPlan.status).toBe(404);
    expect(((await unknownPlan.json()) as { error: { code: string } }).error.code).toBe('plan_not_found');
    const noVersion = await post({ candidate: { kind: 'plan_version', plan_id: planId, version: 7 }, scope, range });
    expect(((await noVersion.json()) as { error: { code: string } }).error.code).toBe('plan_version_not_found');
    const badPrice = await post({ candidate: { kind: 'price_changes', plan_id: planId, price_changes: [{ sku_id: '01900000-0000-7000-8000-000000000000', unit_amount_nanos: '1' }] }, scope, range });
    expect(badPrice.status).toBe(400);
    expect(JSON.stringify(await badPrice.json())).toContain('candidate.price_changes.0.sku_id');
    const tooMany = await post({ candidate: { kind: 'plan_version', plan_id: planId, version: 1 }, scope, range: { last_periods: 37 } });
    expect(tooMany.status).toBe(400);
    const missing = await h.request('GET', '/admin/v1/simulations/01900000-0000-7000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('simulation_not_found');
  });
});
