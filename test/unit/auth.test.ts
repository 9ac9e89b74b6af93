/**
 * The auth middleware on its own, with an injected clock: route scopes, token lifetimes at their
 * exact limits, the claims it requires and the API key check. The full matrix against the real
 * app lives in test/http/auth.test.ts.
 */
import { Hono } from 'hono';
import { SignJWT, type JWTPayload } from 'jose';
import { describe, expect, it } from 'vitest';
import { apiKeyHash, generateSecrets } from '../../src/dev/secrets.js';
import type { AppDeps, AppEnv } from '../../src/http/context.js';
import { renderError } from '../../src/http/errors.js';
import { authMiddleware, MAX_TOKEN_LIFETIME_SECONDS, routeAccess } from '../../src/http/middleware/auth.js';

const secrets = generateSecrets();
const T0 = 1_900_000_000; // seconds; the clock every test starts from

function appAt(nowSeconds: () => number, settings: Partial<AppDeps['settings']> = {}) {
  const deps = {
    clock: () => new Date(nowSeconds() * 1000),
    // The caller's object itself (filled in), so a test can change a setting of the running app.
    settings: Object.assign(settings, { jwtSecret: settings.jwtSecret ?? secrets.jwt_secret, apiKeyHash: settings.apiKeyHash ?? apiKeyHash(secrets.api_key) }),
  } as unknown as AppDeps;
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    c.set('requestId', 'unit');
    await next();
  });
  app.use('*', authMiddleware());
  for (const path of ['/health', '/v1/thing', '/admin/v1/thing']) app.get(path, (c) => c.json({ principal: c.get('principal') ?? null }));
  app.onError((err, c) => renderError(c, err));
  return app;
}

async function sign(payload: JWTPayload, secret = secrets.jwt_secret, alg = 'HS256'): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg, typ: 'JWT' }).sign(new TextEncoder().encode(secret));
}

const claims = (scope: string, lifetime: number, extra: JWTPayload = {}): JWTPayload => ({
  sub: '01900000-0000-7000-8000-000000000001',
  scope,
  iat: T0,
  exp: T0 + lifetime,
  ...extra,
});

async function call(app: Hono<AppEnv>, path: string, headers: Record<string, string>) {
  const res = await app.request(path, { headers });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, res };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('routeAccess', () => {
  it.each([
    ['/health', 'public'],
    ['/openapi.json', 'public'],
    ['/docs/api', 'public'],
    ['/docs/api/assets/swagger-ui.css', 'public'],
    ['/v1', 'customer_or_admin'],
    ['/v1/subscriptions', 'customer_or_admin'],
    ['/admin/v1', 'admin'],
    ['/admin/v1/customers', 'admin'],
    ['/v1x/anything', 'public'],
    ['/admin/v10/customers', 'public'],
    ['/v1/webhooks/processor', 'signature'],
    ['/v1/webhooks/processor/', 'customer_or_admin'],
    ['/v1/webhooks', 'customer_or_admin'],
  ] as const)('%s is %s', (path, access) => {
    expect(routeAccess(path)).toBe(access);
  });
});

describe('token lifetime', () => {
  it.each([
    ['customer', MAX_TOKEN_LIFETIME_SECONDS.customer, 200],
    ['customer', MAX_TOKEN_LIFETIME_SECONDS.customer + 1, 401],
    ['admin', MAX_TOKEN_LIFETIME_SECONDS.admin, 200],
    ['admin', MAX_TOKEN_LIFETIME_SECONDS.admin + 1, 401],
  ] as const)('a %s token living %i s → %i', async (scope, lifetime, status) => {
    const app = appAt(() => T0);
    const res = await call(app, '/v1/thing', bearer(await sign(claims(scope, lifetime))));
    expect(res.status).toBe(status);
  });

  it('without iat, the lifetime counts from now', async () => {
    const app = appAt(() => T0);
    const ok = await sign({ sub: 'u', scope: 'customer', exp: T0 + 3600 });
    const tooLong = await sign({ sub: 'u', scope: 'customer', exp: T0 + 3601 });
    expect((await call(app, '/v1/thing', bearer(ok))).status).toBe(200);
    expect((await call(app, '/v1/thing', bearer(tooLong))).status).toBe(401);
  });

  it('a future iat cannot stretch the lifetime (only clock skew is tolerated)', async () => {
    const app = appAt(() => T0);
    const farFuture = await sign(claims('customer', 1800, { iat: T0 + 10 * 3600, exp: T0 + 10 * 3600 + 1800 }));
    const skewed = await sign(claims('customer', 3600, { iat: T0 + 30, exp: T0 + 30 + 3600 }));
    const refused = await call(app, '/v1/thing', bearer(farFuture));
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: { code: 'unauthenticated' } });
    expect((await call(app, '/v1/thing', bearer(skewed))).status).toBe(200);
  });

  it('a token verified once is refused after the JWT secret changes (verified tokens are remembered per secret)', async () => {
    const settings = { jwtSecret: secrets.jwt_secret, apiKeyHash: apiKeyHash(secrets.api_key) };
    const app = appAt(() => T0, settings);
    const token = await sign(claims('customer', 3600));
    expect((await call(app, '/v1/thing', bearer(token))).status).toBe(200);
    expect((await call(app, '/v1/thing', bearer(token))).status).toBe(200);
    settings.jwtSecret = generateSecrets().jwt_secret;
    expect((await call(app, '/v1/thing', bearer(token))).status).toBe(401);
  });

  it('a token is valid until exp and refused from exp on', async () => {
    let now = T0;
    const app = appAt(() => now);
    const token = await sign(claims('customer', 3600));
    now = T0 + 3599;
    expect((await call(app, '/v1/thing', bearer(token))).status).toBe(200);
    now = T0 + 3600;
    const expired = await call(app, '/v1/thing', bearer(token));
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ error: { code: 'unauthenticated', message: 'token expired' } });
  });

  it('a token is refused before nbf', async () => {
    const app = appAt(() => T0);
    const res = await call(app, '/v1/thing', bearer(await sign(claims('customer', 3600, { nbf: T0 + 600 }))));
    expect(res.status).toBe(401);
  });
});

