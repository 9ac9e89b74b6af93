/**
 * Our own SQL beside Prisma (src/db/sql.ts): rows exactly as Prisma reads them, statements on an
 * interactive transaction's own connection (seeing its uncommitted work, holding its locks, undone
 * with it), never on a connection the transaction gave back.
 */
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createDb, type DbClient } from '../../src/db/client.js';
import { getPlanPricing, allPlanSkuPrices } from '../../src/db/catalog.js';
import { findCustomer, toCustomerRecord } from '../../src/db/customers.js';
import { findDraftOfGroup, findInvoice, insertDraft } from '../../src/db/invoices.js';
import { insertOutboxEvent } from '../../src/db/outbox.js';
import { insertAuditEntry } from '../../src/db/audit.js';
import { findSubscription, lockSubscription } from '../../src/db/subscriptions.js';
import { newId } from '../../src/ids.js';
import { makeCustomer, makePlan } from '../support/fixtures.js';

const { db, pool } = createDb(inject('databaseUrl'), 4);
afterAll(async () => {
  await db.$disconnect();
  await pool.end();
});

async function makeSubscription(client: DbClient, customerId: string, planId: string, full: boolean): Promise<string> {
  const id = newId();
  const at = new Date('2026-03-01T00:00:00.000Z');
  await client.subscription.create({
    data: {
      id,
      customerId,
      planId,
      currency: 'USD',
      status: full ? 'PastDue' : 'Active',
      periodStart: at,
      periodEnd: new Date('2026-04-01T00:00:00.000Z'),
      billingAnchor: at,
      ...(full
        ? {
            trialDays: 14,
            trialEnd: new Date('2026-03-15T00:00:00.123Z'),
            chargedThroughDate: at,
            closedThrough: at,
            cancelledAt: new Date('2026-03-20T10:11:12.345Z'),
            progressiveThresholdNanos: '123456789012345678901234567890',
            billingError: { code: 'x', nested: { n: 1, s: 'é' } },
            metadata: { team: 'core' },
          }
        : {}),
    },
  });
  return id;
}

