/**
 * Per-test-file access to the services the global setup started: a real app (real PostgreSQL,
 * real Temporal) plus credentials of every kind for it.
 */
import { afterAll, beforeAll, expect, inject } from 'vitest';
import type { Hono } from 'hono';
import { getPath } from 'hono/utils/url';
import { createDb } from '../../src/db/client.js';
import { apiKeyHash, generateSecrets, issueToken } from '../../src/dev/secrets.js';
import { createApp } from '../../src/http/app.js';
import type { AppDeps, AppEnv, HttpSettings } from '../../src/http/context.js';
import { ROUTES } from '../../src/http/routes/index.js';
import { createLogger } from '../../src/logger.js';
import { DOMAIN_REACTIONS } from '../../src/reactions.js';
import { connectTemporal } from '../../src/temporal/client.js';
import { temporalGateway } from '../../src/temporal/gateway.js';
import { zeroTax, type TaxAdapter } from '../../src/services/billing/tax.js';
import { LOCAL_PROCESSOR_SECRET_KEY } from '../../src/config.js';
import { createStripeProcessor } from '../../src/processor/stripe.js';

export interface Harness {
  app: Hono<AppEnv>;
  deps: AppDeps;
  secrets: ReturnType<typeof generateSecrets>;
  adminToken: string;
  customerToken(customerId: string): Promise<string>;
  /** Calls the app in process; JSON bodies are serialised, `as` picks the credentials. */
  request(method: string, path: string, options?: RequestOptions): Promise<Response>;
  /**
   * Fails the test (softly) when `res` is an error whose code the route's `x-error-codes` do not
   * list; `request` does it for every answer, tests that call `app` themselves call it.
   */
  checkErrorCode(method: string, path: string, res: Response): Promise<void>;
  close(): Promise<void>;
}

/** One operation of the app's OpenAPI document: its route, a regex of its path and the codes it documents. */
interface DocumentedOperation {
  route: string;
  pattern: RegExp;
  codes: Set<string>;
}

/** The operations of the app's own /openapi.json by method (no two path templates match the same path). */
async function documentedOperations(app: Hono<AppEnv>): Promise<Map<string, DocumentedOperation[]>> {
  const doc = (await (await app.request('/openapi.json')).json()) as {
    paths: Record<string, Record<string, { 'x-error-codes'?: string[] }>>;
  };
  const byMethod = new Map<string, DocumentedOperation[]>();
  for (const [template, operations] of Object.entries(doc.paths)) {
    const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
    for (const [method, operation] of Object.entries(operations)) {
      if (!operation['x-error-codes']) continue;
      const list = byMethod.get(method.toUpperCase()) ?? [];
      list.push({
        route: `${method.toUpperCase()} ${template}`,
        pattern: new RegExp(`^${source}$`),
        codes: new Set(operation['x-error-codes']),
      });
      byMethod.set(method.toUpperCase(), list);
    }
  }
  return byMethod;
}

/**
 * Checks an answer of the app against its documentation: an error envelope must carry a code in
 * the `x-error-codes` of the operation that matched. Resolves to the violation, naming route and
 * code, or undefined (success, no envelope, or a path the document does not describe). The
 * document is read from the app once, on the first error answer.
 */
