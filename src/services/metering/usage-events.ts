/** A customer's stored usage events, newest first: what arrived, as it was stored. */
import { findCustomer } from '../../db/customers.js';
import type { Db } from '../../db/client.js';
import { listUsageEventRows, usageEventSeq, type UsageEventRow } from '../../db/metering/usage-events.js';
import { notFound, validation } from '../../errors.js';
import type { StoredUsageEventView, UnbillableReason } from '../../schemas/metering.js';
import { toPage, type Page } from '../pagination.js';

export interface UsageEventListQuery {
  limit: number;
  /** An event id: the next page holds the events that arrived before it. */
  starting_after?: string | undefined;
  event_type?: string | undefined;
  subscription_id?: string | undefined;
  timestamp_gte?: string | undefined;
  timestamp_lt?: string | undefined;
  created_gte?: string | undefined;
  created_lt?: string | undefined;
}

const toView = (row: UsageEventRow): StoredUsageEventView => ({
  id: row.id,
  event_type: row.eventType,
  customer_id: row.customerId,
  subscription_id: row.subscriptionId,
  timestamp: row.occurredAt.toISOString(),
  properties: row.properties as Record<string, unknown>,
  source: row.source,
  late: row.late,
  unbillable_reason: row.unbillableReason as UnbillableReason | null,
  received_at: row.receivedAt.toISOString(),
});

const instant = (value: string | undefined): Date | undefined => (value === undefined ? undefined : new Date(value));

export async function listUsageEvents(db: Db, customerId: string, query: UsageEventListQuery): Promise<Page<StoredUsageEventView>> {
  if (!(await findCustomer(db, customerId))) throw notFound('customer', customerId);
  let beforeSeq: bigint | null = null;
  if (query.starting_after !== undefined) {
    beforeSeq = await usageEventSeq(db, customerId, query.starting_after);
    if (beforeSeq === null) throw validation('starting_after', `the customer has no usage event ${JSON.stringify(query.starting_after)}`);
  }
  const rows = await listUsageEventRows(
    db,
    {
      customerId,
      eventType: query.event_type,
      subscriptionId: query.subscription_id,
      occurredGte: instant(query.timestamp_gte),
      occurredLt: instant(query.timestamp_lt),
      receivedGte: instant(query.created_gte),
      receivedLt: instant(query.created_lt),
    },
    { limit: query.limit, beforeSeq },
  );
  return toPage(rows, query.limit, toView);
}
