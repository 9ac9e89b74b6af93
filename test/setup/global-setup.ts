/**
 * One global setup for the integration tests: a throwaway embedded PostgreSQL cluster with the
 * migrated schema, a headless Temporal dev server (CLI binary, in-memory, suggesting continue-as-new early), stripe-mock, and one
 * worker running the real workflows and activities. Torn down after the run; unit tests skip it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { createActivities } from '../../activities/index.js';
import { installTestRuntime, unwinder } from './runtime.js';
import { createDb } from '../../src/db/client.js';
import { dropDatabase, EmbeddedPostgres, ensureDatabase, migrateDatabase, withDatabase } from '../../src/dev/embedded-postgres.js';
import { freePort } from '../../src/dev/processes.js';
import { startStripeMock } from '../../src/dev/stripe-mock.js';
import { startTemporalDevServer } from '../../src/dev/temporal-dev-server.js';
import { ensureTool, STRIPE_MOCK, TEMPORAL_CLI } from '../../src/dev/tools.js';
import { createLogger } from '../../src/logger.js';
import { DEFAULT_DUNNING_SCHEDULE_DAYS } from '../../src/core/index.js';
import { LOCAL_PROCESSOR_SECRET_KEY } from '../../src/config.js';
import { createStripeProcessor } from '../../src/processor/stripe.js';
import { zeroTax } from '../../src/services/billing/tax.js';
import { deliveryPolicyOf, type WebhookSettings } from '../../src/services/webhooks/settings.js';
import { startCircuitWaker } from '../../src/services/webhooks/waker.js';
import type { DocumentSettings } from '../../src/services/documents/settings.js';
import { DOMAIN_REACTIONS } from '../../src/reactions.js';
import { connectTemporal } from '../../src/temporal/client.js';
import { temporalGateway } from '../../src/temporal/gateway.js';
import { ensurePeriodicSchedules } from '../../src/temporal/schedules.js';
import { createWorkers, WORKFLOWS_PATH } from '../../src/temporal/worker.js';

export const TEST_TASK_QUEUE = 'billing-test';
/** The default grace period, so tests bill exactly as production does. */
export const TEST_INVOICE_GRACE_MS = 3_600_000;
/**
 * History length at which the test server suggests continue-as-new (the server's default is 4,096
 * events): low enough that a test drives subscriptions through several runs in seconds, above the
 * longest history the other workflow tests record (under 400 events).
 */
export const TEST_SUGGEST_CONTINUE_AS_NEW_EVENTS = 500;

/** The seller block of invoice documents, the same for the worker's activity and the tests' API. */
export const TEST_DOCUMENT_SETTINGS: DocumentSettings = {
  seller: { name: 'Test Seller Ltd', lines: ['1 Ledger Lane', 'EC1A 1BB London', 'GB'], taxId: 'GB123456789' },
  logo: null,
  locale: 'en-US',
};

/**
 * Webhook deliveries on a scaled-down schedule (the SPEC's 0 s, 30 s, 5 min, 30 min, 4 h and a 60 s
 * breaker are the configuration defaults): tests check receipts against these figures. Receivers run
 * on 127.0.0.1, as local mode allows.
 */
export const TEST_WEBHOOK_SETTINGS: WebhookSettings = {
  retryScheduleMs: [0, 1000, 2000, 3000, 4000],
  timeoutMs: 1500,
  breakerThreshold: 5,
  breakerOpenMs: 3000,
  allowPrivateUrls: true,
  // Long enough that no test's endpoint is disabled by chance; the disabling test runs a waker of its own.
  disableAfterMs: 10 * 60_000,
};

/** The embedded PostgreSQL cluster of the run, for tests that stop and start it (test/support/faults.ts). */
export interface DatabaseCluster {
  dataDir: string;
  port: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    /** Null when the run uses TEST_DATABASE_URL's server, which the tests must not stop. */
    databaseCluster: DatabaseCluster | null;
    temporalAddress: string;
    taskQueue: string;
    invoiceGraceMs: number;
    stripeMockUrl: string;
    suggestContinueAsNewEvents: number;
    webhookSettings: WebhookSettings;
    documentSettings: DocumentSettings;
  }
}

const log = (message: string) => process.stdout.write(`[test-setup] ${message}\n`);

/**
 * A fresh database per run: on TEST_DATABASE_URL's server when set (dropped afterwards), else in a
 * throwaway embedded cluster with durability off (returned, so tests may restart it).
 */
