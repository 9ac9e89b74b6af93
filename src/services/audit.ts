/** Append-only audit trail. Written in the same transaction as the change it records. */
import { AsyncLocalStorage } from 'node:async_hooks';
import { findAuditEntry, insertAuditEntry, listAuditEntries, type AuditEntryRecord, type AuditFilter } from '../db/audit.js';
import type { DbClient } from '../db/client.js';
import { notFound } from '../errors.js';
import { newId } from '../ids.js';
import type { ACTOR_TYPES, AuditEntryView } from '../schemas/audit.js';
import { toPage, type Page } from './pagination.js';

export interface Actor {
  type: (typeof ACTOR_TYPES)[number];
  id: string;
}

/** Who asked, for the audit trail. */
export interface RequestContext {
  actor: Actor;
  requestId: string;
}

/** The engine itself, outside any workflow: relays, reconcilers, startup. */
export const SYSTEM_ACTOR: Actor = { type: 'system', id: 'billing-engine' };
/** The payment processor, as the actor of what its answers and notifications change. */
export const PROCESSOR_ACTOR: Actor = { type: 'system', id: 'payment-processor' };

/** Whose behalf the engine acts on in the current async context (a workflow's activity). */
const acting = new AsyncLocalStorage<Actor>();

/**
 * Runs `work` on behalf of `actor`: what the engine changes on its own meanwhile (period closes,
 * finalizations, dunning steps, alert triggers, contract moves…) is recorded as that actor's. The
 * activities run every call this way with the `workflow` actor of the workflow that scheduled it.
 */
export function actingAs<T>(actor: Actor, work: () => Promise<T>): Promise<T> {
  return acting.run(actor, work);
}

/** The actor of a change the engine makes on its own: the workflow running it, else the system. */
export function engineActor(): Actor {
  return acting.getStore() ?? SYSTEM_ACTOR;
}

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

const toView = (entry: AuditEntryRecord): AuditEntryView => ({
  id: entry.id,
  action: entry.action,
  actor_type: entry.actorType as Actor['type'],
  actor_id: entry.actorId,
  entity_type: entry.entityType,
  entity_id: entry.entityId,
  customer_id: entry.customerId,
  request_id: entry.requestId,
  before: entry.before,
  after: entry.after,
  created_at: entry.createdAt.toISOString(),
});

/** The audit trail, newest first, narrowed by any of the filters. */
export async function listAudit(db: DbClient, filter: AuditFilter): Promise<Page<AuditEntryView>> {
  return toPage(await listAuditEntries(db, filter), filter.limit, toView);
}

export async function getAuditEntry(db: DbClient, id: string): Promise<AuditEntryView> {
  const entry = await findAuditEntry(db, id);
  if (!entry) throw notFound('audit_entry', id);
  return toView(entry);
}
