/**
 * The operator views' session and form tokens (src/http/operator-session.ts): a session verifies only
 * with its own derived key, audience and scope, within its lifetime and while API_KEY_HASH is the one
 * it was opened under; the API's tokens are no sessions (test/browser/operator-views.test.ts: nor a session an
 * API token); CSRF tokens are
 * bound to their session; the login form's token expires after an hour.
 */
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  csrfToken,
  issueSession,
  loginFormToken,
  sessionKey,
  SESSION_LIFETIME_SECONDS,
  verifyCsrfToken,
  verifyLoginFormToken,
  verifySession,
} from '../../src/http/operator-session.js';

const settings = { jwtSecret: 'j'.repeat(40), apiKeyHash: 'a'.repeat(64) };
const NOW = new Date('2026-06-01T12:00:00.000Z');
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

describe('operator sessions', () => {
  it('verify within their lifetime, for the key they were opened with, and not after', async () => {
    const { token, session } = await issueSession(settings, 'api_key:0123456789abcdef', NOW);
    expect(session.expiresAt).toEqual(later(SESSION_LIFETIME_SECONDS));
    expect(await verifySession(settings, token, later(60))).toEqual(session);
    expect(await verifySession(settings, token, later(SESSION_LIFETIME_SECONDS + 1))).toBeNull();
    // A rotated API key ends every session; so does a rotated JWT_SECRET.
    expect(await verifySession({ ...settings, apiKeyHash: 'b'.repeat(64) }, token, later(60))).toBeNull();
    expect(await verifySession({ ...settings, jwtSecret: 'k'.repeat(40) }, token, later(60))).toBeNull();
    // Altered, absent or not a token at all.
    expect(await verifySession(settings, `${token.slice(0, -4)}${token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`, later(60))).toBeNull();
    expect(await verifySession(settings, undefined, later(60))).toBeNull();
    expect(await verifySession(settings, 'not-a-token', later(60))).toBeNull();
  });

  it('are never the API\'s tokens', async () => {
    // An admin token of the API, signed with JWT_SECRET itself: no session.
    const adminToken = await new SignJWT({ scope: 'admin' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('ops')
      .setIssuedAt(Math.floor(NOW.getTime() / 1000))
      .setExpirationTime(Math.floor(NOW.getTime() / 1000) + 3600)
      .sign(new TextEncoder().encode(settings.jwtSecret));
    expect(await verifySession(settings, adminToken, later(60))).toBeNull();
    // Signed with the session key but without the session's audience and scope: no session either.
    const forged = await new SignJWT({ scope: 'admin' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('ops')
      .setJti('x')
      .setIssuedAt(Math.floor(NOW.getTime() / 1000))
      .setExpirationTime(Math.floor(NOW.getTime() / 1000) + 3600)
      .sign(sessionKey(settings.jwtSecret));
    expect(await verifySession(settings, forged, later(60))).toBeNull();
  });

  it('bind CSRF tokens to their session', async () => {
    const one = (await issueSession(settings, 'api_key:0123456789abcdef', NOW)).session;
    const two = (await issueSession(settings, 'api_key:0123456789abcdef', NOW)).session;
    expect(verifyCsrfToken(settings.jwtSecret, one, csrfToken(settings.jwtSecret, one))).toBe(true);
    expect(verifyCsrfToken(settings.jwtSecret, two, csrfToken(settings.jwtSecret, one))).toBe(false);
    expect(verifyCsrfToken(settings.jwtSecret, one, undefined)).toBe(false);
    expect(verifyCsrfToken(settings.jwtSecret, one, '')).toBe(false);
  });

  it('accept a login form for an hour after it was rendered', () => {
    const token = loginFormToken(settings.jwtSecret, NOW);
    expect(verifyLoginFormToken(settings.jwtSecret, token, later(3599))).toBe(true);
    expect(verifyLoginFormToken(settings.jwtSecret, token, later(3601))).toBe(false);
    expect(verifyLoginFormToken('k'.repeat(40), token, later(1))).toBe(false);
    expect(verifyLoginFormToken(settings.jwtSecret, token.replace(/^\d+/, String(NOW.getTime() + 1000)), later(1))).toBe(false);
    expect(verifyLoginFormToken(settings.jwtSecret, undefined, later(1))).toBe(false);
  });
});
