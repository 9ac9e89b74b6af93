/** Environment parsed once, at start, into a typed configuration. */
import { z } from 'zod';
import {
  DEFAULT_WEBHOOK_BREAKER_OPEN_SECONDS,
  DEFAULT_WEBHOOK_BREAKER_THRESHOLD,
  DEFAULT_WEBHOOK_DISABLE_AFTER_SECONDS,
  DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  retryScheduleProblems,
} from './core/webhooks.js';
import { CoreValidationError, DEFAULT_DUNNING_SCHEDULE_DAYS, parseDunningSchedule, usageRetentionProblem } from './core/index.js';

const HEX_64 = /^[0-9a-f]{64}$/;
/** The payment processor's production API (PROCESSOR_API_BASE's default). */
export const STRIPE_API_BASE = 'https://api.stripe.com';

const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/** SELLER_ADDRESS lines: separated by newlines, or by a backslash-n where an env file cannot hold a newline. */
const addressLines = (text: string): string[] =>
  text
    .split(/\r?\n|\\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);

const baseSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z
    .string()
    .refine((v) => /^postgres(ql)?:\/\/[^/]+/.test(v), 'must be a postgres:// or postgresql:// URL'),
  TEMPORAL_ADDRESS: z
    .string()
    .regex(/^[A-Za-z0-9.\-[\]:]+:\d{1,5}$/, 'must be host:port, e.g. 127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('billing'),
  /** TLS to the Temporal frontend (system CAs unless TEMPORAL_TLS_CA_PATH); implied by a client certificate or an API key. */
  TEMPORAL_TLS: z
    .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** mTLS client certificate and key (PEM files), as self-hosted clusters with mTLS and Temporal Cloud's certificate auth use. */
  TEMPORAL_TLS_CERT_PATH: z.string().min(1).optional(),
  TEMPORAL_TLS_KEY_PATH: z.string().min(1).optional(),
  /** A CA bundle (PEM file) for a cluster whose certificate is not signed by a system CA. */
  TEMPORAL_TLS_CA_PATH: z.string().min(1).optional(),
  /** The name the server's certificate is checked against, when it differs from TEMPORAL_ADDRESS's host. */
  TEMPORAL_TLS_SERVER_NAME: z.string().min(1).optional(),
  /** A Temporal Cloud API key (sent as a bearer token over TLS). */
  TEMPORAL_API_KEY: z.string().min(1).optional(),
  LOG_LEVEL: logLevel.default('info'),
  TAX_ADAPTER: z.enum(['none', 'flat']).default('none'),
  TAX_RATE_BPS: z.coerce.number().int().min(0).max(10_000).default(0),
  /** How long a closed period's Draft stays open for late usage and consolidation before it is finalized. */
  INVOICE_GRACE_PERIOD_SECONDS: z.coerce.number().int().min(0).max(30 * 86_400).default(3600),
  ENTITLEMENT_CHECK_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  USAGE_SUMMARY_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  TEST_CLOCK_DRIVE: z.enum(['activity', 'workflow']).default('activity'),
  /** Usage events: how many days after its timestamp an event is still taken (and billed as late usage). The API's door; the worker's retention is checked against it. */
  LATE_USAGE_MAX_DAYS: z.coerce.number().int().min(1).max(366).default(35),
  /** Raw usage events older than this many days (customer time) in closed, rolled-up periods are deleted daily; unset: kept forever. */
  USAGE_EVENT_RETENTION_DAYS: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(2).max(36_500).optional()),
  /** Webhook attempts: seconds before each, counted from the previous attempt (the first is normally 0). */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default(DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS.join(','))
    .refine((v) => /^\s*\d{1,7}(\s*,\s*\d{1,7})*\s*$/.test(v), 'must be comma-separated whole seconds, e.g. "0,30,300,1800,14400"')
    .transform((v) => v.split(',').map((s) => Number(s.trim())))
    .refine((seconds) => retryScheduleProblems(seconds).length === 0, 'must list 1 to 20 attempts'),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(DEFAULT_WEBHOOK_TIMEOUT_MS),
  WEBHOOK_BREAKER_THRESHOLD: z.coerce.number().int().min(1).max(1000).default(DEFAULT_WEBHOOK_BREAKER_THRESHOLD),
  WEBHOOK_BREAKER_OPEN_SECONDS: z.coerce.number().int().min(1).max(86_400).default(DEFAULT_WEBHOOK_BREAKER_OPEN_SECONDS),
  /** An endpoint whose attempts have all failed for this long is disabled (Stripe-like; 3 days by default). */
  WEBHOOK_DISABLE_AFTER_SECONDS: z.coerce.number().int().min(1).max(365 * 86_400).default(DEFAULT_WEBHOOK_DISABLE_AFTER_SECONDS),
  /** Production mode refuses webhook URLs on loopback, link-local and private addresses unless this is true. */
  WEBHOOK_ALLOW_PRIVATE_URLS: z
    .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** The payment processor's API (Stripe's, or stripe-mock locally and in tests). */
  PROCESSOR_API_BASE: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).default(STRIPE_API_BASE),
  /** The processor's secret API key; outside production it defaults to one stripe-mock accepts. */
  PROCESSOR_SECRET_KEY: z.string().min(1).optional(),
  /** Days after a failed payment when dunning retries it (SPEC default 3,7,14,21). */
  DUNNING_SCHEDULE_DAYS: z
    .string()
    .default(DEFAULT_DUNNING_SCHEDULE_DAYS.join(','))
    .transform((text, ctx) => {
      try {
        return parseDunningSchedule(text);
      } catch (err) {
        ctx.addIssue({ message: err instanceof CoreValidationError ? err.message : 'is not a list of days', code: 'custom' });
        return z.NEVER;
      }
    }),
  /** The seller block of invoice documents (issue 19). */
  SELLER_NAME: z.string().trim().min(1).max(200).default('Billing Engine'),
  SELLER_ADDRESS: z.string().max(1000).default('').transform(addressLines),
  SELLER_TAX_ID: z.string().trim().min(1).max(64).optional(),
  /** A PNG or JPEG file printed at the top of invoice documents. */
  SELLER_LOGO_PATH: z.string().min(1).optional(),
  /** Locale of the amounts on invoice documents (digit grouping, decimal mark, currency sign). */
  DOCUMENT_LOCALE: z
    .string()
    .default('en-US')
    .refine((v) => {
      try {
        return Intl.NumberFormat.supportedLocalesOf(v).length > 0;
      } catch {
        return false;
      }
    }, 'must be a BCP 47 locale this runtime supports, e.g. en-US or de-DE'),
});

