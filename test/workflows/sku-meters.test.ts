/**
 * SKUs price meters, end to end through the API, PostgreSQL and the subscription workflow's period
 * close on a test clock: several meters of one event type (each with its filters) priced by their
 * own SKUs on one invoice, every aggregation × window billed as it aggregates (the usage summary's
 * billable_value and the invoice agree), and the catalog's refusals of a SKU's meter.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { advanceClock } from '../support/clock-usage.js';
import { makeCustomer, makeTestClock } from '../support/fixtures.js';
import { expectJson, useHarness } from '../support/harness.js';
import { invoicesOf } from '../support/invoices.js';

const h = useHarness();

interface MeterView {
  meter_id: string;
  event_type: string;
  aggregation: string;
  filters: unknown[];
  window_type: string;
  window_size: string | null;
}
interface Line {
  kind: string;
  sku_id: string | null;
  quantity: string;
  amount_nanos: string;
  detail: { meter?: MeterView } | null;
}
interface Invoice {
  id: string;
  status: string;
  total_nanos: string;
  line_items: Line[];
}
interface Summary {
  meters: { meter_id: string; aggregation: string; window_type: string; value: string; billable_value: string }[];
}
interface ErrorBody {
  error: { code: string; details?: Record<string, unknown> };
}

const RUN = randomUUID().slice(0, 8);
let seq = 0;
const uniqueType = (name: string) => `${name}-${RUN}-${(seq += 1)}`;

const createMeter = async (body: Record<string, unknown>) =>
  expectJson<{ id: string; aggregation: string }>(await h.request('POST', '/admin/v1/meters', { body: { name: `meter ${(seq += 1)}`, ...body } }), 201);

async function createPlan(): Promise<string> {
  const plan = await expectJson<{ id: string }>(
    await h.request('POST', '/admin/v1/catalog/plans', { body: { name: `Metered ${RUN}`, description: 'priced by meters', billing_cadence: 'Monthly', trial_days: 0 } }),
    201,
  );
  return plan.id;
}

const createSku = (planId: string, body: Record<string, unknown>) =>
  h.request('POST', '/admin/v1/catalog/skus', { body: { plan_id: planId, pricing_model: 'PerUnit', currency: 'USD', ...body } });

/** A customer on a test clock at 2026-01-01 subscribed to the plan. */
async function subscribe(planId: string) {
  const clockId = await makeTestClock(h.deps.db, '2026-01-01T00:00:00.000Z');
  const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
  const subscription = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
  return { clockId, customerId, subscriptionId: subscription.id };
}

async function sendEvents(customerId: string, subscriptionId: string, eventType: string, events: { at: string; properties: Record<string, unknown> }[]) {
  const body = await expectJson<{ accepted_count: number }>(
    await h.request('POST', '/v1/events/batch', {
      body: { events: events.map((e) => ({ id: `ev-${RUN}-${(seq += 1)}`, event_type: eventType, customer_id: customerId, subscription_id: subscriptionId, timestamp: e.at, properties: e.properties })) },
    }),
  );
  expect(body.accepted_count).toBe(events.length);
}

/** Closes January: the clock moves to the end of the period (the close makes January's Draft). */
async function closeJanuary(clockId: string, subscriptionId: string): Promise<Invoice> {
  await advanceClock(h, clockId, '2026-02-01T00:00:00.000Z');
  const [january] = await invoicesOf<Invoice>(h, `subscription_id=${subscriptionId}`);
  expect(january).toBeDefined();
  return january!;
}

