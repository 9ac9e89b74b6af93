/**
 * Contracts through the API, PostgreSQL and Temporal: every endpoint, every refused move, the
 * validation of dates, phases and money, concurrent amendments, adoption of subscriptions, and the
 * audit entries and events each move writes.
 */
import { describe, expect, it } from 'vitest';
import { contractWorkflowId } from '../../workflows/contract/messages.js';
import { makeCustomer, makePlan, makeTestClock } from '../support/fixtures.js';
import { expectJson, expectPage, useHarness } from '../support/harness.js';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { invoicesOf } from '../support/invoices.js';

const h = useHarness();

interface Term {
  phase: number;
  start_date: string;
  end_date: string;
  committed_amount_nanos: string;
  description: string;
  discount_bps: number | null;
  rate_overrides: { product_tag: string; multiplier_bps: number }[] | null;
  drawn_down_nanos: string | null;
  remaining_commit_nanos: string | null;
}
interface Contract {
  id: string;
  customer_id: string;
  name: string;
  status: string;
  start_date: string;
  end_date: string;
  parent_contract_id: string | null;
  amendment_reason: string | null;
  effective_date: string | null;
  terminated_on: string | null;
  terms: Term[];
  amendment_chain: { id: string; status: string; effective_date: string | null }[] | null;
  subscriptions: { subscription_id: string; adoption_type: string }[] | null;
}
interface ErrorBody {
  error: { code: string; message: string; details?: { issues?: { path: string; code?: string }[] } };
}

const money = (units: bigint) => (units * UNIT).toString();

/** A two-phase contract over 2030 (far enough ahead that any effective date in it is not in the past). */
function contractBody(customerId: string, extra: Record<string, unknown> = {}) {
  return {
    customer_id: customerId,
    name: 'Enterprise 2030',
    start_date: '2030-01-01',
    end_date: '2031-01-01',
    terms: [
      { phase: 1, start_date: '2030-01-01', end_date: '2030-07-01', committed_amount_nanos: money(6000n), description: 'ramp', discount_bps: 1000 },
      { phase: 2, start_date: '2030-07-01', end_date: '2031-01-01', committed_amount_nanos: money(9000n), description: 'full' },
    ],
    ...extra,
  };
}

const create = async (customerId: string, extra: Record<string, unknown> = {}) =>
  expectJson<Contract>(await h.request('POST', '/admin/v1/contracts', { body: contractBody(customerId, extra) }), 201);
const get = async (id: string) => expectJson<Contract>(await h.request('GET', `/admin/v1/contracts/${id}`));
const amend = (id: string, body: Record<string, unknown> = { reason: 'upsell', new_committed_amount_nanos: money(12000n), effective_date: '2030-10-01' }) =>
  h.request('POST', `/admin/v1/contracts/${id}/amend`, { body });
const expectError = async (res: Response, status: number, code: string) => {
  const body = await expectJson<ErrorBody>(res, status);
  expect(body.error.code).toBe(code);
  return body;
};
const issuesOf = (body: ErrorBody) => (body.error.details?.issues ?? []).map((i) => [i.path, i.code]);

