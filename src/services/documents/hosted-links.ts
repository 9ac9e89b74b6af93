/**
 * Hosted invoice links: `<invoice id>.<expiry, unix seconds>.<signature>`, where the signature is
 * the HMAC-SHA256 (HOSTED_LINK_SECRET) of the invoice id and the expiry, base64url. Without the
 * secret a link cannot be made or altered (256 bits to guess), and it names one invoice only.
 *
 * A link expires HOSTED_LINK_TTL_DAYS after the invoice's due date, on the invoice's own clock (its
 * test clock's time for sandbox invoices), so every response carries the same URL for an invoice.
 * A renewed link (POST /admin/v1/invoices/:id/hosted-link) expires HOSTED_LINK_TTL_DAYS after its
 * renewal instead, for a payer whose link ran out before the invoice was paid.
 *
 * The Pay form of the page carries a form token, `<issued, unix milliseconds>.<signature>`, the
 * signature an HMAC of the link and the time the page was rendered: a form is accepted only from a
 * page of the same link rendered within FORM_TOKEN_MAX_AGE_SECONDS.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface HostedLinkSettings {
  secret: string;
  /** Days after the due date (or the finalization, without one) until the link expires. */
  ttlDays: number;
  /** Where payers reach the API, e.g. https://billing.example.com. */
  baseUrl: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TOKEN = /^([0-9a-f-]{36})\.([0-9]{1,12})\.([A-Za-z0-9_-]{43})$/;

/** Signs the expiry's text as it appears in the link, so no other spelling of it (leading zeros) verifies. */
const sign = (secret: string, invoiceId: string, expires: string): string =>
  createHmac('sha256', secret).update(`hosted-invoice:${invoiceId}:${expires}`, 'utf8').digest('base64url');

export function hostedLinkToken(secret: string, invoiceId: string, expiresAt: Date): string {
  const expires = String(Math.floor(expiresAt.getTime() / 1000));
  return `${invoiceId}.${expires}.${sign(secret, invoiceId, expires)}`;
}

/** When an invoice's link expires, from its finalization and due date (null for a Draft: no link). */
export function hostedLinkExpiry(invoice: { finalized_at: string | null; due_at: string | null }, ttlDays: number): Date | null {
  const from = invoice.due_at ?? invoice.finalized_at;
  return from === null ? null : new Date(Date.parse(from) + ttlDays * 86_400_000);
}

const linkUrl = (settings: HostedLinkSettings, invoiceId: string, expiresAt: Date): string =>
  `${settings.baseUrl.replace(/\/+$/, '')}/hosted/invoices/${hostedLinkToken(settings.secret, invoiceId, expiresAt)}`;

export function hostedInvoiceUrl(settings: HostedLinkSettings, invoice: { id: string; finalized_at: string | null; due_at: string | null }): string | null {
  const expiresAt = hostedLinkExpiry(invoice, settings.ttlDays);
  return expiresAt === null ? null : linkUrl(settings, invoice.id, expiresAt);
}

/** A fresh link to an invoice, expiring HOSTED_LINK_TTL_DAYS after `now` (the invoice's clock), to the second. */
export function renewedHostedLink(settings: HostedLinkSettings, invoiceId: string, now: Date): { url: string; expiresAt: Date } {
  const expiresAt = new Date(Math.ceil((now.getTime() + settings.ttlDays * 86_400_000) / 1000) * 1000);
  return { url: linkUrl(settings, invoiceId, expiresAt), expiresAt };
}

/** How long a rendered page's Pay form is accepted (an hour). */
export const FORM_TOKEN_MAX_AGE_SECONDS = 3600;

const signForm = (secret: string, token: string, issued: string): string =>
  createHmac('sha256', secret).update(`hosted-form:${token}:${issued}`, 'utf8').digest('base64url');

/** The form token of a page of the link `token` rendered at `now` (real time). */
export function hostedFormToken(secret: string, token: string, now: Date): string {
  const issued = String(now.getTime());
  return `${issued}.${signForm(secret, token, issued)}`;
}

/** Whether a form token was issued for this link by a page rendered at most FORM_TOKEN_MAX_AGE_SECONDS ago. */
export function verifyHostedFormToken(secret: string, token: string, formToken: string, now: Date): 'ok' | 'invalid' | 'stale' {
  const match = /^([0-9]{1,15})\.([A-Za-z0-9_-]{43})$/.exec(formToken);
  if (!match) return 'invalid';
  const [, issued = '', signature = ''] = match;
  const expected = Buffer.from(signForm(secret, token, issued), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
  const age = now.getTime() - Number(issued);
  return age >= -60_000 && age <= FORM_TOKEN_MAX_AGE_SECONDS * 1000 ? 'ok' : 'stale';
}

export type VerifiedLink = { invoiceId: string; expiresAt: Date };

/** The invoice and expiry a link was signed for; null for anything malformed or not signed with the secret. */
export function verifyHostedLinkToken(secret: string, token: string): VerifiedLink | null {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, invoiceId = '', expiresText = ''] = match;
  if (!UUID.test(invoiceId)) return null;
  const expected = Buffer.from(sign(secret, invoiceId, expiresText), 'utf8');
  const given = Buffer.from(match[3] ?? '', 'utf8');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return { invoiceId, expiresAt: new Date(Number(expiresText) * 1000) };
}
