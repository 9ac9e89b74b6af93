/**
 * Bounded sums: quantities are bounded per event, per request and per customer and calendar month,
 * and prices per unit, so that no accumulation of accepted usage can overflow the money columns.
 * What would pass a bound is refused at the door (4xx, nothing stored); what is accepted bills:
 * the largest usage a month may hold, at the largest price per unit, closes into an invoice.
 */
import { describe, expect, it } from 'vitest';
import { MAX_UNIT_AMOUNT } from '../../src/core/index.js';
import { MAX_MONTHLY_QUANTITY } from '../../src/services/metering/events.js';
import { newId } from '../../src/ids.js';
import { advanceClock } from '../support/clock-usage.js';
import { makeCustomer, makeTestClock } from '../support/fixtures.js';
import { expectJson, useHarness } from '../support/harness.js';
import { invoicesOf } from '../support/invoices.js';

const h = useHarness();

interface ErrorBody {
  error: { code: string; message: string; details?: { issues?: { path: string; code?: string }[]; month?: string; customer_id?: string; limit?: string } };
}

/** A whole quantity as the decimal string an event carries. */
const units = (whole: bigint): string => whole.toString();

const usageEvent = (customerId: string, quantity: string, timestamp = '2026-01-10T00:00:00Z') => ({
  id: newId(),
  event_type: 'bounded_usage',
  customer_id: customerId,
  timestamp,
  properties: { quantity },
});

const TENTH = MAX_MONTHLY_QUANTITY / 10n;

async function monthTotal(customerId: string, month: string): Promise<string | null> {
  const rows = await h.deps.db.$queryRaw<{ magnitude: string }[]>`
    SELECT magnitude::text AS magnitude FROM usage_quantity_totals WHERE customer_id = ${customerId}::uuid AND month = ${month}::date`;
  return rows[0]?.magnitude ?? null;
}

const storedCount = (customerId: string) => h.deps.db.usageEvent.count({ where: { customerId } });

describe('bounded usage at the door', () => {
  it('refuses a quantity of more than 18 integer digits in an event', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const res = await h.request('POST', '/v1/events', { body: usageEvent(customerId, '1000000000000000000') });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).error.details?.issues?.map((i) => i.path)).toEqual(['properties.quantity']);
    // The issue's example: 20 digits, refused per event whoever sends it.
    const twenty = await h.request('POST', '/v1/events/batch', { body: { events: [usageEvent(customerId, '99999999999999999999')] } });
    expect(twenty.status).toBe(400);
    expect(await storedCount(customerId)).toBe(0);
  });

  it('refuses a batch that carries more than a month may hold, storing nothing', async () => {
    const customerId = await makeCustomer(h.deps.db);
    // 1,000 events of 999999999999999999 each: every one within the per-event bound, the batch far beyond.
    const events = Array.from({ length: 1000 }, () => usageEvent(customerId, '999999999999999999'));
    const res = await h.request('POST', '/v1/events/batch', { body: { events } });
    expect(res.status).toBe(422);
    const body = (await res.json()) as ErrorBody;
    expect(body.error.code).toBe('quantity_limit_exceeded');
    expect(body.error.details?.limit).toBe(MAX_MONTHLY_QUANTITY.toString());
    expect(await storedCount(customerId)).toBe(0);
    expect(await monthTotal(customerId, '2026-01-01')).toBeNull();
  });

  it('counts each customer month once per stored event, and refuses what would pass its bound', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const first = { events: Array.from({ length: 9 }, () => usageEvent(customerId, units(TENTH))) };
    expect(await expectJson<{ accepted_count: number }>(await h.request('POST', '/v1/events/batch', { body: first }))).toMatchObject({ accepted_count: 9 });
    // Re-sent: duplicates add nothing.
    expect(await expectJson<{ accepted_count: number; duplicate_count: number }>(await h.request('POST', '/v1/events/batch', { body: first }))).toMatchObject({ accepted_count: 0, duplicate_count: 9 });
    expect(await monthTotal(customerId, '2026-01-01')).toBe(`${9n * TENTH}.000000000000`);

    // A tenth and one unit more would pass the month's bound: refused whole, naming the month.
    const over = await h.request('POST', '/v1/events/batch', { body: { events: [usageEvent(customerId, '1'), usageEvent(customerId, units(TENTH))] } });
    expect(over.status).toBe(422);
    const body = (await over.json()) as ErrorBody;
    expect(body.error).toMatchObject({ code: 'quantity_limit_exceeded', details: { month: '2026-01', customer_id: customerId } });
    expect(await storedCount(customerId)).toBe(9);

    // Exactly up to the bound is taken; February is a month of its own; a negative correction
    // (admin) counts by its magnitude too.
    expect((await h.request('POST', '/v1/events', { body: usageEvent(customerId, units(TENTH)) })).status).toBe(200);
    expect(await monthTotal(customerId, '2026-01-01')).toBe(`${MAX_MONTHLY_QUANTITY}.000000000000`);
    const single = await h.request('POST', '/v1/events', { body: usageEvent(customerId, '0.000000000001') });
    expect(single.status).toBe(422);
    expect(((await single.json()) as ErrorBody).error.code).toBe('quantity_limit_exceeded');
    expect((await h.request('POST', '/v1/events', { body: usageEvent(customerId, units(-TENTH), '2026-02-03T00:00:00Z') })).status).toBe(200);
    expect(await monthTotal(customerId, '2026-02-01')).toBe(`${TENTH}.000000000000`);
    expect(await storedCount(customerId)).toBe(11);
  });

  it('lets exactly what fits through when single events race for the last of a month', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const events = Array.from({ length: 5 }, () => usageEvent(customerId, units(3n * TENTH)));
    const statuses = await Promise.all(events.map(async (event) => (await h.request('POST', '/v1/events', { body: event })).status));
    // Coalesced into one statement or not, each event is judged on its own: three fit, two do not.
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 422)).toHaveLength(2);
    expect(await storedCount(customerId)).toBe(3);
    expect(await monthTotal(customerId, '2026-01-01')).toBe(`${9n * TENTH}.000000000000`);
  });

  it('ignores properties no meter reads', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const event = { ...usageEvent(customerId, '2'), properties: { quantity: '2', sent_at_ms: 1767225600000, bytes: '999999999999999999' } };
    expect((await h.request('POST', '/v1/events', { body: event })).status).toBe(200);
    expect(await monthTotal(customerId, '2026-01-01')).toBe('2.000000000000');
  });
});