describe('a SKU prices a meter', () => {
  it('bills tokens by model at two prices on one invoice; a SKU by event type bills its default (first) meter', async () => {
    const tokens = uniqueType('llm.tokens');
    const all = await createMeter({ event_type: tokens, aggregation: 'Sum', property: 'tokens' });
    const large = await createMeter({ event_type: tokens, aggregation: 'Sum', property: 'tokens', filters: [{ property: 'model', operator: 'Equals', value: 'large' }] });
    const small = await createMeter({ event_type: tokens, aggregation: 'Sum', property: 'tokens', filters: [{ property: 'model', operator: 'Equals', value: 'small' }] });
    const planId = await createPlan();
    const largeSku = await expectJson<{ id: string; meter_id: string; meter_event_type: string }>(
      await createSku(planId, { name: 'Large model tokens', unit_amount_nanos: (3n * UNIT / 1000n).toString(), meter_id: large.id }),
      201,
    );
    // meter_event_type may be given with meter_id when it is the meter's; the SKU stores the meter's.
    expect(largeSku).toMatchObject({ meter_id: large.id, meter_event_type: tokens });
    const smallSku = await expectJson<{ id: string }>(
      await createSku(planId, { name: 'Small model tokens', unit_amount_nanos: (1n * UNIT / 1000n).toString(), meter_id: small.id, meter_event_type: tokens }),
      201,
    );
    const allSku = await expectJson<{ id: string; meter_id: string | null }>(
      await createSku(planId, { name: 'All tokens', unit_amount_nanos: (UNIT / 10_000n).toString(), meter_event_type: tokens }),
      201,
    );
    expect(allSku.meter_id).toBeNull();

    const { clockId, customerId, subscriptionId } = await subscribe(planId);
    await advanceClock(h, clockId, '2026-01-20T00:00:00.000Z');
    await sendEvents(customerId, subscriptionId, tokens, [
      { at: '2026-01-05T10:00:00Z', properties: { model: 'large', tokens: 1000 } },
      { at: '2026-01-06T10:00:00Z', properties: { model: 'small', tokens: 2000 } },
      { at: '2026-01-07T10:00:00Z', properties: { model: 'large', tokens: '500' } },
      { at: '2026-01-08T10:00:00Z', properties: { model: 'medium', tokens: 250 } },
    ]);
    const invoice = await closeJanuary(clockId, subscriptionId);

    const bySku = new Map(invoice.line_items.map((line) => [line.sku_id, line]));
    expect(invoice.line_items.filter((line) => line.kind === 'usage')).toHaveLength(3);
    expect(bySku.get(largeSku.id)).toMatchObject({ quantity: '1500', amount_nanos: (45n * UNIT / 10n).toString() });
    expect(bySku.get(smallSku.id)).toMatchObject({ quantity: '2000', amount_nanos: (2n * UNIT).toString() });
    expect(bySku.get(allSku.id)).toMatchObject({ quantity: '3750', amount_nanos: (375n * UNIT / 1000n).toString() });
    expect(invoice.total_nanos).toBe(((45n * UNIT) / 10n + 2n * UNIT + (375n * UNIT) / 1000n).toString());
    // Each line carries the meter it was priced from: id, filters and window.
    expect(bySku.get(largeSku.id)!.detail!.meter).toEqual({
      meter_id: large.id,
      event_type: tokens,
      aggregation: 'Sum',
      filters: [{ property: 'model', operator: 'Equals', value: 'large' }],
      window_type: 'BillingPeriod',
      window_size: null,
    });
    expect(bySku.get(smallSku.id)!.detail!.meter!.meter_id).toBe(small.id);
    expect(bySku.get(allSku.id)!.detail!.meter).toMatchObject({ meter_id: all.id, filters: [] });

    // The rating preview resolves the same meters and takes quantities by meter_id or by event type.
    const preview = await expectJson<{ lines: { sku_id: string; quantity: string; meter?: MeterView }[] }>(
      await h.request('POST', '/admin/v1/rating/preview', { body: { plan_id: planId, period: { start: '2026-01-01', end: '2026-02-01' }, quantities: { [large.id]: '10', [tokens]: '7' } } }),
    );
    const previewed = new Map(preview.lines.map((line) => [line.sku_id, line]));
    expect(previewed.get(largeSku.id)).toMatchObject({ quantity: '10', meter: { meter_id: large.id } });
    expect(previewed.get(smallSku.id)).toMatchObject({ quantity: '7', meter: { meter_id: small.id } });
    expect(previewed.get(allSku.id)).toMatchObject({ quantity: '7', meter: { meter_id: all.id } });
  });

  it('refuses a SKU naming an unknown or archived meter, or a meter_event_type other than its meter\'s', async () => {
    const tokens = uniqueType('llm.tokens');
    const meter = await createMeter({ event_type: tokens, aggregation: 'Count' });
    const archived = await createMeter({ event_type: tokens, aggregation: 'Sum', property: 'tokens' });
    await expectJson(await h.request('POST', `/admin/v1/meters/${archived.id}/archive`), 200);
    const planId = await createPlan();
    const price = { name: 'Tokens', unit_amount_nanos: UNIT.toString() };

    const unknown = await expectJson<ErrorBody>(await createSku(planId, { ...price, meter_id: randomUUID() }), 404);
    expect(unknown.error).toMatchObject({ code: 'meter_not_found', details: { field: 'meter_id' } });
    const gone = await expectJson<ErrorBody>(await createSku(planId, { ...price, meter_id: archived.id }), 409);
    expect(gone.error).toMatchObject({ code: 'meter_archived', details: { field: 'meter_id', meter_id: archived.id } });
    const mismatch = await expectJson<ErrorBody>(await createSku(planId, { ...price, meter_id: meter.id, meter_event_type: 'other.type' }), 422);
    expect(mismatch.error).toMatchObject({ code: 'meter_event_type_mismatch', details: { field: 'meter_event_type', meter_event_type: tokens } });
    const neither = await expectJson<ErrorBody & { error: { details: { issues: { path: string; code: string }[] } } }>(await createSku(planId, price), 400);
    expect(neither.error.details.issues).toContainEqual(expect.objectContaining({ path: 'meter_event_type', code: 'meter_required' }));
    const malformed = await expectJson<ErrorBody>(await createSku(planId, { ...price, meter_id: 'not-a-uuid' }), 400);
    expect(malformed.error.code).toBe('validation_failed');
    expect(await h.deps.db.sku.count({ where: { planId } })).toBe(0);
  });
});