async function startDatabase(teardown: (() => Promise<void>)[]): Promise<{ url: string; cluster: DatabaseCluster | null }> {
  const runDatabase = `billing_test_${Date.now().toString(36)}_${process.pid}`;
  if (process.env.TEST_DATABASE_URL) {
    const url = withDatabase(process.env.TEST_DATABASE_URL, runDatabase);
    teardown.push(() => dropDatabase(url));
    return { url, cluster: null };
  }
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'billing-test-'));
  teardown.push(() => rm(scratch, { recursive: true, force: true }));
  const cluster = { dataDir: path.join(scratch, 'pg'), port: await freePort() };
  const postgres = new EmbeddedPostgres({ ...cluster, ephemeral: true });
  const serverUrl = await postgres.start();
  teardown.push(() => postgres.stop());
  return { url: withDatabase(serverUrl, runDatabase), cluster };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const teardown: (() => Promise<void>)[] = [];
  const unwind = unwinder(teardown, log);
  try {
    const [temporalBinary, stripeMockBinary] = await Promise.all([ensureTool(TEMPORAL_CLI, log), ensureTool(STRIPE_MOCK, log)]);

    const { url: databaseUrl, cluster: databaseCluster } = await startDatabase(teardown);
    await ensureDatabase(databaseUrl);
    migrateDatabase(databaseUrl);

    const [temporal, stripeMock] = await Promise.all([
      startTemporalDevServer({
        binary: temporalBinary,
        port: await freePort(),
        uiPort: 0,
        namespace: 'default',
        headless: true,
        dynamicConfig: { 'limit.historyCount.suggestContinueAsNew': TEST_SUGGEST_CONTINUE_AS_NEW_EVENTS },
      }),
      startStripeMock(stripeMockBinary, await freePort(), await freePort()),
    ]);
    teardown.push(temporal.stop, stripeMock.stop);

    installTestRuntime();
    const logger = createLogger(process.env.LOG_LEVEL ?? 'silent', 'test-worker');
    const { db, pool } = createDb(databaseUrl, 10);
    teardown.push(async () => {
      await db.$disconnect();
      await pool.end();
    });
    const temporalClient = await connectTemporal(temporal.address, 'default');
    teardown.push(() => temporalClient.connection.close());
    const workflowBundle = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: new DefaultLogger('WARN') });
    const workers = await createWorkers({
      address: temporal.address,
      namespace: 'default',
      taskQueue: TEST_TASK_QUEUE,
      activities: createActivities({
        db,
        pool,
        logger,
        tax: zeroTax,
        temporal: temporalGateway(temporalClient, TEST_TASK_QUEUE),
        processor: createStripeProcessor({ apiBase: stripeMock.url, secretKey: LOCAL_PROCESSOR_SECRET_KEY }),
        clock: () => new Date(),
        reactions: DOMAIN_REACTIONS,
        settings: {
          invoiceGraceMs: TEST_INVOICE_GRACE_MS,
          webhooks: TEST_WEBHOOK_SETTINGS,
          dunningScheduleDays: DEFAULT_DUNNING_SCHEDULE_DAYS,
          documents: TEST_DOCUMENT_SETTINGS,
        },
      }),
      logger,
      workflowBundle,
      maxConcurrentActivities: 5,
    });
    await ensurePeriodicSchedules(temporalGateway(temporalClient, TEST_TASK_QUEUE));
    const running = workers.run();
    teardown.push(async () => {
      workers.shutdown();
      await running;
      await workers.connection.close();
    });
    // As the worker process runs it: deliveries waiting on a circuit are woken by the circuit waker.
    const waker = startCircuitWaker(
      { db, temporal: temporalGateway(temporalClient, TEST_TASK_QUEUE), policy: deliveryPolicyOf(TEST_WEBHOOK_SETTINGS), disableAfterMs: TEST_WEBHOOK_SETTINGS.disableAfterMs, logger },
      { pollIntervalMs: 250 },
    );
    teardown.push(() => waker.stop());

    project.provide('databaseUrl', databaseUrl);
    project.provide('databaseCluster', databaseCluster);
    project.provide('temporalAddress', temporal.address);
    project.provide('taskQueue', TEST_TASK_QUEUE);
    project.provide('invoiceGraceMs', TEST_INVOICE_GRACE_MS);
    project.provide('stripeMockUrl', stripeMock.url);
    project.provide('suggestContinueAsNewEvents', TEST_SUGGEST_CONTINUE_AS_NEW_EVENTS);
    project.provide('webhookSettings', TEST_WEBHOOK_SETTINGS);
    project.provide('documentSettings', TEST_DOCUMENT_SETTINGS);
    log(`ready in ${Date.now() - started} ms (postgres, temporal ${temporal.address}, stripe-mock ${stripeMock.url}, worker)`);
  } catch (err) {
    await unwind();
    throw err;
  }
  return unwind;
}
