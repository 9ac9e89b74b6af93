/**
 * Revenue reports (SPEC §1 Reporting), admin only: AR aging, MRR, MRR movements and the deferred
 * revenue schedule, as JSON or CSV (`format=csv` or `Accept: text/csv`). Figures are per currency,
 * never summed across currencies; customer_id and currency narrow any report.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { UuidSchema } from '../../../schemas/common.js';
import { ArAgingSchema, DeferredRevenueSchema, MrrMovementsSchema, MrrSchema, ReconciliationSchema } from '../../../schemas/reports.js';
import { AsOfQuerySchema, MovementsQuerySchema, DeferredQuerySchema } from './schemas.js';

const tags = ['Reports'];

const reportResponse = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  content: { 'application/json': { schema }, 'text/csv': { schema: z.string().openapi({ description: 'one row per JSON row, money in raw units' }) } },
});

/** What every report's customer_id and currency do, with the code of an unknown customer. */
const SCOPE = "customer_id narrows the report to one customer (404 `customer_not_found` when there is none), currency to one currency.";

export const arAgingRoute = createRoute({
  method: 'get',
  path: '/admin/v1/reports/ar-aging',
  operationId: 'getArAgingReport',
  tags,
  summary: 'Accounts receivable aging',
  description: `Open receivables per customer and currency as of an instant, in buckets current (not past due), 1–30, 31–60, 61–90 and
over 90 days past due. An invoice's open amount is the net of its accounts_receivable ledger entries effective at or before as_of (finalization,
wallet drawdown, payments, credit notes, refunds, void); days past due are whole UTC days from its due date (finalization + the customer's
payment_terms_days) to the as_of date. Only what is owed is aged: an invoice whose net is not positive is not open, so no amount is negative
and open_invoices counts the invoices with something still owed (a credit the customer has is its credit balance, not a negative
receivable). Per currency, total_nanos equals the ledger's accounts_receivable balance as of as_of, shown beside it. Without as_of each
customer's invoices age against that customer's own time, so sandbox invoices age in sandbox time: its test clock's frozen time when it is
on one, else now, in the report of one customer (customer_id; the report's as_of is that time) and in the report of every customer (each
row's as_of says the time it was aged at; the report's as_of is now, and the ledger figure beside each currency's total takes each
customer's accounts at that customer's time too).
${SCOPE}`,
  request: { query: AsOfQuerySchema },
  responses: { 200: reportResponse('The aging report', ArAgingSchema) },
});

export const mrrRoute = createRoute({
  method: 'get',
  path: '/admin/v1/reports/mrr',
  operationId: 'getMrrReport',
  tags,
  summary: 'Monthly recurring revenue',
  description: `MRR per customer, plan and currency as of an instant: the flat (recurring) fees of the plan each subscription is on then,
normalised to a month (Monthly × 1, Quarterly / 3, SemiAnnual / 6, Annual / 12, rounded toward zero in raw units). Usage-priced SKUs are
excluded; so are subscriptions in their trial, paused, cancelled (from the cancellation) or expired. ${SCOPE}`,
  request: { query: AsOfQuerySchema },
  responses: { 200: reportResponse('The MRR report', MrrSchema) },
});

export const mrrMovementsRoute = createRoute({
  method: 'get',
  path: '/admin/v1/reports/mrr-movements',
  operationId: 'getMrrMovementsReport',
  tags,
  summary: 'MRR movements between two instants',
  description: `Each customer's MRR (per currency) at from and at to, classified: new (none at from, none ever before), reactivation (none at
from, some before), churn (none at to), expansion or contraction (the difference). Per currency, start + new + expansion + contraction + churn +
reactivation = end exactly. ${SCOPE}`,
  request: { query: MovementsQuerySchema },
  responses: { 200: reportResponse('The MRR movements', MrrMovementsSchema) },
});

export const deferredRoute = createRoute({
  method: 'get',
  path: '/admin/v1/reports/deferred-revenue',
  operationId: 'getDeferredRevenueReport',
  tags,
  summary: 'Deferred revenue schedule',
  description: `Per UTC month and currency: the deferred revenue of finalized invoices' lines at the start, billed, recognized (ratably over
each line's service period, by the ledger's formula) and reversed by voids in the month, and at its end, beside the ledger's deferred_revenue
balance at the month's end. Months in the future show the schedule still to come. ${SCOPE}`,
  request: { query: DeferredQuerySchema },
  responses: { 200: reportResponse('The schedule', DeferredRevenueSchema) },
});

export const reconciliationRoute = createRoute({
  method: 'get',
  path: '/admin/v1/reconciliation',
  operationId: 'getReconciliation',
  tags,
  summary: "A customer's usage and money, reconciled",
  description: `Whether every accepted usage event of the customer was billed exactly once and every amount is accounted for, now.
usage: each closed period of each of its subscriptions rated again, whole, from its accepted events, against every invoice line that billed
it (its own invoice, progressive invoices, late-usage adjustment lines), per SKU, with a state: billed, draft (its Draft waits for its grace
end), late_usage_pending (late events wait for the next close or the correction run) or discrepancy. currencies: what its invoices, payments,
refunds, credit notes (and their parts), wallets and customer credit balance moved, its open invoices and their amount due, and the ledger's
receivable, which must equal that amount due and never be negative. balanced is true when nothing is off. pruned_periods: closed periods
whose raw events the retention (USAGE_EVENT_RETENTION_DAYS) dropped, not rated again (their invoices stand). 404 \`customer_not_found\` when
the customer does not exist.`,
  request: { query: z.object({ customer_id: UuidSchema.openapi({ description: 'the customer to reconcile' }) }) },
  responses: { 200: { description: 'The reconciliation', content: { 'application/json': { schema: ReconciliationSchema } } } },
});