describe('windows bill as they aggregate', () => {
  const AGGREGATIONS = ['Sum', 'Count', 'Max', 'UniqueCount', 'LATEST', 'WEIGHTED_SUM'] as const;
  const WINDOWS = [{ window_type: 'BillingPeriod' }, { window_type: 'Sliding', window_size: 'P1D' }, { window_type: 'Tumbling', window_size: 'P1D' }] as const;
  // Hand-computed over January's events below (WEIGHTED_SUM: the summary and the invoice must agree).
  const EXPECTED: Record<string, Partial<Record<(typeof WINDOWS)[number]['window_type'], string>>> = {
    Sum: { BillingPeriod: '21', Sliding: '6', Tumbling: '21' },
    Count: { BillingPeriod: '5', Sliding: '2', Tumbling: '5' },
    // Tumbling: the sum of the daily maxima 5 + 7 + 4.
    Max: { BillingPeriod: '7', Sliding: '4', Tumbling: '16' },
    // Tumbling: {a, b} + {a} + {c, a}.
    UniqueCount: { BillingPeriod: '3', Sliding: '2', Tumbling: '5' },
    // Tumbling: each day's latest 3 + 7 + 4.
    LATEST: { BillingPeriod: '4', Sliding: '4', Tumbling: '14' },
    // Sliding: the level over the last day, 15 until 06:00, 17 until 18:00, then 21.
    WEIGHTED_SUM: { Sliding: '17.5' },
  };

  it('the usage summary\'s billable_value and the invoice agree for every aggregation × window', async () => {
    const gauge = uniqueType('gauge');
    const planId = await createPlan();
    const cases: { aggregation: string; window: string; meterId: string; skuId: string }[] = [];
    for (const aggregation of AGGREGATIONS) {
      for (const window of WINDOWS) {
        const property = aggregation === 'Count' ? {} : { property: aggregation === 'UniqueCount' ? 'user' : 'v' };
        const meter = await createMeter({ event_type: gauge, aggregation, ...property, ...window });
        const sku = await expectJson<{ id: string }>(await createSku(planId, { name: `${aggregation} ${window.window_type}`, unit_amount_nanos: UNIT.toString(), meter_id: meter.id }), 201);
        cases.push({ aggregation, window: window.window_type, meterId: meter.id, skuId: sku.id });
      }
    }
    const { clockId, customerId, subscriptionId } = await subscribe(planId);
    await advanceClock(h, clockId, '2026-01-31T23:00:00.000Z');
    await sendEvents(customerId, subscriptionId, gauge, [
      { at: '2026-01-10T08:00:00Z', properties: { v: 5, user: 'a' } },
      { at: '2026-01-10T20:00:00Z', properties: { v: 3, user: 'b' } },
      { at: '2026-01-11T12:00:00Z', properties: { v: 7, user: 'a' } },
      { at: '2026-01-31T06:00:00Z', properties: { v: 2, user: 'c' } },
      { at: '2026-01-31T18:00:00Z', properties: { v: 4, user: 'a' } },
    ]);
    const invoice = await closeJanuary(clockId, subscriptionId);
    const summary = await expectJson<Summary>(await h.request('GET', `/v1/subscriptions/${subscriptionId}/usage?at=2026-01-15T00:00:00Z`));
    const billable = new Map(summary.meters.map((m) => [m.meter_id, m]));
    const lines = new Map(invoice.line_items.map((line) => [line.sku_id, line]));

    const table = cases.map((c) => ({
      case: `${c.aggregation} × ${c.window}`,
      invoiced: lines.get(c.skuId)?.quantity,
      billable: billable.get(c.meterId)?.billable_value,
      meter: lines.get(c.skuId)?.detail?.meter?.meter_id,
    }));
    expect(table).toEqual(cases.map((c) => ({ case: `${c.aggregation} × ${c.window}`, invoiced: expect.any(String), billable: expect.any(String), meter: c.meterId })));
    for (const row of table) expect(row.billable, row.case).toBe(row.invoiced);
    for (const c of cases) {
      const expected = EXPECTED[c.aggregation]![c.window as keyof (typeof EXPECTED)[string]];
      if (expected !== undefined) expect(lines.get(c.skuId)!.quantity, `${c.aggregation} × ${c.window}`).toBe(expected);
    }
    // A BillingPeriod entry's value is its billable value; aggregations are shown as SPEC spells them.
    for (const c of cases.filter((c) => c.window === 'BillingPeriod')) expect(billable.get(c.meterId)!.value).toBe(billable.get(c.meterId)!.billable_value);
    expect(new Set(summary.meters.map((m) => m.aggregation))).toEqual(new Set(AGGREGATIONS));
  });
});
