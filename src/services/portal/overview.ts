/**
 * What the customer portal shows of one customer (issue 32), gathered from the services that own
 * each part: per subscription its current period's usage per meter and per day (metering) against
 * the quantities its plan includes, and its upcoming invoice (the preview of GET
 * /v1/subscriptions/:id/upcoming-invoice); the customer's invoices, credit balance, wallets and
 * default payment method. Every read is scoped to the session's customer.
 */
import { ADDITIVE_AGGREGATIONS, addQuantity, formatQuantity as quantityText, parseQuantity, ZERO_QUANTITY, type SkuPrice } from '../../core/index.js';
import { findPlan, getPlanPricing } from '../../db/catalog.js';
import { findCustomer } from '../../db/customers.js';
import { findDefaultPaymentMethod } from '../../db/payments.js';
import { notFound } from '../../errors.js';
import type { FeatureEntitlementView } from '../../schemas/entitlements.js';
import type { InvoiceSummaryView } from '../../schemas/invoicing.js';
import type { WalletView } from '../../schemas/ledger.js';
import type { SubscriptionView, UpcomingInvoiceView } from '../../schemas/subscriptions.js';
import type { ServiceDeps } from '../deps.js';
import { listEntitlements } from '../entitlements/entitlements.js';
import { listInvoices } from '../invoicing/invoices.js';
import { getUsageSummary, resolveSkuMeters, usageByDay } from '../metering/usage.js';
import { listSubscriptions } from '../subscriptions/subscriptions.js';
import { upcomingInvoice } from '../subscriptions/upcoming-invoice.js';
import { customerCreditBalances } from '../wallets/customer-balance.js';
import { listWallets } from '../wallets/wallets.js';

/** How many of the newest invoices the portal lists. */
export const PORTAL_INVOICE_COUNT = 24;
/** How many subscriptions the portal shows (newest first). */
const PORTAL_SUBSCRIPTION_COUNT = 10;

/** Plan metadata key that takes cancellation out of the portal for the plan's subscriptions ("disabled"). */
export const PORTAL_CANCELLATION_KEY = 'portal_cancellation';

export interface PortalMeterUsage {
  meterId: string;
  name: string;
  unit: string;
  /** Sum and Count add up over days: the chart shows the running total against what is included. */
  cumulative: boolean;
  /** One point per day of the period so far: the day's value and the running total. */
  points: { day: string; value: string; total: string }[];
  /** What the period's invoice would rate for the meter so far (the usage summary's billable_value). */
  periodValue: string;
  /** The quantity the plan includes at no charge (a free first Graduated tier, Package free units), when it has one. */
  included: string | null;
}

export interface PortalSubscription {
  view: SubscriptionView;
  planName: string;
  /** The portal offers "Cancel at period end": the plan allows it and the state machine does. */
  cancellable: boolean;
  usage: PortalMeterUsage[];
  /** Null when there is nothing to preview (no current period, or the preview failed; `upcomingError` says). */
  upcoming: UpcomingInvoiceView | null;
  upcomingError: string | null;
}

export interface PortalOverview {
  customer: { id: string; name: string; email: string; currency: string };
  subscriptions: PortalSubscription[];
  invoices: InvoiceSummaryView[];
  creditBalances: { currency: string; balance_nanos: string }[];
  wallets: WalletView[];
  paymentMethod: { brand: string | null; last4: string | null; expMonth: number | null; expYear: number | null } | null;
  /** The features the customer's subscriptions carry (the entitlements API's list); empty when its plans have none. */
  entitlements: FeatureEntitlementView[];
}

/** States from which the subscription workflow accepts a cancel (the period is billed, then it expires). */
const CANCELLABLE_STATES = new Set(['Trialing', 'Active', 'PastDue', 'Paused']);
/** States that have a current period worth previewing and charting. */
const CURRENT_STATES = new Set(['Trialing', 'Active', 'PastDue', 'Paused', 'Cancelled']);

/**
 * The quantity a usage SKU includes before it charges: the first Graduated tier when it costs nothing
 * (no unit price, no flat fee), or a Package SKU's free units.
 */
export function includedQuantity(sku: SkuPrice): bigint | null {
  if (sku.pricing_model === 'Graduated') {
    const first = sku.tiers?.[0];
    if (first && first.up_to !== null && first.unit_amount_nanos === 0n && (first.flat_amount_nanos ?? 0n) === 0n) return first.up_to;
    return null;
  }
  if (sku.pricing_model === 'Package' && (sku.package_free_units ?? 0n) > 0n) return sku.package_free_units!;
  return null;
}

