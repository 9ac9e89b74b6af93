/**
 * Dimensional pricing end to end (API, PostgreSQL, the subscription workflow's close on a test
 * clock): a SKU grouped by `region` bills one line per region (a listed region at its own price, the
 * others and events without the property at the default), the usage summary and the rating preview
 * show the same breakdown, the explanation names the values, and late usage of one region is an
 * adjustment line for that region only.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { advanceClock } from '../support/clock-usage.js';
import { makeCustomer, makeTestClock } from '../support/fixtures.js';
import { expectJson, useHarness } from '../support/harness.js';
import { invoicesOf } from '../support/invoices.js';

const h = useHarness();
const CENT = UNIT / 100n;
const RUN = randomUUID().slice(0, 8);
const JANUARY = '2026-01-01T00:00:00.000Z';
let seq = 0;

interface Line {
  kind: string;
  sku_id: string | null;
  description: string;
  quantity: string;
  amount_nanos: string;
  period_start: string | null;
  dimensions: Record<string, string | null> | null;
  detail: { dimensions?: Record<string, string | null>; adjustment?: { billed_quantity: string; rated_quantity: string } } | null;
}
interface Invoice {
  id: string;
  period_start: string;
  total_nanos: string;
  line_items: Line[];
}
interface Summary {
  meters: { meter_id: string; billable_value: string; dimensions: { sku_id: string; group_by: string[]; values: { dimensions: Record<string, string | null>; billable_value: string }[] }[] }[];
}

const byRegion = (lines: readonly { dimensions?: Record<string, string | null> | null; quantity: string; amount_nanos: string }[]) =>
  Object.fromEntries(lines.map((line) => [String(line.dimensions?.region ?? null), [line.quantity, line.amount_nanos]]));

async function setUp() {
  const eventType = `api.calls-${RUN}-${(seq += 1)}`;
  const meter = await expectJson<{ id: string }>(
    await h.request('POST', '/admin/v1/meters', { body: { name: `calls ${RUN} ${seq}`, event_type: eventType, aggregation: 'Sum', property: 'units' } }),
    201,
  );
  const plan = await expectJson<{ id: string }>(
    await h.request('POST', '/admin/v1/catalog/plans', { body: { name: `Regions ${RUN}`, description: 'priced per region', billing_cadence: 'Monthly', trial_days: 0 } }),
    201,
  );
  const sku = await expectJson<{ id: string; group_by: string[]; tier_scope: string; dimension_prices: unknown[] }>(
    await h.request('POST', '/admin/v1/catalog/skus', {
      body: {
        plan_id: plan.id,
        name: 'Calls',
        pricing_model: 'Graduated',
        currency: 'USD',
        meter_id: meter.id,
        // Default: 0.02 per unit up to 100, 0.01 beyond; eu: 0.05 per unit.
        tiers: [
          { up_to: 100, unit_amount_nanos: (2n * CENT).toString() },
          { up_to: null, unit_amount_nanos: CENT.toString() },
        ],
        group_by: ['region'],
        dimension_prices: [{ values: { region: 'eu' }, pricing_model: 'PerUnit', unit_amount_nanos: (5n * CENT).toString() }],
      },
    }),
    201,
  );
  expect(sku).toMatchObject({ group_by: ['region'], tier_scope: 'per_value', dimension_prices: [{ values: { region: 'eu' }, pricing_model: 'PerUnit' }] });
  const clockId = await makeTestClock(h.deps.db, JANUARY);
  const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
  const subscription = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: plan.id, currency: 'USD' } }), 201);
  const send = async (events: { at: string; properties: Record<string, unknown> }[]) =>
    expectJson<{ accepted_count: number; late_count: number }>(
      await h.request('POST', '/v1/events/batch', {
        body: {
          events: events.map((e) => ({ id: `dim-${RUN}-${(seq += 1)}`, event_type: eventType, customer_id: customerId, subscription_id: subscription.id, timestamp: e.at, properties: e.properties })),
        },
      }),
    );
  return { meterId: meter.id, planId: plan.id, skuId: sku.id, clockId, subscriptionId: subscription.id, send };
}

describe('dimensional pricing', () => {
  it('bills one line per region with exact amounts; the usage summary, the preview and the explanation show the same values; late usage adjusts its region only', async () => {
    const { meterId, planId, skuId, clockId, subscriptionId, send } = await setUp();
    await advanceClock(h, clockId, '2026-01-20T00:00:00.000Z');
    const sent = await send([
      { at: '2026-01-05T10:00:00Z', properties: { region: 'eu', units: 10 } },
      { at: '2026-01-06T10:00:00Z', properties: { region: 'us', units: 150 } },
      { at: '2026-01-07T10:00:00Z', properties: { region: 'eu', units: 20 } },
      { at: '2026-01-08T10:00:00Z', properties: { units: 50 } },
    ]);
    expect(sent.accepted_count).toBe(4);

    // eu 30 × 0.05 = 1.50; us 100 × 0.02 + 50 × 0.01 = 2.50 (its own tiers); no region 50 × 0.02 = 1.00.
    const expected = { eu: ['30', (150n * CENT).toString()], us: ['150', (250n * CENT).toString()], null: ['50', (100n * CENT).toString()] };

    const summary = await expectJson<Summary>(await h.request('GET', `/v1/subscriptions/${subscriptionId}/usage`));
    const entry = summary.meters.find((m) => m.meter_id === meterId)!;
    expect(entry.billable_value).toBe('230');
    expect(entry.dimensions).toHaveLength(1);
    expect(entry.dimensions[0]).toMatchObject({ sku_id: skuId, group_by: ['region'] });
    const values = entry.dimensions[0]!.values;
    expect(Object.fromEntries(values.map((v) => [String(v.dimensions.region), v.billable_value]))).toEqual({ eu: '30', us: '150', null: '50' });

    const preview = await expectJson<{ lines: { sku_id: string; description: string; dimensions?: Record<string, string | null>; quantity: string; amount_nanos: string }[]; total_nanos: string }>(
      await h.request('POST', '/admin/v1/rating/preview', {
        body: {
          plan_id: planId,
          quantities: {},
          period: { start: '2026-01-01', end: '2026-02-01' },
          dimension_quantities: values.map((v) => ({ sku_id: skuId, dimensions: v.dimensions, quantity: v.billable_value })),
        },
      }),
    );
    expect(byRegion(preview.lines)).toEqual(expected);
    expect(preview.total_nanos).toBe((500n * CENT).toString());

    await advanceClock(h, clockId, '2026-02-01T02:00:00.000Z');
    const [january] = await invoicesOf<Invoice>(h, `subscription_id=${subscriptionId}`);
    const usage = january!.line_items.filter((line) => line.kind === 'usage');
    expect(usage).toHaveLength(3);
    expect(byRegion(usage)).toEqual(expected);
    expect(usage.every((line) => line.sku_id === skuId && line.detail?.dimensions !== undefined)).toBe(true);
    expect(usage.find((line) => line.dimensions?.region === 'eu')!.description).toContain('Calls · region=eu');
    expect(usage.find((line) => line.dimensions?.region === null)!.description).toContain('Calls · region=(none)');
    expect(january!.total_nanos).toBe((500n * CENT).toString());

    const explained = await expectJson<{ lines: { line_id: string; description: string; dimensions: { group_by: string[]; values: Record<string, string | null> } | null }[] }>(
      await h.request('GET', `/v1/invoices/${january!.id}/explain`),
    );
    const explainedEu = explained.lines.find((line) => line.description.includes('region=eu'))!;
    expect(explainedEu.dimensions).toEqual({ group_by: ['region'], values: { region: 'eu' } });

    // 10 more eu units of January arrive after January was invoiced: February bills them for eu only.
    const late = await send([{ at: '2026-01-20T00:00:00Z', properties: { region: 'eu', units: 10 } }]);
    expect(late.late_count).toBe(1);
    await advanceClock(h, clockId, '2026-03-01T02:00:00.000Z');
    const invoices = await invoicesOf<Invoice>(h, `subscription_id=${subscriptionId}`);
    const adjustments = invoices[1]!.line_items.filter((line) => line.period_start === JANUARY);
    expect(adjustments).toHaveLength(1);
    expect(adjustments[0]).toMatchObject({
      kind: 'usage',
      quantity: '10',
      amount_nanos: (50n * CENT).toString(),
      dimensions: { region: 'eu' },
      description: expect.stringContaining('late usage for 2026-01-01 – 2026-02-01'),
      detail: expect.objectContaining({ adjustment: expect.objectContaining({ billed_quantity: '30', rated_quantity: '40' }) }),
    });
  });

  it('answers at most 1,000 values on their own, the first seen; the later ones are one `other` bucket', async () => {
    const { meterId, clockId, subscriptionId, send } = await setUp();
    await advanceClock(h, clockId, '2026-01-20T00:00:00.000Z');
    const region = (i: number) => `r${String(i).padStart(4, '0')}`;
    // 1,000 regions first, then 2 more (and one more event of a known region) in a later batch.
    expect((await send(Array.from({ length: 1000 }, (_, i) => ({ at: '2026-01-10T00:00:00Z', properties: { region: region(i), units: 1 } })))).accepted_count).toBe(1000);
    await send([
      { at: '2026-01-11T00:00:00Z', properties: { region: region(1000), units: 5 } },
      { at: '2026-01-11T00:00:00Z', properties: { region: region(1001), units: 7 } },
      { at: '2026-01-11T00:00:00Z', properties: { region: region(0), units: 2 } },
    ]);
    const summary = await expectJson<Summary>(await h.request('GET', `/v1/subscriptions/${subscriptionId}/usage`));
    const values = summary.meters.find((m) => m.meter_id === meterId)!.dimensions[0]!.values;
    expect(values).toHaveLength(1001);
    const other = values.filter((v) => Object.keys(v.dimensions).length === 0);
    expect(other).toEqual([{ dimensions: {}, billable_value: '12' }]);
    expect(values.find((v) => v.dimensions.region === region(0))!.billable_value).toBe('3');
    expect(values.some((v) => v.dimensions.region === region(1000) || v.dimensions.region === region(1001))).toBe(false);
  });

  it('refuses a grouped SKU without a meter_id and a Percentage SKU naming a meter', async () => {
    const { meterId, planId } = await setUp();
    const noMeter = await h.request('POST', '/admin/v1/catalog/skus', {
      body: { plan_id: planId, name: 'x', pricing_model: 'PerUnit', currency: 'USD', unit_amount_nanos: '1', meter_event_type: 'anything', group_by: ['region'] },
    });
    expect(noMeter.status).toBe(422);
    expect(((await noMeter.json()) as { error: { code: string } }).error.code).toBe('group_by_meter_unsupported');
    const flat = await h.request('POST', '/admin/v1/catalog/skus', {
      body: { plan_id: planId, name: 'x', pricing_model: 'Flat', currency: 'USD', unit_amount_nanos: '1', meter_id: meterId, group_by: ['region'] },
    });
    expect(flat.status).toBe(400);
    expect(JSON.stringify(await flat.json())).toContain('group_by_not_applicable');
    const percentage = await h.request('POST', '/admin/v1/catalog/skus', {
      body: { plan_id: planId, name: 'fees', pricing_model: 'Percentage', currency: 'USD', percentage_bps: 290, amount_property: 'amount', meter_id: meterId },
    });
    expect(percentage.status).toBe(422);
    expect(((await percentage.json()) as { error: { code: string } }).error.code).toBe('meter_not_applicable');
  });
});
