/**
 * The raw usage event retention (USAGE_EVENT_RETENTION_DAYS, docs/usage-and-metering.md "Retention
 * and events over time") on test clocks, against PostgreSQL and the Temporal server: the events of a
 * closed, final, rolled-up period older than the retention (in the clock's time) are deleted and the
 * invoice, its explanation and the period's usage summary answer the same (reconciliation and price
 * simulations leave the period out); events of an open period,
 * of a period whose late events are not billed yet, newer than the retention, not rolled up yet or
 * read by a WEIGHTED_SUM meter stay; a dropped event sent again is refused as too old; reads that
 * would need dropped events are refused, never answered short; the schedule's workflow runs it. A
 * model test: over random usage (late usage included) and closes, two customers sent the same events
 * are billed the same whether one of them is pruned all along or not.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createUsageRetentionActivities } from '../../activities/usage-retention.js';
import { ONE_UNIT } from '../../src/core/index.js';
import { insertMeter } from '../../src/db/metering/meters.js';
import { pruneCustomerEvents } from '../../src/db/metering/retention.js';
import { newId } from '../../src/ids.js';
import { pruneUsageEvents } from '../../src/services/metering/retention.js';
import { runRollupPass } from '../../src/services/metering/usage.js';
import { WORKFLOWS_PATH } from '../../src/temporal/worker.js';
import { USAGE_EVENT_RETENTION_SCHEDULE_ID, type UsageEventRetentionSummary } from '../../workflows/usage-event-retention/messages.js';
import { installTestRuntime } from '../setup/runtime.js';
import { advanceClock, sendUsage } from '../support/clock-usage.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { captureHistory } from '../support/histories.js';
import { expectJson, useHarness } from '../support/harness.js';
import { invoicesOf } from '../support/invoices.js';
import { eventually } from '../support/payments.js';
import { billedUsage } from '../support/usage-billing.js';

// The door as in production: events more than 35 days before the customer's now are refused.
const h = useHarness({ lateUsageMaxDays: 35 });

const RUN = randomUUID().slice(0, 8);
const JANUARY = '2026-01-01T00:00:00.000Z';

/** The services' deps with the retention on: `days` before the customer's now, next to the 35-day door. */
const withRetention = (days: number) => ({ ...h.deps, settings: { ...h.deps.settings, lateUsageMaxDays: 35, usageEventRetentionDays: days } });

/** Rollup passes until every series has rolled up every event stored so far. */
async function rolledUp(): Promise<void> {
  for (;;) {
    const pass = await runRollupPass(h.deps);
    if (!pass.contended && pass.advanced === 0) return;
  }
}

/** A usage-only plan (PerUnit 0.01, monthly unless asked) on an event type of its own. */
async function callsPlan(cadence: 'Monthly' | 'Annual' = 'Monthly'): Promise<{ planId: string; eventType: string }> {
  const eventType = `calls-${RUN}-${randomUUID().slice(0, 6)}`;
  return { planId: await makePlan(h.deps.db, { flatNanos: null, meterEventType: eventType, cadence }), eventType };
}

/** A subscription from January 1 on a clock of its own, the clock then on January 12 (its January 10 events can be sent). */
async function subscribeOnClock(planId: string) {
  const clockId = await makeTestClock(h.deps.db, JANUARY);
  const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
  const subscription = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
  await advanceClock(h, clockId, '2026-01-12T00:00:00.000Z');
  return { clockId, customerId, subscriptionId: subscription.id };
}

const storedEvents = (customerId: string) =>
  h.deps.db.usageEvent.findMany({ where: { customerId }, orderBy: { seq: 'asc' }, select: { id: true, eventType: true, occurredAt: true, late: true } });

interface Line {
  kind: string;
  quantity: string;
  amount_nanos: string;
  subscription_id: string | null;
  period_start: string | null;
}
interface Invoice {
  id: string;
  status: string;
  total_nanos: string;
  line_items: Line[];
}

