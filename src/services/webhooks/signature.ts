/**
 * Webhook signatures (SPEC §6): X-Billing-Signature is the lowercase hex HMAC-SHA256 of the raw
 * request body, keyed with the endpoint's secret (its UTF-8 bytes, `whsec_` prefix included).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Billing-Signature';
export const EVENT_ID_HEADER = 'X-Billing-Event-Id';
export const EVENT_TYPE_HEADER = 'X-Billing-Event-Type';

const SECRET_PREFIX = 'whsec_';

/** A new signing secret: 32 random bytes, base64url, after a recognisable prefix. */
export const newWebhookSecret = (): string => `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;

/** The secret as lists show it: the prefix and its last four characters. */
export const maskSecret = (secret: string): string => `${SECRET_PREFIX}…${secret.slice(-4)}`;

export const signWebhookBody = (secret: string, body: string | Buffer): string => createHmac('sha256', secret).update(body).digest('hex');

/** Constant-time check a receiver makes (also used by the tests' receivers). */
export function verifyWebhookSignature(secret: string, body: string | Buffer, signature: string): boolean {
  const expected = Buffer.from(signWebhookBody(secret, body), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}
