/**
 * The pricing models real catalogs use, end to end: each created through the catalog API, its usage
 * sent as events, and the period billed by a period close (test clock), every amount exact:
 * Package with free units, flat fees per tier on Graduated and Volume, Percentage of an event amount,
 * and a minimum spend made up by a true-up line. The rating preview prices the same plan identically
 * and shows the tier breakdown the invoice lines carry.
 */
import { describe, expect, it } from 'vitest';
import { ONE_UNIT as U, MAX_UNIT_AMOUNT } from '../../src/core/index.js';
import { newId } from '../../src/ids.js';
import { advanceClock } from '../support/clock-usage.js';
import { makeCustomer, makeTestClock } from '../support/fixtures.js';
import { expectJson, useHarness } from '../support/harness.js';
import { invoicesOf } from '../support/invoices.js';

const h = useHarness();
const CENT = U / 100n;

interface Tier {
  tier: number;
  from: string;
  up_to: string | null;
  quantity: string;
  unit_amount_nanos: string;
  flat_amount_nanos: string;
  amount_nanos: string;
}

interface Line {
  kind: string;
  sku_id: string | null;
  period_start: string | null;
  description: string;
  quantity: string;
  amount_nanos: string;
  unit_amount_nanos: string | null;
  detail: {
    tiers?: Tier[];
    package?: { free_units: string; packages: string };
    percentage?: { basis_points: number; per_event_fee_nanos: string };
    minimum_amount_nanos?: string;
    usage_amount_nanos?: string;
    amount_nanos?: string;
  } | null;
}

interface Invoice {
  status: string;
  billing_reason: string;
  subtotal_nanos: string;
  line_items: Line[];
}

interface ErrorBody {
  error: { code: string; details?: { issues?: { path: string; code?: string }[] } };
}

const TIERS = [
  { up_to: 100, unit_amount_nanos: `${U}`, flat_amount_nanos: `${10n * U}` },
  { up_to: 1000, unit_amount_nanos: `${U / 2n}`, flat_amount_nanos: `${20n * U}` },
  { up_to: null, unit_amount_nanos: `${U / 10n}`, flat_amount_nanos: `${50n * U}` },
];

async function createSku(planId: string, body: Record<string, unknown>): Promise<string> {
  return (await expectJson<{ id: string }>(await h.request('POST', '/admin/v1/catalog/skus', { body: { plan_id: planId, currency: 'USD', ...body } }), 201)).id;
}

async function makeCatalog(): Promise<{ planId: string; skus: Record<'storage' | 'tokens' | 'seats' | 'cards' | 'calls', string> }> {
  const plan = await expectJson<{ id: string }>(
    await h.request('POST', '/admin/v1/catalog/plans', { body: { name: 'Real catalog', description: 'pricing models', billing_cadence: 'Monthly', trial_days: 0 } }),
    201,
  );
  const skus = {
    // 1,000 free, then 5.00 per started package of 100.
    storage: await createSku(plan.id, {
      name: 'Storage',
      pricing_model: 'Package',
      meter_event_type: 'pm_storage',
      unit_amount_nanos: `${5n * U}`,
      package_size: '100',
      package_free_units: '1000',
    }),
    tokens: await createSku(plan.id, { name: 'Tokens', pricing_model: 'Graduated', meter_event_type: 'pm_tokens', tiers: TIERS }),
    seats: await createSku(plan.id, { name: 'Seats', pricing_model: 'Volume', meter_event_type: 'pm_seats', tiers: TIERS }),
    // 2.9% + 0.30 per payment, at least 0.50, at most 10.00.
    cards: await createSku(plan.id, {
      name: 'Card payments',
      pricing_model: 'Percentage',
      meter_event_type: 'pm_payment',
      amount_property: 'amount',
      percentage_bps: 290,
      per_event_fee_nanos: `${30n * CENT}`,
      per_event_minimum_nanos: `${50n * CENT}`,
      per_event_maximum_nanos: `${10n * U}`,
    }),
    // 1.00 per call, at least 100.00 a month.
    calls: await createSku(plan.id, {
      name: 'Calls',
      pricing_model: 'PerUnit',
      meter_event_type: 'pm_calls',
      unit_amount_nanos: `${U}`,
      minimum_amount_nanos: `${100n * U}`,
    }),
  };
  return { planId: plan.id, skus };
}

