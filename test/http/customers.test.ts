import { describe, expect, it } from 'vitest';
import { newId } from '../../src/ids.js';
import { expectPage, type PageBody, useHarness } from '../support/harness.js';

const h = useHarness();

interface Customer {
  id: string;
  display_name: string;
  legal_name: string | null;
  email: string;
  account_type: string;
  status: string;
  parent_id: string | null;
  bill_to_id: string | null;
  consolidation: string;
  billing_currency: string;
  payment_terms_days: number;
  tax_id: string | null;
  test_clock_id: string | null;
  external_id: string | null;
  metadata: Record<string, string>;
  created_at: string;
  updated_at: string;
}

interface ErrorBody {
  error: { code: string; message: string; details?: { field?: string; issues?: { path: string; message: string }[] } };
}

interface TreeNode {
  id: string;
  account_type: string;
  children: TreeNode[];
}

async function call<T = ErrorBody>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await h.request(method, path, body === undefined ? {} : { body });
  return { status: res.status, body: (await res.json()) as T };
}

async function list<T>(path: string): Promise<{ status: number; body: PageBody<T> }> {
  const res = await h.request('GET', path);
  return { status: res.status, body: await expectPage<T>(res) };
}

async function create(fields: Record<string, unknown>): Promise<Customer> {
  const res = await call<Customer>('POST', '/admin/v1/customers', { display_name: 'Acme', email: 'billing@acme.test', currency: 'USD', ...fields });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const organization = (fields: Record<string, unknown> = {}) => create({ account_type: 'Organization', ...fields });
const subsidiary = (parentId: string, fields: Record<string, unknown> = {}) => create({ account_type: 'Subsidiary', parent_id: parentId, ...fields });
const setStatus = (id: string, status: string) => call<Customer>('POST', `/admin/v1/customers/${id}/status`, { status });
const row = (id: string) => h.deps.db.customer.findUnique({ where: { id } });
const customerCount = () => h.deps.db.customer.count();

/** Posts a create that must fail, and checks that nothing was written. */
async function rejectCreate(fields: Record<string, unknown>, status: number, code: string) {
  const before = await customerCount();
  const res = await call('POST', '/admin/v1/customers', { display_name: 'Nope', email: 'nope@acme.test', currency: 'USD', ...fields });
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(await customerCount()).toBe(before);
  return res.body;
}

async function planId(): Promise<string> {
  const res = await call<{ id: string }>('POST', '/admin/v1/catalog/plans', { name: 'Pro', billing_cadence: 'Monthly' });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function addSubscription(customerId: string, status: 'Active' | 'Cancelled', contractId: string | null = null) {
  return h.deps.db.subscription.create({
    data: {
      id: newId(),
      customerId,
      planId: await planId(),
      currency: 'USD',
      status,
      periodStart: new Date('2026-01-01T00:00:00Z'),
      periodEnd: new Date('2026-02-01T00:00:00Z'),
      billingAnchor: new Date('2026-01-01T00:00:00Z'),
      contractId,
    },
  });
}

function addDraftInvoice(customerId: string, subscriptionId: string | null = null) {
  return h.deps.db.invoice.create({
    data: { id: newId(), customerId, subscriptionId, currency: 'USD', billingReason: 'manual', totalNanos: '12345000000000' },
  });
}

describe('POST /admin/v1/customers', () => {
  it('creates an Organization with the defaults and an audit entry', async () => {
    const res = await call<Customer>('POST', '/admin/v1/customers', {
      display_name: 'Acme Corp',
      email: 'ap@acme.test',
      currency: 'EUR',
      account_type: 'Organization',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      display_name: 'Acme Corp',
      legal_name: null,
      email: 'ap@acme.test',
      account_type: 'Organization',
      status: 'Active',
      parent_id: null,
      bill_to_id: null,
      consolidation: 'Standalone',
      billing_currency: 'EUR',
      payment_terms_days: 30,
      tax_id: null,
      test_clock_id: null,
      external_id: null,
      metadata: {},
    });
    expect(res.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    expect(res.body).not.toHaveProperty('currency');

    const stored = await row(res.body.id);
    expect(stored).toMatchObject({ billingCurrency: 'EUR', accountType: 'Organization', status: 'Active', paymentTermsDays: 30 });
    const audit = await h.deps.db.auditLogEntry.findMany({ where: { entityId: res.body.id } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'customer.created', customerId: res.body.id, actorType: 'admin', actorId: 'test-admin', entityType: 'customer' });
    expect(audit[0]!.after).toMatchObject({ id: res.body.id, billing_currency: 'EUR' });
  });

  it('creates an Individual with every optional field', async () => {
    const billTo = await organization();
    const clock = await h.deps.db.testClock.create({ data: { id: newId(), name: 'sandbox', frozenTime: new Date('2026-01-01T00:00:00Z') } });
    const customer = await create({
      account_type: 'Individual',
      legal_name: 'Jane Doe',
      bill_to_id: billTo.id,
      payment_terms_days: 0,
      tax_id: 'DE123456789',
      test_clock_id: clock.id,
    });
    expect(customer).toMatchObject({
      account_type: 'Individual',
      parent_id: null,
      legal_name: 'Jane Doe',
      bill_to_id: billTo.id,
      payment_terms_days: 0,
      tax_id: 'DE123456789',
      test_clock_id: clock.id,
    });
    expect(await row(customer.id)).toMatchObject({ billToId: billTo.id, testClockId: clock.id, taxId: 'DE123456789' });
  });

  it('creates Subsidiaries under an Organization and under a Subsidiary, consolidating to the parent', async () => {
    const org = await organization();
    const division = await subsidiary(org.id, { consolidation: 'ConsolidateToParent' });
    const team = await subsidiary(division.id);
    expect(division).toMatchObject({ account_type: 'Subsidiary', parent_id: org.id, consolidation: 'ConsolidateToParent' });
    expect(team.parent_id).toBe(division.id);
    expect((await row(team.id))?.parentId).toBe(division.id);
  });

  it('refuses a Subsidiary without a parent', async () => {
    const body = await rejectCreate({ account_type: 'Subsidiary' }, 422, 'subsidiary_requires_parent');
    expect(body.error.details?.field).toBe('parent_id');
  });

  it('refuses a child under an Individual', async () => {
    const person = await create({ account_type: 'Individual' });
    const body = await rejectCreate({ account_type: 'Subsidiary', parent_id: person.id }, 422, 'individual_cannot_have_children');
    expect(body.error.message).toContain('parent_id');
  });

  it('refuses a parent for an Organization or an Individual (top-level accounts)', async () => {
    const org = await organization();
    await rejectCreate({ account_type: 'Organization', parent_id: org.id }, 422, 'parent_not_allowed');
    await rejectCreate({ account_type: 'Individual', parent_id: org.id }, 422, 'parent_not_allowed');
  });

  it('refuses unknown parent, bill-to and test clock ids with 404 naming the field', async () => {
    const missing = newId();
    const parent = await rejectCreate({ account_type: 'Subsidiary', parent_id: missing }, 404, 'parent_not_found');
    expect(parent.error.details?.field).toBe('parent_id');
    await rejectCreate({ account_type: 'Organization', bill_to_id: missing }, 404, 'bill_to_not_found');
    const clock = await rejectCreate({ account_type: 'Organization', test_clock_id: missing }, 404, 'test_clock_not_found');
    expect(clock.error.details?.field).toBe('test_clock_id');
  });

  it('refuses ConsolidateToParent without a parent or across currencies', async () => {
    const body = await rejectCreate({ account_type: 'Organization', consolidation: 'ConsolidateToParent' }, 422, 'consolidation_requires_parent');
    expect(body.error.details?.field).toBe('consolidation');
    const org = await organization({ currency: 'USD' });
    await rejectCreate({ account_type: 'Subsidiary', parent_id: org.id, currency: 'EUR', consolidation: 'ConsolidateToParent' }, 422, 'consolidation_currency_mismatch');
    const standalone = await subsidiary(org.id, { currency: 'EUR' });
    expect(standalone.billing_currency).toBe('EUR');
  });

  it('refuses a Closed parent or bill-to', async () => {
    const org = await organization();
    expect((await setStatus(org.id, 'Closed')).status).toBe(200);
    await rejectCreate({ account_type: 'Subsidiary', parent_id: org.id }, 422, 'parent_closed');
    await rejectCreate({ account_type: 'Organization', bill_to_id: org.id }, 422, 'bill_to_closed');
  });

  it('limits a tree to 5 levels', async () => {
    let parent = await organization();
    for (let level = 2; level <= 5; level += 1) parent = await subsidiary(parent.id);
    const body = await rejectCreate({ account_type: 'Subsidiary', parent_id: parent.id }, 422, 'hierarchy_too_deep');
    expect(body.error.message).toContain('5 levels');
  });

  it.each([
    ['XYZ', 'is not an ISO 4217 currency code'],
    ['usd', 'must be an upper-case ISO 4217 code'],
  ])('refuses currency %s with 400 naming currency', async (currency, message) => {
    const body = await rejectCreate({ account_type: 'Organization', currency }, 400, 'validation_failed');
    expect(body.error.details?.issues).toContainEqual({ path: 'currency', message });
    expect(body.error.details?.issues?.every((issue) => issue.path === 'currency')).toBe(true);
  });

  it('takes billing_currency as input too, the same field as currency', async () => {
    const { currency: _dropped, ...withoutCurrency } = { display_name: 'Acme', email: 'billing@acme.test', currency: 'USD', account_type: 'Organization' };
    const byName = await call<Customer>('POST', '/admin/v1/customers', { ...withoutCurrency, billing_currency: 'EUR' });
    expect(byName.status, JSON.stringify(byName.body)).toBe(201);
    expect(byName.body.billing_currency).toBe('EUR');
    expect((await row(byName.body.id))!.billingCurrency).toBe('EUR');
    // Both, equal: one currency.
    expect((await organization({ currency: 'GBP', billing_currency: 'GBP' })).billing_currency).toBe('GBP');

    const differ = await rejectCreate({ account_type: 'Organization', currency: 'USD', billing_currency: 'EUR' }, 400, 'validation_failed');
    expect(differ.error.details?.issues).toEqual([{ path: 'billing_currency', message: 'must equal currency (USD) when both are given' }]);
    const before = await customerCount();
    const neither = await call('POST', '/admin/v1/customers', withoutCurrency);
    expect(neither.status).toBe(400);
    expect(neither.body.error.details?.issues).toEqual([{ path: 'currency', message: 'is required (or billing_currency)' }]);
    expect(await customerCount()).toBe(before);
    const malformed = await rejectCreate({ account_type: 'Organization', currency: undefined, billing_currency: 'usd' }, 400, 'validation_failed');
    expect(malformed.error.details?.issues).toContainEqual({ path: 'billing_currency', message: 'must be an upper-case ISO 4217 code' });
    expect(malformed.error.details?.issues?.every((issue) => issue.path === 'billing_currency')).toBe(true);
  });

  it('refuses a malformed email with 400 naming email', async () => {
    const body = await rejectCreate({ account_type: 'Organization', email: 'not-an-email' }, 400, 'validation_failed');
    expect(body.error.details?.issues).toEqual([{ path: 'email', message: 'must be an email address' }]);
    // A value of the wrong type is still wrong, not missing.
    const wrongType = await rejectCreate({ account_type: 'Organization', email: 42 }, 400, 'validation_failed');
    expect(wrongType.error.details?.issues).toEqual([{ path: 'email', message: 'must be an email address' }]);
  });

  it('says a required field left out "is required", in bodies and nested objects alike', async () => {
    const missing = await rejectCreate({ account_type: 'Organization', email: undefined }, 400, 'validation_failed');
    expect(missing.error.details?.issues).toEqual([{ path: 'email', message: 'is required' }]);
    expect(missing.error.message).toBe('invalid request: email: is required');
    const address = await rejectCreate({ account_type: 'Organization', billing_address: { line1: '1 Main St', country: 'US' } }, 400, 'validation_failed');
    expect(address.error.details?.issues).toEqual([{ path: 'billing_address.city', message: 'is required' }]);
    // A body that is no object at all is not a missing field.
    const res = await h.request('POST', '/admin/v1/customers', { body: [] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).error.details?.issues?.map((i) => i.message)).not.toContain('is required');
  });

  it('refuses unknown fields, missing fields and out-of-range terms with 400', async () => {
    const unknown = await rejectCreate({ account_type: 'Organization', curency: 'USD' }, 400, 'validation_failed');
    expect(unknown.error.message).toContain('curency');
    const res = await call('POST', '/admin/v1/customers', { email: 'a@b.test', currency: 'USD', account_type: 'Company', payment_terms_days: 366 });
    expect(res.status).toBe(400);
    expect(res.body.error.details?.issues?.map((i) => i.path).sort()).toEqual(['account_type', 'display_name', 'payment_terms_days']);
  });

  it('is admin-only', async () => {
    const org = await organization();
    const asCustomer = await h.request('POST', '/admin/v1/customers', {
      body: { display_name: 'X', email: 'x@y.test', currency: 'USD', account_type: 'Organization' },
      as: { customer: org.id },
    });
    expect(asCustomer.status).toBe(403);
    expect(((await asCustomer.json()) as ErrorBody).error.code).toBe('forbidden');
    expect((await h.request('GET', '/admin/v1/customers', { as: { customer: org.id } })).status).toBe(403);
    expect((await h.request('GET', `/admin/v1/customers/${org.id}`, { as: 'none' })).status).toBe(401);
  });
});

describe('GET /admin/v1/customers', () => {
  it('pages newest first with parent and status filters', async () => {
    const org = await organization();
    const children = [await subsidiary(org.id), await subsidiary(org.id), await subsidiary(org.id)];
    const first = await list<Customer>(`/admin/v1/customers?parent_id=${org.id}&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.data.map((c) => c.id)).toEqual([children[2]!.id, children[1]!.id]);
    expect(first.body.has_more).toBe(true);
    expect(first.body.next_cursor).toBe(children[1]!.id);

    const second = await list<Customer>(`/admin/v1/customers?parent_id=${org.id}&limit=2&starting_after=${first.body.next_cursor}`);
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(second.body.data.map((c) => c.id)).toEqual([children[0]!.id]);

    expect((await setStatus(children[1]!.id, 'Suspended')).status).toBe(200);
    const suspended = await list<Customer>(`/admin/v1/customers?parent_id=${org.id}&status=Suspended`);
    expect(suspended.body.data.map((c) => c.id)).toEqual([children[1]!.id]);
  });

  it('refuses a bad limit or cursor', async () => {
    expect((await call('GET', '/admin/v1/customers?limit=0')).status).toBe(400);
    expect((await call('GET', '/admin/v1/customers?starting_after=abc')).status).toBe(400);
    expect((await call('GET', '/admin/v1/customers?status=Gone')).status).toBe(400);
  });
});

describe('PATCH /admin/v1/customers/:id', () => {
  it('changes the fields sent, clears nullable ones with null, and audits before/after', async () => {
    const org = await organization({ legal_name: 'Acme GmbH', tax_id: 'DE1' });
    const res = await call<Customer>('PATCH', `/admin/v1/customers/${org.id}`, {
      display_name: 'Acme Europe',
      legal_name: null,
      payment_terms_days: 45,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ display_name: 'Acme Europe', legal_name: null, tax_id: 'DE1', payment_terms_days: 45, email: org.email });
    expect(await row(org.id)).toMatchObject({ displayName: 'Acme Europe', legalName: null, paymentTermsDays: 45 });
    const audit = await h.deps.db.auditLogEntry.findFirst({ where: { entityId: org.id, action: 'customer.updated' } });
    expect(audit?.before).toMatchObject({ display_name: 'Acme', legal_name: 'Acme GmbH' });
    expect(audit?.after).toMatchObject({ display_name: 'Acme Europe', legal_name: null });
  });

  it('refuses an empty patch, unknown or immutable fields', async () => {
    const org = await organization();
    for (const body of [{}, { nickname: 'x' }, { account_type: 'Individual' }, { currency: 'EUR' }]) {
      const res = await call('PATCH', `/admin/v1/customers/${org.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await row(org.id)).toMatchObject({ accountType: 'Organization', billingCurrency: 'USD' });
  });

  it('moves a Subsidiary to another parent', async () => {
    const [a, b] = [await organization(), await organization()];
    const child = await subsidiary(a.id);
    const res = await call<Customer>('PATCH', `/admin/v1/customers/${child.id}`, { parent_id: b.id });
    expect(res.status).toBe(200);
    expect(res.body.parent_id).toBe(b.id);
    expect((await row(child.id))?.parentId).toBe(b.id);
  });

  it('refuses a move that would create a cycle, whatever its length', async () => {
    const org = await organization();
    const s1 = await subsidiary(org.id);
    const s2 = await subsidiary(s1.id);
    const s3 = await subsidiary(s2.id);
    for (const [moved, target] of [
      [s1, s3],
      [s1, s2],
      [s2, s3],
    ] as const) {
      const res = await call('PATCH', `/admin/v1/customers/${moved.id}`, { parent_id: target.id });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('hierarchy_cycle');
    }
    expect((await row(s1.id))?.parentId).toBe(org.id);
    expect((await row(s2.id))?.parentId).toBe(s1.id);
    const org2 = await call('PATCH', `/admin/v1/customers/${org.id}`, { parent_id: s3.id });
    expect(org2.status).toBe(422);
    expect(org2.body.error.code).toBe('parent_not_allowed');
    expect((await row(org.id))?.parentId).toBeNull();
  });

  it('refuses a move that would make the tree deeper than 5 levels', async () => {
    const deep = await organization();
    let leaf = deep;
    for (let level = 2; level <= 4; level += 1) leaf = await subsidiary(leaf.id);
    const other = await organization();
    const branch = await subsidiary(other.id);
    await subsidiary(branch.id);
    const res = await call('PATCH', `/admin/v1/customers/${branch.id}`, { parent_id: leaf.id });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('hierarchy_too_deep');
    expect((await row(branch.id))?.parentId).toBe(other.id);
  });

  it('refuses a customer as its own parent or bill-to', async () => {
    const org = await organization();
    const child = await subsidiary(org.id);
    const parent = await call('PATCH', `/admin/v1/customers/${child.id}`, { parent_id: child.id });
    expect(parent.status).toBe(422);
    expect(parent.body.error).toMatchObject({ code: 'self_reference', details: { field: 'parent_id' } });
    const billTo = await call('PATCH', `/admin/v1/customers/${child.id}`, { bill_to_id: child.id });
    expect(billTo.status).toBe(422);
    expect(billTo.body.error).toMatchObject({ code: 'self_reference', details: { field: 'bill_to_id' } });
  });

  it('refuses removing the parent of a Subsidiary and ConsolidateToParent on a top-level account', async () => {
    const org = await organization();
    const child = await subsidiary(org.id);
    const orphan = await call('PATCH', `/admin/v1/customers/${child.id}`, { parent_id: null });
    expect(orphan.status).toBe(422);
    expect(orphan.body.error.code).toBe('subsidiary_requires_parent');
    const consolidate = await call('PATCH', `/admin/v1/customers/${org.id}`, { consolidation: 'ConsolidateToParent' });
    expect(consolidate.status).toBe(422);
    expect(consolidate.body.error.code).toBe('consolidation_requires_parent');
    expect(await row(org.id)).toMatchObject({ consolidation: 'Standalone' });
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const unknown = await call('PATCH', `/admin/v1/customers/${newId()}`, { display_name: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('customer_not_found');
    const malformed = await call('PATCH', '/admin/v1/customers/not-a-uuid', { display_name: 'x' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details?.issues?.[0]?.path).toBe('id');
  });
});

describe('external_id and metadata', () => {
  it('keeps an external id unique (409 external_id_taken, also on update) and finds the customer by it', async () => {
    const externalId = `crm-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    const first = await organization({ external_id: externalId, metadata: { crm: 'hubspot', tier: 'gold' } });
    expect(first).toMatchObject({ external_id: externalId, metadata: { crm: 'hubspot', tier: 'gold' } });
    const taken = await call('POST', '/admin/v1/customers', { display_name: 'Twin', email: 'twin@acme.test', currency: 'USD', account_type: 'Organization', external_id: externalId });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('external_id_taken');
    const other = await organization();
    const stolen = await call('PATCH', `/admin/v1/customers/${other.id}`, { external_id: externalId });
    expect(stolen.status).toBe(409);
    expect(stolen.body.error.code).toBe('external_id_taken');

    const found = await list<Customer>(`/admin/v1/customers?external_id=${encodeURIComponent(externalId)}`);
    expect(found.body.data.map((c) => c.id)).toEqual([first.id]);
    expect((await call('POST', '/admin/v1/customers', { display_name: 'Bad', email: 'b@acme.test', currency: 'USD', account_type: 'Organization', external_id: 'has space' })).status).toBe(400);
  });

  it('merges metadata on update, removes a key set to null, and bounds it', async () => {
    const customer = await organization({ metadata: { crm: 'hubspot', tier: 'gold' } });
    const updated = await call<Customer>('PATCH', `/admin/v1/customers/${customer.id}`, { metadata: { tier: null, region: 'eu' } });
    expect(updated.status).toBe(200);
    expect(updated.body.metadata).toEqual({ crm: 'hubspot', region: 'eu' });
    expect((await call<Customer>('GET', `/admin/v1/customers/${customer.id}`)).body).toMatchObject({ metadata: { crm: 'hubspot', region: 'eu' } });
    const tooMany = Object.fromEntries(Array.from({ length: 49 }, (_, i) => [`k${i}`, 'v']));
    const refused = await call('PATCH', `/admin/v1/customers/${customer.id}`, { metadata: tooMany });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details?.issues?.[0]?.path).toBe('metadata');
    expect((await call('PATCH', `/admin/v1/customers/${customer.id}`, { metadata: { ['k'.repeat(41)]: 'v' } })).status).toBe(400);
  });
});

describe('POST /admin/v1/customers/:id/status', () => {
  it('suspends, reactivates and closes; Closed is final', async () => {
    const org = await organization();
    for (const status of ['Suspended', 'Active', 'Suspended', 'Closed']) {
      const res = await setStatus(org.id, status);
      expect(res.status).toBe(200);
      expect(res.body.status).toBe(status);
      expect((await row(org.id))?.status).toBe(status);
    }
    for (const status of ['Active', 'Suspended', 'Closed']) {
      const res = await call('POST', `/admin/v1/customers/${org.id}/status`, { status });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('invalid_state_transition');
    }
    const update = await call('PATCH', `/admin/v1/customers/${org.id}`, { display_name: 'Zombie' });
    expect(update.status).toBe(409);
    expect(update.body.error.code).toBe('invalid_state_transition');
    expect((await row(org.id))?.status).toBe('Closed');
    const audit = await h.deps.db.auditLogEntry.findMany({ where: { entityId: org.id, action: 'customer.status_changed' }, orderBy: { id: 'asc' } });
    expect(audit.map((entry) => [entry.before, entry.after])).toEqual([
      [{ status: 'Active' }, { status: 'Suspended' }],
      [{ status: 'Suspended' }, { status: 'Active' }],
      [{ status: 'Active' }, { status: 'Suspended' }],
      [{ status: 'Suspended' }, { status: 'Closed' }],
    ]);
  });

  it('refuses a move to the current status', async () => {
    const org = await organization();
    const res = await call('POST', `/admin/v1/customers/${org.id}/status`, { status: 'Active' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('invalid_state_transition');
  });

  it('refuses to close a parent with open children, then closes it once they are closed', async () => {
    const org = await organization();
    const child = await subsidiary(org.id);
    const refused = await call('POST', `/admin/v1/customers/${org.id}/status`, { status: 'Closed' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('customer_has_open_children');
    expect((await row(org.id))?.status).toBe('Active');
    expect((await setStatus(child.id, 'Closed')).status).toBe(200);
    expect((await setStatus(org.id, 'Closed')).status).toBe(200);
  });

  it('refuses to close a customer with open subscriptions or one others are billed to', async () => {
    const org = await organization();
    const subscription = await addSubscription(org.id, 'Active');
    const refused = await call('POST', `/admin/v1/customers/${org.id}/status`, { status: 'Closed' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('customer_has_open_subscriptions');
    await h.deps.db.subscription.update({ where: { id: subscription.id }, data: { status: 'Cancelled' } });

    const payer = await organization();
    await create({ account_type: 'Individual', bill_to_id: payer.id });
    const billTo = await call('POST', `/admin/v1/customers/${payer.id}/status`, { status: 'Closed' });
    expect(billTo.status).toBe(409);
    expect(billTo.body.error.code).toBe('customer_is_bill_to');

    expect((await setStatus(org.id, 'Closed')).status).toBe(200);
  });

  it('refuses to close a customer with a Draft or Open invoice', async () => {
    const org = await organization();
    await addDraftInvoice(org.id);
    const res = await call('POST', `/admin/v1/customers/${org.id}/status`, { status: 'Closed' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('customer_has_open_invoices');
    expect((await row(org.id))?.status).toBe('Active');
  });

  it('refuses an unknown status with 400', async () => {
    const org = await organization();
    const res = await call('POST', `/admin/v1/customers/${org.id}/status`, { status: 'Deleted' });
    expect(res.status).toBe(400);
    expect(res.body.error.details?.issues?.[0]?.path).toBe('status');
  });
});

describe('GET /admin/v1/customers/:id (360 view)', () => {
  it('returns the customer, its subscriptions, invoices, balances and recent audit', async () => {
    const org = await organization();
    const contract = await call<{ id: string }>('POST', '/admin/v1/contracts', {
      customer_id: org.id,
      name: '360 view',
      start_date: '2030-01-01',
      end_date: '2031-01-01',
      terms: [{ phase: 1, start_date: '2030-01-01', end_date: '2031-01-01', committed_amount_nanos: '0', description: 'all year' }],
    });
    expect(contract.status).toBe(201);
    const contractId = contract.body.id;
    const subscription = await addSubscription(org.id, 'Active', contractId);
    const invoice = await addDraftInvoice(org.id, subscription.id);
    await call('PATCH', `/admin/v1/customers/${org.id}`, { tax_id: 'US-EIN-1' });
    await setStatus(org.id, 'Suspended');

    const res = await call<Customer & {
      subscriptions: Record<string, unknown>[];
      invoices: unknown[];
      ledger_balances: Record<string, string>;
      credit_balances: { currency: string; balance_nanos: string }[];
      recent_audit: { action: string; actor_type: string; actor_id: string; before: unknown; after: unknown }[];
    }>('GET', `/admin/v1/customers/${org.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: org.id, tax_id: 'US-EIN-1', status: 'Suspended' });
    expect(res.body.subscriptions).toEqual([
      {
        id: subscription.id,
        plan_id: subscription.planId,
        plan_version: 1,
        status: 'Active',
        currency: 'USD',
        period_start: '2026-01-01T00:00:00.000Z',
        period_end: '2026-02-01T00:00:00.000Z',
        charged_through_date: null,
        contract_id: contractId,
      },
    ]);
    expect(res.body.invoices).toEqual([
      {
        id: invoice.id,
        subscription_id: subscription.id,
        status: 'Draft',
        invoice_number: null,
        currency: 'USD',
        total_nanos: '12345000000000',
        created_at: invoice.createdAt.toISOString(),
      },
    ]);
    expect(res.body.ledger_balances).toEqual({ accounts_receivable_nanos: '0', prepaid_credit_nanos: '0', deferred_revenue_nanos: '0', customer_credit_nanos: '0' });
    expect(res.body.credit_balances).toEqual([]);
    expect(res.body.recent_audit.map((entry) => entry.action)).toEqual(['customer.status_changed', 'customer.updated', 'contract.created', 'customer.created']);
    expect(res.body.recent_audit[0]).toMatchObject({
      actor_type: 'admin',
      actor_id: 'test-admin',
      entity_type: 'customer',
      entity_id: org.id,
      request_id: expect.any(String),
      before: { status: 'Active' },
      after: { status: 'Suspended' },
    });
    expect(res.body.recent_audit[2]).toMatchObject({ action: 'contract.created', entity_type: 'contract', entity_id: contractId });
    expect(res.body.recent_audit[3]!.before).toBeNull();
  });

  it('keeps only the 20 newest audit entries', async () => {
    const org = await organization();
    for (let i = 0; i < 11; i += 1) {
      await setStatus(org.id, 'Suspended');
      await setStatus(org.id, 'Active');
    }
    const res = await call<{ recent_audit: { id: string; action: string }[] }>('GET', `/admin/v1/customers/${org.id}`);
    expect(res.body.recent_audit).toHaveLength(20);
    expect(res.body.recent_audit.every((entry) => entry.action === 'customer.status_changed')).toBe(true);
    const newest = await h.deps.db.auditLogEntry.findFirst({ where: { customerId: org.id }, orderBy: { id: 'desc' } });
    expect(res.body.recent_audit[0]!.id).toBe(newest?.id);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const unknown = await call('GET', `/admin/v1/customers/${newId()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('customer_not_found');
    expect((await call('GET', '/admin/v1/customers/1234')).status).toBe(400);
  });
});

describe('GET /admin/v1/customers/:id/hierarchy', () => {
  it('returns the whole tree rooted at the customer, three levels deep', async () => {
    const org = await organization({ display_name: 'Root' });
    const emea = await subsidiary(org.id, { display_name: 'EMEA', consolidation: 'ConsolidateToParent' });
    const amer = await subsidiary(org.id, { display_name: 'AMER' });
    const berlin = await subsidiary(emea.id, { display_name: 'Berlin' });

    const res = await call<TreeNode>('GET', `/admin/v1/customers/${org.id}/hierarchy`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: org.id,
      display_name: 'Root',
      account_type: 'Organization',
      status: 'Active',
      consolidation: 'Standalone',
      billing_currency: 'USD',
      children: [
        {
          id: emea.id,
          display_name: 'EMEA',
          account_type: 'Subsidiary',
          status: 'Active',
          consolidation: 'ConsolidateToParent',
          billing_currency: 'USD',
          children: [
            { id: berlin.id, display_name: 'Berlin', account_type: 'Subsidiary', status: 'Active', consolidation: 'Standalone', billing_currency: 'USD', children: [] },
          ],
        },
        { id: amer.id, display_name: 'AMER', account_type: 'Subsidiary', status: 'Active', consolidation: 'Standalone', billing_currency: 'USD', children: [] },
      ],
    });

    const subtree = await call<TreeNode>('GET', `/admin/v1/customers/${emea.id}/hierarchy`);
    expect(subtree.body.id).toBe(emea.id);
    expect(subtree.body.children.map((child) => child.id)).toEqual([berlin.id]);
  });

  it('answers 404 for an unknown id', async () => {
    const res = await call('GET', `/admin/v1/customers/${newId()}/hierarchy`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('customer_not_found');
  });
});
