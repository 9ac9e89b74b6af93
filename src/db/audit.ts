/** Audit log repository: entries are append-only (a database trigger refuses updates and deletes). */
import type { Prisma } from '../generated/prisma/client.js';
import type { DbClient } from './client.js';

export interface NewAuditEntry {
  id: string;
  action: string;
  actorType: string;
  actorId: string;
  entityType: string;
  entityId: string;
  customerId: string | null;
  /** Any JSON-shaped value; bigints are stored as decimal strings. */
  before?: unknown;
  after?: unknown;
  requestId: string | null;
}

const json = (value: unknown): Prisma.InputJsonValue | undefined =>
  value === undefined || value === null ? undefined : (JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as Prisma.InputJsonValue);

export async function insertAuditEntry(tx: DbClient, entry: NewAuditEntry): Promise<void> {
  await tx.auditLogEntry.create({ data: { ...entry, before: json(entry.before), after: json(entry.after) } });
}