/** Checks across variables of the base configuration. */
function checkBase(config: z.infer<typeof baseSchema>, ctx: z.RefinementCtx): void {
  if ((config.TEMPORAL_TLS_CERT_PATH === undefined) !== (config.TEMPORAL_TLS_KEY_PATH === undefined)) {
    // Named as the missing one: "TEMPORAL_TLS_KEY_PATH is not set".
    const missing = config.TEMPORAL_TLS_CERT_PATH === undefined ? 'TEMPORAL_TLS_CERT_PATH' : 'TEMPORAL_TLS_KEY_PATH';
    ctx.addIssue({ code: 'custom', path: [missing], message: 'must be set with the other half of the client certificate pair' });
  }
  if (config.USAGE_EVENT_RETENTION_DAYS !== undefined) {
    const problem = usageRetentionProblem(config.USAGE_EVENT_RETENTION_DAYS, config.LATE_USAGE_MAX_DAYS);
    if (problem !== null) ctx.addIssue({ code: 'custom', path: ['USAGE_EVENT_RETENTION_DAYS'], message: problem });
  }
}

const apiSchema = baseSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Listen address; unset, 127.0.0.1 in local mode and 0.0.0.0 with NODE_ENV=production (containers). */
  HOST: z.string().min(1).optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters (HS256 key)'),
  API_KEY_HASH: z
    .string()
    .transform((v) => v.toLowerCase())
    .refine((v) => HEX_64.test(v), 'must be the SHA-256 hex (64 hex characters) of the API key'),
  PROCESSOR_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters'),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(5 * 1024 * 1024),
  RATE_LIMIT_RPS: z.coerce.number().positive().default(200),
  RATE_LIMIT_BURST: z.coerce.number().int().positive().default(400),
  RATE_LIMIT_ANON_RPS: z.coerce.number().positive().default(20),
  RATE_LIMIT_ANON_BURST: z.coerce.number().int().positive().default(40),
  IDEMPOTENCY_TTL_HOURS: z.coerce.number().positive().default(24),
  /** API processes sharing the port (Node cluster); 1 runs the API in this process alone. */
  API_PROCESSES: z.coerce.number().int().min(1).max(64).default(1),
  /** Usage events: how many seconds after the customer's current time a timestamp may be. */
  EVENT_MAX_FUTURE_SKEW_SECONDS: z.coerce.number().int().min(0).max(7 * 86_400).default(300),
  /** HMAC key of hosted invoice links (hosted_invoice_url). */
  HOSTED_LINK_SECRET: z.string().min(32, 'must be at least 32 characters'),
  /** Hosted invoice links expire this many days after the invoice's due date (invoice time). */
  HOSTED_LINK_TTL_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Customer portal links (POST /admin/v1/customers/:id/portal-sessions) work this many minutes after they are minted or renewed. */
  PORTAL_SESSION_TTL_MINUTES: z.coerce.number().int().min(1).max(7 * 24 * 60).default(60),
  /** The API's address as payers reach it, for hosted_invoice_url; default http://HOST:PORT. */
  PUBLIC_URL: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional(),
  /** The Temporal UI as operators reach it: the operator views (/admin) link each resource to its workflow there. */
  TEMPORAL_UI_URL: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).default('http://localhost:8233'),
});

