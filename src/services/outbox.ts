/**
 * Transactional outbox: an event is written in the same transaction as the state change it
 * announces; a relay delivers it later. Payload shape is SPEC §6: { id, type, timestamp, data }.
 */
import type { Prisma } from '../generated/prisma/client.js';
import { newId } from '../ids.js';

export type EventType =
  | 'invoice.finalized'
  | 'invoice.paid'
  | 'invoice.voided'
  | 'subscription.created'
  | 'subscription.cancelled'
  | 'subscription.past_due'
  | 'payment.failed'
  | 'payment.succeeded'
  | 'spend_alert.triggered'
  | 'credit_note.issued';

export async function enqueueEvent(
  tx: Prisma.TransactionClient,
  type: EventType,
  aggregateId: string,
  data: Record<string, string | number | boolean | null>,
  occurredAt: Date,
): Promise<string> {
  const id = newId();
  await tx.outboxEvent.create({
    data: {
      id,
      type,
      aggregateId,
      occurredAt,
      payload: { id, type, timestamp: occurredAt.toISOString(), data },
    },
  });
  return id;
}
