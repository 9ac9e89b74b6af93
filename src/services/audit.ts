/** Append-only audit trail. Written in the same transaction as the change it records. */
import type { Prisma } from '../generated/prisma/client.js';
import { newId } from '../ids.js';

export interface Actor {
  type: 'admin' | 'customer' | 'api_key' | 'system';
  id: string;
}

export const SYSTEM_ACTOR: Actor = { type: 'system', id: 'billing-engine' };

export interface AuditRecord {
  action: string;
  actor: Actor;
  entityType: string;
  entityId: string;
  customerId?: string | null;
  before?: unknown;
  after?: unknown;
  requestId?: string;
}

const json = (value: unknown): Prisma.InputJsonValue | undefined =>
  value === undefined || value === null ? undefined : (JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as Prisma.InputJsonValue);

export async function recordAudit(tx: Prisma.TransactionClient, record: AuditRecord): Promise<void> {
  await tx.auditLogEntry.create({
    data: {
      id: newId(),
      action: record.action,
      actorType: record.actor.type,
      actorId: record.actor.id,
      entityType: record.entityType,
      entityId: record.entityId,
      customerId: record.customerId ?? null,
      before: json(record.before),
      after: json(record.after),
      requestId: record.requestId ?? null,
    },
  });
}
