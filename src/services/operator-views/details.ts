/**
 * The operator's pages of one customer, subscription or invoice: the resource as the admin API shows
 * it (the same services), its billing_error with a Retry button while its workflow holds a step, and
 * links to its workflows in the Temporal UI.
 */
import { DomainError } from '../../errors.js';
import type { BillingErrorView } from '../../schemas/common.js';
import { getCustomerOverview } from '../accounts/customers.js';
import type { ServiceDeps } from '../deps.js';
import { formatAmount } from '../documents/format.js';
import { loadInvoiceView, listInvoices } from '../invoicing/invoices.js';
import { getInvoiceDunning } from '../payments/dunning.js';
import { getSubscription } from '../subscriptions/subscriptions.js';
import { esc, externalLink, facts, link, operatorPage, table, type PageSession } from './html.js';
import { retryForm } from './overview.js';
import { customerWorkflowsUrl, workflowLink, type OperatorViewSettings } from './temporal-links.js';

const LOCALE = 'en-US';
/** Invoices a subscription's page lists, newest first. */
const SUBSCRIPTION_INVOICES = 24;

const money = (nanos: string, currency: string): string => esc(formatAmount(BigInt(nanos), currency, LOCALE));
const mono = (text: string | null): string => (text === null ? '<span class="muted">—</span>' : `<span class="mono">${esc(text)}</span>`);
const plain = (text: string | number | null): string => (text === null ? '<span class="muted">—</span>' : esc(String(text)));

function workflowRow(settings: OperatorViewSettings, label: string, kind: Parameters<typeof workflowLink>[1], id: string): [string, string] {
  const workflow = workflowLink(settings, kind, id);
  return [label, externalLink(workflow.url, workflow.workflowId)];
}

/** The held step of a resource, with its Retry form; nothing when it holds none. */
function heldPanel(session: PageSession, entity: Parameters<typeof retryForm>[1], id: string, error: BillingErrorView): string {
  if (error === null) return '';
  return (
    `<section class="held" id="billing-error"><h2>Held for an operator</h2>` +
    facts([
      ['Step', mono(error.step)],
      ['Type', plain(error.type)],
      ['Message', `<span class="error">${esc(error.message)}</span>`],
      ['Failed at', plain(error.failed_at)],
    ]) +
    `<p>${retryForm(session, entity, id)}</p></section>`
  );
}

const page = (session: PageSession, title: string, body: string) => operatorPage({ title, session, body: `<p>${link('/admin', '← Overview')}</p>${body}` });

export async function customerPage(deps: Pick<ServiceDeps, 'db'>, settings: OperatorViewSettings, session: PageSession, customerId: string): Promise<string> {
  const customer = await getCustomerOverview(deps.db, customerId);
  const subscriptions = customer.subscriptions.map((s) => {
    const workflow = workflowLink(settings, 'subscription', s.id);
    return [link(`/admin/subscriptions/${s.id}`, s.id), esc(s.status), esc(s.currency), `${esc(s.period_start)} → ${esc(s.period_end)}`, externalLink(workflow.url, workflow.workflowId)];
  });
  const invoices = customer.invoices.map((i) => {
    const workflow = workflowLink(settings, 'invoice', i.id);
    return [link(`/admin/invoices/${i.id}`, i.invoice_number ?? i.id), esc(i.status), money(i.total_nanos, i.currency), esc(i.created_at), externalLink(workflow.url, workflow.workflowId)];
  });
  const balances = customer.ledger_balances;
  return page(
    session,
    `Customer ${customer.display_name}`,
    `<h1>Customer ${esc(customer.display_name)}</h1><section>${facts([
      ['Id', mono(customer.id)],
      ['Email', plain(customer.email)],
      ['Status', plain(customer.status)],
      ['Billing currency', plain(customer.billing_currency)],
      ['Payment terms', `${customer.payment_terms_days} days`],
      ['Accounts receivable', money(balances.accounts_receivable_nanos, customer.billing_currency)],
      ['Customer credit', money(balances.customer_credit_nanos, customer.billing_currency)],
      ['Workflows', externalLink(customerWorkflowsUrl(settings, customer.id), 'All workflows of this customer in the Temporal UI')],
      workflowRow(settings, 'Spend alerts workflow', 'spend_alerts', customer.id),
    ])}</section>` +
      `<section><h2>Subscriptions</h2>${table(['Subscription', 'Status', 'Currency', 'Current period', 'Workflow'], subscriptions, { empty: 'No subscription.' })}</section>` +
      `<section><h2>Recent invoices</h2>${table(['Invoice', 'Status', 'Total', 'Created', 'Workflow'], invoices, { numeric: [2], empty: 'No invoice.' })}</section>`,
  );
}

