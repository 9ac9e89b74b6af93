import type { RouteModule } from '../app.js';
import { registerCatalog } from './catalog.js';
import { registerCustomers } from './customers.js';
import { registerEvents } from './events.js';
import { registerInvoiceLifecycle } from './invoice-lifecycle.js';
import { registerInvoices } from './invoices.js';
import { registerMeters } from './meters.js';
import { registerRating } from './rating.js';
import { registerSubscriptions } from './subscriptions.js';
import { registerTestClocks } from './test-clocks.js';
import { registerUsage } from './usage.js';

/** Every resource's route module; the app factory registers them in this order. */
export const ROUTES: RouteModule[] = [registerCustomers, registerCatalog, registerRating, registerSubscriptions, registerTestClocks, registerInvoices, registerInvoiceLifecycle, registerEvents, registerMeters, registerUsage];