/** The catalog, and a customer on a test clock subscribed to it on 2026-01-01, the clock now at 2026-01-16. */
async function subscribeMidJanuary() {
  const catalog = await makeCatalog();
  const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
  const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
  const body = { customer_id: customerId, plan_id: catalog.planId, currency: 'USD' };
  const subscription = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body }), 201);
  await advanceClock(h, clockId, '2026-01-16T00:00:00.000Z');
  return { ...catalog, clockId, customerId, subscriptionId: subscription.id };
}

const event = (customerId: string, subscriptionId: string, eventType: string, properties: Record<string, unknown>) => ({
  id: newId(),
  event_type: eventType,
  customer_id: customerId,
  subscription_id: subscriptionId,
  timestamp: '2026-01-15T12:00:00Z',
  properties,
});

// Expected, by hand (raw units):
const STORAGE = 15n * U; // 1,250 units: 250 beyond the free 1,000 = 3 started packages × 5.00
const TOKENS = 630n * U + 10n * CENT; // 1,001: 100 × 1.00 + 10.00 + 900 × 0.50 + 20.00 + 1 × 0.10 + 50.00
const SEATS = 70n * U + 50n * CENT; // 101 seats, all at 0.50, + the tier's 20.00
const CARDS = 14_358_005_000_000n; // 3.20 (100.00) + 0.50 (5.00: min) + 10.00 (1,000.00: max) + 0.658005 (12.345); -20 and no amount: nothing
const CALLS = 30n * U; // 30 calls
const CALLS_TRUE_UP = 70n * U; // minimum 100.00 − 30.00

