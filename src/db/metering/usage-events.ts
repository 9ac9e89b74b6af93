/**
 * Reading stored usage events back (the admin list of a customer's raw events, e.g. to find an
 * event_type sent misspelled). Newest first in arrival order (`seq`); the cursor is an event id.
 */
import type { UsageEvent } from '../../generated/prisma/client.js';
import type { DbClient } from '../client.js';
import { createdWithin } from '../pages.js';

export type UsageEventRow = UsageEvent;

export interface UsageEventFilter {
  customerId: string;
  eventType?: string | undefined;
  subscriptionId?: string | undefined;
  /** Event timestamp range [gte, lt). */
  occurredGte?: Date | undefined;
  occurredLt?: Date | undefined;
  /** Arrival range [gte, lt). */
  receivedGte?: Date | undefined;
  receivedLt?: Date | undefined;
}

/** The arrival position of one of the customer's events, or null when the customer has no event with that id. */
export async function usageEventSeq(tx: DbClient, customerId: string, id: string): Promise<bigint | null> {
  const row = await tx.usageEvent.findUnique({ where: { id }, select: { seq: true, customerId: true } });
  return row !== null && row.customerId === customerId ? row.seq : null;
}

/** Up to `limit + 1` of the customer's events arrived before `beforeSeq` (all when null), newest first. */
export function listUsageEventRows(tx: DbClient, filter: UsageEventFilter, page: { limit: number; beforeSeq: bigint | null }): Promise<UsageEventRow[]> {
  const received = createdWithin({ created_gte: filter.receivedGte, created_lt: filter.receivedLt }).createdAt;
  return tx.usageEvent.findMany({
    where: {
      customerId: filter.customerId,
      ...(filter.eventType !== undefined ? { eventType: filter.eventType } : {}),
      ...(filter.subscriptionId !== undefined ? { subscriptionId: filter.subscriptionId } : {}),
      ...(filter.occurredGte || filter.occurredLt
        ? { occurredAt: { ...(filter.occurredGte ? { gte: filter.occurredGte } : {}), ...(filter.occurredLt ? { lt: filter.occurredLt } : {}) } }
        : {}),
      ...(received ? { receivedAt: received } : {}),
      ...(page.beforeSeq !== null ? { seq: { lt: page.beforeSeq } } : {}),
    },
    orderBy: { seq: 'desc' },
    take: page.limit + 1,
  });
}
