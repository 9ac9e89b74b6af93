/** Outbox repository: events written in the transaction of the change they announce, delivered later. */
import type { Prisma } from '../generated/prisma/client.js';
import type { DbClient } from './client.js';

export interface NewOutboxEvent {
  id: string;
  type: string;
  aggregateId: string;
  occurredAt: Date;
  payload: Prisma.InputJsonValue;
}

export async function insertOutboxEvent(tx: DbClient, event: NewOutboxEvent): Promise<void> {
  await tx.outboxEvent.create({ data: event });
}
