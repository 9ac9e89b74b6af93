/**
 * Authentication and route scopes against the real app (SPEC §5): every route the app publishes in
 * /openapi.json × every kind of credential, good and forged; paths spelled to slip past the scope
 * check; and customer tokens confined to their own customer's resources.
 */
import { randomUUID } from 'node:crypto';
import { generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../src/dev/secrets.js';
import { hiddenFromCustomers } from '../../src/http/middleware/auth.js';
import { useHarness } from '../support/harness.js';

type Expected = 'allowed' | 401 | 403 | 404;

interface Credential {
  name: string;
  headers: () => Promise<Record<string, string>>;
  /** What /v1/* answers; /admin/v1/* answers `admin`; public routes always answer. */
  v1: Expected;
  admin: Expected;
}

interface Operation {
  method: string;
  path: string;
}

const h = useHarness();
let operations: Operation[];

const PUBLIC: Operation[] = ['/health', '/openapi.json', '/docs/api', '/docs/errors'].map((path) => ({ method: 'GET', path }));

beforeAll(async () => {
  const doc = (await (await h.request('GET', '/openapi.json', { as: 'none' })).json()) as { paths: Record<string, Record<string, unknown>> };
  operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, randomUUID()) })),
  );
});

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const nowSeconds = () => Math.floor(Date.now() / 1000);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function signed(payload: JWTPayload, options: { secret?: string; alg?: string } = {}): Promise<string> {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(options.secret ?? h.secrets.jwt_secret));
}

const claims = (scope: string, lifetime = 600, extra: JWTPayload = {}): JWTPayload => ({
  sub: randomUUID(),
  scope,
  iat: nowSeconds(),
  exp: nowSeconds() + lifetime,
  ...extra,
});

/** An HS256-signed token whose header claims another algorithm (algorithm confusion). */
async function relabelled(alg: string): Promise<string> {
  const [, payload, signature] = (await signed(claims('admin'))).split('.');
  return `${b64url({ alg, typ: 'JWT' })}.${payload}.${signature}`;
}

