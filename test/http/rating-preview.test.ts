import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import { useHarness } from '../support/harness.js';

const h = useHarness();

interface Line {
  sku_id: string;
  description: string;
  pricing_model: string;
  quantity: string;
  list_amount_nanos: string;
  tiers: { tier: number; from: string; up_to: string | null; quantity: string; amount_nanos: string }[];
  adjustments: { kind: string; basis_points?: number; amount_nanos: string }[];
  subtotal_nanos: string;
  discount_nanos: string;
  amount_nanos: string;
}

interface Piece {
  start: string;
  end: string;
  days: number;
  phase: number | null;
  escalation_periods: number;
  lines: Line[];
  subtotal_nanos: string;
  discount_nanos: string;
  total_nanos: string;
}

interface Preview {
  plan_id: string;
  as_of: string;
  currency: string;
  period: { start: string; end: string };
  phase: number | null;
  pieces: Piece[];
  lines: Line[];
  subtotal_nanos: string;
  discount_nanos: string;
  total_nanos: string;
  display: { currency: string; total: string; total_minor_units: string };
}

interface ErrorBody {
  error: { code: string; message: string; details?: { issues?: { path: string; message: string; code?: string }[] } };
}

/** Raw units (scale 12) of a decimal amount given in hundredths: cents(6950) = 69.50. */
const cents = (hundredths: number) => (BigInt(hundredths) * 10_000_000_000n).toString();

async function call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await h.request(method, path, body === undefined ? {} : { body });
  return { status: res.status, body: (await res.json()) as T };
}

const preview = (body: Record<string, unknown>) => call<Preview>('POST', '/admin/v1/rating/preview', body);
const fail = (body: Record<string, unknown>) => call<ErrorBody>('POST', '/admin/v1/rating/preview', body);
const paths = (body: ErrorBody) => (body.error.details?.issues ?? []).map((issue) => issue.path);

let planId: string;
let baseSkuId: string;
let apiSkuId: string;

beforeAll(async () => {
  const product = await call<{ id: string }>('POST', '/admin/v1/catalog/products', { name: 'API', tags: ['api'] });
  const plan = await call<{ id: string }>('POST', '/admin/v1/catalog/plans', { name: 'Developer', billing_cadence: 'Monthly', product_id: product.body.id });
  planId = plan.body.id;
  const base = await call<{ id: string }>('POST', '/admin/v1/catalog/skus', {
    plan_id: planId,
    name: 'Platform fee',
    pricing_model: 'Flat',
    unit_amount_nanos: cents(4900),
    currency: 'USD',
  });
  // Graduated: 1-1000 free, 1001-10000 at 0.002, above 10000 at 0.001.
  const api = await call<{ id: string }>('POST', '/admin/v1/catalog/skus', {
    plan_id: planId,
    name: 'API calls',
    pricing_model: 'Graduated',
    meter_event_type: 'api_calls',
    currency: 'USD',
    tiers: [
      { up_to: 1000, unit_amount_nanos: '0' },
      { up_to: 10000, unit_amount_nanos: '2000000000' },
      { up_to: null, unit_amount_nanos: '1000000000' },
    ],
  });
  expect([base.status, api.status]).toEqual([201, 201]);
  baseSkuId = base.body.id;
  apiSkuId = api.body.id;
});

