import type { RouteModule } from '../app.js';
import { registerAudit } from './audit/handlers.js';
import { registerCatalog } from './catalog/handlers.js';
import { registerContracts } from './contracts/handlers.js';
import { registerCustomers } from './customers/handlers.js';
import { registerDocuments } from './documents/handlers.js';
import { registerEntitlements } from './entitlements/handlers.js';
import { registerEvents } from './events/handlers.js';
import { registerInvoiceLifecycle } from './invoice-lifecycle/handlers.js';
import { registerInvoices } from './invoices/handlers.js';
import { registerLedger } from './ledger/handlers.js';
import { registerMeters } from './meters/handlers.js';
import { registerOperatorViews } from './operator/handlers.js';
import { registerPayments } from './payments/handlers.js';
import { registerPortal } from './portal/handlers.js';
import { registerProcessorEvents } from './processor-events/handlers.js';
import { registerRating } from './rating/handlers.js';
import { registerReports } from './reports/handlers.js';
import { registerShadowBilling } from './shadow-billing/handlers.js';
import { registerSimulations } from './simulations/handlers.js';
import { registerSpendAlerts } from './spend-alerts/handlers.js';
import { registerSubscriptions } from './subscriptions/handlers.js';
import { registerTestClocks } from './test-clocks/handlers.js';
import { registerUsage } from './usage/handlers.js';
import { registerWebhooks } from './webhooks/handlers.js';

/** Every resource's route module; the app factory registers them in this order. */
export const ROUTES: RouteModule[] = [registerCustomers, registerCatalog, registerRating, registerSubscriptions, registerTestClocks, registerInvoices, registerInvoiceLifecycle, registerDocuments, registerEvents, registerMeters, registerUsage, registerContracts, registerWebhooks, registerPayments, registerProcessorEvents, registerLedger, registerSpendAlerts, registerReports, registerSimulations, registerShadowBilling, registerAudit, registerEntitlements, registerOperatorViews, registerPortal];
