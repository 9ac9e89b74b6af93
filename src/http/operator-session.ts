/**
 * Operator sessions for the HTML operator views (/admin). A browser cannot send the API's admin key
 * on a navigation, so the operator signs in once with it (POST /admin/login) and gets a session
 * cookie: an HS256 JWT (jose, like the API's tokens) holding who signed in, when it expires (at most
 * the admin token lifetime, 8 hours), a random id, and a fingerprint of the configured API_KEY_HASH
 * (a rotated key ends every session). Its key is derived from JWT_SECRET for this use only, and its
 * audience and scope are the operator views': no API token is a session and no session is an API
 * token.
 *
 * CSRF: every form of a signed-in page carries the HMAC of the session's id (`csrf_token`), so a
 * form rendered for one session is refused in any other; every POST must also come from this
 * service's own pages (Origin, Sec-Fetch-Site), on top of the cookie's SameSite=Strict. The login
 * form, shown before any session, carries a signed, time-limited token instead.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { MAX_TOKEN_LIFETIME_SECONDS } from './middleware/auth.js';

export const SESSION_COOKIE = 'operator_session';
/** The operator views' own audience and scope claims. */
const AUDIENCE = 'billing-operator-views';
const SCOPE = 'operator';
export const SESSION_LIFETIME_SECONDS = MAX_TOKEN_LIFETIME_SECONDS.admin;
/** How long a rendered login form is accepted. */
const LOGIN_FORM_MAX_AGE_MS = 3_600_000;

export interface OperatorSession {
  /** Who signed in: the API key's fingerprint, as the API names an API key caller (`api_key:<16 hex>`). */
  subject: string;
  /** The session's random id, which its CSRF token is bound to. */
  id: string;
  expiresAt: Date;
}

/** The session signing key: HMAC(JWT_SECRET, purpose), never the API's token key itself. */
export const sessionKey = (jwtSecret: string): Uint8Array => new Uint8Array(createHmac('sha256', jwtSecret).update('operator-session-v1', 'utf8').digest());

const keyFingerprint = (apiKeyHash: string): string => createHash('sha256').update(`operator-session:${apiKeyHash.toLowerCase()}`, 'utf8').digest('base64url').slice(0, 22);

export async function issueSession(settings: { jwtSecret: string; apiKeyHash: string }, subject: string, now: Date): Promise<{ token: string; session: OperatorSession }> {
  const id = randomBytes(16).toString('base64url');
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = new Date((issuedAt + SESSION_LIFETIME_SECONDS) * 1000);
  const token = await new SignJWT({ scope: SCOPE, kf: keyFingerprint(settings.apiKeyHash) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(subject)
    .setAudience(AUDIENCE)
    .setJti(id)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(sessionKey(settings.jwtSecret));
  return { token, session: { subject, id, expiresAt } };
}

/** The session a cookie value holds, or null when it is absent, forged, expired or from a rotated key. */
export async function verifySession(settings: { jwtSecret: string; apiKeyHash: string }, token: string | undefined, now: Date): Promise<OperatorSession | null> {
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, sessionKey(settings.jwtSecret), {
      algorithms: ['HS256'],
      audience: AUDIENCE,
      requiredClaims: ['sub', 'exp', 'iat', 'jti'],
      currentDate: now,
    });
    if (payload.scope !== SCOPE || payload.kf !== keyFingerprint(settings.apiKeyHash)) return null;
    if ((payload.exp as number) - (payload.iat as number) > SESSION_LIFETIME_SECONDS) return null;
    return { subject: payload.sub!, id: payload.jti!, expiresAt: new Date((payload.exp as number) * 1000) };
  } catch {
    return null;
  }
}

const sameText = (a: string, b: string): boolean => {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The CSRF token of a session's forms. */
export const csrfToken = (jwtSecret: string, session: OperatorSession): string =>
  createHmac('sha256', sessionKey(jwtSecret)).update(`csrf:${session.id}`, 'utf8').digest('base64url');

export const verifyCsrfToken = (jwtSecret: string, session: OperatorSession, given: string | undefined): boolean =>
  given !== undefined && sameText(csrfToken(jwtSecret, session), given);

/** The login form's token: when it was rendered, signed. */
export function loginFormToken(jwtSecret: string, now: Date): string {
  const issued = String(now.getTime());
  return `${issued}.${createHmac('sha256', sessionKey(jwtSecret)).update(`login:${issued}`, 'utf8').digest('base64url')}`;
}

export function verifyLoginFormToken(jwtSecret: string, given: string | undefined, now: Date): boolean {
  const match = /^([0-9]{1,15})\.([A-Za-z0-9_-]{43})$/.exec(given ?? '');
  if (!match) return false;
  const issued = match[1]!;
  const expected = createHmac('sha256', sessionKey(jwtSecret)).update(`login:${issued}`, 'utf8').digest('base64url');
  const age = now.getTime() - Number(issued);
  return sameText(expected, match[2]!) && age >= -60_000 && age <= LOGIN_FORM_MAX_AGE_MS;
}
