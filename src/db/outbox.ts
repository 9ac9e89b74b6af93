/** Outbox repository: events written in the transaction of the change they announce, delivered later. */
import type { Prisma } from '../generated/prisma/client.js';
import type { DbClient } from './client.js';
import { executeStatement, jsonParam, statement } from './sql.js';

export interface NewOutboxEvent {
  id: string;
  type: string;
  aggregateId: string;
  occurredAt: Date;
  payload: Prisma.InputJsonValue;
}

const INSERT_EVENT = statement('INSERT INTO outbox_events (id, type, aggregate_id, payload, occurred_at, created_at) VALUES ($1::uuid, $2, $3::uuid, $4::jsonb, $5, $6)');

export async function insertOutboxEvent(tx: DbClient, event: NewOutboxEvent): Promise<void> {
  // created_at as Prisma's @default(now()) sets it: the writer's clock.
  await executeStatement(tx, INSERT_EVENT, [event.id, event.type, event.aggregateId, jsonParam(event.payload), event.occurredAt, new Date()]);
}