/** The included quantity per meter key, summed over the plan's SKUs priced from it. */
async function includedByMeter(deps: ServiceDeps, subscription: SubscriptionView): Promise<Map<string, bigint>> {
  const pricing = await getPlanPricing(deps.db, subscription.plan_id, subscription.plan_version);
  const { skus } = await resolveSkuMeters(deps.db, pricing.prices);
  const included = new Map<string, bigint>();
  for (const sku of skus) {
    const quantity = includedQuantity(sku);
    if (quantity === null || !sku.meter) continue;
    included.set(sku.meter.meter_id, (included.get(sku.meter.meter_id) ?? 0n) + quantity);
  }
  return included;
}

async function meterUsage(deps: ServiceDeps, subscription: SubscriptionView): Promise<PortalMeterUsage[]> {
  const customerId = subscription.customer_id;
  const [daily, summary, included] = await Promise.all([
    usageByDay(deps, subscription.id, customerId),
    getUsageSummary(deps, subscription.id, {}, customerId),
    includedByMeter(deps, subscription),
  ]);
  return daily.meters.map((meter) => {
    let total = ZERO_QUANTITY;
    const cumulative = ADDITIVE_AGGREGATIONS.has(meter.aggregation);
    const points = meter.days.map((day) => {
      total = addQuantity(total, parseQuantity(day.value));
      return { day: day.start.slice(0, 10), value: day.value, total: quantityText(total) };
    });
    const includedQty = included.get(meter.meter_id);
    return {
      meterId: meter.meter_id,
      name: meter.name,
      unit: meter.unit,
      cumulative,
      points,
      periodValue: summary.meters.find((m) => m.meter_id === meter.meter_id)?.billable_value ?? '0',
      included: includedQty === undefined ? null : includedQty.toString(),
    };
  });
}

async function portalSubscription(deps: ServiceDeps, subscription: SubscriptionView): Promise<PortalSubscription> {
  const plan = await findPlan(deps.db, subscription.plan_id);
  const current = CURRENT_STATES.has(subscription.status);
  let upcoming: UpcomingInvoiceView | null = null;
  let upcomingError: string | null = null;
  if (current) {
    try {
      upcoming = await upcomingInvoice(deps, subscription.id, subscription.customer_id);
    } catch (err) {
      // The page still shows everything else; the preview says why it is missing.
      deps.logger.warn({ err, subscription_id: subscription.id }, 'portal: upcoming invoice preview failed');
      upcomingError = 'The upcoming invoice cannot be previewed right now.';
    }
  }
  return {
    view: subscription,
    planName: plan?.name ?? 'Plan',
    cancellable: CANCELLABLE_STATES.has(subscription.status) && plan?.metadata[PORTAL_CANCELLATION_KEY] !== 'disabled',
    usage: current ? await meterUsage(deps, subscription) : [],
    upcoming,
    upcomingError,
  };
}

export async function portalOverview(deps: ServiceDeps, customerId: string): Promise<PortalOverview> {
  const customer = await findCustomer(deps.db, customerId);
  if (!customer) throw notFound('customer', customerId);
  const [subscriptions, invoices, creditBalances, wallets, method, entitlements] = await Promise.all([
    listSubscriptions(deps, { customer_id: customerId, limit: PORTAL_SUBSCRIPTION_COUNT }, customerId),
    listInvoices(deps.db, { customer_id: customerId, limit: PORTAL_INVOICE_COUNT }, customerId),
    customerCreditBalances(deps.db, customerId),
    listWallets(deps.db, customerId, { limit: 20 }),
    findDefaultPaymentMethod(deps.db, customerId),
    listEntitlements(deps, customerId),
  ]);
  const shown = [];
  // One at a time: each upcoming invoice preview takes the locks a period close takes.
  for (const subscription of subscriptions.data) shown.push(await portalSubscription(deps, subscription));
  return {
    customer: { id: customer.id, name: customer.legal_name ?? customer.display_name, email: customer.email, currency: customer.billing_currency },
    subscriptions: shown,
    // Drafts are still being built: the customer sees invoices once they are issued.
    invoices: invoices.data.filter((invoice) => invoice.status !== 'Draft'),
    creditBalances,
    wallets: wallets.data,
    paymentMethod: method ? { brand: method.brand, last4: method.last4, expMonth: method.expMonth, expYear: method.expYear } : null,
    entitlements: entitlements.entitlements,
  };
}