const CREDENTIALS: Credential[] = [
  { name: 'no credentials', headers: async () => ({}), v1: 401, admin: 401 },
  { name: 'an unknown API key', headers: async () => ({ 'x-api-key': `bsk_test_${'Z'.repeat(32)}` }), v1: 401, admin: 401 },
  { name: 'the API key with a wrong prefix', headers: async () => ({ 'x-api-key': h.secrets.api_key.replace(/^bsk_test_/, 'sk_test_') }), v1: 401, admin: 401 },
  { name: 'the API key', headers: async () => ({ 'x-api-key': h.secrets.api_key }), v1: 'allowed', admin: 'allowed' },
  { name: 'a customer token', headers: async () => bearer(await h.customerToken(randomUUID())), v1: 'allowed', admin: 403 },
  { name: 'a customer token whose sub is not a UUID', headers: async () => bearer(await signed(claims('customer', 600, { sub: 'not-a-uuid' }))), v1: 'allowed', admin: 403 },
  { name: 'an admin token', headers: async () => bearer(h.adminToken), v1: 'allowed', admin: 'allowed' },
  { name: 'an admin token living exactly 8 h', headers: async () => bearer(await signed(claims('admin', 8 * 3600))), v1: 'allowed', admin: 'allowed' },
  {
    name: 'an expired token',
    headers: async () => bearer(await issueToken(h.secrets.jwt_secret, { sub: 'a', scope: 'admin' }, 3600, new Date(Date.now() - 2 * 3_600_000))),
    v1: 401,
    admin: 401,
  },
  { name: 'a token signed with another secret', headers: async () => bearer(await signed(claims('admin'), { secret: 'x'.repeat(43) })), v1: 401, admin: 401 },
  { name: 'an alg none token', headers: async () => bearer(`${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims('admin'))}.`), v1: 401, admin: 401 },
  { name: 'an HS512 token with the right secret', headers: async () => bearer(await signed(claims('admin'), { alg: 'HS512' })), v1: 401, admin: 401 },
  {
    name: 'an RS256 token',
    headers: async () => {
      const { privateKey } = await generateKeyPair('RS256');
      return bearer(await new SignJWT(claims('admin')).setProtectedHeader({ alg: 'RS256' }).sign(privateKey));
    },
    v1: 401,
    admin: 401,
  },
  { name: 'an HMAC signature under an RS256 header', headers: async () => bearer(await relabelled('RS256')), v1: 401, admin: 401 },
  { name: 'a customer token living 2 h', headers: async () => bearer(await signed(claims('customer', 2 * 3600))), v1: 401, admin: 401 },
  { name: 'an admin token living 9 h', headers: async () => bearer(await signed(claims('admin', 9 * 3600))), v1: 401, admin: 401 },
  { name: 'a token without scope', headers: async () => bearer(await signed(claims('admin', 600, { scope: undefined }))), v1: 401, admin: 401 },
  { name: 'a token with scope superuser', headers: async () => bearer(await signed(claims('superuser'))), v1: 401, admin: 401 },
  { name: 'a token without sub', headers: async () => bearer(await signed(claims('admin', 600, { sub: undefined }))), v1: 401, admin: 401 },
  { name: 'a token without exp', headers: async () => bearer(await signed(claims('admin', 600, { exp: undefined }))), v1: 401, admin: 401 },
  { name: 'Basic credentials', headers: async () => ({ authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` }), v1: 401, admin: 401 },
];

/** Called by the payment processor and authenticated by its signature, not by credentials (SPEC §4). */
const SIGNED_WEBHOOKS = new Set(['/v1/webhooks/processor']);

function expectedFor(credential: Credential, path: string): Expected {
  if (SIGNED_WEBHOOKS.has(path)) return 'allowed';
  // Shadow billing's routes do not exist for a customer's credentials (404, not 403).
  if (path.startsWith('/admin/v1/')) return credential.admin === 403 && hiddenFromCustomers(path) ? 404 : credential.admin;
  if (path.startsWith('/v1/')) return credential.v1;
  return 'allowed';
}

async function check(res: Response, expected: Expected, context: string): Promise<void> {
  if (expected === 'allowed') {
    expect(res.status, context).not.toBe(401);
    expect(res.status, context).not.toBe(403);
    expect(res.status, context).toBeLessThan(500);
    await res.arrayBuffer();
    return;
  }
  expect(res.status, context).toBe(expected);
  const body = (await res.json()) as { error: { code: string; request_id: string } };
  expect(body.error.code, context).toBe(expected === 401 ? 'unauthenticated' : expected === 404 ? 'not_found' : 'forbidden');
  expect(body.error.request_id, context).toBe(res.headers.get('x-request-id'));
  if (expected === 401) expect(res.headers.get('www-authenticate'), context).toMatch(/^Bearer/);
}

describe('auth matrix', () => {
  it('covers every prefix', () => {
    expect(operations.some((op) => op.path.startsWith('/v1/'))).toBe(true);
    expect(operations.some((op) => op.path.startsWith('/admin/v1/'))).toBe(true);
  });

  it.each(CREDENTIALS.map((c) => [c.name, c] as const))('%s', async (_name, credential) => {
    const headers = await credential.headers();
    for (const op of [...PUBLIC, ...operations]) {
      const res = await h.app.request(op.path, { method: op.method, headers });
      await h.checkErrorCode(op.method, op.path, res);
      await check(res, expectedFor(credential, op.path), `${credential.name}: ${op.method} ${op.path}`);
    }
  });

  it('answers an authorised caller 404 for a subscription that does not exist', async () => {
    for (const as of ['admin', 'api_key', { customer: randomUUID() }] as const) {
      const res = await h.request('GET', `/v1/subscriptions/${randomUUID()}`, { as });
      expect(res.status).toBe(404);
    }
  });
});

describe('API key messages', () => {
  const messageFor = async (key: string) =>
    ((await (await h.request('GET', '/admin/v1/customers', { as: 'none', headers: { 'x-api-key': key } })).json()) as { error: { message: string } }).error.message;

  it('tells a key with the right prefix that it is malformed, and a key without it which prefixes exist', async () => {
    expect(await messageFor('bsk_test_short')).toMatch(/^API key is malformed/);
    expect(await messageFor('sk_test_abcdefghijklmnopqrstuvwxyz')).toBe('API key must start with bsk_live_ or bsk_test_');
    expect(await messageFor(`bsk_live_${'A'.repeat(32)}`)).toBe('invalid API key');
  });
});

describe('paths spelled to slip past the scope check', () => {
  const variants = (path: string) => {
    const rest = path.slice('/admin/v1'.length);
    return [
      `/%61dmin/v1${rest}`,
      `//admin/v1${rest}`,
      `/admin//v1${rest}`,
      `/admin/v1/.${rest}`,
      `/v1/../admin/v1${rest}`,
      `/health/../admin/v1${rest}`,
      `/ADMIN/v1${rest}`,
      `/Admin/V1${rest}`,
      `/admin%2Fv1${rest}`,
      `/admin%2fv1${rest}`,
      `/%2561dmin/v1${rest}`,
      `/admin/v1${rest}/`,
      `/admin/v1${rest}%00`,
      `/admin/v1${rest}?next=/health`,
      `/admin/v1${rest};/health`,
      `\\admin\\v1${rest}`,
    ];
  };

  it('never answers an admin route without credentials', async () => {
    const adminReads = operations.filter((op) => op.method === 'GET' && op.path.startsWith('/admin/v1/'));
    expect(adminReads.length).toBeGreaterThan(0);
    for (const op of adminReads) {
      for (const path of variants(op.path)) {
        const res = await h.app.request(path, { method: 'GET' });
        await h.checkErrorCode('GET', path, res);
        expect([401, 404], path).toContain(res.status);
        await res.arrayBuffer();
      }
    }
  });

  it('never lets a customer token reach an admin route', async () => {
    const headers = bearer(await h.customerToken(randomUUID()));
    for (const op of operations.filter((o) => o.path.startsWith('/admin/v1/'))) {
      for (const path of variants(op.path)) {
        const res = await h.app.request(path, { method: op.method, headers });
        await h.checkErrorCode(op.method, path, res);
        expect([403, 404], `${op.method} ${path}`).toContain(res.status);
        await res.arrayBuffer();
      }
    }
  });
});