export async function subscriptionPage(deps: ServiceDeps, settings: OperatorViewSettings, session: PageSession, subscriptionId: string): Promise<string> {
  const subscription = await getSubscription(deps, subscriptionId);
  const invoices = await listInvoices(deps.db, { limit: SUBSCRIPTION_INVOICES, subscription_id: subscriptionId });
  const rows = invoices.data.map((i) => {
    const workflow = workflowLink(settings, 'invoice', i.id);
    return [link(`/admin/invoices/${i.id}`, i.invoice_number ?? i.id), esc(i.status), money(i.total_nanos, i.currency), `${plain(i.period_start)} → ${plain(i.period_end)}`, externalLink(workflow.url, workflow.workflowId)];
  });
  return page(
    session,
    `Subscription ${subscription.id}`,
    `<h1>Subscription</h1>${heldPanel(session, 'subscription', subscription.id, subscription.billing_error)}<section>${facts([
      ['Id', mono(subscription.id)],
      ['Customer', link(`/admin/customers/${subscription.customer_id}`, subscription.customer_id)],
      ['Status', `<span class="status">${esc(subscription.status)}</span>`],
      ['Plan', `${mono(subscription.plan_id)} (version ${subscription.plan_version})`],
      ['Currency', plain(subscription.currency)],
      ['Current period', `${esc(subscription.period_start)} → ${esc(subscription.period_end)}`],
      ['Charged through', plain(subscription.charged_through_date)],
      ['Test clock', mono(subscription.test_clock_id)],
      ['Contract', mono(subscription.contract_id)],
      workflowRow(settings, 'Workflow', 'subscription', subscription.id),
      ...(subscription.contract_id ? [workflowRow(settings, 'Contract workflow', 'contract', subscription.contract_id)] : []),
    ])}</section>` + `<section><h2>Invoices</h2>${table(['Invoice', 'Status', 'Total', 'Period', 'Workflow'], rows, { numeric: [2], empty: 'No invoice yet.' })}</section>`,
  );
}

export async function invoicePage(deps: ServiceDeps, settings: OperatorViewSettings, session: PageSession, invoiceId: string): Promise<string> {
  const invoice = await loadInvoiceView(deps.db, invoiceId);
  const dunning = await getInvoiceDunning(deps.db, invoiceId).catch((err: unknown) => {
    if (err instanceof DomainError && err.kind === 'not_found') return null;
    throw err;
  });
  const lines = invoice.line_items.map((l) => [esc(l.description), esc(l.quantity), money(l.amount_nanos, invoice.currency)]);
  const heading = invoice.invoice_number ? `Invoice ${invoice.invoice_number}` : 'Draft invoice';
  return page(
    session,
    heading,
    `<h1>${esc(heading)}</h1>${heldPanel(session, 'invoice', invoice.id, invoice.billing_error)}${dunning ? heldPanel(session, 'dunning_schedule', invoice.id, dunning.billing_error) : ''}<section>${facts([
      ['Id', mono(invoice.id)],
      ['Customer', link(`/admin/customers/${invoice.customer_id}`, invoice.customer_id)],
      ['Subscription', invoice.subscription_id ? link(`/admin/subscriptions/${invoice.subscription_id}`, invoice.subscription_id) : plain(null)],
      ['Status', `<span class="status">${esc(invoice.status)}</span>`],
      ['Period', `${plain(invoice.period_start)} → ${plain(invoice.period_end)}`],
      ['Total', money(invoice.total_nanos, invoice.currency)],
      ['Amount due', money(invoice.amount_due_nanos, invoice.currency)],
      ['Due', plain(invoice.due_at)],
      ['Dunning', dunning ? plain(dunning.status) : plain(null)],
      workflowRow(settings, 'Workflow', 'invoice', invoice.id),
      ...(dunning ? [workflowRow(settings, 'Dunning workflow', 'dunning_schedule', invoice.id)] : []),
    ])}</section>` + `<section><h2>Lines</h2>${table(['Description', 'Quantity', 'Amount'], lines, { numeric: [1, 2], empty: 'No line.' })}</section>`,
  );
}
