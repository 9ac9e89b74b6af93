/** Environment parsed once, at start, into a typed configuration. */
import { z } from 'zod';

const HEX_64 = /^[0-9a-f]{64}$/;

const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

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
  LOG_LEVEL: logLevel.default('info'),
  TAX_ADAPTER: z.enum(['none', 'flat']).default('none'),
  TAX_RATE_BPS: z.coerce.number().int().min(0).max(10_000).default(0),
  /** How long a closed period's Draft stays open for late usage and consolidation before it is finalized. */
  INVOICE_GRACE_PERIOD_SECONDS: z.coerce.number().int().min(0).max(30 * 86_400).default(3600),
});

const apiSchema = baseSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
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
  /** Usage events: how many seconds after the customer's current time a timestamp may be. */
  /** API processes sharing the port (Node cluster); 1 runs the API in this process alone. */
  API_PROCESSES: z.coerce.number().int().min(1).max(64).default(1),
  EVENT_MAX_FUTURE_SKEW_SECONDS: z.coerce.number().int().min(0).max(7 * 86_400).default(300),
});

export type WorkerConfig = z.infer<typeof baseSchema>;
export type ApiConfig = z.infer<typeof apiSchema>;

/** The secrets the API needs; NODE_ENV=production refuses to start without them. */
export const SECRET_VARIABLES = ['JWT_SECRET', 'API_KEY_HASH', 'PROCESSOR_WEBHOOK_SECRET'] as const;

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

export const loadApiConfig = (env: NodeJS.ProcessEnv = process.env): ApiConfig => parse(apiSchema, env);
export const loadWorkerConfig = (env: NodeJS.ProcessEnv = process.env): WorkerConfig => parse(baseSchema, env);

/** Checks the variables that are set, without requiring the ones the caller will provide. */
export function validatePresent(env: NodeJS.ProcessEnv): void {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const shape = apiSchema.shape;
  const partial = z.object(Object.fromEntries(Object.keys(present).filter((k) => k in shape).map((k) => [k, shape[k as keyof typeof shape]])));
  parse(partial, present);
}
