/**
 * The read model of the operator views' "held workflows": every resource whose workflow holds a
 * step for an operator (billing_error set), across the six resources that can hold one. Partial
 * indexes (`*_held_idx`) keep each read to the held rows.
 */
import { Prisma } from '../generated/prisma/client.js';
import type { DbClient } from './client.js';

/** One held resource: its kind, its id (a dunning schedule by its invoice's id), where it belongs, and the stored billing_error. */
export interface HeldRow {
  entity: 'subscription' | 'invoice' | 'dunning_schedule' | 'contract' | 'processor_event' | 'wallet_top_up';
  id: string;
  customerId: string | null;
  /** A wallet top-up's wallet currency (its retry route names it). */
  currency: string | null;
  billingError: Prisma.JsonValue;
  /** When the row last changed (received, for a processor notification): newest first. */
  at: Date;
}

const HELD = { NOT: { billingError: { equals: Prisma.DbNull } } };

/** Up to `limit` held resources of each kind, newest first overall. */
export async function listHeldRows(tx: DbClient, limit: number): Promise<HeldRow[]> {
  const newest = { orderBy: { updatedAt: 'desc' as const }, take: limit };
  const [subscriptions, invoices, dunning, contracts, events, topUps] = await Promise.all([
    tx.subscription.findMany({ where: HELD, select: { id: true, customerId: true, billingError: true, updatedAt: true }, ...newest }),
    tx.invoice.findMany({ where: HELD, select: { id: true, customerId: true, billingError: true, updatedAt: true }, ...newest }),
    tx.dunningSchedule.findMany({ where: HELD, select: { invoiceId: true, customerId: true, billingError: true, updatedAt: true }, ...newest }),
    tx.contract.findMany({ where: HELD, select: { id: true, customerId: true, billingError: true, updatedAt: true }, ...newest }),
    tx.processorEvent.findMany({ where: HELD, select: { id: true, billingError: true, receivedAt: true }, orderBy: { receivedAt: 'desc' }, take: limit }),
    tx.walletTopUp.findMany({ where: HELD, select: { id: true, customerId: true, currency: true, billingError: true, updatedAt: true }, ...newest }),
  ]);
  const rows: HeldRow[] = [
    ...subscriptions.map((r) => ({ entity: 'subscription' as const, id: r.id, customerId: r.customerId, currency: null, billingError: r.billingError, at: r.updatedAt })),
    ...invoices.map((r) => ({ entity: 'invoice' as const, id: r.id, customerId: r.customerId, currency: null, billingError: r.billingError, at: r.updatedAt })),
    ...dunning.map((r) => ({ entity: 'dunning_schedule' as const, id: r.invoiceId, customerId: r.customerId, currency: null, billingError: r.billingError, at: r.updatedAt })),
    ...contracts.map((r) => ({ entity: 'contract' as const, id: r.id, customerId: r.customerId, currency: null, billingError: r.billingError, at: r.updatedAt })),
    ...events.map((r) => ({ entity: 'processor_event' as const, id: r.id, customerId: null, currency: null, billingError: r.billingError, at: r.receivedAt })),
    ...topUps.map((r) => ({ entity: 'wallet_top_up' as const, id: r.id, customerId: r.customerId, currency: r.currency, billingError: r.billingError, at: r.updatedAt })),
  ];
  return rows.sort((a, b) => b.at.getTime() - a.at.getTime());
}

/** A held wallet top-up's customer and currency (its retry names them); null when there is no such top-up. */
export function findTopUpOwner(tx: DbClient, topUpId: string): Promise<{ customerId: string; currency: string } | null> {
  return tx.walletTopUp.findUnique({ where: { id: topUpId }, select: { customerId: true, currency: true } });
}

/** Display names of customers, by id. */
export async function customerNames(tx: DbClient, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await tx.customer.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, displayName: true } });
  return new Map(rows.map((r) => [r.id, r.displayName]));
}
