/**
 * Generated from the billing API's OpenAPI document by openapi-typescript (npm run client:generate).
 * Do not edit: the test suite fails while this file and the document disagree.
 */

export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Status of the service and its dependencies (public)
         * @description Public. 200 when the database and Temporal both answer, 503 when either does not; checks gives the status and latency of each, down names the ones that did not answer.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/customers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List customers
         * @description Customers, newest first, as a JSON array (pagination in the X-Has-More, X-Next-Cursor and Link headers); filter by parent_id, status, currency, created_gte / created_lt and external_id.
         */
        get: operations["listCustomers"];
        put?: never;
        /**
         * Create a customer
         * @description Defaults: consolidation Standalone, payment_terms_days 30, status Active. account_type and currency cannot change later.
         *
         *     Hierarchy rules (422 with the code in parentheses, unless noted):
         *     - Organization and Individual are top-level accounts: parent_id must be null (`parent_not_allowed`).
         *     - A Subsidiary needs a parent (`subsidiary_requires_parent`) that exists (404 `parent_not_found`), is an Organization or a
         *       Subsidiary (`individual_cannot_have_children`) and is not Closed (`parent_closed`).
         *     - A tree is at most 5 levels deep, root included (`hierarchy_too_deep`); no cycles (`hierarchy_cycle`);
         *       a customer is never its own parent or bill_to (`self_reference`).
         *     - ConsolidateToParent needs a parent (`consolidation_requires_parent`) with the same billing currency
         *       (`consolidation_currency_mismatch`).
         *     - bill_to_id must exist (404 `bill_to_not_found`) and not be Closed (`bill_to_closed`).
         *     - test_clock_id must exist (404 `test_clock_not_found`).
         *     - external_id is unique across customers (409 `external_id_taken`).
         */
        post: operations["createCustomer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/customers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Customer 360 view
         * @description The customer with its 100 newest subscriptions, its 100 newest invoices (those addressed to it),
         *     its ledger balances, its 20 newest audit entries, each list newest first, and its attached payment methods. The ledger is not released yet:
         *     until it is, every balance is "0".
         */
        get: operations["getCustomer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a customer
         * @description Changes only the fields sent; null clears a nullable field. account_type, currency and status are not updatable here
         *     (status has its own operation). A Closed customer cannot be updated (409 `invalid_state_transition`). Moving a customer
         *     (parent_id) re-checks the whole ancestor chain for cycles and the depth of the moved subtree.
         *
         *     Hierarchy rules (422 with the code in parentheses, unless noted):
         *     - Organization and Individual are top-level accounts: parent_id must be null (`parent_not_allowed`).
         *     - A Subsidiary needs a parent (`subsidiary_requires_parent`) that exists (404 `parent_not_found`), is an Organization or a
         *       Subsidiary (`individual_cannot_have_children`) and is not Closed (`parent_closed`).
         *     - A tree is at most 5 levels deep, root included (`hierarchy_too_deep`); no cycles (`hierarchy_cycle`);
         *       a customer is never its own parent or bill_to (`self_reference`).
         *     - ConsolidateToParent needs a parent (`consolidation_requires_parent`) with the same billing currency
         *       (`consolidation_currency_mismatch`).
         *     - bill_to_id must exist (404 `bill_to_not_found`) and not be Closed (`bill_to_closed`).
         *     - test_clock_id must exist (404 `test_clock_not_found`).
         *     - external_id is unique across customers (409 `external_id_taken`).
         */
        patch: operations["updateCustomer"];
        trace?: never;
    };
    "/admin/v1/customers/{id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the status of a customer
         * @description Moves: Active → Suspended, Suspended → Active, Active or Suspended → Closed. Closed is final; any other move is 409
         *     `invalid_state_transition`. Closing is refused with 409 while the customer has Trialing, Active, PastDue or Paused subscriptions
         *     (`customer_has_open_subscriptions`), Draft or Open invoices (`customer_has_open_invoices`), children that are not Closed
         *     (`customer_has_open_children`) or non-Closed customers billed to it (`customer_is_bill_to`).
         */
        post: operations["changeCustomerStatus"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/customers/{id}/hierarchy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Entity hierarchy rooted at a customer
         * @description The customer and all its descendants (at most 5 levels), children in creation order.
         */
        get: operations["getCustomerHierarchy"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/catalog/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List products
         * @description A JSON array, newest first (created_gte / created_lt narrow by creation time); X-Has-More, X-Next-Cursor (pass it as starting_after) and Link rel="next" headers page through the rest.
         */
        get: operations["listProducts"];
        put?: never;
        /**
         * Create a product
         * @description A product groups plans; its tags select the contract rate overrides that apply to its SKUs. Products are never deleted, only archived.
         */
        post: operations["createProduct"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/catalog/products/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a product
         * @description The product with its tags, archived or not.
         */
        get: operations["getProduct"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/catalog/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List plans with their SKUs
         * @description A JSON array, newest first (created_gte / created_lt narrow by creation time); X-Has-More, X-Next-Cursor (pass it as starting_after) and Link rel="next" headers page through the rest. Filter by product_id and currency (plans with a SKU in it).
         */
        get: operations["listPlans"];
        put?: never;
        /**
         * Create a plan
         * @description An unknown product_id is 404 `product_not_found`, an archived one 409 `product_archived`. SKUs are added with POST /admin/v1/catalog/skus.
         */
        post: operations["createPlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/catalog/plans/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a plan with its SKUs
         * @description The plan with its version, its SKUs and its metadata, archived or not.
         */
        get: operations["getPlan"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a plan's metadata
         * @description metadata only (your own key/value pairs, never read by billing), archived or not: the keys sent are merged in, a key set to null is removed. It changes no price, so it opens no new plan version; prices change through SKUs.
         */
        patch: operations["updatePlan"];
        trace?: never;
    };
    "/admin/v1/catalog/skus": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List SKUs
         * @description A JSON array, newest first (created_gte / created_lt narrow by creation time); X-Has-More, X-Next-Cursor (pass it as starting_after) and Link rel="next" headers page through the rest. Filter by plan_id and currency.
         */
        get: operations["listSkus"];
        put?: never;
        /**
         * Add a SKU (price) to a plan
         * @description The price is validated as the rating core will use it; every problem is one entry of details.issues naming its field
         *     (e.g. `tiers.1.up_to`) with a code:
         *     - Graduated and Volume need tiers (`tiers_required`) with positive, strictly increasing whole-unit bounds
         *       (`tier_bound_not_positive`, `tier_bounds_not_increasing`), only the last one unbounded (`unbounded_tier_not_last`,
         *       `last_tier_must_be_unbounded`); other models take no tiers (`tiers_not_allowed`).
         *     - meter_id or meter_event_type is required for every model but Flat (`meter_required`). meter_id prices that meter (404
         *       `meter_not_found`, 409 `meter_archived`; a meter_event_type other than the meter's is 422 `meter_event_type_mismatch`);
         *       meter_event_type alone prices the event type's default meter (the first one created for it). unit_amount_nanos is required except for
         *       Graduated and Volume (`unit_amount_required`); prices are non-negative except Flat and PerUnit credits (`negative_price`).
         *     - Package needs package_size (`invalid_package_size`); Committed needs commit_amount_nanos and overage_unit_amount_nanos and a
         *       positive unit_amount_nanos; package and commit fields on other models are `field_not_applicable`.
         *     - Unknown plan_id: 404 `plan_not_found`. All SKUs of a plan share one currency: 409 `plan_currency_mismatch`.
         *     - An archived plan takes no SKUs (409 `plan_archived`); an event type whose default meter is archived cannot be priced by meter_event_type alone (409 `meter_archived`).
         *
         *     The SKU joins the plan's current version while no subscription is on it; otherwise it opens version N+1 (which new
         *     subscriptions take) and subscriptions on earlier versions are not billed for it (see the plan's versions).
         */
        post: operations["createSku"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/catalog/skus/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a SKU
         * @description The SKU with its pricing model, prices and tiers, archived or not.
         */
        get: operations["getSku"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/catalog/products/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a product
         * @description New plans under it (409 product_archived) and new subscriptions to its plans are refused; subscriptions already on them keep billing. Archiving is not deleting: the record stays readable, and archiving it again returns it unchanged.
         */
        post: operations["archiveProduct"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/catalog/plans/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a plan
         * @description New subscriptions, new SKUs, plan changes into it and migrations are refused (409 plan_archived); subscriptions already on it keep billing on their version. Archiving is not deleting: the record stays readable, and archiving it again returns it unchanged.
         */
        post: operations["archivePlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/catalog/skus/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a SKU (remove it from its plan)
         * @description Takes the SKU out of its plan's current version, or, when a subscription is on that version, out of a new version N+1 (version_to is set): subscriptions on earlier versions keep being billed for it. To change a price, archive the SKU and add the new one: both land in the same new version. Archiving is not deleting: the record stays readable, and archiving it again returns it unchanged.
         */
        post: operations["archiveSku"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/catalog/plans/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a plan's versions with their SKUs
         * @description Newest first. Each version lists the SKUs it holds and how many subscriptions are on it.
         */
        get: operations["listPlanVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/catalog/plans/{id}/migrations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move a plan's subscriptions to another version (preview first)
         * @description Trialing, Active and PastDue subscriptions of the plan on another version (or on from_version) move to to_version through the change-plan update of each subscription's workflow, effective at its now, with the same proration as change-plan: the period's Draft carries the old version's recurring fees for the days used and the new version's for the rest. With preview: true nothing changes; the answer lists the subscriptions, their SKU changes and the Flat-fee proration. A refused move is reported in its item (result failed, error) and the others still move. remaining_count > 0: send the request again for the next batch. An archived plan is 409 `plan_archived` (move its subscriptions with change-plan); a version the plan does not have is 404 `plan_version_not_found`; from_version equal to to_version is 422 `same_plan`; a target version without SKUs 422 `plan_has_no_skus`.
         */
        post: operations["migratePlanSubscriptions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/rating/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Preview the rating of usage against a plan (no side effects)
         * @description Rates the given quantities with the plan's SKUs and optional contract terms exactly as billing would, and writes
         *     nothing. Lines follow the plan's SKUs in creation order; amounts are exact raw units, only `display` is rounded.
         *
         *     Periods crossing a ramp phase or escalation boundary: the period is split at every date inside it where a
         *     contract term starts or ends or an escalation step falls (`pieces`), and each piece is rated under the terms in force
         *     on it. Recurring fees (Flat, the commit of Committed) are prorated by the piece's days over the period's days.
         *     Usage is priced under the terms of the piece in which it was consumed, with tiers counted over the whole period: give
         *     the whole period's `quantities` and, in `usage_to_date`, the period-to-date quantities at each inner boundary. A
         *     piece's usage charge is the full-period rating of the usage to its end minus that of the usage to its start, both under
         *     the piece's terms (so a free first tier is granted once per period, and tier entry fees fall in the piece that enters
         *     the tier). A split period without the usage to date at one of its boundaries is 400 `usage_to_date_required` naming
         *     `usage_to_date.<date>`.
         *
         *     A quantity key that no usage SKU of the plan rates is 400 `unknown_meter`; every invalid input is one entry of
         *     details.issues naming its field (e.g. `quantities.api_calls`, `contract.terms.0.end_date`). Unknown plan: 404
         *     `plan_not_found`; a plan without SKUs: 422 `plan_has_no_skus`.
         */
        post: operations["previewRating"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List subscriptions
         * @description Newest first, filtered by customer_id, status, plan_id, currency, test_clock_id and created_gte / created_lt. A JSON array; X-Has-More, X-Next-Cursor and Link rel="next" headers page through the rest. A customer token lists only its own customer's subscriptions (another customer_id is 404 customer_not_found).
         */
        get: operations["listOwnSubscriptions"];
        put?: never;
        /**
         * Create a subscription (starts its workflow)
         * @description Trialing when trial_days > 0 (the trial is the first period; paid periods are anchored on the day it ends), else Active. The currency, when given, must be the currency of the plan's SKUs (422 currency_mismatch); omitted, it is that currency. An archived plan, or a plan of an archived product, is 409 plan_archived / product_archived. A customer token may only subscribe its own customer. Customers on a test clock subscribe at the clock's time.
         */
        post: operations["createSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a subscription with its status
         * @description A customer token sees only its own subscriptions; any other id is 404 `subscription_not_found`. An admin credential sees every subscription.
         */
        get: operations["getOwnSubscription"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/{id}/upcoming-invoice": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The invoice the current period would produce if it closed now
         * @description The period close itself runs, in a transaction that is rolled back: every usage event recorded for the period so far rated with its tiers, contract terms (discounts, overrides, escalation, proration) and late usage of earlier periods, then the spend cap, tax, the customer balance and the credit wallet as finalization applies them. Nothing is written and no workflow is touched; the close at the period end produces the same lines and totals when nothing changes meanwhile. A customer token sees only its own subscriptions (another customer's is 404 `subscription_not_found`); an admin credential sees every subscription.
         */
        get: operations["getUpcomingInvoice"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List every subscription
         * @description Newest first, filtered by customer_id, status, plan_id, currency, test_clock_id and created_gte / created_lt. A JSON array; X-Has-More, X-Next-Cursor and Link rel="next" headers page through the rest.
         */
        get: operations["listSubscriptions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/subscriptions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a subscription
         * @description The subscription with its status, its current period, its plan version and any billing_error waiting for an operator.
         */
        get: operations["getSubscription"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update a subscription's metadata
         * @description metadata only (your own key/value pairs, never read by billing), in any status: the keys sent are merged in, a key set to null is removed. Plan changes and state moves have their own operations.
         */
        patch: operations["updateSubscription"];
        trace?: never;
    };
    "/admin/v1/subscriptions/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause an Active or PastDue subscription
         * @description Runs as a Temporal update on the subscription workflow; its validator rejects invalid moves (409 invalid_state_transition) before anything is recorded.
         */
        post: operations["pauseSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/subscriptions/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a Paused subscription
         * @description Runs as a Temporal update on the subscription workflow; its validator rejects invalid moves (409 invalid_state_transition) before anything is recorded.
         */
        post: operations["resumeSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/subscriptions/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a Trialing, Active, PastDue or Paused subscription; its period is billed and it expires when the period ends
         * @description Runs as a Temporal update on the subscription workflow; its validator rejects invalid moves (409 invalid_state_transition) before anything is recorded.
         */
        post: operations["cancelSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/subscriptions/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry the billing step that left the subscription in billing_error
         * @description A step of the subscription's workflow (a period close, a finalization, a roll) whose work failed in a way no automatic retry fixes (invalid stored data such as a negative usage total, a numeric overflow, or a transient failure that outlasted its retry schedule) holds the subscription with billing_error set; updates are still served. Fix the data, then retry: billing_error is cleared (audited as subscription.billing_retried) and the answer comes once the step ran again, with billing_error set anew when it failed again. 409 no_billing_error when there is nothing to retry. On a test clock, advance the clock to its current time afterwards to wait for everything due.
         */
        post: operations["retrySubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/subscriptions/{id}/bill": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Bill the subscription's current period now
         * @description Rates the current period to now and puts what is not invoiced yet on the period's Draft, creating it (201) or refreshing it (200): billing a period twice never creates a second invoice for it. Runs as an update on the subscription workflow. Trialing and Expired subscriptions have nothing to bill (409 invalid_state_transition); a period fully invoiced already gives 422 nothing_to_bill.
         */
        post: operations["billSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/subscriptions/{id}/change-plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Switch the subscription to another plan, with proration
         * @description Takes effect at the subscription's now (the change day belongs to the new plan). The period's Draft then carries the old plan's recurring fees for the days used and the new plan's for the rest; when the old fee was already invoiced, a credit line for its unused part. The new plan must be priced in the subscription currency. The subscription takes the plan's current version; the same plan_id moves it to that version from an older one (422 same_plan when already there). An archived plan, or a plan of an archived product, is 409 plan_archived / product_archived.
         */
        post: operations["changeSubscriptionPlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/test-clocks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List test clocks
         * @description Newest first, as a JSON array (pagination in the X-Has-More, X-Next-Cursor and Link headers); created_gte / created_lt narrow by creation time.
         */
        get: operations["listTestClocks"];
        put?: never;
        /**
         * Create a test clock frozen at a given time
         * @description Customers created with this test_clock_id, and their subscriptions, follow the clock instead of real time.
         */
        post: operations["createTestClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/test-clocks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a test clock
         * @description The clock with its frozen time, its status (ready, advancing, internal_failure) and the progress of its latest advance.
         */
        get: operations["getTestClock"];
        put?: never;
        post?: never;
        /**
         * Delete a test clock without customers
         * @description Deletes a clock no customer lives on (audited as test_clock.deleted). A clock with customers, closed ones included, is 409 `test_clock_has_customers` (details.customers: how many); an advancing clock 409 `test_clock_advancing`; an unknown one 404 `test_clock_not_found`.
         */
        delete: operations["deleteTestClock"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/test-clocks/{id}/advance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Advance a test clock
         * @description Moves the clock forward (never back: 422 test_clock_cannot_go_back) and answers 202 at once with the clock in status `advancing` and its new frozen_time, as in Stripe. A workflow (`test-clock-advance:<id>` in the Temporal UI) then drives every subscription on the clock through what became due: trial ends, period ends and their invoices, expirations. Subscriptions are stepped together from one instant where any of them has work to the next, as real time would order them. GET the clock for progress (`advance.simulated_time`, `advance.subscriptions_done` of `subscriptions_total`) until it is `ready` (event `test_clock.ready`); `internal_failure` (event `test_clock.internal_failure`) means the advance failed: advance again. Advancing to the current time again re-drives the subscriptions; while an advance runs, another is 409 test_clock_advancing.
         */
        post: operations["advanceTestClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List invoices
         * @description Newest first, as a JSON array of invoice summaries: every field of an invoice but its line items (line_item_count instead; GET the invoice for its lines). Pagination in the X-Has-More, X-Next-Cursor and Link headers. Filter by customer_id, status, subscription_id, currency, invoice_number (finds an invoice by its number) and created_gte / created_lt.
         */
        get: operations["listInvoices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List invoices (customer view)
         * @description Newest first, as a JSON array of invoice summaries: every field of an invoice but its line items (line_item_count instead; GET the invoice for its lines). Pagination in the X-Has-More, X-Next-Cursor and Link headers. A customer token lists only the invoices addressed to its own customer (another customer_id is 404 `customer_not_found`); an admin credential lists every invoice. Same filters as the admin list.
         */
        get: operations["listOwnInvoices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/invoices/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an invoice with its line items
         * @description The invoice with every line item (tax and credit lines included), its totals and, once finalized, its hosted link.
         */
        get: operations["getInvoice"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update an invoice's metadata
         * @description metadata only (your own key/value pairs, never read by billing), in any status: the keys sent are merged in, a key set to null is removed. Everything that is billed stays immutable once the invoice is finalized.
         */
        patch: operations["updateInvoice"];
        trace?: never;
    };
    "/admin/v1/credit-notes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List credit notes
         * @description Every credit note, newest first, as a JSON array (pagination in the X-Has-More, X-Next-Cursor and Link headers); filter by customer_id, invoice_id, currency, reason and created_gte / created_lt.
         */
        get: operations["listCreditNotes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an invoice (customer view)
         * @description A customer token sees only invoices addressed to its own customer; any other id is 404 `invoice_not_found`.
         */
        get: operations["getOwnInvoice"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}/explain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How every amount of an invoice was calculated
         * @description For each line: the plan phases it was rated in (plan version, proration factor, contract), the meter with its filters, the window read, the events counted with the first and last one and the aggregate, each tier with its quantity and amount, discounts, overrides and contract terms in the order applied, what earlier invoices of the period already billed, the tax rule of a tax line, the steps from list price to the line amount, and where rounding happened; then the totals (the lines sum to total_nanos) and the settlement from the total to the amount due. Lines billed before the pricing trace was stored explain from their rated detail only. A customer token sees only invoices addressed to its own customer; any other id is 404 `invoice_not_found`.
         */
        get: operations["explainInvoice"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/invoices/{id}/line-items": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add a manual line item to a Draft
         * @description Only while the invoice is Draft; otherwise 409 `invalid_state_transition` and nothing changes. A negative amount_nanos is an adjustment (for example a discount); it may not take the total below zero
         *     (422 `negative_invoice_total`). With unit_amount_nanos, amount_nanos must be quantity × unit_amount_nanos (422 `line_amount_mismatch`).
         *     Totals are recomputed exactly (totals that would not fit DECIMAL(38,0): 422 `amount_out_of_range`); tax lines are recomputed at
         *     finalization (or by calculate-tax).
         */
        post: operations["addInvoiceLineItem"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/invoices/{id}/credits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Apply a credit to a Draft
         * @description Only while the invoice is Draft; otherwise 409 `invalid_state_transition` and nothing changes. Adds a credit line of −amount_nanos. Credits may not exceed subtotal + tax
         *     (422 `credit_exceeds_invoice`, details.available_nanos), nor take the totals out of DECIMAL(38,0) (422 `amount_out_of_range`). After
         *     finalization use a credit note instead.
         */
        post: operations["applyInvoiceCredit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/invoices/{id}/calculate-tax": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Calculate the tax of a Draft
         * @description Only while the invoice is Draft; otherwise 409 `invalid_state_transition` and nothing changes. Runs the configured tax adapter (TAX_ADAPTER): its tax lines (is_tax: true, one per taxable line,
         *     each rounded once HalfEven to a raw unit) replace any earlier ones, so repeating it changes nothing. Credit lines are not taxed;
         *     customers with a tax_id are exempt under the flat-rate adapter. Finalization recalculates tax on the final lines.
         */
        post: operations["calculateInvoiceTax"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/invoices/{id}/credit-notes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an invoice's credit notes
         * @description Newest first, as a JSON array (pagination in the X-Has-More, X-Next-Cursor and Link headers).
         */
        get: operations["listInvoiceCreditNotes"];
        put?: never;
        /**
         * Issue a credit note against an invoice
         * @description Full or partial, on an Open or Paid invoice (Draft or Void: 409 `invalid_state_transition`). The amount is allocated, never
         *     stranded, into four parts that sum to it (the response shows each): refund_amount_nanos (refunded through the payment processor),
         *     credit_amount_nanos (put on the customer's credit balance, applied automatically to its next invoices in the currency at finalization),
         *     out_of_band_amount_nanos (given back outside the service, recorded only), and due_reduction_nanos: whatever is not allocated to those,
         *     which reduces the amount the invoice still owes. Without any of the three fields the default is: reduce the amount due first, then put the
         *     rest on the customer's credit balance. Bounds, each a 422 whose details name the field, the bound and max_nanos:
         *     amount_nanos ≤ total_nanos − credited_nanos (`credit_note_exceeds_remaining`, details.remaining_nanos);
         *     due_reduction ≤ amount_due_nanos (`credit_note_exceeds_amount_due`, details.amount_due_nanos);
         *     refund_amount_nanos ≤ collected − refunded on the invoice's newest payment with money left (`credit_note_exceeds_refundable`,
         *     details.refundable_nanos), whole minor units (`refund_not_whole_minor_units`); refund + credit + out of band ≤ what was settled
         *     (paid, wallet, customer balance) and not given back by earlier notes (`credit_note_exceeds_settled`, details.settled_creditable_nanos);
         *     refund + credit + out of band ≤ amount_nanos (`credit_note_allocation_exceeds_amount`). A refund the processor refuses is 422
         *     `refund_rejected` (503 `payment_processor_unavailable` when it cannot be reached) and issues nothing. Numbered CN-###### from a gapless
         *     counter; raises the invoice's credited_nanos (and due_reduced_nanos) and emits `credit_note.issued`. Credit notes are immutable.
         */
        post: operations["issueCreditNote"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/credit-notes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a credit note
         * @description The credit note with its allocation: the parts refunded, put on the credit balance, given back out of band and reducing the amount due.
         */
        get: operations["getCreditNote"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/invoices/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry the move that left the invoice in billing_error
         * @description A finalize, pay, void or collection whose work failed in a way no automatic retry fixes (invalid stored data, a numeric overflow, or a transient failure that outlasted its retry schedule) is shown as billing_error. Fix the data, then retry: billing_error is cleared (audited as invoice.billing_retried) and the move runs again through the invoice workflow. Answers the invoice after the move; 422 billing_failed (and billing_error set again) when it failed again; 409 no_billing_error when there is nothing to retry.
         */
        post: operations["retryInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/invoices/{id}/finalize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Finalize a Draft: Open, numbered, immutable
         * @description An update on the invoice workflow: applies the configured tax adapter, assigns the next gapless INV-###### number in the same transaction as the invoice.finalized outbox event, and freezes the invoice (enforced by the database). Finalizing anything but a Draft is 409 invalid_state_transition. A Draft with a negative total (a downgrade after the period's fee was invoiced) becomes a credit invoice: its credit is applied as credit notes to the period's earlier invoices (newest first) and it is answered Paid; when they cannot absorb it, 422 negative_invoice_total. The answer is the invoice as it stands finalized (Open; Paid only when a credit or the wallet covered it all): when its payer has a default payment method, the auto-charge runs after the answer, and its outcome shows on GET /admin/v1/invoices/{id} (status Paid), GET /admin/v1/invoices/{id}/payments and in the events payment.succeeded and invoice.paid, or payment.failed with dunning started.
         */
        post: operations["finalizeInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/invoices/{id}/pay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Record a manual payment of an Open invoice
         * @description Open → Paid; records actor_id/actor_name as who paid (both optional, the body too: by default the authenticated caller as actor_id and no name; the audit entry always names the caller), writes invoice.paid and advances the charged_through_date of every subscription the invoice bills to the end of the period billed. An optional reference (a check number, a wire reference; at most 200 characters) is stored on the invoice, shown as paid_by.reference and in the invoice.paid audit entry. An optional amount_nanos is checked against the amount due: partial payments are not modelled, so any other amount is 422 payment_amount_mismatch (details.amount_due_nanos) and the invoice stays Open.
         */
        post: operations["payInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/invoices/{id}/void": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Void an Open invoice
         * @description Open → Void; writes invoice.voided. A Paid invoice cannot be voided (409): issue a credit note instead. The wallet credit and the customer credit balance the invoice applied go back; what its credit notes put on the customer's balance is taken back, and when the customer has spent it the void is refused (409 `customer_credit_spent`).
         */
        post: operations["voidInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/invoices/{id}/pdf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download the invoice as a PDF
         * @description The invoice as the payer receives it: seller and payer blocks, number and dates, one row per line (tier breakdown,
         *     discounts and overrides, tax lines flagged), subtotal, tax, credits, credit notes, total, amount due and payment status, every
         *     amount rounded once from the raw amount exactly as the JSON display strings. A Draft is marked DRAFT and has no number. A
         *     finalized invoice's PDF is stored once per state (Open, Paid, Void, and after each credit note) with its SHA-256 and served
         *     byte-identical from then on; the invoice workflow renders it after finalization, and a request that comes first renders it.
         *     A customer token sees only its own invoices (404 otherwise).
         */
        get: operations["getInvoicePdf"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/credit-notes/{id}/pdf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a credit note as a PDF
         * @description The credit note with the invoice it credits; rendered once, stored with its SHA-256 and served identically from then on. A customer token sees only its own (404 otherwise).
         */
        get: operations["getCreditNotePdf"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hosted/invoices/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The hosted invoice page (public, from hosted_invoice_url)
         * @description No credentials: the link is the credential. While the invoice is Open with something to pay, the page has a Pay form
         *     (POST /hosted/invoices/{token}/pay): "Pay with <card on file>" when the payer has a default payment method, and "Pay" on the
         *     processor's checkout page. A link that was altered or not issued by this service is 404 `hosted_link_not_found`; an expired one
         *     410 `hosted_link_expired`. Every error of the /hosted routes is answered as an HTML page (text/html) with that status, saying what
         *     to do, its code in the X-Error-Code header.
         */
        get: operations["getHostedInvoicePage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hosted/invoices/{token}/explain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How a hosted invoice was calculated (public, linked from the hosted invoice page)
         * @description A readable version of GET /v1/invoices/{id}/explain, linked as "How was this calculated?" from the hosted invoice page: per line the plan phases, the meter with its filters, the window and the events counted, each tier, the adjustments and the steps to the amount; then the totals and the rounding. 404 `hosted_link_not_found` or 410 `hosted_link_expired` like the page.
         */
        get: operations["getHostedInvoiceExplanation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hosted/invoices/{token}/pay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pay from the hosted invoice page (the page's form)
         * @description The Pay form of the hosted page (application/x-www-form-urlencoded), without credentials. Accepted only from the page:
         *     its `form_token` (signed for this link, issued at most an hour before) and, when the browser sends them, an `Origin` of this
         *     service or `Sec-Fetch-Site: same-origin`; anything else is 403 `hosted_form_refused`. `card_on_file` charges the payer's default
         *     payment method through the invoice's workflow like POST /admin/v1/invoices/{id}/payment-intents (payment source `hosted_page`;
         *     422 `no_payment_method` without one) and answers 303 back to the page, which shows the outcome; `checkout` opens a checkout session
         *     at the processor for the amount due and answers 303 to its page (422 `checkout_rejected` when the processor refuses), from which the
         *     payer comes back to the page; the processor's payment_intent.succeeded collects the invoice. An invoice that is no longer Open
         *     answers 303 to the page. 404 `hosted_link_not_found` and 410 `hosted_link_expired` like the page; errors are HTML pages.
         */
        post: operations["payHostedInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/invoices/{id}/hosted-link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Issue a new hosted invoice link
         * @description For a payer whose link expired (410 `hosted_link_expired`) before paying: a new link to the same page, expiring
         *     HOSTED_LINK_TTL_DAYS after now on the invoice's clock (its test clock's time for sandbox invoices). Links issued earlier stay valid
         *     until their own expiry. Only finalized invoices have a page: a Draft is 409 `invalid_state_transition`. Audited as
         *     `invoice.hosted_link_renewed`.
         */
        post: operations["renewHostedInvoiceLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/hosted/invoices/{token}/pdf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The PDF of a hosted invoice (public, from hosted_invoice_url)
         * @description The same bytes as GET /v1/invoices/{id}/pdf; 404 `hosted_link_not_found` or 410 `hosted_link_expired` like the page.
         */
        get: operations["getHostedInvoicePdf"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ingest one usage event (JSON or a CloudEvent in structured mode)
         * @description Deduplicated by `id` in the database: re-sending an id is safe and answers accepted: false, duplicate: true.
         *     Send `application/cloudevents+json` for a CloudEvents 1.0 event: type → event_type, id → id, time → timestamp (receipt time when
         *     absent), subject → customer_id, data → properties, extension `subscriptionid` → subscription_id.
         *     Errors: unknown customer or subscription 404; a subscription of another customer 422 subscription_customer_mismatch; a timestamp too far
         *     in the future or older than the lateness limit 400; an id already used by another customer's event 409 event_id_conflict (nothing stored).
         *
         *     Validation: the customer exists (customer tokens: their own customer only; with a customer token an event naming no customer, no
         *     customer_id nor external_customer_id and for CloudEvents no subject, is the token's own customer, while admin credentials must name it:
         *     400 validation_failed otherwise); subscription_id, when given, is a subscription of that
         *     customer; the timestamp is an ISO 8601 date-time (UTC offset within ±15:59, not before 1970) at most EVENT_MAX_FUTURE_SKEW_SECONDS
         *     (default 300 s) after the customer's current time (its test clock's for sandbox customers); properties is an
         *     object; JSON numbers must be exact as sent (integers within ±2^53, others at most 15 significant digits): send exact
         *     quantities as decimal strings; `quantity`, when present, is numeric (the default meter of an event_type without meters sums it,
         *     counting 1 for events without it).
         *     Event ids are global (deduplication is by id across customers): an id already used by another customer's event is refused as
         *     `event_id_conflict` (it says only that the id is taken); use UUIDs or prefix ids with something of your own.
         *     Without a timestamp the event is dated at its receipt (the customer's current time).
         *     Late events (timestamp in a period the subscription has already closed, or before its charged_through_date) are stored with
         *     late = true and billed on the next invoice as a prior-period adjustment line (re-rated with that period's tiers and terms), or on a
         *     correction invoice once the subscription has ended. Events more than LATE_USAGE_MAX_DAYS (default 35) days before the customer's
         *     current time are refused (timestamp_too_old): usage that late is never silently accepted and dropped.
         *     Events no subscription period covers (no subscription, before its start, after its end, in a trial) are stored, answered with
         *     billable: false and the unbillable_reason, and counted in the usage summary's unbillable_event_count.
         */
        post: operations["ingestEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ingest up to 1000 usage events, all or nothing
         * @description All or nothing: when any event is invalid, nothing is stored and the error lists every invalid event
         *     (`details.issues[]`: path `events.<index>.<field>`, message; for reference problems also index, event_id and code). Schema
         *     problems answer 400 validation_failed; unknown customers or subscriptions, foreign subscriptions, future or too old timestamps and ids already
         *     used by another customer's event (code event_id_conflict, path `events.<index>.id`) answer 422 invalid_events. Fix and resend the whole batch: ids already stored are counted in duplicate_count, never twice.
         *     Send `application/cloudevents-batch+json` (a JSON array of CloudEvents) for a CloudEvents batch; its error paths are
         *     `<index>.<attribute>`.
         *
         *     Validation: the customer exists (customer tokens: their own customer only; with a customer token an event naming no customer, no
         *     customer_id nor external_customer_id and for CloudEvents no subject, is the token's own customer, while admin credentials must name it:
         *     400 validation_failed otherwise); subscription_id, when given, is a subscription of that
         *     customer; the timestamp is an ISO 8601 date-time (UTC offset within ±15:59, not before 1970) at most EVENT_MAX_FUTURE_SKEW_SECONDS
         *     (default 300 s) after the customer's current time (its test clock's for sandbox customers); properties is an
         *     object; JSON numbers must be exact as sent (integers within ±2^53, others at most 15 significant digits): send exact
         *     quantities as decimal strings; `quantity`, when present, is numeric (the default meter of an event_type without meters sums it,
         *     counting 1 for events without it).
         *     Event ids are global (deduplication is by id across customers): an id already used by another customer's event is refused as
         *     `event_id_conflict` (it says only that the id is taken); use UUIDs or prefix ids with something of your own.
         *     Without a timestamp the event is dated at its receipt (the customer's current time).
         *     Late events (timestamp in a period the subscription has already closed, or before its charged_through_date) are stored with
         *     late = true and billed on the next invoice as a prior-period adjustment line (re-rated with that period's tiers and terms), or on a
         *     correction invoice once the subscription has ended. Events more than LATE_USAGE_MAX_DAYS (default 35) days before the customer's
         *     current time are refused (timestamp_too_old): usage that late is never silently accepted and dropped.
         *     Events no subscription period covers (no subscription, before its start, after its end, in a trial) are stored, answered with
         *     billable: false and the unbillable_reason, and counted in the usage summary's unbillable_event_count.
         */
        post: operations["ingestEventBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/meters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List meters, newest first
         * @description Every meter, newest first, as a JSON array (pagination in the X-Has-More, X-Next-Cursor and Link headers); event_type narrows to the meters of one event type.
         */
        get: operations["listMeters"];
        put?: never;
        /**
         * Define a meter
         * @description Aggregations (as SPEC spells them): Sum, Max and LATEST of a numeric property (JSON numbers or decimal strings, summed
         *     exactly); Count of events; UniqueCount of distinct values of the property; WEIGHTED_SUM: each event's property moves a level that
         *     persists across windows, and the value is the level's time-weighted average over the window (rounded half-even to 12 decimal places).
         *     Latest and WeightedSum are accepted on input and stored as LATEST and WEIGHTED_SUM.
         *     Filters (all must hold): Equals, NotEquals, GreaterThan, GreaterThanOrEqual, LessThan, LessThanOrEqual, In. A number compares
         *     numerically with numbers and decimal strings, a string with the text of strings and numbers, a boolean with booleans. NotEquals also
         *     matches events without the property; the others need it. For "not in", give several NotEquals.
         *     Windows: BillingPeriod (the subscription's billing period), Sliding (window_size before the reference instant), Tumbling (consecutive
         *     window_size windows aligned on the Unix epoch, so P1D windows start at 00:00 UTC; the one containing the reference instant).
         *     A period's invoice bills a BillingPeriod meter's value over the period, a Tumbling meter the sum over the period's windows of each
         *     window's value (e.g. the sum of daily maxima), a Sliding meter its value over the window_size ending at the period end.
         *     Several meters may match one event_type, each priced by its own SKU (SKU meter_id); a SKU giving only meter_event_type is billed with
         *     the type's default meter, the first one created. Meters are immutable (they can only be archived); an event_type without meters is
         *     measured by the default: the sum of each event's `quantity` (1 for events without it).
         *     Events already stored count as soon as the meter exists. A meter measuring exactly what another does (same event_type, aggregation, property, filters and window) is 409 meter_exists, naming the existing one in details.id.
         */
        post: operations["createMeter"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/meters/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a meter
         * @description The meter definition: event type, aggregation, property, filters and window, archived or not.
         */
        get: operations["getMeter"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/meters/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a meter
         * @description Sets archived_at. A new SKU cannot price an event_type billed with an archived meter (409 meter_archived), so no new plan version is matched to it. Plan versions already pricing its event_type keep billing with it: subscriptions on them are not re-priced. Archiving an archived meter returns it unchanged.
         */
        post: operations["archiveMeter"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/customers/{id}/usage-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a customer's stored usage events
         * @description The raw events as stored, newest first (arrival order), as a JSON array (pagination in the X-Has-More, X-Next-Cursor
         *     and Link headers; the cursor is an event id). Filter by event_type, subscription_id, the event timestamp
         *     (timestamp_gte / timestamp_lt) and when it was stored (created_gte / created_lt). Useful to find events that no meter counts,
         *     such as a misspelled event_type. An unknown customer is 404 `customer_not_found`.
         */
        get: operations["listCustomerUsageEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/subscriptions/{id}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Usage summary of a subscription
         * @description One entry per meter of the event types the subscription's plan meters (SKU meter_event_type, the meter_id's event type), each over its window:
         *     by default the current billing period (BillingPeriod meters), the window_size up to now (Sliding) and the current epoch-aligned window
         *     (Tumbling). `at` picks another reference instant (and the billing period containing it); `from`/`to` one explicit window for all.
         *     Counted: the subscription's events and its customer's events sent without a subscription_id. Values are exact decimal strings
         *     (WEIGHTED_SUM rounded half-even to 12 places). Late events are included and counted in late_event_count.
         *     billable_value is what an invoice of the period rates for the meter (the sum of each window's value for Tumbling meters, the window_size
         *     ending at period_end for Sliding ones), exactly as the period close computes it.
         *     Customer tokens see only their own subscriptions.
         */
        get: operations["getSubscriptionUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/contracts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List contracts
         * @description Newest first, filtered by customer_id, status and created_gte / created_lt. A JSON array; X-Has-More, X-Next-Cursor and Link rel="next" headers page through the rest.
         */
        get: operations["listContracts"];
        put?: never;
        /**
         * Create a contract (Active unless "activate": false)
         * @description The contract is Active at once, with its workflow started, so it can be amended, linked and terminated right away; with "activate": false it stays a Draft until POST /admin/v1/contracts/{id}/activate. Terms are ramp phases that tile [start_date, end_date) with no gap or overlap; each has its own commit, discount and overrides, falling back to the contract-level ones. The customer must exist (404 `customer_not_found`) and not be Closed (422 `customer_closed`).
         */
        post: operations["createContract"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/contracts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a contract with its terms, remaining commits, amendment chain and subscriptions
         * @description The contract with every term (phase) and, for this read, each phase's drawn-down and remaining commit, the chain of amendments it belongs to and the subscriptions it prices.
         */
        get: operations["getContract"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/contracts/{id}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Activate a Draft contract (any other state is 409 invalid_state_transition)
         * @description Starts the workflow of a Draft contract, which then escalates, trues up and expires on schedule.
         */
        post: operations["activateContract"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/contracts/{id}/amend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Amend an Active contract: a new Active contract replaces it from effective_date on
         * @description The amended contract becomes Amended (immutable); the answer is the new Active contract, whose parent_contract_id names it, with the same dates and history: the phase in force on effective_date is split there (its commit before it prorated by days), and from effective_date on that phase commits new_committed_amount_nanos and later phases take the given discount_bps and rate_overrides. Its subscriptions move to the new contract. Only an Active contract can be amended (409 invalid_state_transition otherwise); effective_date must fall inside the contract and not before today (422 invalid_effective_date). Of two concurrent amendments one succeeds and the other is refused (409 contract_already_amended), so the chain never forks.
         */
        post: operations["amendContract"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/contracts/{id}/terminate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Terminate an Active contract early (today is its last day)
         * @description The early-exit fee, the shortfall of the phase in force against its commit prorated to the days served, goes on a Draft as a contract_fee line. Any other state than Active is 409 invalid_state_transition.
         */
        post: operations["terminateContract"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/contracts/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry the contract's workflow step that left it in billing_error
         * @description A step of the contract's workflow (an escalation, a phase true-up, the expiry) whose work failed in a way no automatic retry fixes (invalid stored data, a numeric overflow, or a transient failure that outlasted its retry schedule) holds the contract with billing_error set; nothing later is done for it meanwhile. Fix the data, then retry: billing_error is cleared (audited as contract.billing_retried) and the answer comes once the step ran again, with billing_error set anew when it failed again. 409 no_billing_error when there is nothing to retry.
         */
        post: operations["retryContract"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/contracts/{id}/subscriptions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Adopt a subscription (PLG, Coterm or Recontract): its periods are then priced by the contract
         * @description The subscription must belong to the contract's customer (422 contract_customer_mismatch) and not be linked yet (409 subscription_already_linked); an Amended, Terminated or Expired contract, an Expired subscription, or one Coterm would realign that is not Active or PastDue, is 409 invalid_state_transition. Coterm with fewer than 30 days left in the contract bills the one-time fee (a contract_fee line) instead of aligned periods; Coterm to a contract that ends today or earlier is 422 contract_ended.
         */
        post: operations["linkContractSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints, newest first (secrets masked)
         * @description A JSON array, newest first (pagination in the X-Has-More, X-Next-Cursor and Link headers); signing secrets are masked.
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Register a webhook endpoint
         * @description url: an absolute http(s) URL without credentials. In production mode (NODE_ENV=production) loopback, link-local and private
         *     addresses are refused (422 webhook_url_not_allowed), written in the URL or resolved from its host, unless WEBHOOK_ALLOW_PRIVATE_URLS=true.
         *     events: event types (invoice.finalized, invoice.paid, invoice.voided, subscription.created, subscription.cancelled, subscription.past_due, payment.failed, payment.succeeded, spend_alert.triggered, credit_note.issued, contract.created, contract.activated, contract.amended, contract.expired, contract.terminated, contract.escalated, contract.trued_up, contract.subscription_linked, contract.subscription_aligned, test_clock.ready, test_clock.internal_failure) or "*"; an unknown type is a 400 naming it.
         *     The answer carries the signing secret in full; later reads show it masked.
         *     Each event is POSTed to every enabled endpoint subscribed to its type that existed when the event was written, as the JSON
         *     { id, type, timestamp, data } (money as strings), with X-Billing-Signature (lowercase hex HMAC-SHA256 of the raw body, keyed with the
         *     endpoint's secret), X-Billing-Event-Id and X-Billing-Event-Type. A 2xx answer within the timeout (WEBHOOK_TIMEOUT_MS, 10 s) delivers it;
         *     anything else is retried on WEBHOOK_RETRY_SCHEDULE (at once, then 30 s, 5 min, 30 min and 4 h after the previous attempt); after the
         *     last attempt the delivery is Failed. After WEBHOOK_BREAKER_THRESHOLD (5) consecutive failed attempts the endpoint's circuit opens and
         *     its deliveries wait WEBHOOK_BREAKER_OPEN_SECONDS (60 s) without spending attempts; then one probe is let through, and its success
         *     closes the circuit. Each delivery is the Temporal workflow webhook:<event_id>:<endpoint_id>.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook endpoint with its circuit breaker state
         * @description The endpoint (secret masked) with its circuit breaker: Closed while deliveries flow, Open while they are suspended, HalfOpen while one probe decides.
         */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint and its delivery log
         * @description Deliveries under way stop before their next attempt.
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Change url, events, description or enabled
         * @description url: an absolute http(s) URL without credentials. In production mode (NODE_ENV=production) loopback, link-local and private
         *     addresses are refused (422 webhook_url_not_allowed), written in the URL or resolved from its host, unless WEBHOOK_ALLOW_PRIVATE_URLS=true.
         *     events: event types (invoice.finalized, invoice.paid, invoice.voided, subscription.created, subscription.cancelled, subscription.past_due, payment.failed, payment.succeeded, spend_alert.triggered, credit_note.issued, contract.created, contract.activated, contract.amended, contract.expired, contract.terminated, contract.escalated, contract.trued_up, contract.subscription_linked, contract.subscription_aligned, test_clock.ready, test_clock.internal_failure) or "*"; an unknown type is a 400 naming it.
         *     A disabled endpoint gets no new deliveries, and its pending ones end Failed at their next attempt.
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/admin/v1/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the signing secret
         * @description Every attempt from now on is signed with the new secret, shown in full in this answer only.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the endpoint's deliveries with their attempts, newest first
         * @description Each event is POSTed to every enabled endpoint subscribed to its type that existed when the event was written, as the JSON
         *     { id, type, timestamp, data } (money as strings), with X-Billing-Signature (lowercase hex HMAC-SHA256 of the raw body, keyed with the
         *     endpoint's secret), X-Billing-Event-Id and X-Billing-Event-Type. A 2xx answer within the timeout (WEBHOOK_TIMEOUT_MS, 10 s) delivers it;
         *     anything else is retried on WEBHOOK_RETRY_SCHEDULE (at once, then 30 s, 5 min, 30 min and 4 h after the previous attempt); after the
         *     last attempt the delivery is Failed. After WEBHOOK_BREAKER_THRESHOLD (5) consecutive failed attempts the endpoint's circuit opens and
         *     its deliveries wait WEBHOOK_BREAKER_OPEN_SECONDS (60 s) without spending attempts; then one probe is let through, and its success
         *     closes the circuit. Each delivery is the Temporal workflow webhook:<event_id>:<endpoint_id>.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/webhooks/{id}/deliveries/{delivery_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a delivery with its attempts
         * @description The delivery with its payload, its status and every attempt (status code, error, latency).
         */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/webhooks/{id}/deliveries/{delivery_id}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a Delivered or Failed delivery again
         * @description The same bytes, as a new run of the delivery workflow with a fresh attempt budget (attempt numbers go on). 409 webhook_delivery_in_progress while the delivery is still being attempted.
         */
        post: operations["resendWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/customers/{id}/payment-methods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a customer's attached payment methods
         * @description Newest first, as a JSON array (pagination in the X-Has-More, X-Next-Cursor and Link headers).
         */
        get: operations["listPaymentMethods"];
        put?: never;
        /**
         * Attach a payment method to a customer
         * @description Attaches a processor payment method (e.g. `pm_card_visa`) to the customer's processor customer (created on first use) and keeps
         *     its display details (brand, last four digits, expiry; never a card number). The first method, or one sent with set_default, becomes the
         *     default: when an invoice addressed to this customer becomes Open, it is charged automatically. Attaching the same method twice answers the
         *     attached one. A method the processor refuses is 422 `payment_method_rejected`; a Closed customer 409 `invalid_state_transition`; 503
         *     `payment_processor_unavailable` when the processor cannot be reached.
         */
        post: operations["attachPaymentMethod"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/payment-methods/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a payment method
         * @description The payment method: the processor's id, its type, brand, last four digits and expiry where the processor gives them, whether it is the default, and whether it is still attached.
         */
        get: operations["getPaymentMethod"];
        put?: never;
        post?: never;
        /**
         * Detach a payment method
         * @description Detaches it at the processor and here (answered with status detached; detaching again changes nothing). When it was the default, the newest remaining method becomes the default; without one, invoices go back to manual payment. 503 `payment_processor_unavailable` when the processor cannot be reached.
         */
        delete: operations["detachPaymentMethod"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/invoices/{id}/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an invoice's payments (every collection attempt) with their refunds
         * @description One payment per attempt (auto-charge, dunning retries, charges on demand, payments the processor reported), newest first, as a JSON array (pagination in headers).
         */
        get: operations["listInvoicePayments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List payments (every invoice) with their refunds
         * @description Every collection attempt of every invoice, newest first, as a JSON array (pagination in the X-Has-More, X-Next-Cursor and Link headers); filter by customer_id, invoice_id, status and created_gte / created_lt.
         */
        get: operations["listPayments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/invoices/{id}/payment-intents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Charge an Open invoice now
         * @description Creates and confirms a processor PaymentIntent for the amount due (raw units rounded once, HalfEven, to the currency's minor
         *     unit), through the invoice workflow. A succeeded charge pays the invoice (payment.succeeded, invoice.paid) and resolves its dunning; a
         *     declined one is recorded Failed (payment.failed) and starts dunning if none runs; with capture_method manual the payment waits for a
         *     capture (RequiresCapture); a processing one stays Pending until the processor's notification decides. Only Open invoices (409
         *     `invalid_state_transition`); nothing left to pay is 422 `nothing_to_charge`; without a payment method, 422 `no_payment_method`.
         */
        post: operations["chargeInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/invoices/{id}/capture": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Capture an invoice's authorised payment
         * @description Captures the invoice's payment in RequiresCapture (409 `no_payment_to_capture` when there is none; an invoice that is not Open 409 `invalid_state_transition`); the processor's answer is recorded like a charge's.
         */
        post: operations["captureInvoicePayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/invoices/{id}/refunds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Refund a Paid invoice, in full or in part
         * @description Gives money back on one of the invoice's succeeded payments through the processor and records it with a credit note against the
         *     invoice (credit_note.issued). Never more than the payment collected minus what it gave back, nor more than the invoice has left to credit
         *     (422 `refund_exceeds_payment`, details.refundable_nanos); the amount is whole minor units (422 `refund_not_whole_minor_units`). Only
         *     Paid invoices (409 `invalid_state_transition`); no collected payment with money left is 422 `nothing_to_refund`, a payment_id that is not
         *     one of them 404 `payment_not_found`; a refusal by the processor is 422 `refund_rejected`; 503 `payment_processor_unavailable` when it cannot be reached.
         */
        post: operations["refundInvoice"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/dunning-schedules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List dunning schedules
         * @description Newest first as a JSON array (pagination in headers); filter by status, customer_id, subscription_id and created_gte / created_lt.
         */
        get: operations["listDunningSchedules"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/invoices/{id}/dunning": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An invoice's dunning schedule
         * @description 404 `dunning_schedule_not_found` when its payment never failed.
         */
        get: operations["getInvoiceDunning"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/invoices/{id}/dunning/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry the dunning retry that left the schedule in billing_error
         * @description A retry of the invoice's dunning schedule whose work failed in a way no automatic retry fixes (invalid stored data, a numeric overflow, or a transient failure that outlasted its retry schedule) holds the schedule with billing_error set; no later retry is made meanwhile. Fix the data, then retry: billing_error is cleared (audited as dunning_schedule.billing_retried) and the answer comes once the retry ran again, with billing_error set anew when it failed again. 409 no_billing_error when there is nothing to retry; 404 dunning_schedule_not_found when the payment never failed.
         */
        post: operations["retryInvoiceDunning"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhooks/processor": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Payment processor notifications (signed)
         * @description Called by the payment processor, authenticated by its signature alone (no token or key): the Stripe-Signature header is
         *     verified over the raw body against PROCESSOR_WEBHOOK_SECRET with a 300 s tolerance; a missing, malformed, stale, tampered or wrongly signed
         *     notification is 400 `invalid_signature`; a validly signed body that is no notification (not a JSON object, id or type not a string, data or
         *     data.object not an object) is 400 `malformed_notification`. Each event id is stored once: a replay is acknowledged (action duplicate) and has no second
         *     effect. Handled: payment_intent.succeeded, payment_intent.payment_failed, payment_intent.canceled, invoice.paid, invoice.payment_succeeded,
         *     invoice.payment_failed, charge.refunded (payment_intent.payment_failed and invoice.payment_failed start dunning; a success during dunning
         *     resolves it; invoice.paid and invoice.payment_succeeded collect the invoice named by metadata.invoice_id or by a PaymentIntent of ours).
         *     Other types, and objects the engine does not know, are acknowledged and ignored. The request only stores the notification; its workflow applies it.
         */
        post: operations["receiveProcessorNotification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/processor-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List processor notifications
         * @description The notifications received on POST /v1/webhooks/processor, newest first by arrival, as a JSON array (pagination in the X-Has-More, X-Next-Cursor and Link headers; the cursor is an event id). Filter by status (billing_error finds those waiting for an operator), type, object_id, and when they were received (created_gte / created_lt).
         */
        get: operations["listProcessorEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/processor-events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a processor notification
         * @description The notification with its type, the object it names, when it was received and processed, its outcome, and any billing_error waiting for an operator.
         */
        get: operations["getProcessorEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/processor-events/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry applying a processor notification that is in billing_error
         * @description A notification whose application failed in a way no automatic retry fixes (invalid stored data, a numeric overflow, a failure inside its invoice's workflow, or a transient failure that outlasted its retry schedule) is held by its workflow with billing_error set; the daily dunning check leaves it alone. Fix the data, then retry: billing_error is cleared (audited as processor_event.billing_retried) and the answer comes once the notification was applied again, with its outcome, or with billing_error set anew when it failed again. 409 no_billing_error when there is nothing to retry.
         */
        post: operations["retryProcessorEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/customers/{id}/ledger/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A customer's ledger accounts and balances
         * @description Every account of the customer (per currency: accounts_receivable, cash, revenue, deferred_revenue, tax_payable, wallet,
         *     promotional_credit, promotional_expense; an account exists once something was posted to it) with its debit and credit totals and its
         *     balance on its normal side. With as_of, only entries effective at or before that instant count.
         */
        get: operations["listLedgerAccounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/customers/{id}/ledger/entries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A customer's journal entries
         * @description Entries, newest first (a JSON array, pagination in headers), each with its journal (kind, business key, source
         *     document, the journal it reverses). Filters: account kind, currency, effective date range [from, to), source document, the journal's created_gte / created_lt.
         */
        get: operations["listLedgerEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/ledger/trial-balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Trial balance
         * @description Σ debits and Σ credits per currency and account kind, over every customer or one, as of an instant; difference_nanos is always "0" (the database refuses a journal that does not balance).
         */
        get: operations["getTrialBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/customers/{id}/wallets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A customer's credit wallets
         * @description One wallet per currency, newest first (a JSON array, pagination in headers).
         */
        get: operations["listWallets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/customers/{id}/wallets/{currency}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A credit wallet
         * @description Balance (paid and promotional), its grants and the auto-recharge settings. 404 `wallet_not_found` before anything created it.
         */
        get: operations["getWallet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/customers/{id}/wallets/{currency}/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A wallet's transaction history
         * @description Every balance move (top_up, promotional_grant, drawdown, expiry, void_return), newest first, with the balance after it, as a JSON array (pagination in headers).
         */
        get: operations["listWalletTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/customers/{id}/wallets/{currency}/top-ups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A wallet's paid top-ups (requested and auto-recharges)
         * @description Newest first, as a JSON array (pagination in the X-Has-More, X-Next-Cursor and Link headers): top-ups requested through the API and those auto-recharge made, each with its payment status.
         */
        get: operations["listWalletTopUps"];
        put?: never;
        /**
         * Top up a wallet, paid through the payment processor
         * @description Charges the given (or default) payment method for amount_nanos (a whole number of minor units, else 422
         *     `top_up_not_whole_minor_units`; more than 2^53 - 1 minor units: 422 `top_up_too_large`; a balance it would take past 38 digits: 422
         *     `wallet_balance_out_of_range`; no method on file: 422 `no_payment_method`) and answers the top-up: Succeeded credits the wallet at
         *     once, Failed when the processor refused, Pending until the processor's notification decides (a payment_intent.succeeded notification
         *     about it credits it then, also after a failure); 503 `payment_processor_unavailable` when the processor cannot be reached. Creates the wallet
         *     on first use.
         */
        post: operations["topUpWallet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/customers/{id}/wallets/{currency}/top-ups/{top_up_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry the auto-recharge step that left the top-up in billing_error
         * @description An auto-recharge that could not be charged is recorded Failed by its workflow; when that recording itself fails in a way
         *     no automatic retry fixes (invalid stored data, a numeric overflow, or a transient failure that outlasted its retry schedule), the top-up
         *     stays Pending with billing_error set and its workflow holds. Fix the data, then retry: billing_error is cleared (audited as
         *     wallet_top_up.billing_retried) and the answer comes once the step ran again, with billing_error set anew when it failed again.
         *     409 `no_billing_error` when there is nothing to retry; 404 `wallet_top_up_not_found` when the wallet has no such top-up.
         */
        post: operations["retryWalletTopUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/customers/{id}/wallets/{currency}/grants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Grant promotional credit
         * @description Adds promotional credit (optionally expiring at expires_at, which must be after the customer's current time). Promotional
         *     credit is drawn before paid credit, soonest expiry first; what is left at expiry is written off at the next operation on the wallet or
         *     period close. Creates the wallet on first use. A grant that would take the balance past what 38 digits of raw units hold is 422
         *     `wallet_balance_out_of_range`. Answers the wallet as it stands after the grant (every Wallet field) with the grant it created in
         *     `grant` (id, kind promotional, amount_nanos, remaining_nanos, expires_at, granted_at).
         */
        post: operations["grantWalletCredit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/customers/{id}/wallets/{currency}/auto-recharge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Configure auto-recharge
         * @description When a drawdown takes the balance from at or above threshold_nanos to below it, one top-up (rounded up to whole minor units)
         *     brings it back to target_nanos, charged to the default payment method by the workflow `wallet-recharge:<top-up id>`: once per crossing,
         *     however many drawdowns run at once.
         */
        put: operations["setWalletAutoRecharge"];
        post?: never;
        /**
         * Turn auto-recharge off
         * @description Auto-recharge stops; the balance and the wallet's history are kept. Configure it again with PUT.
         */
        delete: operations["disableWalletAutoRecharge"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/customers/{id}/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the customer's spend alerts
         * @description Only this customer's alerts, newest first, each with its state and history; filter by status.
         */
        get: operations["listSpendAlerts"];
        put?: never;
        /**
         * Create a spend alert
         * @description An alert compares the customer's **current-period spend** with `threshold_nanos`: the charges of its subscriptions in
         *     the alert's currency for their current billing period, rated cumulatively to the customer's now (recurring fees and usage, before
         *     tax and credits), optionally only the SKUs metering `scope.meter_event_type`. Usage is evaluated shortly after it is recorded
         *     (debounced per customer), never per event. When the spend reaches the threshold the alert moves Armed → Triggered and one
         *     `spend_alert.triggered` event (data: alert_type, customer_id, threshold_nanos, alert_id, currency, spend_nanos) is written, once
         *     per crossing. A HardLimit also marks the customer `blocked` (GET /v1/customers/{id}/entitlement) while Triggered, and caps what
         *     the period's invoices charge at the threshold (a `spend_cap` line and `spend_cap_withheld_nanos` on the invoice); usage is still
         *     recorded. At each billing period start Triggered alerts are Armed again.
         *
         *     The new alert is evaluated at once. 404 `customer_not_found`; 422 `customer_closed`.
         */
        post: operations["createSpendAlert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/customers/{id}/alerts/{alert_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a spend alert with its history
         * @description The alert with its threshold, scope and status, its last evaluation, and every state change (history), oldest first.
         */
        get: operations["getSpendAlert"];
        put?: never;
        post?: never;
        /**
         * Disable a spend alert
         * @description The alert becomes Disabled (final, kept with its history): it no longer notifies, blocks or caps invoices finalized from now on.
         */
        delete: operations["disableSpendAlert"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/customers/{id}/alerts/{alert_id}/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reset a spend alert
         * @description A Triggered alert is Armed again at once (a HardLimit no longer blocks the customer), optionally with a new
         *     `threshold_nanos`. The period's spend so far stays its baseline: it triggers again only when the spend crosses its threshold anew
         *     (a raised threshold that the spend reaches, or in a later period). The cap on invoices is the alert's threshold at finalization, so
         *     raise the threshold to let more be charged. 409 `invalid_state_transition` for a Disabled alert.
         */
        post: operations["resetSpendAlert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/customers/{id}/entitlement": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The customer's entitlement: active or blocked
         * @description What the customer's product polls to stop serving it: `blocked` while a HardLimit spend alert of the customer is
         *     Triggered (until the next billing period starts or an admin resets the alert), else `active`. A customer token may read only its
         *     own customer (any other is 404).
         */
        get: operations["getEntitlement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/reconciliation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A customer's usage and money, reconciled
         * @description Whether every accepted usage event of the customer was billed exactly once and every amount is accounted for, now.
         *     usage: each closed period of each of its subscriptions rated again, whole, from its accepted events, against every invoice line that billed
         *     it (its own invoice, progressive invoices, late-usage adjustment lines), per SKU, with a state: billed, draft (its Draft waits for its grace
         *     end), late_usage_pending (late events wait for the next close or the correction run) or discrepancy. currencies: what its invoices, payments,
         *     refunds, credit notes (and their parts), wallets and customer credit balance moved, its open invoices and their amount due, and the ledger's
         *     receivable, which must equal that amount due and never be negative. balanced is true when nothing is off. 404 `customer_not_found` when
         *     the customer does not exist.
         */
        get: operations["getReconciliation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/reports/ar-aging": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Accounts receivable aging
         * @description Open receivables per customer and currency as of an instant, in buckets current (not past due), 1–30, 31–60, 61–90 and
         *     over 90 days past due. An invoice's open amount is the net of its accounts_receivable ledger entries effective at or before as_of (finalization,
         *     wallet drawdown, payments, credit notes, refunds, void); days past due are whole UTC days from its due date (finalization + the customer's
         *     payment_terms_days) to the as_of date. Only what is owed is aged: an invoice whose net is not positive is not open, so no amount is negative
         *     and open_invoices counts the invoices with something still owed (a credit the customer has is its credit balance, not a negative
         *     receivable). Per currency, total_nanos equals the ledger's accounts_receivable balance as of as_of, shown beside it. Without as_of each
         *     customer's invoices age against that customer's own time, so sandbox invoices age in sandbox time: its test clock's frozen time when it is
         *     on one, else now, in the report of one customer (customer_id; the report's as_of is that time) and in the report of every customer (each
         *     row's as_of says the time it was aged at; the report's as_of is now, and the ledger figure beside each currency's total takes each
         *     customer's accounts at that customer's time too).
         *     customer_id narrows the report to one customer (404 `customer_not_found` when there is none), currency to one currency.
         */
        get: operations["getArAgingReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/reports/mrr": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Monthly recurring revenue
         * @description MRR per customer, plan and currency as of an instant: the flat (recurring) fees of the plan each subscription is on then,
         *     normalised to a month (Monthly × 1, Quarterly / 3, SemiAnnual / 6, Annual / 12, rounded toward zero in raw units). Usage-priced SKUs are
         *     excluded; so are subscriptions in their trial, paused, cancelled (from the cancellation) or expired. customer_id narrows the report to one customer (404 `customer_not_found` when there is none), currency to one currency.
         */
        get: operations["getMrrReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/reports/mrr-movements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * MRR movements between two instants
         * @description Each customer's MRR (per currency) at from and at to, classified: new (none at from, none ever before), reactivation (none at
         *     from, some before), churn (none at to), expansion or contraction (the difference). Per currency, start + new + expansion + contraction + churn +
         *     reactivation = end exactly. customer_id narrows the report to one customer (404 `customer_not_found` when there is none), currency to one currency.
         */
        get: operations["getMrrMovementsReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/reports/deferred-revenue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deferred revenue schedule
         * @description Per UTC month and currency: the deferred revenue of finalized invoices' lines at the start, billed, recognized (ratably over
         *     each line's service period, by the ledger's formula) and reversed by voids in the month, and at its end, beside the ledger's deferred_revenue
         *     balance at the month's end. Months in the future show the schedule still to come. customer_id narrows the report to one customer (404 `customer_not_found` when there is none), currency to one currency.
         */
        get: operations["getDeferredRevenueReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/simulations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a price simulation
         * @description Answers 202 at once with the simulation (status `running`); a workflow (`simulation:<id>` in the Temporal UI, search attributes SimulationId and SimulationStatus) then re-rates the last `range.last_periods` closed periods of every subscription in `scope` (in the candidate plan’s currency) with the candidate, by the period close’s own rating over the usage recorded for each period, in batches. GET the simulation for progress, totals and the distribution; the per-period results as CSV at results_csv_url. Nothing it does touches invoices, the ledger or billing’s audit trail. An unknown candidate or scope plan is 404 `plan_not_found`, an unknown version 404 `plan_version_not_found`, a candidate plan without SKUs 422 `plan_has_no_skus`; price changes are validated like SKU prices (400 naming each field).
         */
        post: operations["createSimulation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/simulations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a price simulation
         * @description Its status, progress (updated after each batch), and per currency the totals (actual, candidate, delta) and the distribution of customers by how much more or less they would pay (buckets), over the results so far.
         */
        get: operations["getSimulation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/simulations/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a running price simulation
         * @description Moves it to `cancelling`; it stops before its next batch and ends `cancelled`, keeping the results so far. A simulation that is not running is 409 `simulation_not_running`.
         */
        post: operations["cancelSimulation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/simulations/{id}/results.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A price simulation’s results as CSV
         * @description One row per re-rated (subscription, period), by customer, subscription and period: customer_id, subscription_id, period_start, period_end, currency, actual_nanos (what its invoices billed), candidate_nanos, delta_nanos (candidate − actual); money in raw units.
         */
        get: operations["getSimulationResultsCsv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List audit entries, newest first
         * @description Every filter narrows the list; combine them freely. Pagination as on every list (X-Has-More, X-Next-Cursor, Link).
         */
        get: operations["listAuditEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/audit-log/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one audit entry
         * @description One entry of the append-only audit trail, with the resource before and after the change.
         */
        get: operations["getAuditEntry"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/customers/{id}/portal-sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint a customer portal link
         * @description A link (`url`) to the customer's self-service billing portal, like a billing portal session of Stripe: usage of the current
         *     period per meter with a chart per day, the upcoming invoice, invoices with their PDFs, credit balance and wallet, the card on file
         *     (add or replace it on the processor's page) and cancellation at the end of the period. The link works for PORTAL_SESSION_TTL_MINUTES
         *     (default 60) and only for this customer; the answer is the only place its secret appears. A Closed customer is 409
         *     `invalid_state_transition`. Audited as `portal_session.created`.
         */
        post: operations["createPortalSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/portal-sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint a portal link for the calling customer
         * @description For a customer token: a portal link for the token's own customer, as POST /admin/v1/customers/{id}/portal-sessions mints
         *     it. Admins use that route (403 `forbidden` here).
         */
        post: operations["createOwnPortalSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/portal-sessions/{id}/renew": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Renew a portal link
         * @description A new secret and a new expiry (PORTAL_SESSION_TTL_MINUTES from now) for the session: the answer carries the new link, and the
         *     previous link stops working at once. A revoked session is 409 `invalid_state_transition`. Audited as `portal_session.renewed`.
         */
        post: operations["renewPortalSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/portal-sessions/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke a portal link
         * @description The link stops working now (410 `portal_session_revoked`); revoking again changes nothing. Audited as `portal_session.revoked`.
         */
        post: operations["revokePortalSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/portal/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The customer portal page (public, from a portal session url)
         * @description No credentials: the link is the credential, for one customer only. 404 `portal_session_not_found` for a link that was altered or never issued, 410 `portal_session_expired` or
         *     `portal_session_revoked`; every error of /portal is an HTML page with that status, its code in X-Error-Code.
         */
        get: operations["getPortalPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/portal/{token}/invoices/{id}/pdf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An invoice's PDF from the portal
         * @description The same bytes as GET /v1/invoices/{id}/pdf, for an invoice of the session's customer (another customer's is 404
         *     `invoice_not_found`). 404 `portal_session_not_found` for a link that was altered or never issued, 410 `portal_session_expired` or
         *     `portal_session_revoked`; every error of /portal is an HTML page with that status, its code in X-Error-Code.
         */
        get: operations["getPortalInvoicePdf"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/portal/{token}/payment-method": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add or replace the card on file (the portal's form)
         * @description Opens a checkout session in setup mode at the processor (a SetupIntent for the customer's processor customer) and answers
         *     303 to its page, where the customer enters the card; the processor sends the customer back to
         *     GET /portal/{token}/payment-method/complete. 422 `checkout_rejected` when the processor refuses, 503 `payment_processor_unavailable`.
         *     Accepted only from the portal page: its `form_token` (signed for this session, issued at most an hour before) and,
         *     when the browser sends them, an `Origin` of this service or `Sec-Fetch-Site: same-origin`; anything else is 403 `portal_form_refused`. Audited as `portal.payment_method_setup_started`. 404 `portal_session_not_found` for a link that was altered or never issued, 410 `portal_session_expired` or
         *     `portal_session_revoked`; every error of /portal is an HTML page with that status, its code in X-Error-Code.
         */
        post: operations["startPortalPaymentMethodSetup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/portal/{token}/payment-method/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Back from the processor's card page
         * @description Only for the checkout session this portal session opened (anything else is 404 `checkout_session_not_found`): once its
         *     SetupIntent succeeded, its payment method is attached as the customer's default (as POST /admin/v1/customers/{id}/payment-methods
         *     with set_default, audited as `payment_method.attached` by the customer; 422 `payment_method_rejected` when the processor refuses it),
         *     and the answer is 303 to the portal, which says whether the card was saved. 404 `portal_session_not_found` for a link that was altered or never issued, 410 `portal_session_expired` or
         *     `portal_session_revoked`; every error of /portal is an HTML page with that status, its code in X-Error-Code.
         */
        get: operations["completePortalPaymentMethodSetup"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/portal/{token}/subscriptions/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel at the end of the period (the portal's form)
         * @description Cancels the subscription as POST /admin/v1/subscriptions/{id}/cancel does (its period is billed, then it expires), as the
         *     customer (audited as `subscription.cancelled` with actor `customer`), and answers 303 to the portal. Another customer's
         *     subscription is 404 `subscription_not_found`; a plan whose metadata has `portal_cancellation` = `disabled` 422
         *     `portal_cancellation_disabled`; a subscription that cannot be cancelled 409 `invalid_state_transition`. Accepted only from the portal page: its `form_token` (signed for this session, issued at most an hour before) and,
         *     when the browser sends them, an `Origin` of this service or `Sec-Fetch-Site: same-origin`; anything else is 403 `portal_form_refused`. 404 `portal_session_not_found` for a link that was altered or never issued, 410 `portal_session_expired` or
         *     `portal_session_revoked`; every error of /portal is an HTML page with that status, its code in X-Error-Code.
         */
        post: operations["cancelSubscriptionFromPortal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/portal/{token}/sign-out": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign out (the portal's form)
         * @description Revokes the session (audited as `portal_session.revoked` by the customer): its link answers 410 `portal_session_revoked` from
         *     then on. Accepted only from the portal page: its `form_token` (signed for this session, issued at most an hour before) and,
         *     when the browser sends them, an `Origin` of this service or `Sec-Fetch-Site: same-origin`; anything else is 403 `portal_form_refused`. 404 `portal_session_not_found` for a link that was altered or never issued, 410 `portal_session_expired` or
         *     `portal_session_revoked`; every error of /portal is an HTML page with that status, its code in X-Error-Code.
         */
        post: operations["signOutOfPortal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI 3.0 document (public)
         * @description Public. Generated from the route definitions; the error codes are under x-error-codes and x-issue-codes.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/api": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The rendered API reference (public; works offline)
         * @description Public. Swagger UI for /openapi.json, served with its assets so it renders without network access.
         */
        get: operations["getApiReference"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/errors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The error-code catalogue (public)
         * @description Public. Every error code with its status and meaning, and every issue code of details.issues.
         */
        get: operations["getErrorCatalogue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        CloudEvent: {
            /** @enum {string} */
            specversion: "1.0";
            /**
             * @description client-generated; the deduplication key (global across customers)
             * @example evt_01HZX3
             */
            id: string;
            /** @description stored with the event */
            source: string;
            /**
             * @description becomes event_type
             * @example api_calls
             */
            type: string;
            /**
             * Format: uuid
             * @description the customer id; required with admin credentials, and with a customer token the token's own customer when absent
             * @example 01900000-0000-7000-8000-000000000000
             */
            subject?: string;
            /**
             * Format: date-time
             * @description becomes timestamp; the time of receipt when absent
             * @example 2026-01-31T12:00:00Z
             */
            time?: string;
            datacontenttype?: string;
            dataschema?: string;
            /**
             * @description becomes properties
             * @example {
             *       "tokens": "1500",
             *       "model": "large"
             *     }
             */
            data?: {
                [key: string]: unknown;
            };
            /**
             * Format: uuid
             * @description extension attribute: becomes subscription_id
             * @example 01900000-0000-7000-8000-000000000000
             */
            subscriptionid?: string;
        } & {
            [key: string]: unknown;
        };
        CloudEventBatch: components["schemas"]["CloudEvent"][];
        Health: {
            /** @enum {string} */
            status: "ok" | "degraded";
            checks: {
                database: {
                    /** @enum {string} */
                    status: "ok" | "down";
                    latency_ms: number;
                    error?: string;
                };
                temporal: {
                    /** @enum {string} */
                    status: "ok" | "down";
                    latency_ms: number;
                    error?: string;
                };
            };
            /** @description names of the dependencies that did not answer */
            down: string[];
        };
        Error: {
            error: {
                /**
                 * @description one of the error registry's codes (x-error-codes, /docs/errors)
                 * @example validation_failed
                 * @enum {string}
                 */
                code: "validation_failed" | "malformed_json" | "invalid_idempotency_key" | "invalid_signature" | "malformed_notification" | "unauthenticated" | "forbidden" | "hosted_form_refused" | "portal_form_refused" | "not_found" | "customer_not_found" | "parent_not_found" | "bill_to_not_found" | "product_not_found" | "plan_not_found" | "sku_not_found" | "plan_version_not_found" | "subscription_not_found" | "invoice_not_found" | "credit_note_not_found" | "meter_not_found" | "test_clock_not_found" | "contract_not_found" | "spend_alert_not_found" | "webhook_endpoint_not_found" | "audit_entry_not_found" | "webhook_delivery_not_found" | "payment_method_not_found" | "payment_not_found" | "dunning_schedule_not_found" | "processor_event_not_found" | "hosted_link_not_found" | "portal_session_not_found" | "checkout_session_not_found" | "wallet_not_found" | "simulation_not_found" | "wallet_top_up_not_found" | "invalid_state_transition" | "external_id_taken" | "meter_exists" | "idempotency_key_in_use" | "plan_currency_mismatch" | "plan_archived" | "product_archived" | "meter_archived" | "customer_has_open_subscriptions" | "customer_has_open_invoices" | "customer_has_open_children" | "customer_is_bill_to" | "event_id_conflict" | "test_clock_advancing" | "test_clock_has_customers" | "contract_already_amended" | "subscription_already_linked" | "webhook_delivery_in_progress" | "customer_credit_spent" | "simulation_not_running" | "no_payment_to_capture" | "hosted_link_expired" | "portal_session_expired" | "portal_session_revoked" | "no_billing_error" | "payload_too_large" | "unsupported_media_type" | "idempotency_key_reused" | "billing_failed" | "meter_event_type_mismatch" | "parent_not_allowed" | "subsidiary_requires_parent" | "individual_cannot_have_children" | "parent_closed" | "self_reference" | "hierarchy_cycle" | "hierarchy_too_deep" | "consolidation_requires_parent" | "consolidation_currency_mismatch" | "bill_to_closed" | "customer_not_active" | "plan_has_no_skus" | "simulation_rating_failed" | "currency_mismatch" | "same_plan" | "nothing_to_bill" | "line_amount_mismatch" | "amount_out_of_range" | "payment_amount_mismatch" | "negative_invoice_total" | "credit_exceeds_invoice" | "credit_note_exceeds_remaining" | "credit_note_exceeds_amount_due" | "credit_note_exceeds_refundable" | "credit_note_exceeds_settled" | "credit_note_allocation_exceeds_amount" | "test_clock_cannot_go_back" | "subscription_customer_mismatch" | "customer_closed" | "contract_customer_mismatch" | "invalid_effective_date" | "contract_ended" | "coterm_not_alignable" | "webhook_url_not_allowed" | "nothing_to_charge" | "no_payment_method" | "checkout_rejected" | "portal_cancellation_disabled" | "payment_method_rejected" | "nothing_to_refund" | "refund_not_whole_minor_units" | "refund_exceeds_payment" | "refund_rejected" | "wallet_balance_out_of_range" | "top_up_too_large" | "top_up_not_whole_minor_units" | "invalid_events" | "quantity_limit_exceeded" | "rate_limited" | "internal_error" | "service_unavailable" | "payment_processor_unavailable";
                message: string;
                details?: {
                    [key: string]: unknown;
                };
                request_id: string;
            };
        };
        Customer: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            display_name: string;
            legal_name: string | null;
            email: string;
            account_type: components["schemas"]["AccountType"];
            status: components["schemas"]["CustomerStatus"];
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            parent_id: string | null;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            bill_to_id: string | null;
            consolidation: components["schemas"]["Consolidation"];
            /** @example USD */
            billing_currency: string;
            payment_terms_days: number;
            tax_id: string | null;
            billing_address: components["schemas"]["BillingAddress"];
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            test_clock_id: string | null;
            /**
             * @description your system's id for the customer: unique, usable as external_customer_id in usage events
             * @example crm-8812
             */
            external_id: string | null;
            /**
             * @description your own key/value pairs
             * @example {
             *       "crm_id": "acct_8812"
             *     }
             */
            metadata: {
                [key: string]: string;
            };
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            updated_at: string;
        };
        /** @enum {string} */
        AccountType: "Organization" | "Individual" | "Subsidiary";
        /** @enum {string} */
        CustomerStatus: "Active" | "Suspended" | "Closed";
        /** @enum {string} */
        Consolidation: "Standalone" | "ConsolidateToParent";
        /** @description the bill-to postal address printed on invoice documents */
        BillingAddress: {
            line1: string;
            line2: string | null;
            city: string;
            state: string | null;
            postal_code: string | null;
            /**
             * @description ISO 3166-1 alpha-2
             * @example US
             */
            country: string;
        } | null;
        CreateCustomerRequest: {
            display_name: string;
            /**
             * Format: email
             * @example billing@example.com
             */
            email: string;
            /**
             * @description ISO 4217; stored and returned as billing_currency (immutable). Required unless billing_currency is given
             * @example USD
             */
            currency?: string;
            /**
             * @description the same as currency, under the name the customer is returned with: give either (both given, they must be equal)
             * @example USD
             */
            billing_currency?: string;
            account_type: components["schemas"]["AccountType"] & unknown;
            /**
             * Format: uuid
             * @description required for a Subsidiary, null otherwise
             * @example 01900000-0000-7000-8000-000000000000
             */
            parent_id?: string | null;
            legal_name?: string | null;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            bill_to_id?: string | null;
            consolidation?: components["schemas"]["Consolidation"] & unknown;
            /** @description net terms in days, 0-365 (default 30) */
            payment_terms_days?: number;
            tax_id?: string | null;
            /** @description the bill-to postal address printed on invoice documents */
            billing_address?: {
                line1: string;
                line2?: string | null;
                city: string;
                state?: string | null;
                postal_code?: string | null;
                country: string;
            } | null;
            /**
             * Format: uuid
             * @description sandbox test clock the customer follows
             * @example 01900000-0000-7000-8000-000000000000
             */
            test_clock_id?: string | null;
            /**
             * @description your system's id for the customer: unique, usable as external_customer_id in usage events
             * @example crm-8812
             */
            external_id?: string | null;
            /**
             * @description your own key/value pairs (up to 50 keys of 40 characters, values up to 500); on update the keys sent are merged in and a key set to null is removed
             * @example {
             *       "crm_id": "acct_8812"
             *     }
             */
            metadata?: {
                [key: string]: string | null;
            };
        };
        CustomerList: components["schemas"]["Customer"][];
        CustomerOverview: components["schemas"]["Customer"] & {
            subscriptions: {
                /**
                 * Format: uuid
                 * @example 01900000-0000-7000-8000-000000000000
                 */
                id: string;
                /**
                 * Format: uuid
                 * @example 01900000-0000-7000-8000-000000000000
                 */
                plan_id: string;
                /** @description the plan version the subscription is billed on */
                plan_version: number;
                /** @enum {string} */
                status: "Trialing" | "Active" | "PastDue" | "Paused" | "Cancelled" | "Expired";
                /** @example USD */
                currency: string;
                /**
                 * Format: date-time
                 * @example 2026-01-31T12:00:00.000Z
                 */
                period_start: string;
                /**
                 * Format: date-time
                 * @example 2026-01-31T12:00:00.000Z
                 */
                period_end: string;
                /**
                 * Format: date-time
                 * @example 2026-01-31T12:00:00.000Z
                 */
                charged_through_date: string | null;
                /**
                 * Format: uuid
                 * @example 01900000-0000-7000-8000-000000000000
                 */
                contract_id: string | null;
            }[];
            invoices: {
                /**
                 * Format: uuid
                 * @example 01900000-0000-7000-8000-000000000000
                 */
                id: string;
                /**
                 * Format: uuid
                 * @example 01900000-0000-7000-8000-000000000000
                 */
                subscription_id: string | null;
                /** @enum {string} */
                status: "Draft" | "Open" | "Paid" | "Void";
                /** @description assigned at finalization */
                invoice_number: string | null;
                /** @example USD */
                currency: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                total_nanos: string;
                /**
                 * Format: date-time
                 * @example 2026-01-31T12:00:00.000Z
                 */
                created_at: string;
            }[];
            ledger_balances: {
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                accounts_receivable_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                prepaid_credit_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                deferred_revenue_nanos: string;
                /**
                 * @description the customer_credit liability: the customer's credit balance in the billing currency, per the ledger
                 * @example 1500000000000
                 */
                customer_credit_nanos: string;
            };
            /** @description the customer's credit balance per currency (from credit notes), applied automatically to its next invoices in that currency at finalization */
            credit_balances: {
                /** @example USD */
                currency: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                balance_nanos: string;
            }[];
            recent_audit: {
                /**
                 * Format: uuid
                 * @example 01900000-0000-7000-8000-000000000000
                 */
                id: string;
                action: string;
                actor_type: string;
                actor_id: string;
                entity_type: string;
                entity_id: string;
                request_id: string | null;
                /**
                 * Format: date-time
                 * @example 2026-01-31T12:00:00.000Z
                 */
                created_at: string;
                /** @description the resource before the change (null on creation) */
                before: {
                    [key: string]: unknown;
                } | null;
                /** @description the resource after the change (null on deletion) */
                after: {
                    [key: string]: unknown;
                } | null;
            }[];
            /** @description attached payment methods, the default (charged automatically) first */
            payment_methods: components["schemas"]["PaymentMethod"][];
        };
        PaymentMethod: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string;
            /** @example pm_card_visa */
            processor_payment_method_id: string;
            /** @example card */
            type: string;
            /** @example visa */
            brand: string | null;
            /** @example 4242 */
            last4: string | null;
            exp_month: number | null;
            exp_year: number | null;
            /** @description the method invoices are charged to automatically */
            is_default: boolean;
            /** @enum {string} */
            status: "attached" | "detached";
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            detached_at: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            created_at: string;
        };
        UpdateCustomerRequest: {
            display_name?: string;
            legal_name?: string | null;
            /**
             * Format: email
             * @example billing@example.com
             */
            email?: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            bill_to_id?: string | null;
            consolidation?: components["schemas"]["Consolidation"];
            /** @description net terms in days, 0-365 (default 30) */
            payment_terms_days?: number;
            tax_id?: string | null;
            /** @description the bill-to postal address printed on invoice documents */
            billing_address?: {
                line1: string;
                line2?: string | null;
                city: string;
                state?: string | null;
                postal_code?: string | null;
                country: string;
            } | null;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            parent_id?: string | null;
            /**
             * @description your system's id for the customer: unique, usable as external_customer_id in usage events
             * @example crm-8812
             */
            external_id?: string | null;
            /**
             * @description your own key/value pairs (up to 50 keys of 40 characters, values up to 500); on update the keys sent are merged in and a key set to null is removed
             * @example {
             *       "crm_id": "acct_8812"
             *     }
             */
            metadata?: {
                [key: string]: string | null;
            };
        };
        ChangeCustomerStatusRequest: {
            status: components["schemas"]["CustomerStatus"];
        };
        CustomerHierarchyNode: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            display_name: string;
            account_type: components["schemas"]["AccountType"];
            status: components["schemas"]["CustomerStatus"];
            consolidation: components["schemas"]["Consolidation"];
            /** @example USD */
            billing_currency: string;
            children: components["schemas"]["CustomerHierarchyNode"][];
        };
        Product: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            name: string;
            description: string;
            tags: string[];
            /**
             * Format: date-time
             * @description set when archived: no new plans, and its plans take no new subscriptions
             * @example 2026-01-31T12:00:00.000Z
             */
            archived_at: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            created_at: string;
        };
        CreateProductRequest: {
            name: string;
            /** @description default "" */
            description?: string;
            /** @description matched by contract rate overrides (product_tag); default [] */
            tags?: string[];
        };
        ProductList: components["schemas"]["Product"][];
        Plan: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            product_id: string | null;
            name: string;
            description: string;
            billing_cadence: components["schemas"]["BillingCadence"];
            trial_days: number;
            /** @description the current version: new subscriptions take it; a SKU change while a subscription is on it opens the next one */
            version: number;
            /**
             * Format: date-time
             * @description set when archived: no new subscriptions, SKUs, plan changes into it or migrations
             * @example 2026-01-31T12:00:00.000Z
             */
            archived_at: string | null;
            /**
             * @description your own key/value pairs
             * @example {
             *       "crm_id": "acct_8812"
             *     }
             */
            metadata: {
                [key: string]: string;
            };
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            created_at: string;
            /** @description the SKUs of the current version in creation order */
            skus: components["schemas"]["Sku"][];
        };
        /** @enum {string} */
        BillingCadence: "Monthly" | "Quarterly" | "SemiAnnual" | "Annual";
        Sku: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            plan_id: string;
            name: string;
            pricing_model: components["schemas"]["PricingModel"];
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            unit_amount_nanos: string;
            /** @description the event type it rates (the named meter's when meter_id is set); null for a Flat SKU without one */
            meter_event_type: string | null;
            /**
             * Format: uuid
             * @description the meter it prices; null: the default meter of meter_event_type (the first meter created for that event type, else the type's built-in default, the sum of `quantity`), resolved when it is rated
             * @example 01900000-0000-7000-8000-000000000000
             */
            meter_id: string | null;
            /** @example USD */
            currency: string;
            tiers: components["schemas"]["Tier"][] | null;
            /** @description units per package, decimal-integer string */
            package_size: string | null;
            package_rounding: components["schemas"]["PackageRounding"];
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            commit_amount_nanos: string | null;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            overage_unit_amount_nanos: string | null;
            /** @description Package: units free before the first package, decimal-integer string */
            package_free_units: string | null;
            /**
             * @description usage models: the least the SKU bills per period; a true-up line (kind "minimum") makes up the rest
             * @example 1500000000000
             */
            minimum_amount_nanos: string | null;
            /** @description Percentage: the rate on each event's amount, in basis points */
            percentage_bps: number | null;
            /** @description Percentage: the event property holding the amount, in currency units */
            amount_property: string | null;
            /**
             * @description Percentage: fixed fee added per event
             * @example 1500000000000
             */
            per_event_fee_nanos: string | null;
            /**
             * @description Percentage: least fee per event
             * @example 1500000000000
             */
            per_event_minimum_nanos: string | null;
            /**
             * @description Percentage: greatest fee per event
             * @example 1500000000000
             */
            per_event_maximum_nanos: string | null;
            /** @description the first version of its plan holding this SKU */
            version_from: number;
            /** @description the first version of its plan without it (archived); null while the current version holds it */
            version_to: number | null;
            /**
             * Format: date-time
             * @description when the SKU was archived (taken out of the plan from version_to on)
             * @example 2026-01-31T12:00:00.000Z
             */
            archived_at: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            created_at: string;
        };
        /** @enum {string} */
        PricingModel: "Flat" | "PerUnit" | "Graduated" | "Volume" | "Package" | "Committed" | "Percentage";
        Tier: {
            /** @description inclusive upper bound in whole units; null for the last, unbounded tier */
            up_to: number | null;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            unit_amount_nanos: string;
            /**
             * @description charged once when the quantity enters (Graduated) or falls into (Volume) the tier
             * @example 1500000000000
             */
            flat_amount_nanos?: string;
        };
        /** @enum {string|null} */
        PackageRounding: "Up" | "Down" | null;
        CreatePlanRequest: {
            name: string;
            /** @description default "" */
            description?: string;
            billing_cadence: components["schemas"]["BillingCadence"];
            /** @description 0-730, default 0 */
            trial_days?: number;
            /**
             * Format: uuid
             * @description the product this plan sells; must exist
             * @example 01900000-0000-7000-8000-000000000000
             */
            product_id?: string | null;
            /**
             * @description your own key/value pairs (up to 50 keys of 40 characters, values up to 500); on update the keys sent are merged in and a key set to null is removed
             * @example {
             *       "crm_id": "acct_8812"
             *     }
             */
            metadata?: {
                [key: string]: string | null;
            };
        };
        PlanList: components["schemas"]["Plan"][];
        UpdateMetadataRequest: {
            /**
             * @description your own key/value pairs (up to 50 keys of 40 characters, values up to 500); on update the keys sent are merged in and a key set to null is removed
             * @example {
             *       "crm_id": "acct_8812"
             *     }
             */
            metadata: {
                [key: string]: string | null;
            };
        };
        CreateSkuRequest: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            plan_id: string;
            name: string;
            pricing_model: components["schemas"]["PricingModel"];
            /**
             * @description price per unit (PerUnit), fee (Flat), price per package (Package), value of a unit against the commit (Committed); optional for Graduated and Volume (default "0", unused)
             * @example 1500000000000
             */
            unit_amount_nanos?: string;
            /** @description usage event_type this SKU rates, billed with that type's default meter (the first meter created for it; without meters, the sum of `quantity`). Every model but Flat needs it or meter_id; with meter_id it may be left out, and must be the meter's event_type when given */
            meter_event_type?: string;
            /**
             * Format: uuid
             * @description the meter this SKU prices (its filters and window): any meter of an event type, each priced by its own SKU. Must exist and not be archived
             * @example 01900000-0000-7000-8000-000000000000
             */
            meter_id?: string;
            /** @example USD */
            currency: string;
            /** @description Graduated and Volume only; at least one, the last unbounded */
            tiers?: components["schemas"]["TierInput"][];
            /**
             * @description Package only: units per package
             * @example 1000
             */
            package_size?: string;
            package_rounding?: components["schemas"]["PackageRounding"] & unknown;
            /**
             * @description Package only: units free before the first package (default "0", at most 13000000000000000000); then every started package is billed (Up) or only whole ones (Down)
             * @example 1000
             */
            package_free_units?: string;
            /**
             * @description Committed only: minimum charge per period
             * @example 1500000000000
             */
            commit_amount_nanos?: string;
            /**
             * @description Committed only: price per unit beyond the commit
             * @example 1500000000000
             */
            overage_unit_amount_nanos?: string;
            /**
             * @description PerUnit, Graduated, Volume, Package and Percentage: the least the SKU bills per period (at most 1000000000000000000000000000000 raw units). At the period close a true-up line (kind "minimum") bills max(0, minimum − the SKU's line); prorated by days when the subscription serves part of the period
             * @example 1500000000000
             */
            minimum_amount_nanos?: string;
            /**
             * @description Percentage only (required): the rate on each event's amount in basis points, 0-10000 (290 = 2.9%)
             * @example 290
             */
            percentage_bps?: number;
            /**
             * @description Percentage only (required): the event property holding the amount in the currency units of the SKU (a number or decimal string); events without it, or with a negative one, are not charged
             * @example amount
             */
            amount_property?: string;
            /**
             * @description Percentage only: fixed fee added to each event's fee (default "0", at most 100000000000000000 raw units)
             * @example 1500000000000
             */
            per_event_fee_nanos?: string;
            /**
             * @description Percentage only: least fee per event (at most 100000000000000000 raw units)
             * @example 1500000000000
             */
            per_event_minimum_nanos?: string;
            /**
             * @description Percentage only: greatest fee per event, ≥ per_event_minimum_nanos (at most 100000000000000000 raw units)
             * @example 1500000000000
             */
            per_event_maximum_nanos?: string;
        };
        TierInput: {
            /** @description inclusive upper bound in whole units; null for the last, unbounded tier */
            up_to: number | null;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            unit_amount_nanos: string;
            /**
             * @description charged once when the quantity enters (Graduated) or falls into (Volume) the tier
             * @example 1500000000000
             */
            flat_amount_nanos?: string;
        };
        SkuList: components["schemas"]["Sku"][];
        PlanVersion: {
            version: number;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            created_at: string;
            /** @description subscriptions on this version now (any state) */
            subscription_count: number;
            /** @description the SKUs of this version in creation order */
            skus: components["schemas"]["Sku"][];
        };
        PlanMigration: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            plan_id: string;
            preview: boolean;
            to_version: number;
            subscriptions: {
                /**
                 * Format: uuid
                 * @example 01900000-0000-7000-8000-000000000000
                 */
                subscription_id: string;
                /**
                 * Format: uuid
                 * @example 01900000-0000-7000-8000-000000000000
                 */
                customer_id: string;
                status: string;
                from_version: number;
                to_version: number;
                /**
                 * Format: date-time
                 * @description the subscription's now (its test clock's time when on one)
                 * @example 2026-01-31T12:00:00.000Z
                 */
                effective_at: string;
                proration: {
                    /**
                     * @description unused part of the old version's Flat fees for the rest of the period
                     * @example 1500000000000
                     */
                    credit_nanos: string;
                    /**
                     * @description the new version's Flat fees for the rest of the period
                     * @example 1500000000000
                     */
                    charge_nanos: string;
                    /**
                     * @description charge − credit: what the move adds to the period (negative lowers it)
                     * @example 1500000000000
                     */
                    net_nanos: string;
                };
                sku_changes: {
                    added: string[];
                    removed: string[];
                };
                /**
                 * @description apply only
                 * @enum {string}
                 */
                result?: "moved" | "failed";
                /** @description why the move was refused (apply only) */
                error?: {
                    code: string;
                    message: string;
                };
                /**
                 * Format: uuid
                 * @description the period's Draft after the move (apply only)
                 * @example 01900000-0000-7000-8000-000000000000
                 */
                invoice_id?: string | null;
            }[];
            moved_count: number;
            failed_count: number;
            /** @description movable subscriptions beyond this batch: send the request again */
            remaining_count: number;
        };
        PlanMigrationRequest: {
            /** @description true: tell which subscriptions would move and the proration effect, changing nothing */
            preview: boolean;
            /** @description only subscriptions on this version; default every version but to_version */
            from_version?: number;
            /** @description default the plan's current version */
            to_version?: number;
            /** @description at most this many subscriptions per request (default and maximum 100) */
            limit?: number;
        };
        RatingPreview: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            plan_id: string;
            /**
             * @description ISO 8601 calendar date (YYYY-MM-DD) that exists
             * @example 2026-01-31
             */
            as_of: string;
            /** @example USD */
            currency: string;
            period: {
                /**
                 * @description ISO 8601 calendar date (YYYY-MM-DD) that exists
                 * @example 2026-01-31
                 */
                start: string;
                /**
                 * @description ISO 8601 calendar date (YYYY-MM-DD) that exists
                 * @example 2026-01-31
                 */
                end: string;
            };
            /** @description the contract ramp phase applied; null without one, or when the period is split (see pieces) */
            phase: number | null;
            /** @description the period split where the contract terms change; one piece when they do not */
            pieces: {
                /**
                 * @description ISO 8601 calendar date (YYYY-MM-DD) that exists
                 * @example 2026-01-31
                 */
                start: string;
                /**
                 * @description exclusive
                 * @example 2026-01-31
                 */
                end: string;
                days: number;
                /** @description the ramp phase in force, or null (contract-level terms) */
                phase: number | null;
                /** @description escalation steps elapsed on this piece */
                escalation_periods: number;
                /** @description one line per SKU, in the plan's order; quantity is this piece's usage */
                lines: components["schemas"]["RatedLine"][];
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                subtotal_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                discount_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                total_nanos: string;
            }[];
            /** @description one line per SKU of the plan, in the plan's order; for a split period, the sum of the SKU's piece lines */
            lines: components["schemas"]["RatedLine"][];
            /** @description one per SKU with a minimum_amount_nanos: the true-up its line needs to reach the minimum (included in subtotal_nanos and total_nanos) */
            minimums: components["schemas"]["MinimumTrueUp"][];
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            subtotal_nanos: string;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            discount_nanos: string;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            total_nanos: string;
            /** @description total_nanos rounded once (HalfEven) to the minor unit of the currency */
            display: {
                /** @example USD */
                currency: string;
                /** @example 69.50 */
                total: string;
                /** @example 6950 */
                total_minor_units: string;
            };
        };
        RatedLine: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            sku_id: string;
            description: string;
            pricing_model: components["schemas"]["PricingModel"];
            /** @example USD */
            currency: string;
            quantity: string;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            unit_amount_nanos: string;
            /**
             * @description at catalog prices, before any adjustment
             * @example 1500000000000
             */
            list_amount_nanos: string;
            /** @description Graduated and Volume: the tier breakdown the line was priced from (the tier overrides in force when a contract replaces them); [] for other models */
            tiers: {
                /** @description index of the tier in the price (0 = first) */
                tier: number;
                /** @description exclusive lower bound in whole units (the previous tier's up_to, 0 for the first) */
                from: string;
                /** @description inclusive upper bound in whole units; null for the unbounded last tier */
                up_to: string | null;
                /** @description the units priced in this tier (Volume: all units, in the one tier they fall into) */
                quantity: string;
                /**
                 * @description the tier's price per unit
                 * @example 1500000000000
                 */
                unit_amount_nanos: string;
                /**
                 * @description the tier's flat fee, charged once when the quantity reaches the tier ("0" without one)
                 * @example 1500000000000
                 */
                flat_amount_nanos: string;
                /**
                 * @description quantity × unit_amount_nanos + flat_amount_nanos; the tiers sum to the line's list amount (the line's one rounding is carried by its last tier)
                 * @example 1500000000000
                 */
                amount_nanos: string;
            }[];
            /** @description Package lines: how the quantity was packaged */
            package?: {
                package_size: string;
                /** @enum {string} */
                package_rounding: "Up" | "Down";
                /** @description units free before the first package */
                free_units: string;
                /** @description packages billed: ⌈(quantity − free_units)⁺ / package_size⌉ (Up) or ⌊…⌋ (Down) */
                packages: string;
            };
            /** @description Percentage lines: the terms each event's fee was computed with; the line's quantity is the exact sum of the period's fees in currency units, priced at 1.00 per unit */
            percentage?: {
                /** @description the rate on each event's amount */
                basis_points: number;
                /** @description the event property read as the amount */
                amount_property: string;
                /**
                 * @description fixed fee added per event
                 * @example 1500000000000
                 */
                per_event_fee_nanos: string;
                /**
                 * @description least fee per event, or null
                 * @example 1500000000000
                 */
                per_event_minimum_nanos: string | null;
                /**
                 * @description greatest fee per event, or null
                 * @example 1500000000000
                 */
                per_event_maximum_nanos: string | null;
            };
            commitment?: {
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                commit_amount_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                usage_value_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                excess_usage_value_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                overage_unit_amount_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                overage_amount_nanos: string;
            };
            /** @description usage lines: the meter the quantity was read from (the SKU's meter_id, else its meter_event_type's default meter) */
            meter?: {
                /** @description the meter's id, or "default:<event_type>" for the built-in default of an event type without meters */
                meter_id: string;
                event_type: string;
                /** @description Sum, Count, Max, UniqueCount, LATEST or WEIGHTED_SUM */
                aggregation: string;
                /** @description the meter's filters ({property, operator, value}), all of which hold for the events counted */
                filters: {
                    property: string;
                    /** @description Equals, NotEquals, GreaterThan, GreaterThanOrEqual, LessThan, LessThanOrEqual or In */
                    operator: string;
                    value: string | number | boolean | (string | number | boolean)[];
                }[];
                /** @description BillingPeriod, Sliding or Tumbling (see the usage summary) */
                window_type: string;
                /** @description ISO 8601 duration of Sliding and Tumbling windows; null for BillingPeriod */
                window_size: string | null;
            };
            adjustments: {
                /** @enum {string} */
                kind: "TierOverride" | "Escalation" | "RateOverride" | "Proration" | "ContractDiscount";
                basis_points?: number;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                amount_nanos: string;
                description: string;
            }[];
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            subtotal_nanos: string;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            discount_nanos: string;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            amount_nanos: string;
        };
        MinimumTrueUp: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            sku_id: string;
            description: string;
            /**
             * @description the SKU's minimum for the days served (prorated when only part of the period is)
             * @example 1500000000000
             */
            minimum_amount_nanos: string;
            /**
             * @description what the SKU's line bills in the period (after every adjustment)
             * @example 1500000000000
             */
            usage_amount_nanos: string;
            /**
             * @description the true-up: max(0, minimum_amount_nanos − usage_amount_nanos)
             * @example 1500000000000
             */
            amount_nanos: string;
            /** @description the days served of the period when the minimum was prorated; null for the whole period */
            proration: {
                days_used: number;
                days_in_period: number;
            } | null;
        };
        RatingPreviewRequest: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            plan_id: string;
            /**
             * @description meter → quantity aggregated over the whole period, keyed by a usage SKU's meter_id (its meter as billing resolves it, shown as lines[].meter.meter_id) or by meter_event_type (every SKU of that type whose meter_id is not given); a Percentage SKU's quantity is keyed by its sku_id: the sum of its per-event fees in currency units (e.g. "13.7"); keys left out count as 0
             * @example {
             *       "api_calls": "12500"
             *     }
             */
            quantities: {
                [key: string]: string;
            };
            /**
             * @description for a period split by a phase or escalation boundary: boundary date → meter → quantity aggregated over [period.start, date). Required for every inner boundary, refused for any other date
             * @example {
             *       "2026-04-16": {
             *         "api_calls": "6000"
             *       }
             *     }
             */
            usage_to_date?: {
                [key: string]: {
                    [key: string]: string;
                };
            };
            /**
             * @description start of the default period (one billing cadence of the plan); default today (UTC). With a period it must equal period.start
             * @example 2026-01-31
             */
            as_of?: string;
            /** @description [start, end); default one billing cadence of the plan from as_of */
            period?: {
                /**
                 * @description ISO 8601 calendar date (YYYY-MM-DD) that exists
                 * @example 2026-01-31
                 */
                start: string;
                /**
                 * @description ISO 8601 calendar date (YYYY-MM-DD) that exists
                 * @example 2026-01-31
                 */
                end: string;
            };
            contract?: components["schemas"]["ContractPricing"];
        };
        /** @description contract-level pricing; on each day of the period, the ramp phase (term) in force overrides each of discount_bps, tier_overrides and rate_overrides it sets */
        ContractPricing: {
            /** @description contract discount in basis points, 0-10000 */
            discount_bps?: number;
            rate_overrides?: components["schemas"]["RateOverride"][];
            tier_overrides?: components["schemas"]["TierOverride"][];
            escalation?: components["schemas"]["Escalation"];
            terms?: components["schemas"]["ContractTermPricing"][];
        };
        /** @description multiplies the price of SKUs whose product carries the tag (8000 = 80% of list); the first match wins */
        RateOverride: {
            product_tag: string;
            /** @description basis points, 10000 = 100% of list, at most 1000000 */
            multiplier_bps: number;
        };
        /** @description custom tiers replacing the catalog tiers of a Graduated or Volume SKU of the plan */
        TierOverride: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            sku_id: string;
            tiers: components["schemas"]["TierInput"][];
        };
        /** @description Percent compounds per step on every line; Fixed adds amount_nanos per step to recurring fees */
        Escalation: {
            /** @enum {string} */
            kind: "Percent";
            /** @description increase per step in basis points, at most 10000 (100%) */
            basis_points: number;
            /**
             * @description escalation steps are counted from this date
             * @example 2026-01-31
             */
            start_date: string;
            /**
             * @description months per escalation step (default 12)
             * @default 12
             */
            interval_months: number;
        } | {
            /** @enum {string} */
            kind: "Fixed";
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            amount_nanos: string;
            /**
             * @description escalation steps are counted from this date
             * @example 2026-01-31
             */
            start_date: string;
            /**
             * @description months per escalation step (default 12)
             * @default 12
             */
            interval_months: number;
        };
        ContractTermPricing: {
            phase: number;
            /**
             * @description ISO 8601 calendar date (YYYY-MM-DD) that exists
             * @example 2026-01-31
             */
            start_date: string;
            /**
             * @description exclusive: a term covers [start_date, end_date)
             * @example 2026-01-31
             */
            end_date: string;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            committed_amount_nanos: string;
            /** @default  */
            description: string;
            /** @description contract discount in basis points, 0-10000 */
            discount_bps?: number;
            rate_overrides?: components["schemas"]["RateOverride"][];
            tier_overrides?: components["schemas"]["TierOverride"][];
        };
        Subscription: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            plan_id: string;
            /** @description the plan version it is billed on: it stays there when the plan's SKUs change, until moved by change-plan or a plan migration */
            plan_version: number;
            /** @enum {string} */
            status: "Trialing" | "Active" | "PastDue" | "Paused" | "Cancelled" | "Expired";
            currency: string;
            trial_days: number;
            trial_end: string | null;
            /** Format: date-time */
            period_start: string;
            /** Format: date-time */
            period_end: string;
            /** @description how far the subscription has been billed */
            charged_through_date: string | null;
            contract_id: string | null;
            test_clock_id: string | null;
            /** @description progressive billing threshold of accrued charges (raw units): usage that takes them to it is invoiced within seconds; null when the period is billed only at its close */
            progressive_threshold_nanos: string | null;
            paused_at: string | null;
            cancelled_at: string | null;
            billing_error: components["schemas"]["BillingError"];
            /**
             * @description your own key/value pairs
             * @example {
             *       "crm_id": "acct_8812"
             *     }
             */
            metadata: {
                [key: string]: string;
            };
            created_at: string;
            updated_at: string;
        };
        BillingError: {
            /**
             * @description what the workflow was doing, e.g. closeSubscriptionPeriod or finalize
             * @example closeSubscriptionPeriod
             */
            step: string;
            /**
             * @description DeterministicFailure, Unprocessable, NotFound, InvalidTransition, or RetriesExhausted (a transient failure outlasted its retry schedule)
             * @example DeterministicFailure
             */
            type: string;
            /** @description the reason, as the failing code reported it */
            message: string;
            /**
             * Format: date-time
             * @description when it failed (the entity's time: its test clock's for sandbox customers)
             */
            failed_at: string;
        } | null;
        CreateSubscription: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            plan_id: string;
            /**
             * @description ISO 4217; defaults to the currency of the plan's SKUs, which all share one
             * @example USD
             */
            currency?: string;
            /** @description defaults to the plan's trial_days; > 0 starts in Trialing */
            trial_days?: number;
            /**
             * @description progressive billing: when the open period's accrued charges reach this, its Draft is finalized (a threshold invoice) and a new one opens; checked within seconds of the usage that crosses it, and daily as a backstop
             * @example 1500000000000
             */
            progressive_threshold_nanos?: string;
            /**
             * @description your own key/value pairs (up to 50 keys of 40 characters, values up to 500); on update the keys sent are merged in and a key set to null is removed
             * @example {
             *       "crm_id": "acct_8812"
             *     }
             */
            metadata?: {
                [key: string]: string | null;
            };
        };
        SubscriptionList: components["schemas"]["Subscription"][];
        UpcomingInvoice: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            subscription_id: string;
            /** @description start of the current period, the one previewed (ISO 8601) */
            period_start: string;
            /** @description end of the current period (ISO 8601): the close bills the period up to here */
            period_end: string;
            /** @description the instant the preview was taken (the subscription's test clock time when it is on one): every event recorded for the period by then counts, and credits and the wallet are applied as of it */
            as_of: string;
            /**
             * Format: uuid
             * @description the period's Draft the close would bill into when it already exists (progressive billing, a consolidated group); null when the close would open a new one
             * @example 01900000-0000-7000-8000-000000000000
             */
            draft_invoice_id: string | null;
            invoice: components["schemas"]["Invoice"];
        };
        /** @description the invoice closing the period now would produce, as finalization would settle it (spend cap, tax, customer balance, credit wallet), with the same lines and totals; status Draft, no invoice_number and no hosted link. Its id and line ids are those of the Draft (draft_invoice_id) or ids nothing stores. null when closing now would bill nothing (a trial, an Expired subscription, a period already closed). */
        Invoice: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            status: components["schemas"]["InvoiceStatus"];
            /**
             * @description INV-###### (gapless), assigned at finalization
             * @example INV-000042
             */
            invoice_number: string | null;
            /**
             * Format: uuid
             * @description the account the invoice is addressed to
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            subscription_id: string | null;
            /** @example USD */
            currency: string;
            billing_reason: string;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            period_start: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            period_end: string | null;
            /**
             * @description sum of the lines that are neither tax nor credit (a spend_cap line included)
             * @example 1500000000000
             */
            subtotal_nanos: string;
            /**
             * @description sum of the tax lines
             * @example 1500000000000
             */
            tax_nanos: string;
            /**
             * @description the credit lines (kind credit) put on the invoice while it was a Draft, as a positive sum; already taken out of total_nanos. Same value as credit_lines_nanos
             * @example 1500000000000
             */
            credits_applied_nanos: string;
            /**
             * @description the clearer name of credits_applied_nanos: the sum of the credit lines on the invoice (added while a Draft), positive, already taken out of total_nanos. Not credit notes (see credit_notes_nanos)
             * @example 1500000000000
             */
            credit_lines_nanos: string;
            /**
             * @description subtotal + tax − credits applied, exact
             * @example 1500000000000
             */
            total_nanos: string;
            /**
             * @description credited by credit notes after finalization (all their parts). Same value as credit_notes_nanos
             * @example 1500000000000
             */
            credited_nanos: string;
            /**
             * @description the clearer name of credited_nanos: the sum of the credit notes issued against the invoice after finalization (all their parts; total_nanos is never changed by them). Not credit lines (see credit_lines_nanos)
             * @example 1500000000000
             */
            credit_notes_nanos: string;
            /**
             * @description the part of credited_nanos that reduced the amount due; the rest was refunded, put on the customer's credit balance or settled out of band
             * @example 1500000000000
             */
            due_reduced_nanos: string;
            /**
             * @description credit wallet balance applied at finalization, before any charge
             * @example 1500000000000
             */
            wallet_applied_nanos: string;
            /**
             * @description the customer's credit balance (from credit notes) consumed at finalization, before the credit wallet and any charge
             * @example 1500000000000
             */
            customer_balance_applied_nanos: string;
            /**
             * @description charges above a HardLimit spend alert withheld at finalization (positive; the spend_cap lines carry minus this): never charged, already left out of total_nanos
             * @example 1500000000000
             */
            spend_cap_withheld_nanos: string;
            /**
             * @description what is (or, for a Draft, would be) left to pay: total − due_reduced − wallet_applied − customer_balance_applied for a Draft or an Open invoice, else 0; never negative
             * @example 1500000000000
             */
            amount_due_nanos: string;
            /**
             * @description subtotal_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            subtotal: string;
            /**
             * @description tax_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            tax: string;
            /**
             * @description total_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            total: string;
            /**
             * @description amount_due_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            amount_due: string;
            /**
             * @description credited_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            credited: string;
            /**
             * @description credit_lines_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            credit_lines: string;
            /**
             * @description credit_notes_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            credit_notes: string;
            /**
             * @description wallet_applied_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            wallet_applied: string;
            /**
             * @description spend_cap_withheld_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            spend_cap_withheld: string;
            /** @description the adapter that computed the tax lines, e.g. "none" or "flat:2000" */
            tax_adapter: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            due_at: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            finalized_at: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            paid_at: string | null;
            paid_by: {
                actor_id: string;
                actor_name: string | null;
                /** @description the reference a manual payment was recorded with (a check number, a wire reference); null when none was given */
                reference: string | null;
            } | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            voided_at: string | null;
            billing_error: components["schemas"]["BillingError"];
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            created_at: string;
            /**
             * @description a link to the invoice page (and its PDF) a payer can open and pay from without credentials; unguessable, it expires HOSTED_LINK_TTL_DAYS after due_at (410 after that; POST /admin/v1/invoices/{id}/hosted-link issues a new one); null for a Draft
             * @example https://billing.example.com/hosted/invoices/0192…
             */
            hosted_invoice_url: string | null;
            /**
             * @description your own key/value pairs
             * @example {
             *       "crm_id": "acct_8812"
             *     }
             */
            metadata: {
                [key: string]: string;
            };
            line_items: components["schemas"]["InvoiceLineItem"][];
        } | null;
        /** @enum {string} */
        InvoiceStatus: "Draft" | "Open" | "Paid" | "Void";
        InvoiceLineItem: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            /**
             * @description fee | usage | minimum | manual | credit | tax | true_up | contract_fee | spend_cap; a minimum line is the true-up of a SKU's minimum spend; credit and spend_cap lines are negative, tax lines are flagged is_tax
             * @example fee
             */
            kind: string;
            description: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            sku_id: string | null;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            plan_id: string | null;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            subscription_id: string | null;
            /**
             * Format: uuid
             * @description the account that incurred the charge, on consolidated invoices
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string | null;
            customer_name: string | null;
            /**
             * @description exact decimal quantity
             * @example 1
             */
            quantity: string;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            unit_amount_nanos: string | null;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            amount_nanos: string;
            /**
             * @description amount_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            amount: string;
            is_tax: boolean;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            period_start: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            period_end: string | null;
            detail: components["schemas"]["InvoiceLineDetail"];
        };
        InvoiceLineDetail: ({
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            sku_id?: string;
            description?: string;
            pricing_model?: components["schemas"]["PricingModel"];
            /** @example USD */
            currency?: string;
            quantity?: string;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            unit_amount_nanos?: string;
            /**
             * @description at catalog prices, before any adjustment
             * @example 1500000000000
             */
            list_amount_nanos?: string;
            /** @description Graduated and Volume: the tier breakdown the line was priced from (the tier overrides in force when a contract replaces them); [] for other models */
            tiers?: {
                /** @description index of the tier in the price (0 = first) */
                tier: number;
                /** @description exclusive lower bound in whole units (the previous tier's up_to, 0 for the first) */
                from: string;
                /** @description inclusive upper bound in whole units; null for the unbounded last tier */
                up_to: string | null;
                /** @description the units priced in this tier (Volume: all units, in the one tier they fall into) */
                quantity: string;
                /**
                 * @description the tier's price per unit
                 * @example 1500000000000
                 */
                unit_amount_nanos: string;
                /**
                 * @description the tier's flat fee, charged once when the quantity reaches the tier ("0" without one)
                 * @example 1500000000000
                 */
                flat_amount_nanos: string;
                /**
                 * @description quantity × unit_amount_nanos + flat_amount_nanos; the tiers sum to the line's list amount (the line's one rounding is carried by its last tier)
                 * @example 1500000000000
                 */
                amount_nanos: string;
            }[];
            /** @description Package lines: how the quantity was packaged */
            package?: {
                package_size: string;
                /** @enum {string} */
                package_rounding: "Up" | "Down";
                /** @description units free before the first package */
                free_units: string;
                /** @description packages billed: ⌈(quantity − free_units)⁺ / package_size⌉ (Up) or ⌊…⌋ (Down) */
                packages: string;
            };
            /** @description Percentage lines: the terms each event's fee was computed with; the line's quantity is the exact sum of the period's fees in currency units, priced at 1.00 per unit */
            percentage?: {
                /** @description the rate on each event's amount */
                basis_points: number;
                /** @description the event property read as the amount */
                amount_property: string;
                /**
                 * @description fixed fee added per event
                 * @example 1500000000000
                 */
                per_event_fee_nanos: string;
                /**
                 * @description least fee per event, or null
                 * @example 1500000000000
                 */
                per_event_minimum_nanos: string | null;
                /**
                 * @description greatest fee per event, or null
                 * @example 1500000000000
                 */
                per_event_maximum_nanos: string | null;
            };
            commitment?: {
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                commit_amount_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                usage_value_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                excess_usage_value_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                overage_unit_amount_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                overage_amount_nanos: string;
            };
            /** @description usage lines: the meter the quantity was read from (the SKU's meter_id, else its meter_event_type's default meter) */
            meter?: {
                /** @description the meter's id, or "default:<event_type>" for the built-in default of an event type without meters */
                meter_id: string;
                event_type: string;
                /** @description Sum, Count, Max, UniqueCount, LATEST or WEIGHTED_SUM */
                aggregation: string;
                /** @description the meter's filters ({property, operator, value}), all of which hold for the events counted */
                filters: {
                    property: string;
                    /** @description Equals, NotEquals, GreaterThan, GreaterThanOrEqual, LessThan, LessThanOrEqual or In */
                    operator: string;
                    value: string | number | boolean | (string | number | boolean)[];
                }[];
                /** @description BillingPeriod, Sliding or Tumbling (see the usage summary) */
                window_type: string;
                /** @description ISO 8601 duration of Sliding and Tumbling windows; null for BillingPeriod */
                window_size: string | null;
            };
            adjustments?: {
                /** @enum {string} */
                kind: "TierOverride" | "Escalation" | "RateOverride" | "Proration" | "ContractDiscount";
                basis_points?: number;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                amount_nanos: string;
                description: string;
            }[];
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            subtotal_nanos?: string;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            discount_nanos?: string;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            amount_nanos?: string;
            /** @description a late-usage correction: what the period was billed and what it rates to with the late events */
            adjustment?: {
                /** @enum {string} */
                reason: "late_usage";
                /**
                 * Format: date-time
                 * @example 2026-01-31T12:00:00.000Z
                 */
                service_period_start: string;
                /**
                 * Format: date-time
                 * @example 2026-01-31T12:00:00.000Z
                 */
                service_period_end: string;
                meter_event_type: string | null;
                /** @description the quantity billed for the period before this line */
                billed_quantity: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                billed_amount_nanos: string;
                /** @description the quantity of the period with the late events */
                rated_quantity: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                rated_amount_nanos: string;
            };
            /**
             * @description the SKU's minimum for the days served (prorated when only part of the period is)
             * @example 1500000000000
             */
            minimum_amount_nanos?: string;
            /**
             * @description what the SKU's line bills in the period (after every adjustment)
             * @example 1500000000000
             */
            usage_amount_nanos?: string;
            /** @description the days served of the period when the minimum was prorated; null for the whole period */
            proration?: {
                days_used: number;
                days_in_period: number;
            } | null;
            /** @description tax lines: the rate in basis points */
            rate_bps?: number;
            /**
             * Format: uuid
             * @description tax lines: the line taxed
             * @example 01900000-0000-7000-8000-000000000000
             */
            taxable_line_id?: string;
            /**
             * @description tax lines: the amount taxed
             * @example 1500000000000
             */
            taxable_amount_nanos?: string;
            /**
             * Format: uuid
             * @description spend_cap lines: the binding HardLimit alert
             * @example 01900000-0000-7000-8000-000000000000
             */
            alert_id?: string;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            threshold_nanos?: string;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            withheld_nanos?: string;
            alerts?: {
                /**
                 * Format: uuid
                 * @example 01900000-0000-7000-8000-000000000000
                 */
                alert_id: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                threshold_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                charges_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                withheld_nanos: string;
            }[];
        } & {
            [key: string]: unknown;
        }) | null;
        ReasonRequest: {
            reason?: string;
        };
        PlanChange: {
            subscription: components["schemas"]["Subscription"];
            invoice: components["schemas"]["Invoice"];
        };
        TestClock: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            name: string;
            /** @description the clock time; an advance sets it at once, its workflows catch up while advancing */
            frozen_time: string;
            /**
             * @description advancing while an advance runs; ready once every workflow on the clock caught up; internal_failure when an advance failed (advance again)
             * @enum {string}
             */
            status: "ready" | "advancing" | "internal_failure";
            created_at: string;
            advance: components["schemas"]["TestClockAdvance"];
        };
        /** @description progress of the latest advance; null before the first */
        TestClockAdvance: {
            /** @description the clock time every workflow on the clock has reached; frozen_time once ready */
            simulated_time: string;
            /** @description subscriptions with nothing left to do before frozen_time */
            subscriptions_done: number;
            /** @description subscriptions the advance drives */
            subscriptions_total: number;
            /** @description wall time the advance was requested */
            started_at: string;
            /** @description wall time it ended (ready or internal_failure); null while advancing */
            finished_at: string | null;
            error: components["schemas"]["BillingError"] & unknown;
        } | null;
        TestClockList: components["schemas"]["TestClock"][];
        InvoiceList: components["schemas"]["InvoiceSummary"][];
        InvoiceSummary: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            status: components["schemas"]["InvoiceStatus"];
            /**
             * @description INV-###### (gapless), assigned at finalization
             * @example INV-000042
             */
            invoice_number: string | null;
            /**
             * Format: uuid
             * @description the account the invoice is addressed to
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            subscription_id: string | null;
            /** @example USD */
            currency: string;
            billing_reason: string;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            period_start: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            period_end: string | null;
            /**
             * @description sum of the lines that are neither tax nor credit (a spend_cap line included)
             * @example 1500000000000
             */
            subtotal_nanos: string;
            /**
             * @description sum of the tax lines
             * @example 1500000000000
             */
            tax_nanos: string;
            /**
             * @description the credit lines (kind credit) put on the invoice while it was a Draft, as a positive sum; already taken out of total_nanos. Same value as credit_lines_nanos
             * @example 1500000000000
             */
            credits_applied_nanos: string;
            /**
             * @description the clearer name of credits_applied_nanos: the sum of the credit lines on the invoice (added while a Draft), positive, already taken out of total_nanos. Not credit notes (see credit_notes_nanos)
             * @example 1500000000000
             */
            credit_lines_nanos: string;
            /**
             * @description subtotal + tax − credits applied, exact
             * @example 1500000000000
             */
            total_nanos: string;
            /**
             * @description credited by credit notes after finalization (all their parts). Same value as credit_notes_nanos
             * @example 1500000000000
             */
            credited_nanos: string;
            /**
             * @description the clearer name of credited_nanos: the sum of the credit notes issued against the invoice after finalization (all their parts; total_nanos is never changed by them). Not credit lines (see credit_lines_nanos)
             * @example 1500000000000
             */
            credit_notes_nanos: string;
            /**
             * @description the part of credited_nanos that reduced the amount due; the rest was refunded, put on the customer's credit balance or settled out of band
             * @example 1500000000000
             */
            due_reduced_nanos: string;
            /**
             * @description credit wallet balance applied at finalization, before any charge
             * @example 1500000000000
             */
            wallet_applied_nanos: string;
            /**
             * @description the customer's credit balance (from credit notes) consumed at finalization, before the credit wallet and any charge
             * @example 1500000000000
             */
            customer_balance_applied_nanos: string;
            /**
             * @description charges above a HardLimit spend alert withheld at finalization (positive; the spend_cap lines carry minus this): never charged, already left out of total_nanos
             * @example 1500000000000
             */
            spend_cap_withheld_nanos: string;
            /**
             * @description what is (or, for a Draft, would be) left to pay: total − due_reduced − wallet_applied − customer_balance_applied for a Draft or an Open invoice, else 0; never negative
             * @example 1500000000000
             */
            amount_due_nanos: string;
            /**
             * @description subtotal_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            subtotal: string;
            /**
             * @description tax_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            tax: string;
            /**
             * @description total_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            total: string;
            /**
             * @description amount_due_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            amount_due: string;
            /**
             * @description credited_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            credited: string;
            /**
             * @description credit_lines_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            credit_lines: string;
            /**
             * @description credit_notes_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            credit_notes: string;
            /**
             * @description wallet_applied_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            wallet_applied: string;
            /**
             * @description spend_cap_withheld_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            spend_cap_withheld: string;
            /** @description the adapter that computed the tax lines, e.g. "none" or "flat:2000" */
            tax_adapter: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            due_at: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            finalized_at: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            paid_at: string | null;
            paid_by: {
                actor_id: string;
                actor_name: string | null;
                /** @description the reference a manual payment was recorded with (a check number, a wire reference); null when none was given */
                reference: string | null;
            } | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            voided_at: string | null;
            billing_error: components["schemas"]["BillingError"];
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            created_at: string;
            /**
             * @description a link to the invoice page (and its PDF) a payer can open and pay from without credentials; unguessable, it expires HOSTED_LINK_TTL_DAYS after due_at (410 after that; POST /admin/v1/invoices/{id}/hosted-link issues a new one); null for a Draft
             * @example https://billing.example.com/hosted/invoices/0192…
             */
            hosted_invoice_url: string | null;
            /**
             * @description your own key/value pairs
             * @example {
             *       "crm_id": "acct_8812"
             *     }
             */
            metadata: {
                [key: string]: string;
            };
            /** @description how many line items the invoice has (tax lines included) */
            line_item_count: number;
        };
        CreditNoteList: components["schemas"]["CreditNote"][];
        CreditNote: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            /**
             * @description CN-###### (gapless)
             * @example CN-000001
             */
            number: string;
            /**
             * @description the same as number, named like an invoice's invoice_number
             * @example CN-000001
             */
            credit_note_number: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            invoice_id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string;
            /** @example USD */
            currency: string;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            amount_nanos: string;
            /**
             * @description amount_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            amount: string;
            /**
             * @description the part that reduced what the invoice still owes
             * @example 1500000000000
             */
            due_reduction_nanos: string;
            /**
             * @description the part refunded through the payment processor
             * @example 1500000000000
             */
            refund_amount_nanos: string;
            /**
             * @description the part put on the customer's credit balance (spent by its next invoices in the currency)
             * @example 1500000000000
             */
            credit_amount_nanos: string;
            /**
             * @description the part given back outside the service (recorded only)
             * @example 1500000000000
             */
            out_of_band_amount_nanos: string;
            /** @enum {string} */
            reason: "duplicate" | "fraudulent" | "order_change" | "product_unsatisfactory" | "other";
            memo: string | null;
            /**
             * Format: uuid
             * @description the credit invoice whose credit this note applies (a downgrade's proration credit, reason order_change), or null
             * @example 01900000-0000-7000-8000-000000000000
             */
            source_invoice_id: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            created_at: string;
        };
        InvoiceExplanation: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            invoice_id: string;
            invoice_number: string | null;
            status: components["schemas"]["InvoiceStatus"];
            /** @example USD */
            currency: string;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            period_start: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            period_end: string | null;
            lines: components["schemas"]["InvoiceLineExplanation"][];
            /** @description the totals as stored, and the sum of the explained lines */
            totals: {
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                subtotal_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                tax_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                credits_applied_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                total_nanos: string;
                /**
                 * @description the sum of every line amount; equals total_nanos
                 * @example 1500000000000
                 */
                lines_sum_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                amount_due_nanos: string;
            };
            /** @description from the total to the amount due: customer balance, credit wallet, credit notes */
            settlement: components["schemas"]["ExplainStep"][];
            /** @description where rounding happened: rating and tax round each amount once to a raw unit; display strings round once to the minor unit at output */
            rounding: {
                /** @enum {string} */
                stage: "rating" | "tax" | "display";
                rule: string;
                line_ids: string[];
            }[];
        };
        InvoiceLineExplanation: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            line_id: string;
            kind: string;
            description: string;
            quantity: string;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            amount_nanos: string;
            /**
             * @description amount_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            amount: string;
            /** @description the SKU pricing model of a rated line; null for lines that were not rated */
            pricing_model: string | null;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            unit_amount_nanos: string | null;
            service_period: {
                /**
                 * Format: date-time
                 * @example 2026-01-31T12:00:00.000Z
                 */
                start: string | null;
                /**
                 * Format: date-time
                 * @example 2026-01-31T12:00:00.000Z
                 */
                end: string | null;
            };
            /** @description the plan phases of the period the charge was rated in (empty for lines billing did not rate, or billed before explanations were stored) */
            plan_phases: ({
                /**
                 * Format: uuid
                 * @example 01900000-0000-7000-8000-000000000000
                 */
                plan_id: string;
                plan_name: string;
                plan_version: number;
                /**
                 * Format: date-time
                 * @example 2026-01-31T12:00:00.000Z
                 */
                from: string;
                /**
                 * Format: date-time
                 * @example 2026-01-31T12:00:00.000Z
                 */
                to: string;
                /**
                 * Format: date-time
                 * @example 2026-01-31T12:00:00.000Z
                 */
                usage_to: string;
                /** @description the calendar days fees are prorated over */
                basis: {
                    start: string;
                    end: string;
                };
                /** @description the proration factor days_used / days_in_period of a fee, when the phase did not serve the whole basis */
                proration: {
                    service_start: string;
                    service_end: string;
                    days_used: number;
                    days_in_period: number;
                } | null;
                /** @description the contract whose terms priced the phase */
                contract: {
                    /**
                     * Format: uuid
                     * @example 01900000-0000-7000-8000-000000000000
                     */
                    contract_id: string;
                    status: string;
                } | null;
                quantity: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                amount_nanos: string;
            } & {
                [key: string]: unknown;
            })[];
            /** @description metered lines: per plan phase, the meter, filters, window, events counted (first and last) and the aggregate */
            usage: components["schemas"]["UsageTrace"][];
            /** @description each tier entered, with its quantity and amount */
            tiers: {
                tier: number;
                from: string;
                up_to: string | null;
                quantity: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                unit_amount_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                flat_amount_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                amount_nanos: string;
            }[];
            /** @description discounts, overrides, escalation, proration and contract terms, in the order applied */
            adjustments: {
                kind: string;
                basis_points?: number;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                amount_nanos: string;
                description: string;
            }[];
            /** @description what the period's finalized invoices had already billed of the SKU (the line bills the difference) */
            billed_before: {
                quantity: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                amount_nanos: string;
            } | null;
            /** @description tax lines: the rule applied and the line taxed */
            tax: {
                adapter: string | null;
                rate_bps: number;
                /**
                 * Format: uuid
                 * @example 01900000-0000-7000-8000-000000000000
                 */
                taxable_line_id: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                taxable_amount_nanos: string;
                rule: string;
            } | null;
            /** @description from list price to the line's amount, each step with its change and the running amount */
            steps: components["schemas"]["ExplainStep"][];
            /** @description whether the steps end exactly at the line's amount */
            reconciles: boolean;
            /** @description where this line was rounded: rated and tax amounts once, HalfEven, to a raw unit (10^-12); null when nothing was rounded */
            rounding: string | null;
            line: components["schemas"]["InvoiceLineItem"] & unknown;
            /** @description the pricing trace stored with the line at the close, as stored (null for lines billed before it was stored) */
            pricing_trace: {
                [key: string]: unknown;
            } | null;
        };
        UsageTrace: {
            meter: {
                /**
                 * Format: uuid
                 * @description the meter read; null for the event type's default (sum of `quantity`, 1 per event without one)
                 * @example 01900000-0000-7000-8000-000000000000
                 */
                meter_id: string | null;
                name: string | null;
                event_type: string;
                /** @description Sum | Count | Max | UniqueCount | Latest | WeightedSum */
                aggregation: string;
                /** @description the event property aggregated */
                property: string | null;
                /** @description the dimension values an event must carry to count */
                filters: {
                    property: string;
                    operator: string;
                    value: string | number | boolean | (string | number | boolean)[];
                }[];
            } & {
                [key: string]: unknown;
            };
            /** @description the window read, [from, to) */
            window: {
                /**
                 * Format: date-time
                 * @example 2026-01-31T12:00:00.000Z
                 */
                from: string;
                /**
                 * Format: date-time
                 * @example 2026-01-31T12:00:00.000Z
                 */
                to: string;
            };
            /** @description events counted in the window */
            event_count: number;
            /** @description of which arrived after their period was billed */
            late_event_count: number;
            /** @description the earliest event counted (null when none) */
            first_event: {
                /** @description the event id the client sent */
                id: string;
                /**
                 * Format: date-time
                 * @example 2026-01-31T12:00:00.000Z
                 */
                occurred_at: string;
            } | null;
            /** @description the latest event counted (null when none) */
            last_event: {
                /** @description the event id the client sent */
                id: string;
                /**
                 * Format: date-time
                 * @example 2026-01-31T12:00:00.000Z
                 */
                occurred_at: string;
            } | null;
            /** @description the aggregate read, exact decimal, before it is clamped at zero for billing */
            aggregate: string;
        } & {
            [key: string]: unknown;
        };
        ExplainStep: {
            /** @description list_price, then each adjustment in the order applied (TierOverride, Escalation, RateOverride, Proration, ContractDiscount); phase (a SKU rated in several plan phases); billed_before (what finalized invoices already billed of the period); amount (a line that was not rated); for the settlement: total, customer_balance_applied, wallet_applied, due_reduced */
            step: string;
            description: string;
            /**
             * @description what the step changed (negative for a saving or a deduction)
             * @example 1500000000000
             */
            change_nanos: string;
            /**
             * @description the running amount after the step
             * @example 1500000000000
             */
            amount_nanos: string;
        };
        AddInvoiceLineItemRequest: {
            description: string;
            /**
             * @description the line amount; negative for an adjustment such as a discount
             * @example 1500000000000
             */
            amount_nanos: string;
            /**
             * @description default "1"
             * @example 1
             */
            quantity?: string;
            /**
             * @description when given, amount_nanos must equal quantity × unit_amount_nanos (rounded HalfEven to a raw unit)
             * @example 1500000000000
             */
            unit_amount_nanos?: string;
        };
        ApplyInvoiceCreditRequest: {
            /**
             * @description the credit, > 0; stored as a credit line of −amount_nanos
             * @example 1500000000000
             */
            amount_nanos: string;
            description: string;
        };
        IssueCreditNoteRequest: {
            /**
             * @description the amount credited, > 0 and at most total_nanos − credited_nanos
             * @example 1500000000000
             */
            amount_nanos: string;
            /**
             * @description the part refunded through the payment processor, in whole minor units; at most what its payments collected and have not refunded
             * @example 1500000000000
             */
            refund_amount_nanos?: string;
            /**
             * @description the part put on the customer's credit balance in the invoice's currency, spent automatically by its next invoices in that currency
             * @example 1500000000000
             */
            credit_amount_nanos?: string;
            /**
             * @description the part given back outside the service (recorded only)
             * @example 1500000000000
             */
            out_of_band_amount_nanos?: string;
            /** @enum {string} */
            reason: "duplicate" | "fraudulent" | "order_change" | "product_unsatisfactory" | "other";
            memo?: string | null;
        };
        PayInvoice: {
            /** @description who paid; default: the authenticated caller (its token subject or API key) */
            actor_id?: string;
            /** @description who paid, by name; default: none (null) */
            actor_name?: string;
            /**
             * @description what identifies the payment outside this system (a check number, a wire reference), 1-200 characters; stored on the invoice (paid_by.reference) and in its invoice.paid audit entry
             * @example wire 2026-0117-ACME
             */
            reference?: string;
            /**
             * @description the amount paid, when the caller wants it checked: it must equal the invoice's amount_due_nanos (partial payments are not modelled), else 422 payment_amount_mismatch and nothing is recorded
             * @example 1500000000000
             */
            amount_nanos?: string;
        };
        HostedPayForm: {
            /** @description the form token of the page the form came from (issued with the page, accepted for an hour) */
            form_token: string;
            /**
             * @description `card_on_file` charges the payer's default payment method; `checkout` opens the processor's checkout page for the amount due
             * @enum {string}
             */
            method: "card_on_file" | "checkout";
        };
        HostedLink: {
            /** @description a new link to the hosted invoice page, valid HOSTED_LINK_TTL_DAYS from now (the invoice clock) */
            hosted_invoice_url: string;
            /**
             * @description when the new link expires (ISO 8601)
             * @example 2026-03-01T00:00:00.000Z
             */
            expires_at: string;
        };
        IngestEventResult: {
            /** @description true when this request stored the event; false for an id already seen */
            accepted: boolean;
            event_id: string;
            duplicate: boolean;
            /** @description the stored event arrived after the period its timestamp falls in was closed: it is billed as a prior-period adjustment line on the next invoice (a correction invoice once the subscription has ended) */
            late: boolean;
            /** @description false when no subscription period covers the event: it is stored and counted, but no invoice will ever bill it (see unbillable_reason) */
            billable: boolean;
            unbillable_reason?: components["schemas"]["UnbillableReason"];
        };
        /**
         * @description why the event will never be billed; present only when billable is false
         * @enum {string}
         */
        UnbillableReason: "no_subscription" | "before_subscription_start" | "after_subscription_end" | "in_trial";
        UsageEvent: {
            /**
             * @description client-generated; the deduplication key (global across customers)
             * @example evt_01HZX3
             */
            id: string;
            /**
             * @description matched against meters and SKU meter_event_type
             * @example api_calls
             */
            event_type: string;
            /**
             * Format: uuid
             * @description the customer; or name it by external_customer_id. Required (one of the two) with admin credentials; with a customer token, an event naming neither is the token's own customer
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id?: string;
            /**
             * @description the customer's external_id, instead of customer_id
             * @example crm-8812
             */
            external_customer_id?: string;
            /**
             * Format: uuid
             * @description attributes the event to this subscription (must be the customer's)
             * @example 01900000-0000-7000-8000-000000000000
             */
            subscription_id?: string | null;
            /**
             * Format: date-time
             * @description when the usage happened; the time of receipt (the customer's current time) when absent
             * @example 2026-01-31T12:00:00Z
             */
            timestamp?: string;
            /**
             * @description arbitrary key/values for filtering and aggregation; send exact quantities as decimal strings ("0.25"). Top-level numbers and decimal strings are usage quantities: at most 18 digits before the decimal point and 12 after, and negative only with admin credentials (corrections; billing never counts a period below zero). A customer's usage per calendar month (UTC), the sum of each event's largest |value| among the properties its meters read, is at most 10^18 (MAX_MONTHLY_QUANTITY), and so is a request's: beyond it the request is answered 422 quantity_limit_exceeded and nothing of it is stored
             * @example {
             *       "tokens": "1500",
             *       "model": "large"
             *     }
             */
            properties?: {
                [key: string]: unknown;
            };
        };
        IngestBatchResult: {
            /** @description events stored by this request */
            accepted_count: number;
            /** @description events whose id was already stored (earlier, or earlier in this batch) */
            duplicate_count: number;
            /** @description stored events whose period was already closed (billed as prior-period adjustments) */
            late_count: number;
            /** @description stored events no subscription period covers (never billed; see IngestEventResult.unbillable_reason) */
            unbillable_count: number;
        };
        UsageEventBatch: {
            events: components["schemas"]["UsageEvent"][];
        };
        Meter: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            name: string;
            description: string;
            event_type: string;
            /**
             * @description Sum, Count, Max, UniqueCount, LATEST or WEIGHTED_SUM
             * @enum {string}
             */
            aggregation: "Sum" | "Count" | "Max" | "UniqueCount" | "LATEST" | "WEIGHTED_SUM";
            property: string | null;
            filters: components["schemas"]["MeterFilter"][];
            /** @enum {string} */
            window_type: "BillingPeriod" | "Sliding" | "Tumbling";
            window_size: string | null;
            unit: string;
            /** @description when the meter was archived: new SKUs can no longer be billed with it; plan versions already pricing its event type keep billing with it */
            archived_at: string | null;
            created_at: string;
        };
        MeterFilter: {
            /**
             * @description key in the event's properties; "properties.tokens" and "tokens" are the same
             * @example tokens
             */
            property: string;
            /** @enum {string} */
            operator: "Equals" | "NotEquals" | "GreaterThan" | "GreaterThanOrEqual" | "LessThan" | "LessThanOrEqual" | "In";
            /** @description a string, number or boolean; an array of them for In */
            value: string | number | boolean | (string | number | boolean)[];
        };
        CreateMeter: {
            name: string;
            description?: string;
            /** @example tokens_used */
            event_type: string;
            /**
             * @description Sum, Count, Max, UniqueCount, LATEST or WEIGHTED_SUM (as SPEC spells them; Latest and WeightedSum are accepted too and stored as LATEST and WEIGHTED_SUM)
             * @enum {string}
             */
            aggregation: "Sum" | "Count" | "Max" | "UniqueCount" | "LATEST" | "WEIGHTED_SUM" | "Latest" | "WeightedSum";
            /**
             * @description required except for Count
             * @example tokens
             */
            property?: string;
            /** @description up to 20; all must hold */
            filters?: components["schemas"]["MeterFilter"][];
            /**
             * @description default BillingPeriod
             * @enum {string}
             */
            window_type?: "BillingPeriod" | "Sliding" | "Tumbling";
            /**
             * @description ISO 8601 duration for Sliding and Tumbling, e.g. "PT1H", "P1D"
             * @example PT1H
             */
            window_size?: string;
            /** @description defaults to the property, or "events" for Count */
            unit?: string;
        };
        MeterList: components["schemas"]["Meter"][];
        UsageEventList: components["schemas"]["UsageEvent"][];
        UsageSummary: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            subscription_id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string;
            /** Format: date-time */
            period_start: string;
            /** Format: date-time */
            period_end: string;
            /**
             * Format: date-time
             * @description the reference instant used
             */
            as_of: string;
            /** @description events of this subscription (and its customer's events sent without a subscription_id) that no subscription period covers: stored, never billed (see IngestEventResult.unbillable_reason) */
            unbillable_event_count: number;
            meters: components["schemas"]["UsageMeterEntry"][];
        };
        UsageMeterEntry: {
            /** @description the meter's id, or "default:<event_type>" for an event_type without meters */
            meter_id: string;
            name: string;
            event_type: string;
            /** @enum {string} */
            aggregation: "Sum" | "Count" | "Max" | "UniqueCount" | "LATEST" | "WEIGHTED_SUM";
            /**
             * @description exact decimal string: the aggregate over this entry's window (window_start–window_end)
             * @example 1234.5
             */
            value: string;
            /**
             * @description what an invoice of the period (period_start–period_end; with from/to, of that range) rates for this meter, from the events stored now: BillingPeriod meters their value over the period; Tumbling meters the sum over the period's windows of each window's value (e.g. the sum of daily maxima); Sliding meters their value over the window_size ending at period_end (clipped to the period). Exact decimal string, never below 0 (as invoices bill it)
             * @example 1234.5
             */
            billable_value: string;
            unit: string;
            /** @enum {string} */
            window_type: "BillingPeriod" | "Sliding" | "Tumbling" | "Custom";
            /** Format: date-time */
            window_start: string;
            /** Format: date-time */
            window_end: string;
            /** @description events matching the meter in its window */
            event_count: number;
            /** @description of which arrived after their period was closed (billed as prior-period adjustments) */
            late_event_count: number;
        };
        Contract: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string;
            name: string;
            status: components["schemas"]["ContractStatus"];
            /** Format: date */
            start_date: string;
            /** Format: date */
            end_date: string;
            discount_bps: number | null;
            rate_overrides: {
                product_tag: string;
                multiplier_bps: number;
            }[] | null;
            tier_overrides: {
                sku_id: string;
                tiers: {
                    up_to: number | null;
                    /**
                     * @description raw units at scale 12 (1 unit = 1000000000000)
                     * @example 1500000000000
                     */
                    unit_amount_nanos: string;
                    /**
                     * @description raw units at scale 12 (1 unit = 1000000000000)
                     * @example 1500000000000
                     */
                    flat_amount_nanos?: string;
                }[];
            }[] | null;
            escalation: {
                /** @enum {string} */
                kind: "Percent" | "Fixed";
                basis_points?: number;
                amount_nanos?: string;
                interval_months: number;
            } | null;
            /** @description the contract this one amended */
            parent_contract_id: string | null;
            amendment_reason: string | null;
            /** Format: date */
            effective_date: string | null;
            /** @description escalation steps applied so far */
            escalation_steps: number;
            /**
             * Format: date
             * @description last day served of a Terminated contract
             */
            terminated_on: string | null;
            termination_reason: string | null;
            test_clock_id: string | null;
            billing_error: components["schemas"]["BillingError"] & unknown;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            updated_at: string;
            terms: {
                phase: number;
                /** Format: date */
                start_date: string;
                /** Format: date */
                end_date: string;
                committed_amount_nanos: string;
                description: string;
                discount_bps: number | null;
                rate_overrides: {
                    product_tag: string;
                    multiplier_bps: number;
                }[] | null;
                tier_overrides: {
                    sku_id: string;
                    tiers: {
                        up_to: number | null;
                        /**
                         * @description raw units at scale 12 (1 unit = 1000000000000)
                         * @example 1500000000000
                         */
                        unit_amount_nanos: string;
                        /**
                         * @description raw units at scale 12 (1 unit = 1000000000000)
                         * @example 1500000000000
                         */
                        flat_amount_nanos?: string;
                    }[];
                }[] | null;
                commit_product_tag: string | null;
                /** @description usage charges drawn from the commit so far (null in lists) */
                drawn_down_nanos: string | null;
                /** @description commit left to draw down (null in lists) */
                remaining_commit_nanos: string | null;
                trued_up_at: string | null;
                /** @description shortfall billed at the phase end */
                true_up_nanos: string | null;
            }[];
            /** @description the chain of amendments this contract belongs to, oldest first (null in lists) */
            amendment_chain: {
                id: string;
                status: components["schemas"]["ContractStatus"];
                effective_date: string | null;
            }[] | null;
            /** @description subscriptions the contract prices (null in lists) */
            subscriptions: components["schemas"]["ContractSubscription"][] | null;
        };
        /** @enum {string} */
        ContractStatus: "Draft" | "Active" | "Amended" | "Expired" | "Terminated";
        ContractSubscription: {
            contract_id: string;
            subscription_id: string;
            adoption_type: components["schemas"]["AdoptionType"];
            coterm_fee_nanos: string | null;
            /**
             * Format: date-time
             * @description Coterm: when the subscription was realigned to end its periods on the contract end (null until then, and for other adoptions)
             * @example 2026-01-31T12:00:00.000Z
             */
            aligned_at: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            created_at: string;
        };
        /** @enum {string} */
        AdoptionType: "PLG" | "Coterm" | "Recontract";
        CreateContract: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string;
            name: string;
            /**
             * Format: date
             * @description ISO 8601 calendar date (YYYY-MM-DD) that exists
             * @example 2026-01-31
             */
            start_date: string;
            /**
             * Format: date
             * @description exclusive: the contract covers [start_date, end_date)
             * @example 2026-01-31
             */
            end_date: string;
            /** @description ramp phases tiling [start_date, end_date): contiguous, no overlap */
            terms: components["schemas"]["ContractTermInput"][];
            escalation?: components["schemas"]["ContractEscalation"];
            /**
             * @description true (default): the contract is Active at once; false: a Draft until POST …/activate
             * @default true
             */
            activate: boolean;
            /** @description contract discount in basis points, 0-10000 */
            discount_bps?: number;
            rate_overrides?: components["schemas"]["RateOverride"][];
            tier_overrides?: components["schemas"]["TierOverride"][];
        };
        ContractTermInput: {
            phase: number;
            /**
             * Format: date
             * @description ISO 8601 calendar date (YYYY-MM-DD) that exists
             * @example 2026-01-31
             */
            start_date: string;
            /**
             * Format: date
             * @description exclusive: a phase covers [start_date, end_date)
             * @example 2026-01-31
             */
            end_date: string;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            committed_amount_nanos: string;
            /** @default  */
            description: string;
            /** @description only usage of SKUs whose product carries this tag draws the commit down */
            commit_product_tag?: string;
            /** @description contract discount in basis points, 0-10000 */
            discount_bps?: number;
            rate_overrides?: components["schemas"]["RateOverride"][];
            tier_overrides?: components["schemas"]["TierOverride"][];
        };
        /** @description one step every interval_months from the contract's start_date: Percent compounds on every price, Fixed adds amount_nanos to recurring fees */
        ContractEscalation: {
            /** @enum {string} */
            kind: "Percent";
            basis_points: number;
            interval_months: number;
        } | {
            /** @enum {string} */
            kind: "Fixed";
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            amount_nanos: string;
            interval_months: number;
        };
        ContractList: components["schemas"]["Contract"][];
        AmendContract: {
            reason: string;
            /**
             * @description commit of the phase in force from effective_date on
             * @example 1500000000000
             */
            new_committed_amount_nanos: string;
            /**
             * Format: date
             * @description from this day on (today or later, before end_date) the amended terms apply
             * @example 2026-01-31
             */
            effective_date: string;
            /** @description new discount from effective_date on */
            discount_bps?: number;
            /** @description new rate overrides from effective_date on */
            rate_overrides?: components["schemas"]["RateOverride"][];
        };
        ContractSubscriptionLink: components["schemas"]["ContractSubscription"] & {
            /** @description Coterm adoption: the alignment to the contract end, or the one-time fee billed with fewer than 30 days left */
            coterm: {
                [key: string]: unknown;
            } | null;
        };
        LinkContractSubscription: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            subscription_id: string;
            adoption_type: components["schemas"]["AdoptionType"];
        };
        WebhookEndpoint: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            url: string;
            description: string;
            events: string[];
            enabled: boolean;
            /** @description signing secret: in full in the answers of create and rotate-secret only, masked elsewhere */
            secret: string;
            circuit: components["schemas"]["WebhookCircuit"];
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            updated_at: string;
        };
        WebhookCircuit: {
            /**
             * @description Closed: deliveries flow; Open: suspended; HalfOpen: one probe delivery decides
             * @enum {string}
             */
            state: "Closed" | "Open" | "HalfOpen";
            consecutive_failures: number;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            opened_at: string | null;
            /**
             * Format: date-time
             * @description when an Open circuit lets one probe through
             * @example 2026-01-31T12:00:00.000Z
             */
            reopens_at: string | null;
        };
        CreateWebhookEndpointRequest: {
            /**
             * @description absolute http:// or https:// URL
             * @example https://example.com/billing/webhooks
             */
            url: string;
            events: string[];
            description?: string;
        };
        WebhookEndpointList: components["schemas"]["WebhookEndpoint"][];
        UpdateWebhookEndpointRequest: {
            /**
             * @description absolute http:// or https:// URL
             * @example https://example.com/billing/webhooks
             */
            url?: string;
            events?: string[];
            description?: string;
            enabled?: boolean;
        };
        WebhookDeliveryList: components["schemas"]["WebhookDelivery"][];
        WebhookDelivery: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            endpoint_id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            event_id: string;
            event_type: string;
            /** @enum {string} */
            status: "Pending" | "Delivered" | "Failed";
            attempt_count: number;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            next_attempt_at: string | null;
            last_status_code: number | null;
            last_error: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            delivered_at: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            failed_at: string | null;
            /**
             * @description the delivery workflow in the Temporal UI
             * @example webhook:<event id>:<endpoint id>
             */
            workflow_id: string;
            /** @description the event as every attempt sends it: { id, type, timestamp, data } */
            payload: {
                [key: string]: unknown;
            };
            attempts: components["schemas"]["WebhookAttempt"][];
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            updated_at: string;
        };
        WebhookAttempt: {
            number: number;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            started_at: string;
            latency_ms: number;
            status_code: number | null;
            /** @description why it failed: the HTTP status, a timeout, a connection error */
            error: string | null;
            /** @description the first 1024 bytes of the answer */
            response_body: string | null;
        };
        AttachPaymentMethodRequest: {
            /**
             * @description the processor's payment method id
             * @example pm_card_visa
             */
            processor_payment_method_id: string;
            /** @description make it the default; the first method attached always is */
            set_default?: boolean;
        };
        PaymentMethodList: components["schemas"]["PaymentMethod"][];
        PaymentList: components["schemas"]["Payment"][];
        Payment: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            invoice_id: string;
            /**
             * Format: uuid
             * @description the payer charged (the invoice is addressed to it)
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            payment_method_id: string | null;
            /** @description the invoice's attempt number (1, 2, …); with the invoice id, the processor idempotency key */
            attempt: number;
            /**
             * @description what made the attempt: the auto-charge at finalization, a dunning retry, an on-demand charge (payment-intents), the payer on the hosted invoice page (Pay with the payment method on file), or the processor (a payment made at the processor, e.g. its checkout page)
             * @enum {string}
             */
            source: "auto_charge" | "dunning" | "on_demand" | "hosted_page" | "processor";
            /** @description the dunning retry (1-4) this attempt was */
            dunning_attempt: number | null;
            status: components["schemas"]["PaymentStatus"];
            /** @enum {string} */
            capture_method: "automatic" | "manual";
            /**
             * @description the amount due when charged, exact
             * @example 1500000000000
             */
            amount_nanos: string;
            /**
             * @description amount_nanos for display: rounded once, HalfEven, to the currency's minor unit: what the processor was asked for
             * @example 10.00
             */
            amount: string;
            currency: string;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            refunded_nanos: string;
            processor_payment_intent_id: string | null;
            processor_status: string | null;
            failure_code: string | null;
            failure_message: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            attempted_at: string;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            settled_at: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            created_at: string;
            refunds: components["schemas"]["Refund"][];
        };
        /** @enum {string} */
        PaymentStatus: "Pending" | "RequiresCapture" | "Succeeded" | "Failed" | "Canceled";
        Refund: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            payment_id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            invoice_id: string;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            amount_nanos: string;
            /**
             * @description amount_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            amount: string;
            currency: string;
            /** @enum {string} */
            status: "Pending" | "Succeeded" | "Failed";
            reason: string;
            /**
             * @description api: asked through this API; processor: made at the processor and reported by a notification
             * @enum {string}
             */
            source: "api" | "processor";
            processor_refund_id: string | null;
            /**
             * Format: uuid
             * @description the credit note recording the money given back on the invoice
             * @example 01900000-0000-7000-8000-000000000000
             */
            credit_note_id: string | null;
            failure_message: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            created_at: string;
        };
        CreatePaymentIntentRequest: {
            /**
             * Format: uuid
             * @description one of the payer's payment methods; default: its default method
             * @example 01900000-0000-7000-8000-000000000000
             */
            payment_method_id?: string;
            /**
             * @description manual authorises now and collects at capture (default automatic)
             * @enum {string}
             */
            capture_method?: "automatic" | "manual";
        };
        RefundInvoiceRequest: {
            /**
             * @description a whole number of minor units of the currency; default: all the payment has left
             * @example 1500000000000
             */
            amount_nanos?: string;
            /**
             * @description recorded on the credit note (default other)
             * @enum {string}
             */
            reason?: "duplicate" | "fraudulent" | "order_change" | "product_unsatisfactory" | "other";
            /**
             * Format: uuid
             * @description the payment to refund; default: the invoice's newest with money left
             * @example 01900000-0000-7000-8000-000000000000
             */
            payment_id?: string;
        };
        DunningScheduleList: components["schemas"]["DunningSchedule"][];
        DunningSchedule: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            /**
             * Format: uuid
             * @description the subscription in arrears (null for a consolidated invoice of several)
             * @example 01900000-0000-7000-8000-000000000000
             */
            subscription_id: string | null;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            invoice_id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string;
            /** @description the dunning attempt the schedule is at (SPEC: 1 to 4 with the default schedule): while Active, the retry due next (1 until the first is made), staying at the last once it is made; a closed schedule keeps the figure it closed at */
            attempt_count: number;
            /** @description retries made so far: 0 until the first, at most the number of schedule_days */
            retries_made: number;
            /**
             * Format: date-time
             * @description when the next retry is due; null once none is left or the schedule is closed
             * @example 2026-01-31T12:00:00.000Z
             */
            next_attempt_at: string | null;
            /** @enum {string} */
            status: "Active" | "Resolved" | "Exhausted";
            /**
             * @description days after the failure of each retry
             * @example [
             *       3,
             *       7,
             *       14,
             *       21
             *     ]
             */
            schedule_days: number[];
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            failed_at: string;
            /** @enum {string|null} */
            closed_reason: "payment_succeeded" | "paid_manually" | "voided" | "exhausted" | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            closed_at: string | null;
            billing_error: components["schemas"]["BillingError"] & unknown;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            updated_at: string;
        };
        ProcessorNotificationReceipt: {
            /** @enum {boolean} */
            received: true;
            event_id: string;
            type: string;
            /**
             * @description queued: applied by its workflow; ignored: a type or an object the engine does not handle; duplicate: this event id was received before (no second effect)
             * @enum {string}
             */
            action: "queued" | "ignored" | "duplicate";
        };
        /** @description a processor event */
        ProcessorNotification: {
            [key: string]: unknown;
        };
        ProcessorEventList: components["schemas"]["ProcessorEvent"][];
        ProcessorEvent: {
            /**
             * @description the processor's event id
             * @example evt_1QxYz2AbCdEf
             */
            id: string;
            /** @example payment_intent.succeeded */
            type: string;
            /** @description the id of the processor object it is about (a PaymentIntent's, a charge's…) */
            object_id: string | null;
            /**
             * @description billing_error: applying it failed in a way no automatic retry fixes and waits for an operator (POST /admin/v1/processor-events/{id}/retry); processed: applied (or acknowledged and ignored), see outcome; pending: waiting for its workflow to apply it
             * @enum {string}
             */
            status: "pending" | "processed" | "billing_error";
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            received_at: string;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            processed_at: string | null;
            /**
             * @description what applying it did, e.g. payment_succeeded, refund_recorded, ignored_type; null until applied
             * @example payment_succeeded
             */
            outcome: string | null;
            billing_error: components["schemas"]["BillingError"] & unknown;
        };
        CustomerLedger: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string;
            /**
             * Format: date-time
             * @description entries effective at or before this instant; null = everything
             * @example 2026-01-31T12:00:00.000Z
             */
            as_of: string | null;
            accounts: components["schemas"]["LedgerAccountBalance"][];
        };
        LedgerAccountBalance: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            account_id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string;
            /** @example USD */
            currency: string;
            /**
             * @description ledger account kind
             * @enum {string}
             */
            kind: "accounts_receivable" | "cash" | "revenue" | "deferred_revenue" | "tax_payable" | "wallet" | "promotional_credit" | "promotional_expense" | "customer_credit";
            /**
             * @description the side the account grows on
             * @enum {string}
             */
            normal_side: "debit" | "credit";
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            debits_nanos: string;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            credits_nanos: string;
            /**
             * @description on the normal side: debits − credits for debit-normal accounts, credits − debits otherwise
             * @example 1500000000000
             */
            balance_nanos: string;
        };
        LedgerEntryList: components["schemas"]["LedgerEntry"][];
        LedgerEntry: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            journal_id: string;
            /** @enum {string} */
            journal_kind: "invoice_finalized" | "payment_collected" | "refund" | "credit_note" | "invoice_voided" | "wallet_top_up" | "wallet_promotional_grant" | "wallet_drawdown" | "promotional_expiry" | "revenue_recognition" | "customer_credit_applied";
            /** @description one journal per business event, e.g. invoice_finalized:<invoice id> */
            business_key: string;
            /** @example invoice */
            source_type: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            source_id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            invoice_id: string | null;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            reverses_journal_id: string | null;
            description: string;
            /**
             * @description ledger account kind
             * @enum {string}
             */
            account: "accounts_receivable" | "cash" | "revenue" | "deferred_revenue" | "tax_payable" | "wallet" | "promotional_credit" | "promotional_expense" | "customer_credit";
            /** @example USD */
            currency: string;
            /** @enum {string} */
            side: "debit" | "credit";
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            amount_nanos: string;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            effective_at: string;
        };
        TrialBalance: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            as_of: string | null;
            currencies: {
                /** @example USD */
                currency: string;
                accounts: {
                    /**
                     * @description ledger account kind
                     * @enum {string}
                     */
                    kind: "accounts_receivable" | "cash" | "revenue" | "deferred_revenue" | "tax_payable" | "wallet" | "promotional_credit" | "promotional_expense" | "customer_credit";
                    /**
                     * @description raw units at scale 12 (1 unit = 1000000000000)
                     * @example 1500000000000
                     */
                    debits_nanos: string;
                    /**
                     * @description raw units at scale 12 (1 unit = 1000000000000)
                     * @example 1500000000000
                     */
                    credits_nanos: string;
                }[];
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                total_debits_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                total_credits_nanos: string;
                /**
                 * @description debits − credits: always "0"
                 * @example 1500000000000
                 */
                difference_nanos: string;
            }[];
        };
        WalletList: components["schemas"]["Wallet"][];
        Wallet: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string;
            /** @example USD */
            currency: string;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            balance_nanos: string;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            paid_balance_nanos: string;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            promotional_balance_nanos: string;
            /**
             * @description balance_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            balance: string;
            /**
             * @description paid_balance_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            paid_balance: string;
            /**
             * @description promotional_balance_nanos for display: rounded once, HalfEven, to the currency's minor unit
             * @example 10.00
             */
            promotional_balance: string;
            /** @description below threshold_nanos after a drawdown, one top-up brings the balance to target_nanos */
            auto_recharge: {
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                threshold_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                target_nanos: string;
            } | null;
            grants: components["schemas"]["WalletGrant"][];
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            created_at: string;
        };
        WalletGrant: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            /** @enum {string} */
            kind: "paid" | "promotional";
            /**
             * @description the credit granted
             * @example 1500000000000
             */
            amount_nanos: string;
            /**
             * @description what is left of it (drawdowns and expiry take from it)
             * @example 1500000000000
             */
            remaining_nanos: string;
            /**
             * Format: date-time
             * @description when what is left of it is written off; null: never
             * @example 2026-01-31T12:00:00.000Z
             */
            expires_at: string | null;
            /**
             * Format: date-time
             * @description when it was granted (the customer's time)
             * @example 2026-01-31T12:00:00.000Z
             */
            granted_at: string;
        };
        WalletTransactionList: components["schemas"]["WalletTransaction"][];
        WalletTransaction: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            wallet_id: string;
            /** @enum {string} */
            kind: "top_up" | "promotional_grant" | "drawdown" | "expiry" | "void_return";
            /**
             * @description signed: credit added (+) or taken (−)
             * @example 1500000000000
             */
            amount_nanos: string;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            balance_after_nanos: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            invoice_id: string | null;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            grant_id: string | null;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            top_up_id: string | null;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            journal_id: string | null;
            description: string;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            occurred_at: string;
        };
        WalletTopUpList: components["schemas"]["WalletTopUp"][];
        WalletTopUp: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            wallet_id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string;
            /** @example USD */
            currency: string;
            /** @enum {string} */
            source: "api" | "auto_recharge";
            /** @enum {string} */
            status: "Pending" | "Succeeded" | "Failed";
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            amount_nanos: string;
            processor_payment_intent_id: string | null;
            failure_message: string | null;
            billing_error: components["schemas"]["BillingError"] & unknown;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            requested_at: string;
        };
        WalletTopUpRequest: {
            /**
             * @description raw units, a positive whole number of the currency's minor units
             * @example 1500000000000
             */
            amount_nanos: string;
            /**
             * Format: uuid
             * @description one of the customer's attached payment methods (default: its default method)
             * @example 01900000-0000-7000-8000-000000000000
             */
            payment_method_id?: string;
        };
        WalletWithGrant: components["schemas"]["Wallet"] & {
            grant: components["schemas"]["WalletGrant"] & unknown;
        };
        WalletGrantRequest: {
            /**
             * @description raw units, > 0
             * @example 1500000000000
             */
            amount_nanos: string;
            /**
             * Format: date-time
             * @description when what is left of it expires (default: never)
             * @example 2026-01-31T12:00:00Z
             */
            expires_at?: string | null;
            description?: string;
        };
        WalletAutoRechargeRequest: {
            /**
             * @description a drawdown that takes the balance below this recharges it
             * @example 1500000000000
             */
            threshold_nanos: string;
            /**
             * @description the balance a recharge brings it back to (> threshold_nanos)
             * @example 1500000000000
             */
            target_nanos: string;
        };
        SpendAlert: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string;
            /**
             * @description SoftLimit notifies (spend_alert.triggered); HardLimit also blocks charges above the threshold for the period and marks the customer blocked
             * @enum {string}
             */
            alert_type: "SoftLimit" | "HardLimit";
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            threshold_nanos: string;
            /**
             * @description threshold_nanos for display: rounded once, HalfEven, to the currency's minor unit (for a HardLimit alert, the spend cap)
             * @example 10.00
             */
            threshold: string;
            /** @example USD */
            currency: string;
            /** @description which charges count towards the threshold */
            scope: {
                /** @description only charges of SKUs metering this event type count; null = every charge */
                meter_event_type: string | null;
            };
            /**
             * @description Armed: watching; Triggered: the period's spend reached the threshold (until the next period start or an admin reset); Disabled: deleted, final
             * @enum {string}
             */
            status: "Armed" | "Triggered" | "Disabled";
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            triggered_at: string | null;
            /**
             * @description raw units at scale 12 (1 unit = 1000000000000)
             * @example 1500000000000
             */
            triggered_spend_nanos: string | null;
            /**
             * Format: date-time
             * @description when the evaluator last computed the spend (business time)
             * @example 2026-01-31T12:00:00.000Z
             */
            last_evaluated_at: string | null;
            /**
             * @description the current period's spend in scope at that evaluation
             * @example 1500000000000
             */
            last_spend_nanos: string | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            disabled_at: string | null;
            evaluation_error: components["schemas"]["BillingError"] & unknown;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            created_at: string;
            /** @description every state change, oldest first */
            history: components["schemas"]["SpendAlertHistoryEntry"][];
        };
        SpendAlertHistoryEntry: {
            /** @enum {string} */
            kind: "created" | "triggered" | "reset" | "disabled" | "evaluation_failed" | "evaluation_recovered";
            /** @description for reset: period_start (the next billing period began) or admin; for evaluation_failed: the failure type and message */
            reason: string | null;
            /**
             * @description for triggered: the period's spend that crossed the threshold
             * @example 1500000000000
             */
            spend_nanos: string | null;
            /**
             * Format: date-time
             * @description the billing period the entry belongs to, when known
             * @example 2026-01-31T12:00:00.000Z
             */
            period_start: string | null;
            actor: {
                type: string;
                id: string;
            };
            /**
             * Format: date-time
             * @description business time (the customer's test clock for sandbox customers)
             * @example 2026-01-31T12:00:00.000Z
             */
            at: string;
        };
        CreateSpendAlertRequest: {
            /**
             * @description SoftLimit notifies (spend_alert.triggered); HardLimit also blocks charges above the threshold for the period and marks the customer blocked
             * @enum {string}
             */
            alert_type: "SoftLimit" | "HardLimit";
            /**
             * @description the period spend (raw units, > 0) at which the alert triggers
             * @example 1500000000000
             */
            threshold_nanos: string;
            /**
             * @description the spend's currency; default the customer's billing_currency
             * @example USD
             */
            currency?: string;
            scope?: {
                /** @description count only the charges of SKUs metering this usage event_type; absent or null = every charge (fees and usage) */
                meter_event_type?: string | null;
            };
        };
        SpendAlertList: components["schemas"]["SpendAlert"][];
        ResetSpendAlertRequest: {
            /**
             * @description a new threshold, e.g. a raised limit
             * @example 1500000000000
             */
            threshold_nanos?: string;
        };
        Entitlement: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string;
            /**
             * @description blocked while any HardLimit alert of the customer is Triggered: stop serving until it is reset
             * @enum {string}
             */
            status: "active" | "blocked";
            /** @description the Triggered HardLimit alerts */
            blocked_by: {
                /**
                 * Format: uuid
                 * @example 01900000-0000-7000-8000-000000000000
                 */
                alert_id: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                threshold_nanos: string;
                /** @example USD */
                currency: string;
                /**
                 * Format: date-time
                 * @example 2026-01-31T12:00:00.000Z
                 */
                triggered_at: string;
            }[];
        };
        Reconciliation: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string;
            /** Format: date-time */
            as_of: string;
            /** @description true when every currency checks out and no closed period shows a discrepancy */
            balanced: boolean;
            currencies: {
                /** @example USD */
                currency: string;
                /**
                 * @description total of the finalized (Open or Paid) invoices
                 * @example 1500000000000
                 */
                invoiced_nanos: string;
                /**
                 * @description succeeded payments
                 * @example 1500000000000
                 */
                paid_nanos: string;
                /**
                 * @description succeeded refunds
                 * @example 1500000000000
                 */
                refunded_nanos: string;
                /**
                 * @description credit notes, all parts
                 * @example 1500000000000
                 */
                credited_nanos: string;
                /**
                 * @description credit notes' parts put on the customer's credit balance
                 * @example 1500000000000
                 */
                credited_to_balance_nanos: string;
                /**
                 * @description credit notes' parts settled out of band
                 * @example 1500000000000
                 */
                credited_out_of_band_nanos: string;
                /**
                 * @description wallet credit applied at finalization
                 * @example 1500000000000
                 */
                wallet_applied_nanos: string;
                /**
                 * @description customer credit balance applied at finalization
                 * @example 1500000000000
                 */
                customer_balance_applied_nanos: string;
                /**
                 * @description the customer's credit balance left
                 * @example 1500000000000
                 */
                customer_balance_nanos: string;
                /** @description Open invoices with an amount still due */
                open_invoices: number;
                /**
                 * @description amount due of the Open invoices
                 * @example 1500000000000
                 */
                open_amount_due_nanos: string;
                /**
                 * @description the customer's accounts receivable in the ledger
                 * @example 1500000000000
                 */
                receivable_nanos: string;
                receivable_matches_open_amount_due: boolean;
                receivable_not_negative: boolean;
            }[];
            usage: {
                /**
                 * Format: uuid
                 * @example 01900000-0000-7000-8000-000000000000
                 */
                subscription_id: string;
                /** Format: date-time */
                period_start: string;
                /** Format: date-time */
                period_end: string;
                /**
                 * Format: uuid
                 * @example 01900000-0000-7000-8000-000000000000
                 */
                sku_id: string;
                meter_event_type: string | null;
                /** @description the period rated whole from its accepted events (exact decimal) */
                accepted_quantity: string;
                /** @description what the period's invoices billed, adjustment lines included */
                billed_quantity: string;
                /** @description accepted − billed */
                unbilled_quantity: string;
                /**
                 * @description billed: nothing left; draft: its Draft waits for its grace end; late_usage_pending: late events wait for the next close (or the correction run); discrepancy: anything else
                 * @enum {string}
                 */
                state: "billed" | "draft" | "late_usage_pending" | "discrepancy";
            }[];
        };
        ArAgingReport: {
            /**
             * Format: date-time
             * @description the requested as_of; without one, now (for one customer on a test clock: its frozen time), and each row of every-customer report is aged at its customer's own time (the row's as_of)
             * @example 2026-01-31T12:00:00.000Z
             */
            as_of: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string | null;
            /** @example USD */
            currency: string | null;
            rows: {
                /**
                 * @description not past due (due today or later)
                 * @example 1500000000000
                 */
                current_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                days_1_30_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                days_31_60_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                days_61_90_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                over_90_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                total_nanos: string;
                /**
                 * Format: uuid
                 * @example 01900000-0000-7000-8000-000000000000
                 */
                customer_id: string;
                customer_name: string;
                /** @example USD */
                currency: string;
                /** @description invoices with something still owed (a positive open amount) */
                open_invoices: number;
                /**
                 * Format: date-time
                 * @description the instant this row is read and aged at: the report's as_of when one was given, else the customer's own time (its test clock's frozen time when it is on one, else now)
                 * @example 2026-01-31T12:00:00.000Z
                 */
                as_of: string;
            }[];
            totals: {
                /**
                 * @description not past due (due today or later)
                 * @example 1500000000000
                 */
                current_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                days_1_30_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                days_31_60_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                days_61_90_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                over_90_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                total_nanos: string;
                /** @example USD */
                currency: string;
                /**
                 * @description the ledger's accounts_receivable balance as of as_of (equals total_nanos)
                 * @example 1500000000000
                 */
                ledger_accounts_receivable_nanos: string;
            }[];
        };
        MrrReport: {
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            as_of: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string | null;
            /** @example USD */
            currency: string | null;
            rows: {
                /**
                 * Format: uuid
                 * @example 01900000-0000-7000-8000-000000000000
                 */
                customer_id: string;
                customer_name: string;
                /** @example USD */
                currency: string;
                /**
                 * Format: uuid
                 * @example 01900000-0000-7000-8000-000000000000
                 */
                plan_id: string;
                plan_name: string;
                billing_cadence: string;
                subscriptions: number;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                mrr_nanos: string;
            }[];
            totals: {
                /** @example USD */
                currency: string;
                customers: number;
                subscriptions: number;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                mrr_nanos: string;
            }[];
        };
        MrrMovementsReport: {
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            from: string;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            to: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string | null;
            /** @example USD */
            currency: string | null;
            rows: {
                /**
                 * Format: uuid
                 * @example 01900000-0000-7000-8000-000000000000
                 */
                customer_id: string;
                customer_name: string;
                /** @example USD */
                currency: string;
                /** @enum {string} */
                movement: "new" | "expansion" | "contraction" | "churn" | "reactivation" | "unchanged";
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                start_mrr_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                end_mrr_nanos: string;
                /**
                 * @description end − start
                 * @example 1500000000000
                 */
                change_nanos: string;
            }[];
            totals: {
                /** @example USD */
                currency: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                start_mrr_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                new_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                expansion_nanos: string;
                /**
                 * @description ≤ 0
                 * @example 1500000000000
                 */
                contraction_nanos: string;
                /**
                 * @description ≤ 0
                 * @example 1500000000000
                 */
                churn_nanos: string;
                /**
                 * @description raw units at scale 12 (1 unit = 1000000000000)
                 * @example 1500000000000
                 */
                reactivation_nanos: string;
                /**
                 * @description start + new + expansion + contraction + churn + reactivation, exactly
                 * @example 1500000000000
                 */
                end_mrr_nanos: string;
            }[];
        };
        DeferredRevenueSchedule: {
            /** @example 2026-01 */
            from: string;
            /** @example 2026-12 */
            to: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string | null;
            /** @example USD */
            currency: string | null;
            /** @description one row per month and currency (the same items as rows; the SPEC name) */
            months: components["schemas"]["DeferredRevenueMonth"][];
            /** @description the same items as months, under the name the other reports use */
            rows: components["schemas"]["DeferredRevenueMonth"][];
        };
        DeferredRevenueMonth: {
            /**
             * @description UTC calendar month
             * @example 2026-01
             */
            month: string;
            /** @example USD */
            currency: string;
            /**
             * @description deferred at the start of the month
             * @example 1500000000000
             */
            opening_deferred_nanos: string;
            /**
             * @description deferred lines of invoices finalized in the month
             * @example 1500000000000
             */
            billed_nanos: string;
            /**
             * @description earned in the month (ratably, by the ledger formula)
             * @example 1500000000000
             */
            recognized_nanos: string;
            /**
             * @description taken out by voids in the month
             * @example 1500000000000
             */
            reversed_nanos: string;
            /**
             * @description opening + billed − recognized − reversed, exactly
             * @example 1500000000000
             */
            closing_deferred_nanos: string;
            /**
             * @description the ledger's deferred_revenue balance at the end of the month
             * @example 1500000000000
             */
            ledger_deferred_nanos: string;
            /**
             * @description ledger − closing: recognition the ledger posts at the next period close (0 once it has caught up)
             * @example 1500000000000
             */
            unposted_recognition_nanos: string;
        };
        Simulation: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            status: components["schemas"]["SimulationStatus"];
            candidate: components["schemas"]["SimulationCandidate"];
            scope: components["schemas"]["SimulationScope"];
            range: components["schemas"]["SimulationRange"];
            /** @description the simulation workflow in the Temporal UI (search attributes SimulationId, SimulationStatus) */
            workflow_id: string;
            /** @description updated after each batch */
            progress: {
                /** @description subscriptions in scope with a closed period; null until counted */
                subscriptions_total: number | null;
                /** @description subscriptions re-rated so far */
                subscriptions_done: number;
                /** @description (subscription, period) pairs re-rated so far */
                periods_done: number;
            };
            /** @description per currency, over the results so far (final once completed) */
            totals: components["schemas"]["SimulationTotals"][];
            /** @description path of the per-period results as CSV */
            results_csv_url: string;
            /** @description why a failed simulation failed */
            error: {
                type: string;
                message: string;
            } | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            finished_at: string | null;
        };
        /**
         * @description running → completed; cancel moves running to cancelling, then cancelled after the batch in progress; failed: see error
         * @enum {string}
         */
        SimulationStatus: "running" | "cancelling" | "completed" | "cancelled" | "failed";
        /** @description What the periods are re-rated with */
        SimulationCandidate: components["schemas"]["SimulationPlanVersionCandidate"] | components["schemas"]["SimulationPriceChangesCandidate"];
        SimulationPlanVersionCandidate: {
            /**
             * @description every period is rated with this plan version’s SKUs, whatever plan its subscription was on (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            kind: "plan_version";
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            plan_id: string;
            /** @description the plan version (GET /admin/v1/plans/{id}/versions) */
            version: number;
        };
        SimulationPriceChangesCandidate: {
            /**
             * @description periods of subscriptions on this plan are rated with their own plan version, these SKUs repriced (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            kind: "price_changes";
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            plan_id: string;
            /** @description at most 100, one per SKU */
            price_changes: components["schemas"]["SimulationPriceChange"][];
        };
        /** @description New prices for one SKU; fields left out keep the SKU’s own */
        SimulationPriceChange: {
            /**
             * Format: uuid
             * @description a SKU of the candidate plan (any version)
             * @example 01900000-0000-7000-8000-000000000000
             */
            sku_id: string;
            /**
             * @description the new unit (or flat) price
             * @example 1500000000000
             */
            unit_amount_nanos?: string;
            /** @description Graduated and Volume only: the new tiers, the last unbounded */
            tiers?: components["schemas"]["TierInput"][];
            /**
             * @description Committed only: the new price per unit beyond the commit
             * @example 1500000000000
             */
            overage_unit_amount_nanos?: string;
            /**
             * @description Committed only: the new minimum charge per period
             * @example 1500000000000
             */
            commit_amount_nanos?: string;
        };
        /** @description Which subscriptions are re-rated: of those, the ones in the candidate plan’s currency that have at least one closed period */
        SimulationScope: components["schemas"]["SimulationCustomersScope"] | components["schemas"]["SimulationPlanScope"] | components["schemas"]["SimulationAllScope"];
        SimulationCustomersScope: {
            /**
             * @description the subscriptions of these customers (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            kind: "customers";
            /** @description at most 1000 */
            customer_ids: string[];
        };
        SimulationPlanScope: {
            /**
             * @description the subscriptions now on this plan (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            kind: "plan";
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            plan_id: string;
        };
        SimulationAllScope: {
            /**
             * @description every subscription (enum property replaced by openapi-typescript)
             * @enum {string}
             */
            kind: "all";
        };
        SimulationRange: {
            /** @description the last N closed periods of each subscription (1–36) */
            last_periods: number;
        };
        SimulationTotals: {
            /** @example USD */
            currency: string;
            /** @description customers with re-rated periods in this currency */
            customers: number;
            /**
             * @description what the periods were billed: fee and usage lines of their non-void invoices, before tax and credits
             * @example 1500000000000
             */
            actual_nanos: string;
            /**
             * @description what the candidate rates for the same periods
             * @example 1500000000000
             */
            candidate_nanos: string;
            /**
             * @description candidate − actual
             * @example 1500000000000
             */
            delta_nanos: string;
            /** @description customers whose candidate total is above their actual */
            customers_paying_more: number;
            /** @description customers whose candidate total is below their actual */
            customers_paying_less: number;
            /** @description customers whose candidate total equals their actual */
            customers_unchanged: number;
            /** @description every bucket, from the largest decrease to the largest increase, then from_zero */
            buckets: {
                /**
                 * @description change of the customer’s total relative to what it was billed; lower bounds inclusive; from_zero: billed nothing, charged something
                 * @enum {string}
                 */
                bucket: "decrease_50_or_more" | "decrease_20_to_50" | "decrease_10_to_20" | "decrease_5_to_10" | "decrease_under_5" | "unchanged" | "increase_under_5" | "increase_5_to_10" | "increase_10_to_20" | "increase_20_to_50" | "increase_50_or_more" | "from_zero";
                /** @description customers in the bucket */
                customers: number;
                /**
                 * @description sum of their deltas (candidate − actual)
                 * @example 1500000000000
                 */
                delta_nanos: string;
            }[];
        };
        CreateSimulation: {
            candidate: components["schemas"]["SimulationCandidate"];
            scope: components["schemas"]["SimulationScope"];
            range: components["schemas"]["SimulationRange"];
        };
        AuditEntryList: components["schemas"]["AuditEntry"][];
        AuditEntry: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            /**
             * @description what was done: <resource>.<verb> (catalogue in docs/audit-trail.md)
             * @example invoice.finalized
             */
            action: string;
            /**
             * @description admin or customer (JWT scope), api_key, workflow (a change a workflow made on its own: period close, finalization, dunning, auto-charge, alert trigger, contract move…), or system (the engine outside workflows: relays, reconcilers; and the payment processor)
             * @enum {string}
             */
            actor_type: "admin" | "customer" | "api_key" | "workflow" | "system";
            /** @description the JWT subject, the API key id, the Temporal workflow id, or the system component */
            actor_id: string;
            /** @example invoice */
            entity_type: string;
            /** @description the resource's id: a UUID, or the processor's event id for a processor_event */
            entity_id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string | null;
            /** @description X-Request-Id of the API call that made the change; null for changes workflows and the system made on their own */
            request_id: string | null;
            /** @description the resource before the change (null on creation) */
            before: {
                [key: string]: unknown;
            } | null;
            /** @description the resource after the change (null on deletion) */
            after: {
                [key: string]: unknown;
            } | null;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            created_at: string;
        };
        PortalSession: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string;
            /**
             * Format: date-time
             * @description when the link stops working (PORTAL_SESSION_TTL_MINUTES after it was minted or renewed)
             * @example 2026-01-31T12:00:00.000Z
             */
            expires_at: string;
            /**
             * @description who minted it: `admin:<sub>`, `api_key:<fingerprint>` or `customer:<id>`
             * @example admin:ops@example.com
             */
            created_by: string;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            created_at: string;
            /**
             * @description the portal link to send the customer to: its last part is the session secret (only this answer carries it; the service keeps only its SHA-256)
             * @example https://billing.example.com/portal/01900000-0000-7000-8000-000000000000.q2H…
             */
            url: string;
            /** @description where the portal's "Back" link leads */
            return_url: string | null;
        };
        MintPortalSessionRequest: {
            /**
             * Format: uri
             * @description where the portal's "Back" link leads (your site)
             * @example https://example.com/account
             */
            return_url?: string;
        };
        PortalSessionState: {
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            id: string;
            /**
             * Format: uuid
             * @example 01900000-0000-7000-8000-000000000000
             */
            customer_id: string;
            /**
             * Format: date-time
             * @description when the link stops working (PORTAL_SESSION_TTL_MINUTES after it was minted or renewed)
             * @example 2026-01-31T12:00:00.000Z
             */
            expires_at: string;
            /**
             * @description who minted it: `admin:<sub>`, `api_key:<fingerprint>` or `customer:<id>`
             * @example admin:ops@example.com
             */
            created_by: string;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @example 2026-01-31T12:00:00.000Z
             */
            revoked_at: string | null;
        };
        PortalForm: {
            /** @description the form token of the portal page the form came from (issued with the page, accepted for an hour) */
            form_token: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description "true" when more items follow this page */
        "X-Has-More": "true" | "false";
        /** @description id to pass as starting_after for the next page (only when X-Has-More is true) */
        "X-Next-Cursor": string;
        /** @description RFC 8288 link to the next page, rel="next" (only when X-Has-More is true) */
        Link: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Database and Temporal both answer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCustomers: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
                /** @description only the direct children of this customer */
                parent_id?: string;
                status?: components["schemas"]["CustomerStatus"];
                /** @description only customers billed in this currency */
                currency?: string;
                /** @description the customer with this external id */
                external_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of customers */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createCustomer: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCustomerRequest"];
            };
        };
        responses: {
            /** @description The created customer */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `parent_not_found`, `bill_to_not_found`, `test_clock_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `external_id_taken`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `parent_not_allowed`, `subsidiary_requires_parent`, `individual_cannot_have_children`, `parent_closed`, `self_reference`, `hierarchy_cycle`, `hierarchy_too_deep`, `consolidation_requires_parent`, `consolidation_currency_mismatch`, `bill_to_closed` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCustomer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The 360 view */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerOverview"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateCustomer: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateCustomerRequest"];
            };
        };
        responses: {
            /** @description The updated customer */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found`, `parent_not_found`, `bill_to_not_found`, `test_clock_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `external_id_taken`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `parent_not_allowed`, `subsidiary_requires_parent`, `individual_cannot_have_children`, `parent_closed`, `self_reference`, `hierarchy_cycle`, `hierarchy_too_deep`, `consolidation_requires_parent`, `consolidation_currency_mismatch`, `bill_to_closed` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    changeCustomerStatus: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangeCustomerStatusRequest"];
            };
        };
        responses: {
            /** @description The customer in its new status */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use`, `customer_has_open_subscriptions`, `customer_has_open_invoices`, `customer_has_open_children`, `customer_is_bill_to` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCustomerHierarchy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tree */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerHierarchyNode"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listProducts: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of products */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProductList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createProduct: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateProductRequest"];
            };
        };
        responses: {
            /** @description The created product */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getProduct: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The product */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `product_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPlans: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
                /** @description only plans of this product */
                product_id?: string;
                /** @description only plans priced in this currency */
                currency?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of plans */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPlan: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePlanRequest"];
            };
        };
        responses: {
            /** @description The created plan (without SKUs yet) */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plan"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `product_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use`, `product_archived` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPlan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plan */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plan"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `plan_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updatePlan: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateMetadataRequest"];
            };
        };
        responses: {
            /** @description The plan */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plan"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `plan_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSkus: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
                plan_id?: string;
                currency?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of SKUs */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SkuList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSku: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSkuRequest"];
            };
        };
        responses: {
            /** @description The created SKU */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Sku"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `plan_not_found`, `meter_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use`, `plan_currency_mismatch`, `plan_archived`, `meter_archived` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `meter_event_type_mismatch` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSku: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The SKU */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Sku"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `sku_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    archiveProduct: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The archived product */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `product_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use`, `product_archived` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    archivePlan: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The archived plan */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plan"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `plan_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use`, `plan_archived` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    archiveSku: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The archived SKU */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Sku"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `sku_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPlanVersions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The versions of the plan */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanVersion"][];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `plan_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    migratePlanSubscriptions: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlanMigrationRequest"];
            };
        };
        responses: {
            /** @description The migration (or its preview) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanMigration"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `plan_not_found`, `plan_version_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use`, `plan_archived` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `plan_has_no_skus`, `same_plan` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    previewRating: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RatingPreviewRequest"];
            };
        };
        responses: {
            /** @description The rated plan */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RatingPreview"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `plan_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `plan_has_no_skus` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listOwnSubscriptions: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
                /** @description only this customer's subscriptions */
                customer_id?: string;
                /** @description only subscriptions in this state */
                status?: "Trialing" | "Active" | "PastDue" | "Paused" | "Cancelled" | "Expired";
                /** @description only subscriptions to this plan */
                plan_id?: string;
                /** @description only subscriptions billed in this currency */
                currency?: string;
                /** @description only subscriptions on this test clock */
                test_clock_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of subscriptions */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSubscription"];
            };
        };
        responses: {
            /** @description The subscription */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found`, `plan_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use`, `plan_archived`, `product_archived` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `customer_not_active`, `plan_has_no_skus`, `currency_mismatch` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOwnSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `subscription_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUpcomingInvoice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The upcoming invoice */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpcomingInvoice"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `subscription_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSubscriptions: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
                /** @description only this customer's subscriptions */
                customer_id?: string;
                /** @description only subscriptions in this state */
                status?: "Trialing" | "Active" | "PastDue" | "Paused" | "Cancelled" | "Expired";
                /** @description only subscriptions to this plan */
                plan_id?: string;
                /** @description only subscriptions billed in this currency */
                currency?: string;
                /** @description only subscriptions on this test clock */
                test_clock_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of subscriptions */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `subscription_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateMetadataRequest"];
            };
        };
        responses: {
            /** @description The subscription */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `subscription_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pauseSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ReasonRequest"];
            };
        };
        responses: {
            /** @description The subscription after the move */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `subscription_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `billing_failed` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resumeSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ReasonRequest"];
            };
        };
        responses: {
            /** @description The subscription after the move */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `subscription_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `billing_failed` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ReasonRequest"];
            };
        };
        responses: {
            /** @description The subscription after the move */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `subscription_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `billing_failed` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retrySubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription after the retried step */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `subscription_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use`, `no_billing_error` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    billSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The refreshed Draft */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description The new Draft */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `subscription_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `billing_failed`, `nothing_to_bill` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    changeSubscriptionPlan: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @example 01900000-0000-7000-8000-000000000000
                     */
                    plan_id: string;
                };
            };
        };
        responses: {
            /** @description The subscription and its Draft */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanChange"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `plan_not_found`, `subscription_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use`, `plan_archived`, `product_archived` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `billing_failed`, `plan_has_no_skus`, `currency_mismatch`, `same_plan` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTestClocks: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of test clocks */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestClockList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createTestClock: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    /**
                     * Format: date-time
                     * @description ISO 8601 date-time with seconds and an offset (Z or ±hh:mm up to ±15:59): an instant from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z
                     * @example 2026-01-31T12:00:00Z
                     */
                    frozen_time: string;
                };
            };
        };
        responses: {
            /** @description The test clock */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestClock"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTestClock: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The test clock */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestClock"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `test_clock_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteTestClock: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `test_clock_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use`, `test_clock_advancing`, `test_clock_has_customers` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    advanceTestClock: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: date-time
                     * @description ISO 8601 date-time with seconds and an offset (Z or ±hh:mm up to ±15:59): an instant from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z
                     * @example 2026-01-31T12:00:00Z
                     */
                    frozen_time: string;
                };
            };
        };
        responses: {
            /** @description The test clock, advancing */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestClock"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `test_clock_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use`, `test_clock_advancing` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `test_clock_cannot_go_back` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listInvoices: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
                customer_id?: string;
                status?: components["schemas"]["InvoiceStatus"];
                /** @description invoices with a line of this subscription */
                subscription_id?: string;
                currency?: string;
                /** @description the invoice with this number (INV-######): a list of at most one */
                invoice_number?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of invoice summaries */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvoiceList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listOwnInvoices: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
                customer_id?: string;
                status?: components["schemas"]["InvoiceStatus"];
                /** @description invoices with a line of this subscription */
                subscription_id?: string;
                currency?: string;
                /** @description the invoice with this number (INV-######): a list of at most one */
                invoice_number?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of invoice summaries */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvoiceList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInvoice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The invoice */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateInvoice: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateMetadataRequest"];
            };
        };
        responses: {
            /** @description The invoice */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCreditNotes: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
                customer_id?: string;
                invoice_id?: string;
                currency?: string;
                reason?: "duplicate" | "fraudulent" | "order_change" | "product_unsatisfactory" | "other";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of credit notes */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreditNoteList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOwnInvoice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The invoice */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    explainInvoice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The explanation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvoiceExplanation"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    addInvoiceLineItem: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AddInvoiceLineItemRequest"];
            };
        };
        responses: {
            /** @description The invoice with the new line */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `line_amount_mismatch`, `amount_out_of_range`, `negative_invoice_total` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    applyInvoiceCredit: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApplyInvoiceCreditRequest"];
            };
        };
        responses: {
            /** @description The invoice with the credit applied */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `amount_out_of_range`, `credit_exceeds_invoice` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    calculateInvoiceTax: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The invoice with its tax lines */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listInvoiceCreditNotes: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of credit notes */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreditNoteList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    issueCreditNote: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IssueCreditNoteRequest"];
            };
        };
        responses: {
            /** @description The credit note with its allocation */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreditNote"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `credit_note_exceeds_remaining`, `credit_note_exceeds_amount_due`, `credit_note_exceeds_refundable`, `credit_note_exceeds_settled`, `credit_note_allocation_exceeds_amount`, `refund_not_whole_minor_units`, `refund_rejected` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable`, `payment_processor_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCreditNote: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The credit note */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreditNote"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `credit_note_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryInvoice: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The invoice after the retried move */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use`, `no_billing_error` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `billing_failed` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    finalizeInvoice: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Open invoice (Paid for a credit invoice) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `billing_failed`, `negative_invoice_total` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    payInvoice: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["PayInvoice"];
            };
        };
        responses: {
            /** @description The Paid invoice */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `billing_failed`, `payment_amount_mismatch` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    voidInvoice: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ReasonRequest"];
            };
        };
        responses: {
            /** @description The Void invoice */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invoice"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use`, `customer_credit_spent` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `billing_failed` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInvoicePdf: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The PDF */
            200: {
                headers: {
                    /** @description SHA-256 (hex) of the PDF; the same for every download of a stored edition */
                    "X-Document-SHA256"?: string;
                    /** @description the SHA-256, quoted */
                    ETag?: string;
                    /** @description the stored edition served (open, paid, void, +cn<n> after credit notes; issued for a credit note); absent for a Draft */
                    "X-Document-Edition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCreditNotePdf: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The PDF */
            200: {
                headers: {
                    /** @description SHA-256 (hex) of the PDF; the same for every download of a stored edition */
                    "X-Document-SHA256"?: string;
                    /** @description the SHA-256, quoted */
                    ETag?: string;
                    /** @description the stored edition served (open, paid, void, +cn<n> after credit notes; issued for a credit note); absent for a Draft */
                    "X-Document-Edition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `credit_note_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHostedInvoicePage: {
        parameters: {
            query?: {
                /** @description `complete` when the processor's checkout page sent the payer back after paying: the page says the payment is being confirmed until it is */
                checkout?: "complete";
            };
            header?: never;
            path: {
                /** @description the signed part of hosted_invoice_url */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The invoice as an HTML page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found`, `hosted_link_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Gone. error.code: `hosted_link_expired` */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHostedInvoiceExplanation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the signed part of hosted_invoice_url */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The explanation as an HTML page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found`, `hosted_link_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Gone. error.code: `hosted_link_expired` */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    payHostedInvoice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the signed part of hosted_invoice_url */
                token: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["HostedPayForm"];
            };
        };
        responses: {
            /** @description To the hosted page (after a charge of the card on file) or to the processor's checkout page */
            303: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `hosted_form_refused` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found`, `hosted_link_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Gone. error.code: `hosted_link_expired` */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `billing_failed`, `nothing_to_charge`, `no_payment_method`, `checkout_rejected` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable`, `payment_processor_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    renewHostedInvoiceLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new link */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HostedLink"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Gone. error.code: `hosted_link_expired` */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHostedInvoicePdf: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the signed part of hosted_invoice_url */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The PDF */
            200: {
                headers: {
                    /** @description SHA-256 (hex) of the PDF; the same for every download of a stored edition */
                    "X-Document-SHA256"?: string;
                    /** @description the SHA-256, quoted */
                    ETag?: string;
                    /** @description the stored edition served (open, paid, void, +cn<n> after credit notes; issued for a credit note); absent for a Draft */
                    "X-Document-Edition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found`, `hosted_link_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Gone. error.code: `hosted_link_expired` */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    ingestEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UsageEvent"];
                "application/cloudevents+json": components["schemas"]["CloudEvent"];
            };
        };
        responses: {
            /** @description Stored, or already stored (duplicate) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestEventResult"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found`, `subscription_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use`, `event_id_conflict` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `subscription_customer_mismatch`, `quantity_limit_exceeded` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    ingestEventBatch: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UsageEventBatch"];
                "application/cloudevents-batch+json": components["schemas"]["CloudEventBatch"];
            };
        };
        responses: {
            /** @description Counts of stored and duplicate events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestBatchResult"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use`, `event_id_conflict` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `invalid_events`, `quantity_limit_exceeded` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMeters: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
                /** @description only meters of this event_type */
                event_type?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of meters */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MeterList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createMeter: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateMeter"];
            };
        };
        responses: {
            /** @description The meter */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Meter"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `meter_exists`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMeter: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The meter */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Meter"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `meter_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    archiveMeter: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The archived meter */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Meter"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `meter_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use`, `meter_archived` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCustomerUsageEvents: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last event of the previous page; the next page holds events that arrived before it */
                starting_after?: string;
                /** @description only events stored at or after this instant */
                created_gte?: string;
                /** @description only events stored before this instant */
                created_lt?: string;
                /** @description only events of this event_type (exact match) */
                event_type?: string;
                /** @description only events sent with this subscription_id */
                subscription_id?: string;
                /** @description only events that occurred at or after this instant */
                timestamp_gte?: string;
                /** @description only events that occurred before this instant */
                timestamp_lt?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of usage events */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsageEventList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSubscriptionUsage: {
        parameters: {
            query?: {
                /** @description with `to`: one explicit window [from, to) for every meter */
                from?: string;
                /** @description ISO 8601 date-time with seconds and an offset (Z or ±hh:mm up to ±15:59): an instant from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z */
                to?: string;
                /** @description reference instant (default now, or the test clock's time): the billing period containing it, Sliding windows ending at it, the Tumbling window containing it */
                at?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The usage summary */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsageSummary"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `subscription_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listContracts: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
                customer_id?: string;
                status?: components["schemas"]["ContractStatus"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of contracts */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContractList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createContract: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateContract"];
            };
        };
        responses: {
            /** @description The contract */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contract"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `customer_closed` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getContract: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The contract */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contract"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `contract_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    activateContract: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Active contract */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contract"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `contract_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    amendContract: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AmendContract"];
            };
        };
        responses: {
            /** @description The new contract */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contract"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `contract_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use`, `contract_already_amended` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `invalid_effective_date` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    terminateContract: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ReasonRequest"];
            };
        };
        responses: {
            /** @description The Terminated contract */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contract"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `contract_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryContract: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The contract after the retried step */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Contract"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `contract_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use`, `no_billing_error` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    linkContractSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LinkContractSubscription"];
            };
        };
        responses: {
            /** @description The link */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContractSubscriptionLink"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `subscription_not_found`, `contract_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use`, `subscription_already_linked` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `billing_failed`, `contract_customer_mismatch`, `contract_ended`, `coterm_not_alignable` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of endpoints */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookEndpointRequest"];
            };
        };
        responses: {
            /** @description The endpoint, with its signing secret */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `webhook_url_not_allowed` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint (secret masked) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `webhook_endpoint_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `webhook_endpoint_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhookEndpointRequest"];
            };
        };
        responses: {
            /** @description The endpoint (secret masked) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `webhook_endpoint_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `webhook_url_not_allowed` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint, with its new signing secret */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `webhook_endpoint_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
                status?: "Pending" | "Delivered" | "Failed";
                /** @description only deliveries of this event type */
                event_type?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `webhook_endpoint_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `webhook_endpoint_not_found`, `webhook_delivery_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resendWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery, Pending again */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `webhook_endpoint_not_found`, `webhook_delivery_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use`, `webhook_delivery_in_progress` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPaymentMethods: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of payment methods */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentMethodList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    attachPaymentMethod: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AttachPaymentMethodRequest"];
            };
        };
        responses: {
            /** @description The attached payment method */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentMethod"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `payment_method_rejected` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable`, `payment_processor_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPaymentMethod: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payment method */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentMethod"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `payment_method_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    detachPaymentMethod: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The detached payment method */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentMethod"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `payment_method_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable`, `payment_processor_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listInvoicePayments: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of payments */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPayments: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
                customer_id?: string;
                invoice_id?: string;
                status?: components["schemas"]["PaymentStatus"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of payments */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    chargeInvoice: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CreatePaymentIntentRequest"];
            };
        };
        responses: {
            /** @description The payment */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found`, `payment_method_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `billing_failed`, `nothing_to_charge`, `no_payment_method` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    captureInvoicePayment: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The payment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Payment"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use`, `no_payment_to_capture` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `billing_failed` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    refundInvoice: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RefundInvoiceRequest"];
            };
        };
        responses: {
            /** @description The refund */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found`, `payment_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `nothing_to_refund`, `refund_not_whole_minor_units`, `refund_exceeds_payment`, `refund_rejected` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable`, `payment_processor_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDunningSchedules: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
                status?: "Active" | "Resolved" | "Exhausted";
                customer_id?: string;
                subscription_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of dunning schedules */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DunningScheduleList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInvoiceDunning: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dunning schedule */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DunningSchedule"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found`, `dunning_schedule_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryInvoiceDunning: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The dunning schedule after the retry */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DunningSchedule"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found`, `dunning_schedule_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use`, `no_billing_error` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    receiveProcessorNotification: {
        parameters: {
            query?: never;
            header?: {
                /** @description t=<timestamp>,v1=<HMAC-SHA256 hex> */
                "stripe-signature"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProcessorNotification"];
            };
        };
        responses: {
            /** @description Acknowledged */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProcessorNotificationReceipt"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_signature`, `malformed_notification` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listProcessorEvents: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last event of the previous page; the next page holds events received before it */
                starting_after?: string;
                /** @description only events received at or after this instant */
                created_gte?: string;
                /** @description only events received before this instant */
                created_lt?: string;
                status?: "pending" | "processed" | "billing_error";
                /** @description only events of this type (exact match), e.g. charge.refunded */
                type?: string;
                /** @description only events about this processor object */
                object_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of processor notifications */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProcessorEventList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getProcessorEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The processor notification */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProcessorEvent"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `processor_event_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryProcessorEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The processor notification after the retry */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProcessorEvent"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `processor_event_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use`, `no_billing_error` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listLedgerAccounts: {
        parameters: {
            query?: {
                /** @description balances of the entries effective at or before this instant (default: all) */
                as_of?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The customer's accounts */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerLedger"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listLedgerEntries: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
                /** @description only entries of this account kind */
                account?: "accounts_receivable" | "cash" | "revenue" | "deferred_revenue" | "tax_payable" | "wallet" | "promotional_credit" | "promotional_expense" | "customer_credit";
                currency?: string;
                /** @description entries effective at or after this instant */
                from?: string;
                /** @description entries effective before this instant */
                to?: string;
                /** @description the source document: an invoice (every journal about it), a credit note, refund, top-up or grant */
                source_id?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of ledger entries */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerEntryList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTrialBalance: {
        parameters: {
            query?: {
                /** @description one customer's accounts (default: every customer) */
                customer_id?: string;
                /** @description ISO 8601 date-time with seconds and an offset (Z or ±hh:mm up to ±15:59): an instant from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z */
                as_of?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The trial balance */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrialBalance"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWallets: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The wallets */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WalletList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWallet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                currency: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The wallet */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Wallet"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found`, `wallet_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWalletTransactions: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
            };
            header?: never;
            path: {
                id: string;
                currency: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of wallet transactions */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WalletTransactionList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found`, `wallet_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWalletTopUps: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
            };
            header?: never;
            path: {
                id: string;
                currency: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The top-ups */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WalletTopUpList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found`, `wallet_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    topUpWallet: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
                currency: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WalletTopUpRequest"];
            };
        };
        responses: {
            /** @description The top-up */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WalletTopUp"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found`, `payment_method_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `no_payment_method`, `wallet_balance_out_of_range`, `top_up_too_large`, `top_up_not_whole_minor_units` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable`, `payment_processor_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryWalletTopUp: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
                currency: string;
                top_up_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The top-up after the retried step */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WalletTopUp"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found`, `wallet_top_up_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use`, `no_billing_error` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    grantWalletCredit: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
                currency: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WalletGrantRequest"];
            };
        };
        responses: {
            /** @description The wallet after the grant, with the grant created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WalletWithGrant"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `wallet_balance_out_of_range` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setWalletAutoRecharge: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
                currency: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WalletAutoRechargeRequest"];
            };
        };
        responses: {
            /** @description The wallet */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Wallet"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    disableWalletAutoRecharge: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
                currency: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The wallet */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Wallet"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSpendAlerts: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last item of the previous page; the next page holds older items (lists are newest first) */
                starting_after?: string;
                /** @description only items created at or after this instant */
                created_gte?: string;
                /** @description only items created before this instant */
                created_lt?: string;
                /** @description Armed: watching; Triggered: the period's spend reached the threshold (until the next period start or an admin reset); Disabled: deleted, final */
                status?: "Armed" | "Triggered" | "Disabled";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description One page of alerts */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpendAlertList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSpendAlert: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSpendAlertRequest"];
            };
        };
        responses: {
            /** @description The created alert, Armed */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpendAlert"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `customer_closed` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSpendAlert: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                alert_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The alert */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpendAlert"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found`, `spend_alert_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    disableSpendAlert: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
                alert_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The disabled alert */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpendAlert"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found`, `spend_alert_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resetSpendAlert: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
                alert_id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ResetSpendAlertRequest"];
            };
        };
        responses: {
            /** @description The alert */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpendAlert"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found`, `spend_alert_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEntitlement: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entitlement */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Entitlement"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReconciliation: {
        parameters: {
            query: {
                /** @description the customer to reconcile */
                customer_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The reconciliation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Reconciliation"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getArAgingReport: {
        parameters: {
            query?: {
                /** @description one customer's figures (default: every customer) */
                customer_id?: string;
                /** @description one currency (default: each currency separately) */
                currency?: string;
                /** @description csv for a CSV table (also with Accept: text/csv); default json */
                format?: "json" | "csv";
                /** @description the instant the report is as of (default: now; AR aging without it ages each customer's invoices at that customer's own time, its test clock's frozen time when it has one) */
                as_of?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The aging report */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArAgingReport"];
                    "text/csv": string;
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMrrReport: {
        parameters: {
            query?: {
                /** @description one customer's figures (default: every customer) */
                customer_id?: string;
                /** @description one currency (default: each currency separately) */
                currency?: string;
                /** @description csv for a CSV table (also with Accept: text/csv); default json */
                format?: "json" | "csv";
                /** @description the instant the report is as of (default: now; AR aging without it ages each customer's invoices at that customer's own time, its test clock's frozen time when it has one) */
                as_of?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The MRR report */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MrrReport"];
                    "text/csv": string;
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMrrMovementsReport: {
        parameters: {
            query: {
                /** @description one customer's figures (default: every customer) */
                customer_id?: string;
                /** @description one currency (default: each currency separately) */
                currency?: string;
                /** @description csv for a CSV table (also with Accept: text/csv); default json */
                format?: "json" | "csv";
                /** @description start instant (MRR at from) */
                from: string;
                /** @description end instant (MRR at to), after from */
                to: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The MRR movements */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MrrMovementsReport"];
                    "text/csv": string;
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDeferredRevenueReport: {
        parameters: {
            query: {
                /** @description one customer's figures (default: every customer) */
                customer_id?: string;
                /** @description one currency (default: each currency separately) */
                currency?: string;
                /** @description csv for a CSV table (also with Accept: text/csv); default json */
                format?: "json" | "csv";
                /** @description first UTC month of the schedule */
                from: string;
                /** @description last UTC month (at most 120 months from from) */
                to: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The schedule */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeferredRevenueSchedule"];
                    "text/csv": string;
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createSimulation: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSimulation"];
            };
        };
        responses: {
            /** @description The simulation, running */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Simulation"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `plan_not_found`, `plan_version_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `plan_has_no_skus` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSimulation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The simulation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Simulation"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `simulation_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelSimulation: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The simulation, cancelling */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Simulation"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `simulation_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use`, `simulation_not_running` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSimulationResultsCsv: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The results */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `simulation_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAuditEntries: {
        parameters: {
            query?: {
                /** @description page size, 1-200 (default 50) */
                limit?: number;
                /** @description id of the last entry of the previous page (the next page holds older entries) */
                starting_after?: string;
                /** @description entries written at or after this instant */
                created_gte?: string;
                /** @description entries written before this instant */
                created_lt?: string;
                /** @description resource type, e.g. invoice, subscription, customer */
                entity_type?: string;
                /** @description one resource: its id (a UUID, or the processor's event id for a processor_event) */
                entity_id?: string;
                /** @description entries about one customer's resources */
                customer_id?: string;
                actor_type?: "admin" | "customer" | "api_key" | "workflow" | "system";
                /** @description JWT subject, API key id or system component */
                actor_id?: string;
                /** @description one action, e.g. invoice.voided */
                action?: string;
                /** @description what one API call changed: the X-Request-Id it was answered with */
                request_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of audit entries */
            200: {
                headers: {
                    "X-Has-More": components["headers"]["X-Has-More"];
                    "X-Next-Cursor": components["headers"]["X-Next-Cursor"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEntryList"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuditEntry: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entry */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEntry"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `audit_entry_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPortalSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["MintPortalSessionRequest"];
            };
        };
        responses: {
            /** @description The new portal session, with its link */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalSession"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `customer_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createOwnPortalSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["MintPortalSessionRequest"];
            };
        };
        responses: {
            /** @description The new portal session, with its link */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalSession"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    renewPortalSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The renewed session, with its new link */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalSession"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokePortalSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description replays the stored response for 24 h */
                "idempotency-key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session, revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalSessionState"];
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing or invalid credentials. error.code: `unauthenticated` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Credentials lack the required scope. error.code: `forbidden` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Gone. error.code: `portal_session_revoked` */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPortalPage: {
        parameters: {
            query?: {
                /** @description what the page says on top after an action redirected to it */
                notice?: "card_saved" | "setup_incomplete" | "setup_cancelled" | "cancel_scheduled";
            };
            header?: never;
            path: {
                /** @description the last part of the portal link (the session id and its secret) */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The portal as an HTML page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `portal_session_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Gone. error.code: `portal_session_expired`, `portal_session_revoked` */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPortalInvoicePdf: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the last part of the portal link (the session id and its secret) */
                token: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The PDF */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `invoice_not_found`, `portal_session_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Gone. error.code: `portal_session_expired`, `portal_session_revoked` */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startPortalPaymentMethodSetup: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the last part of the portal link (the session id and its secret) */
                token: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["PortalForm"];
            };
        };
        responses: {
            /** @description To the processor's page */
            303: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `portal_session_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Gone. error.code: `portal_session_expired`, `portal_session_revoked` */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `checkout_rejected` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable`, `payment_processor_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    completePortalPaymentMethodSetup: {
        parameters: {
            query: {
                /** @description the processor's checkout session id (filled in by the processor) */
                session_id: string;
            };
            header?: never;
            path: {
                /** @description the last part of the portal link (the session id and its secret) */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the portal page */
            303: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `portal_session_not_found`, `checkout_session_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Gone. error.code: `portal_session_expired`, `portal_session_revoked` */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `payment_method_rejected` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelSubscriptionFromPortal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the last part of the portal link (the session id and its secret) */
                token: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["PortalForm"];
            };
        };
        responses: {
            /** @description To the portal page */
            303: {
                headers: {
                    /** @description where the browser goes next */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `subscription_not_found`, `portal_session_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `invalid_state_transition`, `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Gone. error.code: `portal_session_expired`, `portal_session_revoked` */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused`, `portal_cancellation_disabled` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    signOutOfPortal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the last part of the portal link (the session id and its secret) */
                token: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["PortalForm"];
            };
        };
        responses: {
            /** @description The signed-out page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Validation failed or malformed request. error.code: `validation_failed`, `malformed_json`, `invalid_idempotency_key` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Resource not found. error.code: `portal_session_not_found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Conflict. error.code: `idempotency_key_in_use` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Gone. error.code: `portal_session_expired`, `portal_session_revoked` */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Payload too large. error.code: `payload_too_large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Request body is not JSON. error.code: `unsupported_media_type` */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Business rule violated. error.code: `idempotency_key_reused` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Internal error. error.code: `internal_error` */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Database, Temporal or the payment processor unavailable. error.code: `service_unavailable` */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3.0 document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApiReference: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Swagger UI page for this document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getErrorCatalogue: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every error code with its status and meaning, and every issue code */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Rate limit exceeded. error.code: `rate_limited` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
