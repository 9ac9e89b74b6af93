/** API process: HTTP only; long work happens in workflows run by the worker process. */
import { serve } from '@hono/node-server';
import { loadApiConfig } from './config.js';
import { createDb } from './db/client.js';
import { createApp } from './http/app.js';
import type { AppDeps } from './http/context.js';
import { purgeExpiredIdempotencyKeys } from './http/middleware/idempotency.js';
import { ROUTES } from './http/routes/index.js';
import { createLogger } from './logger.js';
import { createTaxAdapter } from './services/tax.js';
import { checkDatabase, connectTemporalOrFail, runMain } from './startup.js';

const PURGE_INTERVAL_MS = 10 * 60_000;

runMain('api', async () => {
  const config = loadApiConfig();
  const logger = createLogger(config.LOG_LEVEL, 'api');
  await checkDatabase(config.DATABASE_URL);
  const temporal = await connectTemporalOrFail(config.TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE);
  const { db, pool } = createDb(config.DATABASE_URL);

  const deps: AppDeps = {
    db,
    pool,
    temporal,
    logger,
    clock: () => new Date(),
    tax: createTaxAdapter(config.TAX_ADAPTER, config.TAX_RATE_BPS),
    settings: {
      jwtSecret: config.JWT_SECRET,
      apiKeyHash: config.API_KEY_HASH,
      temporalNamespace: config.TEMPORAL_NAMESPACE,
      temporalTaskQueue: config.TEMPORAL_TASK_QUEUE,
      invoiceGraceMs: config.INVOICE_GRACE_PERIOD_SECONDS * 1000,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
      rateLimit: { ratePerSecond: config.RATE_LIMIT_RPS, burst: config.RATE_LIMIT_BURST },
      anonymousRateLimit: { ratePerSecond: config.RATE_LIMIT_ANON_RPS, burst: config.RATE_LIMIT_ANON_BURST },
      idempotencyTtlMs: config.IDEMPOTENCY_TTL_HOURS * 3_600_000,
      eventMaxFutureSkewMs: config.EVENT_MAX_FUTURE_SKEW_SECONDS * 1000,
    },
  };
  const app = createApp(deps, ROUTES);

  const purge = setInterval(() => {
    purgeExpiredIdempotencyKeys(db, new Date()).then(
      (count) => count > 0 && logger.info({ count }, 'purged expired idempotency keys'),
      (err: unknown) => logger.warn({ err }, 'idempotency purge failed'),
    );
  }, PURGE_INTERVAL_MS);
  purge.unref();

  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: '0.0.0.0' }, (info) => {
    logger.info({ port: info.port }, 'api listening');
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'api shutting down');
    clearInterval(purge);
    server.close(async () => {
      await Promise.allSettled([db.$disconnect(), temporal.connection.close()]);
      await pool.end().catch(() => {});
      process.exit(0);
    });
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
});