describe('pricing models billed by a period close', () => {
  it('bills Package free units, tier flat fees, Percentage and a minimum true-up exactly', async () => {
    const { planId, skus, clockId, customerId, subscriptionId: s } = await subscribeMidJanuary();
    const events = [
      event(customerId, s, 'pm_storage', { quantity: 1250 }),
      event(customerId, s, 'pm_tokens', { quantity: 1001 }),
      event(customerId, s, 'pm_seats', { quantity: 101 }),
      ...['100.00', 5, 1000, '12.345', -20].map((amount) => event(customerId, s, 'pm_payment', { amount, currency: 'USD' })),
      event(customerId, s, 'pm_payment', { note: 'no amount: not charged' }),
      event(customerId, s, 'pm_calls', { quantity: 30 }),
    ];
    expect(await expectJson<{ accepted_count: number }>(await h.request('POST', '/v1/events/batch', { body: { events } }))).toMatchObject({ accepted_count: events.length });

    await advanceClock(h, clockId, '2026-02-01T02:00:00.000Z');
    const [january] = await invoicesOf<Invoice>(h, `subscription_id=${s}`);
    expect(january).toMatchObject({ billing_reason: 'subscription_cycle' });
    const lines = january!.line_items;
    const line = (skuId: string, kind = 'usage'): Line => {
      const found = lines.find((l) => l.sku_id === skuId && l.kind === kind);
      expect(found, `${kind} line of ${skuId} in ${JSON.stringify(lines)}`).toBeDefined();
      return found as Line;
    };

    expect(line(skus.storage)).toMatchObject({ quantity: '1250', amount_nanos: `${STORAGE}`, detail: { package: { free_units: '1000', packages: '3' } } });
    // A Graduated line has no one unit price (its tiers below have several); a Volume line shows its tier's.
    expect(line(skus.tokens)).toMatchObject({ quantity: '1001', amount_nanos: `${TOKENS}`, unit_amount_nanos: null });
    // The tier breakdown each line was priced from: quantity, unit, flat fee and amount per tier.
    expect(line(skus.tokens).detail?.tiers).toEqual([
      { tier: 0, from: '0', up_to: '100', quantity: '100', unit_amount_nanos: `${U}`, flat_amount_nanos: `${10n * U}`, amount_nanos: `${110n * U}` },
      { tier: 1, from: '100', up_to: '1000', quantity: '900', unit_amount_nanos: `${U / 2n}`, flat_amount_nanos: `${20n * U}`, amount_nanos: `${470n * U}` },
      { tier: 2, from: '1000', up_to: null, quantity: '1', unit_amount_nanos: `${U / 10n}`, flat_amount_nanos: `${50n * U}`, amount_nanos: `${50n * U + 10n * CENT}` },
    ]);
    expect(line(skus.seats)).toMatchObject({ quantity: '101', amount_nanos: `${SEATS}`, unit_amount_nanos: `${U / 2n}` });
    expect(line(skus.seats).detail?.tiers).toEqual([
      { tier: 1, from: '100', up_to: '1000', quantity: '101', unit_amount_nanos: `${U / 2n}`, flat_amount_nanos: `${20n * U}`, amount_nanos: `${SEATS}` },
    ]);
    expect(line(skus.cards)).toMatchObject({ quantity: '14.358005', amount_nanos: `${CARDS}`, detail: { percentage: { basis_points: 290, per_event_fee_nanos: `${30n * CENT}` } } });
    expect(line(skus.calls)).toMatchObject({ quantity: '30', amount_nanos: `${CALLS}` });
    expect(line(skus.calls, 'minimum')).toMatchObject({
      quantity: '1',
      amount_nanos: `${CALLS_TRUE_UP}`,
      detail: { minimum_amount_nanos: `${100n * U}`, usage_amount_nanos: `${CALLS}`, amount_nanos: `${CALLS_TRUE_UP}` },
    });
    expect(lines.filter((l) => l.kind === 'minimum')).toHaveLength(1);
    expect(january!.subtotal_nanos).toBe(`${STORAGE + TOKENS + SEATS + CARDS + CALLS + CALLS_TRUE_UP}`);

    // The rating preview prices the same usage identically (the Percentage SKU keyed by its sku_id).
    const preview = await expectJson<{ total_nanos: string; lines: { sku_id: string; tiers: Tier[] }[]; minimums: { sku_id: string; amount_nanos: string }[] }>(
      await h.request('POST', '/admin/v1/rating/preview', {
        body: {
          plan_id: planId,
          period: { start: '2026-01-01', end: '2026-02-01' },
          quantities: { pm_storage: '1250', pm_tokens: '1001', pm_seats: '101', [skus.cards]: '14.358005', pm_calls: '30' },
        },
      }),
    );
    expect(preview.total_nanos).toBe(january!.subtotal_nanos);
    expect(preview.minimums).toEqual([expect.objectContaining({ sku_id: skus.calls, amount_nanos: `${CALLS_TRUE_UP}` })]);
    expect(preview.lines.find((l) => l.sku_id === skus.tokens)?.tiers).toEqual(line(skus.tokens).detail?.tiers);

    // 50 calls of January arrive after its close: February's close bills them as late usage, and
    // January's minimum is judged again: its true-up shrinks by as much (70.00 → 20.00).
    const late = { ...event(customerId, s, 'pm_calls', { quantity: 50 }), timestamp: '2026-01-20T00:00:00Z' };
    expect((await h.request('POST', '/v1/events', { body: late })).status).toBe(200);
    await advanceClock(h, clockId, '2026-03-01T02:00:00.000Z');
    const [, february] = await invoicesOf<Invoice>(h, `subscription_id=${s}`);
    const forJanuary = february!.line_items.filter((l) => l.period_start === '2026-01-01T00:00:00.000Z' && l.sku_id === skus.calls);
    expect(forJanuary.map((l) => [l.kind, l.quantity, l.amount_nanos])).toEqual(
      expect.arrayContaining([
        ['usage', '50', `${50n * U}`],
        ['minimum', '0', `${-50n * U}`],
      ]),
    );
    expect(forJanuary).toHaveLength(2);
    // February's own minimum: no calls at all, so the whole 100.00.
    const februaryMinimum = february!.line_items.filter((l) => l.period_start === '2026-02-01T00:00:00.000Z' && l.kind === 'minimum');
    expect(februaryMinimum.map((l) => l.amount_nanos)).toEqual([`${100n * U}`]);
  });

  it('bills no true-up once usage reaches the minimum', async () => {
    const { skus, clockId, customerId, subscriptionId } = await subscribeMidJanuary();
    const calls = event(customerId, subscriptionId, 'pm_calls', { quantity: 120 });
    expect((await h.request('POST', '/v1/events', { body: calls })).status).toBe(200);
    await advanceClock(h, clockId, '2026-02-01T02:00:00.000Z');
    const [january] = await invoicesOf<Invoice>(h, `subscription_id=${subscriptionId}`);
    expect(january!.line_items.filter((l) => l.kind === 'minimum')).toEqual([]);
    expect(january!.line_items.find((l) => l.sku_id === skus.calls)).toMatchObject({ amount_nanos: `${120n * U}` });
    expect(january!.subtotal_nanos).toBe(`${120n * U}`);
  });
});

