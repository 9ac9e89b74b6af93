/**
 * Authentication and route scopes (SPEC §5).
 * - `Authorization: Bearer <JWT>`: HS256 only, secret JWT_SECRET, claims sub/exp/scope required;
 *   lifetime (exp − iat, or exp − now without iat) at most 1 h for customer and 8 h for admin tokens.
 *   An iat more than a minute in the future is refused: it would otherwise stretch the lifetime.
 * - `X-API-Key: bsk_live_…|bsk_test_…`: SHA-256 of the key compared in constant time with API_KEY_HASH.
 *   An API key is a server-side secret key and acts with admin scope.
 * Route scopes: /health, /openapi.json, /docs/api, /hosted/* (signed links) and /portal/* (portal session links) public; /v1/* customer or admin; /admin/v1/* admin
 * (403 for a customer's credentials; 404 on /admin/v1/shadow-billing, which customers must not learn exists).
 * The operator views' HTML pages (/admin outside /admin/v1) are public here: their routes check their own session
 * cookie (src/http/operator-session.ts), opened with the API key.
 * Exception: /v1/webhooks/processor is called by the payment processor, which holds neither a token
 * nor a key; its handler authenticates each notification by the processor's signature (SPEC §4 rule 3).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { errors as joseErrors, jwtVerify } from 'jose';
import { ApiError } from '../errors.js';
import type { AppEnv, Principal } from '../context.js';

export const MAX_TOKEN_LIFETIME_SECONDS = { customer: 3600, admin: 8 * 3600 } as const;
/** Tolerated clock skew between the token issuer and this service. */
const MAX_CLOCK_SKEW_SECONDS = 60;
const API_KEY_PATTERN = /^bsk_(live|test)_[A-Za-z0-9_]{16,128}$/;

export type RouteAccess = 'public' | 'signature' | 'customer_or_admin' | 'admin';

/** Routes whose handler verifies a signature instead of credentials. */
export const SIGNATURE_AUTHENTICATED_PATHS: ReadonlySet<string> = new Set(['/v1/webhooks/processor']);

/** Admin routes a customer's credentials get 404 on (as if they did not exist) instead of 403. */
const HIDDEN_FROM_CUSTOMERS: readonly string[] = ['/admin/v1/shadow-billing'];
export const hiddenFromCustomers = (path: string): boolean => HIDDEN_FROM_CUSTOMERS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));

export function routeAccess(path: string): RouteAccess {
  if (SIGNATURE_AUTHENTICATED_PATHS.has(path)) return 'signature';
  if (path.startsWith('/admin/v1/') || path === '/admin/v1') return 'admin';
  if (path.startsWith('/v1/') || path === '/v1') return 'customer_or_admin';
  return 'public';
}

const unauthenticated = (message: string) =>
  new ApiError('unauthenticated', message, undefined, { 'WWW-Authenticate': 'Bearer' });

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function verifyApiKey(key: string, expectedHashHex: string): Principal {
  if (!API_KEY_PATTERN.test(key)) {
    throw unauthenticated(
      /^bsk_(live|test)_/.test(key)
        ? 'API key is malformed: after bsk_live_ or bsk_test_ come 16 to 128 letters, digits or underscores'
        : 'API key must start with bsk_live_ or bsk_test_',
    );
  }
  const actual = createHash('sha256').update(key, 'utf8').digest();
  const expected = Buffer.from(expectedHashHex, 'hex');
  if (expected.length !== actual.length || !timingSafeEqual(actual, expected)) throw unauthenticated('invalid API key');
  return { kind: 'api_key', scope: 'admin', subject: `api_key:${sha256Hex(key).slice(0, 16)}` };
}

/** A verified token's principal and the claims its validity in time depends on. */
interface VerifiedToken {
  principal: Principal;
  exp: number;
  nbf: number | undefined;
  iat: number | undefined;
}

/** Verified tokens kept (per JWT secret) so a client's next request skips the signature check. */
const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * The time checks jwtVerify makes, made again for a token whose signature and claims were verified
 * before: expired at exp, not valid before nbf, iat not too far ahead.
 */
function stillValid(token: VerifiedToken, nowSeconds: number): Principal {
  if (token.exp <= nowSeconds) throw unauthenticated('token expired');
  if (token.nbf !== undefined && token.nbf > nowSeconds) throw unauthenticated('token claim invalid: nbf');
  if (token.iat !== undefined && token.iat > nowSeconds + MAX_CLOCK_SKEW_SECONDS) throw unauthenticated('token iat is in the future');
  return token.principal;
}

