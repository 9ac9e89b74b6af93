/** Worker process: runs workflows (bundled from workflows/) and the activities that do their I/O. */
import { createActivities } from '../activities/index.js';
import { loadWorkerCapacity, loadWorkerConfig, processorSettings } from './config.js';
import { webhookSettingsOf } from './services/webhooks/settings.js';
import { createDb } from './db/client.js';
import { createLogger, type Logger } from './logger.js';
import { createStripeProcessor } from './processor/stripe.js';
import { createTaxAdapter } from './services/billing/tax.js';
import { documentSettingsOf } from './services/documents/settings.js';
import { startOutboxRelay } from './services/webhooks/relay.js';
import { startCircuitWaker } from './services/webhooks/waker.js';
import { startWorkflowReconciler } from './services/subscriptions/workflow-starts.js';
import { deliveryPolicyOf } from './services/webhooks/settings.js';
import type { ServiceDeps } from './services/deps.js';
import { DOMAIN_REACTIONS } from './reactions.js';
import { checkDatabase, connectTemporalOrFail, runMain } from './startup.js';
import { temporalSecurityOf } from './temporal/security.js';
import type { OwnTemporalHandle } from './temporal/client.js';
import { temporalGateway } from './temporal/gateway.js';
import { ensurePeriodicSchedules } from './temporal/schedules.js';
import { ensureSearchAttributes } from './temporal/search-attributes.js';
import { createWorkers } from './temporal/worker.js';
import { sdkLogger } from './temporal/sdk-logs.js';
import { Runtime } from '@temporalio/worker';

runMain('worker', async () => {
  const config = loadWorkerConfig();
  const capacity = loadWorkerCapacity();
  const logger = createLogger(config.LOG_LEVEL, 'worker');
  // The SDK's lines (workflow task and activity failures with their ids) as JSON through pino.
  Runtime.install({ logger: sdkLogger(logger) });
  await checkDatabase(config.DATABASE_URL);
  const security = temporalSecurityOf(config);
  const temporal = await connectTemporalOrFail(config.TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE, security);
  await registerSearchAttributes(temporal, config.TEMPORAL_NAMESPACE, logger);
  const { db, pool } = createDb(config.DATABASE_URL, capacity.dbPoolSize);
  const webhooks = webhookSettingsOf(config);
  const processor = createStripeProcessor(processorSettings(config));
  // The services' deps, shared by the activities of its task queues, the outbox relay and the reconciler.
  const deps: ServiceDeps = {
    db,
    pool,
    temporal: temporalGateway(temporal, config.TEMPORAL_TASK_QUEUE),
    logger,
    clock: () => new Date(),
    tax: createTaxAdapter(config.TAX_ADAPTER, config.TAX_RATE_BPS),
    processor,
    reactions: DOMAIN_REACTIONS,
    settings: {
      invoiceGraceMs: config.INVOICE_GRACE_PERIOD_SECONDS * 1000,
      webhooks,
      dunningScheduleDays: config.DUNNING_SCHEDULE_DAYS,
      documents: await documentSettingsOf(config),
      lateUsageMaxDays: config.LATE_USAGE_MAX_DAYS,
      usageEventRetentionDays: config.USAGE_EVENT_RETENTION_DAYS ?? null,
    },
  };
  const workers = await createWorkers({
    address: config.TEMPORAL_ADDRESS,
    namespace: config.TEMPORAL_NAMESPACE,
    security,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    activities: createActivities(deps),
    logger,
    maxConcurrentActivities: capacity.activitySlots,
    maxConcurrentWorkflowTasks: capacity.workflowTaskSlots,
  });
  // Every worker process relays the outbox; relays share the work safely (src/services/webhooks/relay.ts).
  const relay = startOutboxRelay({ db, pool, temporal: deps.temporal, policy: deliveryPolicyOf(webhooks), logger });
  // Deliveries waiting on an endpoint's circuit are woken by this one loop, not each by a timer (waker.ts).
  const waker = startCircuitWaker({ db, temporal: deps.temporal, policy: deliveryPolicyOf(webhooks), disableAfterMs: webhooks.disableAfterMs, logger });
  // Subscriptions whose workflow start after commit did not happen get it here (docs/failures.md).
  const reconciler = startWorkflowReconciler(deps);
  // The periodic jobs' schedules; the contract reconciler (workflow starts lost after a commit), the
  // revenue recognition (customers on no test clock) and the late-usage corrections also run now.
  await ensurePeriodicSchedules(deps.temporal, { runNow: true });
  // The Temporal runtime stops the worker on SIGINT/SIGTERM: run() resolves once in-flight tasks end.
  await workers.run();
  reconciler.stop();
  await relay.stop();
  await waker.stop();
  await Promise.allSettled([workers.connection.close(), temporal.connection.close(), db.$disconnect()]);
  await pool.end().catch(() => {});
  logger.info('worker stopped');
});

/** Registers the workflows' search attributes the namespace lacks; where that is refused (Temporal Cloud) says how to create them. */
async function registerSearchAttributes(temporal: OwnTemporalHandle, namespace: string, logger: Logger): Promise<void> {
  try {
    const added = await ensureSearchAttributes(temporal.connection, namespace);
    if (added.length > 0) logger.info({ added }, 'registered the workflow search attributes');
  } catch (err) {
    logger.warn({ err }, 'could not register the workflow search attributes; create them on the namespace (docs/workflows-and-operations.md, "Finding workflows") or workflow starts fail');
  }
}
