/**
 * Changes to the released invoice workflow, each behind `patched(id)` (docs/versioning.md).
 * A run without an id's marker keeps the old commands, so histories recorded before the change still
 * replay.
 */

/** Auto-charge after finalization: invoices finalized before it existed replay without it. */
export const AUTO_CHARGE_PATCH = 'invoice-auto-charge';
/** The PDF rendered after finalization and at the end: invoices finalized before it existed replay without it. */
export const DOCUMENT_PATCH = 'invoice-document';
/**
 * A move whose activity fails deterministically (or past its retry schedule) is recorded as the
 * invoice's billing_error (row, audit entry, log line) before the update fails, and an operator's
 * `retryInvoiceBilling` update runs it again. Runs without the marker only failed the update.
 */
export const INVOICE_BILLING_ERRORS_PATCH = 'invoice-billing-errors';
/**
 * The API's finalize (`chargeAfterAnswer`) answers once the invoice is Open, with its view as it stood
 * finalized, and the auto-charge runs after the update, in the workflow's main flow. Runs without the
 * marker charged within the update (and the API answered Paid when the charge collected the invoice).
 */
export const CHARGE_AFTER_FINALIZE_ANSWER_PATCH = 'invoice-charge-after-finalize-answer';
/**
 * The `BillingStatus` and `InvoiceNumber` search attributes (workflows/shared/messages.ts) follow the
 * invoice: upserted when a move changes its status. Runs without the marker kept those they started with.
 */
export const INVOICE_SEARCH_ATTRIBUTES_PATCH = 'invoice-search-attributes';
/**
 * The follow-ups of a move (a dunning schedule started or closed, a recharge started, subscriptions
 * told a payment's outcome) are handed back by its activity and run by this workflow (child starts,
 * signals: workflows/follow-ups), so its history shows them. Activities of runs without the marker
 * ran them themselves through the gateway.
 */
export const INVOICE_FOLLOW_UPS_PATCH = 'invoice-runs-follow-ups';
/**
 * Payment moves other workflows ask for (a dunning retry's charge, a processor notification), which
 * cannot send the `invoicePayment` update: taken from the start input or the `paymentRequest` signal,
 * run once per request id and answered by the `paymentAnswered` signal (workflows/follow-ups). Runs
 * recorded before it were never asked; the marker is recorded where a run takes its first request.
 */
export const INVOICE_PAYMENT_REQUESTS_PATCH = 'invoice-answers-payment-requests';