describe('the catalog API refuses what the models cannot price', () => {
  it('names every offending field of a Percentage SKU, and bounds its amounts', async () => {
    const plan = await expectJson<{ id: string }>(
      await h.request('POST', '/admin/v1/catalog/plans', { body: { name: 'Refusals', description: 'pricing models', billing_cadence: 'Monthly', trial_days: 0 } }),
      201,
    );
    const res = await h.request('POST', '/admin/v1/catalog/skus', {
      body: {
        plan_id: plan.id,
        name: 'Bad payments',
        pricing_model: 'Percentage',
        meter_event_type: 'pm_payment',
        currency: 'USD',
        unit_amount_nanos: '1',
        package_free_units: '10',
        per_event_minimum_nanos: `${2n * U}`,
        per_event_maximum_nanos: `${U}`,
      },
    });
    expect(res.status).toBe(400);
    const issues = ((await res.json()) as ErrorBody).error.details?.issues?.map((i) => `${i.path}:${i.code}`);
    expect(issues).toEqual(
      expect.arrayContaining([
        'unit_amount_nanos:field_not_applicable',
        'package_free_units:field_not_applicable',
        'percentage_bps:invalid_percentage',
        'amount_property:amount_property_required',
        'per_event_minimum_nanos:minimum_above_maximum',
      ]),
    );
    // A price the model can take but beyond the bounds that keep every period's sum in DECIMAL(38,0).
    const dear = await h.request('POST', '/admin/v1/catalog/skus', {
      body: {
        plan_id: plan.id,
        name: 'Dear payments',
        pricing_model: 'Percentage',
        meter_event_type: 'pm_payment',
        currency: 'USD',
        percentage_bps: 100,
        amount_property: 'amount',
        per_event_fee_nanos: `${MAX_UNIT_AMOUNT + 1n}`,
        minimum_amount_nanos: `${10n ** 30n + 1n}`,
      },
    });
    expect(dear.status).toBe(400);
    expect(((await dear.json()) as ErrorBody).error.details?.issues?.map((i) => `${i.path}:${i.code}`)).toEqual([
      'minimum_amount_nanos:price_out_of_range',
      'per_event_fee_nanos:price_out_of_range',
    ]);
    const flatMinimum = await h.request('POST', '/admin/v1/catalog/skus', {
      body: { plan_id: plan.id, name: 'Fee', pricing_model: 'Flat', currency: 'USD', unit_amount_nanos: `${U}`, minimum_amount_nanos: `${U}` },
    });
    expect(flatMinimum.status).toBe(400);
    expect(((await flatMinimum.json()) as ErrorBody).error.details?.issues?.map((i) => `${i.path}:${i.code}`)).toEqual(['minimum_amount_nanos:minimum_not_allowed']);
  });

  it("bounds a Percentage SKU's amount property at the door like a meter's", async () => {
    const { skus } = await makeCatalog();
    expect(skus.cards).toBeDefined();
    const customerId = await makeCustomer(h.deps.db);
    const bad = await h.request('POST', '/v1/events', {
      body: { id: newId(), event_type: 'pm_payment', customer_id: customerId, timestamp: '2026-01-15T12:00:00Z', properties: { amount: 'twelve' } },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorBody).error.details?.issues?.map((i) => i.path)).toEqual(['properties.amount']);
  });
});
