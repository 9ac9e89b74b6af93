/** Audit log repository: entries are append-only (a database trigger refuses updates and deletes). */
import type { AuditLogEntry } from '../generated/prisma/client.js';
import type { DbClient } from './client.js';
import { executeStatement, jsonParam, statement } from './sql.js';

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

const INSERT_ENTRY = statement(
  `INSERT INTO audit_log (id, action, actor_type, actor_id, entity_type, entity_id, customer_id, before, after, request_id, created_at)
   VALUES ($1::uuid, $2, $3, $4, $5, $6, $7::uuid, $8::jsonb, $9::jsonb, $10, $11)`,
);

export async function insertAuditEntry(tx: DbClient, entry: NewAuditEntry): Promise<void> {
  // created_at as Prisma's @default(now()) sets it: the writer's clock.
  const values = [entry.id, entry.action, entry.actorType, entry.actorId, entry.entityType, entry.entityId, entry.customerId, jsonParam(entry.before), jsonParam(entry.after), entry.requestId, new Date()];
  await executeStatement(tx, INSERT_ENTRY, values);
}

export interface AuditFilter {
  limit: number;
  /** Newest first: the page after this entry holds older entries. */
  starting_after?: string | undefined;
  entity_type?: string | undefined;
  entity_id?: string | undefined;
  customer_id?: string | undefined;
  actor_type?: string | undefined;
  actor_id?: string | undefined;
  action?: string | undefined;
  request_id?: string | undefined;
  created_gte?: Date | undefined;
  created_lt?: Date | undefined;
}

export interface AuditEntryRecord {
  id: string;
  action: string;
  actorType: string;
  actorId: string;
  entityType: string;
  entityId: string;
  customerId: string | null;
  requestId: string | null;
  before: unknown;
  after: unknown;
  createdAt: Date;
}

const toRecord = (row: AuditLogEntry): AuditEntryRecord => ({ ...row, before: row.before ?? null, after: row.after ?? null });

/** Entries matching every given filter, newest first (UUIDv7 ids order by creation), limit + 1 rows. */
export async function listAuditEntries(db: DbClient, filter: AuditFilter): Promise<AuditEntryRecord[]> {
  const rows = await db.auditLogEntry.findMany({
    where: {
      ...(filter.starting_after ? { id: { lt: filter.starting_after } } : {}),
      ...(filter.entity_type ? { entityType: filter.entity_type } : {}),
      ...(filter.entity_id ? { entityId: filter.entity_id } : {}),
      ...(filter.customer_id ? { customerId: filter.customer_id } : {}),
      ...(filter.actor_type ? { actorType: filter.actor_type } : {}),
      ...(filter.actor_id ? { actorId: filter.actor_id } : {}),
      ...(filter.action ? { action: filter.action } : {}),
      ...(filter.request_id ? { requestId: filter.request_id } : {}),
      ...(filter.created_gte || filter.created_lt ? { createdAt: { gte: filter.created_gte, lt: filter.created_lt } } : {}),
    },
    orderBy: { id: 'desc' },
    take: filter.limit + 1,
  });
  return rows.map(toRecord);
}

export async function findAuditEntry(db: DbClient, id: string): Promise<AuditEntryRecord | null> {
  const row = await db.auditLogEntry.findUnique({ where: { id } });
  return row ? toRecord(row) : null;
}
