/** Customer portal sessions: one row per link minted (issue 32). */
import type { PortalSession } from '../generated/prisma/client.js';
import type { DbClient } from './client.js';

export type PortalSessionRow = PortalSession;

export function insertPortalSession(
  tx: DbClient,
  session: { id: string; customerId: string; tokenHash: string; expiresAt: Date; createdBy: string; returnUrl: string | null },
): Promise<PortalSessionRow> {
  return tx.portalSession.create({ data: session });
}

export function findPortalSession(tx: DbClient, id: string): Promise<PortalSessionRow | null> {
  return tx.portalSession.findUnique({ where: { id } });
}

/** Revokes a session not revoked yet; null when it was (or does not exist). */
export async function revokePortalSessionRow(tx: DbClient, id: string, at: Date): Promise<PortalSessionRow | null> {
  const { count } = await tx.portalSession.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
  return count === 1 ? tx.portalSession.findUnique({ where: { id } }) : null;
}

/** A new secret and expiry for a session that is not revoked; null when it is (or does not exist). */
export async function rotatePortalSessionToken(tx: DbClient, id: string, tokenHash: string, expiresAt: Date): Promise<PortalSessionRow | null> {
  const { count } = await tx.portalSession.updateMany({ where: { id, revokedAt: null }, data: { tokenHash, expiresAt, setupCheckoutSessionId: null } });
  return count === 1 ? tx.portalSession.findUnique({ where: { id } }) : null;
}

export async function setPortalSetupCheckout(tx: DbClient, id: string, checkoutSessionId: string | null): Promise<void> {
  await tx.portalSession.update({ where: { id }, data: { setupCheckoutSessionId: checkoutSessionId } });
}