describe('statements of our own beside Prisma', () => {
  it('reads a subscription exactly as Prisma does, every field set or left empty', async () => {
    const customerId = await makeCustomer(db);
    const planId = await makePlan(db);
    for (const full of [true, false]) {
      const id = await makeSubscription(db, customerId, planId, full);
      const ours = await findSubscription(db, id);
      const prismas = await db.subscription.findUnique({ where: { id } });
      expect(ours).toEqual(prismas);
      expect(ours!.progressiveThresholdNanos?.toFixed() ?? null).toBe(full ? '123456789012345678901234567890' : null);
    }
    expect(await findSubscription(db, newId())).toBeNull();
  });

  it('reads customers, plan pricing and invoices as Prisma does, and writes Drafts, lines, audit entries and events as it did', async () => {
    const customerId = await makeCustomer(db);
    await db.customer.update({ where: { id: customerId }, data: { legalName: 'Legal Ltd', taxId: 'DE123', billingAddress: { line1: 'x', country: 'DE' }, metadata: { k: 'v' } } });
    expect(await findCustomer(db, customerId)).toEqual(toCustomerRecord((await db.customer.findUnique({ where: { id: customerId } }))!));
    expect(await findCustomer(db, 'not-a-uuid')).toBeNull();

    const planId = await makePlan(db);
    const pricing = await getPlanPricing(db, planId, 1);
    expect(pricing.prices).toEqual(await allPlanSkuPrices(db, planId));
    expect(pricing.prices.length).toBeGreaterThan(0);

    const subscriptionId = await makeSubscription(db, customerId, planId, false);
    const group = { customerId, currency: 'USD', periodStart: new Date('2026-03-01T00:00:00Z'), periodEnd: new Date('2026-04-01T00:00:00Z') };
    const id = newId();
    const detail = { note: 'quote " and \\ backslash', n: [1, 2] };
    const draft = await db.$transaction((tx) =>
      insertDraft(tx, { id, ...group, subscriptionId, billingReason: 'subscription_cycle', testClockId: null }, [
        { kind: 'usage', description: 'API calls', amountNanos: 123456789012345678901234567n, quantity: '12.5', unitAmountNanos: 10n, subscriptionId, detail, dimensions: { region: 'eu', model: null } },
        { kind: 'credit', description: 'Credit', amountNanos: -5n },
        { kind: 'tax', description: 'VAT', amountNanos: 7n },
      ]),
    );
    const stored = await db.invoice.findUnique({ where: { id }, include: { lines: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } } });
    const { lines, ...row } = stored!;
    expect(draft).toEqual(row);
    expect(await findInvoice(db, id)).toEqual(row);
    expect(await findDraftOfGroup(db, group)).toEqual(row);
    expect(row.status).toBe('Draft');
    expect(lines.map((l) => [l.kind, l.description, l.amountNanos.toFixed(0), l.quantity, l.unitAmountNanos?.toFixed(0) ?? null])).toEqual([
      ['usage', 'API calls', '123456789012345678901234567', '12.5', '10'],
      ['credit', 'Credit', '-5', '1', null],
      ['tax', 'VAT', '7', '1', null],
    ]);
    expect(lines[0]!.detail).toEqual(detail);
    expect(lines[0]!.dimensions).toEqual({ region: 'eu', model: null });
    expect(lines[1]!.detail).toBeNull();
    expect(row.totalNanos.toFixed(0)).toBe((123456789012345678901234567n + 7n - 5n).toString());

    const entry = { id: newId(), action: 'test.done', actorType: 'system', actorId: 'x', entityType: 'invoice', entityId: id, customerId, before: null, after: { big: 12n, s: 'é' }, requestId: null };
    await insertAuditEntry(db, entry);
    expect(await db.auditLogEntry.findUnique({ where: { id: entry.id } })).toMatchObject({ action: 'test.done', before: null, after: { big: '12', s: 'é' }, customerId });
    const event = { id: newId(), type: 'invoice.finalized', aggregateId: id, occurredAt: new Date('2026-04-01T00:00:00.000Z'), payload: { id: 'e', data: { a: 1 } } };
    await db.$transaction((tx) => insertOutboxEvent(tx, event));
    expect(await db.outboxEvent.findUnique({ where: { id: event.id } })).toMatchObject({ type: 'invoice.finalized', aggregateId: id, occurredAt: event.occurredAt, payload: event.payload, dispatchedAt: null });
  });

  it("runs on the transaction's own connection: its uncommitted rows, its locks, undone with it", async () => {
    const customerId = await makeCustomer(db);
    const planId = await makePlan(db);
    const existing = await makeSubscription(db, customerId, planId, false);
    let created = '';
    await expect(
      db.$transaction(async (tx) => {
        created = await makeSubscription(tx, customerId, planId, true);
        expect((await findSubscription(tx, created))?.id).toBe(created);
        expect(await findSubscription(db, created)).toBeNull();
        expect(await lockSubscription(tx, existing)).toBe(true);
        // Held by this transaction: another connection cannot take it.
        await expect(pool.query('SELECT id FROM subscriptions WHERE id = $1::uuid FOR UPDATE NOWAIT', [existing])).rejects.toMatchObject({ code: '55P03' });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await findSubscription(db, created)).toBeNull();
    const { rows } = await pool.query('SELECT id FROM subscriptions WHERE id = $1::uuid FOR UPDATE NOWAIT', [existing]);
    expect(rows).toHaveLength(1);
  });

  it('keeps concurrent transactions apart and refuses a transaction that has ended', async () => {
    const customerId = await makeCustomer(db);
    const planId = await makePlan(db);
    let ended: DbClient | undefined;
    const seen = await Promise.all(
      Array.from({ length: 6 }, () =>
        db.$transaction(async (tx) => {
          const id = await makeSubscription(tx, customerId, planId, false);
          ended = tx;
          await lockSubscription(tx, id);
          return { id, read: (await findSubscription(tx, id))?.id };
        }),
      ),
    );
    for (const { id, read } of seen) expect(read).toBe(id);
    await expect(findSubscription(ended!, seen[0]!.id)).rejects.toThrow();
  });
});
