/**
 * Customer portal sessions (issue 32): a link to one customer's self-service pages, like a billing
 * portal session of Stripe. The link is `/portal/<token>`, the token `<session id>.<secret>`: 32
 * random bytes (base64url) of which only the SHA-256 is stored, so the table cannot give a link away.
 * A session lives PORTAL_SESSION_TTL_MINUTES from its minting (real time, also for customers on a
 * test clock: it is an access credential, not a billing date) and ends earlier when revoked. Renewing
 * gives the session a new secret and a new expiry: the previous link stops working at once.
 * Minting, renewal and revocation are audited (portal_session.created / renewed / revoked).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { findCustomer } from '../../db/customers.js';
import { findPortalSession, insertPortalSession, revokePortalSessionRow, rotatePortalSessionToken, type PortalSessionRow } from '../../db/portal-sessions.js';
import { invalidTransition, notFound } from '../../errors.js';
import { newId, UUID_PATTERN } from '../../ids.js';
import { recordAudit, type RequestContext } from '../audit.js';
import type { PortalSessionStateView, PortalSessionView } from '../../schemas/portal.js';
import type { ServiceDeps } from '../deps.js';

/** How long a portal link works by default (PORTAL_SESSION_TTL_MINUTES). */
export const DEFAULT_PORTAL_SESSION_TTL_MINUTES = 60;

const TOKEN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{43})$/;

const hashOf = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** A minted or renewed session with its link (the only answer that carries the secret). */
const linkedView = (row: PortalSessionRow, url: string): PortalSessionView => ({
  id: row.id,
  customer_id: row.customerId,
  url,
  expires_at: row.expiresAt.toISOString(),
  created_by: row.createdBy,
  created_at: row.createdAt.toISOString(),
  return_url: row.returnUrl,
});

const stateOf = (row: PortalSessionRow): PortalSessionStateView => ({
  id: row.id,
  customer_id: row.customerId,
  expires_at: row.expiresAt.toISOString(),
  revoked_at: row.revokedAt?.toISOString() ?? null,
  created_by: row.createdBy,
  created_at: row.createdAt.toISOString(),
});

/** Where a link of this service opens the portal: `<base>/portal/<token>`. */
export const portalUrl = (baseUrl: string, token: string): string => `${baseUrl.replace(/\/+$/, '')}/portal/${token}`;

function freshToken(sessionId: string): { token: string; tokenHash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { token: `${sessionId}.${secret}`, tokenHash: hashOf(secret) };
}

/** Whole seconds, so the expiry the answer names is the one stored. */
const expiryFrom = (now: Date, ttlMinutes: number): Date => new Date(Math.ceil((now.getTime() + ttlMinutes * 60_000) / 1000) * 1000);

export interface MintInput {
  ttlMinutes: number;
  baseUrl: string;
  returnUrl?: string | undefined;
}

/** A new portal link for a customer (a Closed customer has no portal: 409). */
export async function createPortalSession(deps: Pick<ServiceDeps, 'db' | 'clock'>, customerId: string, input: MintInput, ctx: RequestContext): Promise<PortalSessionView> {
  // A customer token's subject need not be a UUID: such a customer does not exist.
  const customer = UUID_PATTERN.test(customerId) ? await findCustomer(deps.db, customerId) : null;
  if (!customer) throw notFound('customer', customerId);
  if (customer.status === 'Closed') throw invalidTransition('customer', customer.status, 'open the portal of');
  const id = newId();
  const { token, tokenHash } = freshToken(id);
  const expiresAt = expiryFrom(deps.clock(), input.ttlMinutes);
  const createdBy = `${ctx.actor.type}:${ctx.actor.id}`;
  const row = await deps.db.$transaction(async (tx) => {
    const created = await insertPortalSession(tx, { id, customerId, tokenHash, expiresAt, createdBy, returnUrl: input.returnUrl ?? null });
    await recordAudit(tx, {
      action: 'portal_session.created',
      actor: ctx.actor,
      entityType: 'portal_session',
      entityId: id,
      customerId,
      after: { expires_at: expiresAt.toISOString(), return_url: created.returnUrl },
      requestId: ctx.requestId,
    });
    return created;
  });
  return linkedView(row, portalUrl(input.baseUrl, token));
}

