/**
 * API process: HTTP only; long work happens in workflows run by the worker process. With
 * API_PROCESSES > 1 this process forks that many API processes sharing the port (Node cluster):
 * they share nothing but PostgreSQL and Temporal, so each gets 1/N of the rate limits.
 */
import cluster from 'node:cluster';
import { serve } from '@hono/node-server';
import { loadApiConfig, processorSettings } from './config.js';
import { webhookSettingsOf } from './services/webhooks/settings.js';
import { createDb } from './db/client.js';
import { createApp } from './http/app.js';
import type { AppDeps } from './http/context.js';
import { ROUTES } from './http/routes/index.js';
import { createLogger, type Logger } from './logger.js';
import { createStripeProcessor } from './processor/stripe.js';
import { createTaxAdapter } from './services/billing/tax.js';
import { documentSettingsOf } from './services/documents/settings.js';
import { purgeExpiredIdempotencyKeys } from './services/idempotency.js';
import { DOMAIN_REACTIONS } from './reactions.js';
import { checkDatabase, connectTemporalOrFail, runMain } from './startup.js';
import { temporalGateway } from './temporal/gateway.js';
import { temporalSecurityOf } from './temporal/security.js';

const PURGE_INTERVAL_MS = 10 * 60_000;

/** Runs `count` API processes and stops them together: on SIGINT/SIGTERM, or when one exits on its own. */
function superviseApiProcesses(count: number, logger: Logger): void {
  let exitCode: number | null = null;
  const stopAll = (code: number) => {
    if (exitCode !== null) return;
    exitCode = code;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  cluster.on('exit', (worker, code, signal) => {
    if (exitCode === null) {
      logger.error({ pid: worker.process.pid, code, signal }, 'an API process exited; stopping the others');
      stopAll(1);
    }
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode ?? 1);
  });
  process.on('SIGTERM', () => stopAll(0));
  process.on('SIGINT', () => stopAll(0));
  for (let i = 0; i < count; i += 1) cluster.fork();
  logger.info({ processes: count }, 'api processes started');
}

runMain('api', async () => {
  const config = loadApiConfig();
  const logger = createLogger(config.LOG_LEVEL, 'api');
  if (config.API_PROCESSES > 1 && cluster.isPrimary) {
    superviseApiProcesses(config.API_PROCESSES, logger);
    return;
  }
  const share = (limit: { ratePerSecond: number; burst: number }) => ({
    ratePerSecond: limit.ratePerSecond / config.API_PROCESSES,
    burst: Math.max(1, Math.ceil(limit.burst / config.API_PROCESSES)),
  });
  await checkDatabase(config.DATABASE_URL);
  const temporal = await connectTemporalOrFail(config.TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE, temporalSecurityOf(config));
  const { db, pool } = createDb(config.DATABASE_URL);
  const hostname = config.HOST ?? (config.NODE_ENV === 'production' ? '0.0.0.0' : '127.0.0.1');

  const deps: AppDeps = {
    db,
    pool,
    temporal: temporalGateway(temporal, config.TEMPORAL_TASK_QUEUE),
    logger,
    clock: () => new Date(),
    reactions: DOMAIN_REACTIONS,
    tax: createTaxAdapter(config.TAX_ADAPTER, config.TAX_RATE_BPS),
    processor: createStripeProcessor(processorSettings(config)),
    settings: {
      jwtSecret: config.JWT_SECRET,
      apiKeyHash: config.API_KEY_HASH,
      temporalNamespace: config.TEMPORAL_NAMESPACE,
      temporalUiUrl: config.TEMPORAL_UI_URL,
      invoiceGraceMs: config.INVOICE_GRACE_PERIOD_SECONDS * 1000,
      entitlementCheckCacheMs: config.ENTITLEMENT_CHECK_CACHE_MS,
      usageSummaryCacheMs: config.USAGE_SUMMARY_CACHE_MS,
      testClockDrive: config.TEST_CLOCK_DRIVE,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
      rateLimit: share({ ratePerSecond: config.RATE_LIMIT_RPS, burst: config.RATE_LIMIT_BURST }),
      anonymousRateLimit: share({ ratePerSecond: config.RATE_LIMIT_ANON_RPS, burst: config.RATE_LIMIT_ANON_BURST }),
      idempotencyTtlMs: config.IDEMPOTENCY_TTL_HOURS * 3_600_000,
      eventMaxFutureSkewMs: config.EVENT_MAX_FUTURE_SKEW_SECONDS * 1000,
      lateUsageMaxDays: config.LATE_USAGE_MAX_DAYS,
      webhooks: webhookSettingsOf(config),
      dunningScheduleDays: config.DUNNING_SCHEDULE_DAYS,
      processorWebhookSecret: config.PROCESSOR_WEBHOOK_SECRET,
      documents: await documentSettingsOf(config),
      portalSessionTtlMinutes: config.PORTAL_SESSION_TTL_MINUTES,
      hostedLinks: {
        secret: config.HOSTED_LINK_SECRET,
        ttlDays: config.HOSTED_LINK_TTL_DAYS,
        baseUrl: config.PUBLIC_URL ?? `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${config.PORT}`,
      },
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

  const server = serve({ fetch: app.fetch, port: config.PORT, hostname }, (info) => {
    logger.info({ host: hostname, port: info.port }, 'api listening');
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