describe('claims', () => {
  it.each([
    ['missing sub', { sub: undefined }],
    ['empty sub', { sub: '' }],
    ['numeric sub', { sub: 42 as unknown as string }],
    ['missing scope', { scope: undefined }],
    ['scope superuser', { scope: 'superuser' }],
    ['scope as an array', { scope: ['admin'] }],
    ['missing exp', { exp: undefined }],
    ['string exp', { exp: String(T0 + 60) as unknown as number }],
  ])('%s → 401', async (_name, override) => {
    const app = appAt(() => T0);
    const payload = { ...claims('admin', 3600), ...override } as JWTPayload;
    for (const key of Object.keys(payload)) if (payload[key] === undefined) delete payload[key];
    const res = await call(app, '/v1/thing', bearer(await sign(payload)));
    expect(res.status).toBe(401);
    expect(res.res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('sets the principal from the claims', async () => {
    const app = appAt(() => T0);
    const customer = await call(app, '/v1/thing', bearer(await sign(claims('customer', 60))));
    expect(customer.body).toEqual({ principal: { kind: 'jwt', scope: 'customer', subject: '01900000-0000-7000-8000-000000000001' } });
    const admin = await call(app, '/admin/v1/thing', { authorization: `bearer ${await sign(claims('admin', 60))}` });
    expect(admin.body).toMatchObject({ principal: { kind: 'jwt', scope: 'admin' } });
  });

  it('refuses other algorithms and other secrets', async () => {
    const app = appAt(() => T0);
    for (const token of [
      await sign(claims('admin', 60), secrets.jwt_secret, 'HS512'),
      await sign(claims('admin', 60), 'another-secret-of-sufficient-length!!'),
    ]) {
      expect((await call(app, '/v1/thing', bearer(token))).status).toBe(401);
    }
  });
});

describe('route scopes', () => {
  it('public routes ignore credentials, even broken ones', async () => {
    const app = appAt(() => T0);
    const res = await call(app, '/health', { authorization: 'Bearer nonsense', 'x-api-key': 'nonsense' });
    expect(res).toMatchObject({ status: 200, body: { principal: null } });
  });

  it('a customer token may use /v1 but not /admin/v1', async () => {
    const app = appAt(() => T0);
    const token = await sign(claims('customer', 60));
    expect((await call(app, '/v1/thing', bearer(token))).status).toBe(200);
    const refused = await call(app, '/admin/v1/thing', bearer(token));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: 'forbidden' } });
  });

  it.each([
    ['Basic dXNlcjpwYXNz'],
    ['Bearer'],
    ['Bearer a b'],
    [''],
    ['Token abc'],
  ])('Authorization %j → 401', async (authorization) => {
    const app = appAt(() => T0);
    expect((await call(app, '/v1/thing', { authorization })).status).toBe(401);
  });
});

describe('API key', () => {
  it('accepts the configured key with admin scope and a fingerprint subject', async () => {
    const app = appAt(() => T0);
    const res = await call(app, '/admin/v1/thing', { 'x-api-key': secrets.api_key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ principal: { kind: 'api_key', scope: 'admin', subject: expect.stringMatching(/^api_key:[0-9a-f]{16}$/) } });
    expect(JSON.stringify(res.body)).not.toContain(secrets.api_key);
  });

  it.each([
    ['a wrong prefix on the right key', () => secrets.api_key.replace(/^bsk_test_/, 'bsk_prod_')],
    ['the right prefix with another key', () => `bsk_test_${'A'.repeat(32)}`],
    ['the live prefix with the test key body', () => secrets.api_key.replace(/^bsk_test_/, 'bsk_live_')],
    ['the key with a trailing character', () => `${secrets.api_key}x`],
    ['a prefix only', () => 'bsk_test_'],
    ['an empty key', () => ''],
  ])('refuses %s', async (_name, key) => {
    const app = appAt(() => T0);
    const res = await call(app, '/v1/thing', { 'x-api-key': key() });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: { code: 'unauthenticated' } });
  });

  it('a misconfigured API_KEY_HASH refuses every key instead of failing', async () => {
    const app = appAt(() => T0, { apiKeyHash: 'not-hex' });
    expect((await call(app, '/v1/thing', { 'x-api-key': secrets.api_key })).status).toBe(401);
  });

  it('a bearer token, when present, decides: a bad token is not rescued by a good key', async () => {
    const app = appAt(() => T0);
    const res = await call(app, '/v1/thing', { authorization: 'Bearer junk', 'x-api-key': secrets.api_key });
    expect(res.status).toBe(401);
  });
});
