/**
 * The one registry of error codes. ERROR_CODES holds every value `error.code` of the envelope can
 * take, with its one HTTP status: renderError answers each code with that status, and the OpenAPI
 * document publishes the table (info.description, `x-error-codes`, each route's error responses).
 * ISSUE_CODES holds the codes of `error.details.issues[].code`, the rule one field broke.
 * test/unit/error-codes.test.ts scans src/ and fails when a code is created but missing here, or
 * listed here but created nowhere.
 */
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export interface ErrorCodeEntry {
  status: ContentfulStatusCode;
  meaning: string;
}

export const ERROR_CODES = {
  // 400
  validation_failed: { status: 400, meaning: 'the request body, query or path failed validation; details.issues names each field (with an issue code where a rule has one)' },
  malformed_json: { status: 400, meaning: 'the body is not valid JSON' },
  invalid_idempotency_key: { status: 400, meaning: 'the Idempotency-Key header is empty or longer than 255 characters' },
  // 401, 403
  unauthenticated: { status: 401, meaning: 'no credentials, or credentials that did not verify' },
  forbidden: { status: 403, meaning: 'valid credentials without the scope this route requires' },
  // 404
  not_found: { status: 404, meaning: 'no such route' },
  customer_not_found: { status: 404, meaning: 'the customer does not exist or is not visible to the caller' },
  parent_not_found: { status: 404, meaning: 'parent_id names no customer' },
  bill_to_not_found: { status: 404, meaning: 'bill_to_id names no customer' },
  product_not_found: { status: 404, meaning: 'the product does not exist' },
  plan_not_found: { status: 404, meaning: 'the plan does not exist' },
  sku_not_found: { status: 404, meaning: 'the SKU does not exist' },
  subscription_not_found: { status: 404, meaning: 'the subscription does not exist or is not visible to the caller' },
  invoice_not_found: { status: 404, meaning: 'the invoice does not exist or is not visible to the caller' },
  credit_note_not_found: { status: 404, meaning: 'the credit note does not exist' },
  meter_not_found: { status: 404, meaning: 'the meter does not exist' },
  test_clock_not_found: { status: 404, meaning: 'the test clock does not exist' },
  // 409
  invalid_state_transition: { status: 409, meaning: 'the resource is in a state that does not allow the operation' },
  idempotency_key_in_use: { status: 409, meaning: 'a request with this Idempotency-Key is still being processed; see Retry-After' },
  plan_currency_mismatch: { status: 409, meaning: 'the SKU is priced in another currency than the other SKUs of its plan' },
  customer_has_open_subscriptions: { status: 409, meaning: 'the customer cannot be closed while it has Trialing, Active, PastDue or Paused subscriptions' },
  customer_has_open_invoices: { status: 409, meaning: 'the customer cannot be closed while it has Draft or Open invoices' },
  customer_has_open_children: { status: 409, meaning: 'the customer cannot be closed while it has child accounts that are not Closed' },
  customer_is_bill_to: { status: 409, meaning: 'the customer cannot be closed while customers that are not Closed are billed to it' },
  event_id_conflict: { status: 409, meaning: "the usage event id is already taken by another customer's event (event ids are global)" },
  test_clock_advancing: { status: 409, meaning: 'another request is advancing the test clock; retry when it is ready' },
  // 413, 415
  payload_too_large: { status: 413, meaning: 'the request body exceeds the size limit' },
  unsupported_media_type: { status: 415, meaning: 'the body is not JSON (application/json, or the CloudEvents media types on the event routes)' },
  // 422
  idempotency_key_reused: { status: 422, meaning: 'this Idempotency-Key was used with a different request body' },
  parent_not_allowed: { status: 422, meaning: 'an Organization or Individual is a top-level account and takes no parent_id' },
  subsidiary_requires_parent: { status: 422, meaning: 'a Subsidiary needs a parent_id' },
  individual_cannot_have_children: { status: 422, meaning: 'the parent is an Individual, which cannot have child accounts' },
  parent_closed: { status: 422, meaning: 'the parent customer is Closed' },
  self_reference: { status: 422, meaning: 'a customer cannot be its own parent or bill-to' },
  hierarchy_cycle: { status: 422, meaning: 'the move would make the customer hierarchy cyclic' },
  hierarchy_too_deep: { status: 422, meaning: 'the customer hierarchy would exceed its maximum depth' },
  consolidation_requires_parent: { status: 422, meaning: 'ConsolidateToParent needs a parent_id' },
  consolidation_currency_mismatch: { status: 422, meaning: "ConsolidateToParent needs the parent's billing currency" },
  bill_to_closed: { status: 422, meaning: 'the bill-to customer is Closed' },
  customer_not_active: { status: 422, meaning: 'only Active customers can subscribe' },
  plan_has_no_skus: { status: 422, meaning: 'the plan has no SKUs to bill or rate' },
  currency_mismatch: { status: 422, meaning: "the currency does not match the plan's SKUs" },
  same_plan: { status: 422, meaning: 'the subscription is already on this plan' },
  nothing_to_bill: { status: 422, meaning: 'the current period has no charges beyond those already invoiced' },
  line_amount_mismatch: { status: 422, meaning: 'a line amount_nanos differs from quantity × unit_amount_nanos' },
  amount_out_of_range: { status: 422, meaning: 'the invoice totals would not fit DECIMAL(38,0)' },
  negative_invoice_total: { status: 422, meaning: 'the change would take the invoice total below zero' },
  credit_exceeds_invoice: { status: 422, meaning: 'credits would exceed the invoice subtotal plus tax' },
  credit_note_exceeds_remaining: { status: 422, meaning: 'the credit note exceeds what remains to be credited on the invoice' },
  test_clock_cannot_go_back: { status: 422, meaning: 'a test clock only moves forward' },
  subscription_customer_mismatch: { status: 422, meaning: "the usage event's subscription belongs to another customer" },
  invalid_events: { status: 422, meaning: 'events of a batch are invalid and nothing was stored; details.issues lists each, with its issue code' },
  // 429, 5xx
  rate_limited: { status: 429, meaning: 'the caller (or, without valid credentials, the client address) exceeded its request rate; see Retry-After' },
  internal_error: { status: 500, meaning: 'an unexpected failure; the request_id identifies it in the logs' },
  service_unavailable: { status: 503, meaning: 'a service the API depends on (database, Temporal) could not be reached; retry later' },
} as const satisfies Record<string, ErrorCodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Codes of `error.details.issues[].code`, under validation_failed (400) or invalid_events (422). */
export const ISSUE_CODES: Readonly<Record<string, string>> = {
  // Usage events (the batch lists them under invalid_events; a single event answers with the code itself).
  customer_not_found: 'the event names a customer that does not exist',
  subscription_not_found: 'the event names a subscription that does not exist',
  subscription_customer_mismatch: "the event's subscription belongs to another customer",
  timestamp_in_future: "the event timestamp lies further ahead of the customer's current time than allowed",
  event_id_conflict: "the event id is already taken by another customer's event",
  // Prices (SKUs, tiers, tier overrides).
  invalid_pricing_model: 'the pricing model is not one of Flat, PerUnit, Graduated, Volume, Package, Committed',
  invalid_currency: 'not an ISO 4217 currency code',
  invalid_money: 'a money amount is not a whole number of raw units within DECIMAL(38,0)',
  money_out_of_range: 'a money amount does not fit DECIMAL(38,0)',
  negative_price: 'a price is negative',
  field_not_applicable: 'the field belongs to another pricing model',
  meter_required: 'usage pricing needs a meter_event_type',
  unit_amount_required: 'the pricing model needs unit_amount_nanos',
  tiers_required: 'Graduated and Volume pricing need at least one tier',
  tiers_not_allowed: 'the pricing model takes no tiers',
  invalid_tier_bound: 'a tier up_to is not a whole number or null',
  tier_bound_not_positive: 'a tier up_to is not positive',
  tier_bounds_not_increasing: 'tier up_to values do not increase strictly',
  unbounded_tier_not_last: 'only the last tier may have up_to null',
  last_tier_must_be_unbounded: 'the last tier must have up_to null',
  invalid_package_size: 'Package pricing needs package_size > 0',
  invalid_package_rounding: "package_rounding is not 'Up' or 'Down'",
  commit_required: 'Committed pricing needs commit_amount_nanos',
  overage_required: 'Committed pricing needs overage_unit_amount_nanos',
  // Rating and contract terms (rating preview).
  no_skus: 'the plan has no SKUs',
  mixed_currencies: 'the SKUs of a plan are in more than one currency',
  duplicate_sku: 'a SKU appears twice',
  unknown_sku: 'a tier override names a SKU that is not in the plan',
  duplicate_override: 'two tier overrides name the same SKU',
  unknown_meter: 'a quantity names a meter no usage SKU of the plan rates',
  invalid_quantity: 'a quantity is not a non-negative decimal',
  invalid_quantity_scale: 'a quantity has more decimal places than supported',
  negative_quantity: 'a quantity is negative',
  invalid_integer: 'a value is not a whole number',
  invalid_service: 'the service range is empty or outside the period',
  too_many_pieces: 'the period crosses too many contract phase or escalation boundaries',
  not_a_boundary: 'a usage_to_date date is not a phase or escalation boundary inside the period',
  as_of_not_period_start: 'with a period, as_of must be period.start or left out',
  usage_to_date_required: 'the terms change inside the period: the period-to-date usage at that date is needed',
  empty_period: 'the period ends on or before its start',
  invalid_period: 'the period length is not a positive whole number of days',
  invalid_days: 'a day count is not a whole number in range',
  date_outside_period: 'a date falls outside the period',
  invalid_boundaries: 'period boundaries are missing or not strictly increasing',
  invalid_proration: 'proration days are out of range',
  invalid_date: 'a date is not a calendar date in 0001-01-01..9999-12-31',
  invalid_months: 'a month count is not a non-negative integer',
  invalid_anchor_day: 'a billing anchor day is not 1-31',
  invalid_cadence: 'the billing cadence is not supported',
  invalid_phase: 'a contract phase is not an integer',
  duplicate_phase: 'a contract phase appears twice',
  unknown_phase: 'no contract term has this phase',
  empty_term: 'a contract term ends on or before its start',
  overlapping_terms: 'contract terms overlap',
  contract_ended: 'the contract ends on or before the subscription start',
  invalid_basis_points: 'basis points are out of range',
  invalid_periods: 'a period count is out of range',
  invalid_escalation: 'the escalation is not a valid Percent or Fixed escalation',
  duplicate_commit: 'a commitment appears twice',
  invalid_priority: 'a commitment priority is not an integer',
  division_by_zero: 'a division by zero',
  negative_weight: 'an allocation weight is negative',
  zero_weights: 'no allocation weight is positive',
};