export function documentedCodeChecker(app: Hono<AppEnv>): (method: string, path: string, res: Response) => Promise<string | undefined> {
  let operations: Promise<Map<string, DocumentedOperation[]>> | undefined;
  return async (method, path, res) => {
    if (res.status < 400 || !res.headers.get('content-type')?.includes('application/json')) return undefined;
    const body = (await res.clone().json().catch(() => undefined)) as { error?: { code?: unknown } } | undefined;
    const code = body?.error?.code;
    if (typeof code !== 'string') return undefined;
    // The path as the app routes it: app.request's URL (dot segments collapse), decoded as Hono does.
    const pathname = getPath(new Request(/^https?:\/\//.test(path) ? path : `http://localhost${path.startsWith('/') ? '' : '/'}${path}`));
    const operation = (await (operations ??= documentedOperations(app))).get(method.toUpperCase())?.find((op) => op.pattern.test(pathname));
    if (!operation || operation.codes.has(code)) return undefined;
    return `${operation.route} answered ${res.status} \`${code}\` (${method.toUpperCase()} ${pathname}), which its x-error-codes do not list`;
  };
}

/**
 * Fails the running test without stopping it (a polling helper that catches errors cannot hide
 * the failure, and the test's own assertions still run); outside a test, in a hook, it throws.
 */
function failSoftly(message: string): void {
  if (expect.getState().currentTestName === undefined) throw new Error(message);
  expect.soft(message, message).toBeUndefined();
}

export interface RequestOptions {
  body?: unknown;
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
  as?: 'admin' | 'api_key' | 'none' | { customer: string } | { token: string };
}

export async function createHarness(
  /** Settings, and the task queue of the Temporal gateway (the test worker's unless a test runs its own). */
  { temporalTaskQueue, ...overrides }: Partial<HttpSettings> & { temporalTaskQueue?: string } = {},
  clock: () => Date = () => new Date(),
  tax: TaxAdapter = zeroTax,
  /** The run's database unless a test brings its own (one migrated on the run's server). */
  databaseUrl: string = inject('databaseUrl'),
): Promise<Harness> {
  const secrets = generateSecrets();
  const { db, pool } = createDb(databaseUrl, 5);
  const temporal = await connectTemporal(inject('temporalAddress'), 'default');
  const deps: AppDeps = {
    db,
    pool,
    temporal: temporalGateway(temporal, temporalTaskQueue ?? inject('taskQueue')),
    logger: createLogger(process.env.LOG_LEVEL ?? 'silent', 'test-api'),
    clock,
    reactions: DOMAIN_REACTIONS,
    tax,
    processor: createStripeProcessor({ apiBase: inject('stripeMockUrl'), secretKey: LOCAL_PROCESSOR_SECRET_KEY }),
    settings: {
      jwtSecret: secrets.jwt_secret,
      apiKeyHash: apiKeyHash(secrets.api_key),
      temporalNamespace: 'default',
      invoiceGraceMs: inject('invoiceGraceMs'),
      webhooks: inject('webhookSettings'),
      bodyLimitBytes: 1024 * 1024,
      rateLimit: { ratePerSecond: 10_000, burst: 10_000 },
      anonymousRateLimit: { ratePerSecond: 10_000, burst: 10_000 },
      idempotencyTtlMs: 24 * 3_600_000,
      processorWebhookSecret: secrets.processor_webhook_secret,
      hostedLinks: { secret: secrets.hosted_link_secret, ttlDays: 30, baseUrl: 'http://billing.test' },
      documents: inject('documentSettings'),
      // Fixtures date their events on fixed days of 2026 in real time: the lateness limit
      // (LATE_USAGE_MAX_DAYS, default 35) would refuse them; the events tests check the default.
      lateUsageMaxDays: 3660,
      ...overrides,
    },
  };
  const app = createApp(deps, ROUTES);
  const adminToken = await issueToken(secrets.jwt_secret, { sub: 'test-admin', scope: 'admin' }, 3600);
  const undocumentedCode = documentedCodeChecker(app);
  const checkErrorCode = async (method: string, path: string, res: Response) => {
    const violation = await undocumentedCode(method, path, res);
    if (violation) failSoftly(violation);
  };
  const customerTokens = new Map<string, string>();
  const customerToken = async (customerId: string) => {
    let token = customerTokens.get(customerId);
    if (!token) {
      token = await issueToken(secrets.jwt_secret, { sub: customerId, scope: 'customer' }, 3600);
      customerTokens.set(customerId, token);
    }
    return token;
  };

  return {
    app,
    deps,
    secrets,
    adminToken,
    customerToken,
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      const as = options.as ?? 'admin';
      if (as === 'admin') headers.authorization = `Bearer ${adminToken}`;
      else if (as === 'api_key') headers['x-api-key'] = secrets.api_key;
      else if (as !== 'none') headers.authorization = `Bearer ${'customer' in as ? await customerToken(as.customer) : as.token}`;
      let body: string | Uint8Array | undefined = options.rawBody;
      if (options.body !== undefined) body = JSON.stringify(options.body);
      if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
        headers['content-type'] = 'application/json';
      }
      const res = await app.request(path, { method, headers, ...(body !== undefined ? { body } : {}) });
      // Every error answer of the suite proves the route's documented codes complete.
      await checkErrorCode(method, path, res);
      return res;
    },
    checkErrorCode,
    async close() {
      await Promise.allSettled([db.$disconnect(), temporal.connection.close()]);
      await pool.end().catch(() => {});
    },
  };
}