describe('contract resource', () => {
  it('creates an Active contract by default, reads it back with its terms and chain, and lists it by customer and status', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const contract = await create(customerId);
    expect(contract).toMatchObject({ customer_id: customerId, name: 'Enterprise 2030', status: 'Active', start_date: '2030-01-01', end_date: '2031-01-01', parent_contract_id: null });
    expect(contract.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
    expect(contract.terms.map((t) => [t.phase, t.start_date, t.end_date, t.committed_amount_nanos, t.discount_bps])).toEqual([
      [1, '2030-01-01', '2030-07-01', money(6000n), 1000],
      [2, '2030-07-01', '2031-01-01', money(9000n), null],
    ]);
    // Nothing drawn yet: the whole commit remains.
    expect(contract.terms.map((t) => [t.drawn_down_nanos, t.remaining_commit_nanos])).toEqual([['0', money(6000n)], ['0', money(9000n)]]);
    expect(contract.amendment_chain).toEqual([{ id: contract.id, status: 'Active', effective_date: null }]);

    const workflow = await h.deps.temporal.client.workflow.getHandle(contractWorkflowId(contract.id)).describe();
    expect(workflow.status.name).toBe('RUNNING');

    const draft = await create(customerId, { activate: false, name: 'Later' });
    expect(draft.status).toBe('Draft');
    const all = await expectPage<Contract>(await h.request('GET', `/admin/v1/contracts?customer_id=${customerId}`));
    expect(all.data.map((c) => c.id)).toEqual([draft.id, contract.id]);
    const drafts = await expectPage<Contract>(await h.request('GET', `/admin/v1/contracts?customer_id=${customerId}&status=Draft`));
    expect(drafts.data.map((c) => c.id)).toEqual([draft.id]);
    const firstPage = await expectPage<Contract>(await h.request('GET', `/admin/v1/contracts?customer_id=${customerId}&limit=1`));
    expect([firstPage.data.length, firstPage.has_more, firstPage.next_cursor]).toEqual([1, true, draft.id]);

    const created = await h.deps.db.auditLogEntry.findFirstOrThrow({ where: { entityId: contract.id, action: 'contract.created' } });
    expect(created).toMatchObject({ actorType: 'admin', actorId: 'test-admin' });
    expect(created.after).toMatchObject({ status: 'Active', name: 'Enterprise 2030' });
    const events = await h.deps.db.outboxEvent.findMany({ where: { aggregateId: contract.id } });
    expect(events.map((e) => e.type)).toEqual(['contract.created']);
  });

  it('activates a Draft once: activate of Active and amend of a Draft are refused', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const draft = await create(customerId, { activate: false });
    await expectError(await amend(draft.id), 409, 'invalid_state_transition');
    const active = await expectJson<Contract>(await h.request('POST', `/admin/v1/contracts/${draft.id}/activate`));
    expect(active.status).toBe('Active');
    await expectError(await h.request('POST', `/admin/v1/contracts/${draft.id}/activate`), 409, 'invalid_state_transition');
    const audit = await h.deps.db.auditLogEntry.findFirstOrThrow({ where: { entityId: draft.id, action: 'contract.activated' } });
    expect([audit.before, audit.after]).toEqual([{ status: 'Draft' }, { status: 'Active' }]);
    await expectError(await h.request('GET', '/admin/v1/contracts/01900000-0000-7000-8000-000000000000'), 404, 'contract_not_found');
  });

  it('amends an Active contract into a new Active one; the old one is Amended, immutable, and the chain reads old → new', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const original = await create(customerId, { rate_overrides: [{ product_tag: 'compute', multiplier_bps: 9000 }] });
    const amended = await expectJson<Contract>(
      await amend(original.id, { reason: 'upsell', new_committed_amount_nanos: money(12000n), effective_date: '2030-10-01', discount_bps: 2000 }),
      201,
    );
    expect(amended).toMatchObject({ status: 'Active', parent_contract_id: original.id, amendment_reason: 'upsell', effective_date: '2030-10-01', start_date: '2030-01-01', end_date: '2031-01-01' });
    // Phase 2 is split on the effective date: 92 of its 184 days keep the old terms and half its commit.
    expect(amended.terms.map((t) => [t.phase, t.start_date, t.end_date, t.committed_amount_nanos, t.discount_bps])).toEqual([
      [1, '2030-01-01', '2030-07-01', money(6000n), 1000],
      [2, '2030-07-01', '2030-10-01', money(4500n), null],
      [3, '2030-10-01', '2031-01-01', money(12000n), 2000],
    ]);
    const old = await get(original.id);
    expect(old.status).toBe('Amended');
    expect(old.amendment_chain).toEqual([
      { id: original.id, status: 'Amended', effective_date: null },
      { id: amended.id, status: 'Active', effective_date: '2030-10-01' },
    ]);
    expect((await get(amended.id)).amendment_chain?.map((c) => c.id)).toEqual([original.id, amended.id]);
    await expectError(await amend(original.id), 409, 'invalid_state_transition');
    await expectError(await h.request('POST', `/admin/v1/contracts/${original.id}/terminate`), 409, 'invalid_state_transition');
    // The database refuses any change of an Amended contract, whoever asks.
    await expect(h.deps.db.contract.update({ where: { id: original.id }, data: { name: 'changed' } })).rejects.toThrow(/immutable/);
    // The old workflow ends once it sees the amendment; the new one runs.
    await h.deps.temporal.client.workflow.getHandle(contractWorkflowId(original.id)).result();
    expect((await h.deps.temporal.client.workflow.getHandle(contractWorkflowId(amended.id)).describe()).status.name).toBe('RUNNING');
    const audit = await h.deps.db.auditLogEntry.findFirstOrThrow({ where: { entityId: original.id, action: 'contract.amended' } });
    expect([audit.before, audit.after]).toEqual([{ status: 'Active' }, { status: 'Amended' }]);
    expect((await h.deps.db.outboxEvent.findMany({ where: { aggregateId: original.id }, orderBy: { createdAt: 'asc' } })).map((e) => e.type)).toEqual([
      'contract.created',
      'contract.amended',
    ]);
  });

  it('refuses amendments with an effective date outside the contract or in the past', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const contract = await create(customerId);
    const body = { reason: 'x', new_committed_amount_nanos: '0' };
    await expectError(await amend(contract.id, { ...body, effective_date: '2031-01-01' }), 422, 'invalid_effective_date');
    await expectError(await amend(contract.id, { ...body, effective_date: '2029-12-31' }), 422, 'invalid_effective_date');
    const past = await create(customerId, {
      start_date: '2020-01-01',
      end_date: '2040-01-01',
      terms: [{ phase: 1, start_date: '2020-01-01', end_date: '2040-01-01', committed_amount_nanos: '0', description: '' }],
    });
    const refused = await expectError(await amend(past.id, { ...body, effective_date: '2021-01-01' }), 422, 'invalid_effective_date');
    expect(refused.error.message).toMatch(/^effective_date: /);
  });

  it('terminates an Active contract once; Terminated and Expired contracts accept no amendment', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const contract = await create(customerId);
    const terminated = await expectJson<Contract>(await h.request('POST', `/admin/v1/contracts/${contract.id}/terminate`, { body: { reason: 'customer exit' } }));
    // Terminated before its start: no day was served, so no fee.
    expect(terminated).toMatchObject({ status: 'Terminated', terminated_on: '2029-12-31' });
    await expectError(await h.request('POST', `/admin/v1/contracts/${contract.id}/terminate`), 409, 'invalid_state_transition');
    await expectError(await amend(contract.id), 409, 'invalid_state_transition');
    await h.deps.temporal.client.workflow.getHandle(contractWorkflowId(contract.id)).result();

    // A contract whose end has passed expires as soon as its workflow runs.
    const ended = await create(customerId, {
      start_date: '2020-01-01',
      end_date: '2020-02-01',
      terms: [{ phase: 1, start_date: '2020-01-01', end_date: '2020-02-01', committed_amount_nanos: '0', description: '' }],
    });
    const outcome = await h.deps.temporal.client.workflow.getHandle(contractWorkflowId(ended.id)).result();
    expect(outcome).toEqual({ status: 'Expired', nextWakeAt: null });
    expect((await get(ended.id)).status).toBe('Expired');
    await expectError(await amend(ended.id, { reason: 'x', new_committed_amount_nanos: '0', effective_date: '2020-01-15' }), 409, 'invalid_state_transition');
    await expectError(await h.request('POST', `/admin/v1/contracts/${ended.id}/terminate`), 409, 'invalid_state_transition');
  });

  it('of two concurrent amendments one succeeds and the other is refused: one chain', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const contract = await create(customerId);
    const responses = await Promise.all([
      amend(contract.id, { reason: 'a', new_committed_amount_nanos: money(1n), effective_date: '2030-09-01' }),
      amend(contract.id, { reason: 'b', new_committed_amount_nanos: money(2n), effective_date: '2030-09-01' }),
    ]);
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses[0]).toBe(201);
    expect([409, 422]).toContain(statuses[1]);
    const children = await h.deps.db.contract.findMany({ where: { parentContractId: contract.id } });
    expect(children).toHaveLength(1);
    expect((await get(contract.id)).amendment_chain?.map((c) => c.id)).toEqual([contract.id, children[0]!.id]);
  });
});