describe('raw usage event retention', () => {
  it("drops a closed, rolled-up period's events older than the retention in the clock's time; its invoice, explanation and usage summary answer the same", async () => {
    const { planId, eventType } = await callsPlan();
    const { clockId, customerId, subscriptionId } = await subscribeOnClock(planId);
    await sendUsage(h, customerId, subscriptionId, 10, '2026-01-10T12:00:00.000Z', eventType);
    await advanceClock(h, clockId, '2026-02-12T00:00:00.000Z');
    await sendUsage(h, customerId, subscriptionId, 5, '2026-02-10T12:00:00.000Z', eventType);
    // In the clock's time (not the real one, months later) 40 days before March 10 is January 29: nothing is that old and final.
    await advanceClock(h, clockId, '2026-03-10T00:00:00.000Z');
    await rolledUp();
    await pruneUsageEvents(withRetention(40));
    expect(await storedEvents(customerId)).toHaveLength(15);
    // 40 days before March 15 is February 3: January (ended February 1) is final, February not.
    await advanceClock(h, clockId, '2026-03-15T00:00:00.000Z');
    const invoices = await invoicesOf<Invoice>(h, `subscription_id=${subscriptionId}`);
    expect(invoices.map((i) => [i.status, i.total_nanos])).toEqual([
      ['Open', (10n * 10_000_000_000n).toString()],
      ['Open', (5n * 10_000_000_000n).toString()],
    ]);
    const january = invoices[0]!;
    const explanation = await expectJson(await h.request('GET', `/v1/invoices/${january.id}/explain`));
    const summaryOfJanuary = async () => h.request('GET', `/v1/subscriptions/${subscriptionId}/usage?at=2026-01-15T00:00:00Z`);
    const summary = await expectJson<{ meters: { value: string; billable_value: string; event_count: number }[] }>(await summaryOfJanuary());
    expect(summary.meters).toEqual([expect.objectContaining({ value: '10', billable_value: '10', event_count: 10 })]);
    const dropped = (await storedEvents(customerId)).filter((e) => e.occurredAt < new Date('2026-02-01T00:00:00Z'));
    expect(dropped).toHaveLength(10);

    const progress: number[] = [];
    const run = await pruneUsageEvents(withRetention(40), { onProgress: (p) => progress.push(p.deleted) });
    expect(run).toMatchObject({ retentionDays: 40, failed: [] });
    expect(run.deleted).toBeGreaterThanOrEqual(10);
    expect(progress.length).toBeGreaterThan(0);
    expect((await storedEvents(customerId)).map((e) => e.occurredAt.toISOString())).toEqual(Array(5).fill('2026-02-10T12:00:00.000Z'));
    const mark = await h.deps.db.usageEventRetention.findUniqueOrThrow({ where: { customerId_eventType: { customerId, eventType } } });
    expect(mark).toMatchObject({ prunedBefore: new Date('2026-02-03T00:00:00.000Z'), eventsDeleted: 10n });
    expect(mark.rolledUpBy).toContain('default');

    // What stays answers the same: the invoices, the explanation, the period's summary (from rollups).
    expect(await invoicesOf<Invoice>(h, `subscription_id=${subscriptionId}`)).toEqual(invoices);
    expect(await expectJson(await h.request('GET', `/v1/invoices/${january.id}/explain`))).toEqual(explanation);
    expect(await expectJson(await summaryOfJanuary())).toEqual(summary);
    // A window that needs raw events at a dropped edge is refused, never answered short.
    const edge = await h.request('GET', `/v1/subscriptions/${subscriptionId}/usage?from=2026-01-10T00:02:30Z&to=2026-01-20T00:00:00Z`);
    expect(await expectJson(edge, 410)).toMatchObject({ error: { code: 'usage_events_pruned', details: { event_type: eventType, pruned_before: '2026-02-01T00:00:00.000Z' } } });

    // A dropped event sent again is refused as too old: never stored, never counted twice.
    const resent = await h.request('POST', '/v1/events', {
      body: { id: dropped[0]!.id, event_type: eventType, customer_id: customerId, subscription_id: subscriptionId, timestamp: '2026-01-10T12:00:00.000Z', properties: {} },
    });
    expect((await expectJson<{ error: { details: { issues: { code: string }[] } } }>(resent, 400)).error.details.issues).toEqual([expect.objectContaining({ code: 'timestamp_too_old' })]);
    expect(await storedEvents(customerId)).toHaveLength(5);

    // Reconciliation rates February again and lists January as dropped.
    const reconciliation = await expectJson<{ balanced: boolean; usage: { period_start: string; state: string }[]; pruned_periods: unknown[] }>(
      await h.request('GET', `/admin/v1/reconciliation?customer_id=${customerId}`),
    );
    expect(reconciliation.pruned_periods).toEqual([{ subscription_id: subscriptionId, period_start: JANUARY, period_end: '2026-02-01T00:00:00.000Z' }]);
    expect(reconciliation.usage.map((u) => [u.period_start, u.state])).toEqual([['2026-02-01T00:00:00.000Z', 'billed']]);
    expect(reconciliation.balanced).toBe(true);
    // A price simulation over the last 12 periods rates the periods still whole: February.
    const sku = await h.deps.db.sku.findFirstOrThrow({ where: { planId } });
    const simulation = await expectJson<{ id: string }>(
      await h.request('POST', '/admin/v1/simulations', {
        body: {
          candidate: { kind: 'price_changes', plan_id: planId, price_changes: [{ sku_id: sku.id, unit_amount_nanos: (2n * 10_000_000_000n).toString() }] },
          scope: { kind: 'customers', customer_ids: [customerId] },
          range: { last_periods: 12 },
        },
      }),
      202,
    );
    await eventually(async () => expect((await expectJson<{ status: string }>(await h.request('GET', `/admin/v1/simulations/${simulation.id}`))).status).toBe('completed'), 60_000);
    const rated = await h.deps.db.simulationResult.findMany({ where: { simulationId: simulation.id } });
    expect(rated.map((r) => [r.periodStart.toISOString(), r.actualNanos.toFixed(0), r.candidateNanos.toFixed(0)])).toEqual([
      ['2026-02-01T00:00:00.000Z', (5n * 10_000_000_000n).toString(), (10n * 10_000_000_000n).toString()],
    ]);

    // Again: nothing more to drop; and a run resumed after the last customer goes on from there.
    await pruneUsageEvents(withRetention(40));
    expect(await storedEvents(customerId)).toHaveLength(5);
    const last = 'ffffffff-ffff-7fff-bfff-ffffffffffff';
    expect(await pruneUsageEvents(withRetention(40), { resume: { lastCustomerId: last, customers: 7, deleted: 3, failed: [] } })).toEqual({
      retentionDays: 40,
      customers: 7,
      deleted: 3,
      failed: [],
    });
    // Off: nothing is judged.
    expect(await pruneUsageEvents({ ...h.deps, settings: { ...h.deps.settings, usageEventRetentionDays: null } })).toEqual({ retentionDays: null, customers: 0, deleted: 0, failed: [] });
  });

  it('keeps events of an open period, not rolled up yet, or read by a WEIGHTED_SUM meter', async () => {
    // An annual period is open on March 15: its January events stay although older than the retention.
    const annual = await callsPlan('Annual');
    const open = await subscribeOnClock(annual.planId);
    await sendUsage(h, open.customerId, open.subscriptionId, 3, '2026-01-10T12:00:00.000Z', annual.eventType);
    await advanceClock(h, open.clockId, '2026-03-15T00:00:00.000Z');
    // A closed, final January with three types: one priced, one a new meter has not rolled up yet, one a WEIGHTED_SUM meter reads.
    const monthly = await callsPlan();
    const closed = await subscribeOnClock(monthly.planId);
    // Types of this attempt's own, so a retry's set-up does not meet the first attempt's meters.
    const [exportsType, seatsType] = [`exports-${RUN}-${randomUUID().slice(0, 6)}`, `seats-${RUN}-${randomUUID().slice(0, 6)}`];
    await expectJson(await h.request('POST', '/admin/v1/meters', { body: { name: 'Seats', event_type: seatsType, aggregation: 'WEIGHTED_SUM', property: 'seats' } }), 201);
    for (const type of [monthly.eventType, exportsType, seatsType]) await sendUsage(h, closed.customerId, closed.subscriptionId, 2, '2026-01-10T12:00:00.000Z', type);
    await advanceClock(h, closed.clockId, '2026-03-15T00:00:00.000Z');
    await rolledUp();
    // A new meter, its cursor at 0 (inserted as the meters API does, without asking for a rollup pass).
    // Until the prune has looked, the test holds the writers' shared lock on usage_events: a rollup
    // pass of any process (other tests' events ask for them) that could see the new meter finds its
    // horizon contended and leaves the new series alone, instead of rolling it up first.
    const rollupHold = await h.deps.pool.connect();
    try {
      await rollupHold.query(`SELECT pg_advisory_lock_shared('usage_events'::regclass::oid::bigint)`);
      await h.deps.db.$transaction((tx) =>
        insertMeter(tx, { id: newId(), name: 'Exports', description: '', eventType: exportsType, aggregation: 'Count', property: null, filters: [], windowType: 'BillingPeriod', windowSizeSeconds: null, unit: 'events' }),
      );
      // What any process's pass meets meanwhile: the new series behind, its horizon not granted.
      expect(await runRollupPass(h.deps)).toMatchObject({ advanced: 0, contended: true });
      await pruneUsageEvents(withRetention(40));
    } finally {
      await rollupHold.query(`SELECT pg_advisory_unlock_shared('usage_events'::regclass::oid::bigint)`);
      rollupHold.release();
    }
    expect(await storedEvents(open.customerId)).toHaveLength(3);
    const types = async () => (await storedEvents(closed.customerId)).map((e) => e.eventType).sort();
    expect(await types()).toEqual([exportsType, exportsType, seatsType, seatsType]);
    // Once the new meter's first pass rolled them up, the exports go too; the WEIGHTED_SUM type never does.
    await rolledUp();
    await pruneUsageEvents(withRetention(40));
    expect(await types()).toEqual([seatsType, seatsType]);
    // A WEIGHTED_SUM meter would miss the levels of dropped events: refused for a dropped type.
    const refused = await h.request('POST', '/admin/v1/meters', { body: { name: 'Export level', event_type: exportsType, aggregation: 'WEIGHTED_SUM', property: 'size' } });
    expect(await expectJson(refused, 409)).toMatchObject({ error: { code: 'event_type_pruned', details: { event_type: exportsType } } });
  });

  it('keeps a final period whose late events are not billed yet, and drops it once the next close billed them', async () => {
    const { planId, eventType } = await callsPlan();
    const { clockId, customerId, subscriptionId } = await subscribeOnClock(planId);
    await sendUsage(h, customerId, subscriptionId, 4, '2026-01-10T12:00:00.000Z', eventType);
    await advanceClock(h, clockId, '2026-02-01T02:00:00.000Z');
    await advanceClock(h, clockId, '2026-03-05T00:00:00.000Z');
    // 33 days late: taken (the door takes 35), billed by the close of March.
    await sendUsage(h, customerId, subscriptionId, 1, '2026-01-30T12:00:00.000Z', eventType);
    expect((await storedEvents(customerId)).filter((e) => e.late)).toHaveLength(1);
    // 36 days before March 10 is February 2: January (ended February 1) would be old enough, but its late event is not billed.
    await advanceClock(h, clockId, '2026-03-10T00:00:00.000Z');
    await rolledUp();
    await pruneUsageEvents(withRetention(36));
    expect(await storedEvents(customerId)).toHaveLength(5);

    await advanceClock(h, clockId, '2026-04-01T02:00:00.000Z');
    await rolledUp();
    const billedBefore = billedUsage(await invoicesOf<Invoice>(h, `subscription_id=${subscriptionId}`), subscriptionId, JANUARY);
    expect(billedBefore).toBe(5n);
    // Two runs at once delete each event once.
    await Promise.all([pruneUsageEvents(withRetention(36)), pruneUsageEvents(withRetention(36))]);
    expect(await storedEvents(customerId)).toHaveLength(0);
    expect((await h.deps.db.usageEventRetention.findUniqueOrThrow({ where: { customerId_eventType: { customerId, eventType } } })).eventsDeleted).toBe(5n);
    expect(billedUsage(await invoicesOf<Invoice>(h, `subscription_id=${subscriptionId}`), subscriptionId, JANUARY)).toBe(5n);
  });

  it('deletes along the indexes, never scanning usage_events, and only through its function', async () => {
    const { planId, eventType } = await callsPlan();
    const { clockId, customerId, subscriptionId } = await subscribeOnClock(planId);
    await sendUsage(h, customerId, subscriptionId, 20, '2026-01-10T12:00:00.000Z', eventType);
    await advanceClock(h, clockId, '2026-03-15T00:00:00.000Z');
    await rolledUp();
    // Enough other rows that the planner's choices are those of a real table.
    const filler = await makeCustomer(h.deps.db);
    await h.deps.pool.query(
      `INSERT INTO usage_events (id, event_type, customer_id, occurred_at) SELECT 'filler-' || $1::text || '-' || g, 'filler', $1::uuid, now() FROM generate_series(1, 50000) g`,
      [filler],
    );
    await h.deps.pool.query('ANALYZE usage_events');
    await rolledUp();
    const client = new pg.Client({ connectionString: inject('databaseUrl') });
    await client.connect();
    try {
      const plans: string[] = [];
      client.on('notice', (notice) => plans.push(notice.message ?? ''));
      await client.query(`LOAD 'auto_explain'`);
      await client.query(`SET auto_explain.log_min_duration = 0; SET auto_explain.log_nested_statements = on; SET auto_explain.log_level = notice`);
      expect(await pruneCustomerEvents(client, customerId, { retentionDays: 40, lateUsageMaxDays: 35, limit: 5 })).toBe(5);
      const deletes = plans.filter((plan) => plan.includes('Delete on usage_events'));
      expect(deletes.length, plans.join('\n')).toBeGreaterThan(0);
      expect(deletes.join('\n')).toMatch(/(Index Scan using|Bitmap Index Scan on) usage_events_customer_id_event_type_occurred_at_idx/);
      expect(plans.filter((plan) => /Seq Scan on usage_events\b/.test(plan)), plans.join('\n')).toEqual([]);
      // Outside the function even the owner's DELETE is refused (the service's role: test/http/database-role.test.ts).
      await expect(client.query('DELETE FROM usage_events WHERE customer_id = $1', [customerId])).rejects.toThrow(/append-only/);
    } finally {
      await client.end();
    }
    expect(await storedEvents(customerId)).toHaveLength(15);
  });

  it('bills the same with and without pruning, over random usage, late usage and closes (model)', async () => {
    const eventType = `graduated-${RUN}`;
    const plan = await expectJson<{ id: string }>(await h.request('POST', '/admin/v1/catalog/plans', { body: { name: 'Retention model', description: 'retention model', billing_cadence: 'Monthly', trial_days: 0 } }), 201);
    // Graduated: a period rated again without some of its events would bill differently.
    const tiers = [
      { up_to: 5, unit_amount_nanos: (ONE_UNIT / 10n).toString() },
      { up_to: null, unit_amount_nanos: (ONE_UNIT / 40n).toString() },
    ];
    await expectJson(await h.request('POST', '/admin/v1/catalog/skus', { body: { plan_id: plan.id, currency: 'USD', name: 'Calls', pricing_model: 'Graduated', meter_event_type: eventType, tiers } }), 201);
    const DAY = 86_400_000;
    const start = Date.parse(JANUARY);
    // Clock steps (days after January 1, 02:00 so each close's grace has passed) and at each the events sent: up to 34 days back.
    const step = fc.record({ gap: fc.integer({ min: 3, max: 30 }), sent: fc.array(fc.record({ back: fc.integer({ min: 0, max: 34 * 24 }), count: fc.integer({ min: 1, max: 3 }) }), { maxLength: 3 }) });
    const usageOf = async (subscriptionId: string) => {
      const billed = new Map<string, bigint>();
      for (const invoice of await invoicesOf<Invoice>(h, `subscription_id=${subscriptionId}`)) {
        for (const line of invoice.line_items.filter((l) => l.kind === 'usage')) billed.set(line.period_start!, (billed.get(line.period_start!) ?? 0n) + BigInt(line.amount_nanos));
      }
      return [...billed].sort(([a], [b]) => a.localeCompare(b));
    };
    // One customer pruned as the daily run would (36 days, the least the 35-day door allows), after every step.
    const pruneAll = async (customerId: string) => {
      await rolledUp();
      for (;;) if ((await pruneCustomerEvents(h.deps.pool, customerId, { retentionDays: 36, lateUsageMaxDays: 35, limit: 1000 })) < 1000) return;
    };
    let pruned = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 5 }), async (steps) => {
        const clockId = await makeTestClock(h.deps.db, JANUARY);
        const subscribe = async () => {
          const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
          const sub = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: plan.id, currency: 'USD' } }), 201);
          return { customerId, subscriptionId: sub.id };
        };
        const kept = await subscribe();
        const dropped = await subscribe();
        let at = start + 2 * 3_600_000;
        for (const { gap, sent } of steps) {
          at += gap * DAY;
          await advanceClock(h, clockId, new Date(at).toISOString());
          const send = async () => {
            for (const { back, count } of sent) {
              const timestamp = new Date(Math.max(start, at - back * 3_600_000)).toISOString();
              for (const who of [kept, dropped]) await sendUsage(h, who.customerId, who.subscriptionId, count, timestamp, eventType);
            }
          };
          // The prune runs while the step's usage arrives.
          await Promise.all([send(), pruneAll(dropped.customerId)]);
        }
        // Past every close and the late usage it left.
        await advanceClock(h, clockId, new Date(at + 62 * DAY).toISOString());
        await pruneAll(dropped.customerId);
        pruned += (await h.deps.db.usageEvent.count({ where: { customerId: kept.customerId } })) - (await h.deps.db.usageEvent.count({ where: { customerId: dropped.customerId } }));
        expect(await usageOf(dropped.subscriptionId)).toEqual(await usageOf(kept.subscriptionId));
      }),
      { numRuns: 5, endOnFailure: true },
    );
    // The runs did prune (else they would prove nothing).
    expect(pruned).toBeGreaterThan(0);
  }, 600_000);

  it("runs as the schedule's workflow through Temporal", async () => {
    const schedule = await h.deps.temporal.client.schedule.getHandle(USAGE_EVENT_RETENTION_SCHEDULE_ID).describe();
    expect(schedule.action).toMatchObject({ type: 'startWorkflow', workflowType: 'usageEventRetentionWorkflow' });

    const { planId, eventType } = await callsPlan();
    const { clockId, customerId, subscriptionId } = await subscribeOnClock(planId);
    await sendUsage(h, customerId, subscriptionId, 3, '2026-01-10T12:00:00.000Z', eventType);
    await advanceClock(h, clockId, '2026-03-15T00:00:00.000Z');
    await rolledUp();

    // A worker of this file's own with the retention on (the suite's worker runs with it off).
    installTestRuntime();
    const taskQueue = `usage-retention-${RUN}`;
    const connection = await NativeConnection.connect({ address: inject('temporalAddress') });
    const worker = await Worker.create({
      connection,
      taskQueue,
      workflowsPath: WORKFLOWS_PATH,
      activities: createUsageRetentionActivities(withRetention(40)),
    });
    const summary = await worker.runUntil(async () => {
      const handle = await h.deps.temporal.client.workflow.start('usageEventRetentionWorkflow', { taskQueue, workflowId: `usage-event-retention-test-${RUN}` });
      const result = (await handle.result()) as UsageEventRetentionSummary;
      await captureHistory(handle, 'prunes-final-periods-of-test-clock-customers');
      return result;
    });
    await connection.close();
    expect(summary).toMatchObject({ retentionDays: 40, failed: [] });
    expect(summary.deleted).toBeGreaterThanOrEqual(3);
    expect(await storedEvents(customerId)).toEqual([]);
  });
});