describe('bounded prices', () => {
  it('refuses a price per unit above MAX_UNIT_AMOUNT and a tier above it, naming each', async () => {
    const plan = await expectJson<{ id: string }>(await h.request('POST', '/admin/v1/catalog/plans', { body: { name: 'Bounded', description: 'prices', billing_cadence: 'Monthly', trial_days: 0 } }), 201);
    const res = await h.request('POST', '/admin/v1/catalog/skus', {
      body: { plan_id: plan.id, name: 'Too dear', pricing_model: 'PerUnit', meter_event_type: 'bounded_usage', currency: 'USD', unit_amount_nanos: (MAX_UNIT_AMOUNT + 1n).toString() },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).error.details?.issues).toEqual([expect.objectContaining({ path: 'unit_amount_nanos', code: 'price_out_of_range' })]);
    const tiered = await h.request('POST', '/admin/v1/catalog/skus', {
      body: {
        plan_id: plan.id,
        name: 'Too dear tiers',
        pricing_model: 'Graduated',
        meter_event_type: 'bounded_usage',
        currency: 'USD',
        tiers: [
          { up_to: 10, unit_amount_nanos: '1' },
          { up_to: null, unit_amount_nanos: (MAX_UNIT_AMOUNT * 2n).toString() },
        ],
      },
    });
    expect(tiered.status).toBe(400);
    expect(((await tiered.json()) as ErrorBody).error.details?.issues).toEqual([expect.objectContaining({ path: 'tiers.1.unit_amount_nanos', code: 'price_out_of_range' })]);
  });
});

describe('the bounds keep every period billable', () => {
  it('closes a month holding the most usage a month may hold, at the highest price per unit, into an invoice', async () => {
    const plan = await expectJson<{ id: string }>(await h.request('POST', '/admin/v1/catalog/plans', { body: { name: 'Largest bill', description: 'bounds', billing_cadence: 'Monthly', trial_days: 0 } }), 201);
    await expectJson(
      await h.request('POST', '/admin/v1/catalog/skus', {
        body: { plan_id: plan.id, name: 'Dearest unit', pricing_model: 'PerUnit', meter_event_type: 'bounded_usage', currency: 'USD', unit_amount_nanos: MAX_UNIT_AMOUNT.toString() },
      }),
      201,
    );
    const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    const subscription = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: plan.id, currency: 'USD' } }), 201);
    await advanceClock(h, clockId, '2026-01-20T00:00:00.000Z');
    const events = Array.from({ length: 10 }, () => ({ ...usageEvent(customerId, units(TENTH)), subscription_id: subscription.id }));
    expect(await expectJson<{ accepted_count: number }>(await h.request('POST', '/v1/events/batch', { body: { events } }))).toMatchObject({ accepted_count: 10 });
    // The month is full: the next unit is refused, not accepted and left to overflow the close.
    expect((await h.request('POST', '/v1/events', { body: { ...usageEvent(customerId, '1'), subscription_id: subscription.id } })).status).toBe(422);

    await advanceClock(h, clockId, '2026-02-01T02:00:00.000Z');
    const [january] = await invoicesOf<{ status: string; billing_reason: string; total_nanos: string; billing_error: unknown }>(h, `subscription_id=${subscription.id}`);
    expect(january).toMatchObject({ billing_reason: 'subscription_cycle', total_nanos: (MAX_MONTHLY_QUANTITY * MAX_UNIT_AMOUNT).toString() });
    expect(january!.status).not.toBe('Draft');
    const held = await h.deps.db.subscription.findUniqueOrThrow({ where: { id: subscription.id } });
    expect(held.billingError).toBeNull();
  });
});
