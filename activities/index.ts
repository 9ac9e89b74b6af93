/**
 * Activities: the I/O side of workflows. createActivities receives real dependencies from the
 * worker's composition root; workflows import only the *type* of what it returns.
 */
import { createContractActivities } from './contracts.js';
import { createEntitlementActivities } from './entitlements.js';
import { createFailureActivities } from './failures.js';
import { createInvoiceActivities } from './invoices.js';
import { createLedgerActivities } from './ledger.js';
import { createPaymentActivities } from './payments.js';
import { createSubscriptionActivities } from './subscriptions.js';
import { createWalletActivities } from './wallets.js';
import { createSimulationActivities } from './simulations.js';
import { createSpendAlertActivities } from './spend-alerts.js';
import { createTestClockActivities } from './test-clocks.js';
import { createUsageRetentionActivities } from './usage-retention.js';
import { createWebhookActivities } from './webhooks.js';
import type { ServiceDeps } from '../src/services/deps.js';

/** The services' one deps shape (src/services/deps.ts), set in the worker's composition root. */
export type ActivityDeps = ServiceDeps;

export function createActivities(deps: ActivityDeps) {
  const invoices = createInvoiceActivities(deps);
  return {
    ...createSubscriptionActivities(deps.db),
    ...invoices,
    ...createContractActivities(deps),
    ...createWebhookActivities(deps),
    ...createPaymentActivities(deps),
    ...createWalletActivities(deps),
    ...createSpendAlertActivities(deps),
    ...createLedgerActivities(deps),
    ...createSimulationActivities(deps),
    ...createEntitlementActivities(deps),
    ...createFailureActivities(deps),
    ...createUsageRetentionActivities(deps),
    ...createTestClockActivities({ ...deps, billLateUsageCorrections: invoices.billLateUsageCorrections }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
