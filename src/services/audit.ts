/** Append-only audit trail. Written in the same transaction as the change it records. */
import { insertAuditEntry } from '../db/audit.js';
import type { DbClient } from '../db/client.js';
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

export async function recordAudit(tx: DbClient, record: AuditRecord): Promise<void> {
  await insertAuditEntry(tx, {
    id: newId(),
    action: record.action,
    actorType: record.actor.type,
    actorId: record.actor.id,
    entityType: record.entityType,
    entityId: record.entityId,
    customerId: record.customerId ?? null,
    before: record.before,
    after: record.after,
    requestId: record.requestId ?? null,
  });
}
