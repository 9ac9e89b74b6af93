/**
 * The raw usage event retention in SQL (its migration, 20261219000000_usage_event_retention): the
 * prune of one customer's events (usage_events_prune, which alone may delete from usage_events and
 * judges every event itself), and what it dropped as the readers need it (usage_event_retention
 * with usage_final_through: before which instant a subscription's raw events of a type may be gone).
 */
import type pg from 'pg';
import { Prisma } from '../../generated/prisma/client.js';
import type { SqlReader } from '../client.js';

/** Customers with stored events, in id order after `after` (all when null), at most `limit`. */
export async function customersWithEvents(pool: pg.Pool, after: string | null, limit: number): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>({
    name: 'usage_retention_customers',
    // The EXISTS is one probe of the (customer_id, seq) index per customer.
    text: `SELECT c.id::text AS id FROM customers c
           WHERE c.id > $1::uuid AND EXISTS (SELECT 1 FROM usage_events e WHERE e.customer_id = c.id)
           ORDER BY c.id LIMIT $2`,
    // Ids are UUIDv7, never the nil UUID: "after it" is every customer.
    values: [after ?? '00000000-0000-0000-0000-000000000000', limit],
  });
  return rows.map((r) => r.id);
}

/**
 * One batch of the customer's prune (usage_events_prune): up to `limit` events deleted, one
 * statement and transaction. Fewer than `limit` deleted: the customer has nothing more to drop now.
 */
export async function pruneCustomerEvents(pool: pg.Pool | pg.ClientBase, customerId: string, input: { retentionDays: number; lateUsageMaxDays: number; limit: number }): Promise<number> {
  const { rows } = await pool.query<{ deleted: string }>({
    name: 'usage_retention_prune',
    text: 'SELECT usage_events_prune($1::uuid, $2::int, $3::int, $4::int)::text AS deleted',
    values: [customerId, input.retentionDays, input.lateUsageMaxDays, input.limit],
  });
  return Number(rows[0]!.deleted);
}

/** Where a subscription's raw events of one type may have been dropped: all of them lie before `before`. */
export interface RetentionMark {
  eventType: string;
  before: Date;
  /** The rollup series (cursor keys) that hold every dropped event of the type. */
  rolledUpBy: string[];
}

/**
 * The subscription's marks, one per event type of its customer that the retention dropped events
 * of: before the earlier of the latest cutoff applied and the end of the subscription's final
 * periods (usage_final_through, judged now: what was final stays final). Read it after the usage
 * reads it vouches for: the retention records a mark in the transaction that deletes, so a read
 * that ran before the mark was visible found every event.
 */
export async function retentionMarksOf(read: SqlReader, subscriptionId: string): Promise<RetentionMark[]> {
  const rows = await read<{ event_type: string; before: Date; rolled_up_by: string[] }>(Prisma.sql`
    SELECT r.event_type, LEAST(r.pruned_before, usage_final_through(s.id, r.pruned_before)) AS before, r.rolled_up_by
    FROM subscriptions s JOIN usage_event_retention r ON r.customer_id = s.customer_id
    WHERE s.id = ${subscriptionId}::uuid`);
  return rows.map((r) => ({ eventType: r.event_type, before: new Date(r.before), rolledUpBy: r.rolled_up_by }));
}

/**
 * Per subscription, before which instant raw events (of any type) counting towards it may have
 * been dropped; subscriptions without any are absent. A closed period starting before it cannot be
 * rated again from its events.
 */
export async function prunedBeforeOf(read: SqlReader, subscriptionIds: readonly string[]): Promise<Map<string, Date>> {
  if (subscriptionIds.length === 0) return new Map();
  const rows = await read<{ id: string; before: Date }>(Prisma.sql`SELECT p.id::text AS id, p.before FROM (${prunedBeforeSql(subscriptionIds)}) p`);
  return new Map(rows.map((r) => [r.id, new Date(r.before)]));
}

/** prunedBeforeOf as a subquery (columns `id`, `before`), for statements that keep only the periods still whole. */
export const prunedBeforeSql = (subscriptionIds: readonly string[]): Prisma.Sql => Prisma.sql`
  SELECT s.id, max(LEAST(r.pruned_before, usage_final_through(s.id, r.pruned_before))) AS before
  FROM subscriptions s JOIN usage_event_retention r ON r.customer_id = s.customer_id
  WHERE s.id = ANY(${[...subscriptionIds]}::uuid[])
  GROUP BY s.id`;

/** Whether the retention dropped events of this type for any customer (a WEIGHTED_SUM meter of it would lack their levels). */
export async function eventTypePruned(read: SqlReader, eventType: string): Promise<boolean> {
  const rows = await read<{ one: number }>(Prisma.sql`SELECT 1 AS one FROM usage_event_retention WHERE event_type = ${eventType}::text LIMIT 1`);
  return rows.length > 0;
}
