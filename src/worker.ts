/** Worker process: runs workflows (bundled from workflows/) and the activities that do their I/O. */
import { createActivities } from '../activities/index.js';
import { loadWorkerConfig } from './config.js';
import { createDb } from './db/client.js';
import { createLogger } from './logger.js';
import { createTaxAdapter } from './services/tax.js';
import { checkDatabase, connectTemporalOrFail, runMain } from './startup.js';
import { createWorker } from './temporal/worker.js';

runMain('worker', async () => {
  const config = loadWorkerConfig();
  const logger = createLogger(config.LOG_LEVEL, 'worker');
  await checkDatabase(config.DATABASE_URL);
  const temporal = await connectTemporalOrFail(config.TEMPORAL_ADDRESS, config.TEMPORAL_NAMESPACE);
  const { db, pool } = createDb(config.DATABASE_URL);
  const { worker, connection } = await createWorker({
    address: config.TEMPORAL_ADDRESS,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    activities: createActivities({
      db,
      logger,
      tax: createTaxAdapter(config.TAX_ADAPTER, config.TAX_RATE_BPS),
      client: temporal.client,
      taskQueue: config.TEMPORAL_TASK_QUEUE,
    }),
    logger,
  });
  // The Temporal runtime stops the worker on SIGINT/SIGTERM: run() resolves once in-flight tasks end.
  await worker.run();
  await Promise.allSettled([connection.close(), temporal.connection.close(), db.$disconnect()]);
  await pool.end().catch(() => {});
  logger.info('worker stopped');
});