describe('contract validation', () => {
  it('names the field of bad dates, phases that overlap, leave gaps or stray outside, and money sent as a JSON number', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const post = (body: unknown) => h.request('POST', '/admin/v1/contracts', { body });
    const base = contractBody(customerId);
    const [first, second] = base.terms;

    const badDate = await expectError(await post({ ...base, start_date: '2030-02-30' }), 400, 'validation_failed');
    expect(issuesOf(badDate).map(([path]) => path)).toEqual(['start_date']);
    const reversed = await expectError(await post({ ...base, start_date: '2031-01-01', end_date: '2030-01-01' }), 400, 'validation_failed');
    expect(issuesOf(reversed)[0]).toEqual(['end_date', 'end_before_start']);
    const emptyTerm = await expectError(await post({ ...base, terms: [{ ...first, end_date: '2030-01-01' }, second] }), 400, 'validation_failed');
    expect(issuesOf(emptyTerm)).toContainEqual(['terms.0.end_date', 'empty_term']);
    const overlapping = await expectError(await post({ ...base, terms: [first, { ...second, start_date: '2030-06-01' }] }), 400, 'validation_failed');
    expect(issuesOf(overlapping)).toEqual([['terms.1.start_date', 'overlapping_terms']]);
    const gap = await expectError(await post({ ...base, terms: [first, { ...second, start_date: '2030-08-01' }] }), 400, 'validation_failed');
    expect(issuesOf(gap)).toEqual([['terms.1.start_date', 'terms_not_contiguous']]);
    const outside = await expectError(await post({ ...base, terms: [first, { ...second, end_date: '2031-02-01' }] }), 400, 'validation_failed');
    expect(issuesOf(outside)).toEqual([['terms.1.end_date', 'term_outside_contract']]);
    const short = await expectError(await post({ ...base, terms: [first] }), 400, 'validation_failed');
    expect(issuesOf(short)).toEqual([['terms.0.end_date', 'terms_not_contiguous']]);
    const duplicate = await expectError(await post({ ...base, terms: [first, { ...second, phase: 1 }] }), 400, 'validation_failed');
    expect(issuesOf(duplicate)).toContainEqual(['terms.1.phase', 'duplicate_phase']);

    const numeric = await expectError(await post({ ...base, terms: [{ ...first, committed_amount_nanos: 6000 }, second] }), 400, 'validation_failed');
    expect(issuesOf(numeric).map(([path]) => path)).toEqual(['terms.0.committed_amount_nanos']);
    const numericAmend = await expectError(await amend((await create(customerId)).id, { reason: 'x', new_committed_amount_nanos: 5, effective_date: '2030-09-01' }), 400, 'validation_failed');
    expect(issuesOf(numericAmend).map(([path]) => path)).toEqual(['new_committed_amount_nanos']);
    const unknownField = await expectError(await post({ ...base, colour: 'blue' }), 400, 'validation_failed');
    expect(issuesOf(unknownField).map(([path]) => path)).toEqual(['colour']);
    const badEscalation = await expectError(await post({ ...base, escalation: { kind: 'Percent', basis_points: 1000 } }), 400, 'validation_failed');
    expect(issuesOf(badEscalation).map(([path]) => path)).toEqual(['escalation.interval_months']);
    const unknownSku = await expectError(
      await post({ ...base, tier_overrides: [{ sku_id: '01900000-0000-7000-8000-000000000000', tiers: [{ up_to: null, unit_amount_nanos: '1' }] }] }),
      400,
      'validation_failed',
    );
    expect(issuesOf(unknownSku)).toEqual([['tier_overrides.0.sku_id', 'unknown_sku']]);

    const missing = await expectError(await post({ ...base, customer_id: '01900000-0000-7000-8000-000000000000' }), 404, 'customer_not_found');
    expect(missing.error.message).toMatch(/^customer_id: /);
    const closedId = await makeCustomer(h.deps.db);
    await h.deps.db.customer.update({ where: { id: closedId }, data: { status: 'Closed' } });
    await expectError(await post(contractBody(closedId)), 422, 'customer_closed');
    expect(await h.deps.db.contract.count({ where: { customerId: closedId } })).toBe(0);
  });
});

