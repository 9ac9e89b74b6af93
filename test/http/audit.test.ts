/**
 * The audit trail through its read API: entries written by real mutations, their actor, request id
 * and before/after state, every filter, newest-first pagination, and the append-only guarantee.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntryView } from '../../src/schemas/audit.js';
import { createHarness, expectJson, expectPage, type Harness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

interface Customer {
  id: string;
  display_name: string;
}

async function createCustomer(name: string, as: 'admin' | 'api_key' = 'admin'): Promise<{ customer: Customer; requestId: string }> {
  const res = await h.request('POST', '/admin/v1/customers', { as, body: { display_name: name, email: 'ap@audit.test', currency: 'USD', account_type: 'Organization' } });
  const customer = await expectJson<Customer>(res, 201);
  return { customer, requestId: res.headers.get('x-request-id')! };
}

const audit = async (query: string) => expectPage<AuditEntryView>(await h.request('GET', `/admin/v1/audit-log?${query}`));

describe('GET /admin/v1/audit-log', () => {
  it('shows a mutation with its actor, request id and before/after state', async () => {
    const { customer, requestId } = await createCustomer('Audit One');
    const renamed = await h.request('PATCH', `/admin/v1/customers/${customer.id}`, { body: { display_name: 'Audit One Renamed' } });
    const renameRequestId = renamed.headers.get('x-request-id');
    await expectJson(renamed, 200);

    const page = await audit(`entity_id=${customer.id}`);
    expect(page.data.map((e) => e.action)).toEqual(['customer.updated', 'customer.created']);
    const [update, create] = page.data;
    expect(create).toMatchObject({ actor_type: 'admin', actor_id: 'test-admin', entity_type: 'customer', customer_id: customer.id, request_id: requestId, before: null });
    expect((create!.after as Customer).display_name).toBe('Audit One');
    expect(update!.request_id).toBe(renameRequestId);
    expect((update!.before as Customer).display_name).toBe('Audit One');
    expect((update!.after as Customer).display_name).toBe('Audit One Renamed');

    expect(await expectJson<AuditEntryView>(await h.request('GET', `/admin/v1/audit-log/${create!.id}`))).toEqual(create);
  });

  it('filters by actor, action, customer and time range, and pages newest first', async () => {
    const since = new Date(Date.now() - 1_000).toISOString();
    const made: string[] = [];
    for (let i = 0; i < 3; i += 1) made.push((await createCustomer(`Audit Key ${i}`, 'api_key')).customer.id);

    const byKey = await audit(`actor_type=api_key&action=customer.created&created_gte=${encodeURIComponent(since)}&limit=2`);
    expect(byKey.has_more).toBe(true);
    const next = await audit(`actor_type=api_key&action=customer.created&created_gte=${encodeURIComponent(since)}&limit=2&starting_after=${byKey.next_cursor}`);
    const ids = [...byKey.data, ...next.data].map((e) => e.entity_id);
    // Newest first: the last customer made comes first.
    expect(ids.slice(0, 3)).toEqual([...made].reverse());
    expect([...byKey.data, ...next.data].every((e) => e.actor_type === 'api_key' && e.action === 'customer.created')).toBe(true);

    const one = await audit(`customer_id=${made[1]}`);
    expect(one.data.map((e) => e.entity_id)).toEqual([made[1]]);
    const none = await audit(`customer_id=${made[1]}&created_lt=${encodeURIComponent(since)}`);
    expect(none.data).toEqual([]);
  });

  it('refuses unknown filters and malformed values with a 400 naming them', async () => {
    for (const [query, field] of [
      ['actor=admin', 'actor'],
      ['actor_type=robot', 'actor_type'],
      ['created_gte=yesterday', 'created_gte'],
      ['entity_id=42', 'entity_id'],
    ] as const) {
      const body = await expectJson<{ error: { code: string; message: string } }>(await h.request('GET', `/admin/v1/audit-log?${query}`), 400);
      expect(body.error.message).toContain(field);
    }
    expect((await h.request('GET', '/admin/v1/audit-log/01900000-0000-7000-8000-000000000000')).status).toBe(404);
  });

  it('is for admins only', async () => {
    const { customer } = await createCustomer('Audit Private');
    expect((await h.request('GET', '/admin/v1/audit-log', { as: { customer: customer.id } })).status).toBe(403);
  });

  it('is append-only: the database refuses to change or remove an entry', async () => {
    const { customer } = await createCustomer('Audit Immutable');
    await expect(h.deps.pool.query(`UPDATE audit_log SET action = 'customer.forged' WHERE entity_id = $1`, [customer.id])).rejects.toThrow();
    await expect(h.deps.pool.query(`DELETE FROM audit_log WHERE entity_id = $1`, [customer.id])).rejects.toThrow();
    expect((await audit(`entity_id=${customer.id}`)).data.map((e) => e.action)).toEqual(['customer.created']);
  });
});