/** A new secret and expiry for a session that was not revoked; the previous link stops working. */
export async function renewPortalSession(deps: Pick<ServiceDeps, 'db' | 'clock'>, sessionId: string, input: Omit<MintInput, 'returnUrl'>, ctx: RequestContext): Promise<PortalSessionView> {
  const current = await findPortalSession(deps.db, sessionId);
  if (!current) throw notFound('portal_session', sessionId);
  if (current.revokedAt) throw invalidTransition('portal_session', 'revoked', 'renew');
  const { token, tokenHash } = freshToken(sessionId);
  const expiresAt = expiryFrom(deps.clock(), input.ttlMinutes);
  const row = await deps.db.$transaction(async (tx) => {
    const renewed = await rotatePortalSessionToken(tx, sessionId, tokenHash, expiresAt);
    if (!renewed) throw invalidTransition('portal_session', 'revoked', 'renew');
    await recordAudit(tx, {
      action: 'portal_session.renewed',
      actor: ctx.actor,
      entityType: 'portal_session',
      entityId: sessionId,
      customerId: renewed.customerId,
      before: { expires_at: current.expiresAt.toISOString() },
      after: { expires_at: expiresAt.toISOString() },
      requestId: ctx.requestId,
    });
    return renewed;
  });
  return linkedView(row, portalUrl(input.baseUrl, token));
}

/**
 * Ends a session now (idempotent: a revoked one stays as it was). `ownCustomerId` (the portal's own
 * sign-out) may only end a session of that customer.
 */
export async function revokePortalSession(deps: Pick<ServiceDeps, 'db' | 'clock'>, sessionId: string, ctx: RequestContext, ownCustomerId?: string): Promise<PortalSessionStateView> {
  const current = await findPortalSession(deps.db, sessionId);
  if (!current || (ownCustomerId !== undefined && current.customerId !== ownCustomerId)) throw notFound('portal_session', sessionId);
  if (current.revokedAt) return stateOf(current);
  const at = deps.clock();
  return deps.db.$transaction(async (tx) => {
    const revoked = await revokePortalSessionRow(tx, sessionId, at);
    if (!revoked) return stateOf((await findPortalSession(tx, sessionId))!);
    await recordAudit(tx, {
      action: 'portal_session.revoked',
      actor: ctx.actor,
      entityType: 'portal_session',
      entityId: sessionId,
      customerId: revoked.customerId,
      before: { revoked_at: null },
      after: { revoked_at: at.toISOString() },
      requestId: ctx.requestId,
    });
    return stateOf(revoked);
  });
}

export type ResolvedPortalSession =
  | { status: 'ok'; session: { id: string; customerId: string; expiresAt: Date; returnUrl: string | null; setupCheckoutSessionId: string | null } }
  | { status: 'not_found' }
  | { status: 'expired'; expiredAt: Date }
  | { status: 'revoked'; revokedAt: Date };

/**
 * What a portal token opens: its session, unless the token is malformed or its secret does not match
 * (not_found, whatever the reason, so probing learns nothing), it expired, or it was revoked.
 */
export async function resolvePortalSession(deps: Pick<ServiceDeps, 'db' | 'clock'>, token: string): Promise<ResolvedPortalSession> {
  const match = TOKEN.exec(token);
  if (!match) return { status: 'not_found' };
  const [, id = '', secret = ''] = match;
  const row = await findPortalSession(deps.db, id);
  const given = Buffer.from(hashOf(secret), 'utf8');
  if (!row || !timingSafeEqual(Buffer.from(row.tokenHash, 'utf8'), given)) return { status: 'not_found' };
  if (row.revokedAt) return { status: 'revoked', revokedAt: row.revokedAt };
  if (deps.clock().getTime() >= row.expiresAt.getTime()) return { status: 'expired', expiredAt: row.expiresAt };
  return {
    status: 'ok',
    session: { id: row.id, customerId: row.customerId, expiresAt: row.expiresAt, returnUrl: row.returnUrl, setupCheckoutSessionId: row.setupCheckoutSessionId },
  };
}
