/**
 * Each route's documented error codes (src/http/route-errors.ts), read from the OpenAPI document the
 * app generates: every code is in the catalogue, every route has the codes any request can meet on
 * it, and its error responses are exactly its codes by status. The integration suite proves the
 * lists complete (the harness checks every error answer against them); here, that check itself.
 */
import { describe, expect, it } from 'vitest';
import { newApp } from '../../src/http/app.js';
import { ERROR_CODES } from '../../src/http/error-codes.js';
import { hiddenFromCustomers, routeAccess } from '../../src/http/middleware/auth.js';
import { registerDocs } from '../../src/http/routes/docs.js';
import { registerHealth } from '../../src/http/routes/health.js';
import { ROUTES } from '../../src/http/routes/index.js';
import { documentedCodeChecker } from '../support/harness.js';

interface Operation {
  responses: Record<string, unknown>;
  'x-error-codes'?: string[];
}

/** The app's routes and its document, without the middleware (which needs the services). */
const app = newApp();
registerHealth(app);
for (const register of ROUTES) register(app);
registerDocs(app);
const doc = (await (await app.request('/openapi.json')).json()) as { paths: Record<string, Record<string, Operation>> };
const operations = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
  Object.entries(byMethod).map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, method, path, operation })),
);
const documented = operations.filter(({ operation }) => operation['x-error-codes'] !== undefined);
const status = (code: string) => (ERROR_CODES as Record<string, { status: number }>)[code]?.status;

const envelope = (code: string, statusCode = status(code) ?? 500) =>
  new Response(JSON.stringify({ error: { code, message: 'm', request_id: 'r' } }), { status: statusCode, headers: { 'content-type': 'application/json' } });

describe("each route's error codes", () => {
  it('documents the routes the app registers (all but the pages of the reference itself)', () => {
    expect(documented.length).toBeGreaterThan(100);
    expect(operations.filter(({ operation }) => operation['x-error-codes'] === undefined).map(({ route }) => route).sort()).toEqual([
      'GET /docs/api',
      'GET /docs/errors',
      'GET /openapi.json',
    ]);
  });

  it('names only codes of the catalogue', () => {
    const unknown = documented.flatMap(({ route, operation }) => operation['x-error-codes']!.filter((code) => status(code) === undefined).map((code) => `${route}: ${code}`));
    expect(unknown).toEqual([]);
  });

  it('has on every route the codes any request can meet on it', () => {
    const missing = documented.flatMap(({ route, method, path, operation }) => {
      const access = routeAccess(path.replace(/\{[^}]+\}/g, 'x'));
      const baseline = ['validation_failed', 'rate_limited', 'internal_error', 'service_unavailable'];
      // A customer's credentials on a route hidden from customers: 404 not_found instead of 403.
      if (access === 'admin' || access === 'customer_or_admin') baseline.push('unauthenticated', hiddenFromCustomers(path) ? 'not_found' : 'forbidden');
      // The body checks run on every request of these methods, whether the route takes a body or not.
      if (method !== 'get') baseline.push('payload_too_large');
      if (['post', 'put', 'patch'].includes(method)) baseline.push('malformed_json', 'unsupported_media_type');
      if (method !== 'get' && access !== 'signature') baseline.push('invalid_idempotency_key', 'idempotency_key_in_use', 'idempotency_key_reused');
      return baseline.filter((code) => !operation['x-error-codes']!.includes(code)).map((code) => `${route}: ${code}`);
    });
    expect(missing).toEqual([]);
  });

  it('answers each of its codes under its status, and no error status without a code', () => {
    const wrong = documented.flatMap(({ route, operation }) => {
      const expected = new Set(operation['x-error-codes']!.map((code) => String(status(code))));
      const declared = Object.keys(operation.responses).filter((s) => Number(s) >= 400);
      return [...expected].filter((s) => !declared.includes(s)).concat(declared.filter((s) => !expected.has(s))).map((s) => `${route}: ${s}`);
    });
    expect(wrong).toEqual([]);
  });
});

describe('the check of every error answer (test harness)', () => {
  const undocumented = documentedCodeChecker(app);

  it('names the route and the code of an error answer its route does not document', async () => {
    expect(await undocumented('POST', '/admin/v1/catalog/products', envelope('invoice_not_found'))).toBe(
      'POST /admin/v1/catalog/products answered 404 `invoice_not_found` (POST /admin/v1/catalog/products), which its x-error-codes do not list',
    );
    // The path template matches any id, with or without a query string.
    expect(await undocumented('GET', '/admin/v1/invoices/0b6a0f3e-1111-4222-8333-444455556666?x=1', envelope('meter_not_found'))).toMatch(/^GET \/admin\/v1\/invoices\/\{id\} answered 404 `meter_not_found`/);
  });

  it('lets documented codes, successes, other bodies and paths outside the document through', async () => {
    expect(await undocumented('GET', '/admin/v1/invoices/abc', envelope('invoice_not_found'))).toBeUndefined();
    expect(await undocumented('POST', '/admin/v1/catalog/products', envelope('validation_failed'))).toBeUndefined();
    expect(await undocumented('GET', '/admin/v1/invoices/abc', new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } }))).toBeUndefined();
    expect(await undocumented('GET', '/admin/v1/invoices/abc', new Response('not found', { status: 404 }))).toBeUndefined();
    expect(await undocumented('GET', '/no/such/route', envelope('not_found'))).toBeUndefined();
    expect(await undocumented('DELETE', '/admin/v1/invoices/abc', envelope('not_found'))).toBeUndefined();
    // Resolved as the app routes it: `/admin/v1/customers/..` is `/admin/v1/` and `\admin\v1/customers` is
    // `//admin/v1/customers`, no route; `/%61dmin/v1/customers` is the customer list.
    expect(await undocumented('GET', '/admin/v1/customers/..', envelope('not_found'))).toBeUndefined();
    expect(await undocumented('GET', '\\admin\\v1/customers', envelope('not_found'))).toBeUndefined();
    expect(await undocumented('GET', '/%61dmin/v1/customers', envelope('not_found'))).toMatch(/^GET \/admin\/v1\/customers answered 404 `not_found`/);
  });
});
