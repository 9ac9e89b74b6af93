import type { RouteModule } from '../app.js';
import { registerAudit } from './audit.js';
import { registerCatalog } from './catalog.js';
import { registerContracts } from './contracts.js';
import { registerCustomers } from './customers.js';
import { registerDocuments } from './documents.js';
import { registerEvents } from './events.js';
import { registerInvoiceLifecycle } from './invoice-lifecycle.js';
import { registerInvoices } from './invoices.js';
import { registerLedger } from './ledger.js';
import { registerMeters } from './meters.js';
import { registerPayments } from './payments.js';
import { registerProcessorEvents } from './processor-events.js';
import { registerRating } from './rating.js';
import { registerReports } from './reports.js';
import { registerSpendAlerts } from './spend-alerts.js';
import { registerSubscriptions } from './subscriptions.js';
import { registerTestClocks } from './test-clocks.js';
import { registerUsage } from './usage.js';
import { registerWebhooks } from './webhooks.js';

/** Every resource's route module; the app factory registers them in this order. */
export const ROUTES: RouteModule[] = [registerCustomers, registerCatalog, registerRating, registerSubscriptions, registerTestClocks, registerInvoices, registerInvoiceLifecycle, registerDocuments, registerEvents, registerMeters, registerUsage, registerContracts, registerWebhooks, registerPayments, registerProcessorEvents, registerLedger, registerSpendAlerts, registerReports, registerAudit];
