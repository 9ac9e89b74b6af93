/**
 * Test clocks over HTTP: deleting one (only a clock no customer lives on, audited; a clock with
 * customers, closed ones too, is a 409 that changes nothing), and reports of a test-clock customer
 * dated in its clock's time.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ONE_UNIT as UNIT } from '../../src/core/index.js';
import { insertLines, recomputeTotals } from '../../src/db/invoices.js';
import { newId } from '../../src/ids.js';
import { finalizeInvoice } from '../../src/services/invoicing/invoices.js';
import { applyTax, zeroTax } from '../../src/services/billing/tax.js';
import { makeCustomer, makeTestClock } from '../support/fixtures.js';
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

describe('AR aging of a test-clock customer', () => {
  interface Aging {
    as_of: string;
    rows: { customer_id: string; current_nanos: string; days_1_30_nanos: string; over_90_nanos: string; total_nanos: string }[];
  }
  const aging = async (query: string) => expectJson<Aging>(await h.request('GET', `/admin/v1/reports/ar-aging?${query}`));

  /** An Open invoice of `amount` finalized at `at` (net 30). */
  const openInvoice = async (customerId: string, clockId: string | null, at: string, amount: bigint, currency = 'USD') => {
    const invoiceId = newId();
    await h.deps.db.$transaction(async (tx) => {
      await tx.invoice.create({ data: { id: invoiceId, customerId, currency, billingReason: 'manual', testClockId: clockId, createdAt: new Date(at) } });
      await insertLines(tx, invoiceId, [{ kind: 'fee' as const, description: 'Fee', amountNanos: amount }]);
      await recomputeTotals(tx, invoiceId);
    });
    await finalizeInvoice(h.deps.db, invoiceId, { actor: { type: 'admin', id: 'test-admin' }, at: new Date(at), applyTax: (tx, invoice) => applyTax(tx, invoice, zeroTax) });
  };

  it("is as of the clock's time by default, so its open invoice is current, not over 90 days", async () => {
    const frozen = '2025-01-01T00:00:00.000Z';
    const clockId = await makeTestClock(h.deps.db, frozen);
    const customerId = await makeCustomer(h.deps.db, { testClockId: clockId });
    await openInvoice(customerId, clockId, frozen, 25n * UNIT);

    const byDefault = await aging(`customer_id=${customerId}`);
    expect(byDefault.as_of).toBe(frozen);
    expect(byDefault.rows).toEqual([expect.objectContaining({ customer_id: customerId, current_nanos: (25n * UNIT).toString(), over_90_nanos: '0' })]);

    // An explicit as_of still wins: in wall time (this test runs well over 90 days after the clock's time) it is over 90.
    const wall = new Date(Date.now()).toISOString();
    const late = await aging(`customer_id=${customerId}&as_of=${encodeURIComponent(wall)}`);
    expect(late.as_of).toBe(wall);
    expect(late.rows).toEqual([expect.objectContaining({ current_nanos: '0', over_90_nanos: (25n * UNIT).toString() })]);

    // Advancing the clock 45 days ages it to 1-30 days past due (net 30).
    await h.deps.db.testClock.update({ where: { id: clockId }, data: { frozenTime: new Date('2025-02-15T00:00:00.000Z') } });
    const advanced = await aging(`customer_id=${customerId}`);
    expect(advanced.as_of).toBe('2025-02-15T00:00:00.000Z');
    expect(advanced.rows).toEqual([expect.objectContaining({ current_nanos: '0', days_1_30_nanos: (25n * UNIT).toString() })]);
  });

  it("ages each customer at its own time in the every-customer report, tied to the ledger at those times", async () => {
    type Row = Aging['rows'][number] & { as_of: string; days_31_60_nanos: string };
    type Report = { as_of: string; rows: Row[]; totals: { currency: string; total_nanos: string; ledger_accounts_receivable_nanos: string }[] };
    // A clock in the past and one in the future (its invoice would not even be open yet in wall time), beside a wall-clock customer;
    // in a currency no other test uses, so the currency's totals are these three customers'.
    const pastClock = await makeTestClock(h.deps.db, '2025-03-01T00:00:00.000Z');
    const past = await makeCustomer(h.deps.db, { testClockId: pastClock });
    await openInvoice(past, pastClock, '2025-03-01T00:00:00.000Z', 11n * UNIT, 'NOK');
    const futureClock = await makeTestClock(h.deps.db, '2031-06-01T00:00:00.000Z');
    const future = await makeCustomer(h.deps.db, { testClockId: futureClock });
    await openInvoice(future, futureClock, '2031-06-01T00:00:00.000Z', 13n * UNIT, 'NOK');
    const wall = await makeCustomer(h.deps.db);
    const fiftyDaysAgo = new Date(Date.now() - 50 * 86_400_000).toISOString();
    await openInvoice(wall, null, fiftyDaysAgo, 17n * UNIT, 'NOK');

    const before = Date.now();
    const report = await expectJson<Report>(await h.request('GET', '/admin/v1/reports/ar-aging?currency=NOK'));
    expect(Date.parse(report.as_of)).toBeGreaterThanOrEqual(before - 1000);
    const rowOf = (customerId: string) => report.rows.find((r) => r.customer_id === customerId);
    expect(rowOf(past)).toMatchObject({ as_of: '2025-03-01T00:00:00.000Z', current_nanos: (11n * UNIT).toString(), over_90_nanos: '0' });
    expect(rowOf(future)).toMatchObject({ as_of: '2031-06-01T00:00:00.000Z', current_nanos: (13n * UNIT).toString(), total_nanos: (13n * UNIT).toString() });
    expect(rowOf(wall)).toMatchObject({ as_of: report.as_of, days_1_30_nanos: (17n * UNIT).toString() });
    // Totals are the rows' sums and equal the ledger's receivable read at each customer's time.
    expect(report.rows).toHaveLength(3);
    expect(report.totals).toEqual([expect.objectContaining({ currency: 'NOK', total_nanos: (41n * UNIT).toString(), ledger_accounts_receivable_nanos: (41n * UNIT).toString() })]);
    // The CSV names the time each row was aged at, as the JSON does.
    const csv = await (await h.request('GET', '/admin/v1/reports/ar-aging?currency=NOK&format=csv')).text();
    const csvRowOf = (customerId: string) => csv.split('\r\n').find((line) => line.startsWith(`${customerId},`))?.split(',');
    expect(csvRowOf(past)?.at(-1)).toBe('2025-03-01T00:00:00.000Z');
    expect(csvRowOf(future)?.at(-1)).toBe('2031-06-01T00:00:00.000Z');

    // Advancing a clock ages its customer's invoices in this report too (15 days past due, net 30).
    await h.deps.db.testClock.update({ where: { id: pastClock }, data: { frozenTime: new Date('2025-04-15T00:00:00.000Z') } });
    const advanced = await expectJson<Report>(await h.request('GET', '/admin/v1/reports/ar-aging?currency=NOK'));
    expect(advanced.rows.find((r) => r.customer_id === past)).toMatchObject({ as_of: '2025-04-15T00:00:00.000Z', days_1_30_nanos: (11n * UNIT).toString() });

    // An explicit as_of still ages every customer at that one instant.
    const at = new Date().toISOString();
    const fixed = await expectJson<Report>(await h.request('GET', `/admin/v1/reports/ar-aging?currency=NOK&as_of=${encodeURIComponent(at)}`));
    expect(fixed.rows.find((r) => r.customer_id === past)).toMatchObject({ as_of: at, over_90_nanos: (11n * UNIT).toString() });
    expect(fixed.rows.find((r) => r.customer_id === future)).toBeUndefined();
    expect(fixed.totals).toEqual([expect.objectContaining({ total_nanos: (28n * UNIT).toString(), ledger_accounts_receivable_nanos: (28n * UNIT).toString() })]);
  });
});