/**
 * The harness of a test file: created in a beforeAll and closed in an afterAll that this call
 * registers. Called at the top of the file, before the file's own hooks: its beforeAll runs first,
 * and (hooks after tests run in reverse order) its afterAll last, so the file's own hooks can use
 * the harness on both sides. The returned object stands for the harness and answers only between
 * those two hooks, in the file's hooks and tests.
 */
export function useHarness(...args: Parameters<typeof createHarness>): Harness {
  let current: Harness | undefined;
  beforeAll(async () => {
    current = await createHarness(...args);
  });
  afterAll(async () => {
    await current?.close();
    current = undefined;
  });
  const harness = (): Harness => {
    if (!current) throw new Error('the harness of useHarness() exists only inside the hooks and tests of its file');
    return current;
  };
  return new Proxy({} as Harness, {
    get: (_target, key) => Reflect.get(harness(), key),
    set: (_target, key, value) => Reflect.set(harness(), key, value),
    has: (_target, key) => Reflect.has(harness(), key),
    ownKeys: () => Reflect.ownKeys(harness()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(harness(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}

/**
 * Workflow ids a test file leaves running (its tests push them), terminated in an afterAll this
 * call registers. Called after `useHarness`, so that the workflows end before the harness closes;
 * a workflow that already ended is skipped.
 */
export function terminatedAfterAll(h: Harness): string[] {
  const workflowIds: string[] = [];
  afterAll(async () => {
    for (const workflowId of workflowIds) {
      await h.deps.temporal.client.workflow.getHandle(workflowId).terminate('test done').catch(() => undefined);
    }
  });
  return workflowIds;
}

/** Asserts the response status (showing the body when it differs) and returns the parsed body. */
export async function expectJson<T>(res: Response, status = 200): Promise<T> {
  const body = (await res.json()) as T;
  expect(res.status, JSON.stringify(body)).toBe(status);
  return body;
}

export interface PageBody<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * Asserts a list response: a JSON array body, with X-Has-More, and X-Next-Cursor and a Link
 * rel="next" carrying the same cursor when there is more. Returns the page as one object.
 */
export async function expectPage<T>(res: Response, status = 200): Promise<PageBody<T>> {
  const data = await expectJson<T[]>(res, status);
  expect(Array.isArray(data), 'a list body is a JSON array').toBe(true);
  const hasMore = res.headers.get('x-has-more');
  expect(['true', 'false']).toContain(hasMore);
  const cursor = res.headers.get('x-next-cursor');
  const link = res.headers.get('link');
  if (hasMore === 'true') {
    expect(cursor).toBeTruthy();
    expect(link).toMatch(new RegExp(`^<[^>]*[?&]starting_after=${cursor}(&[^>]*)?>; rel="next"$`));
  } else {
    expect([cursor, link]).toEqual([null, null]);
  }
  return { data, has_more: hasMore === 'true', next_cursor: cursor };
}
