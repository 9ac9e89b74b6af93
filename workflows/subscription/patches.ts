/**
 * Changes to the released subscription workflow, each behind `patched(id)` (docs/versioning.md).
 * A run without an id's marker keeps the old commands, so histories recorded before
 * the change still replay. Once every open run started on code with the patch, the call becomes
 * `deprecatePatch(id)`; the old branch and the id go once no open run carries the marker either.
 */

/**
 * `billSubscription` and `changePlan` wake the main loop when they finish, and every wake (not only
 * a due one) checks whether to continue as new: before it, a run billed on demand over and over
 * never reached the check and its history grew without bound.
 */
export const CONTINUE_AS_NEW_ON_EVERY_WAKE = 'subscription-continue-as-new-on-every-wake';

/**
 * The `alignToContract` update (coterm adoption): realigns the periods to the contract end, closing
 * the period it cuts short. Runs that carry the marker were realigned; the handler is new, so no
 * history recorded before it holds the update.
 */
export const COTERM_ALIGNMENT = 'subscription-coterm-alignment';

/**
 * A main-loop step whose activity fails (deterministically, or after its bounded retry schedule) no
 * longer fails the workflow: it is recorded as the subscription's billing_error and the loop holds
 * until an operator's `retrySubscriptionBilling` update, serving every other update meanwhile.
 */
export const BILLING_ERRORS = 'subscription-billing-errors';

/**
 * The workflow keeps its `BillingStatus` search attribute (workflows/shared/messages.ts) current: each
 * status move upserts it (the start sets the first). Runs without the marker upserted nothing.
 */
export const STATUS_SEARCH_ATTRIBUTE = 'subscription-status-search-attribute';

/**
 * A period end closes the period and rolls the subscription into the next one in one activity
 * (`closeAndRollSubscriptionPeriod`) instead of two (`closeSubscriptionPeriod`, then
 * `rollSubscriptionPeriod`): one round trip and one Temporal action less per period.
 */
export const CLOSE_AND_ROLL_IN_ONE_ACTIVITY = 'subscription-close-and-roll-in-one-activity';

/**
 * A command sent while its test clock is ready carries the clock's time (`at`), and the run moves its
 * own clock there first: a test-clock advance no longer wakes a subscription that has nothing due
 * before its end (src/services/subscriptions/test-clocks.ts), so such a run's clock may stay at the
 * advance's last step it took part in. Runs without the marker took their commands at their own clock.
 */
export const COMMANDS_AT_CLOCK_TIME = 'subscription-commands-at-clock-time';

/**
 * A Trialing subscription one of whose invoices is paid (a collected payment, a processor
 * notification, a manual pay; the `paid` payment outcome) becomes Active then (SPEC §3 "Trialing:
 * trial ends or payment succeeds"): the trial ends at the payment and the first paid period starts.
 * Runs without the marker never received that outcome.
 */
export const TRIAL_ENDS_ON_PAYMENT = 'subscription-trial-ends-on-payment';

/**
 * Progressive billing on the crossing: the `usageAccrued` signal (sent by ingestion once usage of a
 * subscription with a threshold committed) arms one debounced threshold check
 * (THRESHOLD_CROSSING_DEBOUNCE_MS of workflow time), so a burst of events makes one check and, when it
 * crossed, one threshold invoice. The daily check stays as a backstop. Runs without the marker never
 * received the signal.
 */
export const THRESHOLD_ON_CROSSING = 'subscription-threshold-on-crossing';

/**
 * Invoice workflows are driven by this workflow, not by its activities (issue 29): the activities of
 * a period close, a bill-now, a plan change and a threshold check hand back the invoice workflow to
 * start (`start_invoice`) or the finalize to ask of it (`finalize_invoice`), and this workflow runs
 * them (workflows/follow-ups): a child start (ABANDON), carrying the finalize request when the invoice
 * workflow does not run yet, else a request signal; the invoice workflow signals its answer back and
 * the step waits for it. Runs without the marker got results without follow-ups: their activities
 * started the invoice workflows and sent the finalize update through the gateway.
 */
export const RUNS_INVOICE_FOLLOW_UPS = 'subscription-runs-invoice-follow-ups';

/**
 * Shadow billing (docs/shadow-billing.md): a period close whose activity answers `shadow: true` (a
 * live shadow attachment covers the subscription) is followed by the `rateShadowBilling` activity,
 * which rates the closed period with the candidate. Its failure is logged and never holds the
 * loop. Closes that answer without `shadow` (every one before the feature) schedule nothing new.
 */
export const SHADOW_BILLING = 'subscription-shadow-billing';

/**
 * Entitlement reset (docs/entitlements.md): a period roll whose activity answers `entitlements: true`
 * (the subscription gives Metered features) is followed by the `resetEntitlements` activity, which
 * settles the closed period's grants (rollover capped, one-off leftovers) and writes
 * `entitlement.reset`. A failure is logged and never holds billing. Rolls that answer without the
 * field (every one before the feature) schedule nothing new.
 */
export const ENTITLEMENT_RESET = 'subscription-entitlement-reset';

/**
 * The entitlement reset as a held step (issue 27): under this patch a reset that fails past its retry
 * schedule is not only logged: it holds the loop as the subscription's billing_error (the closed
 * period's grants would otherwise go unsettled, and a one-off grant would give its whole quantity
 * again), and the operator's retry runs it again before anything else (`pendingResets`, carried
 * across continue-as-new). Runs recorded before it logged the failure and went on.
 */
export const ENTITLEMENT_RESET_HELD = 'subscription-entitlement-reset-held';