export type WorkerConfig = z.infer<typeof baseSchema>;

/**
 * Database connections of a worker process, by default: twice the former fixed 20, so each of its
 * two billing task queues runs 20 activities (the 1,000-subscription bill-run bench ran with it).
 */
export const DEFAULT_WORKER_DB_POOL_SIZE = 40;
/** Workflow tasks run at once per task queue of a worker process, by default (the SDK's own default). */
export const DEFAULT_WORKER_WORKFLOW_TASK_SLOTS = 40;

/**
 * A worker process's capacity: its database pool, the activities each of its subscription and
 * invoice task queues runs at once (half the pool unless set: an activity holds at most one
 * connection, and the two queues must not wait for connections), and the workflow tasks per queue.
 */
const workerCapacitySchema = z
  .object({
    WORKER_DB_POOL_SIZE: z.coerce.number().int().min(2).max(1000).default(DEFAULT_WORKER_DB_POOL_SIZE),
    WORKER_ACTIVITY_SLOTS: z.coerce.number().int().min(1).max(1000).optional(),
    WORKER_WORKFLOW_TASK_SLOTS: z.coerce.number().int().min(2).max(1000).default(DEFAULT_WORKER_WORKFLOW_TASK_SLOTS),
  })
  .transform((v) => ({
    dbPoolSize: v.WORKER_DB_POOL_SIZE,
    activitySlots: v.WORKER_ACTIVITY_SLOTS ?? Math.max(1, Math.floor(v.WORKER_DB_POOL_SIZE / 2)),
    workflowTaskSlots: v.WORKER_WORKFLOW_TASK_SLOTS,
  }));

export type WorkerCapacity = z.infer<typeof workerCapacitySchema>;

/** The processor's API key used against stripe-mock (which accepts any sk_test_ key) when none is configured. */
export const LOCAL_PROCESSOR_SECRET_KEY = 'sk_test_localstripemock';

/** The processor settings: NODE_ENV=production requires a real key, elsewhere the local default applies. */
export function processorSettings(config: WorkerConfig): { apiBase: string; secretKey: string } {
  if (config.PROCESSOR_SECRET_KEY === undefined && config.NODE_ENV === 'production') {
    throw new ConfigError('invalid configuration: NODE_ENV=production requires PROCESSOR_SECRET_KEY');
  }
  return { apiBase: config.PROCESSOR_API_BASE, secretKey: config.PROCESSOR_SECRET_KEY ?? LOCAL_PROCESSOR_SECRET_KEY };
}
export type ApiConfig = z.infer<typeof apiSchema>;

/** The secrets the API needs; NODE_ENV=production refuses to start without them. */
export const SECRET_VARIABLES = ['JWT_SECRET', 'API_KEY_HASH', 'PROCESSOR_WEBHOOK_SECRET', 'HOSTED_LINK_SECRET'] as const;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

function parse<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = issue.path.join('.');
      return env[name] === undefined || env[name] === '' ? `${name} is not set` : `${name} ${issue.message}`;
    });
    throw new ConfigError(`invalid configuration: ${[...new Set(problems)].join('; ')}`);
  }
  return parsed.data;
}

export const loadApiConfig = (env: NodeJS.ProcessEnv = process.env): ApiConfig => parse(apiSchema.superRefine(checkBase), env);
export const loadWorkerConfig = (env: NodeJS.ProcessEnv = process.env): WorkerConfig => parse(baseSchema.superRefine(checkBase), env);
export const loadWorkerCapacity = (env: NodeJS.ProcessEnv = process.env): WorkerCapacity => parse(workerCapacitySchema, env);

/** Checks the variables that are set, without requiring the ones the caller will provide. */
export function validatePresent(env: NodeJS.ProcessEnv): void {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const shape = apiSchema.shape;
  const partial = z.object(Object.fromEntries(Object.keys(present).filter((k) => k in shape).map((k) => [k, shape[k as keyof typeof shape]])));
  parse(partial, present);
}
