import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import { subscriptionWorkflowId } from '../../workflows/subscription/messages.js';
import { makeCustomer } from '../support/fixtures.js';
import { expectPage, type PageBody, useHarness } from '../support/harness.js';
import { ONE_UNIT as ONE } from '../../src/core/index.js';

const h = useHarness();

interface Sku {
  id: string;
  plan_id: string;
  pricing_model: string;
  unit_amount_nanos: string;
  currency: string;
  tiers: { up_to: number | null; unit_amount_nanos: string; flat_amount_nanos?: string }[] | null;
  [field: string]: unknown;
}

interface Plan {
  id: string;
  product_id: string | null;
  skus: Sku[];
  [field: string]: unknown;
}

interface ErrorBody {
  error: { code: string; message: string; details?: { field?: string; issues?: { path: string; message: string; code?: string }[] } };
}

const usd = (units: number | string) => (BigInt(units) * ONE).toString();

async function call<T = ErrorBody>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await h.request(method, path, body === undefined ? {} : { body });
  return { status: res.status, body: (await res.json()) as T };
}

async function list<T>(path: string): Promise<{ status: number; body: PageBody<T> }> {
  const res = await h.request('GET', path);
  return { status: res.status, body: await expectPage<T>(res) };
}

async function newPlan(fields: Record<string, unknown> = {}): Promise<Plan> {
  const res = await call<Plan>('POST', '/admin/v1/catalog/plans', { name: 'Growth', billing_cadence: 'Monthly', ...fields });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const skuCount = () => h.deps.db.sku.count();

async function rejectSku(body: Record<string, unknown>, status = 400): Promise<ErrorBody> {
  const before = await skuCount();
  const res = await call('POST', '/admin/v1/catalog/skus', body);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(await skuCount()).toBe(before);
  return res.body;
}

const issues = (body: ErrorBody) => (body.error.details?.issues ?? []).map((issue) => [issue.path, issue.code ?? null]);

describe('products', () => {
  it('creates a product with tags, audits it, and reads it back', async () => {
    const res = await call<{ id: string; name: string; description: string; tags: string[]; created_at: string }>('POST', '/admin/v1/catalog/products', {
      name: 'Inference API',
      description: 'LLM inference',
      tags: ['ai', 'usage'],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Inference API', description: 'LLM inference', tags: ['ai', 'usage'] });
    expect(await h.deps.db.product.findUnique({ where: { id: res.body.id } })).toMatchObject({ name: 'Inference API', tags: ['ai', 'usage'] });
    const audit = await h.deps.db.auditLogEntry.findFirst({ where: { entityId: res.body.id } });
    expect(audit).toMatchObject({ action: 'product.created', entityType: 'product', customerId: null });

    const read = await call('GET', `/admin/v1/catalog/products/${res.body.id}`);
    expect(read).toEqual({ status: 200, body: res.body });
  });

  it('defaults description and tags', async () => {
    const res = await call<{ description: string; tags: string[] }>('POST', '/admin/v1/catalog/products', { name: 'Bare' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ description: '', tags: [] });
  });

  it('refuses unknown fields, an empty name and repeated tags', async () => {
    const before = await h.deps.db.product.count();
    for (const body of [{ name: 'X', price: 1 }, { name: '' }, { name: 'X', tags: ['a', 'a'] }, { name: 'X', tags: 'a' }]) {
      expect((await call('POST', '/admin/v1/catalog/products', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(await h.deps.db.product.count()).toBe(before);
  });

  it('lists products in pages, newest first', async () => {
    for (const name of ['P1', 'P2', 'P3']) await call('POST', '/admin/v1/catalog/products', { name });
    const first = await list<{ id: string }>('/admin/v1/catalog/products?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.has_more).toBe(true);
    const rest = await list<{ id: string }>(`/admin/v1/catalog/products?limit=200&starting_after=${first.body.next_cursor}`);
    const all = await h.deps.db.product.findMany({ orderBy: { id: 'desc' }, select: { id: true } });
    expect([...first.body.data, ...rest.body.data].map((p) => p.id)).toEqual(all.map((p) => p.id));
    expect(rest.body.has_more).toBe(false);
  });

  it('answers 404 for an unknown product', async () => {
    const res = await call('GET', `/admin/v1/catalog/products/${newId()}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('product_not_found');
  });
});

describe('plans', () => {
  it('creates a plan under a product with defaults', async () => {
    const product = await call<{ id: string }>('POST', '/admin/v1/catalog/products', { name: 'Storage' });
    const plan = await newPlan({ product_id: product.body.id, description: 'For teams' });
    expect(plan).toMatchObject({ product_id: product.body.id, name: 'Growth', description: 'For teams', billing_cadence: 'Monthly', trial_days: 0, skus: [] });
    expect(await h.deps.db.plan.findUnique({ where: { id: plan.id } })).toMatchObject({ productId: product.body.id, billingCadence: 'Monthly', trialDays: 0 });
    expect(await h.deps.db.auditLogEntry.findFirst({ where: { entityId: plan.id } })).toMatchObject({ action: 'plan.created' });
  });

  it('accepts every billing cadence and trial_days up to 730', async () => {
    for (const billing_cadence of ['Monthly', 'Quarterly', 'SemiAnnual', 'Annual']) {
      expect((await newPlan({ billing_cadence, trial_days: 730 })).billing_cadence).toBe(billing_cadence);
    }
  });

  it('refuses an unknown product with 404 and bad fields with 400', async () => {
    const before = await h.deps.db.plan.count();
    const unknown = await call('POST', '/admin/v1/catalog/plans', { name: 'X', billing_cadence: 'Monthly', product_id: newId() });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'product_not_found', details: { field: 'product_id' } });
    for (const body of [
      { name: 'X', billing_cadence: 'Weekly' },
      { name: 'X', billing_cadence: 'Monthly', trial_days: 731 },
      { name: 'X', billing_cadence: 'Monthly', trial_days: -1 },
      { name: 'X', billing_cadence: 'Monthly', trial_days: 1.5 },
      { name: 'X' },
    ]) {
      expect((await call('POST', '/admin/v1/catalog/plans', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(await h.deps.db.plan.count()).toBe(before);
  });

  it('returns the plan with its SKUs, in lists too', async () => {
    const plan = await newPlan();
    const base = await call<Sku>('POST', '/admin/v1/catalog/skus', { plan_id: plan.id, name: 'Base', pricing_model: 'Flat', unit_amount_nanos: usd(49), currency: 'USD' });
    const seats = await call<Sku>('POST', '/admin/v1/catalog/skus', {
      plan_id: plan.id,
      name: 'Seats',
      pricing_model: 'PerUnit',
      unit_amount_nanos: usd(10),
      meter_event_type: 'seats',
      currency: 'USD',
    });
    const read = await call<Plan>('GET', `/admin/v1/catalog/plans/${plan.id}`);
    expect(read.status).toBe(200);
    expect(read.body.skus).toEqual([base.body, seats.body]);

    const all: Plan[] = [];
    for (let cursor: string | null = null, more = true; more; ) {
      const next: { body: PageBody<Plan> } = await list<Plan>(`/admin/v1/catalog/plans?limit=3${cursor ? `&starting_after=${cursor}` : ''}`);
      all.push(...next.body.data);
      cursor = next.body.next_cursor;
      more = next.body.has_more;
    }
    expect(all.find((p) => p.id === plan.id)?.skus.map((s) => s.id)).toEqual([base.body.id, seats.body.id]);
    expect(all).toHaveLength(await h.deps.db.plan.count());
  });

  it("merges metadata on update (a key set to null is removed), audited, without a new version even with a subscription on the plan", async () => {
    const plan = await newPlan({ metadata: { crm: 'hubspot', tier: 'gold' } });
    const sku = await call<Sku>('POST', '/admin/v1/catalog/skus', { plan_id: plan.id, name: 'Base', pricing_model: 'Flat', unit_amount_nanos: usd(49), currency: 'USD' });
    const customerId = await makeCustomer(h.deps.db);
    const subscription = await call<{ id: string }>('POST', '/v1/subscriptions', { customer_id: customerId, plan_id: plan.id, currency: 'USD' });
    expect(subscription.status, JSON.stringify(subscription.body)).toBe(201);
    await h.deps.temporal.client.workflow.getHandle(subscriptionWorkflowId(subscription.body.id)).terminate('test done');

    const updated = await call<Plan>('PATCH', `/admin/v1/catalog/plans/${plan.id}`, { metadata: { tier: null, region: 'eu' } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body).toMatchObject({ id: plan.id, version: 1, metadata: { crm: 'hubspot', region: 'eu' }, skus: [sku.body] });
    expect((await call<Plan>('GET', `/admin/v1/catalog/plans/${plan.id}`)).body).toMatchObject({ version: 1, metadata: { crm: 'hubspot', region: 'eu' } });
    expect((await call<{ version: number }[]>('GET', `/admin/v1/catalog/plans/${plan.id}/versions`)).body.map((v) => v.version)).toEqual([1]);
    expect(await h.deps.db.auditLogEntry.findFirst({ where: { entityId: plan.id, action: 'plan.updated' } })).toMatchObject({
      entityType: 'plan',
      before: { metadata: { crm: 'hubspot', tier: 'gold' } },
      after: { metadata: { crm: 'hubspot', region: 'eu' } },
    });

    // Metadata is never billed: an archived plan takes it too.
    expect((await call('POST', `/admin/v1/catalog/plans/${plan.id}/archive`)).status).toBe(200);
    expect((await call<Plan>('PATCH', `/admin/v1/catalog/plans/${plan.id}`, { metadata: { region: null } })).body).toMatchObject({ metadata: { crm: 'hubspot' } });
  });

  it('refuses a metadata update of an unknown plan (404), other fields, no metadata and too many keys (400), changing nothing', async () => {
    const plan = await newPlan({ metadata: { crm: 'hubspot' } });
    const unknown = await call('PATCH', `/admin/v1/catalog/plans/${newId()}`, { metadata: { a: 'b' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('plan_not_found');
    const tooMany = await call('PATCH', `/admin/v1/catalog/plans/${plan.id}`, { metadata: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v'])) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details?.issues?.[0]?.path).toBe('metadata');
    for (const body of [{ name: 'Renamed' }, {}, { metadata: { crm: 42 } }, { metadata: { ['k'.repeat(41)]: 'v' } }, { metadata: { crm: 'x' }, trial_days: 3 }]) {
      expect((await call('PATCH', `/admin/v1/catalog/plans/${plan.id}`, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await call('PATCH', '/admin/v1/catalog/plans/nope', { metadata: {} })).status).toBe(400);
    expect((await call<Plan>('GET', `/admin/v1/catalog/plans/${plan.id}`)).body.metadata).toEqual({ crm: 'hubspot' });
    expect(await h.deps.db.auditLogEntry.count({ where: { entityId: plan.id, action: 'plan.updated' } })).toBe(0);
  });

  it('answers 404 for an unknown plan and 400 for a malformed id', async () => {
    const res = await call('GET', `/admin/v1/catalog/plans/${newId()}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('plan_not_found');
    expect((await call('GET', '/admin/v1/catalog/plans/nope')).status).toBe(400);
  });
});

describe('SKUs', () => {
  let plan: Plan;
  beforeAll(async () => {
    plan = await newPlan();
  });

  // First 1000 free, then 0.002 per unit plus a 5.00 entry fee, then 0.001.
  const tiers = [
    { up_to: 1000, unit_amount_nanos: '0' },
    { up_to: 10000, unit_amount_nanos: '2000000000', flat_amount_nanos: usd(5) },
    { up_to: null, unit_amount_nanos: '1000000000' },
  ];

  it.each([
    ['Flat', { unit_amount_nanos: usd(49) }],
    ['PerUnit', { unit_amount_nanos: '2500000000', meter_event_type: 'api_calls' }],
    ['Graduated', { meter_event_type: 'tokens', tiers }],
    ['Volume', { unit_amount_nanos: '0', meter_event_type: 'tokens', tiers }],
    ['Package', { unit_amount_nanos: usd(5), meter_event_type: 'emails', package_size: '1000', package_rounding: 'Down' }],
    ['Committed', { unit_amount_nanos: usd(2), meter_event_type: 'compute', commit_amount_nanos: usd(1000), overage_unit_amount_nanos: '2500000000000' }],
  ])('creates a %s SKU and stores it exactly', async (pricing_model, fields) => {
    const res = await call<Sku>('POST', '/admin/v1/catalog/skus', { plan_id: plan.id, name: `${pricing_model} SKU`, pricing_model, currency: 'USD', ...fields });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ plan_id: plan.id, pricing_model, currency: 'USD', ...fields });
    expect(res.body.unit_amount_nanos).toBe((fields as { unit_amount_nanos?: string }).unit_amount_nanos ?? '0');
    const stored = await h.deps.db.sku.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stored.unitAmountNanos.toFixed(0)).toBe(res.body.unit_amount_nanos);
    expect(stored.pricingModel).toBe(pricing_model);
    expect(await h.deps.db.auditLogEntry.findFirst({ where: { entityId: res.body.id } })).toMatchObject({ action: 'sku.created', entityType: 'sku' });

    const read = await call('GET', `/admin/v1/catalog/skus/${res.body.id}`);
    expect(read).toEqual({ status: 200, body: res.body });
  });

  it('returns every SKU field, nulls for the ones a model does not use, Package rounding Up by default', async () => {
    const pkg = await call<Sku>('POST', '/admin/v1/catalog/skus', {
      plan_id: plan.id,
      name: 'SMS',
      pricing_model: 'Package',
      unit_amount_nanos: usd(1),
      meter_event_type: 'sms',
      currency: 'USD',
      package_size: '100',
    });
    expect(pkg.status).toBe(201);
    expect(Object.keys(pkg.body).sort()).toEqual(
      [
        'id',
        'plan_id',
        'name',
        'pricing_model',
        'unit_amount_nanos',
        'meter_event_type',
        'meter_id',
        'currency',
        'tiers',
        'package_size',
        'package_rounding',
        'commit_amount_nanos',
        'overage_unit_amount_nanos',
        'package_free_units',
        'minimum_amount_nanos',
        'percentage_bps',
        'amount_property',
        'per_event_fee_nanos',
        'per_event_minimum_nanos',
        'per_event_maximum_nanos',
        'group_by',
        'tier_scope',
        'dimension_prices',
        'version_from',
        'version_to',
        'archived_at',
        'created_at',
      ].sort(),
    );
    expect(pkg.body).toMatchObject({
      package_size: '100',
      package_rounding: 'Up',
      package_free_units: null,
      minimum_amount_nanos: null,
      percentage_bps: null,
      tiers: null,
      commit_amount_nanos: null,
      overage_unit_amount_nanos: null,
      group_by: null,
      tier_scope: null,
      dimension_prices: null,
    });
  });

  it('refuses a fixed amount beyond the catalog bound, so no invoice can overflow', async () => {
    const body = await rejectSku({ plan_id: plan.id, name: 'Huge', pricing_model: 'Flat', unit_amount_nanos: '9'.repeat(38), currency: 'USD' });
    expect(issues(body)).toEqual([['unit_amount_nanos', 'price_out_of_range']]);
  });

  it('keeps a 30-digit amount exactly', async () => {
    const amount = '9'.repeat(30);
    const res = await call<Sku>('POST', '/admin/v1/catalog/skus', { plan_id: plan.id, name: 'Huge', pricing_model: 'Flat', unit_amount_nanos: amount, currency: 'USD' });
    expect(res.status).toBe(201);
    expect(res.body.unit_amount_nanos).toBe(amount);
    expect((await h.deps.db.sku.findUniqueOrThrow({ where: { id: res.body.id } })).unitAmountNanos.toFixed(0)).toBe(amount);
  });

  const graduated = (tierList: unknown) => ({ plan_id: plan.id, name: 'Tiered', pricing_model: 'Graduated', meter_event_type: 'tokens', currency: 'USD', tiers: tierList });

  it('refuses descending tier bounds, naming the tier', async () => {
    const body = await rejectSku(graduated([{ up_to: 100, unit_amount_nanos: '1' }, { up_to: 50, unit_amount_nanos: '1' }, { up_to: null, unit_amount_nanos: '1' }]));
    expect(body.error.code).toBe('validation_failed');
    expect(issues(body)).toEqual([['tiers.1.up_to', 'tier_bounds_not_increasing']]);
  });

  it('refuses an unbounded tier that is not last', async () => {
    const body = await rejectSku(graduated([{ up_to: null, unit_amount_nanos: '1' }, { up_to: 100, unit_amount_nanos: '1' }]));
    expect(issues(body)).toEqual([
      ['tiers.0.up_to', 'unbounded_tier_not_last'],
      ['tiers.1.up_to', 'last_tier_must_be_unbounded'],
    ]);
  });

  it('refuses a bounded last tier', async () => {
    const body = await rejectSku(graduated([{ up_to: 100, unit_amount_nanos: '1' }]));
    expect(issues(body)).toEqual([['tiers.0.up_to', 'last_tier_must_be_unbounded']]);
  });

  it.each(['Graduated', 'Volume'])('refuses %s without tiers', async (pricing_model) => {
    for (const tierList of [undefined, []]) {
      const body = await rejectSku({ ...graduated(tierList), pricing_model });
      expect(issues(body)).toEqual([['tiers', 'tiers_required']]);
    }
  });

  it('refuses tiers on a model that takes none, and negative tier prices', async () => {
    const perUnit = await rejectSku({
      plan_id: plan.id,
      name: 'X',
      pricing_model: 'PerUnit',
      unit_amount_nanos: '1',
      meter_event_type: 'm',
      currency: 'USD',
      tiers: [{ up_to: null, unit_amount_nanos: '1' }],
    });
    expect(issues(perUnit)).toEqual([['tiers', 'tiers_not_allowed']]);
    const negative = await rejectSku(graduated([{ up_to: null, unit_amount_nanos: '-1' }]));
    expect(issues(negative)).toEqual([['tiers.0.unit_amount_nanos', 'negative_price']]);
    const fractional = await rejectSku(graduated([{ up_to: 10.5, unit_amount_nanos: '1' }, { up_to: null, unit_amount_nanos: '1' }]));
    expect(fractional.error.details?.issues?.map((i) => i.path)).toEqual(['tiers.0.up_to']);
  });

  it.each([
    ['a JSON number', 49000000000000],
    ['a decimal', '1.5'],
    ['39 digits', '1'.repeat(39)],
    ['an exponent', '1e12'],
    ['a leading plus', '+1'],
  ])('refuses unit_amount_nanos as %s with 400 naming it', async (_label, unit_amount_nanos) => {
    const body = await rejectSku({ plan_id: plan.id, name: 'Base', pricing_model: 'Flat', unit_amount_nanos, currency: 'USD' });
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.details?.issues?.map((i) => i.path)).toEqual(['unit_amount_nanos']);
  });

  it('reports every missing or misplaced field of a SKU at once', async () => {
    const body = await rejectSku({
      plan_id: plan.id,
      name: 'Broken',
      pricing_model: 'Committed',
      currency: 'USD',
      package_size: '10',
    });
    expect(issues(body)).toEqual([
      ['meter_event_type', 'meter_required'],
      ['unit_amount_nanos', 'unit_amount_required'],
      ['package_size', 'field_not_applicable'],
      ['commit_amount_nanos', 'commit_required'],
      ['overage_unit_amount_nanos', 'overage_required'],
    ]);
  });

  it('refuses a Package SKU without package_size and a bad package_size', async () => {
    const base = { plan_id: plan.id, name: 'Pkg', pricing_model: 'Package', unit_amount_nanos: '1', meter_event_type: 'm', currency: 'USD' };
    expect(issues(await rejectSku(base))).toEqual([['package_size', 'invalid_package_size']]);
    for (const package_size of ['0', '1.5', 10]) {
      const body = await rejectSku({ ...base, package_size });
      expect(body.error.details?.issues?.map((i) => i.path)).toEqual(['package_size']);
    }
  });

  it('refuses unknown fields and bad currencies', async () => {
    const base = { plan_id: plan.id, name: 'Base', pricing_model: 'Flat', unit_amount_nanos: '1', currency: 'USD' };
    expect((await rejectSku({ ...base, unit_price: '1' })).error.message).toContain('unit_price');
    for (const currency of ['usd', 'XYZ', 'US']) {
      const body = await rejectSku({ ...base, currency });
      expect(body.error.details?.issues?.every((i) => i.path === 'currency')).toBe(true);
    }
    expect((await rejectSku({ ...base, pricing_model: 'Tiered' })).error.details?.issues?.map((i) => i.path)).toEqual(['pricing_model']);
  });

  it('refuses an unknown plan with 404', async () => {
    const body = await rejectSku({ plan_id: newId(), name: 'Base', pricing_model: 'Flat', unit_amount_nanos: '1', currency: 'USD' }, 404);
    expect(body.error).toMatchObject({ code: 'plan_not_found', details: { field: 'plan_id' } });
  });

  it('refuses a second currency within a plan with 409', async () => {
    const eurPlan = await newPlan();
    const first = await call('POST', '/admin/v1/catalog/skus', { plan_id: eurPlan.id, name: 'Base', pricing_model: 'Flat', unit_amount_nanos: '1', currency: 'EUR' });
    expect(first.status).toBe(201);
    const body = await rejectSku({ plan_id: eurPlan.id, name: 'Base USD', pricing_model: 'Flat', unit_amount_nanos: '1', currency: 'USD' }, 409);
    expect(body.error).toMatchObject({ code: 'plan_currency_mismatch', details: { field: 'currency', plan_currency: 'EUR' } });
    expect(await h.deps.db.sku.count({ where: { planId: eurPlan.id } })).toBe(1);
  });

  it('lists SKUs filtered by plan', async () => {
    const other = await newPlan();
    const created: string[] = [];
    for (const name of ['A', 'B', 'C']) {
      const res = await call<Sku>('POST', '/admin/v1/catalog/skus', { plan_id: other.id, name, pricing_model: 'Flat', unit_amount_nanos: '1', currency: 'USD' });
      created.push(res.body.id);
    }
    const first = await list<Sku>(`/admin/v1/catalog/skus?plan_id=${other.id}&limit=2`);
    expect(first.status).toBe(200);
    const newestFirst = [...created].reverse();
    expect(first.body.data.map((s) => s.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.body.has_more).toBe(true);
    const second = await list<Sku>(`/admin/v1/catalog/skus?plan_id=${other.id}&limit=2&starting_after=${first.body.next_cursor}`);
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(second.body.data.map((s) => s.id)).toEqual(newestFirst.slice(2));
  });

  it('answers 404 for an unknown SKU', async () => {
    const res = await call('GET', `/admin/v1/catalog/skus/${newId()}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('sku_not_found');
  });
});

describe('security and API description', () => {
  it('is admin-only', async () => {
    const customerToken = { customer: newId() };
    expect((await h.request('GET', '/admin/v1/catalog/plans', { as: customerToken })).status).toBe(403);
    expect((await h.request('POST', '/admin/v1/catalog/products', { as: customerToken, body: { name: 'X' } })).status).toBe(403);
    expect((await h.request('GET', '/admin/v1/catalog/products', { as: 'api_key' })).status).toBe(200);
  });

  it('publishes the customer, catalog and rating routes in the OpenAPI document', async () => {
    const res = await h.request('GET', '/openapi.json', { as: 'none' });
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/admin/v1/customers',
        '/admin/v1/customers/{id}',
        '/admin/v1/customers/{id}/status',
        '/admin/v1/customers/{id}/hierarchy',
        '/admin/v1/catalog/products',
        '/admin/v1/catalog/products/{id}',
        '/admin/v1/catalog/plans',
        '/admin/v1/catalog/plans/{id}',
        '/admin/v1/catalog/skus',
        '/admin/v1/catalog/skus/{id}',
        '/admin/v1/rating/preview',
      ]),
    );
    expect(Object.keys(doc.paths['/admin/v1/customers/{id}']!).sort()).toEqual(['get', 'patch']);
    expect(Object.keys(doc.paths['/admin/v1/catalog/plans/{id}']!).sort()).toEqual(['get', 'patch']);
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(['Customer', 'CustomerHierarchyNode', 'Sku', 'Plan', 'RatingPreview']));
  });
});
