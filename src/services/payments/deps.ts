/**
 * What the payment services need, from the API (ServiceDeps) or from the worker's activities: the
 * database, the processor, a Temporal client (they signal and start workflows) and the settings.
 */
import type { Client } from '@temporalio/client';
import { DEFAULT_DUNNING_SCHEDULE_DAYS } from '../../core/index.js';
import type { Db } from '../../db/client.js';
import type { Logger } from '../../logger.js';
import type { PaymentProcessor } from '../../processor/index.js';
import { invoiceTaskQueue } from '../../temporal/task-queues.js';
import type { ServiceDeps } from '../deps.js';

export interface PaymentDeps {
  db: Db;
  processor: PaymentProcessor;
  client: Client;
  logger: Logger;
  /** The subscription task queue: dunning and processor-event workflows run there; invoices on its invoice queue. */
  taskQueue: string;
  /** Days after a failure when dunning retries (DUNNING_SCHEDULE_DAYS); fixed on each schedule when it starts. */
  dunningScheduleDays: readonly number[];
}

export const paymentDepsOf = (deps: ServiceDeps): PaymentDeps => ({
  db: deps.db,
  processor: deps.processor,
  client: deps.temporal.client,
  logger: deps.logger,
  taskQueue: deps.settings.temporalTaskQueue,
  dunningScheduleDays: deps.settings.dunningScheduleDays ?? DEFAULT_DUNNING_SCHEDULE_DAYS,
});

/** Where invoice workflows run, for update-with-start from the payment services. */
export const invoiceWorkflowDeps = (deps: PaymentDeps) => ({ db: deps.db, client: deps.client, taskQueue: invoiceTaskQueue(deps.taskQueue) });