describe('subscriptions under a contract', () => {
  it('links a subscription (PLG), shows contract_id on it and in the 360 view, follows an amendment, and refuses a second link or another customer', async () => {
    const customerId = await makeCustomer(h.deps.db);
    const planId = await makePlan(h.deps.db);
    const subscription = await expectJson<{ id: string; contract_id: string | null }>(
      await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }),
      201,
    );
    const contract = await create(customerId);
    const link = await expectJson<{ contract_id: string; subscription_id: string; adoption_type: string; coterm: unknown }>(
      await h.request('POST', `/admin/v1/contracts/${contract.id}/subscriptions`, { body: { subscription_id: subscription.id, adoption_type: 'PLG' } }),
      201,
    );
    expect(link).toMatchObject({ contract_id: contract.id, subscription_id: subscription.id, adoption_type: 'PLG', coterm: null });
    expect((await expectJson<{ contract_id: string }>(await h.request('GET', `/v1/subscriptions/${subscription.id}`))).contract_id).toBe(contract.id);
    const view = await expectJson<{ subscriptions: { id: string; contract_id: string | null }[] }>(await h.request('GET', `/admin/v1/customers/${customerId}`));
    expect(view.subscriptions.find((s) => s.id === subscription.id)?.contract_id).toBe(contract.id);
    expect((await get(contract.id)).subscriptions?.map((s) => [s.subscription_id, s.adoption_type])).toEqual([[subscription.id, 'PLG']]);

    await expectError(
      await h.request('POST', `/admin/v1/contracts/${contract.id}/subscriptions`, { body: { subscription_id: subscription.id, adoption_type: 'Recontract' } }),
      409,
      'subscription_already_linked',
    );
    const other = await create(await makeCustomer(h.deps.db));
    await expectError(
      await h.request('POST', `/admin/v1/contracts/${other.id}/subscriptions`, { body: { subscription_id: subscription.id, adoption_type: 'PLG' } }),
      422,
      'contract_customer_mismatch',
    );
    await expectError(
      await h.request('POST', `/admin/v1/contracts/${contract.id}/subscriptions`, { body: { subscription_id: subscription.id, adoption_type: 'Upsell' } }),
      400,
      'validation_failed',
    );

    const amended = await expectJson<Contract>(await amend(contract.id), 201);
    expect((await expectJson<{ contract_id: string }>(await h.request('GET', `/v1/subscriptions/${subscription.id}`))).contract_id).toBe(amended.id);
    expect((await get(amended.id)).subscriptions?.map((s) => s.subscription_id)).toEqual([subscription.id]);
    const linked = await h.deps.db.auditLogEntry.findFirstOrThrow({ where: { entityId: contract.id, action: 'contract.subscription_linked' } });
    expect(linked.after).toMatchObject({ subscription_id: subscription.id, adoption_type: 'PLG' });
  });

  it('bills the coterm one-time fee when fewer than 30 days remain in the contract', async () => {
    const day = 86_400_000;
    const civil = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const now = Date.now();
    const [start, end] = [civil(now - 40 * day), civil(now + 20 * day)];
    const customerId = await makeCustomer(h.deps.db);
    const planId = await makePlan(h.deps.db);
    const subscription = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
    const contract = await create(customerId, {
      start_date: start,
      end_date: end,
      terms: [{ phase: 1, start_date: start, end_date: end, committed_amount_nanos: '0', description: 'only' }],
    });
    const link = await expectJson<{ coterm_fee_nanos: string; coterm: { kind: string; days_remaining: number; amount_nanos: string } }>(
      await h.request('POST', `/admin/v1/contracts/${contract.id}/subscriptions`, { body: { subscription_id: subscription.id, adoption_type: 'Coterm' } }),
      201,
    );
    expect(link.coterm.kind).toBe('OneTimeFee');
    expect(link.coterm.days_remaining).toBeLessThan(30);
    expect(link.coterm_fee_nanos).toBe(link.coterm.amount_nanos);
    expect(BigInt(link.coterm.amount_nanos)).toBeGreaterThan(0n);
    const drafts = await invoicesOf<{ status: string; line_items: { kind: string; amount_nanos: string }[] }>(h, `customer_id=${customerId}&status=Draft`);
    expect(drafts.flatMap((i) => i.line_items.filter((l) => l.kind === 'contract_fee').map((l) => l.amount_nanos))).toEqual([link.coterm.amount_nanos]);
  });

  it('escalates a period crossing the contract end on its days inside the contract only', async () => {
    // Contract over [Jan 1, Mar 11) with a monthly 10% escalation: two steps by March. The
    // subscription's period [Mar 1, Apr 1) has 10 days under the contract and 21 after it.
    const clockId = await makeTestClock(h.deps.db, '2026-03-01T00:00:00.000Z');
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    const planId = await makePlan(h.deps.db, { flatNanos: 31n * UNIT });
    const subscription = await expectJson<{ id: string }>(await h.request('POST', '/v1/subscriptions', { body: { customer_id: customerId, plan_id: planId, currency: 'USD' } }), 201);
    const contract = await create(customerId, {
      start_date: '2026-01-01',
      end_date: '2026-03-11',
      escalation: { kind: 'Percent', basis_points: 1000, interval_months: 1 },
      terms: [{ phase: 1, start_date: '2026-01-01', end_date: '2026-03-11', committed_amount_nanos: '0', description: 'only' }],
    });
    await expectJson(await h.request('POST', `/admin/v1/contracts/${contract.id}/subscriptions`, { body: { subscription_id: subscription.id, adoption_type: 'PLG' } }), 201);
    const invoice = await expectJson<{ line_items: { kind: string; amount_nanos: string }[] }>(await h.request('POST', `/admin/v1/subscriptions/${subscription.id}/bill`), 201);
    // 31.00 × 10/31 × 1.21 = 12.10 inside the contract, 31.00 × 21/31 = 21.00 at list price after it
    // (escalating the whole period would give 37.51).
    expect(invoice.line_items.filter((l) => l.kind === 'fee').map((l) => l.amount_nanos)).toEqual([(3310n * UNIT / 100n).toString()]);
  });
});
