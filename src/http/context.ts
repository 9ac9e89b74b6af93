import type { OpenAPIHono } from '@hono/zod-openapi';
import type pg from 'pg';
import type { Db } from '../db/client.js';
import type { Logger } from '../logger.js';
import type { TaxAdapter } from '../services/tax.js';
import type { TemporalHandle } from '../temporal/client.js';

/** Who is calling, as established by the auth middleware. */
export interface Principal {
  kind: 'jwt' | 'api_key';
  scope: 'customer' | 'admin';
  /** JWT `sub` (customer id for customer tokens) or the API key's fingerprint. */
  subject: string;
}

export interface HttpSettings {
  jwtSecret: string;
  apiKeyHash: string;
  temporalNamespace: string;
  temporalTaskQueue: string;
  /** The worker's invoice grace period (INVOICE_GRACE_PERIOD_SECONDS): test clocks drive closed periods through it. */
  invoiceGraceMs: number;
  bodyLimitBytes: number;
  /** Per authenticated caller. */
  rateLimit: { ratePerSecond: number; burst: number };
  /** Per client address, for requests without valid credentials. */
  anonymousRateLimit: { ratePerSecond: number; burst: number };
  idempotencyTtlMs: number;
  /** How far after the customer's "now" a usage event's timestamp may be (default 5 minutes). */
  eventMaxFutureSkewMs?: number;
}

/** Everything a handler may use, set once per app. */
export interface AppDeps {
  db: Db;
  pool: pg.Pool;
  temporal: TemporalHandle;
  logger: Logger;
  settings: HttpSettings;
  tax: TaxAdapter;
  clock: () => Date;
}

export interface AppEnv {
  Variables: {
    requestId: string;
    logger: Logger;
    deps: AppDeps;
    principal: Principal | undefined;
  };
}

export type App = OpenAPIHono<AppEnv>;