describe('POST /admin/v1/rating/preview', () => {
  it('rates Flat + Graduated at list price: 49.00 + 9000 × 0.002 + 2500 × 0.001 = 69.50', async () => {
    const res = await preview({ plan_id: planId, quantities: { api_calls: '12500' }, period: { start: '2026-03-01', end: '2026-04-01' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      plan_id: planId,
      as_of: '2026-03-01',
      currency: 'USD',
      period: { start: '2026-03-01', end: '2026-04-01' },
      phase: null,
      subtotal_nanos: cents(6950),
      discount_nanos: '0',
      total_nanos: cents(6950),
      display: { currency: 'USD', total: '69.50', total_minor_units: '6950' },
    });
    const [base, api] = res.body.lines;
    expect(base).toMatchObject({ sku_id: baseSkuId, pricing_model: 'Flat', quantity: '1', amount_nanos: cents(4900), adjustments: [] });
    expect(api).toMatchObject({ sku_id: apiSkuId, pricing_model: 'Graduated', quantity: '12500', list_amount_nanos: cents(2050), amount_nanos: cents(2050) });
    expect(api!.tiers.map((tier) => [tier.from, tier.up_to, tier.quantity, tier.amount_nanos])).toEqual([
      ['0', '1000', '1000', '0'],
      ['1000', '10000', '9000', cents(1800)],
      ['10000', null, '2500', cents(250)],
    ]);
  });

  it('applies a 10% contract discount to every line: 69.50 − 6.95 = 62.55', async () => {
    const res = await preview({
      plan_id: planId,
      quantities: { api_calls: '12500' },
      period: { start: '2026-03-01', end: '2026-04-01' },
      contract: { discount_bps: 1000 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ subtotal_nanos: cents(6950), discount_nanos: cents(695), total_nanos: cents(6255), display: { total: '62.55' } });
    expect(res.body.lines.map((line) => [line.subtotal_nanos, line.discount_nanos, line.amount_nanos])).toEqual([
      [cents(4900), cents(490), cents(4410)],
      [cents(2050), cents(205), cents(1845)],
    ]);
    expect(res.body.lines[1]!.adjustments).toEqual([
      { kind: 'ContractDiscount', basis_points: 1000, amount_nanos: `-${cents(205)}`, description: 'contract discount 10%' },
    ]);
  });

  it('applies the ramp phase in force on as_of, a rate override by product tag and tier overrides', async () => {
    const res = await preview({
      plan_id: planId,
      quantities: { api_calls: '12500' },
      as_of: '2026-07-01',
      period: { start: '2026-07-01', end: '2026-08-01' },
      contract: {
        discount_bps: 1000,
        terms: [
          { phase: 1, start_date: '2026-01-01', end_date: '2026-07-01', committed_amount_nanos: '0', description: 'ramp', discount_bps: 5000 },
          {
            phase: 2,
            start_date: '2026-07-01',
            end_date: '2027-01-01',
            committed_amount_nanos: '0',
            rate_overrides: [{ product_tag: 'api', multiplier_bps: 8000 }],
            tier_overrides: [{ sku_id: apiSkuId, tiers: [{ up_to: null, unit_amount_nanos: '1000000000' }] }],
          },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Phase 2 keeps the contract's 10% discount; both lines at 80%: base 39.20, API 12500 × 0.001 = 12.50 → 10.00.
    // Subtotal 49.20, discount 4.92, total 44.28.
    expect(res.body).toMatchObject({ phase: 2, subtotal_nanos: cents(4920), discount_nanos: cents(492), total_nanos: cents(4428) });
    expect(res.body.pieces.map((p) => [p.start, p.end, p.phase])).toEqual([['2026-07-01', '2026-08-01', 2]]);
    expect(res.body.lines[1]!.adjustments.map((a) => [a.kind, a.amount_nanos])).toEqual([
      ['TierOverride', `-${cents(800)}`],
      ['RateOverride', `-${cents(250)}`],
      ['ContractDiscount', `-${cents(100)}`],
    ]);
  });

  describe('a period crossing a ramp phase boundary', () => {
    // April 2026 (30 days); phase 1 (50% off) ends on 04-16, phase 2 has no discount.
    const request = {
      plan_id: '',
      quantities: { api_calls: '12500' },
      period: { start: '2026-04-01', end: '2026-05-01' },
      contract: {
        terms: [
          { phase: 1, start_date: '2026-01-01', end_date: '2026-04-16', committed_amount_nanos: '0', description: 'ramp', discount_bps: 5000 },
          { phase: 2, start_date: '2026-04-16', end_date: '2027-01-01', committed_amount_nanos: '0', description: 'full price' },
        ],
      },
    };

    it('rates each piece under its own phase: fees by days, usage where it was consumed', async () => {
      const res = await preview({ ...request, plan_id: planId, usage_to_date: { '2026-04-16': { api_calls: '6000' } } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.pieces.map((p) => [p.start, p.end, p.days, p.phase, p.escalation_periods])).toEqual([
        ['2026-04-01', '2026-04-16', 15, 1, 0],
        ['2026-04-16', '2026-05-01', 15, 2, 0],
      ]);
      const [first, second] = res.body.pieces;
      // Phase 1: fee 49.00 × 15/30 = 24.50 → 50% = 12.25; calls 1..6000: 5000 × 0.002 = 10.00 → 5.00.
      expect(first!.lines.map((l) => [l.quantity, l.subtotal_nanos, l.amount_nanos])).toEqual([
        ['1', cents(2450), cents(1225)],
        ['6000', cents(1000), cents(500)],
      ]);
      expect(first!.total_nanos).toBe(cents(1725));
      // Phase 2: fee 24.50; calls 6001..12500 at their period tiers: 4000 × 0.002 + 2500 × 0.001 = 10.50
      // (the free first 1000 were used up in phase 1, not granted again).
      expect(second!.lines.map((l) => [l.quantity, l.amount_nanos])).toEqual([
        ['1', cents(2450)],
        ['6500', cents(1050)],
      ]);
      expect(second!.lines[1]!.tiers.map((t) => [t.tier, t.quantity, t.amount_nanos])).toEqual([
        [1, '4000', cents(800)],
        [2, '2500', cents(250)],
      ]);
      expect(second!.total_nanos).toBe(cents(3500));
      // 17.25 + 35.00 = 52.25 (rated under phase 1 alone it would be 34.75, under phase 2 alone 69.50).
      expect(res.body).toMatchObject({
        phase: null,
        subtotal_nanos: cents(6950),
        discount_nanos: cents(1725),
        total_nanos: cents(5225),
        display: { total: '52.25', total_minor_units: '5225' },
      });
      expect(res.body.lines.map((l) => [l.sku_id, l.quantity, l.amount_nanos])).toEqual([
        [baseSkuId, '1', cents(3675)],
        [apiSkuId, '12500', cents(1550)],
      ]);
    });

    it('needs the usage to date at the boundary, and only there', async () => {
      const missing = await fail({ ...request, plan_id: planId });
      expect(missing.status).toBe(400);
      expect(missing.body.error.details?.issues).toEqual([{ path: 'usage_to_date.2026-04-16', code: 'usage_to_date_required', message: expect.any(String) }]);
      const elsewhere = await fail({ ...request, plan_id: planId, usage_to_date: { '2026-04-16': {}, '2026-04-20': {} } });
      expect(elsewhere.status).toBe(400);
      expect(paths(elsewhere.body)).toEqual(['usage_to_date.2026-04-20']);
      const typo = await fail({ ...request, plan_id: planId, usage_to_date: { '2026-04-16': { api_call: '1' } } });
      expect(paths(typo.body)).toEqual(['usage_to_date.2026-04-16.api_call']);
    });

    it('refuses an as_of other than the period start', async () => {
      const res = await fail({ ...request, plan_id: planId, as_of: '2026-04-20', usage_to_date: { '2026-04-16': {} } });
      expect(res.status).toBe(400);
      expect(res.body.error.details?.issues).toEqual([{ path: 'as_of', code: 'as_of_not_period_start', message: expect.any(String) }]);
    });
  });

  it('defaults the period to one billing cadence from as_of, clamped to the month end', async () => {
    const res = await preview({ plan_id: planId, quantities: {}, as_of: '2026-01-31' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ as_of: '2026-01-31', period: { start: '2026-01-31', end: '2026-02-28' }, total_nanos: cents(4900) });
    expect(res.body.lines[1]).toMatchObject({ quantity: '0', amount_nanos: '0' });
  });

  it('defaults as_of to today (UTC)', async () => {
    const today = () => new Date().toISOString().slice(0, 10);
    const before = today();
    const res = await preview({ plan_id: planId, quantities: { api_calls: '1' } });
    expect(res.status).toBe(200);
    expect([before, today()]).toContain(res.body.as_of);
    expect(res.body.period.start).toBe(res.body.as_of);
  });

  it('keeps fractional quantities exact and rounds only the display total', async () => {
    const res = await preview({ plan_id: planId, quantities: { api_calls: '1000.0015' }, period: { start: '2026-03-01', end: '2026-04-01' } });
    expect(res.status).toBe(200);
    // 0.0015 × 0.002 = 0.000003 → 3000000 raw units; the display rounds 49.000003 to 49.00.
    expect(res.body.total_nanos).toBe((BigInt(cents(4900)) + 3_000_000n).toString());
    expect(res.body.display.total).toBe('49.00');
  });

  it.each([
    ['a negative number', '-5'],
    ['a JSON number', 12500],
    ['an exponent', '1e3'],
    ['text', 'lots'],
  ])('refuses a quantity that is %s with 400 naming it', async (_label, quantity) => {
    const res = await fail({ plan_id: planId, quantities: { api_calls: quantity } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(paths(res.body)).toEqual(['quantities.api_calls']);
  });

  it('refuses a meter no SKU of the plan rates', async () => {
    const res = await fail({ plan_id: planId, quantities: { api_call: '10' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details?.issues).toEqual([{ path: 'quantities.api_call', code: 'unknown_meter', message: expect.any(String) }]);
  });

  it('names the offending contract and date fields', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{ contract: { discount_bps: 10001 } }, ['contract.discount_bps']],
      [{ contract: { discount_bps: 12.5 } }, ['contract.discount_bps']],
      [{ as_of: '2026-02-30' }, ['as_of']],
      [{ period: { start: '2026-04-01', end: '2026-03-01' } }, ['period.end']],
      [{ contract: { tier_overrides: [{ sku_id: baseSkuId, tiers: [{ up_to: null, unit_amount_nanos: '1' }] }] } }, ['contract.tier_overrides.0.tiers']],
      [{ contract: { tier_overrides: [{ sku_id: newId(), tiers: [{ up_to: null, unit_amount_nanos: '1' }] }] } }, ['contract.tier_overrides.0.sku_id']],
      [
        { contract: { tier_overrides: [{ sku_id: apiSkuId, tiers: [{ up_to: 10, unit_amount_nanos: '1' }] }] } },
        ['contract.tier_overrides.0.tiers.0.up_to'],
      ],
      [
        {
          contract: {
            terms: [
              { phase: 1, start_date: '2026-01-01', end_date: '2026-06-01', committed_amount_nanos: '0' },
              { phase: 2, start_date: '2026-05-01', end_date: '2026-09-01', committed_amount_nanos: '0' },
            ],
          },
        },
        ['contract.terms.1.start_date'],
      ],
      [{ contract: { escalation: { kind: 'Percent', basis_points: 300 } } }, ['contract.escalation.start_date']],
      [{ contract: { rate_overrides: [{ product_tag: 'api', multiplier_bps: 1_000_001 }] } }, ['contract.rate_overrides.0.multiplier_bps']],
    ];
    for (const [fields, expected] of cases) {
      const res = await fail({ plan_id: planId, quantities: {}, ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(paths(res.body), JSON.stringify(fields)).toEqual(expected);
    }
    const unknown = await fail({ plan_id: planId, quantities: {}, contract: { discount: 10 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('discount');
  });

  it('answers 404 for an unknown plan and 422 for a plan without SKUs', async () => {
    const unknown = await fail({ plan_id: newId(), quantities: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('plan_not_found');
    const empty = await call<{ id: string }>('POST', '/admin/v1/catalog/plans', { name: 'Empty', billing_cadence: 'Annual' });
    const res = await fail({ plan_id: empty.body.id, quantities: {} });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('plan_has_no_skus');
  });

  it('writes nothing', async () => {
    const counts = () =>
      h.deps.db.$queryRaw<{ table_name: string; rows: bigint }[]>`
        SELECT 'customers' AS table_name, count(*) AS rows FROM customers
        UNION ALL SELECT 'products', count(*) FROM products
        UNION ALL SELECT 'plans', count(*) FROM plans
        UNION ALL SELECT 'skus', count(*) FROM skus
        UNION ALL SELECT 'subscriptions', count(*) FROM subscriptions
        UNION ALL SELECT 'audit_log', count(*) FROM audit_log
        UNION ALL SELECT 'outbox_events', count(*) FROM outbox_events
        UNION ALL SELECT 'idempotency_keys', count(*) FROM idempotency_keys`;
    const before = await counts();
    expect((await preview({ plan_id: planId, quantities: { api_calls: '500' }, contract: { discount_bps: 500 } })).status).toBe(200);
    expect((await fail({ plan_id: planId, quantities: { api_calls: 'x' } })).status).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it('is admin-only', async () => {
    const res = await h.request('POST', '/admin/v1/rating/preview', { as: { customer: newId() }, body: { plan_id: planId, quantities: {} } });
    expect(res.status).toBe(403);
  });
});
