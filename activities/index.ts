/**
 * Activities: the I/O side of workflows. createActivities receives real dependencies from the
 * worker's composition root; workflows import only the *type* of what it returns.
 */
import { createContractActivities } from './contracts.js';
import { createFailureActivities } from './failures.js';
import { createInvoiceActivities, type InvoiceActivityDeps } from './invoices.js';
import { createLedgerActivities } from './ledger.js';
import { createPaymentActivities, type PaymentActivityDeps } from './payments.js';
import { createSubscriptionActivities } from './subscriptions.js';
import { createWalletActivities } from './wallets.js';
import { createSpendAlertActivities } from './spend-alerts.js';
import { createTestClockActivities } from './test-clocks.js';
import { createWebhookActivities, type WebhookActivityDeps } from './webhooks.js';

/**
 * The database, logger, tax adapter, payment processor, a Temporal client (activities drive invoice
 * workflows) and settings.
 */
export type ActivityDeps = InvoiceActivityDeps & WebhookActivityDeps & PaymentActivityDeps;

export function createActivities(deps: ActivityDeps) {
  const invoices = createInvoiceActivities(deps);
  return {
    ...createSubscriptionActivities(deps.db),
    ...invoices,
    ...createContractActivities({ db: deps.db, client: deps.client, taskQueue: deps.taskQueue, graceMs: deps.invoiceGraceMs, logger: deps.logger }),
    ...createWebhookActivities(deps),
    ...createPaymentActivities(deps),
    ...createWalletActivities(deps),
    ...createSpendAlertActivities(deps),
    ...createLedgerActivities(deps),
    ...createFailureActivities(deps),
    ...createTestClockActivities({
      db: deps.db,
      client: deps.client,
      logger: deps.logger,
      taskQueue: deps.taskQueue,
      invoiceGraceMs: deps.invoiceGraceMs,
      billLateUsageCorrections: invoices.billLateUsageCorrections,
    }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
