/**
 * Deleting a test clock over HTTP: only a clock no customer lives on, audited; a clock with
 * customers (closed ones too) is a 409 that changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeCustomer } from '../support/fixtures.js';
import { expectJson, expectPage, useHarness } from '../support/harness.js';

const h = useHarness();

interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

const createClock = async () =>
  expectJson<{ id: string; frozen_time: string }>(await h.request('POST', '/admin/v1/test-clocks', { body: { name: 'to delete', frozen_time: '2026-01-01T00:00:00Z' } }), 201);

describe('DELETE /admin/v1/test-clocks/:id', () => {
  it('deletes a clock without customers and audits it', async () => {
    const clock = await createClock();
    const res = await h.request('DELETE', `/admin/v1/test-clocks/${clock.id}`);
    expect(res.status).toBe(204);
    expect(await h.deps.db.testClock.findUnique({ where: { id: clock.id } })).toBeNull();
    expect((await expectJson<ErrorBody>(await h.request('GET', `/admin/v1/test-clocks/${clock.id}`), 404)).error.code).toBe('test_clock_not_found');
    // Deleting it again (or an unknown clock) is a 404.
    expect((await expectJson<ErrorBody>(await h.request('DELETE', `/admin/v1/test-clocks/${clock.id}`), 404)).error.code).toBe('test_clock_not_found');
    expect((await expectJson<ErrorBody>(await h.request('DELETE', `/admin/v1/test-clocks/${randomUUID()}`), 404)).error.code).toBe('test_clock_not_found');

    const audit = await expectPage<{ action: string; actor_id: string; before: { id: string; frozen_time: string } | null }>(
      await h.request('GET', `/admin/v1/audit-log?entity_id=${clock.id}`),
    );
    expect(audit.data.map((entry) => entry.action)).toEqual(['test_clock.deleted', 'test_clock.created']);
    expect(audit.data[0]).toMatchObject({ actor_id: 'test-admin', before: { id: clock.id, frozen_time: clock.frozen_time } });
  });

  it('refuses a clock with customers, closed ones included, and changes nothing', async () => {
    const clock = await createClock();
    await makeCustomer(h.deps.db, { testClockId: clock.id });
    const closed = await makeCustomer(h.deps.db, { testClockId: clock.id });
    await h.deps.db.customer.update({ where: { id: closed }, data: { status: 'Closed' } });

    const refused = await expectJson<ErrorBody>(await h.request('DELETE', `/admin/v1/test-clocks/${clock.id}`), 409);
    expect(refused.error).toMatchObject({ code: 'test_clock_has_customers', details: { customers: 2 } });
    expect(await h.deps.db.testClock.findUnique({ where: { id: clock.id } })).not.toBeNull();
    expect(await h.deps.db.auditLogEntry.count({ where: { entityId: clock.id, action: 'test_clock.deleted' } })).toBe(0);
  });

  it('refuses an advancing clock', async () => {
    const clock = await createClock();
    await h.deps.db.testClock.update({ where: { id: clock.id }, data: { status: 'advancing' } });
    expect((await expectJson<ErrorBody>(await h.request('DELETE', `/admin/v1/test-clocks/${clock.id}`), 409)).error.code).toBe('test_clock_advancing');
    expect(await h.deps.db.testClock.findUnique({ where: { id: clock.id } })).not.toBeNull();
  });
});