describe('customer isolation', () => {
  async function created(path: string, body: object): Promise<string> {
    const res = await h.request('POST', path, { body });
    expect(res.status, `${path}: ${await res.clone().text()}`).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }

  const customer = (name: string) =>
    created('/admin/v1/customers', { display_name: name, email: `${randomUUID()}@example.com`, currency: 'USD', account_type: 'Organization' });

  it("lets a customer token see its own subscription and answers 404 for another customer's", async () => {
    const owner = await customer('Owner Ltd');
    const other = await customer('Other Ltd');
    const plan = await created('/admin/v1/catalog/plans', { name: `isolation-${randomUUID()}`, billing_cadence: 'Monthly' });
    await created('/admin/v1/catalog/skus', { plan_id: plan, name: 'Base fee', pricing_model: 'Flat', unit_amount_nanos: '10000000000000', currency: 'USD' });
    const subscription = await created('/v1/subscriptions', { customer_id: owner, plan_id: plan, currency: 'USD' });

    const own = await h.request('GET', `/v1/subscriptions/${subscription}`, { as: { customer: owner } });
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ id: subscription, customer_id: owner });

    const foreign = await h.request('GET', `/v1/subscriptions/${subscription}`, { as: { customer: other } });
    expect(foreign.status).toBe(404);
    const body = (await foreign.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('subscription_not_found');

    const forOther = await h.request('POST', '/v1/subscriptions', { as: { customer: other }, body: { customer_id: owner, plan_id: plan, currency: 'USD' } });
    expect(forOther.status).toBe(404);
  });
});
