import { Validator } from '@seriousme/openapi-schema-validator';
import { pino } from 'pino';
import Stripe from 'stripe';
import { describe, expect, inject, it } from 'vitest';
import { connectTemporal } from '../../src/temporal/client.js';
import { createDb } from '../../src/db/client.js';
import { ERROR_CODES, ISSUE_CODES } from '../../src/http/error-codes.js';
import { createHarness, useHarness } from '../support/harness.js';

const h = useHarness();

describe('GET /health', () => {
  it('is public and reports database and Temporal ok', async () => {
    const res = await h.request('GET', '/health', { as: 'none' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ status: 'ok', down: [], checks: { database: { status: 'ok' }, temporal: { status: 'ok' } } });
  });

  it('answers 503 naming Temporal when Temporal is down', async () => {
    const broken = await createHarness();
    await broken.deps.temporal.connection.close();
    const res = await broken.request('GET', '/health', { as: 'none' });
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body).toMatchObject({ status: 'degraded', down: ['temporal'], checks: { database: { status: 'ok' }, temporal: { status: 'down' } } });
    await broken.close();
  });

  it('answers 503 naming the database when PostgreSQL is down', async () => {
    const broken = await createHarness();
    const dead = createDb('postgresql://postgres@127.0.0.1:1/none', 1);
    broken.deps.pool = dead.pool;
    const res = await broken.request('GET', '/health', { as: 'none' });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ down: ['database'], checks: { database: { status: 'down' }, temporal: { status: 'ok' } } });
    await dead.pool.end();
    await broken.close();
  });
});

describe('API description', () => {
  it('serves an OpenAPI 3.0 document with security schemes and the error envelope', async () => {
    const res = await h.request('GET', '/openapi.json', { as: 'none' });
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, unknown>;
      components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
    };
    expect(doc.openapi).toMatch(/^3\.0\.\d+$/);
    expect(Object.keys(doc.paths)).toContain('/health');
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiKey', 'bearerAuth']);
  });

  it('is a valid OpenAPI 3.0 document by the official schema, declaring its own routes', async () => {
    const doc = (await (await h.request('GET', '/openapi.json', { as: 'none' })).json()) as Record<string, unknown> & { paths: Record<string, unknown> };
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toMatch(/^3\.0/);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/health', '/openapi.json', '/docs/api']));
  });

  it('lists every error code with its status and meaning, and every issue code', async () => {
    const doc = (await (await h.request('GET', '/openapi.json', { as: 'none' })).json()) as {
      info: { description: string };
      'x-error-codes': unknown;
      'x-issue-codes': unknown;
      paths: Record<string, Record<string, { responses: Record<string, { description: string }>; 'x-error-codes': string[] }>>;
    };
    expect(doc['x-error-codes']).toEqual(ERROR_CODES);
    expect(doc['x-issue-codes']).toEqual(ISSUE_CODES);
    // The reference opens with getting started and the endpoints; the code catalogue has its own page.
    expect(doc.info.description).toMatch(/\*\*Getting started\*\*/);
    expect(doc.info.description).toContain('npm run token -- customer');
    expect(doc.info.description).toContain('(/docs/errors)');
    expect(doc.info.description).not.toContain('| `not_found` |');
    expect(doc.info.description.length).toBeLessThan(8_000);
    const page = await h.request('GET', '/docs/errors', { as: 'none' });
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const [code, { status }] of Object.entries(ERROR_CODES)) expect(html).toContain(`<tr><td><code>${code}</code></td><td>${status}</td>`);
    for (const code of Object.keys(ISSUE_CODES)) expect(html).toContain(`<tr><td><code>${code}</code></td>`);
    // Each route's error responses name only the codes that route can answer with.
    const products = doc.paths['/admin/v1/catalog/products']!.post!.responses;
    expect(Object.keys(products).sort()).toEqual(['201', '400', '401', '403', '409', '413', '415', '422', '429', '500', '503']);
    expect(products['415']!.description).toContain('`unsupported_media_type`');
    expect(products['503']!.description).toContain('`service_unavailable`');
    expect(products['422']!.description).toContain('`idempotency_key_reused`');
    expect(products['422']!.description).not.toContain('`currency_mismatch`');
    expect(Object.keys(doc.paths['/admin/v1/catalog/products']!.get!.responses).sort()).toEqual(['200', '400', '401', '403', '429', '500', '503']);
    const subscribe = doc.paths['/v1/subscriptions']!.post!;
    expect(subscribe.responses['404']!.description).toMatch(/`customer_not_found`, `plan_not_found`$/);
    expect(subscribe.responses['422']!.description).toContain('`currency_mismatch`');
    expect(subscribe['x-error-codes']).toEqual(expect.arrayContaining(['customer_not_active', 'plan_has_no_skus', 'validation_failed']));
    expect(subscribe['x-error-codes']).not.toContain('webhook_delivery_not_found');
  });

  it('renders the reference at /docs/api from local assets only', async () => {
    const page = await h.request('GET', '/docs/api', { as: 'none' });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    const scripts = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThanOrEqual(3);
    for (const asset of scripts) {
      const res = await h.request('GET', asset, { as: 'none' });
      expect(res.status, asset).toBe(200);
      expect((await res.arrayBuffer()).byteLength, asset).toBeGreaterThan(1000);
    }
  });
});

describe('test peers', () => {
  it('reaches stripe-mock with the official stripe SDK', async () => {
    const url = new URL(inject('stripeMockUrl'));
    const stripe = new Stripe('sk_test_123', { host: url.hostname, port: Number(url.port), protocol: 'http' });
    const intent = await stripe.paymentIntents.create({ amount: 1999, currency: 'usd' });
    expect(intent.object).toBe('payment_intent');
    expect(intent.id).toMatch(/^pi_/);
  });

  it('reaches the Temporal dev server', async () => {
    const handle = await connectTemporal(inject('temporalAddress'), 'default');
    const info = await handle.connection.workflowService.getSystemInfo({});
    expect(info.serverVersion).toMatch(/^\d+\.\d+/);
    await handle.connection.close();
  });
});

describe('access log', () => {
  it('writes one line per request, naming the error code of an error answer', async () => {
    const lines: Record<string, unknown>[] = [];
    const logged = await createHarness();
    logged.deps.logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    try {
      const missing = await logged.request('GET', '/admin/v1/customers/01900000-0000-7000-8000-000000000000');
      const unknownQuery = await logged.request('GET', '/admin/v1/customers?customer=1');
      const ok = await logged.request('GET', '/health', { as: 'none' });
      const access = (res: Response) => lines.find((l) => l.msg === 'request' && l.request_id === res.headers.get('x-request-id'));
      expect(access(missing)).toMatchObject({ status: 404, error_code: 'customer_not_found', path: '/admin/v1/customers/01900000-0000-7000-8000-000000000000' });
      expect(access(unknownQuery)).toMatchObject({ status: 400, error_code: 'validation_failed' });
      expect(access(ok)).toMatchObject({ status: 200 });
      expect(access(ok)).not.toHaveProperty('error_code');
    } finally {
      await logged.close();
    }
  });
});