/**
 * verifyJwt with the verified tokens remembered: a request path (an entitlement check, a usage event)
 * sent again and again with one customer token verifies its HMAC once, not per request; the time
 * checks run every time. The oldest entries go first past VERIFIED_TOKENS_KEPT.
 */
function tokenVerifier(): (token: string, secret: Uint8Array, nowSeconds: number) => Promise<Principal> {
  let verified = new Map<string, VerifiedToken>();
  let forSecret: Uint8Array | undefined;
  return async (token, secret, nowSeconds) => {
    if (forSecret !== secret) {
      verified = new Map();
      forSecret = secret;
    }
    const known = verified.get(token);
    if (known !== undefined) return stillValid(known, nowSeconds);
    const fresh = await verifyJwt(token, secret, nowSeconds);
    if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value!);
    verified.set(token, fresh);
    return fresh.principal;
  };
}

async function verifyJwt(token: string, secret: Uint8Array, nowSeconds: number): Promise<VerifiedToken> {
  let payload;
  try {
    ({ payload } = await jwtVerify(token, secret, {
      algorithms: ['HS256'],
      requiredClaims: ['sub', 'exp', 'scope'],
      currentDate: new Date(nowSeconds * 1000),
    }));
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw unauthenticated('token expired');
    if (err instanceof joseErrors.JWTClaimValidationFailed) throw unauthenticated(`token claim invalid: ${err.claim}`);
    throw unauthenticated('invalid token');
  }
  const { scope, sub, exp, iat } = payload;
  if (scope !== 'customer' && scope !== 'admin') throw unauthenticated('token scope must be customer or admin');
  if (typeof sub !== 'string' || sub.length === 0) throw unauthenticated('token sub must be a non-empty string');
  if (typeof iat === 'number' && iat > nowSeconds + MAX_CLOCK_SKEW_SECONDS) throw unauthenticated('token iat is in the future');
  const lifetime = (exp as number) - (typeof iat === 'number' ? iat : nowSeconds);
  if (lifetime > MAX_TOKEN_LIFETIME_SECONDS[scope]) {
    throw unauthenticated(`${scope} tokens may live at most ${MAX_TOKEN_LIFETIME_SECONDS[scope]} seconds`);
  }
  return { principal: { kind: 'jwt', scope, subject: sub }, exp: exp as number, nbf: typeof payload.nbf === 'number' ? payload.nbf : undefined, iat: typeof iat === 'number' ? iat : undefined };
}

export function authMiddleware(): MiddlewareHandler<AppEnv> {
  let cachedSecret: { raw: string; key: Uint8Array } | undefined;
  const verifyToken = tokenVerifier();
  return async (c, next) => {
    const access = routeAccess(c.req.path);
    if (access === 'public' || access === 'signature') {
      c.set('principal', undefined);
      return next();
    }
    const { settings } = c.get('deps');
    if (cachedSecret?.raw !== settings.jwtSecret) {
      cachedSecret = { raw: settings.jwtSecret, key: new TextEncoder().encode(settings.jwtSecret) };
    }
    const authorization = c.req.header('authorization');
    const apiKey = c.req.header('x-api-key');
    let principal: Principal;
    if (authorization !== undefined) {
      const match = /^Bearer\s+(\S+)$/i.exec(authorization);
      if (!match?.[1]) throw unauthenticated('Authorization header must be "Bearer <token>"');
      principal = await verifyToken(match[1], cachedSecret.key, Math.floor(c.get('deps').clock().getTime() / 1000));
    } else if (apiKey !== undefined) {
      principal = verifyApiKey(apiKey, settings.apiKeyHash);
    } else {
      throw unauthenticated('credentials required: Authorization: Bearer <JWT> or X-API-Key');
    }
    // Set before the scope check: the credentials verified, so a 403 is not an anonymous request.
    c.set('principal', principal);
    // Shadow billing is not to be seen by customers at all: its routes do not exist for them.
    if (access === 'admin' && principal.scope !== 'admin' && hiddenFromCustomers(c.req.path)) {
      throw new ApiError('not_found', `no route ${c.req.method} ${c.req.path}`);
    }
    if (access === 'admin' && principal.scope !== 'admin') {
      throw new ApiError('forbidden', 'this route requires the admin scope');
    }
    return next();
  };
}
